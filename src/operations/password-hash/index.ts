import { randomBytes, timingSafeEqual } from 'node:crypto'
import { Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { bcryptKey, writeBcrypt } from '../../lib/crypto/bcrypt.ts'
import { cryptSalt, SHA_CRYPT, shaCryptString } from '../../lib/crypto/crypt-hashes.ts'
import { type Argon2Parameters, argon2Key, type ScryptParameters, scryptKey } from '../../lib/crypto/kdf.ts'
import { parseHash, phcBase64, VERIFIED_ALGORITHMS, type VerifiedAlgorithm } from '../../lib/crypto/parse-hash.ts'
import { assertScryptWithin, assertShaCryptWithin, LIMITS } from '../../lib/crypto/password-cost.ts'

const ALGORITHMS = ['argon2id', 'bcrypt', 'scrypt', 'sha512-crypt', 'sha256-crypt'] as const
const CRYPT_ALGORITHMS: ReadonlySet<VerifiedAlgorithm> = new Set(['sha512-crypt', 'sha256-crypt', 'md5-crypt', 'apr1'])

const SALT_BYTES = 16
const HASH_BYTES = 32

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

export const passwordHash = defineOperation({
  name: 'password-hash',
  category: 'generators',
  summary: 'Hash a password with Argon2id, bcrypt, scrypt or sha512-crypt, or verify a password against such a hash or an /etc/shadow entry',
  title: 'Password hash',
  labels: { fields: { memoryKiB: 'Memory (KiB)', logN: 'Cost (log₂ N)' } },
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
