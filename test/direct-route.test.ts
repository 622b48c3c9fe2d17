import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../src/core/config.ts'
import type { AnyOperation } from '../src/core/operation.ts'
import { buildApp } from '../src/http/app.ts'
import { directOperationRoutes } from '../src/http/direct-route.ts'
import { toDevutilsError } from '../src/http/errors.ts'
import type { OverloadLimits } from '../src/http/protection.ts'
import { servedOperations } from '../src/served.ts'
import { brokenOperation } from './fixtures/broken-operation.ts'

/**
 * Operation calls of the everyday shape sent to a listening server are answered by direct-route.ts;
 * the same calls through `inject` go through Fastify's routes. Both must answer alike: status,
 * envelope, headers, log line. An onRequest hook added here counts what reached Fastify.
 */

/** Headers that differ between any two answers (ids, counts, lengths, the clock) or that only a socket has. */
const VOLATILE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'content-length'])

interface Answer {
  status: number
  headers: Record<string, string>
  body: Record<string, unknown>
}

interface Served {
  app: FastifyInstance
  url: string
  logLines: Array<Record<string, unknown>>
  /** Requests that went through Fastify's onRequest hooks. */
  routedByFastify: () => number
}

const OFF: OverloadLimits = { maxEventLoopDelayMs: 0, sampleIntervalMs: 1000 }

async function serve(config: Partial<Config> = {}, operations: readonly AnyOperation[] = servedOperations, overload = OFF): Promise<Served> {
  const logLines: Array<Record<string, unknown>> = []
  const app = await buildApp({ config: { logLevel: 'info', ...config }, operations, overload, logStream: { write: (line) => logLines.push(JSON.parse(line)) } })
  let routed = 0
  app.addHook('onRequest', (_request, _reply, done) => {
    routed++
    done()
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, logLines, routedByFastify: () => routed }
}

function comparable(status: number, headers: Record<string, string>, text: string): Answer {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !VOLATILE_HEADERS.has(name)))
  const body = JSON.parse(text) as Record<string, unknown>
  const meta = body.meta as Record<string, unknown>
  assert.equal(typeof meta.processingTime, 'number')
  assert.equal(meta.requestId, headers['x-request-id'], 'the envelope and the header carry the same id')
  delete body.meta
  return { status, headers: kept, body }
}

async function overHttp(served: Served, path: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(served.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
  return comparable(response.status, Object.fromEntries(response.headers), await response.text())
}

async function throughFastify(served: Served, path: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await served.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', ...headers },
    payload: Buffer.from(body),
  })
  return comparable(response.statusCode, response.headers as Record<string, string>, response.body)
}

/** Answers to compare: a generator's data is random, so only its shape is compared. */
function withoutRandomData(answer: Answer, random: boolean): Answer {
  if (!random || !answer.body.success) return answer
  return { ...answer, body: { ...answer.body, data: Object.keys(answer.body.data as object) } }
}

const HOSTILE_BODIES: Array<[string, string | Uint8Array]> = [
  ['not JSON', '{"input":'],
  ['an array', '[]'],
  ['null', 'null'],
  ['no fields', '{}'],
  ['an unknown field', '{"input":"a","colour":"red"}'],
  ['a wrong type', '{"input":5}'],
  ['a __proto__ key', '{"__proto__":{"polluted":true},"input":"a"}'],
  ['bytes that are not UTF-8', Uint8Array.from([0x7b, 0x22, 0x69, 0x6e, 0x70, 0x75, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
  ['a byte order mark before the JSON', '\ufeff{"input":"a"}'],
  ['a lone surrogate', '{"input":"\\ud800"}'],
  ['deep nesting', `{"input":${'['.repeat(2000)}${']'.repeat(2000)}}`],
  ['whitespace only', '   '],
]

describe('operation calls answered directly, and through Fastify, alike', () => {
  let served: Served
  before(async () => {
    served = await serve({ rateLimitMax: 1_000_000 })
  })
  after(() => served.app.close())

  test("every operation's examples", async () => {
    for (const operation of servedOperations) {
      for (const example of operation.examples) {
        const path = `/api/v1/${operation.name}`
        const body = JSON.stringify(example.input)
        const random = example.output === undefined
        const direct = withoutRandomData(await overHttp(served, path, body), random)
        const routed = withoutRandomData(await throughFastify(served, path, body), random)
        assert.deepEqual(direct, routed, `${operation.name}: ${example.summary}`)
      }
    }
  })

  test('hostile and malformed bodies get the same errors', async () => {
    for (const operationName of ['base64', 'hash', 'json', 'yaml-json', 'pipeline', 'batch']) {
      for (const [what, body] of HOSTILE_BODIES) {
        const path = `/api/v1/${operationName}`
        assert.deepEqual(await overHttp(served, path, body), await throughFastify(served, path, body), `${operationName}: ${what}`)
      }
    }
  })

  test('the direct answers never reached Fastify; other shapes of request still do', async () => {
    const before = served.routedByFastify()
    await overHttp(served, '/api/v1/base64', '{"input":"hi"}')
    await overHttp(served, '/api/v1/base64', '{"input":"hi"}', { 'content-type': 'application/json; charset=utf-8' })
    assert.equal(served.routedByFastify(), before, 'answered directly')
    const routed: Array<[string, Record<string, string>]> = [
      ['/api/v1/base64?x=1', {}],
      ['/api/v1/base64/', {}],
      ['/api/v1/base64', { 'content-type': 'Application/JSON' }],
      ['/api/v1/base64', { 'content-type': 'application/json; charset=latin1' }],
      ['/api/v1/nothing-here', {}],
    ]
    for (const [path, headers] of routed) await overHttp(served, path, '{"input":"hi"}', headers).catch(() => undefined)
    assert.equal(served.routedByFastify(), before + routed.length, 'routed by Fastify')
  })

  test('the log line and the metrics are the same for both', async () => {
    const direct = await overHttp(served, '/api/v1/base64', '{"input":"log me"}')
    const routed = await throughFastify(served, '/api/v1/base64', '{"input":"log me"}')
    assert.deepEqual(direct, routed)
    const [directLine, routedLine] = served.logLines.slice(-2).map(({ time, responseTime, requestId, ...line }) => {
      assert.equal(typeof time, 'number')
      assert.equal(typeof responseTime, 'number')
      assert.equal(typeof requestId, 'string')
      return line
    })
    assert.deepEqual(directLine, routedLine)
    assert.deepEqual(directLine, {
      level: 30,
      pid: process.pid,
      hostname: directLine.hostname,
      operation: 'base64',
      method: 'POST',
      path: '/api/v1/base64',
      status: 200,
      msg: 'request completed',
    })
    const metrics = await (await fetch(`${served.url}/metrics`)).text()
    assert.match(metrics, /devutils_http_requests_total\{operation="base64",method="POST",status="200"\} \d+/)
  })
})

describe('refusals and defects, answered directly and through Fastify', () => {
  const pairs: Served[] = []
  after(() => Promise.all(pairs.map(({ app }) => app.close())))

  /** Two servers of the same configuration: one answered over HTTP, the other through inject, so that counts do not mix. */
  async function pair(config: Partial<Config>, operations?: readonly AnyOperation[], overload?: OverloadLimits) {
    const direct = await serve(config, operations, overload)
    const routed = await serve(config, operations, overload)
    pairs.push(direct, routed)
    return { direct, routed }
  }

  test('past the rate limit: 429 with Retry-After, in both', async () => {
    const { direct, routed } = await pair({ rateLimitMax: 2 })
    for (let call = 1; call <= 3; call++) {
      const a = await overHttp(direct, '/api/v1/base64', '{"input":"a"}')
      const b = await throughFastify(routed, '/api/v1/base64', '{"input":"a"}')
      assert.deepEqual(a, b, `call ${call}`)
      assert.equal(a.status, call <= 2 ? 200 : 429)
    }
    assert.equal(direct.routedByFastify(), 0)
  })

  test('behind a trusted proxy, each forwarded client is counted on its own', async () => {
    const { direct, routed } = await pair({ rateLimitMax: 1, trustProxy: '127.0.0.1' })
    for (const [client, status] of [
      ['203.0.113.5', 200],
      ['203.0.113.5', 429],
      ['203.0.113.6', 200],
    ] as const) {
      const headers = { 'x-forwarded-for': client }
      const a = await overHttp(direct, '/api/v1/base64', '{"input":"a"}', headers)
      const b = await throughFastify(routed, '/api/v1/base64', '{"input":"a"}', headers)
      assert.deepEqual(a, b, client)
      assert.equal(a.status, status, client)
    }
  })

  test('no memory left for a body: 503 OVERLOADED with Retry-After, in both', async () => {
    const { direct, routed } = await pair({}, undefined, { ...OFF, bodyMemoryBudgetBytes: 1 })
    const a = await overHttp(direct, '/api/v1/base64', '{"input":"a"}')
    assert.deepEqual(a, await throughFastify(routed, '/api/v1/base64', '{"input":"a"}'))
    assert.equal(a.status, 503)
    assert.equal(a.headers['retry-after'], '1')
  })

  test('a defect: 500 without internals, logged with the request id, in both', async () => {
    const { direct, routed } = await pair({}, [brokenOperation])
    const response = await fetch(`${direct.url}/api/v1/broken`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"x"}' })
    const text = await response.text()
    const a = comparable(response.status, Object.fromEntries(response.headers), text)
    assert.deepEqual(a, await throughFastify(routed, '/api/v1/broken', '{"input":"x"}'))
    assert.equal(a.status, 500)
    assert.doesNotMatch(text, /secret|srv/)
    const defect = direct.logLines.find((line) => line.msg === 'request failed') as { requestId?: string; defect?: { type: string } } | undefined
    assert.equal(defect?.requestId, response.headers.get('x-request-id'))
    assert.equal(defect?.defect?.type, 'Error')
    assert.equal(direct.routedByFastify(), 0)
  })
})

describe('a direct answer never lets an exception reach the process', () => {
  test('a duty that throws is answered 500 INTERNAL_ERROR, like an error in a Fastify hook', async () => {
    const answerDirectly = directOperationRoutes({
      operations: servedOperations,
      bodyLimit: 1024,
      timeBudgetMs: 1000,
      trustProxy: undefined,
      protect: () => {
        throw new TypeError('a defect in a duty')
      },
      recordResponse: () => {},
      ready: () => true,
      answerable: (error) => toDevutilsError(error, 1024),
    })
    const server = createServer((request, response) => {
      if (!answerDirectly(request, response)) response.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/base64`
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"input":"a"}' })
      assert.equal(response.status, 500)
      const body = (await response.json()) as { error: { code: string; message: string } }
      assert.equal(body.error.code, 'INTERNAL_ERROR')
      assert.doesNotMatch(body.error.message, /defect in a duty/)
    } finally {
      server.close()
    }
  })
})
