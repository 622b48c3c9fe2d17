/** Upper bounds of the latency histogram's buckets, in seconds. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const REQUESTS = 'devutils_http_requests_total'
const DURATION = 'devutils_http_request_duration_seconds'

/** The requests of one operation, method and status: how many, and how long they took. */
interface Series {
  count: number
  sumSeconds: number
  /** Requests per bucket (not cumulative); the last counts those over the largest bound. */
  perBucket: Float64Array
}

/**
 * Requests answered and their latency, per operation, method and status, in Prometheus's text
 * format. Recording a request allocates nothing (nested maps of numbers), where prom-client's
 * labelled metrics build and hash a key from the labels on every call (docs/PERFORMANCE.md).
 * prom-client still gives the process metrics.
 */
export class RequestMetrics {
  readonly #series = new Map<string, Map<string, Map<number, Series>>>()

  record(operation: string, method: string, status: number, seconds: number): void {
    const byMethod = entryOf(this.#series, operation, () => new Map<string, Map<number, Series>>())
    const series = entryOf(
      entryOf(byMethod, method, () => new Map<number, Series>()),
      status,
      emptySeries,
    )
    series.count++
    series.sumSeconds += seconds
    let bucket = 0
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]) bucket++
    series.perBucket[bucket]++
  }

  /** The request counter (by operation, method and status) and the latency histogram (by operation and status). */
  exposition(): string {
    const counter = [`# HELP ${REQUESTS} HTTP requests answered, by operation, method and status.`, `# TYPE ${REQUESTS} counter`]
    const latency = new Map<string, Series>()
    for (const [operation, byMethod] of this.#series) {
      for (const [method, byStatus] of byMethod) {
        for (const [status, series] of byStatus) {
          counter.push(`${REQUESTS}{operation=${quoted(operation)},method=${quoted(method)},status="${status}"} ${series.count}`)
          const labels = `operation=${quoted(operation)},status="${status}"`
          const merged = entryOf(latency, labels, emptySeries)
          merged.count += series.count
          merged.sumSeconds += series.sumSeconds
          for (let bucket = 0; bucket <= BUCKETS.length; bucket++) merged.perBucket[bucket] += series.perBucket[bucket]
        }
      }
    }
    const histogram = [`# HELP ${DURATION} Time from request to response, by operation and status.`, `# TYPE ${DURATION} histogram`]
    for (const [labels, series] of latency) {
      let cumulative = 0
      for (let bucket = 0; bucket <= BUCKETS.length; bucket++) {
        cumulative += series.perBucket[bucket]
        const bound = bucket < BUCKETS.length ? String(BUCKETS[bucket]) : '+Inf'
        histogram.push(`${DURATION}_bucket{le="${bound}",${labels}} ${cumulative}`)
      }
      histogram.push(`${DURATION}_sum{${labels}} ${series.sumSeconds}`, `${DURATION}_count{${labels}} ${series.count}`)
    }
    return `${counter.join('\n')}\n\n${histogram.join('\n')}\n`
  }
}

function emptySeries(): Series {
  return { count: 0, sumSeconds: 0, perBucket: new Float64Array(BUCKETS.length + 1) }
}

/** The map's value for `key`, added with `make` the first time. */
function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key)
  if (value === undefined) {
    value = make()
    map.set(key, value)
  }
  return value
}

/** A label value as the text format writes it: quoted, with backslash, quote and line feed escaped. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"\n]/g, (character) => (character === '\n' ? '\\n' : `\\${character}`))}"`
}
