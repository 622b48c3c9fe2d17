import { type BytesCoder, base32crockford, base32hex, base32hexnopad, base32nopad, base32 as rfc4648 } from '@scure/base'
import { invalidInput } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { showCharacterAt } from '../text/charsets.ts'

/** Base32 in the alphabets of RFC 4648 §6 and §7 and Douglas Crockford's, read leniently and written strictly. */
export type Base32Variant = 'rfc4648' | 'hex' | 'crockford'

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

const VARIANTS: Record<Base32Variant, VariantSpec> = {
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
) as Record<Base32Variant, Int8Array>

const EQUALS = 0x3d
const HYPHEN = 0x2d
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d])

/** Symbol counts (mod 8) that a whole number of bytes can produce, with their unused trailing bits. */
const UNUSED_BITS: Record<number, number | undefined> = { 0: 0, 2: 2, 4: 4, 5: 1, 7: 3 }

/**
 * Decodes base32 leniently: any case, whitespace anywhere, hyphens and I/L/O for Crockford, padding
 * optional (but exact when given). Every refusal names its position in `text` as it was sent.
 */
export function decodeBase32(text: string, variant: Base32Variant): Uint8Array {
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

export function encodeBase32(bytes: Uint8Array, variant: Base32Variant, padding: boolean): string {
  const { padded, unpadded } = VARIANTS[variant]
  const coder = padding && padded ? padded : unpadded
  assertOutputWithinLimit(coder === padded ? Math.ceil(bytes.length / 5) * 8 : Math.ceil((bytes.length * 8) / 5))
  return coder.encode(bytes)
}
