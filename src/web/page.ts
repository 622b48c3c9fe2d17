import { copyButton, h, richText } from './dom.ts'

export interface PageParts {
  attributes: Record<string, string>
  category: string
  title: string
  summary: string
  description: string
  /** The API's names the description uses, as the page shows them (see `richText`). */
  names?: ReadonlyMap<string, string>
  /** The example buttons, where there are examples. */
  examples?: HTMLElement
  inputHeading: string
  formElement: HTMLElement
  status: HTMLElement
  answerSlot: HTMLElement
  curlSlot: HTMLElement
}

/** The page of an operation or of the pipeline: heading and description, the form beside the answer. */
export function pageLayout(parts: PageParts): HTMLElement {
  const { attributes, category, title, summary, description, names, examples, inputHeading, formElement, status, answerSlot, curlSlot } = parts
  return h(
    'article',
    attributes,
    h('p', { class: 'crumbs' }, h('a', { href: '/' }, 'All tools'), ` / ${category}`),
    h('h1', { tabindex: -1 }, title),
    h('p', { class: 'summary' }, summary),
    h('details', { class: 'about' }, h('summary', {}, 'How it works'), h('p', {}, ...richText(description, names))),
    ...(examples ? [examples] : []),
    h(
      'div',
      { class: 'tool-grid' },
      h('section', { class: 'panel', 'aria-labelledby': 'input-heading' }, h('h2', { id: 'input-heading' }, inputHeading), formElement),
      h(
        'section',
        { class: 'panel output', 'aria-labelledby': 'answer-heading' },
        h('h2', { id: 'answer-heading' }, 'Answer'),
        status,
        answerSlot,
        h(
          'details',
          { class: 'request' },
          h('summary', {}, 'The same request with curl'),
          h(
            'div',
            { class: 'toolbar' },
            copyButton('Copy command', () => curlSlot.textContent ?? ''),
          ),
          curlSlot,
        ),
      ),
    ),
  )
}
