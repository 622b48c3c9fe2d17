import { checkedInput } from './checked-input.ts'
import { DEFAULT_CONFIG } from './config.ts'
import { isDevutilsError, limitErrorOf } from './errors.ts'
import { parseJsonBody } from './json-body.ts'
import type { AnyOperation, RunContext } from './operation.ts'
import { countedPerClient, overrunOf } from './overrun.ts'
import { clockNow, type OperationOutput, type OperationTask, type Overrun, runOperationInWorker, type ThreadContext } from './pool.ts'

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
 * operation calls heavy run on a worker thread within the time budget, with the same context; the
 * rest run in process.
 */
export function execute(operation: AnyOperation, rawInput: unknown, options: ExecuteOptions = {}): Promise<Record<string, unknown>> {
  try {
    return Promise.resolve(answer(operation, { input: rawInput }, options, 'value')) as Promise<Record<string, unknown>>
  } catch (error) {
    return Promise.reject(error)
  }
}

/**
 * `execute` for a surface that writes the result out as JSON (the HTTP routes), on fields already
 * read or on a body still in bytes. A result made on a worker thread arrives already serialized, so
 * a large one costs the event loop neither a structured clone of its object graph nor a
 * `JSON.stringify` (docs/PERFORMANCE.md); a large body meant for heavy work is parsed and checked
 * there too. An operation that answers at once gives its JSON at once, or throws, so that the route
 * sends it in the same turn of the event loop; one that runs on a worker thread or waits gives a promise.
 */
export function executeToJson(
  operation: AnyOperation,
  request: { input: unknown } | { body: Uint8Array },
  options: ExecuteOptions = {},
): JsonData | Promise<JsonData> {
  return answer(operation, request, options, 'json') as JsonData | Promise<JsonData>
}

/**
 * Bodies larger than this, for an operation that offloads heavy work, go to a worker thread whole:
 * parsing and checking them there spares the event loop most of what a heavy request still cost it
 * once its result was serialized on the worker (docs/PERFORMANCE.md). Below it, inputs are parsed
 * here, and `offload` decides.
 */
export const WHOLE_BODY_OFFLOAD_BYTES = 64 * 1024

/** The operation's answer to a request, as a value or JSON text; a promise only where it runs on a worker thread or waits. */
function answer(operation: AnyOperation, request: { input: unknown } | { body: Uint8Array }, options: ExecuteOptions, output: OperationOutput): unknown {
  const context = contextOf(options)
  if ('body' in request) {
    if (operation.offload && offloadPolicy !== 'never' && (offloadPolicy === 'always' || request.body.byteLength > WHOLE_BODY_OFFLOAD_BYTES)) {
      return offloaded(operation, { operation: operation.name, body: request.body, output, context: threadContextOf(context) }, context)
    }
    return answer(operation, { input: parseJsonBody(request.body) }, options, output)
  }
  const input = checkedInput(operation, request.input)
  if (offloads(operation, input)) return offloaded(operation, { operation: operation.name, input, output, context: threadContextOf(context) }, context)
  return runHere(operation, input, context, output)
}

/**
 * Runs the operation on an input already checked, on this thread, with the call's context: the
 * last step of every call, in process and on a worker thread alike. `within` is how its synchronous
 * work is called (a worker stops untrusted code past its budget there). Answers a value or JSON
 * text; a promise only where the operation waits.
 */
export function runHere(
  operation: AnyOperation,
  input: Record<string, unknown>,
  context: RunContext,
  output: OperationOutput,
  within: (run: () => unknown) => unknown = (run) => run(),
): unknown {
  let result: unknown
  try {
    result = within(() => operation.run(input, context))
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

/** Runs the task on a worker thread within the operation's budgets, counted per client where it runs untrusted code. */
function offloaded(operation: AnyOperation, task: OperationTask, { timeBudgetMs, codeBudgets, client }: RunContext): Promise<unknown> {
  const overrun = overrunOf(operation, codeBudgets)
  const runBudgetMs = overrun?.stopsItself ? overrun.runBudgetMs : undefined
  const work =
    overrun !== undefined && runBudgetMs !== undefined
      ? () => runOnTrial(task, timeBudgetMs, { ...overrun, runBudgetMs }, client)
      : () => runOperationInWorker(task, timeBudgetMs, overrun, client)
  return countedPerClient(operation, client, work)
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

/** The context `run` receives: the options, with the time budget filled in. */
const contextOf = ({ timeBudgetMs = DEFAULT_CONFIG.timeBudgetMs, ...rest }: ExecuteOptions): RunContext => ({ ...rest, timeBudgetMs })

/** The context a worker thread runs the operation with: the call's, less `reportDefect`, a function, which no thread boundary carries (a worker's defect comes back as its task's failure). */
const threadContextOf = ({ timeBudgetMs, codeBudgets, client }: RunContext): ThreadContext => ({ timeBudgetMs, codeBudgets, client })

const asOutput = (value: unknown, output: OperationOutput) => (output === 'json' ? JSON.stringify(value) : value)
