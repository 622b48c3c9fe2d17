import http from 'node:http'
import autocannon from 'autocannon'
import type { Load, LoadJob, LoadResult } from './load.ts'

/** The load generator process: answers each LoadJob message from bench/load.ts with a LoadResult. */

const headersOf = (request: { body?: unknown }): Record<string, string> => (request.body === undefined ? {} : { 'content-type': 'application/json' })

class Tally {
  readonly latencies: number[] = []
  readonly statuses: Record<string, number> = {}
  errors = 0
  firstError: string | undefined

  response(status: number, ms: number) {
    this.latencies.push(ms)
    this.statuses[status] = (this.statuses[status] ?? 0) + 1
  }

  error(error: Error) {
    this.errors++
    this.firstError ??= error.message
  }

  result(seconds: number, cpu: NodeJS.CpuUsage): LoadResult {
    const sorted = Float64Array.from(this.latencies).sort()
    const rank = (q: number) => (sorted.length === 0 ? 0 : sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)])
    const mean = sorted.length === 0 ? 0 : sorted.reduce((sum, value) => sum + value, 0) / sorted.length
    return {
      responses: sorted.length,
      ok: Object.entries(this.statuses).reduce((sum, [status, count]) => (status.startsWith('2') ? sum + count : sum), 0),
      seconds,
      latencyMs: { p50: rank(0.5), p99: rank(0.99), max: rank(1), mean },
      statuses: this.statuses,
      errors: this.errors,
      ...(this.firstError !== undefined && { firstError: this.firstError }),
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    }
  }
}

function closedLoop(job: Extract<Load, { kind: 'closed' }> & LoadJob, tally: Tally): Promise<void> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: job.seconds,
        ...(job.amount !== undefined && { amount: job.amount }),
        timeout: 30,
        requests: job.requests.map((request) => ({ method: request.method, path: request.path, headers: headersOf(request), body: request.body })),
      },
      (error) => (error ? reject(error) : resolve()),
    )
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => tally.response(status, ms))
    instance.on('reqError', (error: Error) => tally.error(error))
  })
}

function paced(job: Extract<Load, { kind: 'paced' }> & LoadJob, tally: Tally): Promise<void> {
  const target = new URL(job.url)
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections })
  const requests = job.requests.map((request) => ({ ...request, body: request.body === undefined ? undefined : Buffer.from(request.body) }))
  const interval = 1000 / job.perSecond
  const end = performance.now() + job.seconds * 1000
  let next = performance.now()
  let sent = 0
  let outstanding = 0
  return new Promise((resolve) => {
    const finishIfDone = () => {
      if (outstanding > 0 || next < end) return
      agent.destroy()
      resolve()
    }
    const settled = () => {
      outstanding--
      finishIfDone()
    }
    const send = () => {
      const request = requests[sent++ % requests.length]
      // Timed from the moment it is due: a wait for a free connection counts as latency.
      const dueAt = performance.now()
      outstanding++
      http
        .request({ host: target.hostname, port: target.port, method: request.method, path: request.path, headers: headersOf(request), agent }, (response) => {
          response.resume()
          response.once('end', () => {
            tally.response(response.statusCode ?? 0, performance.now() - dueAt)
            settled()
          })
        })
        .once('error', (error) => {
          tally.error(error)
          settled()
        })
        .end(request.body)
    }
    const tick = () => {
      while (next <= performance.now() && next < end) {
        send()
        next += interval
      }
      if (next < end) setTimeout(tick, next - performance.now())
      else finishIfDone()
    }
    tick()
  })
}

process.on('message', async (job: LoadJob) => {
  const tally = new Tally()
  const cpu = process.cpuUsage()
  const started = performance.now()
  try {
    await (job.kind === 'closed' ? closedLoop(job, tally) : paced(job, tally))
    process.send!({ result: tally.result((performance.now() - started) / 1000, process.cpuUsage(cpu)) })
  } catch (error) {
    process.send!({ error: error instanceof Error ? error.message : String(error) })
  }
})
process.on('disconnect', () => process.exit(0))
process.send!({ ready: true })
