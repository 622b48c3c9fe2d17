import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { API_PREFIX } from '../core/catalogue.ts'

/**
 * The operation a request is counted under: the operation's name for its routes, the route path
 * for the service's own routes, and one label for everything unknown (so that random URLs cannot
 * blow up the metric's cardinality).
 */
function operationLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url
  if (route === undefined) return 'unknown'
  return route.startsWith(`${API_PREFIX}/`) ? route.slice(API_PREFIX.length + 1) : route
}

/** Prometheus metrics at /metrics and one JSON log line per request: id, operation, status, time. */
export function registerObservability(app: FastifyInstance): void {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'devutils_http_requests_total',
    help: 'HTTP requests answered, by operation, method and status.',
    labelNames: ['operation', 'method', 'status'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'devutils_http_request_duration_seconds',
    help: 'Time from request to response, by operation and status.',
    labelNames: ['operation', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })

  app.addHook('onResponse', async (request, reply) => {
    const operation = operationLabel(request)
    const status = String(reply.statusCode)
    const seconds = (performance.now() - request.startedAt) / 1000
    requests.inc({ operation, method: request.method, status })
    duration.observe({ operation, status }, seconds)
    // Never the body, the query string or headers: they may carry inputs and keys.
    request.log.info(
      { operation, method: request.method, path: request.url.split('?')[0], status: reply.statusCode, responseTime: Math.round(seconds * 1e6) / 1000 },
      'request completed',
    )
  })

  app.get('/metrics', { schema: { tags: ['service'], summary: 'Prometheus metrics: requests and latency per operation and status, event-loop lag, process metrics' } }, async (_request, reply) => {
    reply.type(registry.contentType)
    return registry.metrics()
  })
}
