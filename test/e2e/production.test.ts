import assert from 'node:assert/strict'
import net from 'node:net'
import { getPriority, hostname } from 'node:os'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { buildApp } from '../../src/http/app.ts'
import { memoryStore, redisStore } from '../../src/http/rate-limit.ts'
import { buildTestApp, post, request, type SocketResponse } from '../helpers.ts'
import { type Spawned, startRedis, startService, threadNiceness } from '../processes.ts'

const json = { 'content-type': 'application/json' }

describe('rate limiting in memory', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp({ rateLimitMax: 3, rateLimitWindow: 60_000 })
  })
  after(() => app.close())

  test('the request past the limit is 429 RATE_LIMITED with Retry-After and RateLimit-* headers', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await request(app, { method: 'POST', url: '/api/v1/base64', headers: json, payload: { input: 'x' }, remoteAddress: '127.0.0.1' })
      assert.equal(ok.statusCode, 200)
      assert.equal(ok.headers['ratelimit-limit'], '3')
      assert.equal(ok.headers['ratelimit-remaining'], String(2 - i))
    }
    const limited = await request(app, { method: 'POST', url: '/api/v1/base64', headers: json, payload: { input: 'x' }, remoteAddress: '127.0.0.1' })
    assert.equal(limited.statusCode, 429)
    const body = limited.json()
    assert.equal(body.success, false)
    assert.equal(body.error.code, 'RATE_LIMITED')
    assert.match(body.error.message, /limit is 3/)
    assert.ok(Number(limited.headers['retry-after']) > 0)
    assert.equal(limited.headers['ratelimit-remaining'], '0')
    assert.ok(limited.headers['ratelimit-reset'])
  })

  test('unknown paths count too; probes do not; clients are counted apart', async () => {
    for (let i = 0; i < 3; i++) {
      const unknown = await request(app, { method: 'GET', url: `/scan-${i}`, remoteAddress: '127.0.0.2' })
      assert.equal(unknown.statusCode, 404)
    }
    const limited = await request(app, { method: 'GET', url: '/api/v1', remoteAddress: '127.0.0.2' })
    assert.equal(limited.statusCode, 429)
    for (let i = 0; i < 5; i++) assert.equal((await request(app, { method: 'GET', url: '/health', remoteAddress: '127.0.0.2' })).statusCode, 200)
    assert.equal((await request(app, { method: 'GET', url: '/api/v1', remoteAddress: '127.0.0.3' })).statusCode, 200)
  })

  test('in memory, a window starts with a client’s first request and ends after RATE_LIMIT_WINDOW; memory stays bounded', () => {
    const store = memoryStore(1000)
    assert.deepEqual(store.hit('a', 5000), { count: 1, resetsAt: 6000 })
    assert.deepEqual(store.hit('b', 5500), { count: 1, resetsAt: 6500 })
    assert.deepEqual(store.hit('a', 5999), { count: 2, resetsAt: 6000 })
    assert.deepEqual(store.hit('a', 6000), { count: 1, resetsAt: 7000 }, 'a new window once the old one has ended')
    assert.deepEqual(store.hit('b', 6499), { count: 2, resetsAt: 6500 }, 'b keeps its own window')
    const flooded = memoryStore(60_000)
    flooded.hit('first', 0)
    flooded.hit('first', 0)
    for (let i = 0; i < 100_000; i++) flooded.hit(`client-${i}`, 1)
    assert.equal((flooded.hit('first', 2) as { count: number }).count, 1, 'past 100,000 clients, the oldest window is forgotten')
    assert.equal((flooded.hit('client-99999', 2) as { count: number }).count, 2)
  })

  test('RATE_LIMIT_MAX=0 turns the limiter off', async () => {
    const unlimited = await buildTestApp({ rateLimitMax: 0 })
    for (let i = 0; i < 20; i++) {
      const response = await request(unlimited, { method: 'GET', url: '/api/v1' })
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['ratelimit-limit'], undefined)
    }
    await unlimited.close()
  })
})

describe('rate limiting shared through a real Redis', () => {
  let redis: Spawned & { port: number; url: string }
  let first: FastifyInstance
  let second: FastifyInstance
  const logs: string[] = []
  before(async () => {
    redis = await startRedis()
    const config = { rateLimitMax: 4, rateLimitWindow: 60_000, redisUrl: redis.url, logLevel: 'warn' as const }
    first = await buildApp({ config, logStream: { write: (line) => logs.push(line) } })
    second = await buildApp({ config, logStream: { write: (line) => logs.push(line) } })
    await Promise.all([first.ready(), second.ready()])
    await sleep(200)
  })
  after(async () => {
    await Promise.all([first.close(), second.close()])
    redis.child.kill('SIGKILL')
  })

  const call = (app: FastifyInstance) => request(app, { method: 'GET', url: '/api/v1', remoteAddress: '127.1.1.1' })

  test('two instances share one limit', async () => {
    assert.equal((await call(first)).statusCode, 200)
    assert.equal((await call(second)).statusCode, 200)
    assert.equal((await call(first)).statusCode, 200)
    const fourth = await call(second)
    assert.equal(fourth.statusCode, 200)
    assert.equal(fourth.headers['ratelimit-remaining'], '0')
    assert.equal((await call(first)).statusCode, 429)
    assert.equal((await call(second)).statusCode, 429)
  })

  test('the shared count starts a window on the first request, and repairs a key left without an expiry', async () => {
    const client = new Redis(redis.url)
    try {
      const store = redisStore(client, 60_000)
      const now = Date.now()
      assert.deepEqual(await store.hit('10.9.9.9', now), { count: 1, resetsAt: now + 60_000 })
      const second = await store.hit('10.9.9.9', now)
      assert.equal(second.count, 2)
      assert.ok(second.resetsAt > now + 59_000 && second.resetsAt <= now + 60_000)
      await client.set('devutils:ratelimit:10.9.9.10', '7')
      const repaired = await store.hit('10.9.9.10', now)
      assert.deepEqual(repaired, { count: 8, resetsAt: now + 60_000 })
      assert.ok((await client.pttl('devutils:ratelimit:10.9.9.10')) > 59_000)
    } finally {
      client.disconnect()
    }
  })

  test('with Redis gone, requests are served promptly (fail open), the outage is logged once, and the limiter reconnects', async () => {
    redis.child.kill('SIGKILL')
    await redis.exited
    for (let i = 0; i < 10; i++) {
      const started = performance.now()
      const response = await request(app(i), { method: 'GET', url: '/api/v1', remoteAddress: '127.1.1.2' })
      assert.equal(response.statusCode, 200)
      assert.ok(performance.now() - started < 1000, `served in ${performance.now() - started} ms`)
    }
    await sleep(1500)
    for (let i = 0; i < 4; i++) assert.equal((await request(app(i), { method: 'GET', url: '/api/v1', remoteAddress: '127.1.1.2' })).statusCode, 200)
    const outageLines = logs.filter((line) => line.includes('rate-limit store unreachable'))
    assert.equal(outageLines.length, 2, 'one line per instance, however many reconnection attempts fail')

    redis = await startRedis(redis.port)
    const deadline = Date.now() + 10_000
    let limited = false
    while (!limited && Date.now() < deadline) {
      await sleep(100)
      limited = (await call(first)).statusCode === 429
    }
    assert.ok(limited, 'the limit applies again once Redis is back')
  })

  function app(i: number) {
    return i % 2 === 0 ? first : second
  }
})

describe('load shedding', () => {
  test('a stalled event loop makes the service answer 503 OVERLOADED with Retry-After', async () => {
    const app = await buildTestApp({}, { maxEventLoopDelayMs: 20, sampleIntervalMs: 50 })
    await app.ready()
    let shed: SocketResponse | undefined
    for (let attempt = 0; attempt < 20 && !shed; attempt++) {
      const until = Date.now() + 300
      while (Date.now() < until) {
        // A busy loop that stalls the event loop, as a runaway synchronous task would.
      }
      // The sampler's overdue timer runs first, then this request sees the lag it measured.
      await sleep(5)
      const response = await request(app, { method: 'POST', url: '/api/v1/base64', headers: json, payload: { input: 'x' } })
      if (response.statusCode === 503) shed = response
    }
    assert.ok(shed, 'a request was shed')
    assert.equal(shed.json().error.code, 'OVERLOADED')
    assert.equal(shed.headers['retry-after'], '1')
    await app.close()
  })
})

describe('headers on every response', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp()
  })
  after(() => app.close())

  test("JSON answers carry the security headers an API needs, and no page's", async () => {
    for (const [method, url] of [
      ['GET', '/api/v1'],
      ['GET', '/api/v1/uuid'],
      ['POST', '/api/v1/base64'],
      ['GET', '/nowhere'],
      ['GET', '/openapi.json'],
    ] as const) {
      const response = await request(app, { method, url, ...(method === 'POST' && { headers: json, payload: { input: 'x' } }) })
      // The OpenAPI document may be kept while it is revalidated (its ETag); the API's answers never are.
      assert.equal(response.headers['cache-control'], url === '/openapi.json' ? 'no-cache' : 'no-store', url)
      assert.equal(response.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'", url)
      assert.equal(response.headers['x-content-type-options'], 'nosniff', url)
      assert.equal(response.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', url)
      for (const pageHeader of ['x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'x-dns-prefetch-control', 'origin-agent-cluster'])
        assert.equal(response.headers[pageHeader], undefined, `${url}: ${pageHeader}`)
    }
  })

  test("the docs page carries helmet's whole set, with a CSP that keeps it on this origin", async () => {
    for (const url of ['/docs', '/docs/']) {
      const response = await request(app, { method: 'GET', url })
      assert.equal(response.headers['x-content-type-options'], 'nosniff', url)
      assert.match(String(response.headers['content-security-policy']), /default-src 'self'/, url)
      assert.match(String(response.headers['content-security-policy']), /script-src 'self'(;|$)/, url)
      for (const pageHeader of ['x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'strict-transport-security'])
        assert.ok(response.headers[pageHeader], `${url}: ${pageHeader}`)
    }
  })

  test('CORS: any origin, no credentials, preflight answered', async () => {
    const simple = await post(app, 'base64', { input: 'x' })
    assert.equal(simple.status, 200)
    const cors = await request(app, { method: 'POST', url: '/api/v1/base64', headers: { ...json, origin: 'https://example.org' }, payload: { input: 'x' } })
    assert.equal(cors.headers['access-control-allow-origin'], '*')
    assert.equal(cors.headers['access-control-allow-credentials'], undefined)
    assert.match(String(cors.headers['access-control-expose-headers']), /X-Request-Id/)
    const preflight = await request(app, {
      method: 'OPTIONS',
      url: '/api/v1/base64',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    })
    assert.equal(preflight.statusCode, 204)
    assert.equal(preflight.headers['access-control-allow-origin'], '*')
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/)
    assert.equal(preflight.headers['content-length'], '0')
    assert.equal(preflight.headers['ratelimit-limit'], undefined, 'a preflight is not counted by the rate limiter')
    assert.ok(simple.headers['ratelimit-limit'], 'the request it precedes is')
  })
})

describe('readiness and metrics', () => {
  test('/ready is true while serving, /metrics counts requests per operation and status', async () => {
    const app = await buildTestApp()
    const ready = await request(app, { method: 'GET', url: '/ready' })
    assert.equal(ready.statusCode, 200)
    assert.equal(ready.json().data.ready, true)
    await post(app, 'base64', { input: 'x' })
    await post(app, 'base64', { input: '*', action: 'decode' })
    await request(app, { method: 'GET', url: '/no/such/path' })
    const metrics = await request(app, { method: 'GET', url: '/metrics' })
    assert.equal(metrics.statusCode, 200)
    assert.match(String(metrics.headers['content-type']), /text\/plain/)
    assert.match(metrics.body, /devutils_http_requests_total\{operation="base64",method="POST",status="200"\} 1/)
    assert.match(metrics.body, /devutils_http_requests_total\{operation="base64",method="POST",status="422"\} 1/)
    assert.match(metrics.body, /devutils_http_requests_total\{operation="unknown",method="GET",status="404"\} 1/)
    assert.match(metrics.body, /devutils_http_request_duration_seconds_bucket\{le="0.005",operation="base64",status="200"\}/)
    assert.match(metrics.body, /nodejs_eventloop_lag_seconds /)
    assert.match(metrics.body, /process_cpu_user_seconds_total /)
    await app.close()
  })
})

describe('logs', () => {
  test('one JSON line per request with id, operation, status and time; never bodies, inputs or keys, at any level', async () => {
    for (const level of ['debug', 'trace'] as const) {
      const lines: string[] = []
      const app = await buildApp({
        config: { logLevel: level },
        logStream: { write: (line) => lines.push(line) },
        overload: { maxEventLoopDelayMs: 0, sampleIntervalMs: 1000 },
      })
      const secret = 'k3y-SECRET-0123456789'
      const message = 'msg-PRIVATE-9876543210'
      const ok = await post(app, 'hmac', { input: message, key: secret })
      assert.equal(ok.status, 200)
      const bad = await post(app, 'hmac', { input: message, key: `zz${secret}`, keyEncoding: 'hex' })
      assert.ok(bad.status >= 400 && bad.status < 500)
      await request(app, { method: 'GET', url: `/api/v1/password?length=12&exclude=${message}` })
      await post(app, 'base64', `{"input": "${message}", "key": "${secret}"`)
      await app.close()
      const all = lines.join('')
      assert.doesNotMatch(all, /SECRET|PRIVATE/, `the ${level} logs hold no key or input`)
      const completed = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request completed')
      assert.equal(completed.length, 4)
      for (const entry of completed) {
        // The line is written without pino (observability.ts) but reads as pino's would.
        assert.deepEqual(Object.keys(entry), ['level', 'time', 'pid', 'hostname', 'requestId', 'operation', 'method', 'path', 'status', 'responseTime', 'msg'])
        assert.deepEqual([entry.level, entry.pid, entry.hostname], [30, process.pid, hostname()])
        assert.ok(Math.abs(entry.time - Date.now()) < 60_000)
        assert.equal(typeof entry.requestId, 'string')
        assert.equal(typeof entry.operation, 'string')
        assert.equal(typeof entry.status, 'number')
        assert.equal(typeof entry.responseTime, 'number')
      }
      assert.deepEqual(
        completed.map((entry) => entry.operation),
        ['hmac', 'hmac', 'password', 'base64'],
      )
    }
  })
})

/** Opens a raw connection and sends `text`; `response` resolves with everything read until close. */
function rawRequest(port: number, text: string) {
  const socket = net.connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (chunk) => (received += chunk))
  socket.on('error', () => {})
  socket.write(text)
  const response = new Promise<string>((resolve) => socket.on('close', () => resolve(received)))
  return { socket, response, received: () => received }
}

describe('thread priorities of a real process', () => {
  test('the event loop keeps its priority; V8’s platform threads, which collect the workers’ garbage, and the worker run below it (Linux)', {
    skip: process.platform !== 'linux' && 'thread niceness is read from /proc',
  }, async () => {
    const service = await startService()
    try {
      const pid = service.child.pid!
      const ours = getPriority()
      const below = Math.min(19, ours + 10)
      // A conversion large enough to run on the worker pool, which starts with the first such request.
      const heavy = await fetch(`${service.url}/api/v1/yaml-json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: Array.from({ length: 200 }, (_, i) => `key${i}: value`).join('\n') }),
      })
      assert.equal(heavy.status, 200)
      const lowered = () => threadNiceness(pid).filter(({ threadId, nice }) => threadId !== pid && nice === below)
      for (const deadline = Date.now() + 10_000; lowered().length < 5 && Date.now() < deadline; ) await sleep(50)
      const threads = threadNiceness(pid)
      assert.equal(threads.find(({ threadId }) => threadId === pid)?.nice, ours, 'the event loop keeps the priority it was started with')
      assert.ok(lowered().length >= 5, `V8's four platform threads and the worker thread run at niceness ${below}: ${JSON.stringify(threads)}`)
    } finally {
      service.child.kill('SIGTERM')
      await service.exited
    }
  })
})

/**
 * A request half sent on a kept-alive connection when `signal` comes to the service's process group
 * twice, as from a supervisor that signals the whole group (systemd's default, `kill -- -PGID`):
 * npm, or a cluster's primary, passes each on as well, so the server gets it again while it drains.
 * The rest of the request is sent after the signals, and must be answered.
 */
async function signalTwiceDuringRequest(service: Spawned & { port: number }, signal: NodeJS.Signals) {
  const body = JSON.stringify({ input: 'in flight' })
  const inFlight = rawRequest(
    service.port,
    `POST /api/v1/base64 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  )
  // A readiness probe whose request is half sent when the signal comes, so its connection is busy.
  const probe = rawRequest(service.port, 'GET /ready HTTP/1.1\r\nHost: x\r\n')
  await sleep(200)
  process.kill(-service.child.pid!, signal)
  // A moment apart, as npm's comes: two signals of a kind sent together may reach a process as one.
  await sleep(100)
  process.kill(-service.child.pid!, signal)
  await sleep(300)
  probe.socket.write('\r\n')
  const probeResponse = await probe.response
  assert.match(probeResponse, /^HTTP\/1\.1 503 /)
  assert.match(probeResponse, /"code":"OVERLOADED"/)
  inFlight.socket.write(body.slice(5))
  const response = await inFlight.response
  assert.match(response, /^HTTP\/1\.1 200 /)
  assert.match(response, /"result":"aW4gZmxpZ2h0"/)
  const exit = await service.exited
  assert.deepEqual(exit, { code: 0, signal: null }, service.output())
}

describe('graceful shutdown of a real process', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`under npm start, ${signal} twice to the process group: /ready turns false, the request in flight finishes, then the process exits 0`, async () => {
      const service = await startService({}, { npmStart: true })
      await signalTwiceDuringRequest(service, signal)
      assert.match(service.output(), /"msg":"shut down"/)
      assert.match(
        service.output(),
        new RegExp(`"signal":"${signal}","msg":"shutdown already under way`),
        'a repeated signal reached the server, and was ignored',
      )
    })
  }
})

describe('cluster', () => {
  test('WORKERS=2 serves on one port, replaces a dead worker, and shuts all down on SIGTERM to its process group, twice, finishing the request in flight', async () => {
    const service = await startService({ WORKERS: '2' }, { detached: true })
    const children = async () => {
      const { execFileSync } = await import('node:child_process')
      return execFileSync('pgrep', ['-P', String(service.child.pid)])
        .toString()
        .trim()
        .split('\n')
        .map(Number)
    }
    while (!/Server listening[\s\S]*Server listening/.test(service.output())) await sleep(50)
    for (let i = 0; i < 10; i++) assert.equal((await fetch(`${service.url}/health`)).status, 200)
    const workers = await children()
    assert.equal(workers.length, 2)
    process.kill(workers[0], 'SIGKILL')
    const deadline = Date.now() + 30_000
    let replaced: number[] = []
    while (Date.now() < deadline) {
      await sleep(200)
      replaced = await children().catch(() => [])
      if (replaced.length === 2 && !replaced.includes(workers[0])) break
    }
    assert.equal(replaced.length, 2)
    assert.ok(!replaced.includes(workers[0]), 'the dead worker was replaced')
    while ((service.output().match(/Server listening/g) ?? []).length < 3) await sleep(50)
    assert.equal((await fetch(`${service.url}/health`)).status, 200)
    // Each worker gets the signal from the group and from the primary, which passes it on.
    await signalTwiceDuringRequest(service, 'SIGTERM')
    assert.match(service.output(), /all workers have stopped/)
    assert.match(service.output(), /"signal":"SIGTERM","msg":"shutdown already under way/)
  })
})
