import type { FastifyInstance } from 'fastify'
import type { Config } from '../src/core/config.ts'
import { buildApp } from '../src/http/app.ts'
import type { OverloadLimits } from '../src/http/protection.ts'

/**
 * A quiet app for `inject` tests. Load shedding is off unless a test asks for it: a test process
 * on a busy 2-core machine lags often enough to be shed, which is right in production but noise here.
 */
export function buildTestApp(
  config: Partial<Config> = {},
  overload: OverloadLimits = { maxEventLoopDelayMs: 0, sampleIntervalMs: 1000 },
): Promise<FastifyInstance> {
  return buildApp({ config: { logLevel: 'silent', ...config }, overload })
}

export interface Envelope {
  success: boolean
  data?: Record<string, unknown> & { result?: unknown }
  error?: { code: string; message: string; details?: unknown }
  meta: { processingTime: number; requestId: string }
}

/** POSTs a JSON body (an object, or raw text sent as it is) to an operation and parses the envelope. */
export async function post(app: FastifyInstance, operation: string, body: unknown) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/${operation}`,
    headers: { 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: response.statusCode, headers: response.headers, body: response.json() as Envelope }
}
