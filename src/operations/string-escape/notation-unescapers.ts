/** Escaped regular expression patterns read back to the text they match, and Unicode escape notations to their characters. */

import { braced, expectDigits, invalidEscape, Output, refuse, SIMPLE } from './unescape-loop.ts'
import { type Notation, SYNTAX_CHARACTERS } from './writers.ts'

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
