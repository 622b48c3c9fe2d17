import type { FastifyRequest } from 'fastify'
import { errorBody, type DevutilsError } from '../core/errors.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived, for meta.processingTime. */
    startedAt: number
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

export function success(request: FastifyRequest, data: unknown) {
  return { success: true as const, data, meta: meta(request) }
}

export function failure(error: DevutilsError, requestMeta: Meta) {
  return { success: false as const, error: errorBody(error), meta: requestMeta }
}
