import { Type } from 'typebox'
import { invalidInput } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { bytesToText, codecEncodingFields, textToBytes } from '../../lib/bytes/encodings.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

/**
 * Inputs longer than this run on a worker thread: encoding is native, but wrapping it in short
 * lines or decoding a lax input is not, and past this length holds the event loop for tens of
 * milliseconds (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

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

type Variant = 'standard' | 'url'

interface DecodeOptions {
  variant: Variant
  padding: boolean
  strict: boolean
}

/**
 * Decodes base64 leniently (either alphabet, missing padding, whitespace, a `data:` prefix) or, with
 * `strict`, only the canonical form of the chosen variant. Positions in errors index the input.
 */
export function decodeBase64(text: string, { variant, padding, strict }: DecodeOptions): Buffer {
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

export function encodeBase64(bytes: Buffer, variant: Variant, padding: boolean, lineLength: number): string {
  let text = bytes.toString(variant === 'url' ? 'base64url' : 'base64')
  if (variant === 'url' && padding) text = text.padEnd(Math.ceil(text.length / 4) * 4, '=')
  if (variant === 'standard' && !padding) text = text.replace(/=+$/, '')
  if (lineLength === 0 || text.length <= lineLength) return text
  const lines: string[] = []
  for (let i = 0; i < text.length; i += lineLength) lines.push(text.slice(i, i + lineLength))
  return lines.join('\n')
}

export const base64 = defineOperation({
  name: 'base64',
  category: 'encoders',
  summary: 'Encode text or bytes as Base64, or decode Base64',
  title: 'Base64',
  aliases: ['b64', 'base64url', 'atob', 'btoa', 'data uri', 'rfc 4648'],
  description:
    'Encodes the UTF-8 bytes of `input` (or bytes given as hex, base64 or Latin-1) as Base64 (RFC 4648 §4) or its URL-safe variant (§5), or decodes Base64. ' +
    'Decoding is lenient by default: it accepts either alphabet, missing padding, whitespace and line breaks, and a `data:…;base64,` prefix; any other character is a 422 naming its position. ' +
    '`strict` decoding accepts only the canonical form of the chosen variant. Decoded bytes that are not UTF-8 are refused with 422 unless `outputEncoding` asks for hex, base64 or latin1.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to encode, or the Base64 to decode. May be empty.', examples: ['hi'] }),
      action: withDefault(Type.Enum(['encode', 'decode'], { description: 'Encode `input` to Base64, or decode Base64 in `input`.' }), 'encode'),
      variant: withDefault(
        Type.Enum(['standard', 'url'], {
          description: 'The alphabet: `standard` (`+` `/`, RFC 4648 §4) or `url` (`-` `_`, RFC 4648 §5). Decoding accepts either unless `strict`.',
        }),
        'standard',
      ),
      padding: Type.Optional(
        Type.Boolean({
          description: "Write '=' padding when encoding (and require it when decoding strictly). Default: true for `standard`, false for `url`.",
        }),
      ),
      lineLength: withDefault(
        Type.Integer({
          minimum: 0,
          maximum: 1024,
          multipleOf: 4,
          description:
            'Wrap the encoded text into lines of this many characters, separated by \\n: 0 = no wrapping, 76 = MIME, 64 = PEM. A multiple of 4, at most 1024.',
        }),
        0,
      ),
      strict: withDefault(
        Type.Boolean({
          description:
            'Decode only canonical Base64 of `variant`: no whitespace, no data: prefix, no characters of the other alphabet, padding as `padding` says, zero unused bits.',
        }),
        false,
      ),
      ...codecEncodingFields(),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The Base64 text (encode) or the decoded text (decode).' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
  }),
  actions: {
    encode: { fields: ['input', 'variant', 'padding', 'lineLength', 'inputEncoding'] },
    decode: { fields: ['input', 'variant', 'padding', 'strict', 'outputEncoding'] },
  },
  examples: [
    { summary: 'Encode text', input: { input: 'hi' }, output: { result: 'aGk=', action: 'encode' } },
    { summary: 'Decode Base64', input: { input: 'aGVsbG8gd29ybGQ=', action: 'decode' }, output: { result: 'hello world', action: 'decode' } },
    { summary: 'URL-safe, unpadded', input: { input: '\u00ff\u00fe', variant: 'url', inputEncoding: 'latin1' }, output: { result: '__4', action: 'encode' } },
    {
      summary: 'Decode bytes that are not text, as hex',
      input: { input: '/wA=', action: 'decode', outputEncoding: 'hex' },
      output: { result: 'ff00', action: 'decode' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  run({ input, action, variant, padding, lineLength, strict, inputEncoding, outputEncoding }) {
    const pad = padding ?? variant === 'standard'
    if (action === 'encode') {
      return { result: encodeBase64(textToBytes(input, inputEncoding), variant, pad, lineLength), action }
    }
    return { result: bytesToText(decodeBase64(input, { variant, padding: pad, strict }), outputEncoding), action }
  },
})
