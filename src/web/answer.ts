import type { Answer } from './api.ts'
import type { OutputField } from './catalogue-types.ts'
import { copyButton, h } from './dom.ts'
import { isNextStep, nextStepLink } from './next-step.ts'
import { headlineOf, type ResultContext } from './result-view.ts'
import { instantsList, instantsOf, instantView, isEmpty, isRecord, isVerdicts, itemsTable, type Json, recordTable, stringList, verdictBadges } from './views.ts'

interface AnswerContext extends ResultContext {
  verdictField?: string
}

/** Dates keyed by what they date: shown beside the values they date, in the tables. */
interface Dates {
  records: Array<[string, Json]>
  byKey: Record<string, string>
  phrases: Record<string, { past: string; future: string }>
}

/**
 * Renders a successful answer to `request`: the result first, in the view its shape asks for, then
 * the other fields that say something (empty ones are left out), each in its view, then all of it
 * as JSON.
 */
export function renderData(answer: Extract<Answer, { success: true }>, context: AnswerContext, request: Record<string, unknown> = {}): HTMLElement {
  const data = answer.data as Record<string, Json>
  const view = h('div', { class: 'answer' }, verdictLine(data, context))
  const shown = new Set<string>(context.verdictField === undefined ? [] : [context.verdictField])
  const dates = datesOf(data, context.outputFields)
  const headline = headlineOf(data, context, request)
  if (headline) view.append(headline.element)
  for (const name of headline?.shows ?? []) shown.add(name)
  // A field that repeats the result as shown says nothing new.
  for (const [name, value] of Object.entries(data)) if (!shown.has(name) && repeats(value, data.result, headline?.text)) shown.add(name)

  const { scalars, blocks, tables } = fieldViews(data, context.outputFields, shown, dates, typeof request.input === 'string' ? request.input : undefined)
  if (scalars.length > 0) view.append(h('dl', { class: 'data-fields' }, ...scalars))
  view.append(...blocks, ...tables, rawJson(data))
  return view
}

/** Whether a field only repeats the result: its text as shown, or a list of it alone. */
function repeats(value: Json, result: Json | undefined, shownText: string | undefined): boolean {
  if (typeof value === 'string') return value === shownText
  return Array.isArray(value) && value.length === 1 && value[0] === result && result !== undefined
}

/** "✓ valid: true", or "✗ valid: false (reason)", for an operation whose answer is a verdict. */
function verdictLine(data: Record<string, Json>, context: AnswerContext): HTMLElement | null {
  const verdict = context.verdictField === undefined ? undefined : data[context.verdictField]
  if (typeof verdict !== 'boolean') return null
  return h(
    'p',
    { class: `verdict ${verdict ? 'good' : 'bad'}` },
    verdict ? '✓ ' : '✗ ',
    `${context.verdictField}: ${verdict}`,
    verdict ? '' : String(data.reason ? ` (${data.reason})` : ''),
  )
}

function datesOf(data: Record<string, Json>, schemas: Record<string, OutputField>): Dates {
  const records = Object.entries(data).filter(([name, value]) => instantsOf(schemas[name]) === 'record' && isRecord(value))
  return {
    records,
    byKey: Object.assign({}, ...records.map(([, value]) => value)),
    phrases: Object.assign({}, ...records.map(([name]) => schemas[name]?.relative ?? {})),
  }
}

/** The fields besides the result, each in its view: scalars as a list, flat records as tables, lists and other objects as blocks. */
function fieldViews(data: Record<string, Json>, schemas: Record<string, OutputField>, shown: Set<string>, dates: Dates, text: string | undefined) {
  const scalars: HTMLElement[] = []
  const blocks: HTMLElement[] = []
  const tables: HTMLElement[] = []
  const dated = new Set<string>()
  const table = (name: string, record: Record<string, Json>) => {
    for (const key of Object.keys(record)) if (key in dates.byKey) dated.add(key)
    tables.push(recordTable(name, record, dates.byKey, dates.phrases))
  }
  for (const [name, value] of Object.entries(data)) {
    if (shown.has(name) || isEmpty(value) || name === 'result') continue
    const schema = schemas[name]
    if (instantsOf(schema) === 'record' && isRecord(value)) continue
    if (isRecord(value) && !isVerdicts(value) && Object.values(value).every((inner) => !isRecord(inner))) table(name, value)
    else if (typeof value === 'object' && value !== null) blocks.push(section(name, schema, blockView(name, value, schema, text)))
    else scalars.push(h('dt', { title: schema?.description ?? '' }, name), h('dd', {}, scalarView(value, schema)))
  }
  // An object result comes after the objects that describe it, as a token's header before its claims.
  if (isRecord(data.result) && !shown.has('result')) table('result', data.result)
  // Dates no table showed get their own list.
  for (const [name, value] of dates.records) {
    const rest = Object.entries(value as Record<string, string>).filter(([key]) => !dated.has(key))
    if (rest.length > 0) tables.push(recordTable(name, Object.fromEntries(rest), dates.byKey, dates.phrases))
  }
  return { scalars, blocks, tables }
}

/**
 * A list or an object in its view: instants, strings, verdicts as badges, guesses with the next
 * step of each (a button that runs it on `text`) or flat objects as a table, else its JSON.
 */
function blockView(name: string, value: Json[] | Record<string, Json>, schema: OutputField | undefined, text: string | undefined): HTMLElement {
  if (isVerdicts(value)) return verdictBadges(value)
  if (Array.isArray(value)) {
    if (instantsOf(schema) === 'list') return instantsList(value.map(String))
    if (value.every((item) => typeof item === 'string')) return stringList(value as string[])
    if (text !== undefined && isStepList(value)) return itemsTable(name, value, (cell, item) => stepCell(cell, item, text))
    if (isFlatList(value)) return itemsTable(name, value)
  }
  return h('pre', { class: 'code', tabindex: 0 }, JSON.stringify(value, null, 2))
}

/** All of the answer as JSON (the API's data, or its error with its code), folded, with a button to copy it. */
export function rawJson(data: object): HTMLElement {
  const json = JSON.stringify(data, null, 2)
  return h(
    'details',
    { class: 'raw' },
    h('summary', {}, 'The whole answer as JSON'),
    h(
      'div',
      { class: 'toolbar' },
      copyButton('Copy the whole answer', () => json),
    ),
    h('pre', { class: 'code', id: 'answer-json', tabindex: 0 }, json),
  )
}

function section(name: string, schema: OutputField | undefined, content: HTMLElement): HTMLElement {
  return h('section', { class: 'data-block', 'aria-label': name }, h('h3', { title: schema?.description ?? '' }, name), content)
}

function scalarView(value: Json, schema: OutputField | undefined): Node {
  if (typeof value === 'string') {
    if (schema?.format === 'date-time') return instantView(value)
    return h('span', { class: 'string-value' }, value)
  }
  return h('code', {}, String(value))
}

/** A list of objects whose values are all scalars. */
const isFlatList = (value: Json[]): value is Array<Record<string, Json>> =>
  value.every((item) => isRecord(item) && Object.values(item).every((inner) => typeof inner !== 'object' || inner === null))

/** A list of objects of which some suggest a next step: guesses at what the text is. */
const isStepList = (value: Json[]): value is Array<Record<string, Json>> => value.every(isRecord) && value.some((item) => Object.values(item).some(isNextStep))

/**
 * A next step as a button that opens its tool on the text, read trimmed as the guess read it: from
 * the guess's `details.payloadStart` when it gives one (a data URI's payload), which is what the step reads.
 */
function stepCell(cell: Json, item: Record<string, Json>, text: string): Node | undefined {
  if (!isNextStep(cell)) return undefined
  const start = isRecord(item.details) && typeof item.details.payloadStart === 'number' ? item.details.payloadStart : 0
  return nextStepLink(cell, text.trim().slice(start))
}
