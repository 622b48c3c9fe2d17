import { createHash, hash as oneShotHash } from 'node:crypto'

/**
 * The crypt(3) hashes of Unix systems and Apache: SHA-crypt (`$5$`, `$6$`, Ulrich Drepper's "Unix crypt
 * using SHA-256 and SHA-512") and MD5-crypt (`$1$`, Poul-Henning Kamp's, and Apache's `$apr1$` variant),
 * written on node:crypto's hashes. Salts are ASCII text; passwords are bytes.
 */

/** The crypt(3) base64 alphabet: its own order, neither RFC 4648's nor bcrypt's. */
const CRYPT_ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** Writes `count` symbols of a 24-bit group, least significant six bits first, as crypt(3) does. */
function encodeGroup(high: number, middle: number, low: number, count: number): string {
  let group = (high << 16) | (middle << 8) | low
  let text = ''
  for (let k = 0; k < count; k++) {
    text += CRYPT_ALPHABET[group & 63]
    group >>= 6
  }
  return text
}

export type ShaCryptAlgorithm = 'sha256-crypt' | 'sha512-crypt'

export const SHA_CRYPT = {
  /** The rounds when a setting names none. */
  defaultRounds: 5000,
  /** Fewer rounds named are raised to this, by the specification. */
  minimumRounds: 1000,
  /** More rounds named are lowered to this, by the specification. */
  maximumRounds: 999_999_999,
  /** Salt characters read; more are ignored, by the specification. */
  saltLength: 16,
} as const

const SHA_CRYPT_SHAPE = {
  'sha256-crypt': { prefix: '$5$', digest: 'sha256', bytes: 32, encodedLength: 43 },
  'sha512-crypt': { prefix: '$6$', digest: 'sha512', bytes: 64, encodedLength: 86 },
} as const

export const shaCryptShape = (algorithm: ShaCryptAlgorithm) => SHA_CRYPT_SHAPE[algorithm]

/** `source` repeated and cut to `length` bytes. */
function repeatTo(source: Uint8Array, length: number): Buffer {
  const out = Buffer.alloc(length)
  for (let offset = 0; offset < length; offset += source.length) out.set(source.subarray(0, Math.min(source.length, length - offset)), offset)
  return out
}

/** The 32 or 64 bytes that SHA-crypt's string encodes, for a salt already cut to 16 bytes and rounds already in range. */
function shaCryptBytes(algorithm: ShaCryptAlgorithm, password: Buffer, salt: Buffer, rounds: number): Buffer {
  const { digest, bytes } = SHA_CRYPT_SHAPE[algorithm]
  const hash = () => createHash(digest)
  const alternate = hash().update(password).update(salt).update(password).digest()
  const initial = hash().update(password).update(salt)
  for (let left = password.length; left > 0; left -= bytes) initial.update(alternate.subarray(0, Math.min(left, bytes)))
  for (let bits = password.length; bits > 0; bits >>>= 1) initial.update(bits & 1 ? alternate : password)
  let current = initial.digest()

  const passwordDigest = hash()
  for (let i = 0; i < password.length; i++) passwordDigest.update(password)
  const passwordSequence = repeatTo(passwordDigest.digest(), password.length)
  const saltDigest = hash()
  for (let i = 0; i < 16 + current[0]; i++) saltDigest.update(salt)
  const saltSequence = repeatTo(saltDigest.digest(), salt.length)

  // Each round's pieces are written into one buffer and hashed in one call: a Hash object and its
  // updates cost more per round than the hashing itself.
  const block = Buffer.allocUnsafe(2 * passwordSequence.length + saltSequence.length + bytes)
  for (let round = 0; round < rounds; round++) {
    let length = (round & 1 ? passwordSequence : current).copy(block, 0)
    if (round % 3 !== 0) length += saltSequence.copy(block, length)
    if (round % 7 !== 0) length += passwordSequence.copy(block, length)
    length += (round & 1 ? current : passwordSequence).copy(block, length)
    current = oneShotHash(digest, block.subarray(0, length), 'buffer')
  }
  return current
}

function encodeShaCrypt(algorithm: ShaCryptAlgorithm, digest: Buffer): string {
  let text = ''
  if (algorithm === 'sha256-crypt') {
    // Ten groups of three bytes, each a rotation of (i, i + 10, i + 20), then the last two bytes.
    for (let i = 0; i < 10; i++) {
      const triple = [digest[i], digest[i + 10], digest[i + 20]]
      const shift = (3 - (i % 3)) % 3
      text += encodeGroup(triple[shift], triple[(shift + 1) % 3], triple[(shift + 2) % 3], 4)
    }
    return text + encodeGroup(0, digest[31], digest[30], 3)
  }
  // Twenty-one groups of (i, i + 21, i + 42), rotated the other way, then the last byte.
  for (let i = 0; i < 21; i++) {
    const triple = [digest[i], digest[i + 21], digest[i + 42]]
    const shift = i % 3
    text += encodeGroup(triple[shift], triple[(shift + 1) % 3], triple[(shift + 2) % 3], 4)
  }
  return text + encodeGroup(0, 0, digest[63], 2)
}

/**
 * The hash part of a SHA-crypt string (what follows the last `$`), for a salt of at most 16 bytes and
 * rounds from 1,000 to 999,999,999, already brought into range by the caller.
 */
export function shaCryptHash(algorithm: ShaCryptAlgorithm, password: Uint8Array, salt: string, rounds: number): string {
  return encodeShaCrypt(algorithm, shaCryptBytes(algorithm, Buffer.from(password), Buffer.from(salt, 'latin1'), rounds))
}

/** The whole string as crypt(3) writes it: `rounds=` only when `writeRounds` (a setting that named them). */
export function shaCryptString(algorithm: ShaCryptAlgorithm, password: Uint8Array, salt: string, rounds: number, writeRounds: boolean): string {
  const { prefix } = SHA_CRYPT_SHAPE[algorithm]
  return `${prefix}${writeRounds ? `rounds=${rounds}$` : ''}${salt}$${shaCryptHash(algorithm, password, salt, rounds)}`
}

export type Md5CryptAlgorithm = 'md5-crypt' | 'apr1'

export const MD5_CRYPT = {
  /** Salt characters read; more are ignored. */
  saltLength: 8,
  /** The fixed number of rounds, written nowhere in the string. */
  rounds: 1000,
  encodedLength: 22,
} as const

export const md5CryptPrefix = (algorithm: Md5CryptAlgorithm) => (algorithm === 'apr1' ? '$apr1$' : '$1$')

/** The hash part of an MD5-crypt (`$1$`) or Apache (`$apr1$`) string: the two differ only in the prefix mixed in. */
export function md5CryptHash(algorithm: Md5CryptAlgorithm, passwordBytes: Uint8Array, saltText: string): string {
  const password = Buffer.from(passwordBytes)
  const salt = Buffer.from(saltText, 'latin1')
  const md5 = () => createHash('md5')
  const alternate = md5().update(password).update(salt).update(password).digest()
  const initial = md5().update(password).update(md5CryptPrefix(algorithm)).update(salt)
  for (let left = password.length; left > 0; left -= 16) initial.update(alternate.subarray(0, Math.min(left, 16)))
  // A quirk of the original: a set bit adds a NUL byte, a clear one the password's first byte.
  const nul = Buffer.alloc(1)
  for (let bits = password.length; bits > 0; bits >>>= 1) initial.update(bits & 1 ? nul : password.subarray(0, 1))
  let current = initial.digest()
  for (let round = 0; round < MD5_CRYPT.rounds; round++) {
    const step = md5()
    step.update(round & 1 ? password : current)
    if (round % 3 !== 0) step.update(salt)
    if (round % 7 !== 0) step.update(password)
    step.update(round & 1 ? current : password)
    current = step.digest()
  }
  return (
    encodeGroup(current[0], current[6], current[12], 4) +
    encodeGroup(current[1], current[7], current[13], 4) +
    encodeGroup(current[2], current[8], current[14], 4) +
    encodeGroup(current[3], current[9], current[15], 4) +
    encodeGroup(current[4], current[10], current[5], 4) +
    encodeGroup(0, 0, current[11], 2)
  )
}

export function md5CryptString(algorithm: Md5CryptAlgorithm, password: Uint8Array, salt: string): string {
  return `${md5CryptPrefix(algorithm)}${salt}$${md5CryptHash(algorithm, password, salt)}`
}

/** `length` symbols of the crypt alphabet from the given random bytes (one byte per symbol, its low six bits: uniform). */
export function cryptSalt(random: Uint8Array, length: number): string {
  let text = ''
  for (let i = 0; i < length; i++) text += CRYPT_ALPHABET[random[i] & 63]
  return text
}
