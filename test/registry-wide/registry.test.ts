import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { execute } from '../../src/core/execute.ts'
import { CATEGORIES, readsInput } from '../../src/core/operation.ts'
import { createRegistry, registryOf } from '../../src/core/registry.ts'
import { validate } from '../../src/core/validate.ts'
import { createWorkflows } from '../../src/core/workflows.ts'
import { buildApp } from '../../src/http/app.ts'
import { operations } from '../../src/operations/index.ts'
import { operationInfos } from '../../src/operations/infos.ts'
import { loadOperation, operationLoaders } from '../../src/operations/registry.ts'
import { servedOperations } from '../../src/served-operations.ts'
import { buildTestApp, ROOMY_BUDGETS, request } from '../helpers.ts'

/** The first release's catalogue: its 24 operations, each under its category. Later operations need no line here. */
const FIRST_CATALOGUE: Record<string, string> = {
  base64: 'encoders',
  base32: 'encoders',
  url: 'encoders',
  rot13: 'encoders',
  'html-entity': 'encoders',
  morse: 'encoders',
  'json-escape': 'encoders',
  'sql-escape': 'encoders',
  hash: 'generators',
  password: 'generators',
  uuid: 'generators',
  'random-string': 'generators',
  'random-number': 'generators',
  hmac: 'generators',
  slug: 'generators',
  'lorem-ipsum': 'generators',
  'mac-address': 'generators',
  'ip-address': 'generators',
  timestamp: 'converters',
  'binary-text': 'converters',
  'hex-text': 'converters',
  'base-convert': 'converters',
  'csv-json': 'converters',
  'yaml-json': 'converters',
}

describe('the registry', () => {
  test('is alphabetical, with unique kebab-case names, each in one of the three categories', () => {
    const names = operations.map((operation) => operation.name)
    assert.deepEqual(names, [...names].sort())
    assert.equal(new Set(names).size, names.length)
    for (const operation of operations) {
      assert.match(operation.name, /^[a-z0-9]+(-[a-z0-9]+)*$/)
      assert.ok((CATEGORIES as readonly string[]).includes(operation.category), `${operation.name}: ${operation.category}`)
    }
  })

  test("still holds the first release's 24 operations, each under its category", () => {
    for (const [name, category] of Object.entries(FIRST_CATALOGUE)) {
      assert.equal(operations.find((operation) => operation.name === name)?.category, category, name)
    }
  })

  test("an operation with an action field says each action's fields and what it requires, and its examples keep to them", () => {
    for (const operation of operations) {
      const schema = operation.input as { properties: Record<string, { enum?: unknown[]; anyOf?: Array<{ const?: unknown }> }> }
      const action = schema.properties.action
      if (action === undefined) {
        assert.equal(operation.actions, undefined, `${operation.name}: actions without an action field`)
        continue
      }
      const names = (action.enum ?? action.anyOf?.map((member) => member.const) ?? []).map(String)
      assert.ok(operation.actions, `${operation.name}: has an action field, so says its actions' fields`)
      assert.deepEqual(Object.keys(operation.actions).sort(), [...names].sort(), `${operation.name}: every action is described`)
      const fields = Object.keys(schema.properties).filter((field) => field !== 'action')
      for (const [name, described] of Object.entries(operation.actions)) {
        for (const field of described.fields) assert.ok(fields.includes(field), `${operation.name}.${name}: ${field} is a field`)
        for (const need of described.requires ?? []) {
          for (const field of [need].flat()) assert.ok(described.fields.includes(field), `${operation.name}.${name}: requires ${field}, one of its fields`)
        }
      }
      for (const field of fields) {
        assert.ok(
          Object.values(operation.actions).some((described) => described.fields.includes(field)),
          `${operation.name}: ${field} belongs to an action`,
        )
      }
      for (const example of operation.examples) {
        const input = example.input as Record<string, unknown>
        const chosen = String(input.action ?? (operation.input.properties as Record<string, { default?: unknown }>).action.default)
        const described = operation.actions[chosen]
        if (described === undefined) continue
        for (const field of Object.keys(input)) {
          if (field !== 'action') assert.ok(described.fields.includes(field), `${operation.name} "${example.summary}": ${field} belongs to ${chosen}`)
        }
      }
    }
  })

  test('the command line waits on standard input only for the actions that read input', () => {
    // The generators among them: their default action reads no input.
    for (const name of ['uuid', 'id', 'key', 'htpasswd']) {
      const operation = operations.find((candidate) => candidate.name === name)!
      assert.equal(readsInput(operation, {}), false, name)
    }
    const uuid = operations.find((candidate) => candidate.name === 'uuid')!
    assert.equal(readsInput(uuid, { action: 'inspect' }), true)
    assert.equal(readsInput(operations.find((candidate) => candidate.name === 'base64')!, {}), true)
  })

  for (const operation of operations) {
    describe(operation.name, () => {
      test('refuses unknown fields and documents every field', () => {
        assert.equal(operation.input.additionalProperties, false)
        for (const [field, schema] of Object.entries(operation.input.properties as Record<string, { description?: string }>)) {
          assert.ok(schema.description && schema.description.length > 10, `${operation.name}.${field} has a description`)
        }
        assert.ok(operation.summary.length > 10 && operation.description.length > 20)
      })

      test('has at least two examples, and each runs, matches its output and the output schema', async () => {
        assert.ok(operation.examples.length >= 2)
        for (const example of operation.examples) {
          const data = await execute(operation, structuredClone(example.input), ROOMY_BUDGETS)
          validate(operation.output, data, 'data')
          if (example.output !== undefined) assert.deepEqual(data, example.output, example.summary)
          const outputFields = Object.keys(operation.output.properties as object)
          const answered = Object.keys(data)
          assert.deepEqual(
            answered,
            outputFields.filter((field) => answered.includes(field)),
            `${operation.name} answers its fields in the documented order`,
          )
        }
      })
    })
  }
})

describe('every surface shows every operation', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp()
  })
  after(() => app.close())

  test('the catalogue lists each operation with its path, methods and summary', async () => {
    const response = await request(app, { method: 'GET', url: '/api/v1' })
    assert.equal(response.statusCode, 200, response.body)
    const listed = response.json().data.operations as Array<Record<string, unknown>>
    assert.deepEqual(
      listed.map((entry) => entry.name),
      operations.map((operation) => operation.name),
      'the operations of the catalogue, not the workflows',
    )
    for (const [index, operation] of operations.entries()) {
      assert.deepEqual(listed[index], {
        name: operation.name,
        category: operation.category,
        path: `/api/v1/${operation.name}`,
        methods: operation.allowGet ? ['GET', 'POST'] : ['POST'],
        summary: operation.summary,
      })
    }
  })

  test('the OpenAPI document has every operation with its fields, defaults, bounds, examples and errors', async () => {
    const document = (await request(app, { method: 'GET', url: '/openapi.json' })).json()
    assert.equal(document.openapi, '3.1.0')
    for (const operation of servedOperations) {
      const entry = document.paths[`/api/v1/${operation.name}`]?.post
      assert.ok(entry, `${operation.name} is in the OpenAPI document`)
      assert.equal(entry.operationId, operation.name)
      const media = entry.requestBody.content['application/json']
      assert.deepEqual(Object.keys(media.schema.properties), Object.keys(operation.input.properties as object))
      for (const [field, schema] of Object.entries(operation.input.properties as Record<string, Record<string, unknown>>)) {
        for (const keyword of ['default', 'minimum', 'maximum', 'maxLength', 'enum']) {
          if (keyword in schema) assert.deepEqual(media.schema.properties[field][keyword], schema[keyword], `${operation.name}.${field}.${keyword}`)
        }
      }
      assert.equal(Object.keys(media.examples).length, operation.examples.length)
      for (const status of ['200', '400', '413', '415', '422', '429', '500', '503']) assert.ok(entry.responses[status], `${operation.name} documents ${status}`)
      if (operation.allowGet) assert.ok(document.paths[`/api/v1/${operation.name}`].get, `${operation.name} documents its GET form`)
    }
  })
})

describe('the registry, loaded one operation at a time', () => {
  test('is alphabetical, and loads each operation by its name alone', async () => {
    const names = operations.map((operation) => operation.name)
    assert.deepEqual(Object.keys(operationLoaders), names)
    assert.deepEqual([...names].sort(), names)
    for (const operation of operations) assert.equal(await loadOperation(operation.name), operation, operation.name)
    assert.equal(loadOperation('pipeline'), undefined)
    assert.equal(loadOperation('toString'), undefined)
  })

  test("a server lists, routes and documents the operations from their information, and loads an operation's code with its first call", async () => {
    const loads: string[] = []
    const registered = createRegistry(operationInfos, (name) => {
      loads.push(name)
      return loadOperation(name)
    })
    const { pipeline, batch } = createWorkflows(registered)
    const registry = createRegistry([...operationInfos, pipeline, batch], (name) => registered.operation(name), [pipeline, batch])
    const quiet = { config: { logLevel: 'silent' as const }, overload: { maxEventLoopDelayMs: 0, sampleIntervalMs: 1000 } }
    const lazy = await buildApp({ ...quiet, registry })
    const loaded = await buildApp({ ...quiet, registry: registryOf(servedOperations) })
    try {
      const get = (app: FastifyInstance, url: string) => request(app, { method: 'GET', url })
      assert.deepEqual((await get(lazy, '/api/v1')).json().data, (await get(loaded, '/api/v1')).json().data, 'the same catalogue')
      assert.equal((await get(lazy, '/openapi.json')).body, (await get(loaded, '/openapi.json')).body, 'the same OpenAPI document')
      assert.deepEqual(loads, [], 'no operation loaded to start, list or document')
      for (let call = 0; call < 2; call++)
        assert.equal((await request(lazy, { method: 'POST', url: '/api/v1/base64', payload: { input: 'hi' } })).statusCode, 200)
      assert.equal((await request(lazy, { method: 'GET', url: '/api/v1/uuid' })).statusCode, 200)
      const pipelined = { input: 'hi', steps: [{ operation: 'rot13' }, { operation: 'base64' }] }
      assert.equal((await request(lazy, { method: 'POST', url: '/api/v1/pipeline', payload: pipelined })).json().data.result, 'dXY=')
      assert.deepEqual(loads, ['base64', 'uuid', 'rot13'], "each loaded once, with its first call, the pipeline's steps too")
    } finally {
      await Promise.all([lazy.close(), loaded.close()])
    }
  })

  test('the information is each definition less its functions, as the JSON the build writes', () => {
    assert.deepEqual(
      operationInfos.map((info) => info.name),
      operations.map((operation) => operation.name),
    )
    for (const [index, operation] of operations.entries()) {
      const info = operationInfos[index] as Record<string, unknown>
      assert.ok(!('run' in info) && !('offload' in info), operation.name)
      assert.deepEqual(info, JSON.parse(JSON.stringify({ ...operation, run: undefined, offload: undefined })), operation.name)
    }
  })
})
