import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { ERROR_STATUS } from '../src/core/errors.ts'
import type { AnyOperation } from '../src/core/operation.ts'
import { servedOperations } from '../src/served.ts'
import { buildTestApp, type Envelope } from './helpers.ts'

type JsonSchema = Record<string, unknown>
type Response = Awaited<ReturnType<FastifyInstance['inject']>>

/** Every answer, whatever was sent, is an envelope; an error one has a known code with its status. */
function assertEnvelope(response: Response, context: string): Envelope {
  assert.ok(response.statusCode < 500 || response.statusCode === 503, `${context}: ${response.statusCode} ${response.body.slice(0, 300)}`)
  const body = response.json() as Envelope
  assert.equal(typeof body.meta?.requestId, 'string', context)
  assert.equal(typeof body.meta?.processingTime, 'number', context)
  if (response.statusCode === 200) {
    assert.equal(body.success, true, context)
  } else {
    assert.equal(body.success, false, context)
    const code = body.error!.code as keyof typeof ERROR_STATUS
    assert.equal(ERROR_STATUS[code], response.statusCode, `${context}: ${code} goes with ${ERROR_STATUS[code]}`)
    assert.ok(body.error!.message.length > 0, context)
  }
  return body
}

function expectError(response: Response, status: number, code: string, context: string): Envelope {
  const body = assertEnvelope(response, context)
  assert.equal(response.statusCode, status, `${context}: ${response.body.slice(0, 300)}`)
  assert.equal(body.error!.code, code, context)
  return body
}

const properties = (operation: AnyOperation) => operation.input.properties as Record<string, JsonSchema>
const required = (operation: AnyOperation) => (operation.input.required as string[] | undefined) ?? []
const accepts = (schema: JsonSchema, type: string): boolean =>
  schema.type === type || (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((branch) => accepts(branch, type)))
/** A JSON object for a field that takes no object; undefined for fields that take any JSON value. */
function wrongValue(schema: JsonSchema): unknown {
  const takesAnything = !('type' in schema) && !('anyOf' in schema) && !('enum' in schema) && !('const' in schema)
  return takesAnything || accepts(schema, 'object') ? undefined : { nested: true }
}

describe('hostile input: every row of the error table, for every operation', () => {
  let app: FastifyInstance
  before(async () => {
    // Hundreds of requests per operation from one client: the rate limiter, tested elsewhere, is off.
    app = await buildTestApp({ bodyLimit: 64 * 1024, rateLimitMax: 0 })
  })
  after(() => app.close())

  const send = (operation: string, payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/${operation}`,
      headers,
      payload: typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload),
    })

  for (const operation of servedOperations) {
    const valid = operation.examples[0].input as Record<string, unknown>
    describe(operation.name, () => {
      test('400 INVALID_JSON: malformed, empty, not UTF-8, prototype keys', async () => {
        for (const payload of [
          '{',
          '',
          '{"a":1}}',
          Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
          '{"__proto__":{"polluted":1}}',
          '{"constructor":{"prototype":{"polluted":1}}}',
        ]) {
          expectError(await send(operation.name, payload), 400, 'INVALID_JSON', `${operation.name} ${String(payload)}`)
        }
        assert.equal(({} as Record<string, unknown>).polluted, undefined)
      })

      test('400 VALIDATION_ERROR: unknown field, wrong types, missing fields, not an object', async () => {
        const unknown = expectError(await send(operation.name, { ...valid, definitelyNotAField: 1 }), 400, 'VALIDATION_ERROR', 'unknown field')
        assert.match(unknown.error!.message, /definitelyNotAField is not a known field/)
        // With many extra keys TypeBox reports them under another keyword, and stops at eight: those are named.
        const extras = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`extra${index}`, index]))
        const many = expectError(await send(operation.name, { ...valid, ...extras }), 400, 'VALIDATION_ERROR', 'ten unknown fields')
        for (const field of Object.keys(extras).slice(0, 8)) assert.match(many.error!.message, new RegExp(`${field} is not a known field`))
        for (const [field, schema] of Object.entries(properties(operation))) {
          const value = wrongValue(schema)
          if (value === undefined) continue
          const body = expectError(await send(operation.name, { ...valid, [field]: value }), 400, 'VALIDATION_ERROR', `${operation.name}.${field} wrong type`)
          assert.ok(
            (body.error!.details as Array<{ field: string }>).some((detail) => detail.field === field),
            `${operation.name}: the details name ${field}`,
          )
        }
        for (const field of required(operation)) {
          const { [field]: _omitted, ...rest } = valid
          const body = expectError(await send(operation.name, rest), 400, 'VALIDATION_ERROR', `${operation.name} without ${field}`)
          assert.match(body.error!.message, new RegExp(`${field} is required`))
        }
        for (const payload of ['[]', '"text"', '1', 'null', 'true'])
          expectError(await send(operation.name, payload), 400, 'VALIDATION_ERROR', `${operation.name} body ${payload}`)
      })

      test('400 VALIDATION_ERROR: every bound, refused rather than clamped', async () => {
        for (const [field, schema] of Object.entries(properties(operation))) {
          const bounded: Array<[string, unknown]> = []
          if (typeof schema.maximum === 'number') bounded.push(['above maximum', schema.maximum + 1])
          if (typeof schema.minimum === 'number') bounded.push(['below minimum', schema.minimum - 1])
          if (typeof schema.maxLength === 'number' && schema.maxLength <= 20_000) bounded.push(['too long', 'a'.repeat(schema.maxLength + 1)])
          if (typeof schema.maxItems === 'number')
            bounded.push([
              'too many items',
              Array.from({ length: schema.maxItems + 1 }, () => (Array.isArray(valid[field]) ? (valid[field] as unknown[])[0] : 'x')),
            ])
          for (const [what, value] of bounded) {
            const body = expectError(await send(operation.name, { ...valid, [field]: value }), 400, 'VALIDATION_ERROR', `${operation.name}.${field} ${what}`)
            assert.ok((body.error!.details as Array<{ field: string }>).some((detail) => detail.field === field || detail.field.startsWith(`${field}[`)))
          }
        }
      })

      test('404, 405, 413, 415: unknown names, wrong methods, big bodies, other media types', async () => {
        expectError(await send(`${operation.name}x`, valid), 404, 'UNKNOWN_OPERATION', 'unknown operation')
        for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
          const response = await app.inject({ method, url: `/api/v1/${operation.name}`, payload: valid })
          expectError(response, 405, 'METHOD_NOT_ALLOWED', method)
          assert.match(String(response.headers.allow), /POST/)
        }
        const big = await send(operation.name, { ...valid, input: 'x'.repeat(70 * 1024) })
        expectError(big, 413, 'PAYLOAD_TOO_LARGE', 'big body')
        for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16']) {
          expectError(await send(operation.name, JSON.stringify(valid), { 'content-type': type }), 415, 'UNSUPPORTED_MEDIA_TYPE', type)
        }
      })

      // An operation that allows lone surrogates (unicode inspects them) tests them itself.
      if (!operation.allowLoneSurrogates && properties(operation).input && accepts(properties(operation).input, 'string')) {
        test('422: a lone surrogate in the input', async () => {
          const payload = JSON.stringify({ ...valid, input: 'ab' }).replace('"input":"ab"', '"input":"ab\\udc00cd"')
          const body = expectError(await send(operation.name, payload), 422, 'INVALID_INPUT', 'lone surrogate')
          assert.match(body.error!.message, /lone surrogate/)
        })
      }
    })
  }
})

describe('hostile input: payloads built to hurt', () => {
  let app: FastifyInstance
  before(async () => {
    // These rows check answers, not speed: a generous budget keeps a cold worker thread on a busy
    // machine from turning a 422 into a 503 TIMEOUT.
    app = await buildTestApp({ timeBudgetMs: 60_000, rateLimitMax: 0 })
  })
  after(() => app.close())

  /** Sends a body given as a value, or as JSON text (deep values must be text: JSON.stringify recurses). */
  const send = (operation: string, body: unknown) =>
    app.inject({
      method: 'POST',
      url: `/api/v1/${operation}`,
      headers: { 'content-type': 'application/json' },
      payload: body instanceof JsonText ? body.text : JSON.stringify(body),
    })

  class JsonText {
    constructor(readonly text: string) {}
  }
  const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
  const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

  const rows: Array<[name: string, operation: string, body: unknown, status: number, code: string]> = [
    [
      'YAML alias bomb (billion laughs)',
      'yaml-json',
      {
        input: [
          'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
          ...Array.from(
            { length: 8 },
            (_, i) =>
              `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
          ),
        ].join('\n'),
      },
      422,
      'LIMIT_EXCEEDED',
    ],
    ['YAML nested 5,000 flow sequences', 'yaml-json', { input: '['.repeat(5000) + ']'.repeat(5000) }, 422, 'LIMIT_EXCEEDED'],
    ['YAML nested 5,000 flow maps', 'yaml-json', { input: `${'{a: '.repeat(5000)}1${'}'.repeat(5000)}` }, 422, 'LIMIT_EXCEEDED'],
    [
      'YAML nested 300 block maps',
      'yaml-json',
      { input: `${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1` },
      422,
      'LIMIT_EXCEEDED',
    ],
    ['YAML undefined alias', 'yaml-json', { input: 'a: *nowhere' }, 422, 'INVALID_INPUT'],
    ['YAML duplicate keys', 'yaml-json', { input: 'a: 1\na: 2' }, 422, 'INVALID_INPUT'],
    ['YAML executable tag', 'yaml-json', { input: 'a: !!js/function "function(){ return process.exit(1) }"' }, 200, ''],
    ['JSON nested 100,000 deep to jsonToYaml', 'yaml-json', new JsonText(`{"action":"jsonToYaml","input":${deepArray(100_000)}}`), 422, 'LIMIT_EXCEEDED'],
    ['JSON nested 101 deep to jsonToYaml', 'yaml-json', new JsonText(`{"action":"jsonToYaml","input":${deepObject(101)}}`), 422, 'LIMIT_EXCEEDED'],
    ['JSON nested 100,000 deep to jsonToCsv', 'csv-json', new JsonText(`{"action":"jsonToCsv","input":[{"a":${deepArray(100_000)}}]}`), 422, 'LIMIT_EXCEEDED'],
    [
      'JSON nested 100,000 deep to the pipeline',
      'pipeline',
      new JsonText(`{"input":${deepArray(100_000)},"steps":[{"operation":"yaml-json","action":"jsonToYaml"}]}`),
      422,
      'LIMIT_EXCEEDED',
    ],
    [
      'CSV that amplifies into huge JSON',
      'csv-json',
      {
        input: `${Array.from({ length: 1000 }, (_, i) => `a_column_name_long_enough_to_be_repeated_in_every_row_${i}`).join(',')}\n${Array.from({ length: 600 }, () => ','.repeat(999)).join('\n')}`,
      },
      422,
      'LIMIT_EXCEEDED',
    ],
    ['CSV unclosed quote', 'csv-json', { input: 'a,b\n"1,2\n3,4' }, 422, 'INVALID_INPUT'],
    ['CSV __proto__ header is an ordinary key', 'csv-json', { input: '__proto__,constructor\n1,2' }, 200, ''],
    [
      'morse of 1 MiB of zeros amplifies past the output limit',
      'morse',
      { input: '0'.repeat(1_000_000), letterSeparator: '        ', dot: '........', dash: '--------' },
      422,
      'LIMIT_EXCEEDED',
    ],
    ['base-convert of 10,001 digits', 'base-convert', { input: '9'.repeat(10_001) }, 422, 'LIMIT_EXCEEDED'],
    ['random-string length × count over the cap', 'random-string', { length: 4096, count: 1000 }, 400, 'VALIDATION_ERROR'],
    ['random-number unique past the range', 'random-number', { min: 1, max: 10, count: 11, unique: true }, 400, 'VALIDATION_ERROR'],
    ['uuid count too large', 'uuid', { count: 1_000_000 }, 400, 'VALIDATION_ERROR'],
    ['password length too large', 'password', { length: 1_000_000 }, 400, 'VALIDATION_ERROR'],
    ['lorem-ipsum paragraphs past the unit cap', 'lorem-ipsum', { unit: 'paragraphs', count: 101 }, 400, 'VALIDATION_ERROR'],
    ['ip-address unique past a /30', 'ip-address', { cidr: '10.0.0.0/30', count: 5, unique: true }, 400, 'VALIDATION_ERROR'],
    ['timestamp beyond the representable range', 'timestamp', { input: 9e15, unit: 'milliseconds' }, 422, 'INVALID_INPUT'],
    ['timestamp impossible date', 'timestamp', { input: '2023-02-30' }, 422, 'INVALID_INPUT'],
    ['hash unknown algorithm', 'hash', { input: 'x', algorithm: 'sha257' }, 400, 'VALIDATION_ERROR'],
    ['slug of 1 MiB of separators', 'slug', { input: ' -'.repeat(500_000) }, 200, ''],
    ['pipeline of 21 steps', 'pipeline', { input: 'x', steps: Array.from({ length: 21 }, () => ({ operation: 'rot13' })) }, 400, 'VALIDATION_ERROR'],
    ['batch of 101 requests', 'batch', { requests: Array.from({ length: 101 }, () => ({ operation: 'uuid' })) }, 400, 'VALIDATION_ERROR'],
  ]

  for (const [name, operation, body, status, code] of rows) {
    test(`${operation}: ${name} → ${status}${code ? ` ${code}` : ''}`, async () => {
      const response = await send(operation, body)
      if (code) expectError(response, status, code, name)
      else {
        assertEnvelope(response, name)
        assert.equal(response.statusCode, status, response.body.slice(0, 300))
      }
    })
  }

  test('the YAML nesting that aborts Node in the yaml library, sent three times: the same process still answers', async () => {
    const payload = { input: '['.repeat(1200) + ']'.repeat(1200) }
    for (let i = 0; i < 3; i++) expectError(await send('yaml-json', payload), 422, 'LIMIT_EXCEEDED', `attempt ${i + 1}`)
    const health = await app.inject({ method: 'GET', url: '/health' })
    assert.equal(health.statusCode, 200)
    const normal = await send('yaml-json', { input: 'a: [1, 2]' })
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
          const response = await app.inject({
            method: 'POST',
            url: `/api/v1/${operation.name}`,
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify(randomBody),
          })
          assertEnvelope(response, `${operation.name} ${JSON.stringify(randomBody).slice(0, 200)}`)
        }),
        { numRuns: 60 },
      )
      const stringFields = fields.filter((field) => accepts(properties(operation)[field], 'string'))
      if (stringFields.length === 0) return
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...stringFields), fc.string({ unit: 'binary', maxLength: 64 }), async (field, text) => {
          const response = await app.inject({
            method: 'POST',
            url: `/api/v1/${operation.name}`,
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify({ ...valid, [field]: text }),
          })
          assertEnvelope(response, `${operation.name}.${field} = ${JSON.stringify(text)}`)
        }),
        { numRuns: 60 },
      )
    })
  }
})
