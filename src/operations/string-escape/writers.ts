// Escaping: one writer per language's string literal, each a table of what it writes for a code
// point, over one loop that keeps the output within the limit.
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'

export const NOTATIONS = ['uBraces', 'utf16', 'u8', 'xBraces', 'uPlus', 'htmlHex', 'htmlDecimal'] as const
export type Notation = (typeof NOTATIONS)[number]

export const hex = (value: number, width: number) => value.toString(16).padStart(width, '0')
const HEX = (value: number, width: number) => value.toString(16).toUpperCase().padStart(width, '0')

/** Writes one code point (`next` is the one after it, `previous` the one before), or undefined to keep it as it is. */
export type Writer = (cp: number, previous: number, next: number, index: number) => string | undefined

/** The UTF-8 bytes of a code point, worked out rather than encoded, since this runs once per character; a lone surrogate is U+FFFD's, as an encoder writes it. */
function utf8Bytes(cp: number): number[] {
  if (cp < 0x80) return [cp]
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)]
  if (cp >= 0xd800 && cp <= 0xdfff) return [0xef, 0xbf, 0xbd]
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
}

/**
 * Runs `write` over the code points of `text`. Every writer here writes at most 16 characters per
 * code unit, so short inputs need no counting; longer ones count the UTF-8 size as they grow and
 * stop at the output limit before the rest is built.
 */
export function escapeWith(text: string, write: Writer, open = '', close = open): string {
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

export function javascriptWriter(quote: string, asciiOnly: boolean): Writer {
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

export function javaWriter(asciiOnly: boolean): Writer {
  return (cp) => {
    if (cp !== 7 && cp !== 11 && C_SHORT[cp]) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    // A \u escape is translated before the literal is read, so \u000a or \u000d would end the line:
    // those two always take their short forms above.
    if (isControl(cp) || (asciiOnly && cp >= 0x80)) return utf16Escapes(cp)
    return undefined
  }
}

export function cWriter(asciiOnly: boolean): Writer {
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

export function csharpWriter(asciiOnly: boolean): Writer {
  return (cp) => {
    if (cp === 0) return '\\0'
    if (C_SHORT[cp]) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    if (isControl(cp) || (asciiOnly && cp >= 0x80)) return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`
    return undefined
  }
}

export function pythonWriter(quote: string, asciiOnly: boolean): Writer {
  return (cp) => {
    if (C_SHORT[cp]) return C_SHORT[cp]
    const quoted = quoteEscape(cp, quote)
    if (quoted) return quoted
    if (isControl(cp) || (asciiOnly && cp >= 0x80 && cp <= 0xff)) return `\\x${hex(cp, 2)}`
    if (asciiOnly && cp >= 0x80) return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`
    return undefined
  }
}

export function goWriter(asciiOnly: boolean): Writer {
  return (cp) => {
    if (C_SHORT[cp]) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    if (isControl(cp)) return `\\x${hex(cp, 2)}`
    if (asciiOnly && cp >= 0x80) return cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`
    return undefined
  }
}

export const goRawWriter: Writer = (cp, _previous, _next, index) => {
  if (cp === 0x60) throw invalidInput(`The backtick at position ${index} cannot be written in a Go raw string; use quote: double`, { position: index })
  if (cp === 0x0d) {
    throw invalidInput(`The carriage return at position ${index} cannot be written in a Go raw string, which drops it; use quote: double`, {
      position: index,
    })
  }
  return undefined
}

export function rustWriter(asciiOnly: boolean): Writer {
  return (cp) => {
    if (cp === 0) return '\\0'
    if (cp === 9 || cp === 10 || cp === 13 || cp === 0x5c) return C_SHORT[cp]
    if (cp === 0x22) return '\\"'
    if (isControl(cp)) return `\\x${hex(cp, 2)}`
    if (asciiOnly && cp >= 0x80) return `\\u{${hex(cp, 0)}}`
    return undefined
  }
}

export function phpWriter(asciiOnly: boolean): Writer {
  const short: Record<number, string> = { 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 27: '\\e', 92: '\\\\', 36: '\\$', 34: '\\"' }
  return (cp) => {
    if (short[cp]) return short[cp]
    if (isControl(cp)) return `\\x${hex(cp, 2)}`
    if (asciiOnly && cp >= 0x80) return `\\u{${hex(cp, 0)}}`
    return undefined
  }
}

export const phpSingleWriter: Writer = (cp) => (cp === 0x27 ? "\\'" : cp === 0x5c ? '\\\\' : undefined)

export const shellWriter: Writer = (cp, _previous, _next, index) => {
  if (cp === 0) throw invalidInput(`The NUL character at position ${index} cannot be passed in a shell argument`, { position: index })
  return cp === 0x27 ? "'\\''" : undefined
}

export const SYNTAX_CHARACTERS = new Set('^$\\.*+?()[]{}|/')
export const regexWriter: Writer = (cp) => (cp < 0x80 && SYNTAX_CHARACTERS.has(String.fromCharCode(cp)) ? `\\${String.fromCharCode(cp)}` : undefined)

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
export const regexEscapeFunctionWriter: Writer = (cp, _previous, _next, index) => {
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

export function unicodeWriter(notation: Notation, all: boolean): Writer {
  const write = NOTATION_WRITERS[notation]
  // The character that starts an escape is escaped too, so that text that looks like one survives a round trip.
  const introducer = notation === 'uPlus' ? 0x55 : notation.startsWith('html') ? 0x26 : 0x5c
  return (cp, _previous, next) => {
    if (all || cp >= 0x80) return write(cp)
    if (cp === introducer && (notation !== 'uPlus' || next === 0x2b)) return write(cp)
    return undefined
  }
}
