import { Type } from 'typebox'
import { type OperationInput, withDefault } from '../../core/operation.ts'
import { BYTE_ENCODINGS } from '../../lib/bytes/encodings.ts'
import { ALGORITHMS } from './algorithms.ts'
import { BOUNDS, KDFS } from './derivation.ts'

export const FORMATS = ['fields', 'combined', 'openssl'] as const
export const KEY_ENCODINGS = ['hex', 'base64', 'base64url', 'utf8'] as const

const hexField = (maxLength: number, description: string) => Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]*$', maxLength, description }))

export type CipherInput = OperationInput<typeof inputSchema>

export const inputSchema = Type.Object(
  {
    action: withDefault(Type.Enum(['encrypt', 'decrypt'], { description: 'Encrypt `input`, or decrypt it.' }), 'encrypt'),
    input: Type.String({
      description:
        'encrypt: the plaintext, read as `inputEncoding` says (UTF-8 text by default); may be empty. decrypt: the ciphertext (or the `combined` value, or `openssl enc -a` output), base64 by default or hex; whitespace is ignored.',
    }),
    inputEncoding: Type.Optional(
      Type.Enum(BYTE_ENCODINGS, {
        description: 'encrypt: how the plaintext becomes bytes: utf8 (the default), hex, base64 or latin1. decrypt: base64 (the default) or hex.',
      }),
    ),
    algorithm: Type.Optional(
      Type.Enum(ALGORITHMS, {
        description:
          'The cipher: aes-256-gcm (the default; aes-256-cbc with format openssl), aes-192-gcm, aes-128-gcm, aes-{128,192,256}-cbc (PKCS#7 padding), aes-{128,192,256}-ctr, or chacha20-poly1305 (RFC 8439).',
      }),
    ),
    key: Type.Optional(
      Type.String({
        maxLength: 1024,
        writeOnly: true,
        description:
          'A raw key, written in `keyEncoding`: 16, 24 or 32 bytes as the algorithm says (32 for the -256 ciphers and chacha20-poly1305). Give this or `passphrase`, not both. Never echoed back, never logged.',
      }),
    ),
    keyEncoding: withDefault(Type.Enum(KEY_ENCODINGS, { description: 'How `key` is written: hex (the default), base64, base64url or utf8.' }), 'hex'),
    passphrase: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        writeOnly: true,
        description: 'A passphrase (1 to 1024 characters, used as UTF-8) to derive the key from with `kdf` and `salt`. Never echoed back, never logged.',
      }),
    ),
    kdf: Type.Optional(
      Type.Enum(KDFS, {
        description:
          'With `passphrase`: how the key is derived. pbkdf2-sha256 (the default), pbkdf2-sha512, pbkdf2-sha1 (RFC 8018), scrypt (RFC 7914), argon2id (RFC 9106); evp-sha256 and evp-md5 are OpenSSL’s legacy EVP_BytesToKey (openssl enc without -pbkdf2, and crypto-js), for decrypting old data: encrypt takes them only with format openssl.',
      }),
    ),
    iterations: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: BOUNDS.pbkdf2Iterations.max,
        description: 'pbkdf2-*: iterations, 1,000 to 2,000,000 (default 600,000). argon2id: passes (t), 1 to 10 (default 3).',
      }),
    ),
    memoryKiB: Type.Optional(
      Type.Integer({
        minimum: BOUNDS.argon2MemoryKiB.min,
        maximum: BOUNDS.argon2MemoryKiB.max,
        description: 'argon2id: memory in KiB (m), 8 · parallelism to 65,536 (the default, 64 MiB).',
      }),
    ),
    logN: Type.Optional(
      Type.Integer({
        minimum: BOUNDS.scryptLogN.min,
        maximum: BOUNDS.scryptLogN.max,
        description:
          'scrypt: log2 of the cost N, 1 to 20 (default 17); 128 · blockSize · 2^logN bytes of memory must stay within 256 MiB and 2^logN · blockSize · parallelism within 2^21.',
      }),
    ),
    blockSize: Type.Optional(
      Type.Integer({ minimum: BOUNDS.scryptBlockSize.min, maximum: BOUNDS.scryptBlockSize.max, description: 'scrypt: the block size r, 1 to 32 (default 8).' }),
    ),
    parallelism: Type.Optional(
      Type.Integer({ minimum: BOUNDS.parallelism.min, maximum: BOUNDS.parallelism.max, description: 'scrypt (p) or argon2id (lanes): 1 to 16 (default 1).' }),
    ),
    salt: hexField(
      128,
      'With `passphrase`, hex. encrypt: 8 to 64 bytes (default: 16 random bytes; exactly 16 with format combined, exactly 8 with format openssl). decrypt: required with format fields (8 bytes for evp-*); combined and openssl carry it in the value.',
    ),
    iv: hexField(
      64,
      'The IV or nonce, hex: 12 bytes for GCM and chacha20-poly1305, 16 for CBC and CTR (the initial counter block). encrypt: random by default; never give the same one twice with one key. decrypt: required with format fields (except with an evp-* kdf, which derives it).',
    ),
    aad: Type.Optional(
      Type.String({ description: 'AEAD only (GCM, chacha20-poly1305): additional authenticated data, bound to the ciphertext but not encrypted.' }),
    ),
    aadEncoding: withDefault(Type.Enum(['utf8', 'hex', 'base64'], { description: 'How `aad` becomes bytes: utf8 (the default), hex or base64.' }), 'utf8'),
    tag: hexField(1024, 'AEAD decrypt with format fields (required there): the 16-byte authentication tag, hex.'),
    format: withDefault(
      Type.Enum(FORMATS, {
        description:
          'fields: the ciphertext alone, with iv, tag and salt beside it. combined: salt? ‖ iv ‖ ciphertext ‖ tag? as one value (see the description). openssl: what `openssl enc -a` writes (CBC or CTR with a passphrase).',
      }),
      'fields',
    ),
    outputEncoding: Type.Optional(
      Type.Enum(BYTE_ENCODINGS, {
        description:
          'encrypt: base64 (the default) or hex. decrypt: utf8 (the default; bytes that are not UTF-8 are refused with a hint), hex, base64 or latin1.',
      }),
    ),
  },
  { additionalProperties: false },
)
