import type { IncomingHttpHeaders, ServerResponse } from 'node:http'

/**
 * What the service's per-request duties (protection.ts, the envelope, the request log and metrics)
 * read of a request. Fastify's request has all of it (`startedAt` and `routeUrl` are decorated in
 * app.ts); so does a request that direct-route.ts answers without Fastify.
 */
export interface ServedRequest {
  readonly id: string
  readonly method: string
  readonly url: string
  readonly ip: string
  readonly headers: IncomingHttpHeaders
  /** performance.now() when the request arrived, for meta.processingTime and the log. */
  readonly startedAt: number
  /** The path of the route that answers the request, undefined for an unknown path. */
  readonly routeUrl: string | undefined
}

/** Where those duties put a response's headers: Fastify's reply, or a directly answered request's own. */
export interface ServedReply {
  header(name: string, value: string): unknown
  headers(values: Record<string, string>): unknown
  readonly raw: ServerResponse
}
