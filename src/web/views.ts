import type { OutputField } from './catalogue-types.ts'
import { h } from './dom.ts'

// Views for the shapes of answer fields, chosen by what the output schema says a value is.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export const isRecord = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Nothing worth a line: null, an empty string, list or object. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  return isRecord(value) && Object.keys(value).length === 0
}

const isInstant = (schema: OutputField | undefined) => schema?.format === 'date-time'

/** A list of instants, or a record of them (dates keyed by what they date). */
export const instantsOf = (schema: OutputField | undefined): 'list' | 'record' | undefined =>
  isInstant(schema?.items) ? 'list' : isInstant(schema?.values) ? 'record' : undefined

const UNITS: Array<[number, string, string]> = [
  [365.25 * 86_400, 'year', 'years'],
  [30.44 * 86_400, 'month', 'months'],
  [7 * 86_400, 'week', 'weeks'],
  [86_400, 'day', 'days'],
  [3_600, 'h', 'h'],
  [60, 'min', 'min'],
  [1, 's', 's'],
]

/** "in 14 h", "3 days ago": the largest unit that counts at least one, rounded down. */
export function relativeTime(instant: Date, now = Date.now()): string {
  const seconds = (instant.getTime() - now) / 1000
  const size = Math.abs(seconds)
  if (size < 1) return 'now'
  const [unit, one, many] = UNITS.find(([length]) => size >= length) ?? UNITS[UNITS.length - 1]
  const count = Math.floor(size / unit)
  const amount = `${count} ${count === 1 ? one : many}`
  return seconds > 0 ? `in ${amount}` : `${amount} ago`
}

const localTime = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
})

/** An instant as a person reads it: weekday and local time, how far from now, and the value as answered. */
export function instantView(iso: string, phrase?: { past: string; future: string }): HTMLElement {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return h('span', { class: 'string-value' }, iso)
  const relative = relativeTime(date)
  return h(
    'span',
    { class: 'instant' },
    h('time', { datetime: iso }, localTime.format(date)),
    ' ',
    h('span', { class: 'relative' }, phrase ? `${date.getTime() > Date.now() ? phrase.future : phrase.past} ${relative}` : relative),
    ' ',
    h('code', { class: 'iso' }, iso),
  )
}

export function instantsList(values: string[]): HTMLElement {
  return h('ol', { class: 'instants' }, ...values.map((value) => h('li', {}, instantView(value))))
}

/** A key and value table of an object; a key dated by `dates` shows its date beside its value. */
export function recordTable(
  label: string,
  record: Record<string, Json>,
  dates: Record<string, string> = {},
  phrases: Record<string, { past: string; future: string }> = {},
): HTMLElement {
  return h(
    'table',
    { class: 'record' },
    h('caption', {}, label),
    h(
      'tbody',
      {},
      ...Object.entries(record).map(([key, value]) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, key),
          h(
            'td',
            {},
            typeof value === 'string' ? h('span', { class: 'string-value' }, value) : h('code', {}, compact(value)),
            ...(typeof dates[key] === 'string' ? [h('br', {}), instantView(dates[key], phrases[key])] : []),
          ),
        ),
      ),
    ),
  )
}

const compact = (value: Json) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value))

/** Whether an object holds only numbers and verdicts (booleans), one level of grouping deep. */
export function isVerdicts(value: unknown): value is Record<string, Json> {
  if (!isRecord(value)) return false
  let booleans = 0
  for (const inner of Object.values(value)) {
    if (typeof inner === 'boolean') booleans++
    else if (isRecord(inner)) {
      if (!Object.values(inner).every((leaf) => typeof leaf === 'boolean')) return false
      booleans += Object.keys(inner).length
    } else if (typeof inner !== 'number') return false
  }
  return booleans > 0
}

/** "normalText" as "normal text", a short code such as "aa" in capitals. */
const words = (key: string) => (key.length <= 3 ? key.toUpperCase() : key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase())

/** Numbers as facts and each verdict as a badge that says pass or fail in words, not by colour alone. */
export function verdictBadges(value: Record<string, Json>): HTMLElement {
  const facts: HTMLElement[] = []
  const badges: HTMLElement[] = []
  const badge = (label: string, passed: boolean) =>
    h('li', { class: `verdict-badge ${passed ? 'pass' : 'fail'}` }, `${passed ? '✓' : '✗'} ${label}: ${passed ? 'pass' : 'fail'}`)
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'number') facts.push(h('p', { class: 'fact' }, `${words(key)}: `, h('strong', {}, String(inner))))
    else if (typeof inner === 'boolean') badges.push(badge(words(key), inner))
    else if (isRecord(inner)) for (const [leaf, passed] of Object.entries(inner)) badges.push(badge(`${words(key)} ${words(leaf)}`, passed === true))
  }
  return h('div', { class: 'verdicts' }, ...facts, h('ul', { class: 'badges' }, ...badges))
}

/** A colour shown as a swatch (on a checkerboard, so that transparency shows), with its value. */
export function swatch(color: string): HTMLElement {
  const sample = h('span', { class: 'swatch-colour', role: 'img', 'aria-label': `A swatch of ${color}` })
  // Through the CSSOM, which the page's CSP allows where a style attribute is refused.
  sample.style.setProperty('background-color', color)
  return h('span', { class: 'swatch' }, sample)
}

export function stringList(values: string[]): HTMLElement {
  return h('ul', { class: 'string-list' }, ...values.map((value) => h('li', {}, value)))
}

/** A value in a table cell as a person reads it: nothing as a dash, an object as its keys and values, a list as its items. */
export function cellText(value: Json | undefined): string {
  if (value === null || value === undefined) return '—'
  if (Array.isArray(value)) return value.map((item) => cellText(item)).join(', ')
  if (isRecord(value))
    return Object.entries(value)
      .map(([key, inner]) => `${key}: ${cellText(inner)}`)
      .join('; ')
  return String(value)
}

/**
 * A list of objects as a table, a row each and a column per key; `cell` may draw a value of an
 * item its own way. In a frame that scrolls sideways, as a wide table does on a phone.
 */
export function itemsTable(
  label: string,
  items: Array<Record<string, Json>>,
  cell: (value: Json, item: Record<string, Json>) => Node | undefined = () => undefined,
): HTMLElement {
  const keys = [...new Set(items.flatMap((item) => Object.keys(item)))]
  return h(
    'div',
    { class: 'table-frame', tabindex: 0, role: 'region', 'aria-label': label },
    h(
      'table',
      { class: 'items' },
      h('thead', {}, h('tr', {}, ...keys.map((key) => h('th', { scope: 'col' }, key)))),
      h('tbody', {}, ...items.map((item) => h('tr', {}, ...keys.map((key) => h('td', {}, cell(item[key], item) ?? cellText(item[key])))))),
    ),
  )
}
