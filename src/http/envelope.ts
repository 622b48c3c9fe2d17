import { randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { type DevutilsError, errorBody } from '../core/errors.ts'
import type { JsonData } from '../core/execute.ts'
import type { ServedRequest } from './exchange.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived, for meta.processingTime. */
    startedAt: number
    /** The path of the route that answers the request (`routeOptions.url`), undefined for an unknown path. */
    routeUrl: string | undefined
  }
}

export interface Meta {
  processingTime: number
  requestId: string
}

/** The request's part in its answer's meta: when it arrived, and its id. */
type Timed = Pick<ServedRequest, 'startedAt' | 'id'>

export function meta(request: Timed): Meta {
  const elapsed = performance.now() - (request.startedAt ?? performance.now())
  return { processingTime: Math.round(elapsed * 1000) / 1000, requestId: request.id }
}

export function success<T>(request: Timed, data: T) {
  return { success: true as const, data, meta: meta(request) }
}

const SUCCESS_HEAD = '{"success":true,"data":'
const SUCCESS_HEAD_BYTES = Buffer.from(SUCCESS_HEAD)

/**
 * The text of `success(request, data)` for data already serialized (see `executeToJson`), with the
 * same keys in the same order: the JSON is written around it, never parsed again.
 */
export function successJson(request: Timed, data: JsonData): string | Buffer {
  const tail = `,"meta":${JSON.stringify(meta(request))}}`
  return typeof data === 'string' ? SUCCESS_HEAD + data + tail : Buffer.concat([SUCCESS_HEAD_BYTES, data, Buffer.from(tail)])
}

export function failure(error: DevutilsError, requestMeta: Meta) {
  return { success: false as const, error: errorBody(error), meta: requestMeta }
}

/** The media type of the service's JSON answers: envelopes, and MCP's JSON-RPC errors. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** An X-Request-Id a client may choose: kept as the request's id when it looks like one, else replaced. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** A request's id: the client's X-Request-Id when it is a plain token, a new UUID otherwise. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const supplied = headers['x-request-id']
  return typeof supplied === 'string' && CLIENT_REQUEST_ID.test(supplied) ? supplied : randomUUID()
}

/** Whether an error's answer tells the client when to retry (Retry-After): overload and rate limits. */
export function asksForRetry(error: DevutilsError): boolean {
  return error.status === 503 || error.status === 429
}
