import assert from 'node:assert/strict'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort, ROOT, type Spawned, spawnUntil, startRedis } from '../processes.ts'

/**
 * Three real instances of the build behind a real HAProxy (Debian's), sharing one real Redis, all on
 * loopback. HAProxy runs deploy/haproxy/haproxy.cfg, the Compose file's own configuration, with its
 * bind and server lines made local. Clients are told apart by their source address: the whole of
 * 127.0.0.0/8 is this machine, so a client bound to 127.0.0.2 is another client to HAProxy, which
 * appends that address to X-Forwarded-For, which the instances read with TRUST_PROXY=1.
 */

const RATE_LIMIT = 50
const skip = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v haproxy && command -v redis-server'], { stdio: 'ignore' })
    return false
  } catch {
    const reason = 'haproxy and redis-server are needed (apt-get install -y haproxy redis-server; see .ci/run)'
    if (process.env.CI) throw new Error(`the scale-out test cannot run in CI: ${reason}`)
    return reason
  }
})()

interface Instance {
  port: number
  process: Spawned
}

/** A local HAProxy configuration made from the shipped one. */
function haproxyConfig(frontendPort: number, backendPorts: number[]): string {
  const shipped = readFileSync(join(ROOT, 'deploy/haproxy/haproxy.cfg'), 'utf8')
  const servers = backendPorts.map((port, i) => `  server devutils-${i + 1} 127.0.0.1:${port} check`).join('\n')
  const local = shipped
    .replace(/^resolvers docker\n(?: {2}.*\n)+/m, '')
    .replace(/^ {2}bind .*$/m, `  bind 127.0.0.1:${frontendPort}`)
    .replace(/^ {2}server-template .*$/m, servers)
  // The health checks of the shipped file, faster, so that a test restart takes seconds.
  return local.replace(/^ {2}default-server .*$/m, '  default-server inter 300ms fall 3 rise 1')
}

/** One request through the balancer from `source`; resolves with its status and latency, or its socket error. */
function send(
  port: number,
  agent: http.Agent,
  options: { path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; ms: number; error?: string; refusal?: string; headers: http.IncomingHttpHeaders }> {
  const body = options.body ?? '{"input":"hello"}'
  const started = performance.now()
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: 'POST',
        path: options.path ?? '/api/v1/base64',
        timeout: 10_000,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...options.headers },
      },
      (response) => {
        let text = ''
        response.on('data', (chunk) => {
          text += chunk
        })
        response.on('end', () => {
          const status = response.statusCode ?? 0
          // Who refused: the service's error code, or the balancer's own page.
          const error = status >= 300 ? `${status} ${/"code":"(\w+)"/.exec(text)?.[1] ?? text.slice(0, 40).replace(/\s+/g, ' ')}` : undefined
          resolve({ status, ms: performance.now() - started, headers: response.headers, refusal: error })
        })
        response.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, error: error.message, headers: {} }))
      },
    )
    request.on('timeout', () => request.destroy(new Error('timeout')))
    request.on('error', (error) =>
      resolve({ status: 0, ms: performance.now() - started, error: (error as NodeJS.ErrnoException).code ?? error.message, headers: {} }),
    )
    request.end(body)
  })
}

const agentFrom = (localAddress: string) => new http.Agent({ keepAlive: true, maxSockets: 32, localAddress })

interface LoadReport {
  sent: number
  answered2xx: number
  non2xx: number
  socketErrors: number
  p99: number
  max: number
  failures: string[]
}

/**
 * About `rate` requests a second, open loop (sent on a clock, not after the previous answer), from
 * 64 source addresses `prefix`.1–64, until `stop` resolves (and at most `maxSeconds`).
 */
async function steadyLoad(port: number, prefix: string, rate: number, stop: Promise<unknown>, maxSeconds: number): Promise<LoadReport> {
  const agents = Array.from({ length: 64 }, (_, i) => agentFrom(`${prefix}.${i + 1}`))
  const results: Array<Promise<Awaited<ReturnType<typeof send>>>> = []
  let stopped = false
  stop.then(() => {
    stopped = true
  })
  const started = performance.now()
  while (!stopped && performance.now() - started < maxSeconds * 1000) {
    // As many as are due by the clock, however late the timer fired.
    const due = Math.floor(((performance.now() - started) * rate) / 1000)
    while (results.length < due) results.push(send(port, agents[results.length % agents.length]))
    await sleep(5)
  }
  const settled = await Promise.all(results)
  for (const agent of agents) agent.destroy()
  const latencies = settled.map((result) => result.ms).sort((a, b) => a - b)
  const failures = settled
    .filter((result) => result.error || result.status < 200 || result.status >= 300)
    .map((result) => result.error ?? result.refusal ?? String(result.status))
  return {
    sent: settled.length,
    answered2xx: settled.filter((result) => result.status >= 200 && result.status < 300).length,
    non2xx: settled.filter((result) => result.status > 0 && (result.status < 200 || result.status >= 300)).length,
    socketErrors: settled.filter((result) => result.error).length,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    max: latencies.at(-1) ?? 0,
    failures: [...new Set(failures)].slice(0, 10),
  }
}

const describeLoad = (what: string, report: LoadReport, seconds: number) =>
  `# ${what}: ${report.sent} requests sent in ${seconds.toFixed(1)} s (${(report.sent / seconds).toFixed(0)}/s), ${report.answered2xx} answered 2xx, ` +
  `${report.non2xx} non-2xx, ${report.socketErrors} socket errors (lost: ${report.non2xx + report.socketErrors}); p99 ${report.p99.toFixed(1)} ms, max ${report.max.toFixed(1)} ms` +
  (report.failures.length ? `; failures: ${report.failures.join(', ')}` : '')

describe('scale-out: 3 instances behind HAProxy sharing one Redis', { skip, timeout: 180_000 }, () => {
  let redis: Spawned & { port: number; url: string }
  let haproxy: ChildProcess | undefined
  let balancerPort: number
  let work: string
  const instances: Instance[] = []

  const startInstance = async (port: number): Promise<Spawned> =>
    spawnUntil(process.execPath, ['dist/server.js'], /Server listening/, {
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        REDIS_URL: redis.url,
        TRUST_PROXY: '1',
        RATE_LIMIT_MAX: String(RATE_LIMIT),
        RATE_LIMIT_WINDOW: '60000',
      },
    })

  const ready = async (port: number) => {
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(50)) {
      const status = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (response) => response.status,
        () => 0,
      )
      if (status === 200) return
    }
    throw new Error(`port ${port} never became ready`)
  }

  before(async () => {
    redis = await startRedis()
    for (let i = 0; i < 3; i++) {
      const port = await freePort()
      instances.push({ port, process: await startInstance(port) })
    }
    balancerPort = await freePort()
    work = mkdtempSync(join(tmpdir(), 'devutils-haproxy-'))
    const config = join(work, 'haproxy.cfg')
    writeFileSync(
      config,
      haproxyConfig(
        balancerPort,
        instances.map((instance) => instance.port),
      ),
    )
    execFileSync('haproxy', ['-c', '-f', config], { stdio: 'pipe' })
    haproxy = spawn('haproxy', ['-db', '-f', config], { stdio: 'ignore' })
    let status = 0
    for (const deadline = Date.now() + 10_000; status !== 200 && Date.now() < deadline; await sleep(100)) {
      status = await fetch(`http://127.0.0.1:${balancerPort}/health`).then(
        (response) => response.status,
        () => 0,
      )
    }
    assert.equal(status, 200, 'the balancer answers /health')
    // Until every server has passed its first health check.
    await sleep(1000)
  })

  after(async () => {
    haproxy?.kill('SIGKILL')
    for (const instance of instances) instance.process.child.kill('SIGKILL')
    redis?.child.kill('SIGKILL')
    if (work) rmSync(work, { recursive: true, force: true })
  })

  test(`a rate limit of ${RATE_LIMIT} counts once across the instances, per client address from X-Forwarded-For`, async () => {
    const client = agentFrom('127.0.0.2')
    const other = agentFrom('127.0.0.3')
    try {
      const statuses: number[] = []
      const ids: string[] = []
      for (let i = 0; i < RATE_LIMIT + 5; i++) {
        const id = `rate-${process.pid}-${i}`
        ids.push(id)
        // A forged X-Forwarded-For changes nothing: only the hop HAProxy adds is trusted.
        const result = await send(balancerPort, client, { headers: { 'x-request-id': id, 'x-forwarded-for': `203.0.113.${i}` } })
        statuses.push(result.status)
      }
      // Which instance answered each request, from its log line (written at least once a second).
      await sleep(1500)
      const answeredBy = new Set(ids.map((id) => instances.findIndex((candidate) => candidate.process.output().includes(`"requestId":"${id}"`))))
      answeredBy.delete(-1)
      assert.deepEqual(statuses, [...Array(RATE_LIMIT).fill(200), ...Array(5).fill(429)])
      assert.equal(answeredBy.size, 3, 'every instance answered some of them')
      const fresh = await send(balancerPort, other)
      assert.equal(fresh.status, 200, 'another client has its own counter')
      assert.equal(fresh.headers['ratelimit-remaining'], String(RATE_LIMIT - 1))
      console.log(
        `# rate limit through the balancer: ${RATE_LIMIT} × 200 then 429 for 127.0.0.2, answered by ${answeredBy.size} instances; 127.0.0.3 counted apart`,
      )
    } finally {
      client.destroy()
      other.destroy()
    }
  })

  test('a rolling restart under a steady load of 200 requests/s loses no request', async () => {
    let finish = () => {}
    const done = new Promise<void>((resolve) => {
      finish = resolve
    })
    const started = performance.now()
    const load = steadyLoad(balancerPort, '127.0.1', 200, done, 60)
    await sleep(1000)
    for (const instance of instances) {
      instance.process.child.kill('SIGTERM')
      const exit = await instance.process.exited
      assert.equal(exit.code, 0, 'the instance drained and exited 0')
      instance.process = await startInstance(instance.port)
      await ready(instance.port)
      // Until HAProxy's health check has seen it up again (rise 1, every 300 ms).
      await sleep(800)
    }
    await sleep(1000)
    finish()
    const report = await load
    const seconds = (performance.now() - started) / 1000
    console.log(describeLoad('rolling restart', report, seconds))
    assert.ok(report.sent >= 150 * seconds, `the load ran at about 200/s (${report.sent} in ${seconds.toFixed(1)} s)`)
    assert.equal(report.non2xx, 0, `no non-2xx answer: ${report.failures.join(', ')}`)
    assert.equal(report.socketErrors, 0, `no socket error: ${report.failures.join(', ')}`)
  })

  test('with Redis stopped every request is answered within 1 s (fail open); once it is back the shared limit holds again', async () => {
    let finish = () => {}
    const done = new Promise<void>((resolve) => {
      finish = resolve
    })
    const started = performance.now()
    const load = steadyLoad(balancerPort, '127.0.2', 200, done, 30)
    await sleep(500)
    redis.child.kill('SIGTERM')
    await redis.exited
    await sleep(3000)
    finish()
    const report = await load
    const seconds = (performance.now() - started) / 1000
    console.log(describeLoad('Redis stopped', report, seconds))
    assert.equal(report.non2xx + report.socketErrors, 0, `every request answered 2xx: ${report.failures.join(', ')}`)
    assert.ok(report.max < 1000, `the slowest answer took ${report.max.toFixed(0)} ms`)

    redis = await startRedis(redis.port)
    const restarted = performance.now()
    let holds = false
    for (let attempt = 1; attempt <= 40 && !holds && performance.now() - restarted < 15_000; attempt++) {
      const agent = agentFrom(`127.0.3.${attempt}`)
      const statuses: number[] = []
      for (let i = 0; i <= RATE_LIMIT; i++) statuses.push((await send(balancerPort, agent)).status)
      agent.destroy()
      holds = statuses.slice(0, RATE_LIMIT).every((status) => status === 200) && statuses[RATE_LIMIT] === 429
      if (!holds) await sleep(250)
    }
    const after = (performance.now() - restarted) / 1000
    console.log(`# Redis back: the shared limit of ${RATE_LIMIT} held again ${after.toFixed(1)} s after it restarted`)
    assert.ok(holds, 'the limit holds again once Redis is back')
    assert.ok(after < 10, `within a few seconds (${after.toFixed(1)} s)`)
  })
})
