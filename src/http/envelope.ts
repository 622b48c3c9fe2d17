import type { FastifyRequest } from 'fastify'
import { type DevutilsError, errorBody } from '../core/errors.ts'
import type { JsonData } from '../core/execute.ts'

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

export function meta(request: FastifyRequest): Meta {
  const elapsed = performance.now() - (request.startedAt ?? performance.now())
  return { processingTime: Math.round(elapsed * 1000) / 1000, requestId: request.id }
}

export function success<T>(request: FastifyRequest, data: T) {
  return { success: true as const, data, meta: meta(request) }
}

const SUCCESS_HEAD = '{"success":true,"data":'
const SUCCESS_HEAD_BYTES = Buffer.from(SUCCESS_HEAD)

/**
 * The text of `success(request, data)` for data already serialized (see `executeToJson`), with the
 * same keys in the same order: the JSON is written around it, never parsed again.
 */
export function successJson(request: FastifyRequest, data: JsonData): string | Buffer {
  const tail = `,"meta":${JSON.stringify(meta(request))}}`
  return typeof data === 'string' ? SUCCESS_HEAD + data + tail : Buffer.concat([SUCCESS_HEAD_BYTES, data, Buffer.from(tail)])
}

export function failure(error: DevutilsError, requestMeta: Meta) {
  return { success: false as const, error: errorBody(error), meta: requestMeta }
}
