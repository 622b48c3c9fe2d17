import { createHash, randomUUID } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'

/**
 * The bare node:http reference the service is measured against: the practical limit for Node. Per
 * request it does the work the service cannot avoid: read the body, JSON.parse it, check that
 * `input` is a string, run the operation, and JSON.stringify the same envelope (processingTime and
 * a crypto.randomUUID requestId). No logging, metrics, security headers or rate limiting.
 */
const operations = new Map<string, (input: string) => Record<string, unknown>>([
  ['/api/v1/base64', (input) => ({ result: Buffer.from(input, 'utf8').toString('base64'), action: 'encode' })],
  ['/api/v1/hash', (input) => ({ result: createHash('sha256').update(input, 'utf8').digest('hex'), algorithm: 'sha256', encoding: 'hex', bits: 256 })],
])

function send(response: ServerResponse, status: number, requestId: string, envelope: unknown) {
  const text = JSON.stringify(envelope)
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'x-request-id': requestId })
  response.end(text)
}

const server = createServer((request, response) => {
  const startedAt = performance.now()
  const requestId = randomUUID()
  const meta = () => ({ processingTime: Math.round((performance.now() - startedAt) * 1000) / 1000, requestId })
  const fail = (status: number, code: string, message: string) => send(response, status, requestId, { success: false, error: { code, message }, meta: meta() })
  const path = request.url ?? ''
  if (request.method === 'GET' && path === '/health') return send(response, 200, requestId, { success: true, data: { status: 'ok' }, meta: meta() })
  const operation = request.method === 'POST' ? operations.get(path) : undefined
  if (!operation) {
    request.resume()
    return fail(404, 'NOT_FOUND', `Nothing is served at ${request.method} ${path}`)
  }
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    let body: unknown
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return fail(400, 'INVALID_JSON', 'The body is not valid JSON')
    }
    const input = (body as { input?: unknown } | null)?.input
    if (typeof input !== 'string') return fail(400, 'VALIDATION_ERROR', 'input must be a string')
    send(response, 200, requestId, { success: true, data: operation(input), meta: meta() })
  })
})

server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1')
process.once('SIGTERM', () => server.close(() => process.exit(0)))
