// What the bundle holds, read from esbuild's metafile: the packages whose code it carries, the check
// that each of them runs on every Node.js version package.json's `engines` promises, and the SBOM
// that names them (CycloneDX JSON). The bundled packages are devDependencies, so npm never checks
// their `engines` against ours when the package is installed: the build has to.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Metafile } from 'esbuild'
import semver from 'semver'

/** The SBOM's file name in dist/, beside THIRD-PARTY-LICENSES.txt. */
export const SBOM_FILE = 'sbom.cdx.json'

/** The fields of a package.json that the check and the SBOM read. */
export interface PackageManifest {
  name: string
  version: string
  license?: string
  engines?: { node?: string }
}

/** A package whose code the bundle holds: its folder, relative to the root, and its package.json. */
export interface BundledPackage {
  dir: string
  manifest: PackageManifest
}

/**
 * Files that are a package's own prebuilt bundle, each with the packages whose code it holds:
 * esbuild reads one file and names one package, so these are added beside it, as the copies
 * installed beside it (those it was built from). csso's modules read their data with a `require`
 * beside their own files, which a bundle does not carry, so the build takes its prebuilt file,
 * which holds css-tree and css-tree's mdn-data.
 */
export const PREBUILT_BUNDLES: Readonly<Record<string, readonly string[]>> = {
  'csso/dist/csso.esm.js': ['css-tree', 'mdn-data'],
}

/**
 * One package per folder under node_modules that an input of the bundles lives in, sorted by folder,
 * with those a prebuilt input holds. A package nested in another's node_modules is a package of its own.
 */
export function bundledPackages(root: string, ...metafiles: Metafile[]): BundledPackage[] {
  const dirs = new Set<string>()
  // An input esbuild read but left no code of (all of it shaken out) is not shipped.
  for (const output of metafiles.flatMap((metafile) => Object.values(metafile.outputs))) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /^(.*node_modules\/)((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(input)
      if (!match || bytesInOutput === 0) continue
      const [, modules, name, file] = match
      dirs.add(modules + name)
      for (const held of PREBUILT_BUNDLES[`${name}/${file}`] ?? []) dirs.add(modules + held)
    }
  }
  return [...dirs].sort().map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as PackageManifest }))
}

/**
 * The packages whose `engines.node` leaves out a Node.js version that `floor` (package.json's
 * `engines.node`) allows, each with what it declares. A package that declares nothing runs anywhere;
 * a declaration semver cannot read is reported too, since nothing can be said of it.
 */
export function enginesExcludingFloor(packages: PackageManifest[], floor: string): Array<{ package: string; node: string }> {
  if (semver.validRange(floor) === null) throw new Error(`package.json's engines.node is not a semver range: ${floor}`)
  return packages
    .filter(({ engines }) => {
      const node = engines?.node
      if (node === undefined) return false
      return semver.validRange(node) === null || !semver.subset(floor, node)
    })
    .map(({ name, version, engines }) => ({ package: `${name}@${version}`, node: engines!.node! }))
}

/** Throws, naming each package, when a bundled package does not run on every version `floor` allows. */
export function assertEnginesCoverFloor(packages: PackageManifest[], floor: string): void {
  const excluding = enginesExcludingFloor(packages, floor)
  if (excluding.length === 0) return
  const list = excluding.map(({ package: name, node }) => `  ${name} needs node ${node}`).join('\n')
  throw new Error(
    `Bundled packages leave out Node.js versions that package.json's engines (node ${floor}) allows:\n${list}\n` +
      'Raise engines.node (and the README and CI with it), or bundle a version of the package that runs there.',
  )
}

/** A package URL for an npm package: the scope's `@` is percent-encoded. */
export function npmPurl(name: string, version: string): string {
  return `pkg:npm/${name.replace(/^@/, '%40')}@${version}`
}

/** A package.json `license` as CycloneDX takes it: one SPDX identifier, or an expression. */
function licensesOf(license: string | undefined): Array<{ license: { id: string } } | { expression: string }> | undefined {
  if (license === undefined || license === '' || license === 'UNLICENSED') return undefined
  return /^[A-Za-z0-9.+-]+$/.test(license) ? [{ license: { id: license } }] : [{ expression: license }]
}

/** How a component reaches the user: in the bundle's files, or installed by npm beside it. */
export const SHIPPED_AS = 'devutils:shipped-as'

interface ComponentInput {
  name: string
  version: string
  license?: string
  shippedAs: 'bundle' | 'dependency' | 'files'
  optional?: boolean
  description?: string
}

function component({ name, version, license, shippedAs, optional, description }: ComponentInput) {
  const scoped = /^(@[^/]+)\/(.+)$/.exec(name)
  const purl = npmPurl(name, version)
  return {
    type: 'library',
    'bom-ref': purl,
    ...(scoped ? { group: scoped[1], name: scoped[2] } : { name }),
    version,
    ...(description === undefined ? {} : { description }),
    scope: optional ? 'optional' : 'required',
    licenses: licensesOf(license),
    purl,
    properties: [{ name: SHIPPED_AS, value: shippedAs }],
  }
}

/** An entry of package-lock.json's `packages`. */
interface LockedPackage {
  name?: string
  version?: string
  license?: string
  dev?: boolean
  optional?: boolean
  link?: boolean
}

/**
 * The production dependencies npm installs beside the bundle (package-lock.json's entries that are
 * not dev-only; one the bundle holds too is one component of the SBOM): `npm install devutils` and the image's
 * `npm prune --omit=dev` give exactly these. Optional ones (a native module for one platform) are
 * listed with scope optional, since only the platform's own is installed.
 */
export function installedDependencies(lockfile: { packages: Record<string, LockedPackage> }): ComponentInput[] {
  return Object.entries(lockfile.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev && !entry.link && entry.version !== undefined)
    .map(([path, entry]) => ({
      name: entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version!,
      license: entry.license,
      shippedAs: 'dependency' as const,
      optional: entry.optional === true,
    }))
}

export interface SbomInput {
  packageJson: { name: string; version: string; description?: string; license?: string }
  bundled: PackageManifest[]
  dependencies: ComponentInput[]
  /** Third-party files copied as they are into the build, beside the bundle. */
  files: ComponentInput[]
  tools: Array<{ name: string; version: string }>
}

/**
 * A CycloneDX 1.6 SBOM of what the build ships: the packages in the bundle, the files copied beside
 * it, and the production dependencies npm installs with it, each with its version, package URL and
 * licence. A package both bundled and installed is one component shipped both ways. No timestamp or
 * serial number: the same sources give the same file.
 */
export function cycloneDxSbom({ packageJson, bundled, dependencies, files, tools }: SbomInput) {
  const components = new Map<string, ReturnType<typeof component>>()
  const add = (input: ComponentInput) => {
    const entry = component(input)
    const existing = components.get(entry['bom-ref'])
    if (existing === undefined) components.set(entry['bom-ref'], entry)
    else if (!existing.properties.some(({ value }) => value === input.shippedAs)) existing.properties.push({ name: SHIPPED_AS, value: input.shippedAs })
  }
  for (const { name, version, license } of bundled) add({ name, version, license, shippedAs: 'bundle' })
  for (const input of files) add(input)
  for (const input of dependencies) add(input)
  const purl = npmPurl(packageJson.name, packageJson.version)
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    metadata: {
      tools: { components: tools.map(({ name, version }) => ({ type: 'application', name, version })) },
      component: {
        type: 'application',
        'bom-ref': purl,
        name: packageJson.name,
        version: packageJson.version,
        description: packageJson.description,
        licenses: licensesOf(packageJson.license),
        purl,
      },
    },
    components: [...components.values()].sort((a, b) => a['bom-ref'].localeCompare(b['bom-ref'])),
  }
}

/** The version of Swagger UI whose files @fastify/swagger-ui ships in its `static/` folder, as it pins it. */
export function swaggerUiVersion(root: string): string | undefined {
  const manifest = join(root, 'node_modules/@fastify/swagger-ui/package.json')
  if (!existsSync(manifest)) return undefined
  const { devDependencies } = JSON.parse(readFileSync(manifest, 'utf8')) as { devDependencies?: Record<string, string> }
  return semver.valid(devDependencies?.['swagger-ui-dist'] ?? '') ?? undefined
}
