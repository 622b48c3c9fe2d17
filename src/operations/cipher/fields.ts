import { invalidInput, isDevutilsError, validationError } from '../../core/errors.ts'
import { textToBytes } from '../../lib/bytes/encodings.ts'
import { type Algorithm, isAead, SPECS } from './algorithms.ts'
import { type Derivation, derivationOf, isEvp, isPbkdf2 } from './derivation.ts'
import type { CipherInput, KEY_ENCODINGS } from './schema.ts'

/** Hex of a field the schema has checked for digits; an odd count is refused here. */
export function hexBytes(text: string, field: string): Buffer {
  if (text.length % 2 !== 0) throw validationError(field, `has an odd number of hex digits (${text.length}); each byte takes two`)
  return Buffer.from(text, 'hex')
}

/** The key as bytes; a decoder's message would quote a character of the secret, so it is replaced. */
function keyBytes(key: string, keyEncoding: (typeof KEY_ENCODINGS)[number]): Buffer {
  if (keyEncoding === 'utf8') return Buffer.from(key, 'utf8')
  if (keyEncoding === 'base64url' && /[+/]/.test(key))
    throw invalidInput('key is not valid base64url: it holds + or /, which base64url writes as - and _', { field: 'key' })
  try {
    return textToBytes(key, keyEncoding === 'hex' ? 'hex' : 'base64', 'key')
  } catch (error) {
    if (!isDevutilsError(error)) throw error
    throw invalidInput(`key is not valid ${keyEncoding}; set keyEncoding to how it is written, or give a password as passphrase`, { field: 'key' })
  }
}

export function aadBytes(aad: string, encoding: 'utf8' | 'hex' | 'base64'): Buffer {
  return textToBytes(aad, encoding, 'aad')
}

const ONLY_WITH_PASSPHRASE = ['kdf', 'iterations', 'memoryKiB', 'logN', 'blockSize', 'parallelism', 'salt'] as const

/** Refuses each field in `fields` that was given, saying why it does not apply. */
export function refuseGiven(input: CipherInput, fields: readonly (keyof CipherInput)[], why: string): void {
  for (const field of fields) if (input[field] !== undefined) throw validationError(field, why)
}

export interface Material {
  key?: Buffer
  passphrase?: Buffer
  derivation?: Derivation
}

/** How many characters `bytes` bytes take in a key encoding, as a message says it: " (64 hex digits)". */
function writtenAs(bytes: number, encoding: (typeof KEY_ENCODINGS)[number]): string {
  if (encoding === 'hex') return ` (${bytes * 2} hex digits)`
  if (encoding === 'base64') return ` (${Math.ceil(bytes / 3) * 4} base64 characters with padding)`
  if (encoding === 'base64url') return ` (${Math.ceil((bytes * 4) / 3)} base64url characters)`
  return ' (of UTF-8)'
}

export function materialOf(input: CipherInput, algorithm: Algorithm): Material {
  const spec = SPECS[algorithm]
  if (input.key !== undefined && input.passphrase !== undefined)
    throw validationError('key', 'and passphrase cannot both be given: a raw key, or a passphrase to derive one')
  if (input.key === undefined && input.passphrase === undefined)
    throw validationError('key', 'or passphrase is required: a raw key, or a passphrase to derive one')
  if (input.key !== undefined) {
    refuseGiven(input, ONLY_WITH_PASSPHRASE, 'applies only with passphrase: a raw key is used as it is')
    const key = keyBytes(input.key, input.keyEncoding)
    if (key.length !== spec.keyBytes) {
      throw validationError(
        'key',
        `must be ${spec.keyBytes} bytes for ${algorithm}${writtenAs(spec.keyBytes, input.keyEncoding)}, not ${key.length}; for a password, give passphrase instead, which derives a key of the right size`,
      )
    }
    return { key }
  }
  return { passphrase: Buffer.from(input.passphrase!, 'utf8'), derivation: derivationOf(input) }
}

/** What `format: openssl` allows; `passphrase` is checked by `materialOf`. */
export function checkOpenssl(input: CipherInput, algorithm: Algorithm, derivation: Derivation | undefined): void {
  const mode = SPECS[algorithm].mode
  if (mode !== 'cbc' && mode !== 'ctr')
    throw validationError('algorithm', `${algorithm} cannot be used with format openssl: openssl enc has no AEAD ciphers; use a CBC or CTR one`)
  if (derivation === undefined) throw validationError('key', 'cannot be used with format openssl, which derives the key from a passphrase: give passphrase')
  if (!isPbkdf2(derivation.kdf) && !isEvp(derivation.kdf)) {
    throw validationError('kdf', `${derivation.kdf} cannot be used with format openssl: openssl enc knows pbkdf2-* (-pbkdf2) and evp-* (its default)`)
  }
  refuseGiven(input, ['iv'], 'cannot be given with format openssl: openssl enc derives it from the passphrase')
}

/** The AEAD-only fields refused for CBC and CTR. */
export function checkAeadFields(input: CipherInput, algorithm: Algorithm): void {
  if (isAead(SPECS[algorithm])) return
  refuseGiven(input, ['aad', 'tag'], `applies only to an AEAD cipher (GCM, chacha20-poly1305), not ${algorithm}`)
}

export function ivOf(text: string, algorithm: Algorithm): Buffer {
  const iv = hexBytes(text, 'iv')
  const { ivBytes } = SPECS[algorithm]
  if (iv.length !== ivBytes) throw validationError('iv', `must be ${ivBytes} bytes (${ivBytes * 2} hex digits) for ${algorithm}, not ${iv.length}`)
  return iv
}
