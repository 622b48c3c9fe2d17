import fc from 'fast-check'
import type { AnyOperation } from '../../src/core/operation.ts'
import { FuzzCase, operationBodies, truncated } from './inputs.ts'
import { FUZZ_BOUNDS, type FuzzService, type HealthRecord } from './service.ts'

/** A request and when it was in flight (epoch milliseconds), to name those that a slow /health poll overlapped. */
interface Sent {
  fuzzCase: FuzzCase
  start: number
  end: number
}

export interface CampaignOptions {
  /** The run's seed; each operation and lane draws from a seed of its own made from it. */
  seed: number
  /** Requests in flight at once for one operation (each lane a fast-check run of its own). */
  lanes: number
  /** Runs per lane, or */
  numRuns?: number
  /** milliseconds per operation, all lanes together. */
  durationMs?: number
  /** A failure to replay: its lane's seed and fast-check's path, as a report prints them. */
  replay?: { seed: number; path: string }
}

export interface OperationReport {
  operation: string
  requests: number
  /** How many answers of each status and code ("200", "422 INVALID_INPUT"). */
  outcomes: Record<string, number>
  /** The slowest /health poll, and its control's latency. */
  health: HealthRecord
  /** The same while the examples ran first, loading what the operation loads on first use: told, not judged. */
  warmHealth: HealthRecord
  /** The RSS when the operation's fuzz began (what earlier work left), and its peak during it. */
  rssAtStartBytes: number
  peakRssBytes: number
  elapsedMs: number
  /** Each broken guarantee, with what replays it. */
  failures: string[]
  /** The bodies of the failing requests, by a file name that says how to replay each. */
  failedBodies: Array<{ name: string; text: string }>
}

/** A seed per operation and lane: `--only` one operation gives the same requests as a run of all. */
export function laneSeed(seed: number, operation: string, lane: number): number {
  let hash = 0x811c9dc5
  for (const char of `${operation}#${lane}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193)
  return (hash ^ seed) | 0
}

/** Sends each example once, so that what loads on first use (modules, worker threads) has loaded before latency is judged. */
async function warm(service: FuzzService, operation: AnyOperation): Promise<void> {
  for (const example of operation.examples) await service.check(new FuzzCase(operation.name, 'an example', example.input)).catch(() => undefined)
}

/**
 * Fuzzes one operation through the running service: several lanes of fast-check runs at once, then
 * the server's health latency, peak memory and life over that time.
 */
export async function fuzzOperation(
  service: FuzzService,
  operation: AnyOperation,
  registry: readonly AnyOperation[],
  options: CampaignOptions,
): Promise<OperationReport> {
  await service.settleHealth()
  await warm(service, operation)
  const warmHealth = await service.settleHealth()
  service.resetPeakMemory()
  const rssAtStartBytes = service.memory()
  const started = performance.now()
  const outcomes: Record<string, number> = {}
  const sent: Sent[] = []
  const bodies = operationBodies(operation, registry)
  const lanes = options.replay
    ? [options.replay]
    : Array.from({ length: options.lanes }, (_, lane) => ({ seed: laneSeed(options.seed, operation.name, lane), path: undefined }))
  const runs = await Promise.all(
    lanes.map(({ seed, path }, lane) => {
      const property = fc.asyncProperty(bodies, async (fuzzCase) => {
        const record: Sent = { fuzzCase, start: Date.now(), end: Number.POSITIVE_INFINITY }
        sent.push(record)
        const { status, code } = await service.check(fuzzCase, `127.0.0.${2 + lane}`).finally(() => {
          record.end = Date.now()
        })
        const outcome = code === '' ? String(status) : `${status} ${code}`
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
      })
      return fc.check(property, {
        seed,
        path,
        numRuns: options.numRuns ?? Number.MAX_SAFE_INTEGER,
        interruptAfterTimeLimit: options.durationMs,
        markInterruptAsFailure: false,
        // A failing request is reported as found: shrinking against a server that may have died would mislead.
        endOnFailure: true,
      })
    }),
  )
  const failures = runs.flatMap((run) =>
    run.failed && run.counterexample
      ? [
          `${String(run.errorInstance instanceof Error ? run.errorInstance.message : run.errorInstance)}\n` +
            `  body: ${(run.counterexample[0] as FuzzCase)[fc.toStringMethod]()}\n` +
            `  replay: npm run fuzz -- --only ${operation.name} --replay=${run.seed}:${run.counterexamplePath}`,
        ]
      : [],
  )
  const failedBodies = runs.flatMap((run) =>
    run.failed && run.counterexample
      ? [{ name: `${operation.name}_${run.seed}_${run.counterexamplePath}.json`, text: (run.counterexample[0] as FuzzCase).text }]
      : [],
  )
  const health = await service.takeHealth()
  if (health.excessMs > FUZZ_BOUNDS.healthMs) {
    const inFlight = sent.filter(({ start, end }) => start <= health.at + health.healthMs && end >= health.at)
    failures.push(
      `/health took ${Math.round(health.healthMs)} ms, ${Math.round(health.excessMs)} ms more than a control server (at most ${FUZZ_BOUNDS.healthMs} ms more); in flight then:\n` +
        inFlight.map(({ fuzzCase }) => `    ${truncated(fuzzCase[fc.toStringMethod](), 300)}`).join('\n'),
    )
  }
  if (health.failures.length > 0) failures.push(`/health failed: ${health.failures.join(', ')}`)
  const ended = service.ended
  const peakRssBytes = service.peakMemory()
  if (ended !== undefined) failures.push(ended)
  if (peakRssBytes > FUZZ_BOUNDS.rssBytes) failures.push(`peak RSS ${(peakRssBytes / 2 ** 20).toFixed(0)} MiB (at most ${FUZZ_BOUNDS.rssBytes / 2 ** 20})`)
  return {
    operation: operation.name,
    requests: sent.length,
    outcomes,
    health,
    warmHealth,
    rssAtStartBytes,
    peakRssBytes,
    elapsedMs: performance.now() - started,
    failures,
    failedBodies,
  }
}

/** One line about an operation's run. */
export function describeReport(report: OperationReport): string {
  const outcomes = Object.entries(report.outcomes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([outcome, count]) => `${outcome} ×${count}`)
    .join(', ')
  return `${report.operation}: ${report.requests} requests in ${(report.elapsedMs / 1000).toFixed(1)} s (${outcomes}); /health at worst ${Math.round(report.health.healthMs)} ms (control ${Math.round(report.health.controlMs)} ms, ${Math.round(report.warmHealth.healthMs)} ms while warming up); RSS ${(report.rssAtStartBytes / 2 ** 20).toFixed(0)} MiB at the start, at most ${(report.peakRssBytes / 2 ** 20).toFixed(0)} MiB`
}
