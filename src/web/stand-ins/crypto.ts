/**
 * `node:crypto` in the page: the few of its functions that operations running there call, on
 * @noble/hashes and the Web Crypto API's random numbers, with Node's names, arguments and answers.
 * An algorithm Node has and this lacks is refused as Node refuses an unknown one.
 */
import { blake2b, blake2s } from '@noble/hashes/blake2.js'
import { hmac } from '@noble/hashes/hmac.js'
import { md5, ripemd160, sha1 } from '@noble/hashes/legacy.js'
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from '@noble/hashes/sha2.js'
import { sha3_224, sha3_256, sha3_384, sha3_512, shake128, shake256 } from '@noble/hashes/sha3.js'
import type { CHash } from '@noble/hashes/utils.js'
import { Buffer } from './buffer.ts'

/** Node's names of the encodings of bytes as text, as the Buffer of the host at hand types them. */
type Encoding = Parameters<Buffer['toString']>[0]

// Each algorithm's options differ (SHAKE and BLAKE2 take dkLen), which one record cannot tell apart.
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyHash = CHash<any, any>

const HASHES: Record<string, AnyHash> = {
  md5,
  sha1,
  ripemd160,
  sha224,
  sha256,
  sha384,
  sha512,
  'sha512-224': sha512_224,
  'sha512-256': sha512_256,
  'sha3-224': sha3_224,
  'sha3-256': sha3_256,
  'sha3-384': sha3_384,
  'sha3-512': sha3_512,
  shake128,
  shake256,
  blake2b512: blake2b,
  blake2s256: blake2s,
}

function hashFunction(algorithm: string): AnyHash {
  const found = HASHES[algorithm.toLowerCase()]
  if (found === undefined) throw new Error(`Digest method not supported: ${algorithm}`)
  return found
}

function bytesOf(data: string | Uint8Array, encoding?: Encoding): Uint8Array {
  return typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : data
}

/** Node's Hash and Hmac objects: update in pieces, then one digest as a Buffer or as text. */
class Digester {
  constructor(private readonly state: ReturnType<AnyHash['create']>) {}

  update(data: string | Uint8Array, encoding?: Encoding): this {
    this.state.update(bytesOf(data, encoding))
    return this
  }

  digest(): Buffer
  digest(encoding: Encoding): string
  digest(encoding?: Encoding): Buffer | string {
    const digest = Buffer.from(this.state.digest())
    return encoding === undefined ? digest : digest.toString(encoding)
  }
}

export function createHash(algorithm: string, options?: { outputLength?: number }): Digester {
  const hash = hashFunction(algorithm)
  return new Digester(hash.create(options?.outputLength === undefined ? undefined : { dkLen: options.outputLength }))
}

export function createHmac(algorithm: string, key: string | Uint8Array): Digester {
  return new Digester(hmac.create(hashFunction(algorithm), bytesOf(key)))
}

/** Whether two byte strings of the same length are equal, in a time that does not depend on where they differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length')
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= a[index] ^ b[index]
  return difference === 0
}

/** A version 4 UUID from getRandomValues, which pages served over plain HTTP have too (randomUUID needs a secure context). */
export function randomUUID(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6] & 0x0f) | 0x40
  bytes[8] = (bytes[8] & 0x3f) | 0x80
  const hex = Buffer.from(bytes).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
