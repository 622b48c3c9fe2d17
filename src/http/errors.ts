import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { API_PREFIX } from '../core/catalogue.ts'
import { describeDefect } from '../core/defects.ts'
import { asksForRetry, failure, JSON_CONTENT_TYPE, meta } from '../core/envelope.ts'
import { DevutilsError, type ErrorCode, INTERNAL_ERROR_MESSAGE, isDevutilsError } from '../core/errors.ts'
import { closeLingering, discardLingering, type LingerBounds } from './lingering-close.ts'

/**
 * node:http's reason phrases, read through `require`: an ES import of node:http makes Node build
 * the module's ES facade, which reads every export, and the lazy ones load undici (fetch, WebSocket)
 * at every start of a server that never uses it.
 */
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http')

/** Errors Fastify raises by itself, translated into our codes and plain sentences. */
const FASTIFY_ERRORS: Record<string, (error: FastifyLikeError, bodyLimit: number) => DevutilsError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new DevutilsError('UNSUPPORTED_MEDIA_TYPE', 'The body must be sent with Content-Type: application/json'),
  FST_ERR_CTP_BODY_TOO_LARGE: (_error, bodyLimit) =>
    new DevutilsError('PAYLOAD_TOO_LARGE', `The body is larger than the ${bodyLimit}-byte limit`, { limit: bodyLimit }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new DevutilsError('INVALID_JSON', 'The body is empty; send a JSON object such as {"input": "hello"}'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new DevutilsError('BAD_REQUEST', 'The Content-Length header does not match the body'),
  FST_ERR_BAD_URL: () => new DevutilsError('BAD_REQUEST', 'The request URL is malformed'),
  FST_ERR_ASYNC_CONSTRAINT: () => new DevutilsError('BAD_REQUEST', 'The request could not be routed'),
}

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'OVERLOADED',
}

interface FastifyLikeError {
  code?: string
  statusCode?: number
  message?: string
}

/**
 * Any error, from an operation, from Fastify or from a plugin, as a DevutilsError. Unknown errors
 * become INTERNAL_ERROR with a fixed message, so internals never leave the service.
 */
export function toDevutilsError(error: unknown, bodyLimit: number): DevutilsError {
  if (isDevutilsError(error)) return error
  const candidate = (error ?? {}) as FastifyLikeError
  const known = candidate.code ? FASTIFY_ERRORS[candidate.code] : undefined
  if (known) return known(candidate, bodyLimit)
  const status = candidate.statusCode
  const code = status !== undefined && status < 500 ? CODE_BY_STATUS[status] : undefined
  if (code) return new DevutilsError(code, candidate.message || STATUS_CODES[status!] || 'The request was refused')
  return new DevutilsError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE)
}

/**
 * Answers requests that Node's HTTP parser rejects before Fastify sees them (malformed requests,
 * oversized headers, timeouts), in the same envelope, with the headers every response carries,
 * written straight to the socket. Fastify calls it with the instance as `this`, for its logger.
 * The connection then lingers (lingering-close.ts), so that a client still sending reads the
 * answer: after a malformed request, Node's parser hands each later chunk here as an error again,
 * which is only counted. A lingering connection whose request runs past its timeout ends at once.
 */
export function clientErrorHandler(lingering: LingerBounds) {
  return function answerClientError(this: FastifyInstance, error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    if (!timedOut && discardLingering(socket, Buffer.isBuffer(error.rawPacket) ? error.rawPacket.length : 0)) return
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const devutilsError = timedOut
      ? new DevutilsError('REQUEST_TIMEOUT', 'The request was not received in time; the connection is closed')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new DevutilsError('HEADERS_TOO_LARGE', 'The request headers are too large')
        : new DevutilsError('BAD_REQUEST', 'The HTTP request is malformed')
    const requestId = randomUUID()
    const body = JSON.stringify(failure(devutilsError, { processingTime: 0, requestId }))
    this.log.info({ requestId, status: devutilsError.status, code: devutilsError.code }, 'request refused before routing')
    socket.write(
      `HTTP/1.1 ${devutilsError.status} ${STATUS_CODES[devutilsError.status]}\r\n` +
        `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Access-Control-Allow-Origin: *\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        "Content-Security-Policy: default-src 'none'\r\n" +
        'Connection: close\r\n\r\n' +
        body,
    )
    closeLingering(socket, lingering)
  }
}

/**
 * How a failed request is answered, whatever raised the error: the envelope with the error's status
 * and code, Retry-After where it asks for a retry, and a defect (500) logged with its causes and
 * stacks but answered with a fixed message. Unknown paths are 404, known paths with another method
 * 405 with an Allow header.
 */
export const errorAnswers = fastifyPlugin(
  async function errorAnswers(app: FastifyInstance, { bodyLimit }: { bodyLimit: number }) {
    app.setErrorHandler((error, request, reply) => {
      const devutilsError = toDevutilsError(error, bodyLimit)
      // Only a defect is logged with its stack: a 503 (load shed, time budget) is the service working
      // as designed, already in the request's own log line, and mapping a stack to the sources reads
      // large source maps, which has no place in the middle of an overload.
      if (devutilsError.code === 'INTERNAL_ERROR') request.log.error({ defect: describeDefect(error) }, 'request failed')
      return sendError(request, reply, devutilsError)
    })

    const methodsByPath = new Map<string, Set<string>>()
    app.addHook('onRoute', (route) => {
      const methods = methodsByPath.get(route.url) ?? new Set<string>()
      for (const method of [route.method].flat()) methods.add(method)
      methodsByPath.set(route.url, methods)
    })
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0].replace(/(.)\/$/, '$1')
      const allowed = methodsByPath.get(path)
      if (allowed) {
        const allow = [...allowed].sort().join(', ')
        reply.header('allow', allow)
        return sendError(request, reply, new DevutilsError('METHOD_NOT_ALLOWED', `${path} does not answer ${request.method}; it answers ${allow}`))
      }
      if (path.startsWith(`${API_PREFIX}/`)) {
        const name = path.slice(API_PREFIX.length + 1)
        return sendError(request, reply, new DevutilsError('UNKNOWN_OPERATION', `There is no operation named '${name}'; GET ${API_PREFIX} lists them all`))
      }
      return sendError(
        request,
        reply,
        new DevutilsError('NOT_FOUND', `Nothing is served at ${path}; the API lives under ${API_PREFIX}, its reference at /docs and the toolbox at /`),
      )
    })
  },
  { name: 'errorAnswers' },
)

function sendError(request: FastifyRequest, reply: FastifyReply, error: DevutilsError) {
  if (asksForRetry(error)) reply.header('retry-after', reply.getHeader('retry-after') ?? '1')
  return reply
    .code(error.status)
    .type(JSON_CONTENT_TYPE)
    .send(failure(error, meta(request)))
}
