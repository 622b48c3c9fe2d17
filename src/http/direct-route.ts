import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import { API_PREFIX } from '../core/catalogue.ts'
import type { DevutilsError } from '../core/errors.ts'
import { executeBodyToJsonNow } from '../core/execute.ts'
import type { AnyOperation } from '../core/operation.ts'
import { asksForRetry, failure, JSON_CONTENT_TYPE, meta, requestIdOf, successJson } from './envelope.ts'
import type { ServedReply, ServedRequest } from './exchange.ts'
import type { ResponseRecorder } from './observability.ts'
import type { Protection } from './protection.ts'

/** TRUST_PROXY as app.ts gives it to Fastify: trust all, a test per address and hop, or a list of addresses and ranges. */
export type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean) | undefined

export interface DirectRouteOptions {
  operations: readonly AnyOperation[]
  bodyLimit: number
  timeBudgetMs: number
  trustProxy: TrustProxy
  /** The service's onRequest duties (protection.ts): headers, load shedding, rate limit, body budget. */
  protect: Protection
  recordResponse: ResponseRecorder
  /** Whether the instance takes new work: while it does not, Fastify answers every request. */
  ready: () => boolean
  /** The error a failure is answered with, as the app's error handler decides it (defects logged, internals hidden). */
  answerable: (error: unknown, request: ServedRequest) => DevutilsError
}

/** The bodies a direct answer reads: JSON in UTF-8, declared as most clients send it. */
const DIRECT_CONTENT_TYPES = new Set(['application/json', 'application/json; charset=utf-8'])

/**
 * The operations' POST routes, for requests of the everyday shape (exact path, JSON body of a
 * declared length within the limit), answered from node:http without Fastify's request lifecycle:
 * the same duties (protection.ts), the same execution, envelope, errors, log line and metrics, in
 * fewer steps, which measurably lightens a small request (docs/PERFORMANCE.md). Answers false for
 * every other request, which Fastify's routes then answer, as they answer `inject` in the tests;
 * test/direct-route.test.ts holds the two to the same answers.
 */
export function directOperationRoutes(options: DirectRouteOptions): (request: IncomingMessage, response: ServerResponse) => boolean {
  const byPath = new Map(options.operations.map((operation) => [`${API_PREFIX}/${operation.name}`, operation]))
  const clientAddress = clientAddressOf(options.trustProxy)
  return (request, response) => {
    if (request.method !== 'POST' || !options.ready()) return false
    const operation = byPath.get(request.url ?? '')
    if (operation === undefined || !hasEverydayBody(request.headers, options.bodyLimit)) return false
    const call = new DirectCall(request, clientAddress(request))
    const reply = new DirectReply(response, call.id)
    const answer = (status: number, body: string | Buffer) => reply.send(status, body, options.ready(), () => options.recordResponse(call, status))
    const fail = (error: unknown) => {
      const answerable = options.answerable(error, call)
      if (asksForRetry(answerable)) reply.values['retry-after'] ??= '1'
      answer(answerable.status, JSON.stringify(failure(answerable, meta(call))))
    }
    const run = (body: Buffer) => {
      const result = executeBodyToJsonNow(operation, body, { timeBudgetMs: options.timeBudgetMs })
      if (result instanceof Promise) result.then((data) => answer(200, successJson(call, data)), fail)
      else answer(200, successJson(call, result))
    }
    answeringThrows(fail, () =>
      options.protect(call, reply, (refusal) => {
        if (refusal) return fail(refusal)
        readBody(request, (body) => answeringThrows(fail, () => run(body)))
      }),
    )
    return true
  }
}

/** Runs `step`, answering whatever it throws as an error, as Fastify does around its hooks and handlers: nothing thrown here may reach the process. */
function answeringThrows(fail: (error: unknown) => void, step: () => void) {
  try {
    step()
  } catch (error) {
    fail(error)
  }
}

/** A body Fastify would read for these routes without a question: JSON, its length declared and within the limit. */
function hasEverydayBody(headers: IncomingHttpHeaders, bodyLimit: number): boolean {
  if (!DIRECT_CONTENT_TYPES.has(headers['content-type'] ?? '')) return false
  if (headers['transfer-encoding'] !== undefined || headers.expect !== undefined) return false
  const length = Number(headers['content-length'])
  return length > 0 && length <= bodyLimit
}

/** The client's address as Fastify's `request.ip` gives it for the same TRUST_PROXY. */
function clientAddressOf(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  if (trustProxy === undefined || trustProxy === false) return (request) => request.socket.remoteAddress ?? ''
  const trusted = typeof trustProxy === 'function' ? trustProxy : trustProxy === true ? () => true : proxyAddr.compile(trustProxy)
  return (request) => proxyAddr(request, trusted)
}

/** The whole body; nothing happens if the client goes away first (its reservation is released when the response closes). */
function readBody(request: IncomingMessage, then: (body: Buffer) => void) {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => then(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
  request.on('error', () => {})
}

class DirectCall implements ServedRequest {
  readonly id: string
  readonly method = 'POST'
  readonly url: string
  readonly routeUrl: string
  readonly headers: IncomingHttpHeaders
  readonly startedAt = performance.now()
  constructor(
    request: IncomingMessage,
    readonly ip: string,
  ) {
    this.id = requestIdOf(request.headers)
    this.headers = request.headers
    this.url = request.url as string
    this.routeUrl = this.url
  }
}

class DirectReply implements ServedReply {
  /** The answer's headers, in the order Fastify's reply would send them. */
  readonly values: Record<string, string>
  constructor(
    readonly raw: ServerResponse,
    requestId: string,
  ) {
    this.values = { 'x-request-id': requestId }
  }
  header(name: string, value: string) {
    this.values[name] = value
  }
  headers(values: Record<string, string>) {
    Object.assign(this.values, values)
  }
  send(status: number, body: string | Buffer, ready: boolean, onFinish: () => void) {
    this.values['content-type'] = JSON_CONTENT_TYPE
    this.values['content-length'] = String(Buffer.byteLength(body))
    // Once shutdown has begun, no connection is kept open for a next request (as app.ts's onSend hook does).
    if (!ready) this.values.connection = 'close'
    this.raw.once('finish', onFinish)
    this.raw.writeHead(status, this.values)
    this.raw.end(body)
  }
}
