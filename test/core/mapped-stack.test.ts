import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { buildSync } from 'esbuild'
import { describeDefect } from '../../src/core/defects.ts'
import { mappedStack } from '../../src/core/mapped-stack.ts'

/** A module built as the service's are (minified, its map linked beside it), whose function throws at a known line of its source. */
const folder = mkdtempSync(join(tmpdir(), 'devutils-mapped-stack-'))
const source = join(folder, 'thrower.ts')
writeFileSync(
  source,
  ['export function first(): number {', '  return 1', '}', '', 'export function throws(): never {', "  throw new TypeError('boom')", '}', ''].join('\n'),
)
buildSync({ entryPoints: [source], outfile: join(folder, 'dist', 'thrower.js'), format: 'esm', sourcemap: 'linked', minify: true, logLevel: 'silent' })
const built = (await import(pathToFileURL(join(folder, 'dist', 'thrower.js')).href)) as { throws: () => never }

describe('stacks of the build, mapped to the sources when a defect is described', () => {
  after(() => rmSync(folder, { recursive: true, force: true }))

  test("a frame in a built file names its source's file, line and column", () => {
    let error: unknown
    try {
      built.throws()
    } catch (caught) {
      error = caught
    }
    assert.ok((error as Error).stack?.includes('thrower.js:1:'), 'the stack itself names the built file')
    const stack = describeDefect(error).stack ?? ''
    assert.match(stack.split('\n')[0], new RegExp(`\\(${source.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:6:\\d+\\)$`))
    assert.ok(!stack.includes('thrower.js'), stack)
  })

  test('a frame of a file without a map beside it, or of Node itself, is kept as it is', () => {
    const frames = ['    at run (node:internal/test_runner/test:980:9)', `    at f (${pathToFileURL(join(folder, 'no-map.js')).href}:1:20)`].join('\n')
    assert.equal(mappedStack(frames), frames)
  })
})
