// `npm run build`: bundles the sources into dist/ with esbuild, for plain `node` with no loader.
//
// A bundle rather than a file-per-module emit: TypeBox alone is about 700 small modules, and Node
// resolving and compiling them one by one dominated a one-shot CLI call and the server's start-up.
// Code splitting keeps each entry to what it imports: `devutils base64` never loads Fastify, the
// MCP SDK or pino, which `serve` and `mcp` import on demand.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build, version as esbuildVersion, type Metafile, type Plugin } from 'esbuild'
import { COMPILE_CACHE_FOLDER } from '../src/compile-cache.ts'
import { buildApp } from '../src/http/app.ts'
import { ZXING_WASM_FILE } from '../src/lib/image/zxing.ts'
import { operations } from '../src/operations/index.ts'
import { operationInfos } from '../src/operations/infos.ts'
import { JQ_DIST_FOLDER, patchJqJs } from '../src/operations/jq/engine.ts'
import { pipeline } from '../src/served.ts'
import {
  BODY_LIMIT_PLACEHOLDER,
  PAGE_WORKER_NAME,
  PIPELINE_PATH,
  SERVICE_WORKER_PATH,
  TOOL_PATH,
  WEB_ASSETS_PATH,
  WEB_MANIFEST_PATH,
} from '../src/web/paths.ts'
import {
  assertEnginesCoverFloor,
  type BundledPackage,
  bundledPackages,
  cycloneDxSbom,
  installedDependencies,
  SBOM_FILE,
  swaggerUiVersion,
} from './bundle-manifest.ts'
import { serviceBundle } from './node-bundle.ts'
import { operationInfosModule } from './operation-infos.ts'
import { webCatalogue } from './web-catalogue.ts'

const root = new URL('..', import.meta.url).pathname
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string
  version: string
  description: string
  license: string
  engines: { node: string }
  dependencies: Record<string, string>
}

/** The files the /docs page serves (Swagger UI's), copied beside the bundle, where the server looks for them. */
const SWAGGER_UI_ASSETS = { from: 'node_modules/@fastify/swagger-ui/static', to: 'swagger-ui' }

const outdir = join(root, 'dist')
rmSync(outdir, { recursive: true, force: true })

const service = serviceBundle({ root, outdir, version: packageJson.version })
const result = await build({ ...service, plugins: [...service.plugins, operationInfosModule(operationInfos)] })

cpSync(join(root, SWAGGER_UI_ASSETS.from), join(outdir, SWAGGER_UI_ASSETS.to), { recursive: true })
copyJq(join(outdir, JQ_DIST_FOLDER))
// zxing-wasm's WebAssembly (zxing-cpp's writer and reader), beside the chunks, where the barcode operations read it (src/lib/image/zxing.ts).
cpSync(join(root, 'node_modules', 'zxing-wasm', 'dist', 'full', ZXING_WASM_FILE), join(outdir, ZXING_WASM_FILE))

/**
 * jq-web's files beside the bundle, which the jq operation loads by path (src/operations/jq/engine.ts):
 * its `jq.js` with the edits that bound its output and export its factory (the build fails if
 * jq-web's text has changed under them), its `jq.wasm` as it is, and its licence.
 */
function copyJq(folder: string) {
  const from = join(root, 'node_modules', 'jq-web')
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'jq.js'), patchJqJs(readFileSync(join(from, 'jq.js'), 'utf8')))
  cpSync(join(from, 'jq.wasm'), join(folder, 'jq.wasm'))
  cpSync(join(from, 'LICENSE'), join(folder, 'LICENSE'))
}
// The typed client (`devutils/client`) is built apart: no Node built-ins, no require banner, no chunk
// shared with the server, so that browsers and other runtimes load it as it is.
await build({
  absWorkingDir: root,
  entryPoints: { client: 'src/client/index.ts' },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
})
// Its types: declarations of the operations' TypeBox schemas, which the client's methods are typed from.
execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.client.json'], { cwd: root, stdio: 'inherit' })

writeFileSync(join(outdir, 'openapi.json'), await openApiDocument())

/**
 * The OpenAPI document as the server publishes it, for `devutils mcp`, which serves it as a resource
 * without starting the HTTP app that generates it.
 */
async function openApiDocument(): Promise<string> {
  const app = await buildApp({ config: { logLevel: 'silent' } })
  await app.ready()
  const document = JSON.stringify(app.swagger())
  await app.close()
  return document
}

/**
 * The licence texts of every package whose code the bundle holds, as their licences ask of copies;
 * the unbundled dependencies keep theirs in node_modules.
 */
function thirdPartyLicenses(bundled: BundledPackage[]): string {
  const sections = bundled.map(({ dir, manifest }) => {
    // A package that offers a choice (ibantools' "MIT OR MPL-2.0") or carries data under another licence
    // (libphonenumber-js's metadata) ships a file for each beside the one that names them: all are kept.
    const licenceFiles = readdirSync(join(root, dir))
      .filter((name) => /^(licen[cs]e|copying)/i.test(name))
      .sort()
    const texts = licenceFiles.map((name) => {
      const text = readFileSync(join(root, dir, name), 'utf8').trim()
      return licenceFiles.length > 1 ? `${name}:\n\n${text}` : text
    })
    const text = texts.length > 0 ? texts.join('\n\n') : `License: ${manifest.license ?? 'unknown'}`
    return `${manifest.name} ${manifest.version}\n\n${text}\n`
  })
  const assets =
    `${SWAGGER_UI_ASSETS.to}/ holds Swagger UI's files (Swagger UI is under the Apache License 2.0), as @fastify/swagger-ui ships them.\n` +
    `${JQ_DIST_FOLDER}/ holds jq-web's jq.js (edited) and jq.wasm (jq and Oniguruma built to WebAssembly), with their licences in ${JQ_DIST_FOLDER}/LICENSE.\n` +
    `${ZXING_WASM_FILE} is zxing-wasm's build (the zxing-wasm package above, as it ships it) of zxing-cpp (Apache License 2.0) with stb_image and stb_image_write (public domain or MIT) to WebAssembly; see the NOTICE file.\n\n` +
    `The NOTICE file:\n\n${readFileSync(join(root, 'NOTICE'), 'utf8').trim()}\n\n` +
    `The Apache License 2.0, under which zxing-cpp is distributed:\n\n${readFileSync(join(root, 'scripts', 'licences', 'Apache-2.0.txt'), 'utf8').trim()}\n`
  return `devutils ${packageJson.version} bundles the following packages.\n\n${sections.join(`\n${'-'.repeat(72)}\n\n`)}\n${'-'.repeat(72)}\n\n${assets}`
}

/**
 * The SBOM of what the build ships (CycloneDX JSON): the bundled packages, Swagger UI's files, and
 * the production dependencies npm installs beside the bundle.
 */
function sbom(bundled: BundledPackage[]) {
  const swaggerUi = swaggerUiVersion(root)
  if (swaggerUi === undefined) throw new Error('cannot tell which Swagger UI @fastify/swagger-ui ships: the SBOM would miss dist/swagger-ui/')
  return cycloneDxSbom({
    packageJson,
    bundled: bundled.map(({ manifest }) => manifest),
    files: [
      { name: 'swagger-ui-dist', version: swaggerUi, license: 'Apache-2.0', shippedAs: 'files' },
      { name: 'jq-web', version: jqWebVersion(), license: 'ISC', shippedAs: 'files' },
    ],
    dependencies: installedDependencies(JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))),
    tools: [{ name: 'esbuild', version: esbuildVersion }],
  })
}

function jqWebVersion(): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules', 'jq-web', 'package.json'), 'utf8')) as { version: string }).version
}

if (!existsSync(join(dirname(outdir), 'dist', 'worker.js'))) throw new Error('the build wrote no dist/worker.js')
warmCompileCache()

/**
 * Fills dist/.compile-cache (src/compile-cache.ts) with the server's and the command line's modules,
 * so that the first start after a build is as quick as the next: a node that loads them, running
 * neither. The cache holds this Node.js's code (each version keeps its own) and is never packed.
 */
function warmCompileCache() {
  const outputs = Object.entries(result.metafile.outputs)
  const serverModule = outputs.find(([, output]) => output.entryPoint === 'src/server.ts')?.[0]
  if (!serverModule) throw new Error('the build wrote no module for src/server.ts')
  const load = [`./${serverModule}`, './dist/cli.js'].map((path) => `await import(${JSON.stringify(path)})`).join('; ')
  const script = `const { enableCompileCacheBesideBundle } = await import('./dist/compile-cache.js'); enableCompileCacheBesideBundle(); ${load}`
  execFileSync(process.execPath, ['--input-type=module', '--eval', script], { cwd: root, stdio: 'inherit' })
  writeFileSync(join(outdir, '.npmignore'), `${COMPILE_CACHE_FOLDER}/\n`)
}

/**
 * The Node.js modules that code running in the page may import, each with its stand-in there: the
 * same names and answers for what that code calls of them, on portable libraries and Web APIs.
 */
const NODE_STAND_INS: Record<string, string> = Object.fromEntries(
  ['buffer', 'crypto', 'net', 'timers/promises', 'zlib'].map((module) => [`node:${module}`, `./src/web/stand-ins/${module.replace('/', '-')}.ts`]),
)

const webMetafile = await buildWebApp(join(outdir, 'web'))

// What the service's bundle and the web app's hold: the operations that run in the page bring theirs.
const bundled = bundledPackages(root, result.metafile, webMetafile)
assertEnginesCoverFloor(
  bundled.map(({ manifest }) => manifest),
  packageJson.engines.node,
)
writeFileSync(join(outdir, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses(bundled))
writeFileSync(join(outdir, SBOM_FILE), `${JSON.stringify(sbom(bundled), null, 2)}\n`)

/**
 * The web app served at `/`: its script and style under content-hashed names (cached for a year),
 * the catalogue of operations it draws its forms from, and index.html, which names them and is
 * revalidated at every load; the manifest that makes it installable, and the service worker that
 * keeps this build's files for use offline. The operations that run in the page bring their
 * libraries, and the Node.js modules their code names are replaced by the stand-ins of
 * src/web/stand-ins (see `NODE_STAND_INS`).
 */
async function buildWebApp(webOutdir: string): Promise<Metafile> {
  mkdirSync(webOutdir, { recursive: true })
  const web = await build({
    absWorkingDir: root,
    entryPoints: { app: 'src/web/main.ts', [PAGE_WORKER_NAME]: 'src/web/page-worker.ts' },
    outdir: webOutdir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    // Each operation that runs in the browser is a chunk of its own, loaded with its first call.
    splitting: true,
    plugins: [await browserOperationsModule()],
    // The page's name for the recognisers of two-way operations (src/web/two-way-recognisers.d.ts).
    alias: { ...NODE_STAND_INS, 'devutils:two-way-recognisers': './src/operations/two-way-recognisers.ts' },
    inject: ['src/web/stand-ins/buffer-global.ts', 'src/web/stand-ins/shared-array-buffer.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox114', 'safari16.4'],
    minify: true,
    sourcemap: 'linked',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  })
  const outputs = Object.keys(web.metafile.outputs).map((path) => basename(path))
  const script = outputs.find((name) => /^app-.*\.js$/.test(name))
  const style = outputs.find((name) => /^app-.*\.css$/.test(name))
  const worker = outputs.find((name) => name.startsWith(`${PAGE_WORKER_NAME}-`) && name.endsWith('.js'))
  if (!script || !style || !worker) throw new Error(`the web build wrote no script, style or worker: ${outputs.join(', ')}`)
  const catalogue = writeHashed(webOutdir, 'catalogue', 'json', JSON.stringify(webCatalogue(operations, pipeline, packageJson.version)))
  const icon = writeHashed(webOutdir, 'icon', 'svg', readFileSync(join(root, 'src/web/icon.svg'), 'utf8'))
  const names: Record<string, string> = { '%SCRIPT%': script, '%STYLE%': style, '%WORKER%': worker, '%CATALOGUE%': catalogue, '%ICON%': icon }
  const html = readFileSync(join(root, 'src/web/index.html'), 'utf8').replace(/%[A-Z]+%/g, (placeholder) => {
    if (placeholder === '%MANIFEST%') return WEB_MANIFEST_PATH
    // The service fills in its own body limit, which its configuration sets, as it serves the page.
    if (placeholder === BODY_LIMIT_PLACEHOLDER) return placeholder
    if (!(placeholder in names)) throw new Error(`src/web/index.html has an unknown placeholder ${placeholder}`)
    return `${WEB_ASSETS_PATH}${names[placeholder]}`
  })
  writeFileSync(join(webOutdir, 'index.html'), html)
  const manifest = webManifest(`${WEB_ASSETS_PATH}${icon}`)
  writeFileSync(join(webOutdir, basename(WEB_MANIFEST_PATH)), manifest)
  const chunks = outputs.filter((name) => name.startsWith('chunk-') && name.endsWith('.js'))
  const precache = ['/', WEB_MANIFEST_PATH, ...[...Object.values(names), ...chunks].map((name) => `${WEB_ASSETS_PATH}${name}`)]
  // The cache is named after what it holds: index.html and the manifest are not content-named themselves.
  const version = createHash('sha256').update(html).update(manifest).update(precache.join('\n')).digest('base64url').slice(0, 10)
  await build({
    absWorkingDir: root,
    entryPoints: ['src/web/service-worker.ts'],
    outfile: join(webOutdir, basename(SERVICE_WORKER_PATH)),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome111', 'firefox114', 'safari16.4'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: {
      PRECACHE: JSON.stringify(precache),
      CACHE_NAME: JSON.stringify(`devutils-${version}`),
      PAGE_PATHS: JSON.stringify({ exact: ['/', PIPELINE_PATH], prefixes: [TOOL_PATH] }),
    },
  })
  compressBesideEach(webOutdir)
  return web.metafile
}

/**
 * `devutils:browser-operations`, the module the web app runs operations in the page from: a loader
 * for each operation of the registry marked `runsInBrowser`, from its own file (named as the
 * operation), so that each is a chunk loaded with its first call.
 */
async function browserOperationsModule(): Promise<Plugin> {
  const loaders: string[] = []
  for (const operation of operations.filter((candidate) => candidate.runsInBrowser)) {
    const file = join(root, 'src', 'operations', operation.name, 'index.ts')
    const exported = Object.entries(await import(file)).find(([, value]) => value === operation)?.[0]
    if (exported === undefined) throw new Error(`${file} does not export the operation ${operation.name}`)
    loaders.push(`${JSON.stringify(operation.name)}: () => import(${JSON.stringify(file)}).then((module) => module.${exported}),`)
  }
  const name = 'devutils:browser-operations'
  return {
    name,
    setup(plugin) {
      plugin.onResolve({ filter: /^devutils:browser-operations$/ }, () => ({ path: name, namespace: name }))
      plugin.onLoad({ filter: /.*/, namespace: name }, () => ({
        contents: `export const browserOperations = {\n${loaders.join('\n')}\n}\n`,
        resolveDir: root,
        loader: 'js',
      }))
    },
  }
}

/** The web app manifest: what a browser needs to install the app, with the theme's colours of the light scheme. */
function webManifest(icon: string): string {
  return `${JSON.stringify(
    {
      name: 'devutils',
      short_name: 'devutils',
      description: packageJson.description,
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#f7f8fa',
      theme_color: '#1a56b8',
      icons: [{ src: icon, sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
    },
    null,
    2,
  )}\n`
}

/**
 * `name.gz` beside each file that gzip makes smaller, so the server reads its answers compressed rather
 * than compressing at start-up; not index.html, which the server completes with its body limit and
 * compresses itself.
 */
function compressBesideEach(folder: string) {
  for (const name of readdirSync(folder)) {
    if (name.endsWith('.gz') || name === 'index.html') continue
    const body = readFileSync(join(folder, name))
    const gzipped = gzipSync(body, { level: 9 })
    if (gzipped.length < body.length) writeFileSync(join(folder, `${name}.gz`), gzipped)
  }
}

function writeHashed(folder: string, name: string, extension: string, content: string): string {
  const fileName = `${name}-${createHash('sha256').update(content).digest('base64url').slice(0, 10)}.${extension}`
  writeFileSync(join(folder, fileName), content)
  return fileName
}
