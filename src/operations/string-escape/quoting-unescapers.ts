/** The quoting rules without escape readers: single-quoted strings, Go raw strings, shell words and CSV fields. */

import { showCharacterAt } from '../../lib/text/charsets.ts'
import { refuse } from './unescape-loop.ts'

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
