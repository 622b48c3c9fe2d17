/**
 * Unescaping's common loop: over a quoted literal or its body, it hands each escape to a language's
 * reader and checks what the escapes produce (paired surrogates, well-formed UTF-8), saying where a
 * bad one is; and the pieces the readers share.
 */

import { type DevutilsError, invalidInput } from '../../core/errors.ts'
import { lineAndColumn } from '../../lib/json/value.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'
import { hex } from './writers.ts'

export const isHexDigit = (char: string | undefined) => char !== undefined && /^[0-9a-fA-F]$/.test(char)

/** Where an unescape error lies, for its details. */
export function refuse(text: string, position: number, message: string): DevutilsError {
  const { line, column } = lineAndColumn(text, position)
  return invalidInput(`${message} (line ${line}, column ${column})`, { position, line, column })
}

/**
 * Collects what an unescape produces: text, UTF-16 code units (whose surrogates must pair up), code
 * points and bytes (which must form UTF-8, as in C, Go and PHP, where an escape can stand for a byte).
 */
export class Output {
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
export type EscapeReader = (text: string, at: number, out: Output) => number

/** Reads `min`…`max` digits of `radix` at `from`; answers the value and the position after them, or undefined if too few. */
export function digits(text: string, from: number, min: number, max: number, radix = 16): [number, number] | undefined {
  const allowed = radix === 16 ? /[0-9a-fA-F]/ : radix === 8 ? /[0-7]/ : /[0-9]/
  let end = from
  while (end - from < max && end < text.length && allowed.test(text[end])) end++
  if (end - from < min) return undefined
  return [Number.parseInt(text.slice(from, end), radix), end]
}

export function expectDigits(text: string, at: number, from: number, min: number, max: number, what: string, radix = 16): [number, number] {
  const read = digits(text, from, min, max, radix)
  if (!read) throw refuse(text, at, `The escape at position ${at} must be followed by ${what}`)
  return read
}

export function invalidEscape(text: string, at: number, allowed: string): DevutilsError {
  if (at + 1 >= text.length) return refuse(text, at, `The backslash at position ${at} ends the text; an escape needs a character after it`)
  return refuse(
    text,
    at,
    `The backslash at position ${at} is followed by ${showCharacterAt(text, at + 1)}, which starts no escape here; allowed are ${allowed}`,
  )
}

/** `\u{…}`: 1 to `max` hex digits in braces (Rust allows underscores between them). */
export function braced(text: string, at: number, from: number, max: number, underscores = false): [number, number] {
  const close = text.indexOf('}', from)
  const body = close === -1 ? '' : text.slice(from + 1, close)
  const clean = underscores ? body.replaceAll('_', '') : body
  if (text[from] !== '{' || close === -1 || !/^[0-9a-fA-F]+$/.test(clean) || clean.length > max || (underscores && body.startsWith('_'))) {
    throw refuse(text, at, `The escape at position ${at} must be followed by 1 to ${max} hex digits in braces`)
  }
  return [Number.parseInt(clean, 16), close + 1]
}

export function lineContinuation(text: string, at: number): number | undefined {
  const next = text[at + 1]
  if (next === '\r') return text[at + 2] === '\n' ? at + 3 : at + 2
  if (next === '\n') return at + 2
  return undefined
}

export const SIMPLE: Record<string, string> = { a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', '"': '"', "'": "'", '\\': '\\' }

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
