import { Type } from 'typebox'
import { showCharacterAt } from '../core/charsets.ts'
import { type DevutilsError, invalidInput, limitExceeded, validationError } from '../core/errors.ts'
import { lineAndColumn } from '../core/json-value.ts'
import { OUTPUT_LIMIT_BYTES } from '../core/limits.ts'
import { defineOperation, withDefault } from '../core/operation.ts'
import { escapeJson, unescapeJson } from './json-escape.ts'

export const LANGUAGES = ['javascript', 'json', 'java', 'c', 'cpp', 'csharp', 'python', 'go', 'rust', 'php', 'shell', 'csv', 'regex', 'unicode'] as const
export type Language = (typeof LANGUAGES)[number]
export type Quote = 'double' | 'single' | 'backtick'
export const NOTATIONS = ['uBraces', 'utf16', 'u8', 'xBraces', 'uPlus', 'htmlHex', 'htmlDecimal'] as const
export type Notation = (typeof NOTATIONS)[number]

/** The quotes each language writes strings in, its usual one first; regex and unicode take none. */
const QUOTES: Record<Language, readonly Quote[]> = {
  javascript: ['double', 'single', 'backtick'],
  json: ['double'],
  java: ['double'],
  c: ['double'],
  cpp: ['double'],
  csharp: ['double'],
  python: ['single', 'double'],
  go: ['double', 'backtick'],
  rust: ['double'],
  php: ['double', 'single'],
  shell: ['single'],
  csv: ['double'],
  regex: [],
  unicode: [],
}
const QUOTE_CHAR: Record<Quote, string> = { double: '"', single: "'", backtick: '`' }

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0')
const HEX = (value: number, width: number) => value.toString(16).toUpperCase().padStart(width, '0')
const isHexDigit = (char: string | undefined) => char !== undefined && /^[0-9a-fA-F]$/.test(char)

// ---------------------------------------------------------------------------------------------------
// Escape

/** Writes one code point (`next` is the one after it, `previous` the one before), or undefined to keep it as it is. */
type Writer = (cp: number, previous: number, next: number, index: number) => string | undefined

function utf8Bytes(cp: number): number[] {
  return [...Buffer.from(String.fromCodePoint(cp), 'utf8')]
}

/**
 * Runs `write` over the code points of `text`. Every writer here writes at most 16 characters per
 * code unit, so short inputs need no counting; longer ones count the UTF-8 size as they grow and
 * stop at the output limit before the rest is built.
 */
function escapeWith(text: string, write: Writer, open = '', close = open): string {
  const counting = text.length * 16 + open.length + close.length > OUTPUT_LIMIT_BYTES
  let size = open.length + close.length
  const parts: string[] = [open]
  let kept = 0
  let previous = -1
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!
    const width = cp > 0xffff ? 2 : 1
    const next = i + width < text.length ? text.codePointAt(i + width)! : -1
    const written = write(cp, previous, next, i)
    if (written !== undefined) {
      if (kept < i) parts.push(text.slice(kept, i))
      parts.push(written)
      kept = i + width
      if (counting) size += written.length - utf8Size(cp)
    }
    if (counting) {
      size += utf8Size(cp)
      if (size > OUTPUT_LIMIT_BYTES) {
        throw limitExceeded(`The escaped result would be larger than the ${OUTPUT_LIMIT_BYTES}-byte output limit`, { limit: OUTPUT_LIMIT_BYTES })
      }
    }
    previous = cp
    i += width
  }
  parts.push(text.slice(kept), close)
  return parts.join('')
}

const utf8Size = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4)

/** Short escapes shared by the C family, by code point. */
const C_SHORT: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 92: '\\\\' }
const isControl = (cp: number) => cp < 0x20 || cp === 0x7f

function quoteEscape(cp: number, quote: string): string | undefined {
  return cp === quote.charCodeAt(0) ? `\\${quote}` : undefined
}

function utf16Escapes(cp: number, prefix = '\\u'): string {
  if (cp <= 0xffff) return `${prefix}${hex(cp, 4)}`
  const v = cp - 0x10000
  return `${prefix}${hex(0xd800 + (v >> 10), 4)}${prefix}${hex(0xdc00 + (v & 0x3ff), 4)}`
}

function javascriptWriter(quote: string, asciiOnly: boolean): Writer {
  const short: Record<number, string> = { ...C_SHORT }
  delete short[7]
  return (cp, _previous, next) => {
    if (short[cp]) return short[cp]
    if (cp === quote.charCodeAt(0)) return `\\${quote}`
    if (quote === '`' && cp === 0x24 && next === 0x7b) return '\\$'
    if (isControl(cp)) return `\\x${hex(cp, 2)}`
    if (cp === 0x2028 || cp === 0x2029) return `\\u${hex(cp, 4)}`
    if (asciiOnly && cp >= 0x80) return cp > 0xffff ? `\\u{${hex(cp, 0)}}` : `\\u${hex(cp, 4)}`
    return undefined
  }
}

function javaWriter(asciiOnly: boolean): Writer {
  return (cp) => {
    if (cp !== 7 && cp !== 11 && C_SHORT[cp]) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    // A \u escape is translated before the literal is read, so \u000a or \u000d would end the line:
    // those two always take their short forms above.
    if (isControl(cp) || (asciiOnly && cp >= 0x80)) return utf16Escapes(cp)
    return undefined
  }
}

function cWriter(asciiOnly: boolean): Writer {
  const octal = (cp: number) =>
    utf8Bytes(cp)
      .map((byte) => `\\${byte.toString(8).padStart(3, '0')}`)
      .join('')
  return (cp, previous) => {
    if (C_SHORT[cp]) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    // `??` followed by certain characters is a trigraph before C23: `?\?` can never start one.
    if (cp === 0x3f && previous === 0x3f) return '\\?'
    // An octal escape takes at most three digits, so a digit after it cannot join it (a hex escape would).
    if (isControl(cp) || (asciiOnly && cp >= 0x80)) return octal(cp)
    return undefined
  }
}

function csharpWriter(asciiOnly: boolean): Writer {
  return (cp) => {
    if (cp === 0) return '\\0'
    if (C_SHORT[cp]) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    if (isControl(cp) || (asciiOnly && cp >= 0x80)) return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`
    return undefined
  }
}

function pythonWriter(quote: string, asciiOnly: boolean): Writer {
  return (cp) => {
    if (C_SHORT[cp]) return C_SHORT[cp]
    const quoted = quoteEscape(cp, quote)
    if (quoted) return quoted
    if (isControl(cp) || (asciiOnly && cp >= 0x80 && cp <= 0xff)) return `\\x${hex(cp, 2)}`
    if (asciiOnly && cp >= 0x80) return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`
    return undefined
  }
}

function goWriter(asciiOnly: boolean): Writer {
  return (cp) => {
    if (C_SHORT[cp]) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    if (isControl(cp)) return `\\x${hex(cp, 2)}`
    if (asciiOnly && cp >= 0x80) return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`
    return undefined
  }
}

const goRawWriter: Writer = (cp, _previous, _next, index) => {
  if (cp === 0x60) throw invalidInput(`The backtick at position ${index} cannot be written in a Go raw string; use quote: double`, { position: index })
  if (cp === 0x0d) {
    throw invalidInput(`The carriage return at position ${index} cannot be written in a Go raw string, which drops it; use quote: double`, {
      position: index,
    })
  }
  return undefined
}

function rustWriter(asciiOnly: boolean): Writer {
  return (cp) => {
    if (cp === 0) return '\\0'
    if (cp === 9 || cp === 10 || cp === 13 || cp === 0x5c) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    if (isControl(cp)) return `\\x${hex(cp, 2)}`
    if (asciiOnly && cp >= 0x80) return `\\u{${hex(cp, 0)}}`
    return undefined
  }
}

function phpWriter(asciiOnly: boolean): Writer {
  const short: Record<number, string> = { 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 27: '\\e', 92: '\\\\', 36: '\\$', 34: '\\"' }
  return (cp) => {
    if (short[cp]) return short[cp]
    if (isControl(cp)) return `\\x${hex(cp, 2)}`
    if (asciiOnly && cp >= 0x80) return `\\u{${hex(cp, 0)}}`
    return undefined
  }
}

const phpSingleWriter: Writer = (cp) => (cp === 0x27 ? "\\'" : cp === 0x5c ? '\\\\' : undefined)

const shellWriter: Writer = (cp, _previous, _next, index) => {
  if (cp === 0) throw invalidInput(`The NUL character at position ${index} cannot be passed in a shell argument`, { position: index })
  return cp === 0x27 ? "'\\''" : undefined
}

const SYNTAX_CHARACTERS = new Set('^$\\.*+?()[]{}|/')
const regexWriter: Writer = (cp) => (cp < 0x80 && SYNTAX_CHARACTERS.has(String.fromCharCode(cp)) ? `\\${String.fromCharCode(cp)}` : undefined)

const CONTROL_ESCAPES: Record<number, string> = { 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' }
const OTHER_PUNCTUATORS = new Set(',-=<>#&!%:;@~\'`"')
const isWhiteSpaceOrLineTerminator = (cp: number) =>
  cp === 9 ||
  cp === 0x0b ||
  cp === 0x0c ||
  cp === 0xfeff ||
  cp === 10 ||
  cp === 13 ||
  cp === 0x2028 ||
  cp === 0x2029 ||
  /^\p{Zs}$/u.test(String.fromCodePoint(cp))

/** ES2025 RegExp.escape: EncodeForRegExpEscape, with an initial letter or digit written as `\x..`. */
const regexEscapeFunctionWriter: Writer = (cp, _previous, _next, index) => {
  if (index === 0 && /^[0-9A-Za-z]$/.test(String.fromCharCode(cp))) return `\\x${hex(cp, 2)}`
  const char = String.fromCodePoint(cp)
  if (cp < 0x80 && SYNTAX_CHARACTERS.has(char)) return `\\${char}`
  if (CONTROL_ESCAPES[cp]) return CONTROL_ESCAPES[cp]
  if ((cp < 0x80 && OTHER_PUNCTUATORS.has(char)) || isWhiteSpaceOrLineTerminator(cp)) {
    return cp <= 0xff ? `\\x${hex(cp, 2)}` : `\\u${hex(cp, 4)}`
  }
  return undefined
}

const NOTATION_WRITERS: Record<Notation, (cp: number) => string> = {
  uBraces: (cp) => `\\u{${HEX(cp, 0)}}`,
  utf16: (cp) => utf16Escapes(cp).toUpperCase().replaceAll('\\U', '\\u'),
  u8: (cp) => `\\U${HEX(cp, 8)}`,
  xBraces: (cp) => `\\x{${HEX(cp, 0)}}`,
  uPlus: (cp) => `U+${HEX(cp, 4)}`,
  htmlHex: (cp) => `&#x${HEX(cp, 0)};`,
  htmlDecimal: (cp) => `&#${cp};`,
}

function unicodeWriter(notation: Notation, all: boolean): Writer {
  const write = NOTATION_WRITERS[notation]
  // The character that starts an escape is escaped too, so that text that looks like one survives a round trip.
  const introducer = notation === 'uPlus' ? 0x55 : notation.startsWith('html') ? 0x26 : 0x5c
  return (cp, _previous, next) => {
    if (all || cp >= 0x80) return write(cp)
    if (cp === introducer && (notation !== 'uPlus' || next === 0x2b)) return write(cp)
    return undefined
  }
}

// ---------------------------------------------------------------------------------------------------
// Unescape

/** Where an unescape error lies, for its details. */
function refuse(text: string, position: number, message: string): DevutilsError {
  const { line, column } = lineAndColumn(text, position)
  return invalidInput(`${message} (line ${line}, column ${column})`, { position, line, column })
}

/**
 * Collects what an unescape produces: text, UTF-16 code units (whose surrogates must pair up), code
 * points and bytes (which must form UTF-8, as in C, Go and PHP, where an escape can stand for a byte).
 */
class Output {
  private readonly parts: string[] = []
  private high: { unit: number; at: number } | undefined
  private bytes: number[] = []
  private bytesAt = 0
  constructor(private readonly source: string) {}

  text(value: string): void {
    if (value === '') return
    this.flush()
    this.parts.push(value)
  }

  unit(unit: number, at: number): void {
    this.flushBytes()
    if (unit >= 0xdc00 && unit <= 0xdfff && this.high) {
      this.parts.push(String.fromCharCode(this.high.unit, unit))
      this.high = undefined
      return
    }
    this.flush()
    if (unit >= 0xd800 && unit <= 0xdbff) this.high = { unit, at }
    else if (unit >= 0xdc00 && unit <= 0xdfff) throw this.lone(at, 'a low surrogate not preceded by an escaped high surrogate')
    else this.parts.push(String.fromCharCode(unit))
  }

  codePoint(cp: number, at: number): void {
    if (cp > 0x10ffff) throw refuse(this.source, at, `The escape at position ${at} stands for ${cp.toString(16)}, beyond U+10FFFF, the last Unicode code point`)
    if (cp >= 0xd800 && cp <= 0xdfff) throw this.lone(at, 'a surrogate code point')
    this.text(String.fromCodePoint(cp))
  }

  byte(value: number, at: number): void {
    if (this.high) this.flush()
    if (this.bytes.length === 0) this.bytesAt = at
    this.bytes.push(value)
  }

  end(): string {
    this.flush()
    return this.parts.join('')
  }

  private flush(): void {
    this.flushBytes()
    if (this.high) throw this.lone(this.high.at, 'a high surrogate not followed by an escaped low surrogate')
  }

  private flushBytes(): void {
    if (this.bytes.length === 0) return
    let decoded: string
    try {
      decoded = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(this.bytes))
    } catch {
      throw refuse(
        this.source,
        this.bytesAt,
        `The bytes escaped from position ${this.bytesAt} (${this.bytes.map((b) => hex(b, 2)).join(' ')}) are not UTF-8, so they stand for no text`,
      )
    }
    this.bytes = []
    this.parts.push(decoded)
  }

  private lone(at: number, what: string): DevutilsError {
    return refuse(this.source, at, `The escape at position ${at} is ${what}; alone it would not be Unicode text`)
  }
}

/** Reads one escape starting with the backslash at `at`, into `out`; answers the position after it. */
type EscapeReader = (text: string, at: number, out: Output) => number

/** Reads `min`…`max` digits of `radix` at `from`; answers the value and the position after them, or undefined if too few. */
function digits(text: string, from: number, min: number, max: number, radix = 16): [number, number] | undefined {
  const allowed = radix === 16 ? /[0-9a-fA-F]/ : radix === 8 ? /[0-7]/ : /[0-9]/
  let end = from
  while (end - from < max && end < text.length && allowed.test(text[end])) end++
  if (end - from < min) return undefined
  return [Number.parseInt(text.slice(from, end), radix), end]
}

function expectDigits(text: string, at: number, from: number, min: number, max: number, what: string, radix = 16): [number, number] {
  const read = digits(text, from, min, max, radix)
  if (!read) throw refuse(text, at, `The escape at position ${at} must be followed by ${what}`)
  return read
}

function invalidEscape(text: string, at: number, allowed: string): DevutilsError {
  if (at + 1 >= text.length) return refuse(text, at, `The backslash at position ${at} ends the text; an escape needs a character after it`)
  return refuse(
    text,
    at,
    `The backslash at position ${at} is followed by ${showCharacterAt(text, at + 1)}, which starts no escape here; allowed are ${allowed}`,
  )
}

/** `\u{…}`: 1 to `max` hex digits in braces (Rust allows underscores between them). */
function braced(text: string, at: number, from: number, max: number, underscores = false): [number, number] {
  const close = text.indexOf('}', from)
  const body = close === -1 ? '' : text.slice(from + 1, close)
  const clean = underscores ? body.replaceAll('_', '') : body
  if (text[from] !== '{' || close === -1 || !/^[0-9a-fA-F]+$/.test(clean) || clean.length > max || (underscores && body.startsWith('_'))) {
    throw refuse(text, at, `The escape at position ${at} must be followed by 1 to ${max} hex digits in braces`)
  }
  return [Number.parseInt(clean, 16), close + 1]
}

function lineContinuation(text: string, at: number): number | undefined {
  const next = text[at + 1]
  if (next === '\r') return text[at + 2] === '\n' ? at + 3 : at + 2
  if (next === '\n') return at + 2
  return undefined
}

const SIMPLE: Record<string, string> = { a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', '"': '"', "'": "'", '\\': '\\' }

function javascriptReader(): EscapeReader {
  return (text, at, out) => {
    const letter = text[at + 1]
    const continued = lineContinuation(text, at) ?? (letter === '\u2028' || letter === '\u2029' ? at + 2 : undefined)
    if (continued !== undefined) return continued
    if (letter === 'x') {
      const [value, end] = expectDigits(text, at, at + 2, 2, 2, 'two hex digits')
      out.unit(value, at)
      return end
    }
    if (letter === 'u') {
      if (text[at + 2] === '{') {
        const [value, end] = braced(text, at, at + 2, 6)
        out.codePoint(value, at)
        return end
      }
      const [value, end] = expectDigits(text, at, at + 2, 4, 4, 'four hex digits or a code point in braces')
      out.unit(value, at)
      return end
    }
    if (letter === '0' && !/[0-9]/.test(text[at + 2] ?? '')) {
      out.text('\0')
      return at + 2
    }
    if (letter === undefined || /[0-9]/.test(letter)) {
      throw invalidEscape(text, at, 'the single-character escapes, \\0 not followed by a digit, \\x with two hex digits, \\u with four or in braces')
    }
    if (letter === 'a') {
      out.text('a')
      return at + 2
    }
    const cp = text.codePointAt(at + 1)!
    out.text(SIMPLE[letter] ?? String.fromCodePoint(cp))
    return at + 1 + (cp > 0xffff ? 2 : 1)
  }
}

function javaReader(): EscapeReader {
  return (text, at, out) => {
    let from = at + 1
    if (text[from] === 'u') {
      while (text[from] === 'u') from++
      const [value, end] = expectDigits(text, at, from, 4, 4, 'four hex digits')
      if (value === 0x0a || value === 0x0d) {
        throw refuse(
          text,
          at,
          `The escape at position ${at} is a line break, which Java translates before reading the literal: it would end the line; write \\n or \\r`,
        )
      }
      if (value === 0x22 || value === 0x5c) {
        throw refuse(
          text,
          at,
          `The escape at position ${at} is translated by Java into ${value === 0x22 ? 'a quote that ends' : 'a backslash that starts an escape in'} the literal; write ${value === 0x22 ? '\\"' : '\\\\'}`,
        )
      }
      out.unit(value, at)
      return end
    }
    const letter = text[from]
    if (letter !== undefined && /[0-7]/.test(letter)) {
      const [value, end] = digits(text, from, 1, letter <= '3' ? 3 : 2, 8)!
      out.text(String.fromCharCode(value))
      return end
    }
    if (letter === 's') {
      out.text(' ')
      return at + 2
    }
    if (letter !== undefined && letter !== 'a' && letter !== 'v' && letter in SIMPLE) {
      out.text(SIMPLE[letter])
      return at + 2
    }
    throw invalidEscape(text, at, '\\b \\s \\t \\n \\f \\r \\" \\\' \\\\, octal \\0 to \\377 and \\u with four hex digits')
  }
}

function cReader(): EscapeReader {
  return (text, at, out) => {
    const letter = text[at + 1]
    const continued = lineContinuation(text, at)
    if (continued !== undefined) return continued
    if (letter !== undefined && /[0-7]/.test(letter)) {
      const [value, end] = digits(text, at + 1, 1, 3, 8)!
      if (value > 0xff) throw refuse(text, at, `The octal escape at position ${at} stands for ${value}, more than a byte (255) holds`)
      out.byte(value, at)
      return end
    }
    if (letter === 'x') {
      // A hex escape takes every hex digit that follows it.
      const [value, end] = expectDigits(text, at, at + 2, 1, Number.POSITIVE_INFINITY, 'hex digits')
      if (end - at - 2 > 2 && value > 0xff)
        throw refuse(
          text,
          at,
          `The hex escape at position ${at} (${text.slice(at, end)}) is out of range: it takes every hex digit that follows and stands for more than a byte`,
        )
      if (value > 0xff) throw refuse(text, at, `The hex escape at position ${at} is out of range for a byte`)
      out.byte(value, at)
      return end
    }
    if (letter === 'u' || letter === 'U') {
      const width = letter === 'u' ? 4 : 8
      const [value, end] = expectDigits(text, at, at + 2, width, width, `${width} hex digits`)
      if (value < 0xa0 && value !== 0x24 && value !== 0x40 && value !== 0x60) {
        throw refuse(
          text,
          at,
          `The universal character name at position ${at} names a basic character (below U+00A0), which C does not allow; write it directly or with an octal escape`,
        )
      }
      out.codePoint(value, at)
      return end
    }
    if (letter === '?') {
      out.text('?')
      return at + 2
    }
    if (letter !== undefined && letter in SIMPLE) {
      out.text(SIMPLE[letter])
      return at + 2
    }
    throw invalidEscape(text, at, '\\a \\b \\f \\n \\r \\t \\v \\\' \\" \\? \\\\, octal (1 to 3 digits), \\x with hex digits, \\u and \\U')
  }
}

function csharpReader(): EscapeReader {
  return (text, at, out) => {
    const letter = text[at + 1]
    if (letter === '0') {
      out.text('\0')
      return at + 2
    }
    if (letter === 'x') {
      // One to four hex digits, as many as follow: "\x41BC" is U+41BC.
      const [value, end] = expectDigits(text, at, at + 2, 1, 4, 'one to four hex digits')
      out.unit(value, at)
      return end
    }
    if (letter === 'u') {
      const [value, end] = expectDigits(text, at, at + 2, 4, 4, 'four hex digits')
      out.unit(value, at)
      return end
    }
    if (letter === 'U') {
      const [value, end] = expectDigits(text, at, at + 2, 8, 8, 'eight hex digits')
      out.codePoint(value, at)
      return end
    }
    if (letter !== undefined && letter in SIMPLE) {
      out.text(SIMPLE[letter])
      return at + 2
    }
    throw invalidEscape(text, at, '\\0 \\a \\b \\f \\n \\r \\t \\v \\\' \\" \\\\, \\x with one to four hex digits, \\u and \\U')
  }
}

function pythonReader(): EscapeReader {
  return (text, at, out) => {
    const letter = text[at + 1]
    const continued = lineContinuation(text, at)
    if (continued !== undefined) return continued
    if (letter !== undefined && /[0-7]/.test(letter)) {
      const [value, end] = digits(text, at + 1, 1, 3, 8)!
      out.codePoint(value, at)
      return end
    }
    if (letter === 'x' || letter === 'u' || letter === 'U') {
      const width = letter === 'x' ? 2 : letter === 'u' ? 4 : 8
      const [value, end] = expectDigits(text, at, at + 2, width, width, `${width} hex digits`)
      // Python strings are sequences of code points: \ud83d\ude00 is two lone surrogates, not one character.
      out.codePoint(value, at)
      return end
    }
    if (letter === 'N')
      throw refuse(text, at, `The \\N{…} escape at position ${at} names a character; names are not supported here, write \\u or \\U with its code point`)
    if (letter !== undefined && letter in SIMPLE) {
      out.text(SIMPLE[letter])
      return at + 2
    }
    throw invalidEscape(text, at, '\\a \\b \\f \\n \\r \\t \\v \\\' \\" \\\\, octal, \\x, \\u and \\U')
  }
}

function goReader(): EscapeReader {
  return (text, at, out) => {
    const letter = text[at + 1]
    if (letter !== undefined && /[0-7]/.test(letter)) {
      const [value, end] = expectDigits(text, at, at + 1, 3, 3, 'exactly three octal digits', 8)
      if (value > 0xff) throw refuse(text, at, `The octal escape at position ${at} stands for ${value}, more than a byte (255) holds`)
      out.byte(value, at)
      return end
    }
    if (letter === 'x') {
      const [value, end] = expectDigits(text, at, at + 2, 2, 2, 'exactly two hex digits')
      out.byte(value, at)
      return end
    }
    if (letter === 'u' || letter === 'U') {
      const width = letter === 'u' ? 4 : 8
      const [value, end] = expectDigits(text, at, at + 2, width, width, `${width} hex digits`)
      out.codePoint(value, at)
      return end
    }
    if (letter !== undefined && letter !== "'" && letter in SIMPLE) {
      out.text(SIMPLE[letter])
      return at + 2
    }
    throw invalidEscape(text, at, '\\a \\b \\f \\n \\r \\t \\v \\\\ \\", three octal digits, \\x with two hex digits, \\u and \\U')
  }
}

function rustReader(): EscapeReader {
  return (text, at, out) => {
    const letter = text[at + 1]
    if (letter === '\n' || (letter === '\r' && text[at + 2] === '\n')) {
      // A string continuation skips the line break and the whitespace that follows it.
      let end = at + 2
      while (end < text.length && /[ \t\n\r]/.test(text[end])) end++
      return end
    }
    if (letter === '0') {
      out.text('\0')
      return at + 2
    }
    if (letter === 'x') {
      const [value, end] = expectDigits(text, at, at + 2, 2, 2, 'two hex digits')
      if (value > 0x7f)
        throw refuse(
          text,
          at,
          `The escape ${text.slice(at, end)} at position ${at} is out of range: \\x takes 00 to 7F in a Rust string; write \\u{${hex(value, 0)}}`,
        )
      out.text(String.fromCharCode(value))
      return end
    }
    if (letter === 'u') {
      const [value, end] = braced(text, at, at + 2, 6, true)
      out.codePoint(value, at)
      return end
    }
    if (letter === 'n' || letter === 'r' || letter === 't' || letter === '\\' || letter === '"' || letter === "'") {
      out.text(SIMPLE[letter])
      return at + 2
    }
    throw invalidEscape(text, at, '\\n \\r \\t \\\\ \\0 \\\' \\", \\x00 to \\x7F and \\u{…}')
  }
}

function phpReader(): EscapeReader {
  const short: Record<string, string> = { n: '\n', r: '\r', t: '\t', v: '\v', e: '\x1b', f: '\f', '\\': '\\', $: '$', '"': '"' }
  return (text, at, out) => {
    const letter = text[at + 1]
    if (letter !== undefined && short[letter] !== undefined) {
      out.text(short[letter])
      return at + 2
    }
    if (letter !== undefined && /[0-7]/.test(letter)) {
      const [value, end] = digits(text, at + 1, 1, 3, 8)!
      if (value > 0xff) throw refuse(text, at, `The octal escape at position ${at} stands for ${value}, more than a byte (255) holds`)
      out.byte(value, at)
      return end
    }
    if (letter === 'x' && isHexDigit(text[at + 2])) {
      const [value, end] = digits(text, at + 2, 1, 2)!
      out.byte(value, at)
      return end
    }
    if (letter === 'u' && text[at + 2] === '{') {
      const [value, end] = braced(text, at, at + 2, 6)
      out.codePoint(value, at)
      return end
    }
    // PHP keeps any other backslash as it is.
    out.text('\\')
    return at + 1
  }
}

/** Reads a quoted literal or its body with `reader`; `quote` is its quote character. */
function unescapeWith(
  text: string,
  quote: string,
  reader: EscapeReader,
  options: { rawLineBreaks?: boolean; dollarBrace?: boolean; phpDollar?: boolean; lineEnds?: 'lf' | 'crlfToLf' } = {},
): string {
  const out = new Output(text)
  // JavaScript template literals read CR and CRLF as LF; Rust reads CRLF as LF and refuses a lone CR.
  const raw = (from: number, to: number) => {
    const slice = text.slice(from, to)
    if (options.lineEnds === 'lf') return slice.replace(/\r\n?/g, '\n')
    if (options.lineEnds === 'crlfToLf') return slice.replaceAll('\r\n', '\n')
    return slice
  }
  const quoted = text.length >= 1 && text[0] === quote
  let kept = quoted ? 1 : 0
  for (let i = kept; i < text.length; i++) {
    const char = text[i]
    if (char === quote) {
      if (!quoted) throw refuse(text, i, `The quote at position ${i} is not escaped; inside the string it must be written \\${quote}`)
      if (i !== text.length - 1)
        throw refuse(text, i, `The quote at position ${i} closes the string but text follows it; escape it as \\${quote} if it belongs to the string`)
      out.text(raw(kept, i))
      return out.end()
    }
    if ((char === '\n' || char === '\r') && !options.rawLineBreaks) {
      throw refuse(text, i, `The line break at position ${i} must be escaped in this string literal (as ${char === '\n' ? '\\n' : '\\r'})`)
    }
    if (char === '\r' && options.lineEnds === 'crlfToLf' && text[i + 1] !== '\n') {
      throw refuse(text, i, `The carriage return at position ${i} is not followed by a line feed, which Rust does not allow; write \\r`)
    }
    if (char === '$' && ((options.dollarBrace && text[i + 1] === '{') || (options.phpDollar && /[A-Za-z_\u0080-\uffff{]/.test(text[i + 1] ?? '')))) {
      throw refuse(text, i, `The $ at position ${i} starts an interpolation; write \\$ for a dollar sign`)
    }
    if (char === '{' && options.phpDollar && text[i + 1] === '$')
      throw refuse(text, i, `The {$ at position ${i} starts an interpolation; write {\\$ for these characters`)
    if (char !== '\\') continue
    if (i + 1 >= text.length) throw refuse(text, i, `The backslash at position ${i} ends the text; an escape needs a character after it`)
    out.text(raw(kept, i))
    kept = reader(text, i, out)
    i = kept - 1
  }
  if (quoted) throw refuse(text, text.length, `The string opened by the quote at position 0 is never closed; end it with an unescaped ${quote}`)
  out.text(raw(kept, text.length))
  return out.end()
}

function unescapeCsharp(text: string): string {
  if (!text.startsWith('@"')) return unescapeWith(text, '"', csharpReader())
  // A verbatim string: no escapes, a quote is written twice.
  let result = ''
  for (let i = 2; i < text.length; i++) {
    if (text[i] !== '"') {
      result += text[i]
      continue
    }
    if (text[i + 1] === '"') {
      result += '"'
      i++
      continue
    }
    if (i !== text.length - 1) throw refuse(text, i, `The quote at position ${i} closes the verbatim string but text follows it; write "" for a quote`)
    return result
  }
  throw refuse(text, text.length, 'The verbatim string opened at position 0 is never closed; end it with a quote')
}

function unescapeSimpleQuoted(text: string, quote: string, escapes: (next: string) => boolean): string {
  const quoted = text.startsWith(quote)
  const parts: string[] = []
  let kept = quoted ? 1 : 0
  for (let i = kept; i < text.length; i++) {
    if (text[i] === '\\' && escapes(text[i + 1])) {
      parts.push(text.slice(kept, i))
      kept = i + 1
      i++
      continue
    }
    if (text[i] !== quote) continue
    if (!quoted) throw refuse(text, i, `The quote at position ${i} is not escaped; inside the string it must be written \\${quote}`)
    if (i !== text.length - 1) throw refuse(text, i, `The quote at position ${i} closes the string but text follows it`)
    parts.push(text.slice(kept, i))
    return parts.join('')
  }
  if (quoted) throw refuse(text, text.length, `The string opened by the quote at position 0 is never closed; end it with an unescaped ${quote}`)
  parts.push(text.slice(kept))
  return parts.join('')
}

function unescapeGoRaw(text: string): string {
  const quoted = text.startsWith('`')
  const end = quoted ? text.length - 1 : text.length
  if (quoted && (text.length < 2 || text[end] !== '`')) throw refuse(text, text.length, 'The raw string opened by the backtick at position 0 is never closed')
  const body = text.slice(quoted ? 1 : 0, end)
  const inner = body.indexOf('`')
  if (inner !== -1)
    throw refuse(
      text,
      inner + (quoted ? 1 : 0),
      `The backtick at position ${inner + (quoted ? 1 : 0)} would end the raw string; a Go raw string cannot hold one`,
    )
  // Go drops carriage returns from raw strings.
  return body.replaceAll('\r', '')
}

const SHELL_PLAIN = /[A-Za-z0-9_@%+=:,./-]/

/**
 * A POSIX shell word as typed (if it starts with a quote): single-quoted parts, backslash escapes
 * outside quotes and plain characters; otherwise the body written between single quotes.
 */
function unescapeShell(text: string): string {
  if (!text.startsWith("'")) {
    const parts = text.split("'\\''")
    for (let p = 0, offset = 0; p < parts.length; offset += parts[p].length + 4, p++) {
      const quote = parts[p].indexOf("'")
      if (quote !== -1)
        throw refuse(text, offset + quote, `The quote at position ${offset + quote} would end the single-quoted string; write '\\'' for a quote`)
    }
    return parts.join("'")
  }
  let result = ''
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === "'") {
      const close = text.indexOf("'", i + 1)
      if (close === -1) throw refuse(text, i, `The single quote at position ${i} is never closed`)
      result += text.slice(i + 1, close)
      i = close
    } else if (char === '\\') {
      if (i + 1 >= text.length) throw refuse(text, i, `The backslash at position ${i} ends the text; it must escape a character`)
      if (text[i + 1] !== '\n') result += text[i + 1]
      i++
    } else if (SHELL_PLAIN.test(char) || char.charCodeAt(0) >= 0x80) {
      result += char
    } else {
      throw refuse(
        text,
        i,
        `The character ${showCharacterAt(text, i)} at position ${i} is special to the shell outside quotes; only quoted text, backslash escapes and plain characters make a single word here`,
      )
    }
  }
  return result
}

function unescapeCsv(text: string): string {
  if (!text.startsWith('"')) {
    const bad = text.search(/[",\r\n]/)
    if (bad !== -1) {
      throw refuse(
        text,
        bad,
        `The character ${showCharacterAt(text, bad)} at position ${bad} is not allowed in an unquoted CSV field (RFC 4180): the field must be quoted`,
      )
    }
    return text
  }
  const body = text.slice(1, -1)
  if (text.length < 2 || text[text.length - 1] !== '"')
    throw refuse(text, text.length, 'The quoted field opened at position 0 is never closed; end it with a quote')
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '"') continue
    if (body[i + 1] !== '"') throw refuse(text, i + 1, `The quote at position ${i + 1} is not doubled; inside a quoted CSV field a quote is written ""`)
    i++
  }
  return body.replaceAll('""', '"')
}

const REGEX_IDENTITY = new Set('^$\\.*+?()[]{}|/,-=<>#&!%:;@~\'`"')

function unescapeRegex(text: string): string {
  const out = new Output(text)
  let kept = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char !== '\\') {
      if (char !== '/' && SYNTAX_CHARACTERS.has(char)) {
        throw refuse(
          text,
          i,
          `The ${char} at position ${i} is a pattern metacharacter, so the pattern matches more than one text; write \\${char} to match it literally`,
        )
      }
      continue
    }
    out.text(text.slice(kept, i))
    const letter = text[i + 1]
    let end = i + 2
    if (letter !== undefined && REGEX_IDENTITY.has(letter)) out.text(letter)
    else if (letter !== undefined && 'tnvfr'.includes(letter)) out.text(SIMPLE[letter])
    else if (letter === '0' && !/[0-9]/.test(text[i + 2] ?? '')) out.text('\0')
    else if (letter === 'x') {
      const [value, after] = expectDigits(text, i, i + 2, 2, 2, 'two hex digits')
      out.unit(value, i)
      end = after
    } else if (letter === 'u') {
      if (text[i + 2] === '{') {
        const [value, after] = braced(text, i, i + 2, 6)
        out.codePoint(value, i)
        end = after
      } else {
        const [value, after] = expectDigits(text, i, i + 2, 4, 4, 'four hex digits or a code point in braces')
        out.unit(value, i)
        end = after
      }
    } else {
      throw invalidEscape(
        text,
        i,
        'escaped syntax characters and punctuators, \\t \\n \\v \\f \\r, \\0, \\x and \\u (a class such as \\d matches more than one text)',
      )
    }
    kept = end
    i = end - 1
  }
  out.text(text.slice(kept))
  return out.end()
}

function unescapeUnicode(text: string, notation: Notation): string {
  const patterns: Record<Notation, RegExp> = {
    uBraces: /\\u\{([0-9a-fA-F]{1,6})\}/g,
    utf16: /\\u([0-9a-fA-F]{4})/g,
    u8: /\\U([0-9a-fA-F]{8})/g,
    xBraces: /\\x\{([0-9a-fA-F]{1,6})\}/g,
    uPlus: /U\+([0-9a-fA-F]{4,6})/g,
    htmlHex: /&#[xX]([0-9a-fA-F]{1,6});/g,
    htmlDecimal: /&#([0-9]{1,7});/g,
  }
  const out = new Output(text)
  let kept = 0
  for (const match of text.matchAll(patterns[notation])) {
    out.text(text.slice(kept, match.index))
    const value = Number.parseInt(match[1], notation === 'htmlDecimal' ? 10 : 16)
    if (notation === 'utf16') out.unit(value, match.index)
    else out.codePoint(value, match.index)
    kept = match.index + match[0].length
  }
  out.text(text.slice(kept))
  return out.end()
}

// ---------------------------------------------------------------------------------------------------
// The operation

export interface StringEscapeOptions {
  action: 'escape' | 'unescape'
  language: Language
  quote?: Quote
  wrapInQuotes?: boolean
  asciiOnly?: boolean
  notation?: Notation
  scope?: 'nonAscii' | 'all'
  mode?: 'pattern' | 'escapeFunction'
}

/** Refuses (400) a field that the chosen language does not take, and answers the quote to use. */
function checkFields(options: StringEscapeOptions): Quote | undefined {
  const { language, quote } = options
  const quotes = QUOTES[language]
  if (quote !== undefined && !quotes.includes(quote)) {
    throw validationError('quote', quotes.length === 0 ? `is not taken by ${language}` : `must be ${quotes.join(' or ')} for ${language}`)
  }
  if (options.notation !== undefined && language !== 'unicode') throw validationError('notation', 'is taken by language unicode only')
  if (options.scope !== undefined && language !== 'unicode') throw validationError('scope', 'is taken by language unicode only')
  if (options.mode !== undefined && language !== 'regex') throw validationError('mode', 'is taken by language regex only')
  const chosen = quote ?? quotes[0]
  if (options.wrapInQuotes && quotes.length === 0) throw validationError('wrapInQuotes', `is not taken by ${language}, which has no quotes`)
  const noAscii =
    quotes.length === 0 ||
    language === 'shell' ||
    language === 'csv' ||
    (language === 'php' && chosen === 'single') ||
    (language === 'go' && chosen === 'backtick')
  if (options.asciiOnly && noAscii) {
    throw validationError('asciiOnly', `is not taken by ${language}${chosen ? ` with quote ${chosen}` : ''}, which has no escape for non-ASCII characters`)
  }
  return chosen
}

export function escapeString(text: string, options: StringEscapeOptions): string {
  const quote = checkFields(options)
  const asciiOnly = options.asciiOnly ?? false
  const q = quote ? QUOTE_CHAR[quote] : ''
  const wrap = options.wrapInQuotes ? q : ''
  switch (options.language) {
    case 'json':
      return escapeJson(text, asciiOnly, options.wrapInQuotes ?? false)
    case 'javascript':
      return escapeWith(text, javascriptWriter(q, asciiOnly), wrap)
    case 'java':
      return escapeWith(text, javaWriter(asciiOnly), wrap)
    case 'c':
    case 'cpp':
      return escapeWith(text, cWriter(asciiOnly), wrap)
    case 'csharp':
      return escapeWith(text, csharpWriter(asciiOnly), wrap)
    case 'python':
      return escapeWith(text, pythonWriter(q, asciiOnly), wrap)
    case 'go':
      return escapeWith(text, quote === 'backtick' ? goRawWriter : goWriter(asciiOnly), wrap)
    case 'rust':
      return escapeWith(text, rustWriter(asciiOnly), wrap)
    case 'php':
      return escapeWith(text, quote === 'single' ? phpSingleWriter : phpWriter(asciiOnly), wrap)
    case 'shell':
      return escapeWith(text, shellWriter, wrap)
    case 'csv': {
      const needsQuotes = options.wrapInQuotes || /[",\r\n]/.test(text)
      return needsQuotes ? escapeWith(text, (cp) => (cp === 0x22 ? '""' : undefined), '"') : text
    }
    case 'regex':
      return escapeWith(text, options.mode === 'escapeFunction' ? regexEscapeFunctionWriter : regexWriter)
    case 'unicode':
      return escapeWith(text, unicodeWriter(options.notation ?? 'uBraces', options.scope === 'all'))
  }
}

export function unescapeString(text: string, options: StringEscapeOptions): string {
  const quote = checkFields(options)
  const q = quote ? QUOTE_CHAR[quote] : ''
  switch (options.language) {
    case 'json':
      return unescapeJson(text)
    case 'javascript':
      return unescapeWith(text, q, javascriptReader(), { rawLineBreaks: q === '`', dollarBrace: q === '`', lineEnds: 'lf' })
    case 'java':
      return unescapeWith(text, q, javaReader())
    case 'c':
    case 'cpp':
      return unescapeWith(text, q, cReader())
    case 'csharp':
      return unescapeCsharp(text)
    case 'python':
      return unescapeWith(text, q, pythonReader())
    case 'go':
      return quote === 'backtick' ? unescapeGoRaw(text) : unescapeWith(text, q, goReader())
    case 'rust':
      return unescapeWith(text, q, rustReader(), { rawLineBreaks: true, lineEnds: 'crlfToLf' })
    case 'php':
      return quote === 'single'
        ? unescapeSimpleQuoted(text, q, (next) => next === "'" || next === '\\')
        : unescapeWith(text, q, phpReader(), { rawLineBreaks: true, phpDollar: true })
    case 'shell':
      return unescapeShell(text)
    case 'csv':
      return unescapeCsv(text)
    case 'regex':
      return unescapeRegex(text)
    case 'unicode':
      return unescapeUnicode(text, options.notation ?? 'uBraces')
  }
}

export const stringEscape = defineOperation({
  name: 'string-escape',
  category: 'encoders',
  summary: 'Escape text as a string literal (JavaScript, JSON, Java, C, C#, Python, Go, Rust, PHP, shell, CSV, regex, Unicode notation), or unescape one',
  title: 'String literal escape',
  aliases: [
    'escape string',
    'unescape string',
    'string literal',
    'quote string',
    'javascript string',
    'java string',
    'c string',
    'c# string',
    'python string',
    'go string',
    'rust string',
    'php string',
    'shell quote',
    'bash quote',
    'csv quote',
    'regex escape',
    'RegExp.escape',
    'unicode escape',
    'code point notation',
    'backslash escape',
  ],
  description:
    'Escape writes `input` as the body of a string literal in `language` (with its quotes if `wrapInQuotes`); unescape reads such a literal back, with or without its quotes ' +
    '(a leading quote of the chosen kind means the quotes are included), and answers the text it stands for. ' +
    'Languages: `javascript` (ECMA-262 string literals: short escapes, other controls as `\\xhh`, U+2028/2029 as `\\u2028`; `asciiOnly` writes `\\uxxxx`, `\\u{…}` above U+FFFF; ' +
    'quote `backtick` makes a template literal, escaping `` ` `` and `${`), `json` (byte-identical to the json-escape operation, RFC 8259 §7), ' +
    '`java` (JLS §3.10.7; controls as `\\u00xx` but line breaks always `\\n`/`\\r`, since a `\\u000a` would end the line; unescape refuses `\\u000a`, `\\u000d`, `\\u0022` and `\\u005c` for that reason), ' +
    '`c` and `cpp` (C11 §6.4.4.4: controls and, with `asciiOnly`, each UTF-8 byte as a 3-digit octal escape, never a greedy `\\x`; `??` written `?\\?`; unescape decodes byte escapes as UTF-8), ' +
    '`csharp` (ECMA-334: `\\uxxxx`/`\\Uxxxxxxxx`, never the variable-length `\\x`; unescape also reads verbatim `@"…"`), ' +
    '`python` (quote `single` by default, as repr writes; `\\xhh`, `\\uxxxx`, `\\Uxxxxxxxx`; unescape refuses `\\N{…}` and unknown escapes), ' +
    '`go` (interpreted strings with `\\xhh` bytes, `\\u`, `\\U`; quote `backtick` is a raw string, which cannot hold a backtick or a carriage return: 422), ' +
    "`rust` (`\\x00`–`\\x7F` only, `\\u{…}`), `php` (double quotes escape `$` too and read unknown escapes as PHP does, keeping the backslash; single quotes only `\\'` and `\\\\`), " +
    "`shell` (POSIX single quotes: `'` becomes `'\\''`; NUL cannot be an argument: 422; unescape reads a shell word when the text starts with a quote, otherwise the body between single quotes), " +
    '`csv` (RFC 4180: a field holding `,` `"` CR or LF is quoted with `"` doubled; `wrapInQuotes` always quotes), ' +
    '`regex` (ECMA-262: a backslash before each SyntaxCharacter and `/`; `mode: escapeFunction` gives exactly what ES2025 `RegExp.escape` gives), ' +
    'and `unicode` (each non-ASCII character, or with `scope: all` every character, in a `notation`; the character that starts that notation is escaped too so the text reads back unchanged; hex digits are upper case, as Unicode writes them; `uPlus` is for reading, as `U+XXXX` followed by a hex digit is ambiguous). ' +
    'Raw line breaks are read as each language reads them: refused where a literal cannot span lines, CR and CRLF read as LF in a template literal, CRLF as LF in Rust, CR dropped from a Go raw string. ' +
    'Other escapes use lower-case hex. A field the language does not take (a `quote` it has no literal for, `notation` outside unicode, `mode` outside regex, `asciiOnly` where no escape exists) is a 400. ' +
    'Unescape refuses with a 422 naming the position (UTF-16 code units), line and column: an invalid escape, an unescaped quote or line break, an out-of-range value, a surrogate that does not pair up, bytes that are not UTF-8. ' +
    'A result over the 16 MiB output limit is refused (422 LIMIT_EXCEEDED) before it is built.',
  input: Type.Object(
    {
      input: Type.String({
        description: 'The text to escape, or the literal (with or without its quotes) to unescape. May be empty.',
        examples: ['Tab\t"q" é'],
      }),
      action: withDefault(Type.Enum(['escape', 'unescape'], { description: 'Escape `input` into a literal, or unescape the literal in `input`.' }), 'escape'),
      language: withDefault(Type.Enum([...LANGUAGES], { description: 'The language whose string literal to write or read.' }), 'javascript'),
      quote: Type.Optional(
        Type.Enum(['double', 'single', 'backtick'], {
          description:
            "The literal's quote; by default the language's usual one (double; single for python and shell). javascript takes all three, python and php double or single, go double or backtick (a raw string); regex and unicode take none.",
        }),
      ),
      wrapInQuotes: Type.Optional(
        Type.Boolean({
          description:
            'Escape only: put the quotes around the result (for csv: quote the field even when it need not be). Default false; not taken by regex and unicode.',
        }),
      ),
      asciiOnly: Type.Optional(
        Type.Boolean({
          description:
            'Escape only: also escape every non-ASCII character, so the result is pure ASCII. Default false; not taken by shell, csv, regex, unicode, php single quotes or go raw strings.',
        }),
      ),
      notation: Type.Optional(
        Type.Enum([...NOTATIONS], {
          description:
            'unicode only (default uBraces): uBraces `\\u{1F600}`, utf16 `\\uD83D\\uDE00`, u8 `\\U0001F600`, xBraces `\\x{1F600}`, uPlus `U+1F600`, htmlHex `&#x1F600;`, htmlDecimal `&#128512;`.',
        }),
      ),
      scope: Type.Optional(
        Type.Enum(['nonAscii', 'all'], { description: 'unicode only (default nonAscii): escape the non-ASCII characters, or every character.' }),
      ),
      mode: Type.Optional(
        Type.Enum(['pattern', 'escapeFunction'], {
          description:
            'regex only (default pattern): escape the syntax characters and `/`, or give exactly what ES2025 RegExp.escape gives (also punctuators, white space and an initial letter or digit).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The escaped literal (escape) or the text it stands for (unescape).' }),
    action: Type.Enum(['escape', 'unescape'], { description: 'The action performed.' }),
    language: Type.Enum([...LANGUAGES], { description: 'The language of the literal.' }),
  }),
  examples: [
    {
      summary: 'Escape for a JavaScript string',
      input: { input: 'Tab\t"q" é\n' },
      output: { result: 'Tab\\t\\"q\\" é\\n', action: 'escape', language: 'javascript' },
    },
    {
      summary: 'Quote a shell argument',
      input: { input: "it's", language: 'shell', wrapInQuotes: true },
      output: { result: "'it'\\''s'", action: 'escape', language: 'shell' },
    },
    {
      summary: 'Unescape a Go literal of byte escapes',
      input: { input: '"\\xe6\\x97\\xa5\\u672c\\U00008a9e"', action: 'unescape', language: 'go' },
      output: { result: '日本語', action: 'unescape', language: 'go' },
    },
    {
      summary: 'Escape for a regular expression, as RegExp.escape does',
      input: { input: 'The Quick (fox)', language: 'regex', mode: 'escapeFunction' },
      output: { result: '\\x54he\\x20Quick\\x20\\(fox\\)', action: 'escape', language: 'regex' },
    },
  ],
  run(input) {
    const result = input.action === 'escape' ? escapeString(input.input, input) : unescapeString(input.input, input)
    return { result, action: input.action, language: input.language }
  },
})
