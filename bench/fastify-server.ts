import { randomUUID } from 'node:crypto'
import Fastify from 'fastify'
import { addDuty, DUTY_VARIABLE } from './duties.ts'

/**
 * Fastify alone: the bare node:http baseline's small base64 encode, answered in the service's
 * envelope (success, data, meta with processingTime and requestId; X-Request-Id) through Fastify's
 * defaults (its JSON parser, router and serializer), with no plugin, no hook and no logging. The
 * bar of the saturation target is measured against it.
 *
 * With BENCH_DUTY=<duty>:<ours|plugin> (bench/duties.ts), it gets the service's first and last hooks
 * and one duty, done by the service's own code or by the plugin for it: the A/B of `--only duties`.
 */
const app = Fastify({ logger: false, genReqId: () => randomUUID() })

const duty = process.env[DUTY_VARIABLE]
if (duty) await addDuty(app, duty, Number(process.env.RATE_LIMIT_MAX))

app.post('/api/v1/base64', (request, reply) => {
  const startedAt = performance.now()
  const input = (request.body as { input?: unknown } | null)?.input
  const meta = () => ({ processingTime: Math.round((performance.now() - startedAt) * 1000) / 1000, requestId: request.id })
  reply.header('x-request-id', request.id)
  if (typeof input !== 'string')
    return reply.code(400).send({ success: false, error: { code: 'VALIDATION_ERROR', message: 'input must be a string' }, meta: meta() })
  return reply.send({ success: true, data: { result: Buffer.from(input, 'utf8').toString('base64'), action: 'encode' }, meta: meta() })
})
app.get('/health', (_request, reply) => reply.send({ success: true, data: { status: 'ok' } }))

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' })
process.once('SIGTERM', () => app.close().then(() => process.exit(0)))
