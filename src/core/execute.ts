import { checkedInput } from './checked-input.ts'
import { DEFAULT_CONFIG } from './config.ts'
import { isDevutilsError, limitErrorOf } from './errors.ts'
import { parseJsonBody } from './json-body.ts'
import type { AnyOperation, RunContext } from './operation.ts'
import { countedPerClient, overrunOf } from './overrun.ts'
import { clockNow, type OperationOutput, type OperationTask, type Overrun, runOperationInWorker } from './pool.ts'

export interface ExecuteOptions extends Omit<RunContext, 'timeBudgetMs'> {
  /** How long heavy work (see `offload`) may take before it is stopped with 503 TIMEOUT (or 422, see `overrun`). */
  timeBudgetMs?: number
}

/**
 * An operation's result as JSON: text when it was made on this thread, UTF-8 bytes when a worker
 * thread made it (moved across threads, not copied).
 */
export type JsonData = string | Uint8Array

/**
 * Runs one operation on a raw, untrusted input object: the one path every surface (HTTP, pipeline,
 * batch, MCP, CLI) goes through, so they all validate, default and fail the same way. Inputs the
 * operation calls heavy run on a worker thread within the time budget; the rest run in process.
 */
export function execute(operation: AnyOperation, rawInput: unknown, options: ExecuteOptions = {}): Promise<Record<string, unknown>> {
  return promised(() => run(operation, rawInput, options, 'value')) as Promise<Record<string, unknown>>
}

/**
 * `execute` for a surface that only writes the result out as JSON (the HTTP routes). A result made
 * on a worker thread arrives already serialized, so a large one costs the event loop neither a
 * structured clone of its object graph nor a `JSON.stringify`: the delay a small request beside it
 * would wait for (docs/PERFORMANCE.md).
 */
export function executeToJson(operation: AnyOperation, rawInput: unknown, options: ExecuteOptions = {}): Promise<JsonData> {
  return promised(() => executeToJsonNow(operation, rawInput, options))
}

/**
 * `executeToJson` without a promise where none is needed: an operation that answers at once gives
 * its JSON at once, or throws; one that runs on a worker thread or waits gives a promise. The HTTP
 * routes send an answer in the same turn of the event loop when they can.
 */
export function executeToJsonNow(operation: AnyOperation, rawInput: unknown, options: ExecuteOptions = {}): JsonData | Promise<JsonData> {
  return run(operation, rawInput, options, 'json') as JsonData | Promise<JsonData>
}

/**
 * Bodies larger than this, for an operation that offloads heavy work, go to a worker thread whole:
 * parsing and checking them there spares the event loop most of what a heavy request still cost it
 * once its result was serialized on the worker (docs/PERFORMANCE.md). Below it, inputs are parsed
 * here, and `offload` decides.
 */
export const WHOLE_BODY_OFFLOAD_BYTES = 64 * 1024

/**
 * `executeToJson` for an HTTP body still in bytes: parsed here, or, when large and meant for heavy
 * work, parsed, checked and run on a worker thread, with the same errors either way.
 */
export function executeBodyToJson(operation: AnyOperation, body: Uint8Array, options: ExecuteOptions = {}): Promise<JsonData> {
  return promised(() => executeBodyToJsonNow(operation, body, options))
}

/** `executeBodyToJson` without a promise where none is needed (see `executeToJsonNow`). */
export function executeBodyToJsonNow(operation: AnyOperation, body: Uint8Array, options: ExecuteOptions = {}): JsonData | Promise<JsonData> {
  if (operation.offload && offloadPolicy !== 'never' && (offloadPolicy === 'always' || body.byteLength > WHOLE_BODY_OFFLOAD_BYTES)) {
    return offloaded(operation, { operation: operation.name, body, output: 'json' }, options) as Promise<JsonData>
  }
  return executeToJsonNow(operation, parseJsonBody(body), options)
}

/** Runs the task on a worker thread within the operation's budgets, counted per client where it runs untrusted code. */
function offloaded(operation: AnyOperation, task: OperationTask, options: ExecuteOptions): Promise<unknown> {
  const overrun = overrunOf(operation, options.codeBudgets)
  const timeBudgetMs = timeBudgetOf(options)
  const runBudgetMs = overrun?.stopsItself ? overrun.runBudgetMs : undefined
  const work =
    overrun !== undefined && runBudgetMs !== undefined
      ? () => runOnTrial(task, timeBudgetMs, { ...overrun, runBudgetMs }, options.client)
      : () => runOperationInWorker(task, timeBudgetMs, overrun, options.client)
  return countedPerClient(operation, options.client, work)
}

/**
 * How long untrusted code first runs: enough for any sane pattern or program, and short, so that a
 * catastrophic one shows itself before it can hold a thread for its whole budget.
 */
const TRIAL_RUN_MS = 100

/**
 * Runs untrusted code that its worker stops by itself (see `Overrun.stopsItself`) for a short trial
 * first, and only if the worker stopped it there, for its whole run budget, back in the fair line
 * with the trial counted against its client: a client whose patterns run on waits behind everyone
 * whose do not. Work the worker cannot stop (an engine still loading) runs its whole budget at once.
 */
async function runOnTrial(task: OperationTask, timeBudgetMs: number, overrun: Overrun & { runBudgetMs: number }, client: string | undefined) {
  const deadline = clockNow() + timeBudgetMs
  const run = (runBudgetMs: number) =>
    runOperationInWorker({ ...task, stop: { runBudgetMs, deadline, timeBudgetMs } }, Math.max(1, deadline - clockNow()), overrun, client)
  const trialMs = Math.min(TRIAL_RUN_MS, overrun.runBudgetMs)
  if (trialMs === overrun.runBudgetMs) return run(trialMs)
  try {
    return await run(trialMs)
  } catch (error) {
    if (!stoppedPast(error, trialMs)) throw error
  }
  return run(overrun.runBudgetMs)
}

/** Whether the error is an overrun's, for a run budget of `limitMs`. */
const stoppedPast = (error: unknown, limitMs: number) => {
  if (!isDevutilsError(error) || error.code !== 'LIMIT_EXCEEDED') return false
  const details = error.details as { reason?: unknown; limitMs?: unknown } | undefined
  return details?.reason === 'timeout' && details.limitMs === limitMs
}

/** What `answer` gives as a promise, a thrown error as a rejection. */
function promised<T>(answer: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(answer())
  } catch (error) {
    return Promise.reject(error)
  }
}

/**
 * Where heavy work runs: `auto`, as each operation's `offload` decides; `always` or `never`, every
 * input of an operation that can offload goes to a worker thread, or none does. The last two exist
 * so that the tests can prove both paths give the same answers on every surface; set through the
 * environment variable DEVUTILS_OFFLOAD, read once when this module loads, or `setOffloadPolicy`.
 */
export type OffloadPolicy = 'auto' | 'always' | 'never'

const OFFLOAD_POLICIES: readonly OffloadPolicy[] = ['auto', 'always', 'never']

let offloadPolicy = offloadPolicyOf(process.env.DEVUTILS_OFFLOAD)

function offloadPolicyOf(value: string | undefined): OffloadPolicy {
  if (value === undefined || value === '') return 'auto'
  if (!OFFLOAD_POLICIES.includes(value as OffloadPolicy)) throw new Error(`DEVUTILS_OFFLOAD must be one of ${OFFLOAD_POLICIES.join(', ')}, not '${value}'`)
  return value as OffloadPolicy
}

/** Changes where heavy work runs in this process (see `OffloadPolicy`); answers the policy it replaced. */
export function setOffloadPolicy(policy: OffloadPolicy): OffloadPolicy {
  const previous = offloadPolicy
  offloadPolicy = policy
  return previous
}

function offloads(operation: AnyOperation, input: Record<string, unknown>): boolean {
  if (operation.offload === undefined || offloadPolicy === 'never') return false
  return offloadPolicy === 'always' || operation.offload(input)
}

const timeBudgetOf = ({ timeBudgetMs = DEFAULT_CONFIG.timeBudgetMs }: ExecuteOptions) => timeBudgetMs

/** The operation's answer, as a value or JSON text; a promise only where it runs on a worker thread or waits. */
function run(operation: AnyOperation, rawInput: unknown, options: ExecuteOptions, output: OperationOutput): unknown {
  const input = checkedInput(operation, rawInput)
  if (offloads(operation, input)) return offloaded(operation, { operation: operation.name, input, output }, options)
  let result: unknown
  try {
    result = operation.run(input, { ...options, timeBudgetMs: timeBudgetOf(options) })
  } catch (error) {
    throw limitErrorOf(error) ?? error
  }
  if (result instanceof Promise)
    return result.then(
      (value) => asOutput(value, output),
      (error) => Promise.reject(limitErrorOf(error) ?? error),
    )
  return asOutput(result, output)
}

const asOutput = (value: unknown, output: OperationOutput) => (output === 'json' ? JSON.stringify(value) : value)
