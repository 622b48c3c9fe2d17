import { move, transferableSymbol, valueSymbol } from 'piscina'
import { checkedInput } from './core/checked-input.ts'
import { runHere } from './core/execute.ts'
import { parseJsonBody } from './core/json-body.ts'
import type { AnyOperation } from './core/operation.ts'
import { overrunOf } from './core/overrun.ts'
import { clockNow, type OperationTask, type SelfStop, type SentTask, settle, timeBudgetExceeded, type WorkerOutcome } from './core/pool.ts'
import { lowerThisThreadsPriority } from './core/priority.ts'
import { runStoppingPast } from './core/stop-past.ts'
import { loadOperation } from './operations/registry.ts'

lowerThisThreadsPriority()

const utf8 = new TextEncoder()

/**
 * The worker-thread entry of the operation pool: runs an operation of the registry on an input that
 * `execute` has already checked on the main thread, or on a body it parses and checks here first,
 * with the call's context, through the same `runHere` as the main thread. Each operation is loaded
 * with its first task on this thread (the module system keeps it for the next). Asked for JSON, it
 * serializes the result here and moves the bytes to the main thread: their memory changes owner,
 * nothing is copied.
 */
export default async function runOperation(sent: SentTask<OperationTask>): Promise<WorkerOutcome> {
  const { operation, output } = sent.task
  const outcome = await settle(sent, async (task) => {
    const definition = await loadOperation(operation)
    if (!definition) throw new Error(`No operation named '${operation}' in the registry`)
    const input = 'body' in task ? checkedInput(definition, parseJsonBody(task.body)) : task.input
    const result = await runHere(definition, input, task.context, output, (run) => runWithin(task.stop, definition, run))
    // TextEncoder gives the bytes an ArrayBuffer of their own; a Buffer could share Node's pool.
    return output === 'json' ? utf8.encode(result as string) : result
  })
  return output === 'json' && outcome.ok ? movedWith(outcome, (outcome.value as Uint8Array).buffer) : outcome
}

/**
 * The operation's answer; untrusted code is stopped here past its run budget, or at the end of its
 * call's whole budget, and answered its overrun's error or 503 TIMEOUT: a catastrophic pattern
 * costs its budget and no new thread.
 */
function runWithin(stop: SelfStop | undefined, definition: AnyOperation, run: () => unknown): unknown {
  if (stop === undefined) return run()
  const limitMs = Math.min(stop.runBudgetMs, stop.deadline - clockNow())
  const answered = limitMs > 0 ? runStoppingPast(limitMs, run) : undefined
  if (answered !== undefined) return answered.value
  if (limitMs === stop.runBudgetMs) throw overrunOf(definition)?.error(stop.runBudgetMs)
  throw timeBudgetExceeded(stop.timeBudgetMs)
}

/** `outcome`, marked for piscina to transfer `buffer` with it rather than clone it. */
function movedWith(outcome: WorkerOutcome, buffer: ArrayBufferLike): WorkerOutcome {
  return move({ [transferableSymbol]: buffer, [valueSymbol]: outcome }) as unknown as WorkerOutcome
}
