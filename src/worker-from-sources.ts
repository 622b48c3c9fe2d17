import type { OperationTask, SentTask, WorkerOutcome } from './core/pool.ts'

/**
 * The worker's entry where tsx runs the sources (the tests, the docs check). A worker thread of
 * Node 22 has tsx's require hook, which loads this module, but not its import hook, which the
 * registry's `import()` of an operation needs: it is registered here where an import of TypeScript
 * fails (Node 24's worker threads have it, and a second registration there would break the first).
 * The trial import has a URL of its own, since a failed import is remembered for its URL. The worker
 * itself is then imported too, so that it and the operations share one instance of each module.
 */
const worker = import(new URL('./core/lazy.ts?trial', import.meta.url).href)
  .then(
    () => undefined,
    () => import('tsx/esm/api').then(({ register }) => void register()),
  )
  .then(() => import('./worker.ts'))

/** Runs the task as the build's worker does (see `WORKER_MODULE`). */
export default async function runOperationFromSources(sent: SentTask<OperationTask>): Promise<WorkerOutcome> {
  return (await worker).default(sent)
}
