import { spawn } from 'node:child_process'
import http, { type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Client } from '@modelcontextprotocol/client'
import type { McpServer } from '@modelcontextprotocol/server'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../src/core/config.ts'
import { buildApp } from '../src/http/app.ts'
import type { OverloadLimits } from '../src/http/protection.ts'
import { ROOT } from './processes.ts'

/**
 * A quiet app for the HTTP tests. Load shedding is off unless a test asks for it: a test process
 * on a busy 2-core machine lags often enough to be shed, which is right in production but noise here.
 */
export function buildTestApp(
  config: Partial<Config> = {},
  overload: OverloadLimits = { maxEventLoopDelayMs: 0, sampleIntervalMs: 1000 },
): Promise<FastifyInstance> {
  return buildApp({ config: { logLevel: 'silent', ...config }, overload })
}

/**
 * Budgets for tests of answers, not of speed: a cold worker thread on a busy machine may take
 * seconds, and the thread, at a lower priority, may be starved past untrusted code's short budget.
 * The budgets have tests of their own.
 */
export const ROOMY_CONFIG = { timeBudgetMs: 60_000, regexTimeBudgetMs: 60_000, jqTimeBudgetMs: 60_000 } as const
/** ROOMY_CONFIG as `execute` takes it. */
export const ROOMY_BUDGETS = { timeBudgetMs: ROOMY_CONFIG.timeBudgetMs, codeBudgets: ROOMY_CONFIG }

const origins = new WeakMap<FastifyInstance, Promise<string>>()

/** Where `app` answers, `http://127.0.0.1:<port>`: the first call makes it listen on a free port of the loopback. */
export function originOf(app: FastifyInstance): Promise<string> {
  let origin = origins.get(app)
  if (origin === undefined) {
    const listening = app.server.listening ? Promise.resolve() : app.listen({ port: 0, host: '127.0.0.1' })
    origin = listening.then(() => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`)
    origins.set(app, origin)
  }
  return origin
}

export interface SocketRequest {
  method?: string
  /** The path and query string. */
  url: string
  headers?: Record<string, string>
  /** An object is sent as its `bodyText` (as `application/json` unless a content-type is given); text and bytes as they are. */
  payload?: unknown
  /** The client's address as the server sees it: one of the loopback's (127.0.0.0/8), which the socket is bound to. */
  remoteAddress?: string
}

/** An answer as it came over the socket, in the shape of `app.inject`'s. */
export interface SocketResponse {
  statusCode: number
  headers: IncomingHttpHeaders
  body: string
  /** The bytes as sent, before any decoding (a gzip body stays gzip). */
  rawPayload: Buffer
  // biome-ignore lint/suspicious/noExplicitAny: read as the test expects, as inject's json() is
  json(): any
}

/**
 * Sends one request to `app` as a client does, over a socket to its listener, so that it passes
 * through everything production runs (the HTTP parser, the connection's timeouts, the socket's
 * errors). Each request has a connection of its own: no test depends on a kept-alive one that the
 * server may be closing.
 */
export async function request(app: FastifyInstance, { method = 'GET', url, headers = {}, payload, remoteAddress }: SocketRequest): Promise<SocketResponse> {
  if (remoteAddress !== undefined && !remoteAddress.startsWith('127.'))
    throw new Error(`A socket comes from a loopback address (127.x.x.x), not ${remoteAddress}`)
  const origin = new URL(await originOf(app))
  const raw = typeof payload === 'string' || Buffer.isBuffer(payload)
  const body = payload === undefined || raw ? payload : bodyText(payload)
  const named = (header: string) => Object.keys(headers).some((name) => name.toLowerCase() === header)
  const sent: Record<string, string> = { ...headers }
  if (body !== undefined) {
    if (!raw && !named('content-type')) sent['content-type'] = 'application/json'
    // Node's client frames a body by itself for POST, PUT and PATCH only: a DELETE's would be sent unframed.
    if (!named('content-length') && !named('transfer-encoding')) sent['content-length'] = String(Buffer.byteLength(body as string | Buffer))
  }
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: origin.hostname, port: origin.port, localAddress: remoteAddress, method, path: url, headers: sent, agent: false },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const rawPayload = Buffer.concat(chunks)
          const text = rawPayload.toString()
          resolve({ statusCode: response.statusCode!, headers: response.headers, body: text, rawPayload, json: () => JSON.parse(text) })
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

export interface Envelope {
  success: boolean
  data?: Record<string, unknown> & { result?: unknown }
  error?: { code: string; message: string; details?: unknown }
  meta: { processingTime: number; requestId: string }
}

/** JSON text written into a body as it is: deep values must be text, since JSON.stringify recurses. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** A body as the JSON text sent: JsonText values as they are, everything else as JSON.stringify writes it. */
export function bodyText(value: unknown): string {
  if (value instanceof JsonText) return value.text
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : bodyText(item))).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined)
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${bodyText(item)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/** POSTs to an operation over a socket: an object as its `bodyText`, text and bytes as they are. */
export function postTo(app: FastifyInstance, operation: string, payload: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return request(app, { method: 'POST', url: `/api/v1/${operation}`, headers, payload })
}

/** POSTs a JSON body (an object, or raw text sent as it is) to an operation and parses the envelope. */
export async function post(app: FastifyInstance, operation: string, body: unknown) {
  const response = await postTo(app, operation, body)
  return { status: response.statusCode, headers: response.headers, body: response.json() as Envelope }
}

export interface CommandOutcome {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the real command, `node bin/devutils.js …`, with `stdin` as its standard input (none: /dev/null) and `env` over the environment. */
export function devutils(args: readonly string[], { stdin, env }: { stdin?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): Promise<CommandOutcome> {
  const child = spawn(process.execPath, ['bin/devutils.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  if (stdin !== undefined) child.stdin!.end(stdin)
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/**
 * A client of the SDK connected to `server` in memory, without a transport of its own; closing the
 * client closes the server's end too. The SDK is loaded here, not with this module, which most
 * tests load without needing it.
 */
export async function connectInMemory(server: McpServer, name = 'devutils-test'): Promise<Client> {
  const { Client, InMemoryTransport } = await import('@modelcontextprotocol/client')
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(clientSide)
  return client
}
