import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { Worker } from 'node:worker_threads'
import type { SocketResponse } from '../helpers.ts'
import { assertEnvelope } from '../hostile-inputs.ts'
import { type Spawned, spawnUntil, startService } from '../processes.ts'
import { type FuzzCase, truncated } from './inputs.ts'

const MIB = 1024 * 1024

/** What every answer and the server itself must hold while the fuzz runs. */
export const FUZZ_BOUNDS = {
  /** An answer comes within the time budget and this slack (a queued request's wait, a big body's transfer). */
  answerMs: Number(process.env.TIME_BUDGET_MS ?? 5000) + 3000,
  /** `/health`, polled on its own connection, answers within this whatever else runs. */
  healthMs: 1000,
  healthIntervalMs: 100,
  rssBytes: 512 * MIB,
}

/**
 * Polls `/health` from a thread of its own, so that the fuzz's own work (building a mebibyte body,
 * parsing a 16 MiB answer) never delays a poll and passes for the server's latency. Each poll has a
 * twin sent at the same moment to a control: a trivial server in a process of its own. On a shared
 * machine both are late when the machine stalls; only the server's own blocking makes /health alone
 * late, so what is judged is how much later /health was than its twin. A poll still waiting counts
 * with the time it has waited so far.
 */
const HEALTH_POLLER = `
const http = require('node:http')
const { parentPort, workerData } = require('node:worker_threads')
const agents = [new http.Agent({ keepAlive: true, maxSockets: 1 }), new http.Agent({ keepAlive: true, maxSockets: 1 })]
const none = () => ({ excessMs: 0, healthMs: 0, controlMs: 0, at: 0 })
let worst = none(), polls = 0, failures = [], waiting = null, stopped = false
function get(url, agent, expected) {
  const started = performance.now()
  return new Promise((resolve) => {
    let finished = false
    const done = (failure) => {
      if (finished) return
      finished = true
      resolve({ ms: performance.now() - started, failure })
    }
    const request = http.get(url, { agent, timeout: 30000 }, (response) => {
      response.resume()
      response.on('end', () => done(response.statusCode === expected ? null : 'status ' + response.statusCode))
      response.on('error', (error) => done(error.code || error.message))
    })
    request.on('timeout', () => request.destroy(new Error('no answer within 30 s')))
    request.on('error', (error) => done(error.code || error.message))
  })
}
function record(healthMs, controlMs, at) {
  if (healthMs - controlMs > worst.excessMs) worst = { excessMs: healthMs - controlMs, healthMs, controlMs, at }
}
async function loop() {
  while (!stopped) {
    const tick = { at: Date.now(), started: performance.now(), controlMs: null }
    waiting = tick
    const control = get(workerData.controlUrl, agents[1], 200).then((answer) => (tick.controlMs = answer.ms))
    const health = await get(workerData.url + '/health', agents[0], 200)
    await control
    waiting = null
    polls++
    record(health.ms, tick.controlMs, tick.at)
    if (health.failure && failures.length < 5) failures.push(health.failure)
    if (settled !== null) take()
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, workerData.intervalMs - health.ms)))
  }
}
let settled = null
parentPort.on('message', (message) => {
  if (message === 'settle') {
    settled = () => parentPort.postMessage({ ...worst, polls, failures })
    if (waiting === null) take()
  } else if (message === 'take') {
    if (waiting !== null) {
      const waited = performance.now() - waiting.started
      record(waited, waiting.controlMs ?? waited, waiting.at)
    }
    parentPort.postMessage({ ...worst, polls, failures })
    reset()
  } else if (message === 'stop') {
    stopped = true
    for (const agent of agents) agent.destroy()
    parentPort.close()
  }
})
function reset() {
  worst = none()
  polls = 0
  failures = []
}
function take() {
  settled()
  settled = null
  reset()
}
loop()
`

/** A server that answers at once, for the poller's twin requests. */
const CONTROL_SERVER = `require('node:http').createServer((request, response) => response.end('ok')).listen(0, '127.0.0.1', function () { console.log('control listening on ' + this.address().port) })`

export interface HealthRecord {
  /** The most a poll of /health took beyond its twin to the control, in milliseconds. */
  excessMs: number
  /** That poll's latency, its twin's, and when it was sent (epoch milliseconds). */
  healthMs: number
  controlMs: number
  at: number
  polls: number
  failures: string[]
}

export interface Answer {
  status: number
  code: string
  elapsedMs: number
}

/** A memory figure of a process from /proc/<pid>/status, in bytes; 0 once the process is gone. */
function memoryFigure(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024
  } catch {
    return 0
  }
}

/** The built service, started as production runs it, with a watch on its health and memory. */
export class FuzzService {
  private constructor(
    private readonly spawned: Awaited<ReturnType<typeof startService>>,
    private readonly control: Spawned,
    private readonly poller: Worker,
  ) {}

  /** Starts `node dist/server.js` (build it first) without the rate limiter, which thousands of requests from one client would trip. */
  static async start(): Promise<FuzzService> {
    const spawned = await startService({ RATE_LIMIT_MAX: '0' })
    const control = await spawnUntil(process.execPath, ['-e', CONTROL_SERVER], /control listening on \d+/)
    const controlUrl = `http://127.0.0.1:${/listening on (\d+)/.exec(control.output())![1]}/`
    const poller = new Worker(HEALTH_POLLER, { eval: true, workerData: { url: spawned.url, controlUrl, intervalMs: FUZZ_BOUNDS.healthIntervalMs } })
    poller.unref()
    return new FuzzService(spawned, control, poller)
  }

  get pid(): number {
    return this.spawned.child.pid!
  }

  /** How the process ended, or undefined while it runs. */
  get ended(): string | undefined {
    const { exitCode, signalCode } = this.spawned.child
    if (exitCode === null && signalCode === null) return undefined
    return `the process ended (${signalCode ?? `exit code ${exitCode}`}); its last output:\n${this.spawned.output().slice(-2000)}`
  }

  /** The worst `/health` poll and the failures since the last call, a poll still waiting with what it has waited. */
  takeHealth(): Promise<HealthRecord> {
    return this.askPoller('take')
  }

  /** The same, once the poll under way has its answer: what follows starts with a fresh poll. */
  settleHealth(): Promise<HealthRecord> {
    return this.askPoller('settle')
  }

  private askPoller(message: 'take' | 'settle'): Promise<HealthRecord> {
    return new Promise((resolve) => {
      this.poller.once('message', resolve)
      this.poller.postMessage(message)
    })
  }

  /** Starts a new measure of the peak RSS (Linux: writing 5 to clear_refs resets VmHWM). */
  resetPeakMemory(): void {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5')
    } catch {
      // Without it the peak is the process's since it started, which bounds the same thing more loosely.
    }
  }

  /** The RSS now, in bytes. */
  memory(): number {
    return memoryFigure(this.pid, 'VmRSS')
  }

  /** The peak RSS (VmHWM) since the last reset, in bytes. */
  peakMemory(): number {
    return memoryFigure(this.pid, 'VmHWM')
  }

  /**
   * POSTs a case on a connection of its own, from `client` (an address of the loopback, so that the
   * server counts each lane as a client of its own), and gives up once the answer is past due.
   */
  send(fuzzCase: FuzzCase, client: string): Promise<SocketResponse> {
    const body = fuzzCase.text
    return new Promise((resolve, reject) => {
      const outgoing = http.request(
        {
          host: '127.0.0.1',
          port: this.spawned.port,
          method: 'POST',
          path: `/api/v1/${fuzzCase.operation}`,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          localAddress: client,
          agent: false,
          timeout: FUZZ_BOUNDS.answerMs,
        },
        (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('error', reject)
          response.on('end', () => {
            const rawPayload = Buffer.concat(chunks)
            const text = rawPayload.toString()
            resolve({ statusCode: response.statusCode!, headers: response.headers, body: text, rawPayload, json: () => JSON.parse(text) })
          })
        },
      )
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${FUZZ_BOUNDS.answerMs} ms`)))
      outgoing.on('error', (error: NodeJS.ErrnoException) => reject(new Error(`the request failed without an answer: ${error.code ?? error.message}`)))
      outgoing.end(body)
    })
  }

  /** Sends a case and checks its answer: an envelope, never a 5xx but 503 TIMEOUT or OVERLOADED, within the time budget and its slack. */
  async check(fuzzCase: FuzzCase, client = '127.0.0.1'): Promise<Answer> {
    const started = performance.now()
    const response = await this.send(fuzzCase, client)
    const elapsedMs = performance.now() - started
    // The log line of a defect may reach the pipe a moment after the answer.
    if (response.statusCode >= 500) await new Promise((resolve) => setTimeout(resolve, 200))
    const context = `${fuzzCase.operation} (${fuzzCase.how})${this.logOf(response)}`
    const envelope = assertEnvelope(response, context)
    const code = envelope.error?.code ?? ''
    if (response.statusCode === 503) assert.ok(code === 'TIMEOUT' || code === 'OVERLOADED', `${context}: a 503 is TIMEOUT or OVERLOADED`)
    assert.ok(elapsedMs <= FUZZ_BOUNDS.answerMs, `${context}: answered after ${Math.round(elapsedMs)} ms, past ${FUZZ_BOUNDS.answerMs} ms`)
    return { status: response.statusCode, code, elapsedMs }
  }

  /** What the server logged about a defect it answered with a 5xx: a defect's description is in its log, never in its answer. */
  private logOf(response: SocketResponse): string {
    const requestId = response.headers['x-request-id']
    if (response.statusCode < 500 || typeof requestId !== 'string') return ''
    const lines = this.spawned
      .output()
      .split('\n')
      .filter((line) => line.includes(requestId) && /"level":(50|60)/.test(line))
    return lines.length === 0 ? '' : `; the server logged: ${truncated(lines.join('\n'), 1500)}`
  }

  /**
   * This service, or a new one where this one has ended, hangs or holds more than the memory bound:
   * the operation that did it has been reported, and the next is judged on a process of its own.
   */
  async renewedIfSpent(): Promise<FuzzService> {
    if (this.ended === undefined && this.memory() <= FUZZ_BOUNDS.rssBytes && (await this.answersHealth())) return this
    await this.stop()
    return FuzzService.start()
  }

  /** Whether /health answers within the answer's bound: a process whose event loop is stuck does not. */
  private async answersHealth(): Promise<boolean> {
    try {
      const response = await fetch(`${this.spawned.url}/health`, { signal: AbortSignal.timeout(FUZZ_BOUNDS.answerMs) })
      return response.ok
    } catch {
      return false
    }
  }

  async stop(): Promise<void> {
    this.poller.postMessage('stop')
    this.control.child.kill('SIGTERM')
    if (this.ended === undefined) {
      this.spawned.child.kill('SIGTERM')
      const killer = setTimeout(() => this.spawned.child.kill('SIGKILL'), 10_000)
      await this.spawned.exited
      clearTimeout(killer)
    }
  }
}
