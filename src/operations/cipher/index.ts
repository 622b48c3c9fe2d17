import { Type } from 'typebox'
import { defineOperation } from '../../core/operation.ts'
import { ALGORITHMS } from './algorithms.ts'
import { decrypt } from './decrypt.ts'
import { kdfOutput } from './derivation.ts'
import { encrypt, warn } from './encrypt.ts'
import { FORMATS, inputSchema } from './schema.ts'

/** Inputs larger than this run on a worker thread. */
const OFFLOAD_CHARACTERS = 64 * 1024

export const cipher = defineOperation({
  name: 'cipher',
  category: 'encoders',
  summary: 'Encrypt or decrypt with AES-GCM, AES-CBC, AES-CTR or ChaCha20-Poly1305, with a raw key or a passphrase; reads and writes openssl enc output',
  title: 'Cipher (AES, ChaCha20-Poly1305)',
  labels: { fields: { memoryKiB: 'Memory (KiB)', logN: 'Cost (log₂ N)' } },
  aliases: [
    'encrypt',
    'decrypt',
    'encryption',
    'aes',
    'aes-256-gcm',
    'aes-gcm',
    'aes-cbc',
    'aes-ctr',
    'chacha20-poly1305',
    'chacha20',
    'symmetric encryption',
    'openssl enc',
    'crypto-js',
    'pbkdf2',
    'aead',
    'password encryption',
  ],
  description:
    '`encrypt` (the default) encrypts `input` with AES-GCM (NIST SP 800-38D), AES-CBC with PKCS#7 padding or AES-CTR (SP 800-38A), with 128-, 192- or 256-bit keys, or ChaCha20-Poly1305 (RFC 8439); `decrypt` reverses it. ' +
    'The key is either a raw `key` (16, 24 or 32 bytes, hex by default) or derived from a `passphrase` with `kdf`: PBKDF2 (RFC 8018; HMAC-SHA-256 by default, 600,000 iterations), scrypt (RFC 7914; N = 2^17, r = 8, p = 1) or Argon2id (RFC 9106; 64 MiB, 3 passes, 1 lane), over a random 16-byte `salt`. ' +
    'IVs are random by default (12 bytes for GCM and ChaCha20-Poly1305, 16 for CBC and CTR, where the IV is the initial counter block, incremented as one 128-bit big-endian number); AEAD tags are always 16 bytes, and a shorter one is refused. ' +
    '`format` says how the ciphertext travels. `fields` (the default): `result` is the ciphertext alone, and `iv`, `tag` and `salt` come beside it; decrypting needs them back, with the same kdf and its parameters. ' +
    '`combined`, a convention of this service (the layout WebCrypto users commonly write), is one value: the salt (16 bytes, only with a passphrase), then the IV (12 or 16 bytes as the algorithm says), then the ciphertext, then the tag (16 bytes, only for GCM and ChaCha20-Poly1305); nothing else, no header and no parameters, so decrypting still needs the algorithm, and the kdf and its parameters. ' +
    '`openssl` is what `openssl enc -a` writes: base64 (in lines of 64 characters, as openssl writes them) of the 8 bytes `Salted__`, an 8-byte salt and the ciphertext, with the key and IV both derived from the passphrase (PBKDF2 as `-pbkdf2 -iter N -md sha256`, or the legacy EVP_BytesToKey of `openssl enc` without -pbkdf2 and of crypto-js, `evp-sha256` or `evp-md5`); CBC or CTR only, as openssl enc has no AEAD; the algorithm defaults to aes-256-cbc there, and `opensslCommand` gives the openssl line that decrypts the result (it asks for the passphrase). The evp-* derivations decrypt in `fields` and `openssl` formats; they encrypt only in `openssl`, with a warning. ' +
    'A failed authentication (wrong key, IV, AAD or tag, or altered data) is one 422 that says nothing more; bad CBC padding is a 422 too. A key of the wrong size, an IV of the wrong length, both or neither of key and passphrase, and a field that does not apply (aad or tag with CBC or CTR, iterations with a raw key) are 400. ' +
    'CTR and CBC give no integrity: prefer GCM or ChaCha20-Poly1305. ECB and unpadded CBC are not offered. The key and passphrase are never echoed, never logged, and an error about one names the field, never a character of it. Inputs over 64 KiB and every passphrase derivation run on a worker thread.',
  input: inputSchema,
  output: Type.Object({
    result: Type.String({
      description: 'encrypt: the ciphertext, the combined value or the openssl enc output, in outputEncoding. decrypt: the plaintext, in outputEncoding.',
    }),
    action: Type.Enum(['encrypt', 'decrypt'], { description: 'The action performed.' }),
    algorithm: Type.Enum(ALGORITHMS, { description: 'The cipher used.' }),
    format: Type.Enum(FORMATS, { description: 'The format of the ciphertext.' }),
    iv: Type.Optional(Type.String({ description: 'encrypt: the IV, hex (with format openssl, the one derived from the passphrase).' })),
    tag: Type.Optional(Type.String({ description: 'encrypt with GCM or ChaCha20-Poly1305: the 16-byte authentication tag, hex.' })),
    salt: Type.Optional(Type.String({ description: 'encrypt with a passphrase: the salt, hex.' })),
    kdf: Type.Optional(kdfOutput),
    opensslCommand: Type.Optional(
      Type.String({ description: 'encrypt with format openssl: the openssl line that decrypts the result read on its standard input.' }),
    ),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'encrypt: an IV given (never reuse it with the key), a legacy derivation.' })),
  }),
  actions: {
    encrypt: {
      fields: [
        'input',
        'inputEncoding',
        'algorithm',
        'key',
        'keyEncoding',
        'passphrase',
        'kdf',
        'iterations',
        'memoryKiB',
        'logN',
        'blockSize',
        'parallelism',
        'salt',
        'iv',
        'aad',
        'aadEncoding',
        'format',
        'outputEncoding',
      ],
      requires: [['key', 'passphrase']],
    },
    decrypt: {
      fields: [
        'input',
        'inputEncoding',
        'algorithm',
        'key',
        'keyEncoding',
        'passphrase',
        'kdf',
        'iterations',
        'memoryKiB',
        'logN',
        'blockSize',
        'parallelism',
        'salt',
        'iv',
        'aad',
        'aadEncoding',
        'tag',
        'format',
        'outputEncoding',
      ],
      requires: [['key', 'passphrase']],
    },
  },
  examples: [
    {
      summary: 'Encrypt with AES-256-GCM under a raw key (an IV is given only to make the answer reproducible; leave it out)',
      input: { input: 'hello devutils', key: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', iv: '000000000000000000000000' },
      output: {
        result: 'ZtnZstoM59h+3d1cdF8=',
        action: 'encrypt',
        algorithm: 'aes-256-gcm',
        format: 'fields',
        iv: '000000000000000000000000',
        tag: '27f69501da2e23c360292572daeec7ab',
        warnings: [warn.ivGiven('gcm')],
      },
    },
    {
      summary: 'Decrypt AES-128-CBC (NIST SP 800-38A F.2.1, padded here with PKCS#7), the plaintext as hex',
      input: {
        action: 'decrypt',
        algorithm: 'aes-128-cbc',
        key: '2b7e151628aed2a6abf7158809cf4f3c',
        iv: '000102030405060708090a0b0c0d0e0f',
        input: '7649abac8119b246cee98e9b12e9197d8964e0b149c10b7b682e6e39aaeb731c',
        inputEncoding: 'hex',
        outputEncoding: 'hex',
      },
      output: { result: '6bc1bee22e409f96e93d7e117393172a', action: 'decrypt', algorithm: 'aes-128-cbc', format: 'fields' },
    },
    {
      summary: 'Decrypt what `openssl enc -aes-256-cbc -pbkdf2 -iter 10000 -a` wrote',
      input: { action: 'decrypt', format: 'openssl', input: 'U2FsdGVkX18d5LqufG/1Q2plozpaoj2gwLEj+eDVMZg=', passphrase: 'correct-horse', iterations: 10_000 },
      output: { result: 'hello devutils', action: 'decrypt', algorithm: 'aes-256-cbc', format: 'openssl' },
    },
    {
      summary: 'Encrypt with a passphrase into one value (salt ‖ IV ‖ ciphertext ‖ tag), PBKDF2-SHA-256 at 600,000 iterations',
      input: { input: 'hello devutils', passphrase: 'correct horse battery staple', format: 'combined' },
    },
  ],
  offload: ({ input, aad, passphrase }) => passphrase !== undefined || input.length > OFFLOAD_CHARACTERS || (aad?.length ?? 0) > OFFLOAD_CHARACTERS,
  deliberatelySlow: true,
  async run(input) {
    const algorithm = input.algorithm ?? (input.format === 'openssl' ? 'aes-256-cbc' : 'aes-256-gcm')
    return input.action === 'encrypt' ? encrypt(input, algorithm) : decrypt(input, algorithm)
  },
})
