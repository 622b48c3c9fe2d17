import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import ts from 'typescript'
import { newOperation } from '../scripts/new-operation.ts'
import type { AnyOperation } from '../src/core/operation.ts'
import { ROOT } from './processes.ts'

const REGISTRY = 'src/operations/registry.ts'
/** What the scaffolder, the type checker, the lint and the tests read besides src/operations: linked, not copied. */
const LINKED = ['node_modules', 'src/core', 'src/lib', 'src/cli']
const COPIED = ['package.json', 'tsconfig.json', 'biome.jsonc', 'scripts/new-operation.ts', REGISTRY]

/**
 * A checkout of its own for the scaffolder to write in: the registry copied, every operation's folder
 * linked to the repository's, so that the new operation is checked against the real ones without a
 * copy of the project.
 */
function scratchCheckout(): string {
  const root = mkdtempSync(join(tmpdir(), 'devutils-new-operation-'))
  mkdirSync(join(root, 'src/operations'), { recursive: true })
  mkdirSync(join(root, 'scripts'))
  for (const entry of COPIED) cpSync(join(ROOT, entry), join(root, entry))
  for (const entry of LINKED) symlinkSync(join(ROOT, entry), join(root, entry))
  for (const entry of readdirSync(join(ROOT, 'src/operations'))) {
    if (!existsSync(join(root, 'src/operations', entry))) symlinkSync(join(ROOT, 'src/operations', entry), join(root, 'src/operations', entry))
  }
  return root
}

/** The type checker's errors in `files` alone, with the project's options: the rest of the program is read, not reported on. */
function typeErrors(root: string, files: readonly string[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  assert.ok(config)
  const paths = files.map((file) => join(root, file))
  const program = ts.createProgram(paths, config.options)
  return paths.flatMap((path) => {
    const source = program.getSourceFile(path)
    assert.ok(source, path)
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (diagnostic) => `${path}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    )
  })
}

describe('npm run new-operation', () => {
  let root: string
  before(() => {
    root = scratchCheckout()
  })
  after(() => rmSync(root, { recursive: true, force: true }))

  // Without the test runner's own variable, a `node --test` run here reports as a run of its own, not as part of this one.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: root, encoding: 'utf8', env })
  const read = (file: string) => readFileSync(join(root, file), 'utf8')
  const scaffold = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/new-operation.ts', ...args])

  test('refuses a name that is not kebab-case, a name that exists or is taken and an unknown category, and writes nothing', () => {
    const registry = read(REGISTRY)
    const refusals: Array<[string, string, RegExp]> = [
      ['Pig_Latin', 'converters', /'Pig_Latin' is not kebab-case/],
      ['2fa', 'generators', /'2fa' is not kebab-case/],
      ['pig--latin', 'converters', /'pig--latin' is not kebab-case/],
      ['base64', 'encoders', /the operation 'base64' exists already/],
      ['pipeline', 'converters', /'pipeline' is taken/],
      ['serve', 'generators', /'serve' is taken/],
      ['pig-latin', 'workflows', /'workflows' is not a category: one of encoders, generators, converters/],
    ]
    for (const [name, category, message] of refusals) assert.throws(() => newOperation(root, name, category), message)
    const unnamed = scaffold('pig-latin')
    assert.equal(unnamed.status, 2, 'without a category')
    assert.match(unnamed.stderr, /give a --category/)
    assert.equal(read(REGISTRY), registry)
    assert.ok(!existsSync(join(root, 'src/operations/pig-latin')))
  })

  test('writes a folder and a registry line that type-check, lint clean and run, with a unit test that fails until it is filled in', async () => {
    const written = scaffold('pig-latin', '--category', 'converters')
    assert.equal(written.status, 0, written.stderr)
    const files = ['src/operations/pig-latin/index.ts', 'src/operations/pig-latin/pig-latin.test.ts', REGISTRY]
    assert.match(written.stdout, new RegExp(`wrote ${files.join(', ')}`))
    assert.match(
      read(REGISTRY),
      /\n {2}phone: .*\n {2}'pig-latin': \(\) => import\('\.\/pig-latin\/index\.ts'\)\.then\(\(module\) => module\.pigLatin\),\n {2}'qr-code': /,
    )
    assert.match(read(files[0]), /export const pigLatin = defineOperation\(\{\n {2}name: 'pig-latin',\n {2}category: 'converters',/)

    // Its line in the registry is held to the module's export by loading it below.
    assert.deepEqual(typeErrors(root, files.slice(0, 2)), [])
    const lint = run(join(ROOT, 'node_modules/.bin/biome'), ['check', '--vcs-enabled=false', ...files])
    assert.equal(lint.status, 0, lint.stdout + lint.stderr)

    const { loadOperation } = (await import(join(root, REGISTRY))) as { loadOperation: (name: string) => Promise<AnyOperation> | undefined }
    const { execute } = await import('../src/core/execute.ts')
    const operation = await loadOperation('pig-latin')
    assert.equal(operation?.name, 'pig-latin')
    for (const example of operation.examples) assert.deepEqual(await execute(operation, example.input), example.output, example.summary)

    const unitTest = run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', files[1]])
    assert.equal(unitTest.status, 1, unitTest.stdout)
    assert.match(unitTest.stdout, /replace every TODO in src\/operations\/pig-latin\/index\.ts/)
    assert.match(unitTest.stdout, /give pig-latin known answers in KNOWN_ANSWERS/)
    assert.match(unitTest.stdout, /give pig-latin inputs it refuses in REFUSED/)
  })

  test('names the constant of an operation whose name is a reserved word as case/index.ts does', () => {
    newOperation(root, 'new', 'generators')
    assert.match(read('src/operations/new/index.ts'), /^export const newOperation = defineOperation\(\{$/m)
    assert.match(read(REGISTRY), /\n {2}new: \(\) => import\('\.\/new\/index\.ts'\)\.then\(\(module\) => module\.newOperation\),\n/)
  })
})
