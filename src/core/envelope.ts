import { randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { type DevutilsError, errorBody } from './errors.ts'
import type { JsonData } from './execute.ts'

/**
 * The envelope every answer goes out in, on every surface: `{ success, data, meta }` or
 * `{ success, error, meta }`.
 */
export interface Meta {
  processingTime: number
  requestId: string
}

/** What a call contributes to its answer's meta: when it arrived (performance.now()), and its id. */
export interface Timed {
  readonly startedAt: number
  readonly id: string
}

export function meta(call: Timed): Meta {
  return { processingTime: processingTimeSince(call.startedAt ?? performance.now()), requestId: call.id }
}

/** The milliseconds since `startedAt` (performance.now()), to the microsecond, as `meta.processingTime` gives them. */
export function processingTimeSince(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 1000) / 1000
}

export function success<T>(call: Timed, data: T) {
  return { success: true as const, data, meta: meta(call) }
}

const SUCCESS_HEAD = '{"success":true,"data":'
const SUCCESS_HEAD_BYTES = Buffer.from(SUCCESS_HEAD)

/**
 * The text of `success(call, data)` for data already serialized (see `executeToJson`), with the
 * same keys in the same order: the JSON is written around it, never parsed again.
 */
export function successJson(call: Timed, data: JsonData): string | Buffer {
  const tail = `,"meta":${JSON.stringify(meta(call))}}`
  return typeof data === 'string' ? SUCCESS_HEAD + data + tail : Buffer.concat([SUCCESS_HEAD_BYTES, data, Buffer.from(tail)])
}

export function failure(error: DevutilsError, callMeta: Meta) {
  return { success: false as const, error: errorBody(error), meta: callMeta }
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
