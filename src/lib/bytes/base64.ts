import { invalidInput } from '../../core/errors.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

const STANDARD = 1
const URL_SAFE = 2
/** For each char code: 0 = not base64, STANDARD/URL_SAFE = only in that alphabet, both bits = in both. */
const ALPHABET = new Uint8Array(128)
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789') ALPHABET[char.charCodeAt(0)] = STANDARD | URL_SAFE
ALPHABET['+'.charCodeAt(0)] = STANDARD
ALPHABET['/'.charCodeAt(0)] = STANDARD
ALPHABET['-'.charCodeAt(0)] = URL_SAFE
ALPHABET['_'.charCodeAt(0)] = URL_SAFE
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d])
const DATA_URL_PREFIX = /^data:[^,]*;base64,/i

export type Base64Variant = 'standard' | 'url'

export interface Base64DecodeOptions {
  variant: Base64Variant
  padding: boolean
  strict: boolean
}

/**
 * Decodes base64 leniently (either alphabet, missing padding, whitespace, a `data:` prefix) or, with
 * `strict`, only the canonical form of the chosen variant. Positions in errors index the input.
 */
export function decodeBase64(text: string, { variant, padding, strict }: Base64DecodeOptions): Buffer {
  const prefix = DATA_URL_PREFIX.exec(text)
  if (prefix && strict) throw invalidInput('strict decoding refuses a data: URL prefix; send only the base64 text', { position: 0 })
  const expected = variant === 'url' ? URL_SAFE : STANDARD
  const symbols: string[] = []
  let runStart = -1
  let symbolCount = 0
  let paddingCount = 0
  let paddingAt = -1
  for (let i = prefix ? prefix[0].length : 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : -1
    const kind = code >= 0 && code < 128 ? ALPHABET[code] : 0
    if (kind !== 0 && paddingCount === 0) {
      if (strict && (kind & expected) === 0) {
        throw invalidInput(`'${text[i]}' at position ${i} belongs to the other base64 alphabet; strict decoding of the ${variant} variant refuses it`, {
          position: i,
        })
      }
      if (runStart < 0) runStart = i
      symbolCount++
      continue
    }
    if (runStart >= 0) {
      symbols.push(text.slice(runStart, i))
      runStart = -1
    }
    if (code === -1) break
    if (code === 0x3d) {
      if (paddingCount === 0) paddingAt = i
      paddingCount++
    } else if (WHITESPACE.has(code)) {
      if (strict) throw invalidInput(`whitespace at position ${i}; strict decoding refuses it`, { position: i })
    } else if (kind !== 0) {
      throw invalidInput(`'${text[i]}' at position ${i} comes after the padding; '=' may only end the text`, { position: i })
    } else {
      throw invalidInput(`${showCharacterAt(text, i)} at position ${i} is not a base64 character`, { position: i })
    }
  }
  const remainder = symbolCount % 4
  if (remainder === 1) {
    throw invalidInput(`${symbolCount} base64 characters cannot encode whole bytes; the text is truncated or has a character too many`, { length: symbolCount })
  }
  const neededPadding = remainder === 0 ? 0 : 4 - remainder
  if (paddingCount > 0 && paddingCount !== neededPadding) {
    throw invalidInput(`the padding at position ${paddingAt} is wrong: ${symbolCount} characters need ${neededPadding} '=', not ${paddingCount}`, {
      position: paddingAt,
    })
  }
  const joined = symbols.join('')
  if (strict) {
    if (padding && paddingCount !== neededPadding)
      throw invalidInput(`the padding is missing: strict decoding expects ${neededPadding} '=' at the end`, { position: text.length })
    if (!padding && paddingCount > 0) throw invalidInput(`strict decoding without padding refuses the '=' at position ${paddingAt}`, { position: paddingAt })
    const unusedBits = remainder === 2 ? 4 : remainder === 3 ? 2 : 0
    const last = joined.charCodeAt(joined.length - 1)
    if (unusedBits > 0 && (sextet(last) & ((1 << unusedBits) - 1)) !== 0) {
      throw invalidInput('the last character has non-zero unused bits, so the text is not canonical base64', {
        position: text.lastIndexOf(joined[joined.length - 1]),
      })
    }
  }
  return Buffer.from(joined, 'base64')
}

function sextet(code: number): number {
  if (code >= 65 && code <= 90) return code - 65
  if (code >= 97 && code <= 122) return code - 71
  if (code >= 48 && code <= 57) return code + 4
  return code === 0x2b || code === 0x2d ? 62 : 63
}
