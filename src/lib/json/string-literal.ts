/** JSON string literals (RFC 8259 §7): writing a text as one, and reading one back. */

import { invalidInput } from '../../core/errors.ts'
import { showCharacterAt } from '../text/charsets.ts'
import { replaceCodeUnits } from '../text/escape.ts'
import { utf8Length } from '../text/utf8-length.ts'

const unicodeEscapes: string[] = []

/** `\uxxxx` with lower-case hex digits, as JSON.stringify writes it; remembered, as asciiOnly may write millions. */
function unicodeEscape(code: number): string {
  unicodeEscapes[code] ??= `\\u${code.toString(16).padStart(4, '0')}`
  return unicodeEscapes[code]
}

/** The escapes JSON has a short form for, by the character they stand for. */
const SHORT_ESCAPES = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
])

/** How escape writes the ASCII code units JSON requires escaped: control characters, `"` and `\`. */
const ASCII_ESCAPES: Array<string | undefined> = new Array(0x80)
for (let code = 0; code < 0x20; code++) ASCII_ESCAPES[code] = unicodeEscape(code)
for (const [letter, char] of SHORT_ESCAPES) {
  // `/` may be escaped but JSON.stringify leaves it alone, and so do we.
  if (letter !== '/') ASCII_ESCAPES[char.charCodeAt(0)] = `\\${letter}`
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/g
const NEEDS_ESCAPE_IN_ASCII = /["\\\u0000-\u001f\u0080-\uffff]/g

/** The body of a JSON string literal, exactly what JSON.stringify writes between its quotes. */
export function escapeJson(text: string, asciiOnly: boolean, wrapInQuotes: boolean): string {
  return replaceCodeUnits(
    text,
    asciiOnly ? NEEDS_ESCAPE_IN_ASCII : NEEDS_ESCAPE,
    (unit) => (unit < 0x80 ? ASCII_ESCAPES[unit]! : unicodeEscape(unit)),
    wrapInQuotes ? '"' : '',
  )
}

/**
 * Reads a JSON string literal (RFC 8259 §7), with or without its surrounding quotes: a leading `"`
 * means the text is the whole literal, quotes included. Positions in errors index `text`.
 */
export function unescapeJson(text: string): string {
  const quoted = text.startsWith('"')
  const parts: string[] = []
  let kept = quoted ? 1 : 0
  for (let i = kept; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x22) {
      if (!quoted) {
        throw invalidInput(`The quote at position ${i} is not escaped; inside a JSON string it must be written \\"`, { position: i })
      }
      if (i !== text.length - 1) {
        throw invalidInput(`The quote at position ${i} closes the string but text follows it; escape it as \\" if it belongs to the string`, { position: i })
      }
      parts.push(text.slice(kept, i))
      return parts.join('')
    }
    if (code < 0x20) {
      throw invalidInput(`The control character ${showCharacterAt(text, i)} at position ${i} must be escaped in a JSON string (as ${ASCII_ESCAPES[code]})`, {
        position: i,
      })
    }
    if (code !== 0x5c) continue
    const [value, length] = readEscape(text, i)
    parts.push(text.slice(kept, i), value)
    kept = i + length
    i = kept - 1
  }
  if (quoted) throw invalidInput('The string opened by the quote at position 0 is never closed; end it with an unescaped "', { position: text.length })
  parts.push(text.slice(kept))
  return parts.join('')
}

/** The character an escape at `at` stands for, and how many code units the escape takes. */
function readEscape(text: string, at: number): [value: string, length: number] {
  if (at + 1 === text.length) {
    throw invalidInput(`The backslash at position ${at} ends the text; an escape needs a character after it`, { position: at })
  }
  const letter = text[at + 1]
  if (letter !== 'u') {
    const value = SHORT_ESCAPES.get(letter)
    if (value === undefined) {
      throw invalidInput(
        `The backslash at position ${at} is followed by ${showCharacterAt(text, at + 1)}, which starts no JSON escape; allowed are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by four hex digits`,
        { position: at },
      )
    }
    return [value, 2]
  }
  const unit = readHexUnit(text, at)
  if (unit < 0xd800 || unit > 0xdfff) return [String.fromCharCode(unit), 6]
  if (unit <= 0xdbff && text.startsWith('\\u', at + 6)) {
    const low = readHexUnit(text, at + 6)
    if (low >= 0xdc00 && low <= 0xdfff) return [String.fromCharCode(unit, low), 12]
  }
  const half = unit <= 0xdbff ? 'a high surrogate not followed by an escaped low surrogate' : 'a low surrogate not preceded by an escaped high surrogate'
  throw invalidInput(`${text.slice(at, at + 6)} at position ${at} is ${half}; alone it would not be Unicode text`, { position: at })
}

function readHexUnit(text: string, at: number): number {
  const digits = text.slice(at + 2, at + 6)
  if (!/^[0-9a-fA-F]{4}$/.test(digits)) {
    throw invalidInput(`\\u at position ${at} must be followed by four hex digits`, { position: at })
  }
  return Number.parseInt(digits, 16)
}

/** Text JSON writes as it is, between its quotes. */
const PLAIN_JSON_STRING = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/

/** The UTF-8 size of a string's JSON text, its quotes included, without writing it in the common case. */
export function jsonStringSize(text: string): number {
  return PLAIN_JSON_STRING.test(text) ? text.length + 2 : utf8Length(JSON.stringify(text))
}
