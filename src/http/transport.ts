import type { Server } from 'node:http'
import type { FastifyHttpOptions, FastifyInstance } from 'fastify'
import { LogController } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import type { Config } from '../core/config.ts'
import { requestIdOf } from '../core/envelope.ts'
import { clientErrorHandler } from './errors.ts'
import { checkCharset } from './json-body.ts'
import { type LingerBounds, lingerAfterEarlyAnswer, lingerBounds } from './lingering-close.ts'
import type { bufferedStandardOutput } from './log-output.ts'
import { deferredChildLogger, LOG_BASE, type LogStream } from './observability.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this instance takes new work: false while starting and once shutdown has begun. */
    readiness: { ready: boolean }
  }
}

/**
 * The server's rules, as Fastify's options: timeouts, body limit, request ids, the logger, what a
 * malformed request is answered, and which proxies are trusted for the client's address.
 */
export function serverOptions(config: Config, logStream: LogStream | undefined): FastifyHttpOptions<Server> {
  return {
    // Longer than the idle timeout of common load balancers, so that the balancer, not the service,
    // closes an idle connection: otherwise a request it sends as the service closes fails (a 502).
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // A client must send its whole request within requestTimeout, and its headers within it too;
    // the checking interval decides how promptly a slow client is actually cut.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(config.requestTimeoutMs / 4))),
    },
    logger: logStream !== undefined && { level: config.logLevel, stream: logStream, base: LOG_BASE },
    // Our own onResponse line (observability.ts) replaces Fastify's, which would log the URL's query.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    childLoggerFactory: deferredChildLogger,
    trustProxy: parseTrustProxy(config.trustProxy),
    // While shutting down, requests still arriving on open connections are served (with
    // Connection: close); only /ready says 503, so that load balancers stop sending more.
    return503OnClosing: false,
    bodyLimit: config.bodyLimit,
    genReqId: (request) => requestIdOf(request.headers),
    clientErrorHandler: clientErrorHandler(lingerBounds(config)),
    routerOptions: { ignoreTrailingSlash: true },
  }
}

/** TRUST_PROXY: `true`, a hop count, or a comma-separated list of addresses and CIDR ranges. */
function parseTrustProxy(value: string | undefined): boolean | string[] | ((address: string, hop: number) => boolean) | undefined {
  if (value === undefined) return undefined
  if (value === 'true') return true
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    return (_address, hop) => hop < hops
  }
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
}

export interface TransportOptions {
  logOutput?: ReturnType<typeof bufferedStandardOutput>
  /** How long and how much a connection closed after an early answer is still read (lingerBounds). */
  lingering: LingerBounds
}

/**
 * How requests arrive and connections end: JSON bodies kept as bytes, readiness for start-up and
 * shutdown, a connection closed after an answer sent before the body arrived (a 413) left to
 * linger so that the client reads it, and the log output flushed when the server listens and closes.
 */
export const transport = fastifyPlugin(
  async function transport(app: FastifyInstance, { logOutput, lingering }: TransportOptions) {
    app.removeAllContentTypeParsers()
    // Bodies stay bytes here: each route parses its own (bodyBytes, parseJsonBody), so that a heavy
    // operation can hand a large body to a worker thread without parsing it on the event loop.
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      try {
        checkCharset(request)
        done(null, body)
      } catch (error) {
        done(error as Error, undefined)
      }
    })

    app.decorate('readiness', { ready: false })
    app.addHook('onReady', async () => {
      app.readiness.ready = true
    })
    app.addHook('preClose', async () => {
      app.readiness.ready = false
    })
    app.addHook('onSend', (request, reply, payload, done) => {
      // Once shutdown has begun, no connection is kept open for a next request, so the process can exit.
      if (!app.readiness.ready) reply.header('connection', 'close')
      if (!request.raw.complete) lingerAfterEarlyAnswer(request.raw, reply.raw, lingering)
      done(null, payload)
    })

    if (logOutput) {
      // The "Server listening" line is written at once, for whoever waits for it.
      app.addHook('onListen', (done) => {
        logOutput.flush()
        done()
      })
      app.addHook('onClose', async () => logOutput.close())
    }
  },
  { name: 'transport' },
)
