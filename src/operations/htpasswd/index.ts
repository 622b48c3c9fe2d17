import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { Type } from 'typebox'
import { DevutilsError, invalidInput, isDevutilsError, limitExceeded, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { bcryptKey, writeBcrypt } from '../../lib/crypto/bcrypt.ts'
import { cryptSalt, MD5_CRYPT, md5CryptString, SHA_CRYPT, shaCryptString } from '../../lib/crypto/crypt-hashes.ts'
import { type ParsedHash, parseHash } from '../../lib/crypto/parse-hash.ts'
import { assertShaCryptWithin, LIMITS } from '../../lib/crypto/password-cost.ts'

const ALGORITHMS = ['bcrypt', 'sha512-crypt', 'sha256-crypt', 'apr1', 'sha1'] as const
type Algorithm = (typeof ALGORITHMS)[number]
/** What a line may hold: what generate writes, and the `$1$` of MD5-crypt, which Apache reads too. */
const READ_ALGORITHMS = [...ALGORITHMS, 'md5-crypt'] as const
type ReadAlgorithm = (typeof READ_ALGORITHMS)[number]

/** bcrypt keys Blowfish with at most this many bytes of the password; Apache's htpasswd passes longer ones on, and they are cut. */
const BCRYPT_PASSWORD_BYTES = 72
/** The longest htpasswd file read for verify, in characters. */
const INPUT_LENGTH = 262_144

const USERNAME = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[^:\\r\\n]*$',
  description:
    'The user name: 1 to 255 characters, no `:` (it ends the name in a line), CR or LF. generate: required. verify: picks the line from a file of several.',
})

/** What to say of an MD5-crypt hash: password-hash's advice names Argon2, which an htpasswd file cannot hold. */
const weakMd5 = (algorithm: 'apr1' | 'md5-crypt') => `${algorithm} is a weak hash (MD5, 1,000 fixed rounds): prefer bcrypt`

const WEAK = {
  apr1: weakMd5('apr1'),
  sha1: '{SHA} is one unsalted SHA-1: weak, and the same password gives the same line for everyone; prefer bcrypt',
  shaCrypt:
    'Apache reads $5$ and $6$ through the system’s crypt(3), which lacks them on Windows, macOS and OpenBSD (and some proxies read only bcrypt, apr1 and {SHA}); bcrypt works everywhere',
} as const

const sha1Line = (password: Uint8Array) => `{SHA}${createHash('sha1').update(password).digest('base64')}`

/** The password's bytes, as Apache's htpasswd would pass them on: C strings, so no U+0000. */
function passwordBytes(password: string): Buffer {
  const bytes = Buffer.from(password, 'utf8')
  if (bytes.includes(0))
    throw invalidInput('password contains U+0000, where htpasswd and crypt(3) stop reading; it cannot be in an htpasswd password', { field: 'password' })
  if (bytes.length > LIMITS.cryptPasswordBytes) {
    throw limitExceeded(`password is ${bytes.length} bytes in UTF-8; at most ${LIMITS.cryptPasswordBytes} are taken`, {
      field: 'password',
      bytes: bytes.length,
      limit: LIMITS.cryptPasswordBytes,
    })
  }
  return bytes
}

/** bcrypt's cut of a long password, as Apache makes it, and the warning that says so. */
function bcryptPassword(bytes: Buffer, warnings: string[]): Buffer {
  if (bytes.length <= BCRYPT_PASSWORD_BYTES) return bytes
  warnings.push(
    `bcrypt reads only the first ${BCRYPT_PASSWORD_BYTES} bytes of a password; the other ${bytes.length - BCRYPT_PASSWORD_BYTES} of this one make no difference`,
  )
  return bytes.subarray(0, BCRYPT_PASSWORD_BYTES)
}

async function generate(username: string, password: Buffer, algorithm: Algorithm, cost: number, rounds: number) {
  const warnings: string[] = []
  let hash: string
  const parameters: { cost?: number; rounds?: number } = {}
  switch (algorithm) {
    case 'bcrypt': {
      const salt = randomBytes(16)
      hash = writeBcrypt(cost, salt, await bcryptKey(bcryptPassword(password, warnings), salt, cost), '2y')
      parameters.cost = cost
      break
    }
    case 'sha512-crypt':
    case 'sha256-crypt':
      assertShaCryptWithin(rounds, password.length, 'This request')
      hash = shaCryptString(algorithm, password, cryptSalt(randomBytes(SHA_CRYPT.saltLength), SHA_CRYPT.saltLength), rounds, rounds !== SHA_CRYPT.defaultRounds)
      parameters.rounds = rounds
      warnings.push(WEAK.shaCrypt)
      break
    case 'apr1':
      hash = md5CryptString('apr1', password, cryptSalt(randomBytes(MD5_CRYPT.saltLength), MD5_CRYPT.saltLength))
      warnings.push(WEAK.apr1)
      break
    case 'sha1':
      hash = sha1Line(password)
      warnings.push(WEAK.sha1)
      break
  }
  return { result: `${username}:${hash}`, action: 'generate' as const, username, algorithm, hash, ...parameters, warnings }
}

// ---- Reading a line ----

/** One line of an htpasswd file: a user and a hash, or a hash alone. */
interface Line {
  username?: string
  hash: string
}

/**
 * The lines of `input` that hold something: Apache skips empty lines and those that begin with `#`,
 * and reads a line's hash up to the next `:` (htdigest-style extra fields are ignored). A line that
 * begins with `$` or `{SHA}` is a hash alone.
 */
function readLines(input: string): Line[] {
  const lines: Line[] = []
  for (const raw of input.split(/\r?\n/)) {
    const text = raw.trim()
    if (text === '' || text.startsWith('#')) continue
    const colon = text.indexOf(':')
    if (text.startsWith('$') || text.startsWith('{SHA}') || colon < 0) lines.push({ hash: text })
    else lines.push({ username: text.slice(0, colon), hash: text.slice(colon + 1).split(':')[0] })
  }
  return lines
}

function pickLine(input: string, username: string | undefined): Line {
  const lines = readLines(input)
  if (lines.length === 0) throw invalidInput('input holds no htpasswd line (only empty lines or # comments)', { field: 'input' })
  if (username === undefined) {
    if (lines.length > 1) throw validationError('username', `is required to pick one of the ${lines.length} lines of input`)
    return lines[0]
  }
  if (lines.length === 1 && lines[0].username === undefined) return { username, hash: lines[0].hash }
  const line = lines.find((candidate) => candidate.username === username)
  // The user name is the caller's own word, not a secret; the other names in the file are not told.
  if (line === undefined) throw invalidInput(`input has no line for the user '${username}'`, { field: 'username' })
  return line
}

const UNSUPPORTED_PLAIN =
  'unsupported: the hash is none that htpasswd writes ($2y$ bcrypt, $5$, $6$, $apr1$, $1$, {SHA}); plain-text passwords, which Apache accepts only on Windows, NetWare and TPF, are not compared here; regenerate with bcrypt'

/** Reads a line's hash into what to compute; refusals name `input`, never a character of it. */
function readHash(hash: string): { parsed: ParsedHash; algorithm: ReadAlgorithm } | { sha1: Buffer } {
  if (hash.startsWith('{SHA}')) {
    const text = hash.slice(5)
    const digest = Buffer.from(text, 'base64')
    if (!/^[A-Za-z0-9+/]{27}=$/.test(text) || digest.length !== 20 || digest.toString('base64') !== text) {
      throw invalidInput('input’s hash is not a valid {SHA} hash: {SHA} is followed by the 28-character base64 of a 20-byte SHA-1 digest', { field: 'input' })
    }
    return { sha1: digest }
  }
  if (/^[./0-9A-Za-z]{13}$/.test(hash)) throw invalidInput('unsupported: DES crypt(3) keeps 8 characters; regenerate with bcrypt', { field: 'input' })
  if (/^\$(argon2|scrypt\$)/.test(hash)) {
    throw invalidInput('unsupported: Apache does not read Argon2 or scrypt hashes in an htpasswd file; password-hash verifies them', { field: 'input' })
  }
  if (!/^\$(2[abxy]|5|6|1|apr1)\$/.test(hash)) throw invalidInput(UNSUPPORTED_PLAIN, { field: 'input' })
  try {
    const parsed = parseHash(hash)
    return { parsed, algorithm: parsed.algorithm as ReadAlgorithm }
  } catch (error) {
    // password-hash names its own `hash` field; here the hash came in `input`.
    if (isDevutilsError(error) && error.code === 'INVALID_INPUT') {
      throw new DevutilsError('INVALID_INPUT', error.message.replace(/^hash is not a valid password hash/, 'input’s hash is not valid'), { field: 'input' })
    }
    throw error
  }
}

async function verify(input: string, username: string | undefined, password: Buffer) {
  const line = pickLine(input, username)
  const read = readHash(line.hash)
  const who = line.username === undefined ? {} : { username: line.username }
  if ('sha1' in read) {
    const matches = timingSafeEqual(createHash('sha1').update(password).digest(), read.sha1)
    return { result: matches, action: 'verify' as const, ...who, algorithm: 'sha1' as const, matches, warnings: [WEAK.sha1] }
  }
  const { parsed, algorithm } = read
  const warnings = algorithm === 'apr1' || algorithm === 'md5-crypt' ? [weakMd5(algorithm)] : [...parsed.warnings]
  const actual = await parsed.compute(algorithm === 'bcrypt' ? bcryptPassword(password, warnings) : password)
  const matches = actual.length === parsed.expected.length && timingSafeEqual(actual, parsed.expected)
  return { result: matches, action: 'verify' as const, ...who, algorithm, ...parsed.parameters, matches, warnings }
}

export const htpasswd = defineOperation({
  name: 'htpasswd',
  category: 'generators',
  summary: 'Write an Apache htpasswd line (user:hash) with bcrypt, sha512-crypt, sha256-crypt, apr1 or {SHA}, or verify a password against one',
  title: 'htpasswd',
  aliases: [
    'apache',
    'basic auth',
    'basic authentication',
    '.htpasswd',
    'htpasswd line',
    'nginx auth_basic',
    'apr1',
    'bcrypt',
    'sha512-crypt',
    'sha256-crypt',
    'password file',
  ],
  description:
    '`generate` (the default) writes the line `user:hash` that Apache’s `htpasswd -nb` prints: with `bcrypt` (`-B`, the default: `$2y$`, cost 10 by default, 4 to 14; Apache’s own default is 5), `sha512-crypt` (`-5`) or `sha256-crypt` (`-2`) (`$6$`/`$5$` of Ulrich Drepper’s SHA-crypt, a 16-character salt, `rounds` 5,000 by default and written as `rounds=N$` only when not 5,000), `apr1` (`-m`, Apache’s MD5, an 8-character salt) or `sha1` (`-s`, `{SHA}` and the base64 of an unsalted SHA-1). Salts come from the operating system’s CSPRNG. ' +
    'The password may be empty and is taken as UTF-8, at most 4,096 bytes and without U+0000 (htpasswd passes C strings); bcrypt reads only its first 72 bytes, as Apache’s does, and `warnings` says so when more were given. `warnings` also says when an algorithm is weak (apr1, {SHA}) or not read everywhere (sha-crypt). ' +
    '`verify` reads `input`: one line `user:hash`, a hash alone, or a whole htpasswd file with `username` naming the line (empty lines and `#` comments are skipped, the first line of the user counts, and the hash ends at the next `:` as Apache reads it). It reads `$2y$`/`$2a$`/`$2b$`, `$6$`, `$5$`, `$apr1$`, `$1$` and `{SHA}`, and answers `matches`, compared in constant time, with the cost or rounds read. ' +
    'DES crypt(3) hashes (13 characters) and plain-text passwords are refused (422): DES keeps only 8 characters of a password. A line naming a cost above 14 or rounds above 1,000,000 is refused (422 LIMIT_EXCEEDED) without running; SHA-crypt rounds below 1,000 are raised to 1,000, as the specification does, with a warning. ' +
    'User names with `:`, CR or LF are refused (400). The password and the line to verify are secrets: never echoed, logged or put in a URL, so this operation answers POST only. The work runs on a worker thread, but for generating {SHA}, a single SHA-1.',
  input: Type.Object(
    {
      action: withDefault(
        Type.Enum(['generate', 'verify'], { description: 'Write a line for `username` and `password`, or verify `password` against the line in `input`.' }),
        'generate',
      ),
      username: Type.Optional(USERNAME),
      password: Type.String({
        maxLength: 4096,
        writeOnly: true,
        description: 'The password, as UTF-8: may be empty, at most 4,096 bytes, no U+0000; bcrypt reads its first 72 bytes. Never echoed back, never logged.',
      }),
      algorithm: withDefault(
        Type.Enum(ALGORITHMS, {
          description:
            'generate: `bcrypt` (htpasswd -B, recommended), `sha512-crypt` (-5), `sha256-crypt` (-2), `apr1` (-m, weak) or `sha1` (-s, {SHA}, weak). verify reads the algorithm from the line.',
        }),
        'bcrypt',
      ),
      cost: withDefault(
        Type.Integer({ minimum: 4, maximum: LIMITS.bcryptCost, description: 'bcrypt: the cost, log2 of the rounds, 4 to 14 (htpasswd -C).' }),
        10,
      ),
      rounds: withDefault(
        Type.Integer({
          minimum: SHA_CRYPT.minimumRounds,
          maximum: LIMITS.shaCryptRounds,
          description:
            'sha512-crypt, sha256-crypt: the rounds, 1,000 to 1,000,000 (htpasswd -r), written as rounds=N$ unless 5,000; rounds · (password bytes + 64) must stay within 2^28.',
        }),
        SHA_CRYPT.defaultRounds,
      ),
      input: Type.Optional(
        Type.String({
          maxLength: INPUT_LENGTH,
          writeOnly: true,
          description:
            'verify only (required there): a line `user:hash`, a hash alone, or an htpasswd file (then `username` picks the line). Never echoed back, never logged.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.String(), Type.Boolean()], { description: 'generate: the line `user:hash`. verify: whether the password matches.' }),
    action: Type.Enum(['generate', 'verify'], { description: 'The action performed.' }),
    username: Type.Optional(Type.String({ description: 'The user of the line; absent when verify was given a hash alone and no username.' })),
    algorithm: Type.Enum(READ_ALGORITHMS, { description: 'The algorithm used, or the one the line names (md5-crypt for $1$).' }),
    hash: Type.Optional(Type.String({ description: 'generate: the hash, the part of the line after `user:`.' })),
    cost: Type.Optional(Type.Integer({ description: 'bcrypt: the cost used or read.' })),
    rounds: Type.Optional(Type.Integer({ description: 'SHA-crypt: the rounds used or read (after raising to 1,000).' })),
    matches: Type.Optional(Type.Boolean({ description: 'verify: whether the password matches the line, compared in constant time.' })),
    warnings: Type.Array(Type.String(), {
      description:
        'What to know about the line: a weak algorithm, a password cut at 72 bytes by bcrypt, SHA-crypt rounds raised, sha-crypt not read on every server.',
    }),
  }),
  actions: {
    generate: { fields: ['username', 'password', 'algorithm', 'cost', 'rounds'], requires: ['username'] },
    verify: { fields: ['input', 'password', 'username'], requires: ['input'] },
  },
  examples: [
    { summary: 'A bcrypt line, as htpasswd -nbB writes it', input: { username: 'alice', password: 'correct horse battery staple' } },
    {
      summary: 'Verify a password against Apache’s documented apr1 line',
      input: { action: 'verify', input: 'bob:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/', password: 'myPassword' },
      output: {
        result: true,
        action: 'verify',
        username: 'bob',
        algorithm: 'apr1',
        matches: true,
        warnings: [WEAK.apr1],
      },
    },
    {
      summary: 'An {SHA} line (htpasswd -nbs): unsalted, so the same every time',
      input: { username: 'carol', password: 'myPassword', algorithm: 'sha1' },
      output: {
        result: 'carol:{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE=',
        action: 'generate',
        username: 'carol',
        algorithm: 'sha1',
        hash: '{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE=',
        warnings: [WEAK.sha1],
      },
    },
    {
      summary: 'Pick a user’s line from a file and verify (Apache’s documented bcrypt example)',
      input: {
        action: 'verify',
        username: 'dave',
        input: '# users\ncarol:{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE=\ndave:$2y$05$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRqC\n',
        password: 'myPassword',
      },
      output: { result: true, action: 'verify', username: 'dave', algorithm: 'bcrypt', cost: 5, matches: true, warnings: [] },
    },
  ],
  // Only {SHA}, one SHA-1, costs less than a thread hop; even apr1's fixed rounds cost more.
  offload: ({ action, algorithm }) => action === 'verify' || algorithm !== 'sha1',
  deliberatelySlow: true,
  verdict: { field: 'matches', failure: 'the password does not match the line' },
  async run({ action, username, password, algorithm, cost, rounds, input }) {
    if (action === 'verify') {
      if (input === undefined) throw validationError('input', 'is required for verify: the htpasswd line, hash or file to check the password against')
      return verify(input, username, passwordBytes(password))
    }
    if (username === undefined) throw validationError('username', 'is required for generate: the user the line is for')
    if (input !== undefined) throw validationError('input', 'is for verify only: generate takes username and password')
    return generate(username, passwordBytes(password), algorithm, cost, rounds)
  },
})
