import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { operationsByName } from '../operations/index.ts'
import { settle, type OperationTask, type WorkerOutcome } from './pool.ts'

/**
 * Heavy work yields the CPU to the event loop: where both want the same core, small requests are
 * answered first and the conversion waits, which keeps their latency steady (CONTRACT.md §4).
 * Linux lets a thread's niceness be set through its thread id, read from /proc/thread-self
 * ("<pid>/task/<tid>"); elsewhere the thread keeps the process's priority.
 */
const LOWER_PRIORITY = 10
function lowerThisThreadsPriority() {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), LOWER_PRIORITY)
  } catch {
    // Not Linux, or not allowed: the work still runs, at the usual priority.
  }
}
lowerThisThreadsPriority()

/**
 * The worker-thread entry of the operation pool: runs an operation of the registry on an input that
 * `execute` has already validated and defaulted on the main thread, so only `run` happens here.
 */
export default function runOperation({ operation, input }: OperationTask): Promise<WorkerOutcome> {
  return settle(() => {
    const definition = operationsByName.get(operation)
    if (!definition) throw new Error(`No operation named '${operation}' in the registry`)
    return definition.run(input)
  })
}
