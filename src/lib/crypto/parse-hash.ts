import { invalidInput } from '../../core/errors.ts'
import { bcryptBase64Decode, bcryptBase64Encode, bcryptKey } from './bcrypt.ts'
import { MD5_CRYPT, type Md5CryptAlgorithm, md5CryptHash, SHA_CRYPT, type ShaCryptAlgorithm, shaCryptHash, shaCryptShape } from './crypt-hashes.ts'
import { type Argon2Variant, argon2Key, scryptKey } from './kdf.ts'
import { assertArgon2Within, assertScryptWithin, assertShaCryptWithin, LIMITS, tooCostly } from './password-cost.ts'

/** What `verify` reads: what `hash` writes, Argon2's other two variants, and the MD5-crypt strings of old /etc/shadow and htpasswd files. */
export const VERIFIED_ALGORITHMS = ['argon2id', 'argon2i', 'argon2d', 'bcrypt', 'scrypt', 'sha512-crypt', 'sha256-crypt', 'md5-crypt', 'apr1'] as const
export type VerifiedAlgorithm = (typeof VERIFIED_ALGORITHMS)[number]

/** The unpadded standard base64 that PHC strings use (B64 in the PHC string format). */
export const phcBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/=+$/, '')

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
