import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { servedOperations } from '../../src/served-operations.ts'
import { buildTestApp, postTo, ROOMY_CONFIG, request } from '../helpers.ts'
import { accepts, assertEnvelope, expectAnswer, expectError, invalidFieldInputs, MALFORMED_BODIES, NOT_OBJECT_BODIES, properties } from '../hostile-inputs.ts'

describe('hostile input: every row of the error table, for every operation', () => {
  let app: FastifyInstance
  before(async () => {
    // Hundreds of requests per operation from one client: the rate limiter, tested elsewhere, is off.
    app = await buildTestApp({ bodyLimit: 64 * 1024, rateLimitMax: 0 })
  })
  after(() => app.close())

  for (const operation of servedOperations) {
    const valid = operation.examples[0].input as Record<string, unknown>
    describe(operation.name, () => {
      test('400 INVALID_JSON: malformed, empty, not UTF-8, prototype keys', async () => {
        for (const payload of MALFORMED_BODIES) {
          expectError(await postTo(app, operation.name, payload), 400, 'INVALID_JSON', `${operation.name} ${String(payload)}`)
        }
        assert.equal(({} as Record<string, unknown>).polluted, undefined)
      })

      test('400 VALIDATION_ERROR and 422: unknown fields, wrong types, missing fields, every bound, a lone surrogate, not an object', async () => {
        for (const input of invalidFieldInputs(operation)) expectAnswer(await postTo(app, operation.name, input.body), input)
        for (const payload of NOT_OBJECT_BODIES)
          expectError(await postTo(app, operation.name, payload), 400, 'VALIDATION_ERROR', `${operation.name} body ${payload}`)
      })

      test('404, 405, 413, 415: unknown names, wrong methods, big bodies, other media types', async () => {
        expectError(await postTo(app, `${operation.name}x`, valid), 404, 'UNKNOWN_OPERATION', 'unknown operation')
        for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
          const response = await request(app, { method, url: `/api/v1/${operation.name}`, payload: valid })
          expectError(response, 405, 'METHOD_NOT_ALLOWED', method)
          assert.match(String(response.headers.allow), /POST/)
        }
        const big = await postTo(app, operation.name, { ...valid, input: 'x'.repeat(70 * 1024) })
        expectError(big, 413, 'PAYLOAD_TOO_LARGE', 'big body')
        for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16']) {
          expectError(await postTo(app, operation.name, JSON.stringify(valid), { 'content-type': type }), 415, 'UNSUPPORTED_MEDIA_TYPE', type)
        }
      })
    })
  }
})

// The payloads built to hurt (each operation's hostile rows) go through every surface's matrix
// (surfaces.test.ts): through the listener with heavy work on worker threads and kept in process,
// and as a pipeline step.
describe('hostile input: a payload that once ended the process', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp({ ...ROOMY_CONFIG, rateLimitMax: 0 })
  })
  after(() => app.close())

  test('the YAML nesting that aborts Node in the yaml library, sent three times: the same process still answers', async () => {
    const payload = { input: '['.repeat(1200) + ']'.repeat(1200) }
    for (let i = 0; i < 3; i++) expectError(await postTo(app, 'yaml-json', payload), 422, 'LIMIT_EXCEEDED', `attempt ${i + 1}`)
    const health = await request(app, { method: 'GET', url: '/health' })
    assert.equal(health.statusCode, 200)
    const normal = await postTo(app, 'yaml-json', { input: 'a: [1, 2]' })
    assert.deepEqual(normal.json().data.result, { a: [1, 2] })
  })
})

describe('hostile input: random bodies never produce a 5xx', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp({ rateLimitMax: 0 })
  })
  after(() => app.close())

  for (const operation of servedOperations) {
    const fields = Object.keys(properties(operation))
    const valid = operation.examples[0].input as Record<string, unknown>

    test(`${operation.name}: random JSON bodies, and random strings in every string field`, async () => {
      const key = fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 }))
      const body = fc.oneof(fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }), fc.jsonValue({ maxDepth: 2 }))
      await fc.assert(
        fc.asyncProperty(body, async (randomBody) => {
          const response = await postTo(app, operation.name, JSON.stringify(randomBody))
          assertEnvelope(response, `${operation.name} ${JSON.stringify(randomBody).slice(0, 200)}`)
        }),
        { numRuns: 60 },
      )
      const stringFields = fields.filter((field) => accepts(properties(operation)[field], 'string'))
      if (stringFields.length === 0) return
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...stringFields), fc.string({ unit: 'binary', maxLength: 64 }), async (field, text) => {
          const response = await postTo(app, operation.name, JSON.stringify({ ...valid, [field]: text }))
          assertEnvelope(response, `${operation.name}.${field} = ${JSON.stringify(text)}`)
        }),
        { numRuns: 60 },
      )
    })
  }
})
