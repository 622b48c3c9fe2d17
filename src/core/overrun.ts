import { type CodeBudgets, DEFAULT_CONFIG } from './config.ts'
import { DevutilsError } from './errors.ts'
import type { AnyOperation } from './operation.ts'
import type { Overrun } from './pool.ts'

/**
 * How many calls of untrusted code (see `OperationDefinition.overrun`) one client may have in flight.
 * Each may hold a worker thread for its whole budget, and the pool has few threads: without a cap,
 * one client's catastrophic patterns would fill the queue, and everyone else's heavy work would wait
 * behind them or be shed.
 */
export const UNTRUSTED_CALLS_PER_CLIENT = 2

/**
 * How a worker task of the operation is stopped, if its input decides its cost (see
 * `OperationDefinition.overrun`): the 422 for running past a budget, and for untrusted code the
 * time it may run once begun, from its setting.
 */
export function overrunOf(operation: AnyOperation, codeBudgets: Partial<CodeBudgets> = {}): Overrun | undefined {
  const { overrun } = operation
  if (overrun === undefined) return undefined
  return {
    error: (limitMs) =>
      new DevutilsError('LIMIT_EXCEEDED', `The ${operation.name} call ran past its ${limitMs} ms time budget and was stopped: ${overrun.advice}`, {
        reason: 'timeout',
        limitMs,
      }),
    runBudgetMs: overrun.budget === undefined ? undefined : (codeBudgets[overrun.budget] ?? DEFAULT_CONFIG[overrun.budget]),
    stopsItself: overrun.interruptible === true,
  }
}

const untrustedCallsInFlight = new Map<string, number>()

/**
 * Runs `work`, counted among the client's calls of untrusted code while it lasts; past the cap the
 * call is 429 RATE_LIMITED at once. Calls of other operations, and calls from no known client (the
 * command line, MCP over stdio: one user on their own machine), are not counted.
 */
export function countedPerClient<T>(operation: AnyOperation, client: string | undefined, work: () => Promise<T>): Promise<T> {
  if (operation.overrun?.budget === undefined || client === undefined) return work()
  const inFlight = untrustedCallsInFlight.get(client) ?? 0
  if (inFlight >= UNTRUSTED_CALLS_PER_CLIENT) {
    throw new DevutilsError(
      'RATE_LIMITED',
      `One client may have ${UNTRUSTED_CALLS_PER_CLIENT} calls that run a pattern or program (regex, jq) in flight at once; send the next when one has answered`,
      { limit: UNTRUSTED_CALLS_PER_CLIENT },
    )
  }
  untrustedCallsInFlight.set(client, inFlight + 1)
  return work().finally(() => {
    const left = (untrustedCallsInFlight.get(client) ?? 1) - 1
    if (left === 0) untrustedCallsInFlight.delete(client)
    else untrustedCallsInFlight.set(client, left)
  })
}
