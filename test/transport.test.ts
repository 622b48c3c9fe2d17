import assert from 'node:assert/strict'
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { API_PREFIX } from '../src/core/catalogue.ts'
import { DEFAULT_CONFIG, loadConfig } from '../src/core/config.ts'
import { createWorkflows } from '../src/core/workflows.ts'
import { buildApp } from '../src/http/app.ts'
import { openApiDocument } from '../src/http/docs.ts'
import { errorAnswers } from '../src/http/errors.ts'
import { observability } from '../src/http/observability.ts'
import { protection } from '../src/http/protection.ts'
import { transport } from '../src/http/transport.ts'
import { servedOperations } from '../src/served.ts'
import { brokenOperation, DEFECT_MESSAGE } from './fixtures/broken-operation.ts'
import { buildTestApp, ROOMY_CONFIG } from './helpers.ts'

/** One request over a real socket, through `agent` (which may keep its connection alive). */
function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; agent?: Agent },
): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer; localPort: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers, agent: options.agent },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), localPort: request.socket?.localPort ?? 0 }),
        )
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

const json = { 'content-type': 'application/json' }

async function listening(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  assert.ok(address && typeof address === 'object')
  return address.port
}

describe('one request path', () => {
  let app: FastifyInstance
  let port: number
  const seen: string[] = []
  before(async () => {
    // The request path is what is tested, not speed: a cold worker thread (format's first call loads prettier) may take seconds on a busy machine.
    app = await buildTestApp(ROOMY_CONFIG)
    // A hook added after the service's own: every request must reach it, as any plugin added later would.
    app.addHook('onRequest', async (request) => {
      seen.push(`${request.method} ${request.url}`)
    })
    port = await listening(app)
  })
  after(() => app.close())

  test("every operation's POST over a socket goes through Fastify's hooks", async () => {
    for (const operation of servedOperations) {
      const path = `${API_PREFIX}/${operation.name}`
      const response = await send(port, { method: 'POST', path, headers: json, body: JSON.stringify(operation.examples[0].input) })
      assert.equal(response.status, 200, `${operation.name}: ${response.body}`)
      assert.ok(seen.includes(`POST ${path}`), `${operation.name} reached the hook`)
    }
  })
})

describe('server timeouts', () => {
  test('keep-alive outlasts common load balancers; headers and request timeouts agree', async () => {
    const app = await buildTestApp()
    try {
      const port = await listening(app)
      assert.equal(app.server.keepAliveTimeout, DEFAULT_CONFIG.keepAliveTimeoutMs)
      assert.ok(DEFAULT_CONFIG.keepAliveTimeoutMs > 60_000, 'longer than the common 60 s idle timeout of load balancers')
      assert.equal(app.server.requestTimeout, DEFAULT_CONFIG.requestTimeoutMs)
      assert.ok(app.server.headersTimeout <= app.server.requestTimeout, 'the headers cannot have longer than the whole request')
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        const first = await send(port, { path: '/health', agent })
        assert.equal(first.headers['keep-alive'], `timeout=${DEFAULT_CONFIG.keepAliveTimeoutMs / 1000}`)
        // Longer than Node's own default of 5 s, after which a pooled client's next request used to fail.
        await sleep(5_500)
        const second = await send(port, { path: '/health', agent })
        assert.equal(second.status, 200)
        assert.equal(second.localPort, first.localPort, 'the same connection served both requests')
      } finally {
        agent.destroy()
      }
    } finally {
      await app.close()
    }
  })

  test('KEEP_ALIVE_TIMEOUT_MS sets it', async () => {
    assert.equal(loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '90000' }).keepAliveTimeoutMs, 90_000)
    assert.throws(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: 'soon' }), /KEEP_ALIVE_TIMEOUT_MS must be an integer/)
    const app = await buildTestApp({ keepAliveTimeoutMs: 90_000 })
    try {
      await listening(app)
      assert.equal(app.server.keepAliveTimeout, 90_000)
    } finally {
      await app.close()
    }
  })
})

describe('transport answers', () => {
  let app: FastifyInstance
  let port: number
  before(async () => {
    app = await buildTestApp({ rateLimitMax: 5, rateLimitWindow: 60_000 })
    port = await listening(app)
  })
  after(() => app.close())

  test('headers too large are 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`)
      })
      let text = ''
      socket.on('data', (chunk) => {
        text += chunk
      })
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    assert.match(raw, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))
    assert.equal(body.success, false)
    assert.equal(body.error.code, 'HEADERS_TOO_LARGE')
  })

  test("the rate limit is told in the current draft's RateLimit-Policy and RateLimit, and in the earlier fields", async () => {
    for (let remaining = 4; remaining >= 0; remaining--) {
      const response = await send(port, { method: 'POST', path: `${API_PREFIX}/base64`, headers: json, body: '{"input":"x"}' })
      assert.equal(response.status, 200)
      assert.equal(response.headers['ratelimit-policy'], '"default";q=5;w=60')
      assert.match(String(response.headers.ratelimit), new RegExp(`^"default";r=${remaining};t=\\d+$`))
      assert.equal(response.headers['ratelimit-limit'], '5')
      assert.equal(response.headers['ratelimit-remaining'], String(remaining))
    }
    const limited = await send(port, { method: 'POST', path: `${API_PREFIX}/base64`, headers: json, body: '{"input":"x"}' })
    assert.equal(limited.status, 429)
    assert.match(String(limited.headers.ratelimit), /^"default";r=0;t=\d+$/)
    const exposed = String(limited.headers['access-control-expose-headers'])
    for (const name of ['RateLimit-Policy', 'RateLimit', 'RateLimit-Limit', 'Retry-After']) assert.ok(exposed.split(', ').includes(name), name)
  })
})

describe('the OpenAPI document', () => {
  let app: FastifyInstance
  let port: number
  before(async () => {
    app = await buildTestApp()
    port = await listening(app)
  })
  after(() => app.close())

  test('is revalidated by its ETag, and compressed for clients that accept it', async () => {
    const plain = await send(port, { path: '/openapi.json' })
    assert.equal(plain.status, 200)
    assert.equal(plain.headers['cache-control'], 'no-cache')
    const etag = plain.headers.etag
    assert.ok(etag, 'an ETag')
    const document = JSON.parse(plain.body.toString())
    assert.equal(document.openapi.startsWith('3.1'), true)

    const again = await send(port, { path: '/openapi.json', headers: { 'if-none-match': etag } })
    assert.equal(again.status, 304)
    assert.equal(again.body.length, 0)

    const gzipped = await send(port, { path: '/openapi.json', headers: { 'accept-encoding': 'gzip' } })
    assert.equal(gzipped.headers['content-encoding'], 'gzip')
    assert.deepEqual(JSON.parse(gunzipSync(gzipped.body).toString()), document)
    assert.ok(gzipped.body.length < plain.body.length / 4)

    const brotli = await send(port, { path: '/openapi.json', headers: { 'accept-encoding': 'br' } })
    assert.equal(brotli.headers['content-encoding'], 'br')
    assert.deepEqual(JSON.parse(brotliDecompressSync(brotli.body).toString()), document)
  })

  test("the API's own answers stay uncompressed and unstored", async () => {
    const response = await send(port, {
      method: 'POST',
      path: `${API_PREFIX}/base64`,
      headers: { ...json, 'accept-encoding': 'gzip, br' },
      body: '{"input":"x"}',
    })
    assert.equal(response.headers['content-encoding'], undefined)
    assert.equal(response.headers['cache-control'], 'no-store')
    assert.equal(response.headers.etag, undefined)
  })
})

describe('defects inside workflows over HTTP', () => {
  test("are logged with the original error's stack, whether a pipeline step or a batch request fails", async () => {
    const lines: string[] = []
    const registry = [brokenOperation]
    const { pipeline, batch } = createWorkflows(registry)
    const app = await buildApp({
      config: { logLevel: 'info' },
      operations: [...registry, pipeline, batch],
      overload: { maxEventLoopDelayMs: 0, sampleIntervalMs: 1000 },
      logStream: { write: (line: string) => lines.push(line) },
    })
    try {
      const port = await listening(app)
      const step = await send(port, { method: 'POST', path: `${API_PREFIX}/pipeline`, headers: json, body: '{"input":"x","steps":[{"operation":"broken"}]}' })
      assert.equal(step.status, 500)
      const item = await send(port, { method: 'POST', path: `${API_PREFIX}/batch`, headers: json, body: '{"requests":[{"operation":"broken"}]}' })
      assert.equal(item.status, 200)
      assert.equal(JSON.parse(item.body.toString()).data.results[0].error.code, 'INTERNAL_ERROR')
      const defects = lines.map((line) => JSON.parse(line)).filter((entry) => entry.defect)
      assert.equal(defects.length, 2, lines.join(''))
      for (const { defect } of defects) {
        const stacks = JSON.stringify(defect)
        assert.match(stacks, /broken-operation\.ts/, 'the stack of the error the operation threw')
        assert.doesNotMatch(stacks, new RegExp(DEFECT_MESSAGE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')), 'never its message')
      }
    } finally {
      await app.close()
    }
  })
})

describe('load shedding', () => {
  test('sheds operation calls while the event loop lags, but never the probes or the scrape', async () => {
    const app = await buildTestApp({}, { maxEventLoopDelayMs: 100, sampleIntervalMs: 20 })
    try {
      const port = await listening(app)
      let shed = false
      for (let attempt = 0; attempt < 5 && !shed; attempt++) {
        const until = performance.now() + 400
        while (performance.now() < until) {
          // The event loop is held, as a burst of synchronous work would hold it.
        }
        const [operation, health, ready, metrics] = await Promise.all([
          send(port, { method: 'POST', path: `${API_PREFIX}/base64`, headers: json, body: '{"input":"x"}' }),
          send(port, { path: '/health' }),
          send(port, { path: '/ready' }),
          send(port, { path: '/metrics' }),
        ])
        assert.deepEqual([health.status, ready.status, metrics.status], [200, 200, 200])
        shed = operation.status === 503
        if (shed) assert.equal(JSON.parse(operation.body.toString()).error.code, 'OVERLOADED')
      }
      assert.ok(shed, 'an operation call was shed while the loop lagged')
    } finally {
      await app.close()
    }
  })
})

test("the service's shared plugins are named: fastify-plugin would otherwise name each from a stack trace, which npm start's source maps make costly", () => {
  for (const [name, plugin] of Object.entries({ transport, observability, protection, openApiDocument, errorAnswers })) {
    assert.equal((plugin as unknown as Record<symbol, { name?: string }>)[Symbol.for('plugin-meta')].name, name)
  }
})
