// The typed client of a devutils service: `import { createClient } from 'devutils/client'`. Plain
// fetch and nothing of Node's, so that it runs in browsers, Deno and workers as in Node.
import type { Static, TObject } from 'typebox'
import type { createWorkflows } from '../core/workflows.ts'
import type { typedOperations } from '../operations/index.ts'

/** The pipeline and the batch: their schemas are the same whatever the registry they run. */
type Workflow = ReturnType<typeof createWorkflows>[keyof ReturnType<typeof createWorkflows>]
type Operation = (typeof typedOperations)[number] | Workflow
/** `ip-address` → `ipAddress`. */
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S

/** An operation's input as a caller writes it: fields with defaults may be left out. */
export type OperationInputOf<O> = O extends { input: infer I extends TObject } ? Static<I> : never
/** An operation's `data`. */
export type OperationOutputOf<O> = O extends { output: infer R extends TObject } ? Static<R> : never

export type OperationName = Operation['name']

export interface CallOptions {
  /** Aborts the request (and any wait before a retry). */
  signal?: AbortSignal
}

/** One method per operation, named in camelCase: `client.base64({ input: 'hi' })`. */
export type DevutilsClient = {
  [O in Operation as CamelCase<O['name']>]: (input: OperationInputOf<O>, options?: CallOptions) => Promise<OperationOutputOf<O>>
} & {
  /** Any operation by its kebab-case name, as the URL names it. */
  call<N extends OperationName>(
    name: N,
    input: OperationInputOf<Extract<Operation, { name: N }>>,
    options?: CallOptions,
  ): Promise<OperationOutputOf<Extract<Operation, { name: N }>>>
}

export interface ClientOptions {
  /** Where the service runs, e.g. `http://localhost:3000`. */
  baseUrl: string
  /**
   * How many times to retry a 429 or 503 answer, each after its Retry-After (in seconds, at most
   * `maxRetryDelayMs`): 0, the default, retries nothing.
   */
  retries?: number
  /** The longest wait before a retry, whatever Retry-After says; 30 seconds by default. */
  maxRetryDelayMs?: number
  /** Headers sent with every request (a proxy's credentials, a request id…). */
  headers?: Record<string, string>
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch
}

/** A refused call: the service's error object and the HTTP status it came with. */
export class DevutilsClientError extends Error {
  readonly code: string
  readonly details: unknown
  readonly status: number
  /** The request id the service gave the call, for its logs. */
  readonly requestId: string | undefined

  constructor(status: number, error: { code: string; message: string; details?: unknown }, requestId?: string) {
    super(error.message)
    this.name = 'DevutilsClientError'
    this.code = error.code
    this.details = error.details
    this.status = status
    this.requestId = requestId
  }
}

const RETRIED_STATUSES = new Set([429, 503])

/** `ipAddress` → `ip-address`, the inverse of the method names. */
function kebabCase(method: string): string {
  return method.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
}

/** A client whose methods POST to `<baseUrl>/api/v1/<operation>` and answer the envelope's `data`. */
export function createClient({ baseUrl, retries = 0, maxRetryDelayMs = 30_000, headers = {}, fetch: fetchFunction = fetch }: ClientOptions): DevutilsClient {
  const root = baseUrl.replace(/\/+$/, '')

  async function call(name: string, input: unknown, { signal }: CallOptions = {}): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetchFunction(`${root}/api/v1/${name}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(input ?? {}),
        signal,
      })
      if (RETRIED_STATUSES.has(response.status) && attempt < retries) {
        await response.body?.cancel()
        await wait(retryDelayMs(response.headers.get('retry-after'), maxRetryDelayMs), signal)
        continue
      }
      const envelope = (await response.json().catch(() => undefined)) as
        | { success: true; data: unknown }
        | { success: false; error: { code: string; message: string; details?: unknown }; meta?: { requestId?: string } }
        | undefined
      if (envelope?.success === true) return envelope.data
      if (envelope?.success === false) throw new DevutilsClientError(response.status, envelope.error, envelope.meta?.requestId)
      throw new DevutilsClientError(response.status, { code: 'BAD_RESPONSE', message: `The service answered ${response.status} without a devutils envelope` })
    }
  }

  const methods: Record<string | symbol, unknown> = { call }
  // Methods are made on first use, for any name: the client holds no list of operations to keep in step.
  return new Proxy(methods, {
    get(target, property) {
      if (property in target || typeof property !== 'string' || property === 'then') return target[property]
      const method = (input: unknown, options?: CallOptions) => call(kebabCase(property), input, options)
      target[property] = method
      return method
    },
  }) as unknown as DevutilsClient
}

/** Retry-After in seconds or as an HTTP date, within bounds; one second when it says nothing usable. */
function retryDelayMs(retryAfter: string | null, maxRetryDelayMs: number): number {
  const seconds = Number(retryAfter)
  const delay = Number.isFinite(seconds) && retryAfter !== null && retryAfter.trim() !== '' ? seconds * 1000 : Date.parse(retryAfter ?? '') - Date.now()
  return Math.min(Math.max(Number.isFinite(delay) ? delay : 1000, 0), maxRetryDelayMs)
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })
}
