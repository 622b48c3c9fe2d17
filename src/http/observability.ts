import { hostname } from 'node:os'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import { type Bindings, type ChildLoggerOptions, type Logger, pino } from 'pino'
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'
import { API_PREFIX } from '../core/catalogue.ts'

/**
 * The operation a request is counted under: the operation's name for its routes, the route path
 * for the service's own routes, and one label for everything unknown (so that random URLs cannot
 * blow up the metric's cardinality).
 */
function operationLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url
  if (route === undefined) return 'unknown'
  return route.startsWith(`${API_PREFIX}/`) ? route.slice(API_PREFIX.length + 1) : route
}

/** The fields every log line starts with (pino's own default base, given explicitly so that the request line can write them too). */
export const LOG_BASE = { pid: process.pid, hostname: hostname() }

/** Where log lines go: what pino writes to. */
export interface LogStream {
  write(line: string): void
}

/**
 * Writes the line each request ends with, exactly as pino writes it through the request's logger
 * (its level, time, pid and hostname, then the request id and the fields, then the message), but
 * built directly: the fields are few and fixed, and pino's general path (a child logger, serializer
 * lookups, escaping key by key) cost more than the rest of the line. Undefined when LOG_LEVEL leaves
 * the line out.
 */
function completionLineWriter(logger: Logger, stream: LogStream | undefined) {
  if (stream === undefined || !logger.isLevelEnabled('info')) return undefined
  const head = `{"level":${pino.levels.values.info},"time":`
  // The root logger's base fields, which app.ts gives pino (LOG_BASE), in pino's order.
  const bindings = `,"pid":${JSON.stringify(LOG_BASE.pid)},"hostname":${JSON.stringify(LOG_BASE.hostname)},"requestId":`
  return (request: FastifyRequest, operation: string, status: number, milliseconds: number) => {
    // Never the body, the query string or headers: they may carry inputs and keys.
    const path = request.url.split('?')[0]
    stream.write(
      `${head}${Date.now()}${bindings}${JSON.stringify(request.id)},"operation":${JSON.stringify(operation)},"method":${JSON.stringify(request.method)},` +
        `"path":${JSON.stringify(path)},"status":${status},"responseTime":${milliseconds},"msg":"request completed"}\n`,
    )
  }
}

/** Prometheus metrics at /metrics and one JSON log line per request: id, operation, status, time. */
export function registerObservability(app: FastifyInstance, logStream: LogStream | undefined): void {
  const writeCompletionLine = completionLineWriter(app.log as Logger, logStream)
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'devutils_http_requests_total',
    help: 'HTTP requests answered, by operation, method and status.',
    labelNames: ['operation', 'method', 'status'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'devutils_http_request_duration_seconds',
    help: 'Time from request to response, by operation and status.',
    labelNames: ['operation', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })

  // prom-client's series for each set of label values, looked up once: finding a series from a
  // labels object (sorting and joining its values) was most of the metrics' cost per request.
  const series = new Map<string, { requests: { inc(): void }; duration: { observe(value: number): void } }>()
  const seriesOf = (operation: string, method: string, status: string) => {
    const key = `${operation} ${method} ${status}`
    let found = series.get(key)
    if (found === undefined) {
      found = { requests: requests.labels({ operation, method, status }), duration: duration.labels({ operation, status }) }
      series.set(key, found)
    }
    return found
  }

  app.addHook('onResponse', (request, reply, done) => {
    const operation = operationLabel(request)
    const status = String(reply.statusCode)
    const seconds = (performance.now() - request.startedAt) / 1000
    const counted = seriesOf(operation, request.method, status)
    counted.requests.inc()
    counted.duration.observe(seconds)
    writeCompletionLine?.(request, operation, reply.statusCode, Math.round(seconds * 1e6) / 1000)
    done()
  })

  app.get(
    '/metrics',
    { schema: { tags: ['service'], summary: 'Prometheus metrics: requests and latency per operation and status, event-loop lag, process metrics' } },
    async (_request, reply) => {
      reply.type(registry.contentType)
      return registry.metrics()
    },
  )
}

type LogArguments = Parameters<FastifyBaseLogger['info']>

/**
 * Each request's logger (`request.log`, which carries the request id), built when it first writes:
 * pino builds a child logger in several microseconds, and most requests never use theirs, since
 * the one line each request writes is written directly (above). Fastify's `childLoggerFactory`.
 */
class DeferredChildLogger {
  #built: FastifyBaseLogger | undefined
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}
  private get logger(): FastifyBaseLogger {
    this.#built ??= this.parent.child(this.bindings, this.options)
    return this.#built
  }
  get level() {
    return this.logger.level
  }
  set level(level: string) {
    this.logger.level = level
  }
  fatal(...args: LogArguments) {
    this.logger.fatal(...args)
  }
  error(...args: LogArguments) {
    this.logger.error(...args)
  }
  warn(...args: LogArguments) {
    this.logger.warn(...args)
  }
  info(...args: LogArguments) {
    this.logger.info(...args)
  }
  debug(...args: LogArguments) {
    this.logger.debug(...args)
  }
  trace(...args: LogArguments) {
    this.logger.trace(...args)
  }
  silent(...args: LogArguments) {
    this.logger.silent(...args)
  }
  child(bindings: Bindings, options?: ChildLoggerOptions) {
    return this.logger.child(bindings, options)
  }
}

export function deferredChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new DeferredChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger
}

/** Log lines wait in memory until this much has gathered, or FLUSH_INTERVAL_MS has passed. */
const LOG_BUFFER_BYTES = 4096
const FLUSH_INTERVAL_MS = 1000

/**
 * Standard output for the log, written a few kilobytes at a time: one `write(2)` per log line was a
 * sixth of a small request's CPU (docs/PERFORMANCE.md). A line reaches the log within a second;
 * pino writes what is left when the process exits, even after an uncaught exception, so only a
 * process killed outright (SIGKILL, out of memory) can lose its last second of lines.
 */
export function bufferedStandardOutput() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES })
  const flusher = setInterval(() => destination.flush(), FLUSH_INTERVAL_MS).unref()
  return {
    destination,
    /** Writes what is buffered and stops the timer; lines logged later still reach the log at exit. */
    flush() {
      clearInterval(flusher)
      destination.flush()
    },
  }
}
