import { h } from './dom.ts'
import { cellText, isRecord, type Json } from './views.ts'

/** Where an item's span lies in the text: the names of its start and end (exclusive) positions, in UTF-16 code units. */
export interface SpanKeys {
  start: string
  end: string
}

type Item = Record<string, Json>

/** The most rows the table draws; every span is still marked in the text. */
const MAX_ROWS = 1000

/** Whether every item of `value` is an object with the positions `keys` name. */
export const isSpanList = (value: unknown, keys: SpanKeys): value is Item[] =>
  Array.isArray(value) && value.every((item) => isRecord(item) && typeof item[keys.start] === 'number' && typeof item[keys.end] === 'number')

/** The text of each span, in order: what "Copy all" copies. */
export const spanTexts = (text: string, items: Item[], keys: SpanKeys): string[] =>
  items.map((item) => text.slice(item[keys.start] as number, item[keys.end] as number))

/** The spans marked in the text, then a table of them with what each holds (a match's groups, a column each). */
export function spansView(text: string, items: Item[], keys: SpanKeys): HTMLElement {
  return h('div', { class: 'spans' }, markedText(text, items, keys), spansTable(text, items, keys))
}

/** The text with each span in a <mark>; an empty span, or one inside the one before, is in the table only. */
function markedText(text: string, items: Item[], keys: SpanKeys): HTMLElement {
  const pre = h('pre', { class: 'code marked-text', id: 'answer-marked', tabindex: 0, 'aria-label': 'The text with what was found marked' })
  let at = 0
  for (const item of items) {
    const start = item[keys.start] as number
    const end = item[keys.end] as number
    if (start < at || end <= start) continue
    pre.append(text.slice(at, start), h('mark', {}, text.slice(start, end)))
    at = end
  }
  pre.append(text.slice(at))
  return pre
}

/** A capture group as its match gives it: a number, a name or null, and the text it took (null when it took no part). */
const isCapture = (value: Json): value is Item => isRecord(value) && 'value' in value && ('number' in value || 'name' in value)

const captureHeading = (capture: Item, position: number) =>
  typeof capture.name === 'string' ? capture.name : `$${typeof capture.number === 'number' ? capture.number : position + 1}`

/**
 * A row per span: its number, text and position, then each capture group, then the other fields
 * the items hold; a field that only repeats each span's text is left out.
 */
function spansTable(text: string, items: Item[], keys: SpanKeys): HTMLElement {
  const texts = spanTexts(text, items, keys)
  const fields = [...new Set(items.flatMap((item) => Object.keys(item)))].filter(
    (key) => key !== keys.start && key !== keys.end && !items.every((item, index) => item[key] === texts[index]),
  )
  const captureFields = fields.filter((key) => items.every((item) => Array.isArray(item[key]) && (item[key] as Json[]).every(isCapture)))
  const otherFields = fields.filter((key) => !captureFields.includes(key))
  const captureHeadings = captureFields.flatMap((key) => ((items[0]?.[key] as Item[] | undefined) ?? []).map(captureHeading))
  const shown = items.slice(0, MAX_ROWS)
  const rows = shown.map((item, index) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, String(index + 1)),
      h('td', {}, h('code', {}, texts[index])),
      h('td', {}, `${item[keys.start]}–${item[keys.end]}`),
      ...captureFields.flatMap((key) =>
        (item[key] as Item[]).map((capture) => h('td', {}, capture.value === null ? '—' : h('code', {}, cellText(capture.value)))),
      ),
      ...otherFields.map((key) => h('td', {}, cellText(item[key]))),
    ),
  )
  const frame = h(
    'div',
    { class: 'table-frame', tabindex: 0, role: 'region', 'aria-label': 'What was found, one row each' },
    h(
      'table',
      { class: 'items spans-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, '#'),
          h('th', { scope: 'col' }, 'Text'),
          h('th', { scope: 'col' }, 'Position'),
          ...captureHeadings.map((heading) => h('th', { scope: 'col' }, heading)),
          ...otherFields.map((key) => h('th', { scope: 'col' }, key)),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
  )
  if (items.length <= MAX_ROWS) return frame
  return h('div', {}, frame, h('p', { class: 'hint' }, `The table shows the first ${MAX_ROWS.toLocaleString('en')} of ${items.length.toLocaleString('en')}.`))
}
