import { scrypt as nodeScrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import { Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { loadHashWasm } from '../../lib/crypto/hash-wasm.ts'
import { randomBytes } from '../../lib/random/random.ts'
import {
  cryptSalt,
  MD5_CRYPT,
  type Md5CryptAlgorithm,
  md5CryptHash,
  SHA_CRYPT,
  type ShaCryptAlgorithm,
  shaCryptHash,
  shaCryptShape,
  shaCryptString,
} from './crypt-hashes.ts'

const scryptAsync = promisify(nodeScrypt) as (password: Buffer, salt: Buffer, length: number, options: object) => Promise<Buffer>

const ALGORITHMS = ['argon2id', 'bcrypt', 'scrypt', 'sha512-crypt', 'sha256-crypt'] as const
/** What `verify` reads: what `hash` writes, Argon2's other two variants, and the MD5-crypt strings of old /etc/shadow and htpasswd files. */
const VERIFIED_ALGORITHMS = ['argon2id', 'argon2i', 'argon2d', 'bcrypt', 'scrypt', 'sha512-crypt', 'sha256-crypt', 'md5-crypt', 'apr1'] as const
export type VerifiedAlgorithm = (typeof VERIFIED_ALGORITHMS)[number]
const CRYPT_ALGORITHMS: ReadonlySet<VerifiedAlgorithm> = new Set(['sha512-crypt', 'sha256-crypt', 'md5-crypt', 'apr1'])
type Argon2Variant = 'argon2id' | 'argon2i' | 'argon2d'

const SALT_BYTES = 16
const HASH_BYTES = 32

/**
 * Cost bounds, the same for hashing and for the parameters a hash to verify claims: the most costly
 * hash each allows still fits the default time budget (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const LIMITS = {
  argon2MemoryKiB: 65_536,
  argon2Iterations: 10,
  parallelism: 16,
  bcryptCost: 14,
  scryptLogN: 20,
  scryptBlockSize: 32,
  /** 128 · r · N bytes: scrypt's memory. */
  scryptMemoryBytes: 256 * 1024 * 1024,
  /** N · r · p: scrypt's work. */
  scryptWork: 2 ** 21,
  saltBytes: 64,
  hashBytes: 128,
  /** SHA-crypt's rounds, for hashing and for a hash to verify; the specification's own ceiling would run for many minutes. */
  shaCryptRounds: 1_000_000,
  /**
   * rounds · (password bytes + 64): each SHA-crypt round hashes the password sequence up to twice, so
   * a long password multiplies the rounds' cost.
   */
  shaCryptWork: 2 ** 28,
  /** A password's UTF-8 bytes for the crypt(3) hashes, whose preparation hashes the password once per byte of it. */
  cryptPasswordBytes: 4096,
} as const

/** bcrypt's own base64 alphabet (OpenBSD's bcrypt.c): not RFC 4648's order, and no padding. */
const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const BCRYPT_VALUES = new Map([...BCRYPT_ALPHABET].map((symbol, value) => [symbol, value]))

function bcryptBase64Encode(bytes: Uint8Array): string {
  let text = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    const symbols = Math.ceil((Math.min(3, bytes.length - i) * 8) / 6)
    for (let k = 0; k < symbols; k++) text += BCRYPT_ALPHABET[(chunk >> (18 - 6 * k)) & 63]
  }
  return text
}

/** Decodes `length` bytes from bcrypt base64; bits beyond them in the last symbol are dropped here (parseBcrypt refuses them). */
function bcryptBase64Decode(text: string, length: number): Uint8Array {
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

/** The unpadded standard base64 that PHC strings use (B64 in the PHC string format). */
const phcBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/=+$/, '')

// ---- Computing ----

interface Argon2Parameters {
  memoryKiB: number
  iterations: number
  parallelism: number
}

interface ScryptParameters {
  logN: number
  blockSize: number
  parallelism: number
}

/** Argon2 (RFC 9106) through hash-wasm. */
export async function argon2Key(
  variant: Argon2Variant,
  password: Uint8Array,
  salt: Uint8Array,
  { memoryKiB, iterations, parallelism }: Argon2Parameters,
  hashLength: number,
): Promise<Uint8Array> {
  return (await loadHashWasm())[variant]({ password, salt, iterations, parallelism, memorySize: memoryKiB, hashLength, outputType: 'binary' })
}

/** scrypt (RFC 7914) through node:crypto, with room for the memory it needs (its default cap is 32 MiB). */
export function scryptKey(password: Uint8Array, salt: Uint8Array, { logN, blockSize, parallelism }: ScryptParameters, length: number): Promise<Buffer> {
  const N = 2 ** logN
  return scryptAsync(Buffer.from(password), Buffer.from(salt), length, { N, r: blockSize, p: parallelism, maxmem: 2 * 128 * N * blockSize + 1024 * 1024 })
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

// ---- Bounds ----

const tooCostly = (parameter: string, value: number, limit: number, source: string) =>
  limitExceeded(`${source} asks for ${parameter} ${value}, more than the ${limit} this service allows; it was not run`, { parameter, limit })

function assertArgon2Within({ memoryKiB, iterations, parallelism }: Argon2Parameters, source: string): void {
  if (memoryKiB > LIMITS.argon2MemoryKiB) throw tooCostly('memoryKiB', memoryKiB, LIMITS.argon2MemoryKiB, source)
  if (iterations > LIMITS.argon2Iterations) throw tooCostly('iterations', iterations, LIMITS.argon2Iterations, source)
  if (parallelism > LIMITS.parallelism) throw tooCostly('parallelism', parallelism, LIMITS.parallelism, source)
}

function assertScryptWithin({ logN, blockSize, parallelism }: ScryptParameters, source: string): void {
  if (logN > LIMITS.scryptLogN) throw tooCostly('logN', logN, LIMITS.scryptLogN, source)
  if (blockSize > LIMITS.scryptBlockSize) throw tooCostly('blockSize', blockSize, LIMITS.scryptBlockSize, source)
  if (parallelism > LIMITS.parallelism) throw tooCostly('parallelism', parallelism, LIMITS.parallelism, source)
  const memory = 128 * blockSize * 2 ** logN
  if (memory > LIMITS.scryptMemoryBytes) {
    throw limitExceeded(`${source} needs ${memory / 2 ** 20} MiB of memory (128 · blockSize · 2^logN), more than the 256 MiB allowed; it was not run`, {
      parameter: 'memory',
      limit: LIMITS.scryptMemoryBytes,
    })
  }
  const work = 2 ** logN * blockSize * parallelism
  if (work > LIMITS.scryptWork) {
    throw limitExceeded(`${source} asks for 2^logN · blockSize · parallelism = ${work}, more than the 2^21 allowed; it was not run`, {
      parameter: 'work',
      limit: LIMITS.scryptWork,
    })
  }
}

/** Refuses SHA-crypt work beyond the bounds before any of it runs. */
export function assertShaCryptWithin(rounds: number, passwordLength: number, source: string): void {
  if (rounds > LIMITS.shaCryptRounds) throw tooCostly('rounds', rounds, LIMITS.shaCryptRounds, source)
  const work = rounds * (passwordLength + 64)
  if (work > LIMITS.shaCryptWork) {
    throw limitExceeded(
      `${source} asks for rounds · (password bytes + 64) = ${work}, more than the 2^28 allowed (a long password makes every round slower); it was not run: use fewer rounds or a shorter password`,
      { parameter: 'work', limit: LIMITS.shaCryptWork },
    )
  }
}

// ---- Reading hashes to verify ----

/** A hash to verify, read: what to compute and the bytes it must give. */
export interface ParsedHash {
  algorithm: VerifiedAlgorithm
  parameters: Record<string, number>
  compute(password: Uint8Array): Promise<Uint8Array>
  expected: Uint8Array
  /** What the answer must say about how the hash was read (rounds raised to the minimum, say). */
  warnings: string[]
}

/** A malformed hash: the message names the part, never the hash's characters. */
const malformed = (what: string) => invalidInput(`hash is not a valid password hash: ${what}`, { field: 'hash' })

const DECIMAL = '(0|[1-9][0-9]{0,9})'
const B64 = '([A-Za-z0-9+/]*)'
const ARGON2_PATTERN = new RegExp(`^\\$(argon2id|argon2i|argon2d)(?:\\$v=${DECIMAL})?\\$m=${DECIMAL},t=${DECIMAL},p=${DECIMAL}\\$${B64}\\$${B64}$`)
const SCRYPT_PATTERN = new RegExp(`^\\$scrypt\\$ln=${DECIMAL},r=${DECIMAL},p=${DECIMAL}\\$${B64}\\$${B64}$`)
const BCRYPT_PATTERN = /^\$2([aby])\$(\d\d)\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/
/** Salts: printable ASCII but `$` (which ends them) and `:` (which ends a field of /etc/shadow and htpasswd). */
const CRYPT_SALT = '[!-#%-9;-~]'
const SHA_CRYPT_PATTERN = new RegExp(`^\\$([56])\\$(?:rounds=([0-9]{1,30})\\$)?(${CRYPT_SALT}*)\\$([./0-9A-Za-z]*)$`)
const MD5_CRYPT_PATTERN = new RegExp(`^\\$(1|apr1)\\$(${CRYPT_SALT}*)\\$([./0-9A-Za-z]*)$`)

/** Decodes PHC B64, refusing a non-canonical form (a length of 4k + 1, or unused bits set). */
function phcBytes(text: string, part: 'salt' | 'hash', min: number, max: number): Uint8Array {
  const bytes = Buffer.from(text, 'base64')
  if (text.length % 4 === 1 || phcBase64(bytes) !== text) throw malformed(`its ${part} is not canonical unpadded base64`)
  if (bytes.length < min || bytes.length > max) throw malformed(`its ${part} has ${bytes.length} bytes; ${min} to ${max} are accepted`)
  return bytes
}

function positive(value: string, name: string): number {
  const number = Number(value)
  if (number < 1) throw malformed(`its ${name} must be at least 1`)
  return number
}

function parseArgon2(match: RegExpExecArray): Omit<ParsedHash, 'warnings'> {
  const [, variant, version, m, t, p, saltText, hashText] = match
  if (version !== '19')
    throw malformed(
      `only Argon2 version 19 (0x13, the current one) is supported${version === undefined ? '; the hash names none, which means version 16' : ''}`,
    )
  const parameters = { memoryKiB: positive(m, 'memory (m)'), iterations: positive(t, 'iterations (t)'), parallelism: positive(p, 'parallelism (p)') }
  if (parameters.memoryKiB < 8 * parameters.parallelism) throw malformed('Argon2 needs m to be at least 8 · p')
  assertArgon2Within(parameters, 'The hash')
  const salt = phcBytes(saltText, 'salt', 8, LIMITS.saltBytes)
  const expected = phcBytes(hashText, 'hash', 4, LIMITS.hashBytes)
  return {
    algorithm: variant as Argon2Variant,
    parameters,
    expected,
    compute: (password) => argon2Key(variant as Argon2Variant, password, salt, parameters, expected.length),
  }
}

function parseScrypt(match: RegExpExecArray): Omit<ParsedHash, 'warnings'> {
  const [, ln, r, p, saltText, hashText] = match
  const parameters = { logN: positive(ln, 'cost (ln)'), blockSize: positive(r, 'block size (r)'), parallelism: positive(p, 'parallelism (p)') }
  assertScryptWithin(parameters, 'The hash')
  const salt = phcBytes(saltText, 'salt', 0, LIMITS.saltBytes)
  const expected = phcBytes(hashText, 'hash', 1, LIMITS.hashBytes)
  return { algorithm: 'scrypt', parameters, expected, compute: (password) => scryptKey(password, salt, parameters, expected.length) }
}

function parseBcrypt(match: RegExpExecArray): ParsedHash {
  const [, , costText, saltText, hashText] = match
  const cost = Number(costText)
  if (cost < 4 || cost > 31) throw malformed('a bcrypt cost is 04 to 31')
  if (cost > LIMITS.bcryptCost) throw tooCostly('cost', cost, LIMITS.bcryptCost, 'The hash')
  const salt = bcryptBase64Decode(saltText, 16)
  const expected = bcryptBase64Decode(hashText, 23)
  // Bits past the bytes in the last symbol of the salt or the hash are zero in every string bcrypt
  // writes; a verifier that compares strings (OpenBSD, libxcrypt, PHP) never matches one with them set.
  if (bcryptBase64Encode(salt) !== saltText || bcryptBase64Encode(expected) !== hashText)
    throw malformed('its salt or hash ends in a character with bits set that no bcrypt writes')
  return {
    algorithm: 'bcrypt',
    parameters: { cost },
    expected,
    compute: (password) => bcryptKey(password, salt, cost),
    warnings: [],
  }
}

/**
 * `$5$[rounds=N$]salt$hash` and `$6$…`. Rounds below the specification's minimum are raised to it, as
 * the specification does (and a warning says so); rounds above this service's ceiling are refused
 * without running, which also covers the specification's own lowering of rounds above its maximum.
 */
function parseShaCrypt(match: RegExpExecArray): ParsedHash {
  const [, variant, roundsText, salt, hashText] = match
  const algorithm: ShaCryptAlgorithm = variant === '5' ? 'sha256-crypt' : 'sha512-crypt'
  const { encodedLength } = shaCryptShape(algorithm)
  if (salt.length > SHA_CRYPT.saltLength) throw malformed(`a SHA-crypt salt has at most ${SHA_CRYPT.saltLength} characters, and this one has ${salt.length}`)
  if (hashText.length !== encodedLength)
    throw malformed(`a ${algorithm} hash has ${encodedLength} characters after the salt, and this one has ${hashText.length}`)
  const named = roundsText === undefined ? SHA_CRYPT.defaultRounds : Number(roundsText)
  if (named > LIMITS.shaCryptRounds) throw tooCostly('rounds', named, LIMITS.shaCryptRounds, 'The hash')
  const rounds = Math.max(named, SHA_CRYPT.minimumRounds)
  const warnings =
    named < SHA_CRYPT.minimumRounds
      ? [
          `The hash names rounds=${named}; SHA-crypt raises any number below ${SHA_CRYPT.minimumRounds} to ${SHA_CRYPT.minimumRounds}, so it was checked with ${SHA_CRYPT.minimumRounds} rounds (crypt(3) writes such a hash with rounds=${SHA_CRYPT.minimumRounds})`,
        ]
      : []
  return {
    algorithm,
    parameters: { rounds },
    expected: Buffer.from(hashText, 'latin1'),
    compute: async (password) => {
      assertShaCryptWithin(rounds, password.length, 'The hash')
      return Buffer.from(shaCryptHash(algorithm, password, salt, rounds), 'latin1')
    },
    warnings,
  }
}

/** `$1$salt$hash` (MD5-crypt) and Apache's `$apr1$salt$hash`: 1,000 fixed rounds, a salt of up to 8 characters. */
function parseMd5Crypt(match: RegExpExecArray): ParsedHash {
  const [, variant, salt, hashText] = match
  const algorithm: Md5CryptAlgorithm = variant === '1' ? 'md5-crypt' : 'apr1'
  if (salt.length > MD5_CRYPT.saltLength) throw malformed(`an MD5-crypt salt has at most ${MD5_CRYPT.saltLength} characters, and this one has ${salt.length}`)
  if (hashText.length !== MD5_CRYPT.encodedLength)
    throw malformed(`an MD5-crypt hash has ${MD5_CRYPT.encodedLength} characters after the salt, and this one has ${hashText.length}`)
  return {
    algorithm,
    parameters: {},
    expected: Buffer.from(hashText, 'latin1'),
    compute: async (password) => Buffer.from(md5CryptHash(algorithm, password, salt), 'latin1'),
    warnings: [`${algorithm} is a weak hash (MD5, 1,000 fixed rounds): rehash the password with bcrypt, argon2id or sha512-crypt`],
  }
}

export function parseHash(hash: string): ParsedHash {
  const argon2Match = ARGON2_PATTERN.exec(hash)
  if (argon2Match) return { ...parseArgon2(argon2Match), warnings: [] }
  const scryptMatch = SCRYPT_PATTERN.exec(hash)
  if (scryptMatch) return { ...parseScrypt(scryptMatch), warnings: [] }
  const bcryptMatch = BCRYPT_PATTERN.exec(hash)
  if (bcryptMatch) return parseBcrypt(bcryptMatch)
  const shaCryptMatch = SHA_CRYPT_PATTERN.exec(hash)
  if (shaCryptMatch) return parseShaCrypt(shaCryptMatch)
  const md5CryptMatch = MD5_CRYPT_PATTERN.exec(hash)
  if (md5CryptMatch) return parseMd5Crypt(md5CryptMatch)
  if (/^\$2x\$/.test(hash)) throw malformed('$2x$ marks hashes made by a crypt_blowfish bug, which are not supported')
  throw malformed(
    'expected $argon2id$v=19$m=…,t=…,p=…$salt$hash (or argon2i, argon2d), $scrypt$ln=…,r=…,p=…$salt$hash, bcrypt’s $2b$ (also $2a$, $2y$) with a two-digit cost and 53 characters, or a crypt(3) string: $6$[rounds=…$]salt$hash, $5$…, $1$salt$hash or $apr1$salt$hash',
  )
}

/**
 * The password's UTF-8 bytes. bcrypt reads at most 72 and stops at a NUL in C implementations, so a
 * longer password or one with U+0000 is refused rather than truncated. Nothing of the password is told.
 */
function passwordBytes(input: string, algorithm: VerifiedAlgorithm): Buffer {
  const bytes = Buffer.from(input, 'utf8')
  // The Argon2 implementation refuses an empty password, so a hash of one cannot be checked here.
  if (bytes.length === 0 && algorithm.startsWith('argon2')) {
    throw invalidInput('input is empty, and an empty password cannot be verified against an Argon2 hash here; bcrypt and scrypt hashes can be', {
      field: 'input',
    })
  }
  if (algorithm === 'bcrypt') {
    if (bytes.length > 72) {
      throw invalidInput(
        `input is ${bytes.length} bytes in UTF-8; bcrypt reads only the first 72, so a longer password is refused rather than truncated; use argon2id or scrypt`,
        {
          field: 'input',
          bytes: bytes.length,
          limit: 72,
        },
      )
    }
    if (bytes.includes(0))
      throw invalidInput('input contains U+0000, where bcrypt implementations in C stop reading; use argon2id or scrypt', { field: 'input' })
  }
  if (CRYPT_ALGORITHMS.has(algorithm)) {
    if (bytes.includes(0))
      throw invalidInput(`input contains U+0000, where crypt(3) stops reading, so ${algorithm} cannot take it; use argon2id or scrypt`, { field: 'input' })
    if (bytes.length > LIMITS.cryptPasswordBytes) {
      throw limitExceeded(`input is ${bytes.length} bytes in UTF-8; ${algorithm} takes at most ${LIMITS.cryptPasswordBytes} here`, {
        field: 'input',
        bytes: bytes.length,
        limit: LIMITS.cryptPasswordBytes,
      })
    }
  }
  return bytes
}

const writeArgon2 = (parameters: Argon2Parameters, salt: Uint8Array, hash: Uint8Array) =>
  `$argon2id$v=19$m=${parameters.memoryKiB},t=${parameters.iterations},p=${parameters.parallelism}$${phcBase64(salt)}$${phcBase64(hash)}`
const writeScrypt = (parameters: ScryptParameters, salt: Uint8Array, hash: Uint8Array) =>
  `$scrypt$ln=${parameters.logN},r=${parameters.blockSize},p=${parameters.parallelism}$${phcBase64(salt)}$${phcBase64(hash)}`
export const writeBcrypt = (cost: number, salt: Uint8Array, hash: Uint8Array, prefix: '2b' | '2y' = '2b') =>
  `$${prefix}$${String(cost).padStart(2, '0')}$${bcryptBase64Encode(salt)}${bcryptBase64Encode(hash)}`

export const passwordHash = defineOperation({
  name: 'password-hash',
  category: 'generators',
  summary: 'Hash a password with Argon2id, bcrypt, scrypt or sha512-crypt, or verify a password against such a hash or an /etc/shadow entry',
  title: 'Password hash',
  aliases: [
    'bcrypt',
    'argon2',
    'argon2id',
    'scrypt',
    'hash password',
    'verify password',
    'kdf',
    'key derivation',
    'sha512-crypt',
    'sha256-crypt',
    'md5-crypt',
    'crypt',
    'shadow',
    '/etc/shadow',
    'mkpasswd',
  ],
  description:
    "`hash` (the default) hashes the password in `input` with a random 16-byte salt from the operating system's CSPRNG: with `argon2id` (the default; RFC 9106, version 19, OWASP's minimum cost by default: 19 MiB, 2 passes, 1 lane), " +
    '`bcrypt` (cost 10 by default) or `scrypt` (RFC 7914; N = 2^17, r = 8, p = 1 by default), and writes the PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`, `$scrypt$ln=…,r=…,p=…$salt$hash`, 32-byte hashes) or bcrypt’s `$2b$` string. ' +
    '`verify` reads any of those (and Argon2i/Argon2d, and bcrypt’s `$2a$`/`$2y$`), recomputes with the parameters the hash names and compares in constant time: `matches`. ' +
    'An empty password cannot be hashed (400), but it can be verified against a bcrypt or scrypt hash. ' +
    'bcrypt reads only the first 72 bytes of a password: longer ones are refused (422), never truncated silently. Costs are bounded, for the hash to verify too: one that names a higher cost (m=4 GiB, say) is refused (422 LIMIT_EXCEEDED) without running. ' +
    '`sha512-crypt` and `sha256-crypt` write the crypt(3) strings of /etc/shadow (`$6$salt$hash`, `$5$…`; Ulrich Drepper’s SHA-crypt specification) with a 16-character salt and `rounds` (5,000 by default, written as `rounds=N$` only when not 5,000, as crypt(3) does; 1,000 to 1,000,000 here, and rounds · (password bytes + 64) at most 2^28). ' +
    '`verify` also reads those and the old MD5-crypt `$1$` and Apache `$apr1$` strings (read only: they are weak, and the answer warns so). ' +
    'A SHA-crypt hash naming fewer than 1,000 rounds is checked with 1,000, as the specification raises them, and `warnings` says so; one naming more than 1,000,000 is refused (422 LIMIT_EXCEEDED) without running — the specification would lower anything above 999,999,999 to that, which is still far above the time budget. ' +
    'The crypt(3) hashes take no U+0000 in a password (C strings end there) and at most 4,096 bytes. ' +
    'The work always runs on a worker thread within the time budget. The password and the hash are never echoed, never logged, and a malformed hash is refused without being quoted.',
  input: Type.Object(
    {
      action: withDefault(Type.Enum(['hash', 'verify'], { description: 'Hash `input`, or verify `input` against `hash`.' }), 'hash'),
      input: Type.String({
        maxLength: 4096,
        writeOnly: true,
        description:
          'The password, as UTF-8 (for bcrypt at most 72 bytes and no U+0000). hash: 1 to 4096 characters. verify: 0 to 4096, since an empty password may match a bcrypt or scrypt hash (against Argon2 it is refused). Never echoed back, never logged.',
      }),
      hash: Type.Optional(
        Type.String({
          maxLength: 512,
          writeOnly: true,
          description:
            'verify only (required there): the stored hash, a PHC string ($argon2id$…, $argon2i$…, $argon2d$…, $scrypt$…), a bcrypt string ($2b$, $2a$, $2y$) or a crypt(3) string as in /etc/shadow ($6$…, $5$…, $1$…, $apr1$…). Never echoed back, never logged.',
        }),
      ),
      algorithm: withDefault(
        Type.Enum(ALGORITHMS, {
          description:
            'hash: `argon2id` (recommended), `bcrypt`, `scrypt`, or `sha512-crypt` / `sha256-crypt` for /etc/shadow. verify reads the algorithm from `hash`.',
        }),
        'argon2id',
      ),
      memoryKiB: withDefault(
        Type.Integer({ minimum: 8, maximum: LIMITS.argon2MemoryKiB, description: 'argon2id: memory in KiB (m), 8 · parallelism to 65,536 (64 MiB).' }),
        19_456,
      ),
      iterations: withDefault(Type.Integer({ minimum: 1, maximum: LIMITS.argon2Iterations, description: 'argon2id: passes over the memory (t), 1 to 10.' }), 2),
      parallelism: withDefault(
        Type.Integer({
          minimum: 1,
          maximum: LIMITS.parallelism,
          description: 'argon2id: lanes (p); scrypt: parallelism (p). 1 to 16. The work runs on one thread either way.',
        }),
        1,
      ),
      cost: withDefault(Type.Integer({ minimum: 4, maximum: LIMITS.bcryptCost, description: 'bcrypt: the cost, log2 of the rounds, 4 to 14.' }), 10),
      logN: withDefault(
        Type.Integer({
          minimum: 1,
          maximum: LIMITS.scryptLogN,
          description:
            'scrypt: log2 of the cost N, 1 to 20; memory 128 · blockSize · 2^logN must stay within 256 MiB and 2^logN · blockSize · parallelism within 2^21.',
        }),
        17,
      ),
      blockSize: withDefault(Type.Integer({ minimum: 1, maximum: LIMITS.scryptBlockSize, description: 'scrypt: the block size r, 1 to 32.' }), 8),
      rounds: withDefault(
        Type.Integer({
          minimum: SHA_CRYPT.minimumRounds,
          maximum: LIMITS.shaCryptRounds,
          description:
            'sha512-crypt, sha256-crypt: the rounds, 1,000 to 1,000,000, written into the string as rounds=N$ unless 5,000; rounds · (password bytes + 64) must stay within 2^28.',
        }),
        SHA_CRYPT.defaultRounds,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.String(), Type.Boolean()], { description: 'hash: the PHC (or bcrypt) string. verify: whether the password matches.' }),
    action: Type.Enum(['hash', 'verify'], { description: 'The action performed.' }),
    algorithm: Type.Enum(VERIFIED_ALGORITHMS, { description: 'The algorithm used, or the one `hash` names.' }),
    parameters: Type.Record(Type.String(), Type.Integer(), {
      description:
        'The costs used or read from the hash: memoryKiB, iterations and parallelism (Argon2), cost (bcrypt), logN, blockSize and parallelism (scrypt), or rounds (SHA-crypt: the rounds actually run); none for MD5-crypt and apr1, whose 1,000 rounds are fixed.',
    }),
    matches: Type.Optional(Type.Boolean({ description: 'verify: whether the password matches the hash, compared in constant time.' })),
    warnings: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Present when there is something to know: a weak algorithm read (MD5-crypt, apr1), or SHA-crypt rounds raised to the minimum.',
      }),
    ),
  }),
  actions: {
    hash: { fields: ['input', 'algorithm', 'memoryKiB', 'iterations', 'parallelism', 'cost', 'logN', 'blockSize', 'rounds'] },
    verify: { fields: ['input', 'hash'], requires: ['hash'] },
  },
  examples: [
    { summary: 'Hash with Argon2id at OWASP’s minimum cost', input: { input: 'correct horse battery staple' } },
    { summary: 'Hash for /etc/shadow with sha512-crypt (5,000 rounds)', input: { input: 'correct horse battery staple', algorithm: 'sha512-crypt' } },
    {
      summary: 'Verify a password against a bcrypt hash (a jBCrypt test vector)',
      input: { action: 'verify', input: 'abc', hash: '$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i' },
      output: { result: true, action: 'verify', algorithm: 'bcrypt', parameters: { cost: 6 }, matches: true },
    },
    {
      summary: 'Verify against an Argon2id hash (the reference implementation’s test vector)',
      input: { action: 'verify', input: 'password', hash: '$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4' },
      output: { result: true, action: 'verify', algorithm: 'argon2id', parameters: { memoryKiB: 256, iterations: 2, parallelism: 1 }, matches: true },
    },
  ],
  offload: () => true,
  deliberatelySlow: true,
  verdict: { field: 'matches', failure: 'the password does not match the hash' },
  async run({ action, input, hash, algorithm, memoryKiB, iterations, parallelism, cost, logN, blockSize, rounds }) {
    if (action === 'verify') {
      if (hash === undefined) throw validationError('hash', 'is required for verify: the stored hash to check the password against')
      const parsed = parseHash(hash)
      const actual = await parsed.compute(passwordBytes(input, parsed.algorithm))
      const matches = actual.length === parsed.expected.length && timingSafeEqual(actual, parsed.expected)
      const answer = { result: matches, action, algorithm: parsed.algorithm, parameters: parsed.parameters, matches }
      return parsed.warnings.length === 0 ? answer : { ...answer, warnings: parsed.warnings }
    }
    if (input.length === 0) throw validationError('input', 'must be at least 1 character long to hash; only verify takes an empty password')
    const password = passwordBytes(input, algorithm)
    const salt = randomBytes(SALT_BYTES)
    switch (algorithm) {
      case 'argon2id': {
        const parameters = { memoryKiB, iterations, parallelism }
        if (memoryKiB < 8 * parallelism) throw validationError('memoryKiB', `must be at least 8 · parallelism (${8 * parallelism}) for Argon2`)
        return { result: writeArgon2(parameters, salt, await argon2Key('argon2id', password, salt, parameters, HASH_BYTES)), action, algorithm, parameters }
      }
      case 'scrypt': {
        const parameters = { logN, blockSize, parallelism }
        assertScryptWithin(parameters, 'This request')
        return { result: writeScrypt(parameters, salt, await scryptKey(password, salt, parameters, HASH_BYTES)), action, algorithm, parameters }
      }
      case 'bcrypt':
        return { result: writeBcrypt(cost, salt, await bcryptKey(password, salt, cost)), action, algorithm, parameters: { cost } }
      case 'sha512-crypt':
      case 'sha256-crypt': {
        assertShaCryptWithin(rounds, password.length, 'This request')
        const text = cryptSalt(randomBytes(SHA_CRYPT.saltLength), SHA_CRYPT.saltLength)
        const parameters: Record<string, number> = { rounds }
        return { result: shaCryptString(algorithm, password, text, rounds, rounds !== SHA_CRYPT.defaultRounds), action, algorithm, parameters }
      }
    }
  },
})
