import { move, transferableSymbol, valueSymbol } from 'piscina'
import { checkedInput } from './core/checked-input.ts'
import { parseJsonBody } from './core/json-body.ts'
import type { AnyOperation } from './core/operation.ts'
import { overrunOf } from './core/overrun.ts'
import { type OperationTask, type SentTask, settle, type WorkerOutcome } from './core/pool.ts'
import { lowerThisThreadsPriority } from './core/priority.ts'
import { runStoppingPast } from './core/stop-past.ts'
import { operationsByName } from './operations/index.ts'

lowerThisThreadsPriority()

const utf8 = new TextEncoder()

/**
 * The worker-thread entry of the operation pool: runs an operation of the registry on an input that
 * `execute` has already checked on the main thread, or on a body it parses and checks here first.
 * Asked for JSON, it serializes the result here and moves the bytes to the main thread: their
 * memory changes owner, nothing is copied.
 */
export default async function runOperation(sent: SentTask<OperationTask>): Promise<WorkerOutcome> {
  const { operation, output } = sent.task
  const outcome = await settle(sent, async (task) => {
    const definition = operationsByName.get(operation)
    if (!definition) throw new Error(`No operation named '${operation}' in the registry`)
    const input = 'body' in task ? checkedInput(definition, parseJsonBody(task.body)) : task.input
    const result = await runWithin(task.runBudgetMs, definition, input)
    // TextEncoder gives the bytes an ArrayBuffer of their own; a Buffer could share Node's pool.
    return output === 'json' ? utf8.encode(JSON.stringify(result)) : result
  })
  return output === 'json' && outcome.ok ? movedWith(outcome, (outcome.value as Uint8Array).buffer) : outcome
}

/**
 * The operation's answer; untrusted code given a run budget is stopped past it here and answered its
 * overrun error, so a catastrophic pattern costs its budget and no new thread.
 */
function runWithin(runBudgetMs: number | undefined, definition: AnyOperation, input: Record<string, unknown>): unknown {
  if (runBudgetMs === undefined) return definition.run(input)
  const answered = runStoppingPast(runBudgetMs, () => definition.run(input))
  if (answered === undefined) throw overrunOf(definition)?.error(runBudgetMs)
  return answered.value
}

/** `outcome`, marked for piscina to transfer `buffer` with it rather than clone it. */
function movedWith(outcome: WorkerOutcome, buffer: ArrayBufferLike): WorkerOutcome {
  return move({ [transferableSymbol]: buffer, [valueSymbol]: outcome }) as unknown as WorkerOutcome
}
