import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, test } from 'node:test'
import {
  assertEnginesCoverFloor,
  enginesExcludingFloor,
  npmPurl,
  type PackageManifest,
  PREBUILT_BUNDLES,
  SBOM_FILE,
  SHIPPED_AS,
} from '../../scripts/bundle-manifest.ts'
import { ROOT } from '../processes.ts'

const DIST = join(ROOT, 'dist')
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string
  version: string
  engines: { node: string }
  dependencies: Record<string, string>
}

/** Every file under `dir`, its path included. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]))
}

/**
 * The package.json of every installed package that the build's source maps name a file of: what
 * the bundle holds, seen from its output rather than from the build's own account of it. A map
 * also names the sources a package compiled its own files from; those that are not installed
 * (a package's own bundled internals) are left out, as the package that carries them is named.
 */
function packagesInSourceMaps(): PackageManifest[] {
  const dirs = new Set<string>()
  for (const map of filesUnder(DIST).filter((file) => file.endsWith('.map'))) {
    for (const source of JSON.parse(readFileSync(map, 'utf8')).sources as string[]) {
      const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(resolve(dirname(map), source))
      if (match && existsSync(join(match[1], 'package.json'))) dirs.add(match[1])
    }
  }
  return [...dirs].map((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest)
}

/** The folders under node_modules that hold the package `name` at `version`, nested ones included. */
function installedFolders(name: string, version: string): string[] {
  const found: string[] = []
  const visit = (modules: string) => {
    if (!existsSync(modules)) return
    for (const entry of readdirSync(modules)) {
      const folders = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((scoped) => join(modules, entry, scoped)) : [join(modules, entry)]
      for (const folder of folders) {
        const manifest = join(folder, 'package.json')
        if (!existsSync(manifest)) continue
        const installed = JSON.parse(readFileSync(manifest, 'utf8')) as PackageManifest
        if (installed.name === name && installed.version === version) found.push(folder)
        visit(join(folder, 'node_modules'))
      }
    }
  }
  visit(join(ROOT, 'node_modules'))
  return found
}

/**
 * Whether the package ships source maps of its own that name its sources by URL (or a URL as their
 * root): the build's maps
 * then name those URLs in its place (esbuild follows a package's maps), not its installed files.
 */
function mapsItsSourcesByUrl(nameAtVersion: string): boolean {
  const at = nameAtVersion.lastIndexOf('@')
  return installedFolders(nameAtVersion.slice(0, at), nameAtVersion.slice(at + 1)).some((folder) =>
    filesUnder(folder)
      .filter((file) => file.endsWith('.js.map'))
      .some((map) => {
        const { sourceRoot = '', sources } = JSON.parse(readFileSync(map, 'utf8')) as { sourceRoot?: string; sources: string[] }
        return [sourceRoot, ...sources].some((source) => /^https?:\/\//.test(source))
      }),
  )
}

interface Component {
  'bom-ref': string
  group?: string
  name: string
  version: string
  scope: string
  purl: string
  licenses?: Array<{ license?: { id?: string; name?: string }; expression?: string }>
  properties: Array<{ name: string; value: string }>
}

describe('the SBOM and the engines of what the bundle holds (run `npm run build` first)', () => {
  test(`dist/${SBOM_FILE} is CycloneDX JSON naming every bundled package, Swagger UI's files and the production dependencies, each with its version, package URL and licence`, () => {
    const sbom = JSON.parse(readFileSync(join(DIST, SBOM_FILE), 'utf8')) as {
      bomFormat: string
      specVersion: string
      metadata: { component: { name: string; version: string; purl: string } }
      components: Component[]
    }
    assert.equal(sbom.bomFormat, 'CycloneDX')
    assert.equal(sbom.specVersion, '1.6')
    assert.deepEqual(
      { name: sbom.metadata.component.name, version: sbom.metadata.component.version, purl: sbom.metadata.component.purl },
      { name: packageJson.name, version: packageJson.version, purl: `pkg:npm/${packageJson.name}@${packageJson.version}` },
    )
    const fullName = (component: Component) => (component.group ? `${component.group}/${component.name}` : component.name)
    const shippedAs = (component: Component, how: string) => component.properties.some(({ name, value }) => name === SHIPPED_AS && value === how)
    for (const component of sbom.components) {
      assert.equal(component.purl, npmPurl(fullName(component), component.version), `${component['bom-ref']}'s package URL`)
      assert.equal(component['bom-ref'], component.purl)
      assert.ok((component.licenses ?? []).length > 0, `${component.purl} names its licence`)
    }
    assert.equal(new Set(sbom.components.map((component) => component.purl)).size, sbom.components.length, 'one component per package and version')

    const bundled = new Set(
      sbom.components.filter((component) => shippedAs(component, 'bundle')).map((component) => `${fullName(component)}@${component.version}`),
    )
    const inMaps = packagesInSourceMaps().map(({ name, version }) => `${name}@${version}`)
    assert.ok(inMaps.length > 50, `the source maps name ${inMaps.length} packages`)
    assert.deepEqual(
      inMaps.filter((name) => !bundled.has(name)),
      [],
      'every package the source maps name is in the SBOM as bundled',
    )
    const heldByPrebuiltBundles = Object.values(PREBUILT_BUNDLES)
      .flat()
      .map((name) => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as PackageManifest)
      .map(({ name, version }) => `${name}@${version}`)
    for (const held of heldByPrebuiltBundles) assert.ok(bundled.has(held), `${held}, inside a prebuilt bundle the build takes, is in the SBOM as bundled`)
    assert.deepEqual(
      [...bundled].filter((name) => !inMaps.includes(name) && !mapsItsSourcesByUrl(name) && !heldByPrebuiltBundles.includes(name)),
      [],
      'every package the SBOM says is bundled is named by the source maps, names its sources by URL in its own, or is held by a prebuilt bundle',
    )
    const licences = readFileSync(join(DIST, 'THIRD-PARTY-LICENSES.txt'), 'utf8')
    for (const name of bundled) assert.ok(licences.includes(`\n${name.replace(/@(?=[^@]+$)/, ' ')}\n`), `${name}'s licence is in THIRD-PARTY-LICENSES.txt`)

    for (const dependency of Object.keys(packageJson.dependencies)) {
      const found = sbom.components.find((component) => fullName(component) === dependency && shippedAs(component, 'dependency'))
      assert.ok(found, `the production dependency ${dependency} is in the SBOM`)
      assert.equal(found.scope, 'required')
    }
    assert.ok(existsSync(join(DIST, 'swagger-ui')))
    assert.ok(
      sbom.components.some((component) => component.name === 'swagger-ui-dist' && shippedAs(component, 'files')),
      "Swagger UI's files in dist/swagger-ui/ are in the SBOM",
    )
  })

  test("the engines check names each bundled package that leaves out a Node.js version package.json's engines allow", () => {
    const packages: PackageManifest[] = [
      { name: 'cookie', version: '2.0.2', engines: { node: '>=22' } },
      { name: 'content-disposition', version: '3.0.0', engines: { node: '>=22' } },
      { name: 'glob', version: '14.0.6', engines: { node: '18 || 20 || >=22' } },
      { name: 'anywhere', version: '1.0.0' },
      { name: 'old-enough', version: '1.0.0', engines: { node: '>= 0.6' } },
    ]
    assert.throws(
      () => assertEnginesCoverFloor(packages, '>=20.19'),
      (error: Error) => {
        assert.match(error.message, /cookie@2\.0\.2 needs node >=22/)
        assert.match(error.message, /content-disposition@3\.0\.0 needs node >=22/)
        // 21 is in >=20.19 and not in glob's range.
        assert.match(error.message, /glob@14\.0\.6 needs node 18 \|\| 20 \|\| >=22/)
        assert.doesNotMatch(error.message, /anywhere|old-enough/)
        return true
      },
    )
    assert.doesNotThrow(() => assertEnginesCoverFloor(packages, '>=22.12'))
    // A package that stops before a version the floor allows leaves it out as surely as one that starts after it.
    assert.deepEqual(enginesExcludingFloor([{ name: 'capped', version: '1.0.0', engines: { node: '>=18 <24' } }], '>=22.12'), [
      { package: 'capped@1.0.0', node: '>=18 <24' },
    ])
    assert.deepEqual(enginesExcludingFloor([{ name: 'unreadable', version: '1.0.0', engines: { node: 'node twenty-two' } }], '>=22.12'), [
      { package: 'unreadable@1.0.0', node: 'node twenty-two' },
    ])
  })

  test("every package the bundle holds, as its source maps name them, runs on every version package.json's engines allow", () => {
    assert.deepEqual(enginesExcludingFloor(packagesInSourceMaps(), packageJson.engines.node), [])
  })
})
