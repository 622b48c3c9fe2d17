import { loadHashWasm } from './hash-wasm.ts'

/** bcrypt's own base64 alphabet (OpenBSD's bcrypt.c): not RFC 4648's order, and no padding. */
const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const BCRYPT_VALUES = new Map([...BCRYPT_ALPHABET].map((symbol, value) => [symbol, value]))

export function bcryptBase64Encode(bytes: Uint8Array): string {
  let text = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    const symbols = Math.ceil((Math.min(3, bytes.length - i) * 8) / 6)
    for (let k = 0; k < symbols; k++) text += BCRYPT_ALPHABET[(chunk >> (18 - 6 * k)) & 63]
  }
  return text
}

/** Decodes `length` bytes from bcrypt base64; bits beyond them in the last symbol are dropped here (parseBcrypt refuses them). */
export function bcryptBase64Decode(text: string, length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  let bits = 0
  let bitCount = 0
  let index = 0
  for (const symbol of text) {
    bits = (bits << 6) | BCRYPT_VALUES.get(symbol)!
    bitCount += 6
    if (bitCount >= 8) {
      bitCount -= 8
      if (index < length) bytes[index++] = (bits >> bitCount) & 0xff
    }
  }
  return bytes
}

/**
 * What bcrypt keys Blowfish with for an empty password. hash-wasm refuses an empty password, but
 * bcrypt's key is the password and its terminating NUL, read cyclically: for an empty password an
 * all-zero key, which a lone NUL (with its own terminator) gives too.
 */
const EMPTY_PASSWORD_BCRYPT_KEY = new Uint8Array([0])

/** bcrypt's 23 hash bytes (its 24-byte output less the last, as every bcrypt string writes it). */
export async function bcryptKey(password: Uint8Array, salt: Uint8Array, cost: number): Promise<Uint8Array> {
  const key = password.length === 0 ? EMPTY_PASSWORD_BCRYPT_KEY : password
  return (await (await loadHashWasm()).bcrypt({ password: key, salt, costFactor: cost, outputType: 'binary' })).subarray(0, 23)
}

export const writeBcrypt = (cost: number, salt: Uint8Array, hash: Uint8Array, prefix: '2b' | '2y' = '2b') =>
  `$${prefix}$${String(cost).padStart(2, '0')}$${bcryptBase64Encode(salt)}${bcryptBase64Encode(hash)}`
