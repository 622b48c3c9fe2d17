import { readdirSync, readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/**
 * Heavy work yields the CPU to the event loop: where both want the same core, small requests are
 * answered first and the conversion waits, which keeps their latency steady (a target of `npm run bench`).
 * Linux keeps a niceness per thread and sets it by thread id, read from /proc; elsewhere, or where
 * the system refuses, every thread keeps the process's priority and the work still runs.
 */
const NICENESS_BELOW_EVENT_LOOP = 10
const LOWEST_PRIORITY = 19

function lowerPriorityOf(threadIds: number[]) {
  const niceness = Math.min(LOWEST_PRIORITY, getPriority(process.pid) + NICENESS_BELOW_EVENT_LOOP)
  for (const threadId of threadIds) {
    try {
      setPriority(threadId, niceness)
    } catch {
      // Not Linux, or not allowed: the thread keeps the process's priority.
    }
  }
}

/** For a worker thread as it starts: its thread id ends /proc/thread-self ("<pid>/task/<tid>"). */
export function lowerThisThreadsPriority(): void {
  try {
    lowerPriorityOf([Number(readlinkSync('/proc/thread-self').split('/').pop())])
  } catch {
    // No /proc: not Linux.
  }
}

/**
 * For a server process as it starts: every thread but the event loop's. Most are V8's platform
 * threads, which do much of the garbage collection of the worker threads' heaps; left at the
 * process's priority, that collection took the event loop's core from it while conversions ran
 * (docs/PERFORMANCE.md). The main thread's id is the process id.
 */
export function lowerBackgroundThreadsPriority(): void {
  try {
    lowerPriorityOf(
      readdirSync('/proc/self/task')
        .map(Number)
        .filter((threadId) => threadId !== process.pid),
    )
  } catch {
    // No /proc: not Linux.
  }
}
