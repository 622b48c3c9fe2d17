/// <reference lib="webworker" />
/**
 * The page's worker: it runs the operations that run in the browser off the page's thread, so that
 * a heavy input never holds up the page, and a run that goes on too long can be stopped by ending
 * the worker. One request in; a message once the operation's code is loaded, then its answer.
 */
import type { Answer } from './api.ts'
import { runOperationHere } from './run-here.ts'

export interface PageWorkerRequest {
  name: string
  body: unknown
}

export type PageWorkerMessage = { loaded: true } | { answer: Answer }

const post = (message: PageWorkerMessage) => self.postMessage(message)

self.addEventListener('message', async (event: MessageEvent<PageWorkerRequest>) => {
  const answer = await runOperationHere(event.data.name, event.data.body, () => post({ loaded: true }))
  post({ answer })
})
