// Unescaping: one reader per language's escape sequences, over one loop that checks what the
// escapes produce (paired surrogates, well-formed UTF-8) and says where a bad one is.

import { type DevutilsError, invalidInput } from '../../core/errors.ts'
import { lineAndColumn } from '../../lib/json/value.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'
import { hex, type Notation, SYNTAX_CHARACTERS } from './writers.ts'

const isHexDigit = (char: string | undefined) => char !== undefined && /^[0-9a-fA-F]$/.test(char)

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

export function javascriptReader(): EscapeReader {
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

export function javaReader(): EscapeReader {
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

export function cReader(): EscapeReader {
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

export function csharpReader(): EscapeReader {
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

export function pythonReader(): EscapeReader {
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

export function goReader(): EscapeReader {
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

export function rustReader(): EscapeReader {
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

export function phpReader(): EscapeReader {
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
export function unescapeWith(
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

export function unescapeCsharp(text: string): string {
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

export function unescapeSimpleQuoted(text: string, quote: string, escapes: (next: string) => boolean): string {
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

export function unescapeGoRaw(text: string): string {
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
export function unescapeShell(text: string): string {
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

export function unescapeCsv(text: string): string {
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

export function unescapeRegex(text: string): string {
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

export function unescapeUnicode(text: string, notation: Notation): string {
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
