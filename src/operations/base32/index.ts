import { type BytesCoder, base32crockford, base32hex, base32hexnopad, base32nopad, base32 as rfc4648 } from '@scure/base'
import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { type ByteEncoding, bytesToText, codecEncodingFields, textToBytes } from '../../lib/bytes/encodings.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

/**
 * Inputs longer than this run on a worker thread: encoding and decoding are linear, but a longer
 * input would hold the event loop for tens of milliseconds (docs/PERFORMANCE.md, "Offload
 * thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

type Variant = 'rfc4648' | 'hex' | 'crockford'

interface VariantSpec {
  alphabet: string
  /** What the error messages call it, and what they say it allows. */
  label: string
  allowed: string
  /** Absent for Crockford, which never pads. */
  padded?: BytesCoder
  /** @scure/base's coders are strict: they only ever see canonical, unpadded, upper-case symbols. */
  unpadded: BytesCoder
  /** Extra symbols read as another (Crockford's I/L = 1, O = 0). */
  aliases?: Record<string, string>
}

const VARIANTS: Record<Variant, VariantSpec> = {
  rfc4648: {
    alphabet: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
    label: 'base32',
    allowed: 'A–Z and 2–7 in any case, whitespace and trailing = padding',
    padded: rfc4648,
    unpadded: base32nopad,
  },
  hex: {
    alphabet: '0123456789ABCDEFGHIJKLMNOPQRSTUV',
    label: 'base32hex',
    allowed: '0–9 and A–V in any case, whitespace and trailing = padding',
    padded: base32hex,
    unpadded: base32hexnopad,
  },
  crockford: {
    alphabet: '0123456789ABCDEFGHJKMNPQRSTVWXYZ',
    label: 'Crockford base32',
    allowed: '0–9 and A–Z except U in any case (I and L read as 1, O as 0), whitespace and hyphens; it has no padding',
    unpadded: base32crockford,
    aliases: { I: '1', L: '1', O: '0' },
  },
}

/** For each variant, each ASCII char code → its symbol's value (either case, aliases included), or -1. */
const VALUES = Object.fromEntries(
  Object.entries(VARIANTS).map(([variant, spec]) => {
    const values = new Int8Array(128).fill(-1)
    const add = (char: string, value: number) => {
      values[char.toUpperCase().charCodeAt(0)] = value
      values[char.toLowerCase().charCodeAt(0)] = value
    }
    for (let value = 0; value < 32; value++) add(spec.alphabet[value], value)
    for (const [alias, symbol] of Object.entries(spec.aliases ?? {})) add(alias, spec.alphabet.indexOf(symbol))
    return [variant, values]
  }),
) as Record<Variant, Int8Array>

const EQUALS = 0x3d
const HYPHEN = 0x2d
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d])

/** Symbol counts (mod 8) that a whole number of bytes can produce, with their unused trailing bits. */
const UNUSED_BITS: Record<number, number | undefined> = { 0: 0, 2: 2, 4: 4, 5: 1, 7: 3 }

/**
 * Decodes base32 leniently: any case, whitespace anywhere, hyphens and I/L/O for Crockford, padding
 * optional (but exact when given). Every refusal names its position in `text` as it was sent.
 */
export function decodeBase32(text: string, variant: Variant): Uint8Array {
  const spec = VARIANTS[variant]
  const values = VALUES[variant]
  const alphabetCodes = Buffer.from(spec.alphabet, 'latin1')
  // The canonical symbols, as char codes: never longer than the input.
  const canonical = Buffer.allocUnsafe(text.length)
  let count = 0
  let lastValue = 0
  let lastSymbolAt = -1
  let paddingCount = 0
  let paddingAt = -1
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const value = code < 128 ? values[code] : -1
    if (value >= 0 && paddingCount === 0) {
      canonical[count++] = alphabetCodes[value]
      lastValue = value
      lastSymbolAt = i
    } else if (code === EQUALS && variant !== 'crockford') {
      if (paddingCount === 0) paddingAt = i
      paddingCount++
    } else if (WHITESPACE.has(code) || (code === HYPHEN && variant === 'crockford')) {
    } else if (value >= 0) {
      throw invalidInput(`'${text[i]}' at position ${i} comes after the padding; '=' may only end the text`, { position: i })
    } else {
      throw invalidInput(`${showCharacterAt(text, i)} at position ${i} is not a ${spec.label} character; allowed are ${spec.allowed}`, { position: i })
    }
  }
  const unusedBits = UNUSED_BITS[count % 8]
  if (unusedBits === undefined) {
    throw invalidInput(
      `${count} ${spec.label} symbols cannot encode whole bytes (a length of 1, 3 or 6 more than a multiple of 8 is impossible); the text is truncated or has a symbol too many`,
      { length: count },
    )
  }
  const neededPadding = (8 - (count % 8)) % 8
  if (paddingCount > 0 && paddingCount !== neededPadding) {
    throw invalidInput(`the padding at position ${paddingAt} is wrong: ${count} symbols need ${neededPadding} '=', not ${paddingCount}`, {
      position: paddingAt,
    })
  }
  if ((lastValue & ((1 << unusedBits) - 1)) !== 0) {
    throw invalidInput(
      `'${text[lastSymbolAt]}' at position ${lastSymbolAt} cannot end ${spec.label} text: its last ${unusedBits} bits must be zero, so the text is probably truncated`,
      { position: lastSymbolAt },
    )
  }
  return spec.unpadded.decode(canonical.toString('latin1', 0, count))
}

export function encodeBase32(bytes: Uint8Array, variant: Variant, padding: boolean): string {
  const { padded, unpadded } = VARIANTS[variant]
  const coder = padding && padded ? padded : unpadded
  assertOutputWithinLimit(coder === padded ? Math.ceil(bytes.length / 5) * 8 : Math.ceil((bytes.length * 8) / 5))
  return coder.encode(bytes)
}

/** How long `bytes` become once written in `encoding` (UTF-8 bytes of the text), to refuse an oversized result before building it. */
function writtenLength(bytes: Uint8Array, encoding: ByteEncoding): number {
  switch (encoding) {
    case 'hex':
      return bytes.length * 2
    case 'base64':
      return Math.ceil(bytes.length / 3) * 4
    case 'latin1':
      return bytes.length + bytes.reduce((high, byte) => high + (byte >> 7), 0)
    case 'utf8':
      return bytes.length
  }
}

export const base32 = defineOperation({
  name: 'base32',
  category: 'encoders',
  summary: 'Encode text or bytes as Base32 (RFC 4648, base32hex or Crockford), or decode it',
  title: 'Base32',
  aliases: ['base32hex', 'crockford', 'rfc 4648'],
  description:
    'Encodes the UTF-8 bytes of `input` (or bytes given as hex, base64 or Latin-1) as Base32: the RFC 4648 §6 alphabet (`rfc4648`), the extended-hex alphabet of §7 (`hex`), ' +
    "or Douglas Crockford's alphabet (`crockford`, applied to the same 5-bit groups as RFC 4648, never padded, without check symbols). Encoded text is upper case. " +
    'Decoding is case-insensitive, ignores whitespace (and hyphens for Crockford, where I and L read as 1 and O as 0) and accepts missing padding; any other character, ' +
    'wrong padding, a length that cannot hold whole bytes (1, 3 or 6 symbols more than a multiple of 8) or a last symbol with non-zero unused bits is a 422 naming its position. ' +
    'Decoded bytes that are not UTF-8 are refused with 422 unless `outputEncoding` asks for hex, base64 or latin1.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to encode, or the Base32 to decode. May be empty.', examples: ['foobar'] }),
      action: withDefault(Type.Enum(['encode', 'decode'], { description: 'Encode `input` to Base32, or decode Base32 in `input`.' }), 'encode'),
      variant: withDefault(
        Type.Enum(['rfc4648', 'hex', 'crockford'], {
          description:
            'The alphabet: `rfc4648` (A–Z 2–7, RFC 4648 §6), `hex` (0–9 A–V, RFC 4648 §7, keeps sort order) or `crockford` (0–9 and letters without I L O U).',
        }),
        'rfc4648',
      ),
      padding: Type.Optional(
        Type.Boolean({
          description:
            "Pad the encoded text with '=' to a multiple of 8 characters. Default: true for `rfc4648` and `hex`; Crockford base32 never pads, so `true` is refused with it. Decoding always accepts text with or without padding.",
        }),
      ),
      ...codecEncodingFields(),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The Base32 text (encode) or the decoded text (decode).' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
  }),
  actions: {
    encode: { fields: ['input', 'variant', 'padding', 'inputEncoding'] },
    decode: { fields: ['input', 'variant', 'outputEncoding'] },
  },
  examples: [
    { summary: 'Encode text', input: { input: 'foobar' }, output: { result: 'MZXW6YTBOI======', action: 'encode' } },
    { summary: 'Decode, lower case and unpadded', input: { input: 'mzxw6ytboi', action: 'decode' }, output: { result: 'foobar', action: 'decode' } },
    {
      summary: 'Extended-hex alphabet, unpadded',
      input: { input: 'foobar', variant: 'hex', padding: false },
      output: { result: 'CPNMUOJ1E8', action: 'encode' },
    },
    {
      summary: 'Crockford, hyphens and look-alike letters',
      input: { input: 'csqp-yrki-e8', action: 'decode', variant: 'crockford' },
      output: { result: 'foobar', action: 'decode' },
    },
    {
      summary: 'Decode bytes that are not text, as hex',
      input: { input: '74======', action: 'decode', outputEncoding: 'hex' },
      output: { result: 'ff', action: 'decode' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  run({ input, action, variant, padding, inputEncoding, outputEncoding }) {
    if (variant === 'crockford' && padding === true) throw validationError('padding', 'must not be true with variant crockford, which never pads')
    if (action === 'encode') {
      return { result: encodeBase32(textToBytes(input, inputEncoding), variant, padding ?? true), action }
    }
    const bytes = decodeBase32(input, variant)
    assertOutputWithinLimit(writtenLength(bytes, outputEncoding))
    return { result: bytesToText(bytes, outputEncoding), action }
  },
})
