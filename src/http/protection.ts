import type { IncomingMessage, ServerResponse } from 'node:http'
import cors from '@fastify/cors'
import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import helmet from 'helmet'
import type { Redis } from 'ioredis'
import { commonJsExports } from '../core/commonjs.ts'
import type { Config } from '../core/config.ts'
import { DevutilsError } from '../core/errors.ts'
import { BODY_MEMORY_BUDGET_BYTES, bodyBudgetCheck, MemoryBudget } from './memory-budget.ts'
import { memoryStore, rateLimiter, redisStore } from './rate-limit.ts'

/**
 * When the event loop lags this long, or bodies in flight would hold more memory than the budget,
 * new requests are shed with 503 OVERLOADED.
 */
export interface OverloadLimits {
  maxEventLoopDelayMs: number
  sampleIntervalMs: number
  /** The memory budget of bodies in flight, in bytes (see memory-budget.ts). */
  bodyMemoryBudgetBytes?: number
}

export const DEFAULT_OVERLOAD_LIMITS: OverloadLimits = {
  maxEventLoopDelayMs: 1000,
  sampleIntervalMs: 500,
  bodyMemoryBudgetBytes: BODY_MEMORY_BUDGET_BYTES,
}

/**
 * Routes that are never rate limited: those probes and scrapers call, and CORS preflights (the
 * OPTIONS route `*`), which a browser sends ahead of a request that is itself counted.
 */
const UNLIMITED_ROUTES = new Set(['/health', '/ready', '/metrics', '*'])

/**
 * The route options of the probes and the scrape, which are answered while load is shed: an
 * orchestrator that saw a busy instance fail its liveness probe would restart it, and a scrape
 * under load is when its figures matter. A per-route handler of @fastify/under-pressure that
 * answers nothing lets the request through.
 */
export const ANSWERED_UNDER_LOAD = { config: { pressureHandler: () => undefined } }

/**
 * CORS for any origin and no credentials (@fastify/cors): what a browser may read of an answer, and
 * what a preflight allows. Any OPTIONS request gets a preflight's answer, rather than a 404.
 */
const CORS_OPTIONS = {
  origin: '*',
  exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Policy', 'RateLimit', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
  methods: ['GET', 'POST'],
  // MCP clients in a browser send the protocol's own headers (Streamable HTTP at /mcp).
  allowedHeaders: ['Content-Type', 'X-Request-Id', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
  maxAge: 86400,
  strictPreflight: false,
}

const HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  // The docs page (Swagger UI) loads its scripts and styles from this origin only; its components
  // set inline styles, and its images are data: URLs.
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // A public API called from any origin: no cross-origin isolation that would block those callers.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
  crossOriginEmbedderPolicy: false,
}

/**
 * helmet's security headers, computed once by running its middleware against a response that only
 * records them: they are the same for every response here (no nonces, no per-route settings).
 * Ours rather than @fastify/helmet, which runs helmet anew for every request (docs/PERFORMANCE.md, "Duties").
 */
export function securityHeaders(options = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value
    },
    // X-Powered-By, which neither Fastify nor node:http sends.
    removeHeader: () => {},
  }
  let finished = false
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error
    finished = true
  })
  if (!finished) throw new Error('helmet did not set its headers synchronously')
  return headers
}

/** HTML pages, which get helmet's whole set: the docs page and whatever is served under it. */
const isPage = (url: string) => url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?')

/**
 * What an answer that no browser renders needs (JSON, metrics): not cached, no content allowed to
 * load or frame it should it ever be rendered, no type sniffing, and HTTPS only. helmet's other
 * headers concern pages.
 */
export function apiHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  return {
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'strict-transport-security': pageHeaders['strict-transport-security'],
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived, for meta.processingTime and the request's log line. */
    startedAt: number
    /** The path of the route that answers the request (`routeOptions.url`), undefined for an unknown path. */
    routeUrl: string | undefined
  }
}

export interface ProtectionOptions {
  config: Config
  overload: OverloadLimits
}

/**
 * The duties every request goes through before its route runs, on the whole app (so every route
 * and the not-found handler are covered), in this order: its id and start time and its security
 * headers (helmet's whole set on HTML pages, the few an API needs on the rest); CORS, which answers
 * preflights (@fastify/cors); load shedding (@fastify/under-pressure); rate limiting (rate-limit.ts)
 * and the memory budget of bodies in flight. Every refusal (429, 503) therefore carries the id,
 * the security headers and CORS.
 */
export const protection = fastifyPlugin(
  async function protection(app: FastifyInstance, { config, overload }: ProtectionOptions) {
    const security = securityHeaders()
    const answerHeaders = apiHeaders(security)
    app.decorateRequest('startedAt', 0)
    app.decorateRequest('routeUrl', undefined)
    app.addHook('onRequest', (request, reply, done) => {
      request.startedAt = performance.now()
      // Read once: Fastify builds a new routeOptions object on each read.
      request.routeUrl = request.routeOptions.url
      reply.header('x-request-id', request.id).headers(isPage(request.url) ? security : answerHeaders)
      done()
    })
    await app.register(cors, CORS_OPTIONS)
    if (overload.maxEventLoopDelayMs > 0) {
      await app.register(underPressure, {
        maxEventLoopDelay: overload.maxEventLoopDelayMs,
        sampleInterval: overload.sampleIntervalMs,
        pressureHandler: () => Promise.reject(new DevutilsError('OVERLOADED', 'The service is overloaded; retry in a moment')),
      })
    }
    const countRequest = config.rateLimitMax > 0 ? await rateLimit(app, config) : undefined
    const reserveBody = bodyBudgetCheck(new MemoryBudget(overload.bodyMemoryBudgetBytes ?? BODY_MEMORY_BUDGET_BYTES), config.bodyLimit)
    app.addHook('onRequest', (request, reply, done) => {
      const counted = countRequest?.(request, reply, request.routeUrl)
      // After the rate limit, so that a client past its limit is told so and reserves nothing.
      if (counted instanceof Promise) counted.then((refusal) => done(refusal ?? reserveBody(request, reply)))
      else done(counted ?? reserveBody(request, reply))
    })
  },
  { name: 'protection' },
)

async function rateLimit(app: FastifyInstance, config: Config) {
  const windowMs = config.rateLimitWindow
  const store = config.redisUrl ? redisStore(await connectRedis(app, config.redisUrl), windowMs) : memoryStore(windowMs)
  return rateLimiter({ max: config.rateLimitMax, windowMs, store, unlimitedRoutes: UNLIMITED_ROUTES })
}

/**
 * A Redis client that never makes a request wait: no offline queue, one retry, short timeouts.
 * ioredis's defaults queue commands while Redis is down, which would hold every request with them.
 * ioredis is loaded only here: an instance without REDIS_URL never reads or compiles it.
 */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const { Redis } = commonJsExports(await import('ioredis'))
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 500,
    commandTimeout: 250,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
  })
  let healthy = true
  let closing = false
  const lost = (reason: string) => {
    if (healthy && !closing) app.log.warn({ reason }, 'rate-limit store unreachable: requests are served without limits until it is back')
    healthy = false
  }
  redis.on('close', () => lost('connection closed'))
  redis.on('error', (error) => lost(error.message))
  redis.on('ready', () => {
    if (!healthy) app.log.info('rate-limit store reachable again')
    healthy = true
  })
  app.addHook('onClose', async () => {
    closing = true
    redis.disconnect()
  })
  return redis
}
