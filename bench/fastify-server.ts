import { randomUUID } from 'node:crypto'
import Fastify from 'fastify'

/**
 * Fastify alone, for information: the bare node:http baseline's small base64 encode and envelope
 * behind Fastify's defaults (its JSON parser and router, no plugins, no logging). Between the bare
 * server and the service, it shows what the framework itself costs a small request.
 */
const app = Fastify({ logger: false, genReqId: () => randomUUID() })

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
