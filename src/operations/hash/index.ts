import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import type { IHasher } from 'hash-wasm'
import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { inputEncodingField, textToBytes } from '../../lib/bytes/encodings.ts'
import {
  algorithmField,
  canonicalAlgorithm,
  DIGEST_ENCODINGS,
  digestEncodingField,
  digestMatches,
  expectedField,
  updateInSlices,
} from '../../lib/crypto/digest.ts'
import { loadHashWasm } from '../../lib/crypto/hash-wasm.ts'

/**
 * Hex or base64 inputs longer than this are read and hashed on a worker thread: decoding them is
 * JavaScript, linear but slow enough past this length to hold the event loop for tens of
 * milliseconds. Text needs no such help: it becomes bytes natively, and hashing yields to the
 * event loop between slices (see `updateInSlices`) (docs/PERFORMANCE.md, "Offload thresholds and
 * cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

export const HASH_ALGORITHMS = [
  'md5',
  'sha1',
  'sha224',
  'sha256',
  'sha384',
  'sha512',
  'sha512-224',
  'sha512-256',
  'sha3-224',
  'sha3-256',
  'sha3-384',
  'sha3-512',
  'blake2b512',
  'blake2s256',
  'blake3',
  'crc32',
  'shake128',
  'shake256',
  'keccak-224',
  'keccak-256',
  'keccak-384',
  'keccak-512',
  'ripemd160',
  'sm3',
  'whirlpool',
  'blake2b',
  'blake2s',
] as const
type HashAlgorithm = (typeof HASH_ALGORITHMS)[number]

/**
 * The algorithms whose digest length `length` chooses: the smallest and largest lengths in bits, and
 * the default (none for SHAKE, whose length is part of what is asked).
 */
const VARIABLE_LENGTHS: Partial<Record<HashAlgorithm, { min: number; max: number; default?: number }>> = {
  shake128: { min: 8, max: 16_384 },
  shake256: { min: 8, max: 16_384 },
  blake2b: { min: 8, max: 512, default: 512 },
  blake2s: { min: 8, max: 256, default: 256 },
  blake3: { min: 8, max: 16_384, default: 256 },
}

/** The digest length of every fixed-size algorithm, in bits. */
const FIXED_BITS: Partial<Record<HashAlgorithm, number>> = {
  md5: 128,
  sha1: 160,
  sha224: 224,
  sha256: 256,
  sha384: 384,
  sha512: 512,
  'sha512-224': 224,
  'sha512-256': 256,
  'sha3-224': 224,
  'sha3-256': 256,
  'sha3-384': 384,
  'sha3-512': 512,
  blake2b512: 512,
  blake2s256: 256,
  crc32: 32,
  'keccak-224': 224,
  'keccak-256': 256,
  'keccak-384': 384,
  'keccak-512': 512,
  ripemd160: 160,
  sm3: 256,
  whirlpool: 512,
}

/** A hash-wasm state as a Hasher. */
function wasmHasher(state: IHasher): Hasher {
  state.init()
  return { update: (slice) => state.update(slice), digest: () => Buffer.from(state.digest('binary')) }
}

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
 * A hasher of its own per request (slices of concurrent requests interleave). node:crypto (OpenSSL)
 * computes every algorithm that both supported Node lines have in their default provider, but SM3,
 * which the web app's stand-in for node:crypto lacks; hash-wasm the others (SM3, BLAKE3, Keccak,
 * Whirlpool, and BLAKE2 at lengths OpenSSL's fixed-size names refuse).
 */
async function hasherFor(algorithm: HashAlgorithm, bits: number): Promise<Hasher> {
  if (algorithm.startsWith('keccak-')) return wasmHasher(await (await loadHashWasm()).createKeccak(bits as 224 | 256 | 384 | 512))
  if (algorithm === 'whirlpool') return wasmHasher(await (await loadHashWasm()).createWhirlpool())
  if (algorithm === 'sm3') return wasmHasher(await (await loadHashWasm()).createSM3())
  if (algorithm === 'blake2b') return wasmHasher(await (await loadHashWasm()).createBLAKE2b(bits))
  if (algorithm === 'blake2s') return wasmHasher(await (await loadHashWasm()).createBLAKE2s(bits))
  if (algorithm === 'blake3' && bits !== 256) return wasmHasher(await (await loadHashWasm()).createBLAKE3(bits))
  if (algorithm === 'blake3') {
    const state = (idleBlake3.pop() ?? (await (await loadHashWasm()).createBLAKE3())).init()
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
  // SHAKE's output length is always given: node's default is shorter than its security level, and
  // newer Node lines deprecate leaving it out.
  const state = algorithm.startsWith('shake') ? createHash(algorithm, { outputLength: bits / 8 }) : createHash(algorithm)
  return { update: (slice) => state.update(slice), digest: () => state.digest() }
}

/** The longest digest `length` asks for (shake, BLAKE2, BLAKE3), in bits. */
const MAX_LENGTH_BITS = 16_384

/** The digest length in bits: `length` where the algorithm takes one, within its bounds; its fixed size otherwise. */
function digestBits(algorithm: HashAlgorithm, length: number | undefined): number {
  const variable = VARIABLE_LENGTHS[algorithm]
  if (variable === undefined) {
    if (length !== undefined) throw validationError('length', `applies only to ${Object.keys(VARIABLE_LENGTHS).join(', ')}; ${algorithm} has a fixed size`)
    return FIXED_BITS[algorithm] as number
  }
  const bits = length ?? variable.default
  if (bits === undefined)
    throw validationError('length', `is required with ${algorithm}: the output length in bits, a multiple of 8 from ${variable.min} to ${variable.max}`)
  if (bits > variable.max) throw validationError('length', `must be at most ${variable.max} with ${algorithm}`)
  return bits
}

export const hash = defineOperation({
  name: 'hash',
  category: 'generators',
  runsInBrowser: true,
  summary: 'Hash text or bytes with MD5, SHA-1, SHA-2, SHA-3, SHAKE, Keccak, BLAKE2, BLAKE3, RIPEMD-160, SM3, Whirlpool or CRC-32',
  title: 'Hash',
  aliases: [
    'digest',
    'checksum',
    'md5',
    'sha',
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
    'keccak256',
    'keccak-256',
    'ethereum hash',
    'shake',
    'shake128',
    'shake256',
    'xof',
    'sha512/224',
    'ripemd',
    'ripemd160',
    'ripemd-160',
    'bitcoin hash160',
    'sm3',
    'whirlpool',
    'blake2b',
    'blake2s',
    'blake3',
    'crc32',
    'crc',
  ],
  description:
    'Computes the digest of `input` (UTF-8 text by default, or bytes given as hex, base64 or Latin-1) and writes it as hex, base64 or base64url. ' +
    'Algorithm names are case-insensitive and a hyphen may follow "sha", so MD5, SHA-1, SHA-256, SHA-512, SHA3-256 and SHA-512/256 all work; the response gives the canonical lower-case name. ' +
    'crc32 is the ISO-HDLC CRC-32 of zlib, written as its 4 bytes in big-endian order (8 hex digits); `checksum` has every other CRC. ' +
    'keccak-224/256/384/512 are the original Keccak with its pre-FIPS 202 padding, as Ethereum uses it (Keccak-256 differs from SHA3-256). ' +
    '`length` chooses the digest length in bits (a multiple of 8) of the variable-length algorithms: shake128 and shake256 (FIPS 202 extendable-output functions: required, 8–16384), blake2b (8–512, default 512), blake2s (8–256, default 256) and blake3 (8–16384, default 256); it is a 400 with any fixed-size algorithm. A shorter BLAKE2 digest is not a prefix of the longer one (the length is part of its parameters); SHAKE and BLAKE3 output is. ' +
    'With `expected`, `matches` tells whether it equals the digest, compared in constant time (hex in any letter case; base64 with or without padding). ' +
    'MD5, SHA-1 and CRC-32 are not collision-resistant: use them for checksums and legacy interoperability only.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text (or encoded bytes, see `inputEncoding`) to hash. May be empty.', examples: ['abc'] }),
      algorithm: algorithmField(
        HASH_ALGORITHMS,
        `The algorithm, one of ${HASH_ALGORITHMS.join(', ')}; any letter case, and a hyphen may follow "sha" (SHA-256, SHA3-256, and SHA-512/224 and SHA-512/256 for sha512-224 and sha512-256 work too).`,
      ),
      length: Type.Optional(
        Type.Integer({
          minimum: 8,
          maximum: MAX_LENGTH_BITS,
          multipleOf: 8,
          description:
            'The digest length in bits, for shake128 and shake256 (required), blake2b (up to 512, default 512), blake2s (up to 256, default 256) and blake3 (default 256); refused with fixed-size algorithms.',
        }),
      ),
      inputEncoding: inputEncodingField(),
      encoding: digestEncodingField('How the digest is written: `hex` (lower case unless `uppercase`), `base64`, or unpadded `base64url`.'),
      uppercase: withDefault(
        Type.Boolean({ description: 'Write hex digits in upper case. Only with `encoding` hex: base64 is case-sensitive, so asking for it there is a 400.' }),
        false,
      ),
      expected: expectedField(
        'A digest to verify, written in `encoding`: `matches` then tells whether it is the digest of `input`, compared in constant time. Hex is compared in any letter case; base64 and base64url with or without "=" padding.',
        MAX_LENGTH_BITS,
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
    {
      summary: 'SHAKE128 with a 256-bit output (FIPS 202)',
      input: { input: '', algorithm: 'shake128', length: 256 },
      output: { result: '7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26', algorithm: 'shake128', encoding: 'hex', bits: 256 },
    },
  ],
  verdict: { field: 'matches', failure: 'the hash does not match --expected' },
  offload: ({ input, inputEncoding }) => (inputEncoding === 'hex' || inputEncoding === 'base64') && input.length > OFFLOAD_LENGTH,
  async run({ input, algorithm: spelling, inputEncoding, length, encoding, uppercase, expected }) {
    if (uppercase && encoding !== 'hex') throw validationError('uppercase', `applies only to encoding hex; ${encoding} is case-sensitive`)
    const algorithm = canonicalAlgorithm<HashAlgorithm>(spelling)
    const bits = digestBits(algorithm, length)
    const bytes = textToBytes(input, inputEncoding)
    const hasher = await hasherFor(algorithm, bits)
    await updateInSlices(bytes, (slice) => hasher.update(slice))
    const digest = hasher.digest()
    const text = digest.toString(encoding)
    const result = uppercase ? text.toUpperCase() : text
    const answer = { result, algorithm, encoding, bits: digest.length * 8 }
    return expected === undefined ? answer : { ...answer, matches: digestMatches(result, expected, encoding) }
  },
})
