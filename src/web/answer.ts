import type { Answer } from './api.ts'
import { copyButton, h } from './dom.ts'

interface AnswerContext {
  /** The fields of `data` with their descriptions. */
  outputFields: Record<string, string>
  verdictField?: string
}

/** Renders a successful answer: the result first, then every other field of `data`, then all of it as JSON. */
export function renderData(answer: Extract<Answer, { success: true }>, context: AnswerContext): HTMLElement {
  const { data } = answer
  const view = h('div', { class: 'answer' })
  const verdict = context.verdictField === undefined ? undefined : data[context.verdictField]
  if (typeof verdict === 'boolean') {
    view.append(
      h(
        'p',
        { class: `verdict ${verdict ? 'good' : 'bad'}` },
        verdict ? '✓ ' : '✗ ',
        `${context.verdictField}: ${verdict}`,
        verdict ? '' : String(data.reason ? ` (${data.reason})` : ''),
      ),
    )
  }
  if ('result' in data) view.append(resultView(data))
  const others = Object.entries(data).filter(([name]) => name !== 'result')
  if (others.length > 0) {
    view.append(
      h(
        'dl',
        { class: 'data-fields' },
        ...others.flatMap(([name, value]) => [
          h('dt', { title: context.outputFields[name] ?? '' }, name),
          h('dd', {}, name === 'changes' && isChangeList(value) ? changesView(value) : valueView(value)),
        ]),
      ),
    )
  }
  const json = JSON.stringify(data, null, 2)
  view.append(
    h(
      'details',
      { class: 'raw' },
      h('summary', {}, 'All data as JSON'),
      h(
        'div',
        { class: 'toolbar' },
        copyButton('Copy JSON', () => json),
      ),
      h('pre', { class: 'code', id: 'answer-json', tabindex: 0 }, json),
    ),
  )
  return view
}

function resultView(data: Record<string, unknown>): HTMLElement {
  const result = data.result
  const text = typeof result === 'string' ? result : JSON.stringify(result, null, 2)
  const block = h(
    'section',
    { class: 'result', 'aria-label': 'Result' },
    h(
      'div',
      { class: 'result-head' },
      h('h3', {}, 'result'),
      copyButton('Copy', () => text),
    ),
  )
  const image = typeof result === 'string' && typeof data.mediaType === 'string' ? imageOf(result, data.mediaType) : undefined
  if (image) block.append(image)
  if (typeof result === 'string' && Array.isArray(data.hunks)) block.append(patchView(result))
  else if (!image)
    block.append(
      h(
        'pre',
        {
          class: `code result-text${typeof data.mediaType === 'string' && data.mediaType.startsWith('text/plain') ? ' tight' : ''}`,
          id: 'answer-result',
          tabindex: 0,
        },
        text,
      ),
    )
  return block
}

/** An image result (a QR code or a barcode) drawn from a blob: URL, which the page's CSP allows where an inline data: URL would not be needed. */
function imageOf(result: string, mediaType: string): HTMLElement | undefined {
  let blob: Blob
  if (mediaType === 'image/svg+xml') blob = new Blob([result], { type: mediaType })
  else if (mediaType === 'image/png') blob = new Blob([Uint8Array.from(atob(result), (char) => char.charCodeAt(0))], { type: mediaType })
  else return undefined
  const url = URL.createObjectURL(blob)
  const image = h('img', { src: url, alt: 'The generated code', class: 'result-image', id: 'answer-image' })
  image.addEventListener('load', () => URL.revokeObjectURL(url), { once: true })
  return h('div', { class: 'image-frame' }, image)
}

/** A unified diff with its added and removed lines coloured. */
function patchView(patch: string): HTMLElement {
  const pre = h('pre', { class: 'code patch', id: 'answer-result', tabindex: 0 })
  for (const line of patch.split('\n')) {
    const kind =
      line.startsWith('+++') || line.startsWith('---')
        ? 'file'
        : line.startsWith('@@')
          ? 'hunk'
          : line.startsWith('+')
            ? 'added'
            : line.startsWith('-')
              ? 'removed'
              : ''
    pre.append(h('span', { class: kind }, `${line}\n`))
  }
  return pre
}

interface Change {
  value: string
  added: boolean
  removed: boolean
}

function isChangeList(value: unknown): value is Change[] {
  return Array.isArray(value) && value.every((change) => typeof change === 'object' && change !== null && typeof change.value === 'string')
}

/** The changes of a diff inline, insertions and deletions marked as such (not by colour alone). */
function changesView(changes: Change[]): HTMLElement {
  return h(
    'pre',
    { class: 'code changes', tabindex: 0 },
    ...changes.map((change) => (change.added ? h('ins', {}, change.value) : change.removed ? h('del', {}, change.value) : change.value)),
  )
}

function valueView(value: unknown): Node {
  if (value === null) return h('code', {}, 'null')
  if (typeof value === 'object') {
    if (Array.isArray(value) && value.length === 0) return h('code', {}, '[]')
    return h('pre', { class: 'code', tabindex: 0 }, JSON.stringify(value, null, 2))
  }
  if (typeof value === 'string') return h('span', { class: 'string-value' }, value)
  return h('code', {}, String(value))
}
