import { timingSafeEqual } from 'node:crypto'
import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { Type } from 'typebox'
import { withDefault } from '../../core/operation.ts'

/**
 * What hash and hmac share: the spelling rules of algorithm names, the digest encodings, hashing in
 * bounded slices, and the constant-time check of an expected digest.
 */

export const DIGEST_ENCODINGS = ['hex', 'base64', 'base64url'] as const
export type DigestEncoding = (typeof DIGEST_ENCODINGS)[number]

/**
 * The canonical name of an accepted spelling: lower case, without a hyphen right after "sha"
 * (SHA-256 → sha256, SHA-3-256 → sha3-256), with FIPS 180-4's "512/224" and "512/256" written
 * "512-224" and "512-256". SHAKE is a name of its own, not SHA followed by "KE".
 */
export function canonicalAlgorithm<T extends string>(spelling: string): T {
  return spelling
    .toLowerCase()
    .replace(/^sha-(?!ke)/, 'sha')
    .replace(/512\/(224|256)/, '512-$1') as T
}

const anyCase = (text: string) => text.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`)

/**
 * A pattern that accepts exactly the spellings `canonicalAlgorithm` maps onto `names`: any letter
 * case, an optional hyphen after "sha", and "/" for the inner hyphen of sha512-224 and sha512-256.
 */
export function algorithmPattern(names: readonly string[]): string {
  const isSha = (name: string) => name.startsWith('sha') && !name.startsWith('shake')
  const shaSuffixes = names.filter(isSha).map((name) => anyCase(name.slice(3)).replace(/512-(224|256)/, '512[-/]$1'))
  const others = names.filter((name) => !isSha(name)).map(anyCase)
  const alternatives = shaSuffixes.length > 0 ? [`[sS][hH][aA]-?(?:${shaSuffixes.join('|')})`, ...others] : others
  return `^(?:${alternatives.join('|')})$`
}

/**
 * The `algorithm` field, sha256 by default: one of `names`, a closed set that forms show as a
 * choice, or any other spelling of one of them, which the pattern accepts.
 */
export function algorithmField(names: readonly string[], description: string) {
  const spellings = Type.String({ pattern: algorithmPattern(names), description: 'another spelling of one of them (any letter case, a hyphen after "sha")' })
  return withDefault(Type.Union([Type.Enum(names), spellings], { description }), 'sha256')
}

/** The most bytes hashed at a stretch: a few milliseconds even for the slowest algorithm. */
export const HASH_SLICE_BYTES = 256 * 1024

/**
 * Feeds `bytes` to `update` in slices, yielding to the event loop between them, so that hashing a
 * large input never holds up the small requests waiting behind it. Small inputs never yield.
 */
export async function updateInSlices(bytes: Uint8Array, update: (slice: Uint8Array) => void): Promise<void> {
  for (let offset = 0; offset < bytes.length; offset += HASH_SLICE_BYTES) {
    if (offset > 0) await yieldToEventLoop()
    update(bytes.subarray(offset, offset + HASH_SLICE_BYTES))
  }
}

export const digestEncodingField = (description: string) => withDefault(Type.Enum(DIGEST_ENCODINGS, { description }), 'hex')

/** `expected`, as long as the longest digest of `digestBits` may be written (hex, two characters a byte, is the longest). */
export const expectedField = (description: string, digestBits = 4096) => Type.Optional(Type.String({ maxLength: digestBits / 4, description }))

/**
 * Whether `expected` is the digest as written in `encoding`, compared in constant time: hex in any
 * letter case, base64 and base64url with or without '=' padding. A different length is simply false.
 */
export function digestMatches(digest: string, expected: string, encoding: DigestEncoding): boolean {
  const normalise = (text: string) => Buffer.from(encoding === 'hex' ? text.toLowerCase() : text.replace(/=+$/, ''), 'utf8')
  const actual = normalise(digest)
  const claimed = normalise(expected)
  return actual.length === claimed.length && timingSafeEqual(actual, claimed)
}
