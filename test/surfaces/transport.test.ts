import assert from 'node:assert/strict'
import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { API_PREFIX } from '../../src/core/catalogue.ts'
import { DEFAULT_CONFIG, loadConfig } from '../../src/core/config.ts'
import { registryOf } from '../../src/core/registry.ts'
import { createWorkflows } from '../../src/core/workflows.ts'
import { buildApp } from '../../src/http/app.ts'
import { openApiDocument } from '../../src/http/docs.ts'
import { errorAnswers } from '../../src/http/errors.ts'
import { lingerBounds } from '../../src/http/lingering-close.ts'
import { observability } from '../../src/http/observability.ts'
import { protection } from '../../src/http/protection.ts'
import { transport } from '../../src/http/transport.ts'
import { servedOperations } from '../../src/served-operations.ts'
import { brokenOperation, DEFECT_MESSAGE } from '../fixtures/broken-operation.ts'
import { buildTestApp, originOf, ROOMY_CONFIG } from '../helpers.ts'

const run = promisify(execFile)

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

/**
 * A body over the limit, as the clients people use send it: a Content-Length, or chunked. Each is
 * sent whole by a client in a process of its own (one process runs every case), as a real client is:
 * a client in this test's own process shares its event loop with the server, whose timing hides
 * what another process sees.
 */
const OVERSIZED_BODIES = [2, 8].flatMap((mebibytes) =>
  (['content-length', 'chunked'] as const).map((framing) => ({ name: `${mebibytes} MiB, ${framing}`, bytes: mebibytes * 1024 * 1024, framing })),
)

/** Headers over Node's limit (16 KiB), with a body or without: what a client still sends after them must not cost it the answer. */
const OVERSIZED_HEADERS = [
  { name: '64 KiB of headers', headerBytes: 64 * 1024, bytes: 13 },
  { name: '4 MiB of headers and a 2 MiB body', headerBytes: 4 * 1024 * 1024, bytes: 2 * 1024 * 1024 },
]

/** A JSON body of exactly `bytes` bytes. */
const bodyOf = (bytes: number) => `{"input":"${'x'.repeat(bytes - 13)}"}`

/** Undefined when `check` (a shell command) succeeds; otherwise why the test cannot run, which fails it in CI. */
function missingUnless(check: string, what: string): string | undefined {
  try {
    execFileSync('sh', ['-c', check], { stdio: 'ignore' })
    return undefined
  } catch {
    return `${what} is not installed`
  }
}

/** node:test's skip option: skipped on a developer's machine that lacks the tool, never in CI (the test then fails). */
const skipOutsideCi = (missing: string | undefined) => (process.env.CI ? false : (missing ?? false))

function assertTooLarge(answer: { status: number; body: string }, name: string) {
  assert.equal(answer.status, 413, `${name}: ${answer.body}`)
  const envelope = JSON.parse(answer.body)
  assert.equal(envelope.success, false)
  assert.equal(envelope.error.code, 'PAYLOAD_TOO_LARGE', name)
  assert.deepEqual(envelope.error.details, { limit: DEFAULT_CONFIG.bodyLimit }, name)
}

/** Sends each case with Node's fetch (undici) from a child process, and gives each answer's status and body, or the error fetch threw. */
const FETCH_CLIENT = `
const [origin, cases] = [process.argv[1], JSON.parse(process.argv[2])]
const answers = []
for (const { bytes, framing, headerBytes } of cases) {
  const body = new TextEncoder().encode('{"input":"' + 'x'.repeat(bytes - 13) + '"}')
  const chunked = new ReadableStream({
    start(controller) {
      for (let at = 0; at < body.length; at += 65536) controller.enqueue(body.subarray(at, at + 65536))
      controller.close()
    },
  })
  const headers = { 'content-type': 'application/json', ...(headerBytes && { 'x-padding': 'a'.repeat(headerBytes) }) }
  try {
    const response = await fetch(origin + '/api/v1/base64', { method: 'POST', headers, body: framing === 'chunked' ? chunked : body, duplex: 'half' })
    answers.push({ status: response.status, connection: response.headers.get('connection'), body: await response.text() })
  } catch (error) {
    answers.push({ status: 0, body: String(error.cause?.code ?? error.cause ?? error) })
  }
}
process.stdout.write(JSON.stringify(answers))
`

/** Sends each body with urllib (Content-Length, or chunked from an iterable) and, when installed, requests; prints the answers as JSON. */
const PYTHON_CLIENT = `
import json, sys, urllib.error, urllib.request
origin, cases, library = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
def body_of(size):
    return ('{"input":"' + 'x' * (size - 13) + '"}').encode()
def chunks(body):
    return iter([body[at:at + 65536] for at in range(0, len(body), 65536)])
answers = []
for case in cases:
    body = body_of(case['bytes'])
    data = chunks(body) if case['framing'] == 'chunked' else body
    headers = {'content-type': 'application/json'}
    try:
        if library == 'requests':
            import requests
            response = requests.post(origin + '/api/v1/base64', data=data, headers=headers)
            answers.append({'status': response.status_code, 'body': response.text})
        else:
            try:
                urllib.request.urlopen(urllib.request.Request(origin + '/api/v1/base64', data=data, headers=headers))
                answers.append({'status': 200, 'body': ''})
            except urllib.error.HTTPError as refusal:
                answers.append({'status': refusal.code, 'body': refusal.read().decode()})
    except Exception as error:
        answers.append({'status': 0, 'body': repr(error)})
print(json.dumps(answers))
`

describe('refusals that common clients read', () => {
  let app: FastifyInstance
  let origin: string
  let bodies: string
  before(async () => {
    app = await buildTestApp()
    origin = await originOf(app)
    bodies = mkdtempSync(join(tmpdir(), 'devutils-bodies-'))
    for (const { bytes } of OVERSIZED_BODIES) writeFileSync(join(bodies, String(bytes)), bodyOf(bytes))
  })
  after(async () => {
    rmSync(bodies, { recursive: true, force: true })
    await app.close()
  })

  test("a body over the limit is 413 PAYLOAD_TOO_LARGE with Connection: close to Node's fetch, sent with a length or chunked; headers over the limit are 431", async () => {
    const cases = [...OVERSIZED_BODIES, ...OVERSIZED_HEADERS]
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', FETCH_CLIENT, origin, JSON.stringify(cases)], { maxBuffer: 1024 * 1024 })
    const answers: Array<{ status: number; connection: string | null; body: string }> = JSON.parse(stdout)
    for (const [index, { name }] of OVERSIZED_BODIES.entries()) {
      assertTooLarge(answers[index], name)
      assert.equal(answers[index].connection, 'close', name)
    }
    for (const [index, { name }] of OVERSIZED_HEADERS.entries()) {
      const answer = answers[OVERSIZED_BODIES.length + index]
      assert.equal(answer.status, 431, `${name}: ${answer.body}`)
      assert.equal(JSON.parse(answer.body).error.code, 'HEADERS_TOO_LARGE', name)
    }
  })

  test('a client that sends without end after its refusal reads it, and is cut once it has sent many times the limit', async () => {
    const port = new URL(origin).port
    const endless = [
      {
        name: 'a declared length of a gibibyte',
        head: 'POST /api/v1/base64 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n',
        status: 413,
      },
      {
        name: 'chunks without end',
        head: 'POST /api/v1/base64 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        status: 413,
      },
      { name: 'a header without end', head: 'POST /api/v1/base64 HTTP/1.1\r\nHost: x\r\nX-Padding: ', status: 431 },
    ]
    const chunk = Buffer.alloc(64 * 1024, 'x')
    // Each chunk of the body framed as one chunk of a chunked body; for the others, the bytes as they are.
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
    const { maxBytes } = lingerBounds({ bodyLimit: DEFAULT_CONFIG.bodyLimit, requestTimeoutMs: DEFAULT_CONFIG.requestTimeoutMs })
    for (const { name, head, status } of endless) {
      const started = Date.now()
      const { received, sent } = await new Promise<{ received: string; sent: number }>((resolve) => {
        // Half open: the server's end of the connection does not stop this client sending.
        const socket = net.connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true })
        let received = ''
        let sent = 0
        const send = () => {
          while (!socket.destroyed) {
            const data = name === 'chunks without end' ? framed : chunk
            sent += data.length
            if (!socket.write(data)) return
          }
        }
        socket.write(head)
        socket.on('drain', send)
        socket.on('data', (data) => (received += data))
        socket.on('error', () => {})
        socket.on('close', () => resolve({ received, sent }))
        send()
      })
      assert.match(received, new RegExp(`^HTTP/1\\.1 ${status} `), name)
      assert.ok(sent > maxBytes, `${name}: the client could send ${maxBytes} bytes after its refusal before it was cut (it sent ${sent})`)
      assert.ok(Date.now() - started < DEFAULT_CONFIG.requestTimeoutMs, `${name}: cut by its bytes, before the request timeout`)
    }
  })

  const curlMissing = missingUnless('command -v curl', 'curl')
  test('to curl', { skip: skipOutsideCi(curlMissing) }, async () => {
    assert.equal(curlMissing, undefined)
    // One curl for every case: --next starts the next transfer; each answer is its body, then its status, on lines of their own.
    const args = OVERSIZED_BODIES.flatMap(({ bytes, framing }, index) => [
      ...(index > 0 ? ['--next'] : []),
      ...['-s', '-w', '\\n%{http_code}\\n', '-H', 'content-type: application/json', '--data-binary', `@${join(bodies, String(bytes))}`],
      ...(framing === 'chunked' ? ['-H', 'transfer-encoding: chunked'] : []),
      `${origin}/api/v1/base64`,
    ])
    const { stdout } = await run('curl', args, { maxBuffer: 1024 * 1024 }).catch((error) => error)
    const lines = stdout.split('\n')
    for (const [index, { name }] of OVERSIZED_BODIES.entries()) assertTooLarge({ body: lines[2 * index], status: Number(lines[2 * index + 1]) }, name)
  })

  const pythonMissing = missingUnless('command -v python3', 'python3')
  const requestsMissing = pythonMissing ?? missingUnless('python3 -c "import requests"', "Python's requests")
  for (const [library, missing] of [
    ['urllib', pythonMissing],
    ['requests', requestsMissing],
  ] as const) {
    test(`to Python's ${library}`, { skip: skipOutsideCi(missing) }, async () => {
      assert.equal(missing, undefined)
      const { stdout } = await run('python3', ['-c', PYTHON_CLIENT, origin, JSON.stringify(OVERSIZED_BODIES), library], { maxBuffer: 1024 * 1024 })
      const answers: Array<{ status: number; body: string }> = JSON.parse(stdout)
      for (const [index, { name }] of OVERSIZED_BODIES.entries()) assertTooLarge(answers[index], name)
    })
  }
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
    const { pipeline, batch } = createWorkflows(registryOf([brokenOperation]))
    const app = await buildApp({
      config: { logLevel: 'info' },
      registry: registryOf([brokenOperation, pipeline, batch]),
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

test("the service's shared plugins are named: fastify-plugin would otherwise name each from a stack trace it makes at start-up", () => {
  for (const [name, plugin] of Object.entries({ transport, observability, protection, openApiDocument, errorAnswers })) {
    assert.equal((plugin as unknown as Record<symbol, { name?: string }>)[Symbol.for('plugin-meta')].name, name)
  }
})
