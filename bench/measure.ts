import type { Load, LoadJob, LoadResult } from './load.ts'
import { loadFailure } from './load.ts'
import type { Server } from './servers.ts'
import type { RequestSpec } from './workloads.ts'

export interface Plan {
  /** Unmeasured load before the rounds of each workload, per server: the JIT warms up. */
  warmupSeconds: number
  rounds: number
  secondsPerRound: number
}

/** What one server did over all the rounds of one workload. */
export class Measurement {
  /** Successful (2xx) responses. */
  responses = 0
  seconds = 0
  serverCpuSeconds = 0
  loaderCpuSeconds = 0
  readonly rounds: LoadResult[] = []
  /** Server CPU seconds per response, round by round. */
  readonly cpuPerResponse: number[] = []

  constructor(readonly server: Server) {}

  add(result: LoadResult, serverCpuSeconds: number) {
    this.rounds.push(result)
    this.responses += result.ok
    this.seconds += result.seconds
    this.serverCpuSeconds += serverCpuSeconds
    this.loaderCpuSeconds += result.cpuSeconds
    this.cpuPerResponse.push(serverCpuSeconds / Math.max(1, result.ok))
  }

  get perSecond() {
    return this.responses / this.seconds
  }

  /** Server CPU time per response, in seconds. */
  get cpuPerRequest() {
    return this.serverCpuSeconds / Math.max(1, this.responses)
  }

  /** Latency percentiles: the median of the rounds' values, which one noisy round cannot move. */
  latency(percentile: 'p50' | 'p99' | 'max' | 'mean') {
    return median(this.rounds.map((round) => round.latencyMs[percentile]))
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** What sends load: the node load generator's process, or wrk. */
export interface Loader {
  run(job: LoadJob): Promise<LoadResult>
}

/** Runs load jobs against servers, reads their CPU from /proc around each, and collects failures. */
export class Bench {
  readonly failures: string[] = []

  constructor(
    readonly loader: Loader,
    readonly plan: Plan,
  ) {}

  /** One load job against one server, with the server CPU it cost. */
  async run(server: Server, load: Load, label: string, loader: Loader = this.loader): Promise<{ result: LoadResult; serverCpuSeconds: number }> {
    const before = server.cpuSeconds()
    const result = await loader.run({ ...load, url: server.url })
    const serverCpuSeconds = server.cpuSeconds() - before
    this.check(result, `${label} on ${server.label}`, server)
    server.truncateLog()
    return { result, serverCpuSeconds }
  }

  check(result: LoadResult, label: string, server: Server) {
    const failure = loadFailure(result)
    if (failure === undefined) return
    const problems = server.problems()
    this.failures.push(`${label}: ${failure}${problems.length > 0 ? `\n    ${problems.join('\n    ')}` : ''}`)
  }

  /**
   * The same load on each server in turn, for `plan.rounds` rounds of `plan.secondsPerRound`; each
   * round starts with a different server (A B, B A, …), so that drift in the machine's speed falls
   * on all alike. `heavy` requests (hundreds of milliseconds each) get rounds of at least 2 s and
   * a warm-up of whole requests, since autocannon drops what is in flight when its time is up.
   */
  async compare(label: string, servers: Server[], load: Load, heavy = false, loader: Loader = this.loader): Promise<Measurement[]> {
    const { warmupSeconds, rounds } = this.plan
    const seconds = heavy ? Math.max(2, this.plan.secondsPerRound) : this.plan.secondsPerRound
    const warmup: Load = heavy ? { ...load, kind: 'closed', seconds: 600, amount: 2 * load.connections } : { ...load, seconds: warmupSeconds }
    for (const server of servers) await this.run(server, warmup, `${label} (warm-up)`, loader)
    const measurements = servers.map((server) => new Measurement(server))
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < measurements.length; i++) {
        const measurement = measurements[(i + round) % measurements.length]
        const { result, serverCpuSeconds } = await this.run(measurement.server, { ...load, seconds }, label, loader)
        measurement.add(result, serverCpuSeconds)
      }
    }
    return measurements
  }
}

/** Closed-loop load: `connections` requests in flight all the time (the duration is the plan's). */
export const closed = (requests: readonly RequestSpec[], connections: number): Load => ({ kind: 'closed', requests, connections, seconds: 0 })

/** Open-loop load: `perSecond` requests a second on an even schedule, whatever the server's speed. */
export const paced = (requests: readonly RequestSpec[], connections: number, perSecond: number): Load => ({
  kind: 'paced',
  requests,
  connections,
  perSecond,
  seconds: 0,
})
