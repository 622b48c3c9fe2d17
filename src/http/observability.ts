import { hostname } from 'node:os'
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { type Bindings, type ChildLoggerOptions, type Logger, pino } from 'pino'
import { collectDefaultMetrics, Registry } from 'prom-client'
import { API_PREFIX } from '../core/catalogue.ts'
import { ANSWERED_UNDER_LOAD } from './protection.ts'
import { RequestMetrics } from './request-metrics.ts'

/**
 * The operation a request is counted under: the operation's name for its routes, the route path
 * for the service's own routes, and one label for everything unknown (so that random URLs cannot
 * blow up the metric's cardinality). Worked out once per route.
 */
function operationLabels() {
  const labels = new Map<string, OperationLabel>()
  const unknown = { label: 'unknown', quoted: '"unknown"' }
  return (route: string | undefined): OperationLabel => {
    if (route === undefined) return unknown
    let found = labels.get(route)
    if (found === undefined) {
      const label = route.startsWith(`${API_PREFIX}/`) ? route.slice(API_PREFIX.length + 1) : route
      found = { label, quoted: JSON.stringify(label) }
      labels.set(route, found)
    }
    return found
  }
}

/** A request's operation label, and the same as a JSON string for the log line. */
interface OperationLabel {
  label: string
  quoted: string
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
 * built directly, since the fields are few and fixed. Undefined when LOG_LEVEL leaves the line out.
 * Ours rather than pino's logger.info, whose general path (serializer lookups, escaping key by key) costs more (docs/PERFORMANCE.md, "Duties").
 */
export function completionLineWriter(logger: Logger, stream: LogStream | undefined) {
  if (stream === undefined || !logger.isLevelEnabled('info')) return undefined
  const head = `{"level":${pino.levels.values.info},"time":`
  // The root logger's base fields, which app.ts gives pino (LOG_BASE), in pino's order.
  const bindings = `,"pid":${JSON.stringify(LOG_BASE.pid)},"hostname":${JSON.stringify(LOG_BASE.hostname)},"requestId":`
  return (request: FastifyRequest, operation: OperationLabel, status: number, milliseconds: number) => {
    // Never the body, the query string or headers: they may carry inputs and keys.
    const query = request.url.indexOf('?')
    const path = query === -1 ? request.url : request.url.slice(0, query)
    stream.write(
      `${head}${Date.now()}${bindings}${JSON.stringify(request.id)},"operation":${operation.quoted},"method":${JSON.stringify(request.method)},` +
        `"path":${JSON.stringify(path)},"status":${status},"responseTime":${milliseconds},"msg":"request completed"}\n`,
    )
  }
}

/**
 * Prometheus metrics at /metrics and one JSON log line per request: id, operation, status, time.
 * `logStream` is where the app's logger writes, undefined when logging is off.
 */
export const observability = fastifyPlugin(
  async function observability(app: FastifyInstance, { logStream }: { logStream: LogStream | undefined }) {
    const writeCompletionLine = completionLineWriter(app.log as Logger, logStream)
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    const requests = new RequestMetrics()
    const labelOf = operationLabels()

    app.addHook('onResponse', (request, reply, done) => {
      const operation = labelOf(request.routeUrl)
      const seconds = (performance.now() - request.startedAt) / 1000
      requests.record(operation.label, request.method, reply.statusCode, seconds)
      writeCompletionLine?.(request, operation, reply.statusCode, Math.round(seconds * 1e6) / 1000)
      done()
    })

    app.get(
      '/metrics',
      {
        ...ANSWERED_UNDER_LOAD,
        schema: { tags: ['service'], summary: 'Prometheus metrics: requests and latency per operation and status, event-loop lag, process metrics' },
      },
      async (_request, reply) => {
        reply.type(registry.contentType)
        return `${await registry.metrics()}\n${requests.exposition()}`
      },
    )
  },
  { name: 'observability' },
)

type LogArguments = Parameters<FastifyBaseLogger['info']>

/**
 * Each request's logger (`request.log`, which carries the request id), built when it first writes,
 * since most requests never use theirs: their one line is written directly (above). Fastify's
 * `childLoggerFactory`.
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
