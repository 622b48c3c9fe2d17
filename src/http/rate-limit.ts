import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { DevutilsError } from '../core/errors.ts'

/** One client's count in its current window, and when that window ends (ms since the epoch). */
export interface WindowCount {
  count: number
  resetsAt: number
}

/**
 * Where counts are kept: in this process, or in Redis shared by every instance. A fixed window per
 * client that starts with its first request: RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW.
 */
export interface CountStore {
  /** Counts one request of `client` and answers its count so far; a promise only when the count lives elsewhere. */
  hit(client: string, now: number): WindowCount | Promise<WindowCount>
}

/**
 * The most clients remembered at once in memory. Past it, the clients whose windows started first
 * are forgotten (and start again from zero), so a flood of addresses cannot grow memory without bound.
 */
const MAX_CLIENTS_IN_MEMORY = 100_000

/**
 * Counts in a Map kept in the order the windows started (a client whose window restarts moves to
 * the end), so ended windows are always at the front: they are removed once the first of them has
 * ended, or when the Map is full, and a hit that finds neither walks nothing.
 */
export function memoryStore(windowMs: number): CountStore {
  const windows = new Map<string, WindowCount>()
  let firstEnds = Number.POSITIVE_INFINITY
  const forgetEnded = (now: number) => {
    firstEnds = Number.POSITIVE_INFINITY
    for (const [oldest, window] of windows) {
      if (window.resetsAt > now && windows.size < MAX_CLIENTS_IN_MEMORY) {
        firstEnds = window.resetsAt
        return
      }
      windows.delete(oldest)
    }
  }
  return {
    hit(client, now) {
      if (now >= firstEnds || windows.size >= MAX_CLIENTS_IN_MEMORY) forgetEnded(now)
      let window = windows.get(client)
      if (window === undefined || window.resetsAt <= now) {
        windows.delete(client)
        window = { count: 0, resetsAt: now + windowMs }
        windows.set(client, window)
        firstEnds = Math.min(firstEnds, window.resetsAt)
      }
      window.count++
      return window
    },
  }
}

/** Counts one request and reads what is left of the window, in one atomic step on the Redis server. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`

const KEY_PREFIX = 'devutils:ratelimit:'

/** Counts shared by every instance that uses the same Redis. */
export function redisStore(redis: Redis, windowMs: number): CountStore {
  redis.defineCommand('devutilsRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT })
  const hit = (redis as unknown as { devutilsRateLimitHit(key: string, windowMs: number): Promise<[number, number]> }).devutilsRateLimitHit.bind(redis)
  return {
    async hit(client, now) {
      const [count, ttl] = await hit(KEY_PREFIX + client, windowMs)
      return { count, resetsAt: now + ttl }
    },
  }
}

export interface RateLimitOptions {
  max: number
  windowMs: number
  store: CountStore
  /** Routes that are never counted (probes and scrapers). */
  unlimitedRoutes: ReadonlySet<string>
}

/** What a request is refused with, or undefined when it may go on; a promise only where the count lives elsewhere. */
export type Refusal = DevutilsError | undefined

/** The name of the one quota policy, as the RateLimit-Policy and RateLimit headers refer to it. */
const POLICY = '"default"'

/**
 * RATE_LIMIT_MAX requests per window per client address (TRUST_PROXY decides what that is). Every
 * counted answer carries the IETF draft's RateLimit-Policy (the quota and its window) and RateLimit
 * (what is left, and in how many seconds the window ends), and beside them the earlier draft's
 * RateLimit-Limit, -Remaining and -Reset, which many clients still read; past the limit it is 429
 * RATE_LIMITED with Retry-After. Unknown paths are counted too, since scanners send those. If the
 * store fails (Redis unreachable), the request is served without a count: the limiter fails open.
 * It answers a function that counts one request (`route` is the request's route path, undefined for
 * an unknown path), called by protection.ts's onRequest hook; in memory it is synchronous.
 * Ours rather than @fastify/rate-limit, which with the others pushed a small request past its target (docs/PERFORMANCE.md, "Duties").
 */
export function rateLimiter({ max, windowMs, store, unlimitedRoutes }: RateLimitOptions) {
  const limit = String(max)
  const policy = `${POLICY};q=${max};w=${Math.ceil(windowMs / 1000)}`
  const answer = (reply: FastifyReply, { count, resetsAt }: WindowCount, now: number): Refusal => {
    const secondsLeft = String(Math.max(1, Math.ceil((resetsAt - now) / 1000)))
    const remaining = String(Math.max(0, max - count))
    reply.header('ratelimit-policy', policy)
    reply.header('ratelimit', `${POLICY};r=${remaining};t=${secondsLeft}`)
    reply.header('ratelimit-limit', limit)
    reply.header('ratelimit-remaining', remaining)
    reply.header('ratelimit-reset', secondsLeft)
    if (count <= max) return undefined
    reply.header('retry-after', secondsLeft)
    return new DevutilsError('RATE_LIMITED', `Too many requests: the limit is ${max} per ${Math.round(windowMs / 1000)} s; retry in ${secondsLeft} s`, {
      limit: max,
      windowMs,
    })
  }
  return (request: FastifyRequest, reply: FastifyReply, route: string | undefined): Refusal | Promise<Refusal> => {
    if (route !== undefined && unlimitedRoutes.has(route)) return undefined
    const now = Date.now()
    const counted = store.hit(request.ip, now)
    if (counted instanceof Promise) {
      return counted.then(
        (window) => answer(reply, window, now),
        () => undefined,
      )
    }
    return answer(reply, counted, now)
  }
}
