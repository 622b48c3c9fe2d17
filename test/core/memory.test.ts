import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { describe, test } from 'node:test'
import { buildApp } from '../../src/http/app.ts'
import { request } from '../helpers.ts'
import { declaredMemoryLimit } from '../manifests.ts'
import { startService } from '../processes.ts'

/** A YAML document of about `bytes`, of the plain `key: value` lines a configuration file holds. */
function yamlOf(bytes: number): string {
  const lines: string[] = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const line = `key${i}: value number ${i}\n`
    lines.push(line)
    size += line.length
  }
  return lines.join('')
}

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024
const MB = 1e6
/** The RSS the service holds itself to under any hostile request or flood, with one worker thread (docs/ROBUSTNESS.md). */
const MEMORY_BOUND_BYTES = 512 * 2 ** 20

describe('the memory budget of bodies in flight', () => {
  test('a body whose declared length does not fit is refused with 503 OVERLOADED and Retry-After; reservations are given back', async () => {
    // A budget of 4 KiB: a 3 KiB body costs 6 KiB (MEMORY_PER_BODY_BYTE = 2) and never fits; a
    // 1 KiB one costs 2 KiB, so a leak of reservations would refuse the third in a row.
    const app = await buildApp({
      config: { logLevel: 'silent', rateLimitMax: 0 },
      overload: { maxEventLoopDelayMs: 0, sampleIntervalMs: 1000, bodyMemoryBudgetBytes: 4096 },
    })
    try {
      const send = (input: string) =>
        request(app, { method: 'POST', url: '/api/v1/base64', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ input }) })
      const refused = await send('x'.repeat(3000))
      assert.equal(refused.statusCode, 503)
      assert.equal(refused.json().error.code, 'OVERLOADED')
      assert.equal(refused.headers['retry-after'], '1')
      for (let i = 0; i < 5; i++) assert.equal((await send('y'.repeat(1000))).statusCode, 200, `request ${i} fits once the earlier ones are done`)
    } finally {
      await app.close()
    }
  })

  test('a body sent without a length reserves the most it may be (the body limit), and is refused at once when that does not fit', async () => {
    const postChunked = async (budget: number) => {
      const app = await buildApp({
        config: { logLevel: 'silent', rateLimitMax: 0, bodyLimit: 4096 },
        overload: { maxEventLoopDelayMs: 0, sampleIntervalMs: 1000, bodyMemoryBudgetBytes: budget },
      })
      try {
        // Chunked: the server learns the body's length only once it has read it.
        const response = await request(app, {
          method: 'POST',
          url: '/api/v1/base64',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          payload: '{"input":"hi"}',
        })
        return { status: response.statusCode, code: response.statusCode === 200 ? undefined : response.json().error.code }
      } finally {
        await app.close()
      }
    }
    // Twice the body limit (MEMORY_PER_BODY_BYTE = 2) is 8 KiB.
    assert.deepEqual(await postChunked(8 * 1024 - 1), { status: 503, code: 'OVERLOADED' })
    assert.deepEqual(await postChunked(8 * 1024), { status: 200, code: undefined })
  })

  test('100 concurrent 900 KiB yaml-json requests keep a real server under 512 MiB RSS and the manifests’ limit; each is answered 200 or 503 with Retry-After', {
    skip: process.platform !== 'linux' && 'RSS is read from /proc',
  }, async () => {
    const limit = declaredMemoryLimit()
    const service = await startService({ RATE_LIMIT_MAX: '0' })
    const pid = service.child.pid!
    try {
      const body = JSON.stringify({ input: yamlOf(900 * 1024) })
      const before = rssOf(pid)
      let peak = before
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(pid))
      }, 10)
      const agent = new http.Agent({ keepAlive: false, maxSockets: 200 })
      const outcomes: Record<string, number> = {}
      const count = (key: string) => {
        outcomes[key] = (outcomes[key] ?? 0) + 1
      }
      const started = performance.now()
      await Promise.all(
        Array.from(
          { length: 100 },
          () =>
            new Promise<void>((resolve) => {
              const request = http.request(
                {
                  host: '127.0.0.1',
                  port: service.port,
                  method: 'POST',
                  path: '/api/v1/yaml-json',
                  agent,
                  timeout: 30_000,
                  headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
                },
                (response) => {
                  const chunks: Buffer[] = []
                  response.on('data', (chunk: Buffer) => chunks.push(chunk))
                  response.on('end', () => {
                    const status = response.statusCode ?? 0
                    if (status === 200) count('200')
                    else {
                      const code = /"code":"(\w+)"/.exec(Buffer.concat(chunks).toString())?.[1]
                      count(`${status} ${code}${response.headers['retry-after'] ? ' with Retry-After' : ' WITHOUT Retry-After'}`)
                    }
                    resolve()
                  })
                  response.on('error', (error) => {
                    count(`socket error ${(error as NodeJS.ErrnoException).code ?? error.message}`)
                    resolve()
                  })
                },
              )
              request.on('timeout', () => request.destroy(new Error('no answer within 30 s')))
              request.on('error', (error) => {
                count(`socket error ${(error as NodeJS.ErrnoException).code ?? error.message}`)
                resolve()
              })
              request.end(body)
            }),
        ),
      )
      clearInterval(sampler)
      peak = Math.max(peak, rssOf(pid))
      agent.destroy()
      const seconds = (performance.now() - started) / 1000
      console.log(
        `# memory flood: 100 × ${body.length} bytes in ${seconds.toFixed(1)} s; RSS ${(before / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB ` +
          `(limit in the manifests ${(limit / MB).toFixed(0)} MB); answers ${JSON.stringify(outcomes)}`,
      )
      for (const key of Object.keys(outcomes)) assert.match(key, /^(200|503 \w+ with Retry-After)$/, `an unexpected answer: ${key} × ${outcomes[key]}`)
      assert.ok((outcomes['200'] ?? 0) >= 1, 'some requests were served')
      assert.ok(peak < MEMORY_BOUND_BYTES, `peak RSS ${(peak / MB).toFixed(0)} MB is under 512 MiB`)
      assert.ok(peak < limit, `peak RSS ${(peak / MB).toFixed(0)} MB is under the manifests' limit of ${(limit / MB).toFixed(0)} MB`)
      const health = await fetch(`${service.url}/health`)
      assert.equal(health.status, 200, 'the server survived')
    } finally {
      service.child.kill('SIGTERM')
      await service.exited
    }
  })
})
