import { availableParallelism } from 'node:os'
import { extname } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Piscina } from 'piscina'
import { type DefectDescription, describeDefect } from './defects.ts'
import { DevutilsError, type ErrorCode, type ErrorDetails, invalidInput, isDevutilsError, limitErrorOf } from './errors.ts'
import { FairQueue } from './fair-queue.ts'
import type { RunContext } from './operation.ts'

/**
 * What a worker task sends back. Structured cloning keeps no class and drops an error's own fields,
 * so a DevutilsError crosses the thread boundary as plain data and is rebuilt on this side; a defect
 * crosses as what the log may say of it.
 */
export type WorkerOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: ErrorCode; message: string; details?: ErrorDetails } }
  | { ok: false; defect: DefectDescription; oddThrow?: true }

/**
 * What the pool sends a worker: the task, and a flag the worker raises when it begins it, shared
 * between the threads, so that a task stopped past its budget is known to have run or only waited.
 */
export interface SentTask<T> {
  task: T
  started: Int32Array<SharedArrayBuffer>
}

/**
 * A worker module's answer to what the pool sent: marks the task begun, runs `work` on it and
 * reports how it went, never throwing across the boundary.
 */
export async function settle<T>({ task, started }: SentTask<T>, work: (task: T) => unknown): Promise<WorkerOutcome> {
  Atomics.store(started, 0, 1)
  Atomics.notify(started, 0)
  try {
    return { ok: true, value: await work(task) }
  } catch (thrown) {
    return outcomeOf(thrown)
  }
}

/** How a thrown value crosses back: a DevutilsError as its data, a defect as what the log may say of it. */
function outcomeOf(thrown: unknown): WorkerOutcome {
  try {
    const error = limitErrorOf(thrown) ?? thrown
    if (isDevutilsError(error)) return { ok: false, error: { code: error.code, message: error.message, details: error.details } }
    if (error instanceof Error) return { ok: false, defect: describeDefect(error) }
  } catch {
    // A value whose properties throw when read (a proxy): thrown, but no error.
  }
  return { ok: false, defect: { type: 'thrown value that is no Error' }, oddThrow: true }
}

/**
 * A worker's defect rebuilt on this thread from its description, as the cause of the error the pool
 * throws: its type, code and stack (the worker's) are what `describeDefect` reads back.
 */
function rebuiltDefect({ type, code, stack, cause }: DefectDescription): Error {
  const error = new Error('', cause === undefined ? undefined : { cause: rebuiltDefect(cause) })
  error.name = type
  error.stack = `${type}\n${stack ?? ''}`
  if (code !== undefined) Object.assign(error, { code })
  return error
}

/**
 * One worker thread fewer than the machine has cores, and at least one: the event loop keeps a core
 * of its own for small requests however much heavy work arrives. On the 2-core reference machine
 * that is a single worker thread; heavy requests beyond it wait in the queue, inside their budget.
 */
export const WORKER_THREADS = Math.max(1, availableParallelism() - 1)
/**
 * Heavy tasks that may wait for each thread; past this the call of the client that has used the
 * threads most is answered 503 OVERLOADED at once (see `FairQueue`).
 */
const QUEUE_PER_THREAD = 16
/**
 * Threads beyond the first exit after this long without work. The first stays (unreferenced) once
 * the pool exists: a new thread starts Node afresh and loads the whole registry again.
 */
const IDLE_TIMEOUT_MS = 30_000

/**
 * The heap of one worker thread. V8 lets a heap grow far past what its live objects need before it
 * collects, which one large input after another turns into a process out of memory; with these
 * limits it collects early, and a single task that truly needs more (a YAML document near the body
 * limit with nested collections) ends its thread and is answered 422 LIMIT_EXCEEDED. That holds for
 * work made of many small objects: a thread that passes the limit in one large allocation (an array
 * or a string of tens of MB) aborts the whole process instead, so the operations bound what could
 * grow that large before they build it (test/registry-wide/worker-memory.test.ts). Inputs that fit in the time
 * budget fit here.
 */
export const WORKER_HEAP_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 }

/** Past this RSS, once no task runs, the worker threads are ended for new ones (see `recycleThreadsAbove`). */
let recycleAboveRssBytes = Number.POSITIVE_INFINITY

/**
 * Has the pools end their threads, once no task runs and the process's RSS is past `bytes`, for new
 * ones started with the next task (see `recycle`). A server sets it; elsewhere (a one-shot command,
 * the tests under a TypeScript loader, whose process alone is larger) threads are kept.
 */
export function recycleThreadsAbove(bytes: number): void {
  recycleAboveRssBytes = bytes
  // The collector, asked for by name: the event loop's own heap keeps the pages of what every
  // operation's calls left behind until V8 sees a reason to give them back, and this is one.
  setFlagsFromString('--expose-gc')
  collectGarbage = runInNewContext('gc') as () => void
}

let collectGarbage: (() => void) | undefined
let recycledAt = Number.NEGATIVE_INFINITY

/**
 * The least time between two recycles: where what the process holds stays past the bound whatever
 * is given back, the threads are not ended, nor the heap collected, after every task.
 */
const RECYCLE_AT_MOST_EVERY_MS = 2_000

/** The longest delay a Node timer keeps: beyond it, `AbortSignal.timeout` would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/**
 * A time budget as `AbortSignal.timeout` takes it: whole milliseconds, rounded up so that a
 * workflow's last fraction of a millisecond still gives its step a chance, and no longer than a
 * timer can wait.
 */
function timerDelayOf(timeBudgetMs: number): number {
  return Math.min(Math.ceil(timeBudgetMs), LONGEST_TIMER_MS)
}

/** For a task whose input alone decides its cost: how long it may run, and what running past a budget is. */
export interface Overrun {
  /** The error for the task stopped past a budget of `limitMs` while it ran. */
  error(limitMs: number): DevutilsError
  /**
   * How long the task may run once a thread has begun it, within the whole budget: time spent
   * waiting for a thread, or for a new one to start, is not taken from it.
   */
  runBudgetMs?: number
  /**
   * The worker stops the task's synchronous work at `runBudgetMs` itself and answers `error`, so its
   * thread lives on; the pool terminates the thread only if the task is still running a moment later.
   */
  stopsItself?: boolean
}

/** How much later than the worker's own stop the pool terminates a task's thread (see `Overrun.stopsItself`). */
const BACKSTOP_AFTER_MS = 2000

/**
 * Whether the worker has begun the task (see `settle`) within `withinMs`: answered as soon as it
 * does, without polling.
 */
async function begun(started: Int32Array<SharedArrayBuffer>, withinMs: number): Promise<boolean> {
  const waiting = Atomics.waitAsync(started, 0, 0, withinMs)
  if (!waiting.async) return waiting.value === 'not-equal'
  return (await waiting.value) === 'ok'
}

/**
 * The clock of a task whose input decides its cost: it stops the task past the whole budget, or past
 * its run budget once a thread has begun it, and tells whether the task, when stopped, had run
 * through all of the budget that applied to it. Only then is the stop the input's doing: a task that
 * waited for a thread and ran for the rest of the budget might finish on a retry.
 */
class RunClock {
  readonly #stop = new AbortController()
  readonly #runMs: number
  readonly #delayMs: number
  readonly #slackMs: number
  readonly #createdAt: number
  readonly #timers: NodeJS.Timeout[] = []
  #beganAt: number | undefined

  constructor(started: Int32Array<SharedArrayBuffer>, delayMs: number, { runBudgetMs, stopsItself }: Overrun) {
    this.#createdAt = performance.now()
    this.#delayMs = delayMs
    this.#runMs = Math.min(runBudgetMs === undefined ? delayMs : timerDelayOf(runBudgetMs), delayMs)
    this.#slackMs = stopsItself ? BACKSTOP_AFTER_MS : 0
    this.#stopIn(delayMs)
    void begun(started, delayMs).then((began) => {
      if (!began || this.#stop.signal.aborted) return
      this.#beganAt = performance.now()
      this.#stopIn(Math.min(this.#runMs, this.#wholeLeftMs()) + this.#slackMs)
    })
  }

  /**
   * The task has been handed to a thread: one that stops itself (see `Overrun.stopsItself`) is
   * stopped here only a moment after its whole budget, since its worker stops it at the end of it.
   */
  dispatched(): void {
    if (this.#slackMs === 0 || this.#stop.signal.aborted) return
    this.#clearTimers()
    this.#stopIn(this.#wholeLeftMs() + this.#slackMs)
  }

  #wholeLeftMs(): number {
    return this.#delayMs - (performance.now() - this.#createdAt)
  }

  #stopIn(ms: number): void {
    this.#timers.push(setTimeout(() => this.#stop.abort(), Math.max(0, ms)).unref())
  }

  get signal(): AbortSignal {
    return this.#stop.signal
  }

  /** The budget the task ran through before it was stopped, or undefined when waiting took part of it. */
  ranThrough(): number | undefined {
    if (this.#beganAt === undefined) return undefined
    // This thread hears of the start a turn of its event loop late: a little less counts as all.
    const lateBy = Math.max(RUN_CLOCK_GRACE_MS, this.#runMs * RUN_CLOCK_GRACE_SHARE)
    return performance.now() - this.#beganAt >= this.#runMs - lateBy ? this.#runMs : undefined
  }

  end(): void {
    this.#stop.abort()
    this.#clearTimers()
  }

  #clearTimers(): void {
    for (const timer of this.#timers.splice(0)) clearTimeout(timer)
  }
}

const RUN_CLOCK_GRACE_MS = 25
const RUN_CLOCK_GRACE_SHARE = 0.1

export interface WorkerPool {
  /**
   * Runs one task on a worker thread for `client` (see `FairQueue`: who has used the threads least
   * goes first). Past `timeBudgetMs` (waiting included), or past `overrun.runBudgetMs` once begun,
   * the thread running the task is terminated, so no CPU is left burning, and the answer is 503
   * TIMEOUT, or `overrun`'s error when the task had begun. Whatever else ends the task on its
   * thread is answered in the envelope too (see `failureOf`); the process never ends with it.
   */
  run(task: unknown, timeBudgetMs: number, overrun?: Overrun, client?: string): Promise<unknown>
  /** Terminates the threads; a later `run` starts a new pool. */
  close(): Promise<void>
}

/** The client of calls from no known client: the command line, MCP over stdio. */
const LOCAL_CLIENT = ''
/** How fast a client's use of the threads is forgotten: a client idle this long counts for half. */
const USE_HALF_LIFE_MS = 10_000

/**
 * A pool over a worker module whose default export answers tasks with `settle`. No thread exists
 * until the first task; idle threads are unreferenced, so they never keep a process alive.
 * Workers inherit the process's `execArgv`, so the tsx loader (`node --import tsx`, or `tsx`)
 * reaches them and they load TypeScript as the main thread does. piscina itself is loaded with the
 * first task too: loading it costs a one-shot command that never offloads as much as all the rest.
 *
 * Tasks wait here, in a `FairQueue`, not in piscina's own queue, which is first come first served:
 * piscina is handed a task only when a thread is free for it.
 */
export function createWorkerPool(filename: URL): WorkerPool {
  let piscina: Promise<Piscina> | undefined
  let running = 0
  const line = new FairQueue<Turn>(WORKER_THREADS * QUEUE_PER_THREAD, USE_HALF_LIFE_MS)
  const started = () => (piscina ??= startPiscina(filename))
  /**
   * Ends the threads, idle now, for new ones on the next task, and collects the event loop's heap: a
   * thread keeps the heap, code and WebAssembly memory of every operation it has run, which a
   * long-lived server that has run many of them holds long after; a new thread holds only what its
   * tasks load.
   */
  const recycle = () => {
    if (performance.now() - recycledAt < RECYCLE_AT_MOST_EVERY_MS) return
    recycledAt = performance.now()
    const ending = piscina
    piscina = undefined
    void ending?.then((pool) => pool.destroy())
    collectGarbage?.()
  }
  const nextTurn = () => {
    while (running < WORKER_THREADS) {
      const turn = line.dequeue()
      if (turn === undefined) return
      running++
      turn.begin()
    }
  }
  return {
    async run(task, timeBudgetMs, overrun, client = LOCAL_CLIENT) {
      const delayMs = timerDelayOf(timeBudgetMs)
      const sent: SentTask<unknown> = { task, started: new Int32Array(new SharedArrayBuffer(4)) }
      const clock = overrun === undefined ? undefined : new RunClock(sent.started, delayMs, overrun)
      const signal = clock?.signal ?? AbortSignal.timeout(delayMs)
      let outcome: WorkerOutcome
      try {
        await turnFor(line, client, signal, nextTurn)
      } catch (error) {
        clock?.end()
        throw failureOf(error, { clock, overrun, delayMs })
      }
      clock?.dispatched()
      const beganAt = performance.now()
      try {
        outcome = await (await started()).run(sent, { signal })
      } catch (error) {
        throw failureOf(error, { clock, overrun, delayMs })
      } finally {
        running--
        line.charge(client, performance.now() - beganAt)
        clock?.end()
        if (running === 0 && line.size === 0 && recycleAboveRssBytes !== Number.POSITIVE_INFINITY && process.memoryUsage.rss() > recycleAboveRssBytes) recycle()
        nextTurn()
      }
      return answerOf(outcome)
    },
    async close() {
      const closing = piscina
      piscina = undefined
      await (await closing)?.destroy()
    },
  }
}

/** A call waiting in the fair line: how it is let through, or turned away. */
interface Turn {
  begin(): void
  shed(): void
}

function startPiscina(filename: URL): Promise<Piscina> {
  return import('piscina').then(({ Piscina }) => {
    const pool = new Piscina({
      filename: filename.href,
      minThreads: 1,
      maxThreads: WORKER_THREADS,
      idleTimeout: IDLE_TIMEOUT_MS,
      resourceLimits: WORKER_HEAP_LIMITS,
    })
    // A thread that fails with no task of its own (one terminated past its budget that runs out of
    // heap as it ends) is already replaced; unheard, piscina's 'error' would end the process.
    pool.on('error', (error: unknown) => reportThreadFailure(error))
    return pool
  })
}

/**
 * Joins the fair line, lets through whom the free threads allow (`letThrough`), and waits for a free
 * thread; rejects when the line sheds the call or its time runs out first.
 */
function turnFor(line: FairQueue<Turn>, client: string, signal: AbortSignal, letThrough: () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const turn: Turn = {
      begin: () => {
        signal.removeEventListener('abort', onAbort)
        resolve()
      },
      shed: () => {
        signal.removeEventListener('abort', onAbort)
        reject(new DevutilsError('OVERLOADED', 'Too much heavy work is waiting already; retry in a moment'))
      },
    }
    const onAbort = () => {
      if (line.remove(turn)) reject(signal.reason)
    }
    if (signal.aborted) return reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    const { shed } = line.enqueue(client, turn)
    shed?.shed()
    letThrough()
  })
}

/** The task's answer from its thread: its value, its error, or a defect of the code it ran. */
function answerOf(outcome: WorkerOutcome): unknown {
  if (outcome.ok) return outcome.value
  if ('error' in outcome) throw new DevutilsError(outcome.error.code, outcome.error.message, outcome.error.details)
  const defect = new Error('A worker task failed', { cause: rebuiltDefect(outcome.defect) })
  if (!outcome.oddThrow) throw defect
  // Libraries that throw something other than an Error (a string, a number) do so over what they read.
  reportThreadFailure(defect)
  throw invalidInput('The input could not be processed: the library that read it failed without saying why')
}

/**
 * What a task that did not come back from its thread is answered: out of heap, 422; stopped past its
 * budget, 503 TIMEOUT or the overrun's 422 (see `RunClock`); its thread ended under it in any other
 * way (an uncaught error of a library's callback, an exit), 503, with the failure reported for the log.
 */
function failureOf(error: unknown, { clock, overrun, delayMs }: { clock?: RunClock; overrun?: Overrun; delayMs: number }): unknown {
  if (isDevutilsError(error)) return error
  if ((error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new DevutilsError(
      'LIMIT_EXCEEDED',
      `The work needed more than the ${WORKER_HEAP_LIMITS.maxOldGenerationSizeMb} MB of memory one task may use and was stopped; send a smaller input`,
      { memoryLimitMb: WORKER_HEAP_LIMITS.maxOldGenerationSizeMb },
    )
  }
  if ((error as Error | undefined)?.name === 'AbortError' || (error as Error | undefined)?.name === 'TimeoutError') {
    const ranThrough = clock?.ranThrough()
    if (overrun !== undefined && ranThrough !== undefined) return overrun.error(ranThrough)
    return timeBudgetExceeded(delayMs)
  }
  reportThreadFailure(error)
  return new DevutilsError('OVERLOADED', 'The worker thread running this call ended before it answered; it has been replaced, retry in a moment')
}

/** The 503 for work stopped past the whole time budget of its call. */
export function timeBudgetExceeded(timeBudgetMs: number): DevutilsError {
  return new DevutilsError('TIMEOUT', `The work took longer than the ${timeBudgetMs} ms time budget and was stopped; send a smaller input`, {
    timeBudgetMs,
  })
}

let threadFailureListener: (error: unknown) => void = () => {}

/** Hears of every worker thread that failed outside a task's own answer, for the log (the server's). */
export function onThreadFailure(listener: (error: unknown) => void): void {
  threadFailureListener = listener
}

function reportThreadFailure(error: unknown): void {
  try {
    threadFailureListener(error)
  } catch {
    // A failing listener must not turn a thread's failure into the process's.
  }
}

/**
 * The worker's entry, `src/worker.ts`, which holds the registry (this module knows no operation): in
 * the build every module sits beside `worker.js`; where tsx runs the sources, its entry for them,
 * one folder up.
 */
const WORKER_MODULE =
  extname(new URL(import.meta.url).pathname) === '.js' ? new URL('./worker.js', import.meta.url) : new URL('../worker-from-sources.ts', import.meta.url)

const operationPool = createWorkerPool(WORKER_MODULE)

/** What a worker sends back: the result as it is, or its JSON text in UTF-8 bytes. */
export type OperationOutput = 'value' | 'json'

/** When a worker stops a task itself: past its run budget, or at the end of its call's whole budget. */
export interface SelfStop {
  runBudgetMs: number
  /** The end of the whole budget, in milliseconds since the epoch as `performance.timeOrigin + performance.now()` reads them on any thread. */
  deadline: number
  /** The whole budget, for its error. */
  timeBudgetMs: number
}

/** What a worker thread's `run` receives of the call's `RunContext`: all of it that is data. */
export type ThreadContext = Omit<RunContext, 'reportDefect'>

/** Now, as `SelfStop.deadline` counts, alike on every thread. */
export const clockNow = () => performance.timeOrigin + performance.now()

/**
 * The task `worker.ts` answers: an operation of the registry, by name, on an input already checked,
 * or on a request body still in bytes, which the worker parses and checks itself, with the call's context.
 */
export type OperationTask = {
  operation: string
  output: OperationOutput
  /** The call's context, as `run` receives it on the main thread (see `ThreadContext`). */
  context: ThreadContext
  /** For untrusted code: when the worker stops the run's synchronous work itself (see `Overrun.stopsItself`). */
  stop?: SelfStop
} & ({ input: Record<string, unknown> } | { body: Uint8Array })

/** Runs `operation.run(input)` on a worker thread for `client` within the time budget (see `execute`). */
export function runOperationInWorker(task: OperationTask, timeBudgetMs: number, overrun?: Overrun, client?: string): Promise<unknown> {
  return operationPool.run(task, timeBudgetMs, overrun, client)
}

/** Stops the operation workers: for the server's shutdown and for test teardown. */
export function closeWorkerPool(): Promise<void> {
  return operationPool.close()
}
