import { type Answer, callOperation, curlCommand } from './api.ts'
import { h } from './dom.ts'
import { ONLY_HERE_REFUSAL, onlyInThisBrowser } from './only-here.ts'

export type StatusKind = 'busy' | 'done' | 'error'

export interface AnswerPanel {
  status: HTMLElement
  answerSlot: HTMLElement
  curlSlot: HTMLElement
  showStatus(kind: StatusKind, text: string, ...extra: Array<Node | string>): void
  /** Where the answer was worked out ("Answered in your browser."), then, less prominent, how long it took. */
  showProcessingTime(processingTime: number, inPage?: boolean): void
  /**
   * Sends one call, shown as curl too, or with `inPage` runs it in the page. A newer call aborts the
   * older one, whose answer is then dropped: the answer, or undefined when the call failed (the
   * status says so) or was superseded.
   */
  send(operation: string, body: unknown, inPage?: boolean): Promise<Answer | undefined>
  abort(): void
}

/** A processing time as a person reads it, short enough to keep the status on one line on a phone: under a millisecond, whole milliseconds, then seconds. */
function durationInWords(milliseconds: number): string {
  if (milliseconds < 1) return '<1 ms'
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`
  return `${(milliseconds / 1000).toFixed(1)} s`
}

/** The answer side of an operation's page and of the pipeline's: its status line, answer and curl command. */
export function answerPanel(): AnswerPanel {
  const status = h('p', { class: 'status', role: 'status', id: 'answer-status' })
  const answerSlot = h('div', { class: 'answer-slot', id: 'answer' })
  const curlSlot = h('pre', { class: 'code curl', tabindex: 0 })
  let controller: AbortController | undefined
  let sequence = 0
  /** The runner of operations in the page, loaded with the first of them. */
  let inPageRunner: typeof import('./in-page.ts') | undefined

  const showStatus = (kind: StatusKind, text: string, ...extra: Array<Node | string>) => {
    status.className = `status ${kind}`
    status.replaceChildren(text, ...extra)
    answerSlot.setAttribute('aria-busy', String(kind === 'busy'))
  }

  return {
    status,
    answerSlot,
    curlSlot,
    showStatus,
    showProcessingTime: (processingTime, inPage = false) =>
      showStatus(
        'done',
        inPage ? 'Answered in your browser. ' : 'Answered by this service. ',
        h('span', { class: 'timing', id: 'processing-time' }, `Took ${durationInWords(processingTime)}.`),
      ),
    async send(operation, body, inPage = false) {
      curlSlot.textContent = curlCommand(operation, body)
      if (!inPage && onlyInThisBrowser()) {
        showStatus('error', ONLY_HERE_REFUSAL)
        return undefined
      }
      controller?.abort()
      controller = new AbortController()
      const mine = ++sequence
      showStatus('busy', 'Running…')
      try {
        if (inPage) inPageRunner ??= await import('./in-page.ts')
        const answer = inPage ? await inPageRunner!.runInPage(operation, body) : await callOperation(operation, body, controller.signal)
        return mine === sequence ? answer : undefined
      } catch (error) {
        if (mine === sequence) showStatus('error', `The request failed: ${(error as Error).message}`)
        return undefined
      }
    },
    abort: () => {
      controller?.abort()
      // A run in the page cannot hear the signal: its answer is no longer awaited, and its worker is ended.
      sequence++
      inPageRunner?.dropRunInPage()
    },
  }
}
