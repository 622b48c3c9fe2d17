import { type CipherGCMTypes, createCipheriv, createDecipheriv } from 'node:crypto'
import { invalidInput } from '../../core/errors.ts'

/** The ciphers: their key and IV sizes, and one encryption or decryption of bytes. */

export type Mode = 'gcm' | 'cbc' | 'ctr' | 'chacha20-poly1305'

export interface AlgorithmSpec {
  mode: Mode
  keyBytes: number
  ivBytes: number
}

export const SPECS = {
  'aes-256-gcm': { mode: 'gcm', keyBytes: 32, ivBytes: 12 },
  'aes-192-gcm': { mode: 'gcm', keyBytes: 24, ivBytes: 12 },
  'aes-128-gcm': { mode: 'gcm', keyBytes: 16, ivBytes: 12 },
  'aes-256-cbc': { mode: 'cbc', keyBytes: 32, ivBytes: 16 },
  'aes-192-cbc': { mode: 'cbc', keyBytes: 24, ivBytes: 16 },
  'aes-128-cbc': { mode: 'cbc', keyBytes: 16, ivBytes: 16 },
  'aes-256-ctr': { mode: 'ctr', keyBytes: 32, ivBytes: 16 },
  'aes-192-ctr': { mode: 'ctr', keyBytes: 24, ivBytes: 16 },
  'aes-128-ctr': { mode: 'ctr', keyBytes: 16, ivBytes: 16 },
  'chacha20-poly1305': { mode: 'chacha20-poly1305', keyBytes: 32, ivBytes: 12 },
} as const satisfies Record<string, AlgorithmSpec>

export type Algorithm = keyof typeof SPECS
export const ALGORITHMS = Object.keys(SPECS) as Algorithm[]

export const TAG_BYTES = 16

export const isAead = (spec: AlgorithmSpec) => spec.mode === 'gcm' || spec.mode === 'chacha20-poly1305'

const AUTHENTICATION_FAILED = 'authentication failed: the key, IV, AAD or tag is wrong, or the data was altered'
const BAD_PADDING = 'bad padding: wrong key or IV, or not CBC ciphertext'

/** The tag length is always given: without it node accepts a truncated GCM tag on decryption. */
const cipherOptions = (algorithm: Algorithm) => (isAead(SPECS[algorithm]) ? { authTagLength: TAG_BYTES } : undefined)

export function encryptBytes(algorithm: Algorithm, key: Buffer, iv: Buffer, aad: Buffer | undefined, plaintext: Buffer) {
  const cipher = createCipheriv(algorithm as CipherGCMTypes, key, iv, cipherOptions(algorithm))
  if (aad !== undefined) cipher.setAAD(aad)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return { ciphertext, tag: isAead(SPECS[algorithm]) ? cipher.getAuthTag() : undefined }
}

export function decryptBytes(
  algorithm: Algorithm,
  key: Buffer,
  iv: Buffer,
  aad: Buffer | undefined,
  ciphertext: Buffer,
  tag: Buffer | undefined,
  hint = '',
): Buffer {
  const decipher = createDecipheriv(algorithm as CipherGCMTypes, key, iv, cipherOptions(algorithm))
  if (tag !== undefined) decipher.setAuthTag(tag)
  if (aad !== undefined) decipher.setAAD(aad)
  const head = decipher.update(ciphertext)
  try {
    return Buffer.concat([head, decipher.final()])
  } catch {
    // One message whatever failed, and nothing of the inputs: the caller learns only that it failed.
    throw invalidInput(isAead(SPECS[algorithm]) ? AUTHENTICATION_FAILED : BAD_PADDING + hint)
  }
}
