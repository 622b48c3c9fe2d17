import helmet from '@fastify/helmet'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { pino } from 'pino'
import { DevutilsError } from '../src/core/errors.ts'
import { bufferedStandardOutput } from '../src/http/log-output.ts'
import { completionLineWriter, LOG_BASE, type LogStream } from '../src/http/observability.ts'
import { apiHeaders, securityHeaders } from '../src/http/protection.ts'
import { memoryStore, type Refusal, rateLimiter } from '../src/http/rate-limit.ts'
import { RequestMetrics } from '../src/http/request-metrics.ts'

/**
 * The duties the service does with code of its own where a Fastify plugin or pino does the same
 * job, each with what "ours" and "the plugin" are in the A/B (`npm run bench -- --only duties`).
 */
export const DUTIES = {
  'rate-limit': {
    ours: '`rateLimiter` with `memoryStore` (rate-limit.ts), in the onRequest hook',
    plugin: '`@fastify/rate-limit` (its in-memory store, the draft-06 fields), RateLimit-Policy and RateLimit added in an onSend hook',
  },
  'security-headers': {
    ours: "helmet's headers worked out once (`securityHeaders`, `apiHeaders` in protection.ts), set as constants",
    plugin: '`@fastify/helmet` with the same three headers, Cache-Control set beside it',
  },
  'log-output': {
    ours: 'the request line written through `bufferedStandardOutput` (log-output.ts)',
    plugin: "the same line through pino's own destination (`pino.destination`: asynchronous, 4 KiB at a time, flushed every second)",
  },
  'log-line': {
    ours: 'the request line built by `completionLineWriter` (observability.ts)',
    plugin: "the same line written by pino's logger (`logger.info` with the request id and the fields)",
  },
} as const

const WINDOW_MS = 60_000

export type Duty = keyof typeof DUTIES
export type Variant = 'ours' | 'plugin'
export const DUTY_NAMES = Object.keys(DUTIES) as Duty[]

/** The environment variable of the Fastify reference server that adds a duty: `<duty>:<ours|plugin>`. */
export const DUTY_VARIABLE = 'BENCH_DUTY'

declare module 'fastify' {
  interface FastifyRequest {
    startedAt: number
  }
}

/**
 * Gives the Fastify reference server the service's first and last hooks (an onRequest hook that
 * notes the start and sets X-Request-Id, an onResponse hook that counts the request in the
 * metrics), then one duty, done by the service's own code or by the plugin (or pino). The two
 * variants send the same headers and the same log line (the bench checks the headers), so the
 * difference between them is what the plugin costs over ours in a request shaped like the service's.
 */
export async function addDuty(app: FastifyInstance, setting: string, rateLimitMax: number): Promise<void> {
  const [duty, variant] = setting.split(':') as [Duty, Variant]
  if (!(duty in DUTIES) || (variant !== 'ours' && variant !== 'plugin'))
    throw new Error(`${DUTY_VARIABLE} takes <${DUTY_NAMES.join('|')}>:<ours|plugin>, not ${setting}`)
  const plugin = variant === 'plugin'
  // What the onRequest hook sets and checks when ours does the duty.
  let constantHeaders: Record<string, string> | undefined
  let check: ((request: FastifyRequest, reply: FastifyReply) => Refusal | Promise<Refusal>) | undefined
  let writeLine: ((request: FastifyRequest, status: number, milliseconds: number) => void) | undefined

  if (duty === 'rate-limit') {
    if (plugin) {
      await app.register(rateLimit, {
        max: rateLimitMax,
        timeWindow: WINDOW_MS,
        enableDraftSpec: true,
        cache: 100_000,
        skipOnError: true,
        errorResponseBuilder: (_request, context) => new DevutilsError('RATE_LIMITED', `Too many requests; retry in ${context.after}`),
      })
      const policy = `"default";q=${rateLimitMax};w=${WINDOW_MS / 1000}`
      app.addHook('onSend', (_request, reply, payload, done) => {
        const remaining = reply.getHeader('ratelimit-remaining')
        if (remaining !== undefined) {
          reply.header('ratelimit-policy', policy)
          reply.header('ratelimit', `"default";r=${remaining};t=${reply.getHeader('ratelimit-reset')}`)
        }
        done(null, payload)
      })
    } else {
      const count = rateLimiter({ max: rateLimitMax, windowMs: WINDOW_MS, store: memoryStore(WINDOW_MS), unlimitedRoutes: new Set(['/health']) })
      check = (request, reply) => count(request, reply, request.routeOptions.url)
    }
  } else if (duty === 'security-headers') {
    if (plugin) {
      constantHeaders = { 'cache-control': 'no-store' }
      await app.register(helmet, {
        contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
        crossOriginEmbedderPolicy: false,
        crossOriginOpenerPolicy: false,
        crossOriginResourcePolicy: false,
        originAgentCluster: false,
        referrerPolicy: false,
        xDnsPrefetchControl: false,
        xDownloadOptions: false,
        xFrameOptions: false,
        xPermittedCrossDomainPolicies: false,
        xXssProtection: false,
      })
    } else {
      constantHeaders = apiHeaders(securityHeaders())
    }
  } else {
    const destination: LogStream =
      duty === 'log-output' && plugin ? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 }) : bufferedStandardOutput().destination
    const logger = pino({ level: 'info', base: LOG_BASE }, destination)
    const operation = { label: 'base64', quoted: '"base64"' }
    if (duty === 'log-line' && plugin) {
      writeLine = (request, status, responseTime) => {
        const query = request.url.indexOf('?')
        const path = query === -1 ? request.url : request.url.slice(0, query)
        logger.info({ requestId: request.id, operation: operation.label, method: request.method, path, status, responseTime }, 'request completed')
      }
    } else {
      const write = completionLineWriter(logger, destination)!
      writeLine = (request, status, milliseconds) => write(request, operation, status, milliseconds)
    }
  }

  const metrics = new RequestMetrics()
  app.decorateRequest('startedAt', 0)
  app.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now()
    reply.header('x-request-id', request.id)
    if (constantHeaders) reply.headers(constantHeaders)
    const refusal = check?.(request, reply)
    if (refusal instanceof Promise) refusal.then(done)
    else done(refusal)
  })
  app.addHook('onResponse', (request, reply, done) => {
    const seconds = (performance.now() - request.startedAt) / 1000
    metrics.record('base64', request.method, reply.statusCode, seconds)
    writeLine?.(request, reply.statusCode, Math.round(seconds * 1e6) / 1000)
    done()
  })
}
