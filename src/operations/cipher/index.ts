import { type CipherGCMTypes, createCipheriv, createDecipheriv, createHash, pbkdf2 as nodePbkdf2 } from 'node:crypto'
import { promisify } from 'node:util'
import { type Static, Type } from 'typebox'
import { invalidInput, isDevutilsError, validationError } from '../../core/errors.ts'
import { defineOperation, type OperationInput, withDefault } from '../../core/operation.ts'
import { BYTE_ENCODINGS, bytesToText, textToBytes } from '../../lib/bytes/encodings.ts'
import { randomBytes } from '../../lib/random/random.ts'
import { argon2Key, scryptKey } from '../password-hash/index.ts'

const pbkdf2Async = promisify(nodePbkdf2)

type Mode = 'gcm' | 'cbc' | 'ctr' | 'chacha20-poly1305'

interface AlgorithmSpec {
  mode: Mode
  keyBytes: number
  ivBytes: number
}

const SPECS = {
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

type Algorithm = keyof typeof SPECS
const ALGORITHMS = Object.keys(SPECS) as Algorithm[]

const KDFS = ['pbkdf2-sha256', 'pbkdf2-sha512', 'pbkdf2-sha1', 'scrypt', 'argon2id', 'evp-sha256', 'evp-md5'] as const
type Kdf = (typeof KDFS)[number]
const FORMATS = ['fields', 'combined', 'openssl'] as const
const KEY_ENCODINGS = ['hex', 'base64', 'base64url', 'utf8'] as const

const TAG_BYTES = 16
/** The salt this service draws for its own formats; `combined` needs one fixed size to be read back. */
const SALT_BYTES = 16
/** The size of the salt `openssl enc` writes after its magic, whatever the cipher. */
const OPENSSL_SALT_BYTES = 8
const OPENSSL_MAGIC = Buffer.from('Salted__', 'latin1')
/** Inputs larger than this run on a worker thread. */
const OFFLOAD_CHARACTERS = 64 * 1024

const isAead = (spec: AlgorithmSpec) => spec.mode === 'gcm' || spec.mode === 'chacha20-poly1305'
const isEvp = (kdf: Kdf) => kdf === 'evp-sha256' || kdf === 'evp-md5'
const isPbkdf2 = (kdf: Kdf) => kdf.startsWith('pbkdf2-')

const AUTHENTICATION_FAILED = 'authentication failed: the key, IV, AAD or tag is wrong, or the data was altered'
const BAD_PADDING = 'bad padding: wrong key or IV, or not CBC ciphertext'

/** Bounds of the key derivations: scrypt's are password-hash's, so the costliest fits the time budget. */
const BOUNDS = {
  pbkdf2Iterations: { min: 1_000, max: 2_000_000, default: 600_000 },
  argon2Iterations: { min: 1, max: 10, default: 3 },
  argon2MemoryKiB: { min: 8, max: 65_536, default: 65_536 },
  parallelism: { min: 1, max: 16, default: 1 },
  scryptLogN: { min: 1, max: 20, default: 17 },
  scryptBlockSize: { min: 1, max: 32, default: 8 },
  scryptMemoryBytes: 256 * 1024 * 1024,
  scryptWork: 2 ** 21,
} as const

const hexField = (maxLength: number, description: string) => Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]*$', maxLength, description }))

type CipherInput = OperationInput<typeof inputSchema>

const inputSchema = Type.Object(
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

const kdfOutput = Type.Object(
  {
    name: Type.Enum(KDFS, { description: 'The key derivation function.' }),
    iterations: Type.Optional(Type.Integer({ description: 'pbkdf2-*: iterations; argon2id: passes.' })),
    memoryKiB: Type.Optional(Type.Integer({ description: 'argon2id: memory in KiB.' })),
    parallelism: Type.Optional(Type.Integer({ description: 'argon2id: lanes; scrypt: p.' })),
    logN: Type.Optional(Type.Integer({ description: 'scrypt: log2 of N.' })),
    blockSize: Type.Optional(Type.Integer({ description: 'scrypt: r.' })),
  },
  { description: 'encrypt with a passphrase: the derivation and its parameters, all needed to decrypt.' },
)

type KdfParameters = Static<typeof kdfOutput>

// ---- Reading the fields ----

/** Hex of a field the schema has checked for digits; an odd count is refused here. */
function hexBytes(text: string, field: string): Buffer {
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

function aadBytes(aad: string, encoding: 'utf8' | 'hex' | 'base64'): Buffer {
  return textToBytes(aad, encoding, 'aad')
}

const ONLY_WITH_PASSPHRASE = ['kdf', 'iterations', 'memoryKiB', 'logN', 'blockSize', 'parallelism', 'salt'] as const

export interface Derivation {
  kdf: Kdf
  parameters: KdfParameters
}

/** The KDF and its parameters, defaults filled in; a parameter of another KDF is refused rather than ignored. */
function derivationOf(input: CipherInput): Derivation {
  const kdf = input.kdf ?? 'pbkdf2-sha256'
  const allowed: Record<string, readonly string[]> = {
    pbkdf2: ['iterations'],
    scrypt: ['logN', 'blockSize', 'parallelism'],
    argon2id: ['iterations', 'memoryKiB', 'parallelism'],
    evp: [],
  }
  const family = isPbkdf2(kdf) ? 'pbkdf2' : isEvp(kdf) ? 'evp' : kdf
  for (const field of ['iterations', 'memoryKiB', 'logN', 'blockSize', 'parallelism'] as const) {
    if (input[field] !== undefined && !allowed[family].includes(field)) {
      throw validationError(
        field,
        isEvp(kdf) && field === 'iterations'
          ? `does not apply to ${kdf}: EVP_BytesToKey runs once (openssl enc -iter means -pbkdf2: use a pbkdf2-* kdf)`
          : `does not apply to ${kdf}`,
      )
    }
  }
  if (family === 'pbkdf2') {
    const iterations = input.iterations ?? BOUNDS.pbkdf2Iterations.default
    if (iterations < BOUNDS.pbkdf2Iterations.min) throw validationError('iterations', `must be at least ${BOUNDS.pbkdf2Iterations.min} for ${kdf}`)
    return { kdf, parameters: { name: kdf, iterations } }
  }
  if (kdf === 'argon2id') {
    const iterations = input.iterations ?? BOUNDS.argon2Iterations.default
    if (iterations > BOUNDS.argon2Iterations.max)
      throw validationError('iterations', `must be at most ${BOUNDS.argon2Iterations.max} for argon2id (its passes)`)
    const memoryKiB = input.memoryKiB ?? BOUNDS.argon2MemoryKiB.default
    const parallelism = input.parallelism ?? BOUNDS.parallelism.default
    if (memoryKiB < 8 * parallelism) throw validationError('memoryKiB', `must be at least 8 · parallelism (${8 * parallelism}) for argon2id`)
    return { kdf, parameters: { name: kdf, iterations, memoryKiB, parallelism } }
  }
  if (kdf === 'scrypt') {
    const logN = input.logN ?? BOUNDS.scryptLogN.default
    const blockSize = input.blockSize ?? BOUNDS.scryptBlockSize.default
    const parallelism = input.parallelism ?? BOUNDS.parallelism.default
    if (128 * blockSize * 2 ** logN > BOUNDS.scryptMemoryBytes) {
      throw validationError('logN', 'with this blockSize needs more than 256 MiB of memory (128 · blockSize · 2^logN); lower logN or blockSize')
    }
    if (2 ** logN * blockSize * parallelism > BOUNDS.scryptWork) {
      throw validationError('logN', 'with this blockSize and parallelism asks for more than 2^21 of work (2^logN · blockSize · parallelism)')
    }
    return { kdf, parameters: { name: kdf, logN, blockSize, parallelism } }
  }
  return { kdf, parameters: { name: kdf } }
}

/** EVP_BytesToKey with one round (what `openssl enc` does without -pbkdf2): D_i = H(D_{i-1} ‖ passphrase ‖ salt). */
function evpBytesToKey(digest: 'sha256' | 'md5', passphrase: Buffer, salt: Buffer, length: number): Buffer {
  const blocks: Buffer[] = []
  let previous = Buffer.alloc(0)
  let produced = 0
  while (produced < length) {
    previous = createHash(digest).update(previous).update(passphrase).update(salt).digest()
    blocks.push(previous)
    produced += previous.length
  }
  return Buffer.concat(blocks).subarray(0, length)
}

export async function deriveKey({ kdf, parameters }: Derivation, passphrase: Buffer, salt: Buffer, length: number): Promise<Buffer> {
  switch (kdf) {
    case 'pbkdf2-sha256':
    case 'pbkdf2-sha512':
    case 'pbkdf2-sha1':
      return pbkdf2Async(passphrase, salt, parameters.iterations!, length, kdf.slice('pbkdf2-'.length))
    case 'scrypt':
      return scryptKey(passphrase, salt, { logN: parameters.logN!, blockSize: parameters.blockSize!, parallelism: parameters.parallelism! }, length)
    case 'argon2id': {
      const { memoryKiB, iterations, parallelism } = parameters as Required<typeof parameters>
      return Buffer.from(await argon2Key('argon2id', passphrase, salt, { memoryKiB, iterations, parallelism }, length))
    }
    case 'evp-sha256':
      return evpBytesToKey('sha256', passphrase, salt, length)
    case 'evp-md5':
      return evpBytesToKey('md5', passphrase, salt, length)
  }
}

// ---- The cipher ----

/** The tag length is always given: without it node accepts a truncated GCM tag on decryption. */
const cipherOptions = (algorithm: Algorithm) => (isAead(SPECS[algorithm]) ? { authTagLength: TAG_BYTES } : undefined)

function encryptBytes(algorithm: Algorithm, key: Buffer, iv: Buffer, aad: Buffer | undefined, plaintext: Buffer) {
  const cipher = createCipheriv(algorithm as CipherGCMTypes, key, iv, cipherOptions(algorithm))
  if (aad !== undefined) cipher.setAAD(aad)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return { ciphertext, tag: isAead(SPECS[algorithm]) ? cipher.getAuthTag() : undefined }
}

function decryptBytes(algorithm: Algorithm, key: Buffer, iv: Buffer, aad: Buffer | undefined, ciphertext: Buffer, tag: Buffer | undefined, hint = ''): Buffer {
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

// ---- The formats ----

function wrapBase64(bytes: Buffer): string {
  return `${(bytes.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n`
}

function opensslCommand(algorithm: Algorithm, parameters: KdfParameters, outputEncoding: 'base64' | 'hex'): string {
  const kdf = isPbkdf2(parameters.name)
    ? `-pbkdf2 -iter ${parameters.iterations} -md ${parameters.name.slice('pbkdf2-'.length)}`
    : `-md ${parameters.name.slice(4)}`
  const command = `openssl enc -d -${algorithm} ${kdf}`
  return outputEncoding === 'base64' ? `${command} -a` : `xxd -r -p | ${command}`
}

const warn = {
  ivGiven: (mode: Mode) =>
    `An IV was given: never use it again with the same key${mode === 'ctr' ? ' (CTR with a repeated IV gives away the XOR of the plaintexts)' : ' (with GCM or ChaCha20-Poly1305 a repeated nonce gives away the plaintexts and lets tags be forged)'}; leave iv out to get a random one.`,
  evp: (kdf: Kdf) =>
    `${kdf} is OpenSSL’s legacy EVP_BytesToKey, one round of ${kdf === 'evp-md5' ? 'MD5' : 'SHA-256'}: a passphrase is cheap to guess through it; prefer pbkdf2-sha256 (openssl enc -pbkdf2) for new data.`,
}

/** Refuses each field in `fields` that was given, saying why it does not apply. */
function refuseGiven(input: CipherInput, fields: readonly (keyof CipherInput)[], why: string): void {
  for (const field of fields) if (input[field] !== undefined) throw validationError(field, why)
}

interface Material {
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

function materialOf(input: CipherInput, algorithm: Algorithm): Material {
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
function checkOpenssl(input: CipherInput, algorithm: Algorithm, derivation: Derivation | undefined): void {
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
function checkAeadFields(input: CipherInput, algorithm: Algorithm): void {
  if (isAead(SPECS[algorithm])) return
  refuseGiven(input, ['aad', 'tag'], `applies only to an AEAD cipher (GCM, chacha20-poly1305), not ${algorithm}`)
}

function ivOf(text: string, algorithm: Algorithm): Buffer {
  const iv = hexBytes(text, 'iv')
  const { ivBytes } = SPECS[algorithm]
  if (iv.length !== ivBytes) throw validationError('iv', `must be ${ivBytes} bytes (${ivBytes * 2} hex digits) for ${algorithm}, not ${iv.length}`)
  return iv
}

async function encrypt(input: CipherInput, algorithm: Algorithm) {
  const spec: AlgorithmSpec = SPECS[algorithm]
  const { format } = input
  const inputEncoding = input.inputEncoding ?? 'utf8'
  const outputEncoding = input.outputEncoding ?? 'base64'
  if (outputEncoding !== 'base64' && outputEncoding !== 'hex') throw validationError('outputEncoding', 'must be base64 or hex to encrypt')
  refuseGiven(input, ['tag'], 'is made by encrypting, not given')
  checkAeadFields(input, algorithm)
  const material = materialOf(input, algorithm)
  const warnings: string[] = []

  let iv: Buffer | undefined
  let salt: Buffer | undefined
  if (format === 'openssl') {
    checkOpenssl(input, algorithm, material.derivation)
    salt = input.salt === undefined ? randomBytes(OPENSSL_SALT_BYTES) : hexBytes(input.salt, 'salt')
    if (salt.length !== OPENSSL_SALT_BYTES) throw validationError('salt', `must be ${OPENSSL_SALT_BYTES} bytes with format openssl, as openssl enc writes it`)
  } else {
    if (material.derivation !== undefined) {
      if (isEvp(material.derivation.kdf)) {
        throw validationError('kdf', `${material.derivation.kdf} encrypts only with format openssl: it is a legacy derivation, kept for reading old data`)
      }
      salt = input.salt === undefined ? randomBytes(SALT_BYTES) : hexBytes(input.salt, 'salt')
      if (format === 'combined' && salt.length !== SALT_BYTES)
        throw validationError('salt', `must be ${SALT_BYTES} bytes with format combined, so the value can be read back`)
      if (salt.length < 8 || salt.length > 64) throw validationError('salt', `must be 8 to 64 bytes, not ${salt.length}`)
    }
    if (input.iv === undefined) iv = randomBytes(spec.ivBytes)
    else {
      iv = ivOf(input.iv, algorithm)
      if (spec.mode !== 'cbc') warnings.push(warn.ivGiven(spec.mode))
    }
  }
  if (material.derivation !== undefined && isEvp(material.derivation.kdf)) warnings.push(warn.evp(material.derivation.kdf))
  // Decoded before the key derivation, so that a bad encoding is told without waiting for it.
  const plaintext = textToBytes(input.input, inputEncoding)
  const aad = input.aad === undefined ? undefined : aadBytes(input.aad, input.aadEncoding)

  let key = material.key
  if (material.derivation !== undefined) {
    // openssl enc derives the IV with the key; this service's own formats derive only the key.
    const derived = await deriveKey(material.derivation, material.passphrase!, salt!, spec.keyBytes + (iv === undefined ? spec.ivBytes : 0))
    key = derived.subarray(0, spec.keyBytes)
    iv ??= derived.subarray(spec.keyBytes)
  }
  const { ciphertext, tag } = encryptBytes(algorithm, key!, iv!, aad, plaintext)
  let result: string
  if (format === 'openssl') {
    const bytes = Buffer.concat([OPENSSL_MAGIC, salt!, ciphertext])
    result = outputEncoding === 'base64' ? wrapBase64(bytes) : bytes.toString('hex')
  } else if (format === 'combined') {
    result = Buffer.concat([salt ?? Buffer.alloc(0), iv!, ciphertext, tag ?? Buffer.alloc(0)]).toString(outputEncoding)
  } else {
    result = ciphertext.toString(outputEncoding)
  }
  return {
    result,
    action: 'encrypt' as const,
    algorithm,
    format,
    iv: iv!.toString('hex'),
    ...(tag === undefined ? {} : { tag: tag.toString('hex') }),
    ...(salt === undefined ? {} : { salt: salt.toString('hex') }),
    ...(material.derivation === undefined ? {} : { kdf: material.derivation.parameters }),
    ...(format === 'openssl' ? { opensslCommand: opensslCommand(algorithm, material.derivation!.parameters, outputEncoding) } : {}),
    warnings,
  }
}

async function decrypt(input: CipherInput, algorithm: Algorithm) {
  const spec: AlgorithmSpec = SPECS[algorithm]
  const aead = isAead(spec)
  const { format } = input
  const inputEncoding = input.inputEncoding ?? 'base64'
  if (inputEncoding !== 'base64' && inputEncoding !== 'hex') throw validationError('inputEncoding', 'must be base64 or hex to decrypt: ciphertext is bytes')
  checkAeadFields(input, algorithm)
  const material = materialOf(input, algorithm)
  // Decoded after the fields are checked, so that a refused field is told before anything about the content.
  const bytes = () => textToBytes(input.input, inputEncoding)
  const aad = input.aad === undefined ? undefined : aadBytes(input.aad, input.aadEncoding)
  const evp = material.derivation !== undefined && isEvp(material.derivation.kdf)

  let key = material.key
  let iv: Buffer | undefined
  let salt: Buffer | undefined
  let ciphertext: Buffer
  let tag: Buffer | undefined
  let hint = ''
  if (format === 'openssl') {
    checkOpenssl(input, algorithm, material.derivation)
    refuseGiven(input, ['salt'], 'cannot be given with format openssl: it is read from the value, after Salted__')
    const data = bytes()
    if (data.length < OPENSSL_MAGIC.length + OPENSSL_SALT_BYTES || !data.subarray(0, OPENSSL_MAGIC.length).equals(OPENSSL_MAGIC)) {
      throw invalidInput(
        'input is not openssl enc output: it does not start with the Salted__ header (base64 U2FsdGVkX1…) and its 8-byte salt; openssl writes none when given -S, so such output needs format fields with salt and iv',
        { field: 'input' },
      )
    }
    salt = data.subarray(OPENSSL_MAGIC.length, OPENSSL_MAGIC.length + OPENSSL_SALT_BYTES)
    ciphertext = data.subarray(OPENSSL_MAGIC.length + OPENSSL_SALT_BYTES)
    if (isPbkdf2(material.derivation!.kdf)) {
      hint = `; check the passphrase, kdf (openssl -md) and iterations (openssl enc -pbkdf2 without -iter uses 10000, this service ${BOUNDS.pbkdf2Iterations.default} by default)`
    }
  } else if (format === 'combined') {
    if (evp)
      throw validationError('kdf', `${material.derivation!.kdf} cannot be used with format combined: its data comes as openssl enc output (format openssl)`)
    refuseGiven(input, ['salt', 'iv', 'tag'], 'cannot be given with format combined: it is read from the value')
    const data = bytes()
    const saltBytes = material.derivation === undefined ? 0 : SALT_BYTES
    const tagBytes = aead ? TAG_BYTES : 0
    const least = saltBytes + spec.ivBytes + tagBytes
    if (data.length < least) {
      const parts = [saltBytes ? `salt (${saltBytes})` : '', `iv (${spec.ivBytes})`, tagBytes ? `tag (${tagBytes})` : ''].filter(Boolean).join(' + ')
      throw invalidInput(`input is ${data.length} bytes, shorter than a combined value of ${algorithm} can be: ${parts} = ${least} bytes`, { field: 'input' })
    }
    if (saltBytes) salt = data.subarray(0, saltBytes)
    iv = data.subarray(saltBytes, saltBytes + spec.ivBytes)
    ciphertext = data.subarray(saltBytes + spec.ivBytes, data.length - tagBytes)
    if (tagBytes) tag = data.subarray(data.length - tagBytes)
  } else {
    if (input.iv !== undefined) iv = ivOf(input.iv, algorithm)
    else if (!evp) throw validationError('iv', `is required to decrypt with format fields: the ${spec.ivBytes}-byte IV the data was encrypted with`)
    if (material.derivation !== undefined) {
      if (input.salt === undefined)
        throw validationError('salt', 'is required to decrypt with a passphrase and format fields: the salt the key was derived with')
      salt = hexBytes(input.salt, 'salt')
      if (evp && salt.length !== OPENSSL_SALT_BYTES) throw validationError('salt', `must be ${OPENSSL_SALT_BYTES} bytes for ${material.derivation.kdf}`)
      if (salt.length < 8 || salt.length > 64) throw validationError('salt', `must be 8 to 64 bytes, not ${salt.length}`)
    }
    if (aead) {
      if (input.tag === undefined)
        throw validationError('tag', `is required to decrypt ${algorithm} with format fields: the ${TAG_BYTES}-byte authentication tag`)
      tag = hexBytes(input.tag, 'tag')
      if (tag.length !== TAG_BYTES) {
        throw invalidInput(`tag is ${tag.length} bytes; ${algorithm} tags here are ${TAG_BYTES} bytes (a shorter tag is refused, never accepted as a prefix)`, {
          field: 'tag',
        })
      }
    }
    ciphertext = bytes()
  }
  if (spec.mode === 'cbc' && (ciphertext.length === 0 || ciphertext.length % 16 !== 0)) {
    throw invalidInput(`the ciphertext is ${ciphertext.length} bytes; CBC ciphertext is a whole number of 16-byte blocks, at least one`, { field: 'input' })
  }

  if (material.derivation !== undefined) {
    if (format === 'openssl' || evp) {
      const derived = await deriveKey(material.derivation, material.passphrase!, salt!, spec.keyBytes + spec.ivBytes)
      key = derived.subarray(0, spec.keyBytes)
      iv ??= derived.subarray(spec.keyBytes)
    } else {
      key = await deriveKey(material.derivation, material.passphrase!, salt!, spec.keyBytes)
    }
  }
  const plaintext = decryptBytes(algorithm, key!, iv!, aad, ciphertext, tag, hint)
  return { result: bytesToText(plaintext, input.outputEncoding ?? 'utf8'), action: 'decrypt' as const, algorithm, format }
}

export const cipher = defineOperation({
  name: 'cipher',
  category: 'encoders',
  summary: 'Encrypt or decrypt with AES-GCM, AES-CBC, AES-CTR or ChaCha20-Poly1305, with a raw key or a passphrase; reads and writes openssl enc output',
  title: 'Cipher (AES, ChaCha20-Poly1305)',
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
