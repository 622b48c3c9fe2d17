import { type DevutilsError, isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { lineAndColumn } from '../../lib/json/value.ts'
import { scanHtml, tagEnd } from '../../lib/markup/html-scan.ts'
import { type Scan, tooDeep } from './languages.ts'

/**
 * Each tag of an XML text, in one pass: comments, CDATA sections, processing instructions and the
 * DOCTYPE are skipped, as they hold none.
 */
function eachXmlTag(input: string, visit: (start: number, end: number) => boolean | undefined): void {
  let i = 0
  for (;;) {
    const lt = input.indexOf('<', i)
    if (lt === -1) break
    const skipTo = (end: string, from: number) => {
      const at = input.indexOf(end, from)
      return at === -1 ? input.length : at + end.length
    }
    if (input.startsWith('<!--', lt)) i = skipTo('-->', lt + 4)
    else if (input.startsWith('<![CDATA[', lt)) i = skipTo(']]>', lt + 9)
    else if (input.startsWith('<?', lt)) i = skipTo('?>', lt + 2)
    else if (input.startsWith('<!', lt)) {
      // A DOCTYPE's internal subset holds declarations in brackets, each with its own `>`.
      const bracket = input.indexOf('[', lt)
      const close = input.indexOf('>', lt)
      i = bracket !== -1 && (close === -1 || bracket < close) ? skipTo(']', bracket) : skipTo('>', lt)
      i = skipTo('>', i - 1)
    } else {
      const end = tagEnd(input, lt + 1)
      if (end === -1) break
      i = end + 1
      if (visit(lt, end) === false) return
    }
  }
}

/**
 * The most elements, attributes and texts an XML text may hold: xml-formatter builds an object for
 * each and writes its answer a piece at a time, a few hundred bytes of memory each, so a mebibyte of
 * `<a/>` would need more memory than a worker thread has.
 */
export const MAX_XML_NODES = 100_000

function tooManyXmlNodes(input: string, position: number): DevutilsError {
  const { line, column } = lineAndColumn(input, position)
  return limitExceeded(
    `The XML holds more than ${MAX_XML_NODES.toLocaleString('en-US')} elements, attributes and texts (at line ${line}, column ${column}); format it in parts`,
    { field: 'input', limit: MAX_XML_NODES, position, line, column },
  )
}

/** Whether `text` holds anything but white space from `from` to `to`. */
function holdsText(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i)
    if (code !== 0x20 && code !== 0x0a && code !== 0x09 && code !== 0x0d) return true
  }
  return false
}

/** An attribute's `=` and its quoted value. */
const ATTRIBUTE_VALUE = /=\s*(?:"[^"]*"|'[^']*')/g

/** The attributes of a well-formed tag from `from` to `to`. */
function attributesIn(text: string, from: number, to: number): number {
  const tag = text.slice(from, to)
  return tag.includes('=') ? (tag.match(ATTRIBUTE_VALUE)?.length ?? 0) : 0
}

/**
 * XML elements, and each tag and attribute on a line of its own; elements, attributes and the texts
 * between tags (comments and CDATA sections among them) are counted against MAX_XML_NODES.
 */
export function scanXml(input: string, indentWidth: number): Scan {
  let open = 0
  let depth = 0
  let predicted = input.length
  let nodes = 0
  let previousEnd = -1
  eachXmlTag(input, (lt, end) => {
    predicted += (1 + (open + 1) * indentWidth) * (1 + whitespaceRuns(input, lt, end))
    if (holdsText(input, previousEnd + 1, lt)) nodes++
    previousEnd = end
    if (input.charCodeAt(lt + 1) === 0x2f) open = Math.max(0, open - 1)
    else {
      nodes += 1 + attributesIn(input, lt, end)
      if (input.charCodeAt(end - 1) !== 0x2f) {
        open++
        if (open > depth) depth = open
        if (open > MAX_NESTING_DEPTH) throw tooDeep(input, 'xml', lt, 'elements')
      }
    }
    if (nodes > MAX_XML_NODES) throw tooManyXmlNodes(input, lt)
    return true
  })
  return { depth, predictedLength: predicted }
}

/** Where the second root element of an XML text starts, or -1 if there is none. */
export function secondXmlRoot(input: string): number {
  let open = 0
  let roots = 0
  let second = -1
  eachXmlTag(input, (lt, end) => {
    if (input.charCodeAt(lt + 1) === 0x2f) open = Math.max(0, open - 1)
    else {
      if (open === 0 && ++roots === 2) {
        second = lt
        return false
      }
      if (input.charCodeAt(end - 1) !== 0x2f) open++
    }
    return true
  })
  return second
}

/** The runs of white space from `from` to `to`: each is a place a line may break. */
function whitespaceRuns(text: string, from: number, to: number): number {
  let runs = 0
  let inRun = false
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i)
    const space = code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d
    if (space && !inRun) runs++
    inRun = space
  }
  return runs
}

/** HTML elements, with the HTML rules for void elements, raw text and end tags left out (markdown's scan). */
export function scanHtmlNesting(input: string, indentWidth: number): Scan {
  let depth: number
  try {
    depth = scanHtml(input).depth
  } catch (error) {
    const position = isDevutilsError(error) ? (error.details as { position?: number } | undefined)?.position : undefined
    if (position === undefined) throw error
    throw tooDeep(input, 'html', position, 'elements')
  }
  // Each tag and each run of white space (between attributes, between words) may break a line, and an
  // end tag left out is written: no longer than the start tag it closes.
  let tags = 0
  for (let at = input.indexOf('<'); at !== -1; at = input.indexOf('<', at + 1)) tags++
  const breaks = tags + whitespaceRuns(input, 0, input.length)
  return { depth, predictedLength: 2 * input.length + breaks * (2 + (depth + 1) * indentWidth) }
}
