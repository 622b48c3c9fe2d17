import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import { API_PREFIX } from '../../src/core/catalogue.ts'
import { LICENSE } from '../../src/http/docs.ts'
import { servedOperations } from '../../src/served-operations.ts'
import { buildTestApp } from '../helpers.ts'
import { ROOT } from '../processes.ts'

const run = promisify(execFile)
// ajv-formats is CommonJS: its function is the default export under Node, `.default` under TypeScript's types.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name)

/** The tools people point at an API, run on the document as a live instance serves it. */
describe('the OpenAPI document, as its users’ tools read it', { timeout: 180_000 }, () => {
  let app: FastifyInstance
  let baseUrl: string
  let folder: string
  let documentPath: string
  let document: Record<string, unknown>

  before(async () => {
    app = await buildTestApp({ rateLimitMax: 100_000 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    folder = mkdtempSync(join(tmpdir(), 'devutils-openapi-'))
    // The generated client resolves openapi-fetch and TypeScript from the project's own modules.
    symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'))
    document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Record<string, unknown>
    documentPath = join(folder, 'openapi.json')
    writeFileSync(documentPath, JSON.stringify(document))
  })
  after(async () => {
    await app.close()
    rmSync(folder, { recursive: true, force: true })
  })

  test('states the package licence, and that the service is open', () => {
    const { license } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string }
    assert.equal(LICENSE, license)
    assert.deepEqual((document.info as { license: unknown }).license, { name: license, identifier: license })
    assert.deepEqual(document.security, [])
  })

  test('Redocly CLI, recommended rules: no error and no warning', async () => {
    const { stdout } = await run(bin('redocly'), ['lint', documentPath, '--format=json'], { cwd: folder, maxBuffer: 64 * 2 ** 20 }).catch((error) => error)
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: Record<string, number>; problems: Array<{ ruleId: string; message: string }> }
    assert.deepEqual(
      report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`),
      [],
    )
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 })
  })

  test('Spectral, spectral:oas rules: nothing at all', async () => {
    const ruleset = join(folder, '.spectral.yaml')
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n')
    const { stdout } = await run(bin('spectral'), ['lint', '--ruleset', ruleset, '--format', 'json', '--quiet', documentPath], {
      cwd: folder,
      maxBuffer: 64 * 2 ** 20,
    }).catch((error) => error)
    const results = JSON.parse(stdout || '[]') as Array<{ code: string; message: string; path: string[] }>
    assert.deepEqual(
      results.map((result) => `${result.code}: ${result.message} at ${result.path.join('.')}`),
      [],
    )
  })

  test('every enum has a type, and every object says which keys it takes', () => {
    const problems: string[] = []
    const visit = (node: unknown, path: string) => {
      if (node === null || typeof node !== 'object') return
      const schema = node as Record<string, unknown>
      if (Array.isArray(schema.enum) && schema.type === undefined) problems.push(`${path}: an enum without a type`)
      if (schema.type === 'object' && !('properties' in schema || 'additionalProperties' in schema || 'patternProperties' in schema))
        problems.push(`${path}: an object that does not say which keys it takes`)
      if (schema.type === 'array' && !('items' in schema || 'prefixItems' in schema)) problems.push(`${path}: an array without items`)
      for (const [key, value] of Object.entries(schema)) if (key !== 'example' && key !== 'examples') visit(value, `${path}/${key}`)
    }
    visit(document, '#')
    assert.deepEqual(problems, [])
  })

  test('a client generated with openapi-typescript sends every documented example through openapi-fetch, type-checked in strict mode', async () => {
    await run(bin('openapi-typescript'), [documentPath, '--output', join(folder, 'schema.d.ts')], { cwd: folder })
    const calls: string[] = []
    const paths = document.paths as Record<string, Record<string, { parameters?: Array<{ name: string; examples?: Record<string, { value: unknown }> }> }>>
    for (const operation of servedOperations) {
      const path = `${API_PREFIX}/${operation.name}`
      for (const example of operation.examples) {
        calls.push(`{ method: 'POST', path: '${path}', answer: await client.POST('${path}', { body: ${JSON.stringify(example.input)} }) }`)
      }
      // A GET example is what its parameters' examples of one name make together.
      const parameters = paths[path].get?.parameters ?? []
      const names = new Set(parameters.flatMap((parameter) => Object.keys(parameter.examples ?? {})))
      for (const name of names) {
        const query = Object.fromEntries(
          parameters.filter((parameter) => parameter.examples?.[name]).map((parameter) => [parameter.name, parameter.examples![name].value]),
        )
        // The example's own fields, and the defaults of the fields it leaves out: the same request.
        const input = operation.examples.find((example) => example.summary === name)?.input as Record<string, unknown>
        const defaults = operation.input.properties as Record<string, { default?: unknown }>
        const expected = Object.fromEntries(Object.keys(query).map((field) => [field, Object.hasOwn(input, field) ? input[field] : defaults[field]?.default]))
        assert.deepEqual(query, expected, `${operation.name}: ${name}`)
        for (const field of Object.keys(input)) assert.ok(field in query, `${operation.name}: ${name} offers ${field}`)
        calls.push(`{ method: 'GET', path: '${path}', answer: await client.GET('${path}', { params: { query: ${JSON.stringify(query)} } }) }`)
      }
    }
    const source = [
      "import createClient from 'openapi-fetch'",
      "import type { paths } from './schema.d.ts'",
      'const client = createClient<paths>({ baseUrl: process.env.DEVUTILS_URL })',
      'const answers = [',
      ...calls.map((call) => `  ${call},`),
      ']',
      'const report = answers.map(({ method, path, answer }) => ({ method, path, status: answer.response.status, body: answer.data ?? answer.error }))',
      'process.stdout.write(JSON.stringify(report))',
      'export {}',
    ].join('\n')
    writeFileSync(join(folder, 'client.ts'), source)
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          allowImportingTsExtensions: true,
          types: ['node'],
          skipLibCheck: false,
        },
        files: ['client.ts'],
      }),
    )
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }))
    await run(bin('tsc'), ['-p', folder], { cwd: folder }).catch((error) => assert.fail(`${error.stdout}${error.stderr}`))

    const { stdout } = await run(bin('tsx'), ['client.ts'], { cwd: folder, env: { ...process.env, DEVUTILS_URL: baseUrl }, maxBuffer: 64 * 2 ** 20 })
    const report = JSON.parse(stdout) as Array<{ method: string; path: string; status: number; body: unknown }>
    assert.equal(report.length, calls.length)
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ ...document, $id: 'devutils' })
    for (const { method, path, status, body } of report) {
      assert.equal(status, 200, `${method} ${path}: ${JSON.stringify(body)}`)
      const pointer = `#/paths/${path.replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`
      const validate = ajv.getSchema(`devutils${pointer}`)!
      assert.ok(validate(body), `${method} ${path}: ${ajv.errorsText(validate.errors)}`)
    }
  })

  test("a GET form's first named example of every parameter belongs to one documented request, sent as a tool would build it", async () => {
    type Parameter = { name: string; examples?: Record<string, { value: unknown }> }
    const paths = document.paths as Record<string, { get?: { parameters?: Parameter[] } }>
    for (const operation of servedOperations.filter((candidate) => candidate.allowGet)) {
      const parameters = paths[`${API_PREFIX}/${operation.name}`].get?.parameters ?? []
      const defaults = operation.input.properties as Record<string, { default?: unknown }>
      const firstPicks = Object.fromEntries(
        parameters.filter((parameter) => parameter.examples).map((parameter) => [parameter.name, Object.values(parameter.examples ?? {})[0].value]),
      )
      const documented = operation.examples
        .map((example) => example.input as Record<string, unknown>)
        .find((input) => Object.entries(firstPicks).every(([name, value]) => (Object.hasOwn(input, name) ? input[name] : defaults[name]?.default) === value))
      assert.ok(documented, `${operation.name}: ${JSON.stringify(firstPicks)} is not one documented request`)
      for (const name of Object.keys(documented)) assert.ok(name in firstPicks, `${operation.name}: ${name} of the documented request is offered`)
      const query = new URLSearchParams(Object.entries(firstPicks).map(([name, value]): [string, string] => [name, String(value)]))
      const response = await fetch(`${baseUrl}${API_PREFIX}/${operation.name}?${query}`)
      assert.equal(response.status, 200, `${operation.name}?${query}: ${await response.text()}`)
    }
  })
})
