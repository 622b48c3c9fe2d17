import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { ROOT } from './processes.ts'

/** What the scaffolder, the type check, the lint and the registry test read of the repository. */
const COPIED = ['src', 'scripts', 'test', 'bench', 'package.json', 'tsconfig.json', 'biome.jsonc', '.gitignore']
const REGISTRY_FILES = ['src/operations/registry.ts', 'src/operations/index.ts']

describe('npm run new-operation', () => {
  let copy: string
  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'devutils-new-operation-'))
    for (const entry of COPIED) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
  })
  after(() => rmSync(copy, { recursive: true, force: true }))

  // Without the test runner's own variable, a `node --test` run here reports as a run of its own, not as part of this one.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: copy, encoding: 'utf8', env })
  const scaffold = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/new-operation.ts', ...args])
  const read = (file: string) => readFileSync(join(copy, file), 'utf8')

  test('refuses a name that is not kebab-case, a name that exists or is taken and an unknown category, and writes nothing', () => {
    const registries = REGISTRY_FILES.map(read)
    const refusals: Array<[string[], RegExp]> = [
      [['Pig_Latin', '--category', 'converters'], /'Pig_Latin' is not kebab-case/],
      [['2fa', '--category', 'generators'], /'2fa' is not kebab-case/],
      [['pig--latin', '--category', 'converters'], /'pig--latin' is not kebab-case/],
      [['base64', '--category', 'encoders'], /the operation 'base64' exists already/],
      [['pipeline', '--category', 'converters'], /'pipeline' is taken/],
      [['serve', '--category', 'generators'], /'serve' is taken/],
      [['pig-latin', '--category', 'workflows'], /'workflows' is not a category: one of encoders, generators, converters/],
    ]
    for (const [args, message] of refusals) {
      const refused = scaffold(...args)
      assert.equal(refused.status, 1, `${args.join(' ')}: ${refused.stderr}`)
      assert.match(refused.stderr, message)
    }
    assert.equal(scaffold('pig-latin').status, 2, 'without a category')
    assert.deepEqual(REGISTRY_FILES.map(read), registries)
    assert.ok(!existsSync(join(copy, 'src/operations/pig-latin.ts')))
  })

  test('writes an operation that the type check, the lint and the registry test accept, with a unit test that fails until it is filled in', () => {
    const written = scaffold('pig-latin', '--category', 'converters')
    assert.equal(written.status, 0, written.stderr)
    const files = ['src/operations/pig-latin.ts', 'src/operations/pig-latin.test.ts', ...REGISTRY_FILES]
    assert.match(written.stdout, new RegExp(`wrote ${files.join(', ')}`))

    assert.match(
      read('src/operations/registry.ts'),
      /\n {2}phone: .*\n {2}'pig-latin': \(\) => import\('\.\/pig-latin\.ts'\)\.then\(\(module\) => module\.pigLatin\),\n {2}'qr-code': /,
    )
    const index = read('src/operations/index.ts')
    assert.match(index, /\nimport \{ phone \} from '\.\/phone\.ts'\nimport \{ pigLatin \} from '\.\/pig-latin\.ts'\nimport \{ qrCode \} /)
    assert.match(index, /\n {2}phone,\n {2}pigLatin,\n {2}qrCode,\n/)
    assert.match(read('src/operations/pig-latin.ts'), /export const pigLatin = defineOperation\(\{\n {2}name: 'pig-latin',\n {2}category: 'converters',/)

    const lint = run(join(ROOT, 'node_modules/.bin/biome'), ['check', ...files])
    assert.equal(lint.status, 0, lint.stdout + lint.stderr)
    const typecheck = run(join(ROOT, 'node_modules/.bin/tsc'), ['--noEmit', '-p', '.'])
    assert.equal(typecheck.status, 0, typecheck.stdout)
    const registryTest = run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=dot', 'test/registry.test.ts'])
    assert.equal(registryTest.status, 0, registryTest.stdout + registryTest.stderr)

    const unitTest = run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', 'src/operations/pig-latin.test.ts'])
    assert.equal(unitTest.status, 1, unitTest.stdout)
    assert.match(unitTest.stdout, /replace every TODO in src\/operations\/pig-latin\.ts/)
    assert.match(unitTest.stdout, /give pig-latin known answers in KNOWN_ANSWERS/)
    assert.match(unitTest.stdout, /give pig-latin inputs it refuses in REFUSED/)
  })

  test('names the constant of an operation whose name is a reserved word as case.ts does', () => {
    const written = scaffold('new', '--category', 'generators')
    assert.equal(written.status, 0, written.stderr)
    assert.match(read('src/operations/new.ts'), /^export const newOperation = defineOperation\(\{$/m)
    assert.match(read('src/operations/registry.ts'), /\n {2}new: \(\) => import\('\.\/new\.ts'\)\.then\(\(module\) => module\.newOperation\),\n/)
  })
})
