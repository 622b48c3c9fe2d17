/** One reader per language's escape sequences, each run by unescapeWith's loop. */

import { braced, digits, type EscapeReader, expectDigits, invalidEscape, isHexDigit, lineContinuation, refuse, SIMPLE, unescapeWith } from './unescape-loop.ts'
import { hex } from './writers.ts'

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
