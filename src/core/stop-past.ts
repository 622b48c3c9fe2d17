import { createContext, Script } from 'node:vm'

/**
 * A script whose only statement calls the work handed to it: node:vm's timeout stops whatever runs
 * synchronously inside a script's evaluation (V8 interrupts it where it stands, a backtracking
 * regular expression included), and this one evaluation can run any function.
 */
const holder: { work?: () => unknown } = {}
const context = createContext({ holder })
const callHeldWork = new Script('holder.work()')

/** The longest timeout node:vm takes. */
const LONGEST_TIMEOUT_MS = 2 ** 32 - 1

/**
 * Runs `work`, interrupting its synchronous part past `ms` milliseconds; answers undefined for the
 * interrupted work (what it returned otherwise, a promise for its asynchronous part included). Only
 * for work that keeps no state between calls: interrupted, it runs no `finally`.
 */
export function runStoppingPast<T>(ms: number, work: () => T): { value: T } | undefined {
  holder.work = work
  try {
    return { value: callHeldWork.runInContext(context, { timeout: Math.min(Math.max(1, Math.ceil(ms)), LONGEST_TIMEOUT_MS) }) as T }
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined
    throw error
  } finally {
    holder.work = undefined
  }
}
