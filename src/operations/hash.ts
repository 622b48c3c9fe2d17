import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import type { IHasher } from 'hash-wasm'
import { Type } from 'typebox'
import { inputEncodingField, textToBytes } from '../core/bytes.ts'
import { algorithmField, canonicalAlgorithm, DIGEST_ENCODINGS, digestEncodingField, digestMatches, expectedField, updateInSlices } from '../core/digest.ts'
import { validationError } from '../core/errors.ts'
import { defineOperation, withDefault } from '../core/operation.ts'

export const HASH_ALGORITHMS = [
  'md5',
  'sha1',
  'sha224',
  'sha256',
  'sha384',
  'sha512',
  'sha512-256',
  'sha3-224',
  'sha3-256',
  'sha3-384',
  'sha3-512',
  'blake2b512',
  'blake2s256',
  'blake3',
  'crc32',
] as const
type HashAlgorithm = (typeof HASH_ALGORITHMS)[number]

interface Hasher {
  update(slice: Uint8Array): void
  digest(): Buffer
}

/**
 * BLAKE3 states are WebAssembly instances, slow to create, so finished ones are kept for reuse. The
 * package is loaded on first use: it embeds the WebAssembly of every algorithm it has, a fifth of
 * what loading the registry would otherwise read and compile.
 */
const idleBlake3: IHasher[] = []
const MAX_IDLE_BLAKE3 = 8

/**
 * A hasher of its own per request (slices of concurrent requests interleave). Every name but
 * blake3 and crc32 is also node:crypto's (OpenSSL's) name.
 */
async function hasherFor(algorithm: HashAlgorithm): Promise<Hasher> {
  if (algorithm === 'blake3') {
    const state = (idleBlake3.pop() ?? (await (await import('hash-wasm')).createBLAKE3())).init()
    return {
      update: (slice) => state.update(slice),
      digest: () => {
        const digest = Buffer.from(state.digest('binary'))
        if (idleBlake3.length < MAX_IDLE_BLAKE3) idleBlake3.push(state)
        return digest
      },
    }
  }
  if (algorithm === 'crc32') {
    let checksum = 0
    return {
      update: (slice) => {
        checksum = crc32(slice, checksum)
      },
      digest: () => {
        const bytes = Buffer.alloc(4)
        bytes.writeUInt32BE(checksum)
        return bytes
      },
    }
  }
  const state = createHash(algorithm)
  return { update: (slice) => state.update(slice), digest: () => state.digest() }
}

export const hash = defineOperation({
  name: 'hash',
  category: 'generators',
  summary: 'Hash text or bytes with MD5, SHA-1, SHA-2, SHA-3, BLAKE2, BLAKE3 or CRC-32',
  title: 'Hash',
  aliases: [
    'digest',
    'checksum',
    'md5',
    'sha1',
    'sha-1',
    'sha256',
    'sha-256',
    'sha512',
    'sha-512',
    'sha384',
    'sha3',
    'sha-3',
    'keccak',
    'blake2',
    'blake3',
    'crc32',
    'crc',
  ],
  description:
    'Computes the digest of `input` (UTF-8 text by default, or bytes given as hex, base64 or Latin-1) and writes it as hex, base64 or base64url. ' +
    'Algorithm names are case-insensitive and a hyphen may follow "sha", so MD5, SHA-1, SHA-256, SHA-512, SHA3-256 and SHA-512/256 all work; the response gives the canonical lower-case name. ' +
    'crc32 is the ISO-HDLC CRC-32 of zlib, written as its 4 bytes in big-endian order (8 hex digits). ' +
    'With `expected`, `matches` tells whether it equals the digest, compared in constant time (hex in any letter case; base64 with or without padding). ' +
    'MD5, SHA-1 and CRC-32 are not collision-resistant: use them for checksums and legacy interoperability only.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text (or encoded bytes, see `inputEncoding`) to hash. May be empty.', examples: ['abc'] }),
      algorithm: algorithmField(
        HASH_ALGORITHMS,
        `The algorithm, one of ${HASH_ALGORITHMS.join(', ')}; any letter case, and a hyphen may follow "sha" (SHA-256, SHA3-256, and SHA-512/256 for sha512-256 work too).`,
      ),
      inputEncoding: inputEncodingField(),
      encoding: digestEncodingField('How the digest is written: `hex` (lower case unless `uppercase`), `base64`, or unpadded `base64url`.'),
      uppercase: withDefault(
        Type.Boolean({ description: 'Write hex digits in upper case. Only with `encoding` hex: base64 is case-sensitive, so asking for it there is a 400.' }),
        false,
      ),
      expected: expectedField(
        'A digest to verify, written in `encoding`: `matches` then tells whether it is the digest of `input`, compared in constant time. Hex is compared in any letter case; base64 and base64url with or without "=" padding.',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The digest, written in `encoding`.' }),
    algorithm: Type.Enum(HASH_ALGORITHMS, { description: 'The canonical name of the algorithm used.' }),
    encoding: Type.Enum(DIGEST_ENCODINGS, { description: 'How `result` is written.' }),
    bits: Type.Integer({ description: 'The size of the digest in bits.' }),
    matches: Type.Optional(Type.Boolean({ description: 'Present only when `expected` was given: whether it equals the digest.' })),
  }),
  examples: [
    {
      summary: 'SHA-256 of text (the default)',
      input: { input: 'abc' },
      output: { result: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', algorithm: 'sha256', encoding: 'hex', bits: 256 },
    },
    {
      summary: 'MD5, spelled in capitals: the answer names the canonical algorithm',
      input: { input: 'hello', algorithm: 'MD5' },
      output: { result: '5d41402abc4b2a76b9719d911017c592', algorithm: 'md5', encoding: 'hex', bits: 128 },
    },
    {
      summary: 'SHA-512/256 as base64',
      input: { input: 'abc', algorithm: 'SHA-512/256', encoding: 'base64' },
      output: { result: 'UwSOJoGUHvmbLim3a0x9q+TC0MY0/G1G4OLxMQfnryM=', algorithm: 'sha512-256', encoding: 'base64', bits: 256 },
    },
    {
      summary: 'Verify a SHA-1 digest given in upper case',
      input: { input: 'abc', algorithm: 'SHA-1', expected: 'A9993E364706816ABA3E25717850C26C9CD0D89D' },
      output: { result: 'a9993e364706816aba3e25717850c26c9cd0d89d', algorithm: 'sha1', encoding: 'hex', bits: 160, matches: true },
    },
    {
      summary: 'CRC-32 check value',
      input: { input: '123456789', algorithm: 'crc32' },
      output: { result: 'cbf43926', algorithm: 'crc32', encoding: 'hex', bits: 32 },
    },
  ],
  verdict: { field: 'matches', failure: 'the hash does not match --expected' },
  async run({ input, algorithm: spelling, inputEncoding, encoding, uppercase, expected }) {
    if (uppercase && encoding !== 'hex') throw validationError('uppercase', `applies only to encoding hex; ${encoding} is case-sensitive`)
    const algorithm = canonicalAlgorithm<HashAlgorithm>(spelling)
    const bytes = textToBytes(input, inputEncoding)
    const hasher = await hasherFor(algorithm)
    await updateInSlices(bytes, (slice) => hasher.update(slice))
    const digest = hasher.digest()
    const text = digest.toString(encoding)
    const result = uppercase ? text.toUpperCase() : text
    const answer = { result, algorithm, encoding, bits: digest.length * 8 }
    return expected === undefined ? answer : { ...answer, matches: digestMatches(result, expected, encoding) }
  },
})
