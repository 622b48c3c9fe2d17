import type { Answer } from './api.ts'
import { inPageMeta } from './in-page-meta.ts'
import type { PageWorkerMessage, PageWorkerRequest } from './page-worker.ts'

/**
 * How long an operation may run in the page, once its code is loaded, before its worker is ended:
 * as long as the service gives a request by default, since a heavier input would be stopped there too.
 */
const IN_PAGE_TIME_BUDGET_MS = 5000

/** The worker a run is on, and how to end that run: with an answer, or with none when it is dropped. */
interface Run {
  worker: Worker
  settle(answer: Answer | undefined): void
}

let idle: Worker | undefined
let running: Run | undefined

function workerAddress(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="devutils-page-worker"]')!.content
}

/** Drops the run going on, if any, ending its worker: its answer would no longer be shown. */
export function dropRunInPage(): void {
  running?.worker.terminate()
  running?.settle(undefined)
}

/**
 * Runs an operation that runs in the browser on the page's worker, as the service would run it
 * (see run-here.ts); nothing leaves the page. A run asked for while another goes on replaces it,
 * since only the latest input's answer is shown: the older one is dropped. A run past the time
 * budget is ended, and answered as the service answers a request out of time.
 */
export function runInPage(name: string, body: unknown): Promise<Answer | undefined> {
  dropRunInPage()
  const worker = idle ?? new Worker(workerAddress(), { type: 'module' })
  idle = undefined
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const run: Run = { worker, settle }
    running = run
    function settle(answer: Answer | undefined) {
      clearTimeout(timer)
      if (running === run) running = undefined
      resolve(answer)
    }
    function stopPastBudget(startedAt: number) {
      worker.terminate()
      const message = `Stopped after ${IN_PAGE_TIME_BUDGET_MS / 1000} s in your browser: the input takes longer than that to answer.`
      settle({ success: false, status: 503, error: { code: 'TIMEOUT', message }, meta: inPageMeta(startedAt) })
    }
    worker.onmessage = ({ data }: MessageEvent<PageWorkerMessage>) => {
      if (running !== run) return
      if ('loaded' in data) {
        const startedAt = performance.now()
        timer = setTimeout(() => stopPastBudget(startedAt), IN_PAGE_TIME_BUDGET_MS)
        return
      }
      idle = worker
      settle(data.answer)
    }
    worker.onerror = (event) => {
      event.preventDefault()
      worker.terminate()
      if (running === run) settle({ success: false, status: 500, error: { code: 'INTERNAL_ERROR', message: 'The page could not run this operation.' } })
    }
    worker.postMessage({ name, body } satisfies PageWorkerRequest)
  })
}
