/**
 * The counts that `unicode` (inspect) and `text-stats` both give, computed here once so that the two
 * can never disagree on what a line, a word or a character is.
 */
import { type Segment, segmentsOf } from './segment.ts'

/** Line breaks: CR LF, LF, CR, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR (Unicode §5.8, UAX #14's mandatory breaks). */
const LINE_BREAK = /\r\n|[\n\r\u0085\u2028\u2029]/g
const ENDS_WITH_LINE_BREAK = /[\n\r\u0085\u2028\u2029]$/

export interface TextTotals {
  /** UTF-16 code units (JavaScript's length). */
  codeUnits: number
  /** Code points, each lone surrogate counted as one. */
  codePoints: number
  /** Extended grapheme clusters (UAX #29). */
  graphemes: number
  /** Bytes in UTF-8, lone surrogates left out (UTF-8 cannot encode them). */
  utf8Bytes: number
  /** UAX #29 word segments that are words, not spaces or punctuation. */
  words: number
  /** Lines, split at the line breaks above; a break at the very end starts no line; 0 for empty text. */
  lines: number
}

/** What a caller wants to see besides the totals, as they are counted: every grapheme first, then every word. */
export interface TotalsVisitor {
  grapheme?(segment: Segment): void
  /** Each word-like segment (the ones counted as words). */
  word?(segment: Segment): void
}

export function countLines(text: string): number {
  if (text === '') return 0
  const lineBreak = new RegExp(LINE_BREAK)
  let breaks = 0
  while (lineBreak.exec(text) !== null) breaks++
  return breaks + 1 - (ENDS_WITH_LINE_BREAK.test(text) ? 1 : 0)
}

/**
 * Calls `visit` with each line of `text` (without its break), as countLines counts them: a break at
 * the very end starts no line, and empty text has none.
 */
export function forEachLine(text: string, visit: (line: string) => void): void {
  if (text === '') return
  const lineBreak = new RegExp(LINE_BREAK)
  let start = 0
  for (let match = lineBreak.exec(text); match !== null; match = lineBreak.exec(text)) {
    visit(text.slice(start, match.index))
    start = lineBreak.lastIndex
  }
  if (start < text.length) visit(text.slice(start))
}

/** Code points and UTF-8 bytes, in one pass over the code units. */
function encodedLengths(text: string): { codePoints: number; utf8Bytes: number } {
  let codePoints = 0
  let utf8Bytes = 0
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    codePoints++
    if (unit < 0x80) utf8Bytes += 1
    else if (unit < 0x800) utf8Bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      utf8Bytes += 4
      index++
    } else if (unit < 0xd800 || unit > 0xdfff) utf8Bytes += 3
  }
  return { codePoints, utf8Bytes }
}

/**
 * The six counts of a text, with its graphemes and words shown to `visit` as they are counted.
 * `locale` (canonical BCP 47) picks ICU's segmentation tailoring; `und` is the root rules.
 */
export function textTotals(text: string, locale = 'und', visit: TotalsVisitor = {}): TextTotals {
  let graphemes = 0
  for (const segment of segmentsOf(text, 'grapheme', undefined, locale)) {
    graphemes++
    visit.grapheme?.(segment)
  }
  let words = 0
  for (const segment of segmentsOf(text, 'word', undefined, locale)) {
    if (!segment.isWordLike) continue
    words++
    visit.word?.(segment)
  }
  const { codePoints, utf8Bytes } = encodedLengths(text)
  return { codeUnits: text.length, codePoints, graphemes, utf8Bytes, words, lines: countLines(text) }
}
