import type { OutputField } from './catalogue-types.ts'
import { diffView, isChangeList, isHunkList } from './diff-view.ts'
import { copyButton, h, saveFile } from './dom.ts'
import { imageBlob, imageView } from './image-view.ts'
import { isSpanList, spansView, spanTexts } from './spans-view.ts'
import { instantsList, instantsOf, isRecord, type Json, swatch } from './views.ts'

export interface ResultContext {
  /** Names the downloads. */
  name: string
  category: string
  outputFields: Record<string, OutputField>
}

/** The answer's result, shown first: the block, the fields it shows, and the text it copies. */
export interface Headline {
  element: HTMLElement
  shows: string[]
  text: string
}

const DIFF_FIELDS = ['result', 'hunks', 'changes', 'additions', 'deletions']

/**
 * The result in the view its schema and shape ask for, with a Copy of exactly what it shows: an
 * image, a diff, a list (Copy all, one a line), spans marked in the text sent, or text (a
 * converter's document as its JSON text). None for an object the tables show key by key.
 */
export function headlineOf(data: Record<string, Json>, context: ResultContext, request: Record<string, unknown>): Headline | undefined {
  const { result } = data
  const schema = context.outputFields.result
  if (result === undefined || (isRecord(result) && !isDocument(schema, context.category))) return undefined
  const blob = typeof result === 'string' && typeof data.mediaType === 'string' ? imageBlob(result, data.mediaType) : undefined
  if (blob) {
    // The image's own buttons copy and save it as an image; its text is what this one copies, said as such.
    const label = blob.type === 'image/png' ? 'Copy base64' : 'Copy SVG markup'
    return {
      element: resultBlock('result', [copyButton(label, () => result as string)], imageView(blob, context.name)),
      shows: ['result'],
      text: result as string,
    }
  }
  if (typeof result === 'string' && (isHunkList(data.hunks) || isChangeList(data.changes))) {
    return { element: resultBlock('result', textButtons(result, true, context.name), diffView(data)), shows: DIFF_FIELDS, text: result }
  }
  const spans = schema?.spans
  const spanned = spans && request[spans.text]
  if (spans && typeof spanned === 'string' && isSpanList(result, spans) && result.length > 0) {
    const lines = spanTexts(spanned, result, spans).join('\n')
    return { element: resultBlock('result', listButtons(lines, context.name), spansView(spanned, result, spans)), shows: ['result'], text: lines }
  }
  const list = listOf(data, schema)
  if (list) {
    const lines = list.join('\n')
    const element = resultBlock(
      'result',
      listButtons(lines, context.name),
      h('ol', { class: 'result-list', id: 'answer-list' }, ...list.map((item) => h('li', {}, h('code', {}, item)))),
    )
    return { element, shows: ['result', 'results'], text: lines }
  }
  return textHeadline(data, schema, context.name)
}

/** What a converter answers in a shape its schema leaves open is the converted document: shown as its JSON text, not key by key. */
const isDocument = (schema: OutputField | undefined, category: string) => schema?.anyJson === true && category === 'converters'

/**
 * The values the answer lists: all of `results` when the result is their first, or a result that
 * is itself a list of strings (and not a document).
 */
function listOf(data: Record<string, Json>, schema: OutputField | undefined): string[] | undefined {
  const { result, results } = data
  const listed =
    Array.isArray(results) && results.length > 1 && results[0] === result && results.every((item) => typeof item === 'string' || typeof item === 'number')
  if (listed) return results.map(String)
  if (Array.isArray(result) && result.length > 0 && result.every((item) => typeof item === 'string') && !schema?.anyJson) return result as string[]
  return undefined
}

/** A result as text, or as its JSON text; in the time zone the answer names, when its schema says which field writes it there. */
function textHeadline(data: Record<string, Json>, schema: OutputField | undefined, name: string): Headline {
  const { result } = data
  const zoned = zonedResult(data, schema)
  const text = zoned?.text ?? (typeof result === 'string' ? result : JSON.stringify(result, null, 2))
  const heading = zoned ? `result in ${zoned.zone}` : 'result'
  const shows = zoned ? ['result', zoned.field] : ['result']
  if (Array.isArray(result) && instantsOf(schema) === 'list') {
    return { element: resultBlock(heading, textButtons(text, false, name), instantsList(result.map(String))), shows, text }
  }
  const tight = typeof data.mediaType === 'string' && data.mediaType.startsWith('text/plain')
  const pre = h('pre', { class: `code result-text${tight ? ' tight' : ''}`, id: 'answer-result', tabindex: 0 }, text)
  const content = schema?.format === 'color' && typeof result === 'string' ? h('div', { class: 'swatch-row' }, swatch(result), pre) : pre
  return { element: resultBlock(heading, textButtons(text, zoned !== undefined || typeof result === 'string', name), content), shows, text }
}

/** The result as the answer writes it in the time zone asked, when that zone is not UTC (in which the result is already written). */
function zonedResult(data: Record<string, Json>, schema: OutputField | undefined): { text: string; zone: string; field: string } | undefined {
  if (!schema?.zoned) return undefined
  const zone = data[schema.zoned.zone]
  const text = data[schema.zoned.value]
  return typeof zone === 'string' && zone !== 'UTC' && typeof text === 'string' ? { text, zone, field: schema.zoned.value } : undefined
}

function resultBlock(heading: string, buttons: HTMLElement[], content: HTMLElement): HTMLElement {
  return h('section', { class: 'result', 'aria-label': 'Result' }, h('div', { class: 'result-head' }, h('h3', {}, heading), ...buttons), content)
}

const textButtons = (text: string, isText: boolean, name: string) => [copyButton('Copy', () => text), downloadButton(text, isText, name)]

const listButtons = (lines: string, name: string) => [copyButton('Copy all', () => lines), downloadButton(lines, true, name)]

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
