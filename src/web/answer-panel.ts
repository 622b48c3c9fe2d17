import { type Answer, callOperation, curlCommand } from './api.ts'
import { h } from './dom.ts'

export type StatusKind = 'busy' | 'done' | 'error'

export interface AnswerPanel {
  status: HTMLElement
  answerSlot: HTMLElement
  curlSlot: HTMLElement
  showStatus(kind: StatusKind, text: string, ...extra: Array<Node | string>): void
  /** "Answered in … ms of processing.", with the time where the tests and a reader find it, and where it ran. */
  showProcessingTime(processingTime: number, inPage?: boolean): void
  /**
   * Sends one call, shown as curl too, or with `inPage` runs it in the page. A newer call aborts the
   * older one, whose answer is then dropped: the answer, or undefined when the call failed (the
   * status says so) or was superseded.
   */
  send(operation: string, body: unknown, inPage?: boolean): Promise<Answer | undefined>
  abort(): void
}

/** The answer side of an operation's page and of the pipeline's: its status line, answer and curl command. */
export function answerPanel(): AnswerPanel {
  const status = h('p', { class: 'status', role: 'status', id: 'answer-status' })
  const answerSlot = h('div', { class: 'answer-slot', id: 'answer' })
  const curlSlot = h('pre', { class: 'code curl', tabindex: 0 })
  let controller: AbortController | undefined
  let sequence = 0

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
        'Answered in ',
        h('span', { id: 'processing-time' }, `${processingTime} ms`),
        inPage ? ' of processing, in your browser.' : ' of processing.',
      ),
    async send(operation, body, inPage = false) {
      curlSlot.textContent = curlCommand(operation, body)
      controller?.abort()
      controller = new AbortController()
      const mine = ++sequence
      showStatus('busy', 'Running…')
      try {
        const answer = inPage ? await (await import('./in-page.ts')).runInPage(operation, body) : await callOperation(operation, body, controller.signal)
        return mine === sequence ? answer : undefined
      } catch (error) {
        if (mine === sequence) showStatus('error', `The request failed: ${(error as Error).message}`)
        return undefined
      }
    },
    abort: () => controller?.abort(),
  }
}
