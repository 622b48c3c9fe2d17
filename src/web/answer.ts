import type { Answer } from './api.ts'
import type { OutputField } from './catalogue-types.ts'
import { diffView, isChangeList, isHunkList } from './diff-view.ts'
import { copyButton, h, saveFile } from './dom.ts'
import { imageBlob, imageView } from './image-view.ts'
import { instantsList, instantsOf, instantView, isEmpty, isRecord, isVerdicts, type Json, recordTable, stringList, swatch, verdictBadges } from './views.ts'

interface AnswerContext {
  /** Names the downloads. */
  name: string
  /** The fields of `data`: their descriptions and what their schemas say they are. */
  outputFields: Record<string, OutputField>
  verdictField?: string
}

/** Dates keyed by what they date: shown beside the values they date, in the tables. */
interface Dates {
  records: Array<[string, Json]>
  byKey: Record<string, string>
  phrases: Record<string, { past: string; future: string }>
}

/**
 * Renders a successful answer: the result first, in the view its shape asks for, then the other
 * fields that say something (empty ones are left out), each in its view, then all of it as JSON.
 */
export function renderData(answer: Extract<Answer, { success: true }>, context: AnswerContext): HTMLElement {
  const data = answer.data as Record<string, Json>
  const view = h('div', { class: 'answer' }, verdictLine(data, context))
  const shown = new Set<string>(context.verdictField === undefined ? [] : [context.verdictField])
  const isDiff = typeof data.result === 'string' && (isHunkList(data.hunks) || isChangeList(data.changes))
  if (isDiff) for (const name of ['hunks', 'changes', 'additions', 'deletions']) shown.add(name)
  const dates = datesOf(data, context.outputFields)

  if ('result' in data && !isRecord(data.result)) {
    view.append(resultView(data, context, isDiff))
    shown.add('result')
  }
  // A field that repeats the result says nothing new.
  for (const [name, value] of Object.entries(data)) if (name !== 'result' && typeof value === 'string' && value === data.result) shown.add(name)

  const { scalars, blocks, tables } = fieldViews(data, context.outputFields, shown, dates)
  if (scalars.length > 0) view.append(h('dl', { class: 'data-fields' }, ...scalars))
  view.append(...blocks, ...tables, rawJson(data))
  return view
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

/** The fields besides the result, each in its view: scalars as a list, lists and objects as blocks, flat records as tables. */
function fieldViews(data: Record<string, Json>, schemas: Record<string, OutputField>, shown: Set<string>, dates: Dates) {
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
    const instants = instantsOf(schema)
    if (instants === 'list' && Array.isArray(value)) blocks.push(section(name, schema, instantsList(value.map(String))))
    else if (instants === 'record' && isRecord(value)) continue
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string')) blocks.push(section(name, schema, stringList(value as string[])))
    else if (isVerdicts(value)) blocks.push(section(name, schema, verdictBadges(value)))
    else if (isRecord(value) && Object.values(value).every((inner) => !isRecord(inner))) table(name, value)
    else if (typeof value === 'object' && value !== null)
      blocks.push(section(name, schema, h('pre', { class: 'code', tabindex: 0 }, JSON.stringify(value, null, 2))))
    else scalars.push(h('dt', { title: schema?.description ?? '' }, name), h('dd', {}, scalarView(value, schema)))
  }
  // An object result comes after the objects that describe it, as a token's header before its claims.
  if (isRecord(data.result)) table('result', data.result)
  // Dates no table showed get their own list.
  for (const [name, value] of dates.records) {
    const rest = Object.entries(value as Record<string, string>).filter(([key]) => !dated.has(key))
    if (rest.length > 0) tables.push(recordTable(name, Object.fromEntries(rest), dates.byKey, dates.phrases))
  }
  return { scalars, blocks, tables }
}

/** All of the answer as JSON, folded, with a button to copy it. */
function rawJson(data: Record<string, Json>): HTMLElement {
  const json = JSON.stringify(data, null, 2)
  return h(
    'details',
    { class: 'raw' },
    h('summary', {}, 'JSON'),
    h(
      'div',
      { class: 'toolbar' },
      copyButton('Copy JSON', () => json),
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

function resultView(data: Record<string, Json>, context: AnswerContext, isDiff: boolean): HTMLElement {
  const result = data.result
  const schema = context.outputFields.result
  const text = typeof result === 'string' ? result : JSON.stringify(result, null, 2)
  const blob = typeof result === 'string' && typeof data.mediaType === 'string' ? imageBlob(result, data.mediaType) : undefined
  // An image's own buttons copy and save it as an image; its text is what this one copies, said as such.
  const copyLabel = blob === undefined ? 'Copy' : blob.type === 'image/png' ? 'Copy base64' : 'Copy SVG markup'
  const block = h(
    'section',
    { class: 'result', 'aria-label': 'Result' },
    h(
      'div',
      { class: 'result-head' },
      h('h3', {}, 'result'),
      copyButton(copyLabel, () => text),
      blob === undefined ? downloadButton(text, typeof result === 'string', context.name) : null,
    ),
  )
  if (blob) block.append(imageView(blob, context.name))
  else if (isDiff) block.append(diffView(data))
  else if (Array.isArray(result) && instantsOf(schema) === 'list') block.append(instantsList(result.map(String)))
  else {
    const pre = h(
      'pre',
      {
        class: `code result-text${typeof data.mediaType === 'string' && data.mediaType.startsWith('text/plain') ? ' tight' : ''}`,
        id: 'answer-result',
        tabindex: 0,
      },
      text,
    )
    block.append(schema?.format === 'color' && typeof result === 'string' ? h('div', { class: 'swatch-row' }, swatch(result), pre) : pre)
  }
  return block
}

/** Saves a text result as a file named after the operation: plain text, or JSON for a structured result. */
function downloadButton(text: string, isText: boolean, name: string): HTMLElement {
  const [type, extension] = isText ? ['text/plain', 'txt'] : ['application/json', 'json']
  return h(
    'button',
    {
      type: 'button',
      class: 'secondary small',
      id: 'download-result',
      onclick: () => saveFile(new Blob([text], { type: `${type};charset=utf-8` }), `${name}.${extension}`),
    },
    'Download',
  )
}
