import { type ChildProcess, fork } from 'node:child_process'
import type { RequestSpec } from './workloads.ts'

/**
 * What the load generator process sends to a server. `closed`: autocannon keeps `connections` requests in flight
 * for `seconds` (or until `amount` responses), each connection cycling through `requests`. `paced`:
 * an open-loop probe that starts `perSecond` requests a second on an even schedule, whatever the
 * server's speed, for latency measurements (autocannon's own rate limit sends each second's quota
 * in one burst, and its histogram rounds latencies to whole milliseconds).
 */
export type Load =
  | { kind: 'closed'; requests: readonly RequestSpec[]; connections: number; seconds: number; amount?: number }
  | { kind: 'paced'; requests: readonly RequestSpec[]; connections: number; seconds: number; perSecond: number }

export type LoadJob = Load & { url: string }

export interface LoadResult {
  /** Responses received, of any status. */
  responses: number
  /** Responses with a 2xx status: the work done. */
  ok: number
  /** From the first request to the last response. */
  seconds: number
  latencyMs: { p50: number; p99: number; max: number; mean: number }
  /** Responses by HTTP status. */
  statuses: Record<string, number>
  /** Requests that got no response (connection errors, timeouts). */
  errors: number
  firstError?: string
  /** CPU time (user + system) the load generator process spent on the job. */
  cpuSeconds: number
}

/** What went wrong in a load run, if anything: a response that is not 2xx, or a request that got none. */
export function loadFailure(result: LoadResult): string | undefined {
  const bad = Object.entries(result.statuses).filter(([status]) => !status.startsWith('2'))
  const problems = bad.map(([status, count]) => `${count} × HTTP ${status}`)
  if (result.errors > 0) problems.push(`${result.errors} requests without a response (${result.firstError})`)
  if (result.responses === 0) problems.push('no response at all')
  return problems.length > 0 ? problems.join(', ') : undefined
}

/** A separate process that sends load (bench/load-generator.ts), so that it never shares a thread with a server. */
export class LoadGenerator {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<LoadGenerator> {
    const child = fork(new URL('./load-generator.ts', import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve())
      child.once('exit', (code) => reject(new Error(`the load generator exited (${code}) before it was ready`)))
    })
    return new LoadGenerator(child)
  }

  get pid(): number {
    return this.child.pid!
  }

  run(job: LoadJob): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the load generator exited (${code}) during a job`))
      this.child.once('exit', onExit)
      this.child.once('message', (message) => {
        this.child.off('exit', onExit)
        const answer = message as { result: LoadResult } | { error: string }
        if ('error' in answer) reject(new Error(`the load generator failed: ${answer.error}`))
        else resolve(answer.result)
      })
      this.child.send(job)
    })
  }

  close(): void {
    this.child.disconnect()
  }
}
