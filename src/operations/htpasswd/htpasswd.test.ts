import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { bcryptVerify } from 'hash-wasm'
import { expectRefusal, type Refusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { md5CryptString, shaCryptString } from '../../lib/crypto/crypt-hashes.ts'
import { htpasswd } from './index.ts'

// A roomy budget: these tests are about answers, and a loaded machine slows the hashing a lot.
const run = async (input: Record<string, unknown>) => (await execute(htpasswd, input, { timeBudgetMs: 60_000 })) as Record<string, unknown>
const matches = async (input: string, password: string, username?: string) => (await run({ action: 'verify', input, password, username })).matches

after(() => closeWorkerPool())

/** Asserts a refusal that says nothing of the secrets it was given. */
async function refusesQuietly(input: Record<string, unknown>, code: string, pattern: RegExp, secrets: string[]): Promise<Refusal> {
  const refusal = await expectRefusal(run(input), { code, message: pattern })
  for (const secret of secrets) {
    assert.ok(!refusal.message.includes(secret), `the message does not quote ${secret}`)
    assert.ok(!JSON.stringify(refusal.details ?? {}).includes(secret), `the details do not quote ${secret}`)
  }
  return refusal
}

/** Apache httpd's documentation, "Password Formats" (misc/password_encryptions.html): the password "myPassword" in each format. */
const APACHE_DOCUMENTED = {
  bcrypt: '$2y$05$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRqC',
  apr1: '$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/',
  sha1: '{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE=',
}

/** {SHA} lines made with `printf '%s' PASSWORD | openssl dgst -sha1 -binary | openssl base64` (OpenSSL 3.0.19). */
const OPENSSL_SHA1: Array<[password: string, hash: string]> = [
  ['myPassword', '{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE='],
  ['', '{SHA}2jmj7l5rSw0yVb/vlWAYkK/YBwk='],
  ['pässwörd', '{SHA}9Rfd8dMqES/xrVXGbRsSyzjn6Pc='],
  ['Hello world!', '{SHA}00hq6RNueFa8QiEjhep5cJRHWAI='],
]

const ORACLE = JSON.parse(readFileSync(new URL('../../../test/fixtures/crypt/oracle.json', import.meta.url), 'utf8')) as {
  cases: Array<{ algorithm: string; password: string; setting: string; expected: string }>
}

describe('htpasswd: known answers', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(htpasswd).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/htpasswd/index.ts')
  })

  test('Apache’s documented examples verify, as lines and as hashes alone', async () => {
    for (const [algorithm, hash] of Object.entries(APACHE_DOCUMENTED)) {
      const answer = await run({ action: 'verify', input: `user:${hash}`, password: 'myPassword' })
      assert.equal(answer.matches, true, hash)
      assert.equal(answer.result, true)
      assert.equal(answer.algorithm, algorithm)
      assert.equal(answer.username, 'user')
      assert.equal(await matches(hash, 'myPassword'), true, hash)
      assert.equal(await matches(hash, 'mypassword'), false, hash)
    }
    assert.equal((await run({ action: 'verify', input: `user:${APACHE_DOCUMENTED.bcrypt}`, password: 'myPassword' })).cost, 5)
    // generate with sha1 gives the documented line, since {SHA} has no salt.
    assert.equal((await run({ username: 'user', password: 'myPassword', algorithm: 'sha1' })).result, `user:${APACHE_DOCUMENTED.sha1}`)
  })

  test('{SHA} lines as openssl writes them', async () => {
    for (const [password, hash] of OPENSSL_SHA1) {
      assert.equal((await run({ username: 'u', password, algorithm: 'sha1' })).hash, hash)
      assert.equal(await matches(`u:${hash}`, password), true)
      assert.equal(await matches(`u:${hash}`, `${password}x`), false)
    }
  })

  // password-hash's tests run all of them; here those at no more than 5,000 rounds, as lines.
  const oracleCases = ORACLE.cases.filter(({ setting }) => !setting.includes('rounds=10000'))
  test(`${oracleCases.length} openssl passwd and Python crypt strings (test/fixtures/crypt/oracle.json) verify as lines`, async () => {
    for (const { algorithm, password, expected } of oracleCases) {
      const answer = await run({ action: 'verify', input: `someone:${expected}\n`, password })
      assert.equal(answer.matches, true, expected)
      assert.equal(answer.algorithm, algorithm)
    }
  })

  test('the examples’ answers', async () => {
    for (const example of htpasswd.examples) {
      const answer = await run(example.input as Record<string, unknown>)
      if (example.output !== undefined) assert.deepEqual(answer, example.output, example.summary)
    }
  })
})

describe('htpasswd: generate', () => {
  test('each algorithm writes the line htpasswd writes, and it verifies', async () => {
    const shapes: Array<[settings: Record<string, unknown>, pattern: RegExp]> = [
      [{}, /^alice:\$2y\$10\$[./A-Za-z0-9]{53}$/],
      [{ algorithm: 'bcrypt', cost: 4 }, /^alice:\$2y\$04\$[./A-Za-z0-9]{53}$/],
      [{ algorithm: 'sha512-crypt' }, /^alice:\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/],
      [{ algorithm: 'sha256-crypt', rounds: 1000 }, /^alice:\$5\$rounds=1000\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{43}$/],
      [{ algorithm: 'apr1' }, /^alice:\$apr1\$[./0-9A-Za-z]{8}\$[./0-9A-Za-z]{22}$/],
      [{ algorithm: 'sha1' }, /^alice:\{SHA\}[A-Za-z0-9+/]{27}=$/],
    ]
    for (const [settings, pattern] of shapes) {
      const answer = await run({ username: 'alice', password: 'pässwörd', ...settings })
      assert.match(answer.result as string, pattern)
      assert.equal(answer.result, `alice:${answer.hash}`)
      assert.equal(await matches(answer.result as string, 'pässwörd'), true)
      assert.equal(await matches(answer.result as string, 'pässword'), false)
    }
  })

  test('bcrypt lines verify with hash-wasm; sha-crypt and apr1 lines are what their salts give', async () => {
    const bcrypt = await run({ username: 'a', password: 'hunter2', cost: 4 })
    assert.equal(await bcryptVerify({ password: 'hunter2', hash: (bcrypt.hash as string).replace('$2y$', '$2a$') }), true)
    const six = await run({ username: 'a', password: 'hunter2', algorithm: 'sha512-crypt', rounds: 6000 })
    const [, , roundsPart, salt] = (six.hash as string).split('$')
    assert.equal(roundsPart, 'rounds=6000')
    assert.equal(six.rounds, 6000)
    assert.equal(shaCryptString('sha512-crypt', Buffer.from('hunter2'), salt, 6000, true), six.hash)
    const apr1 = await run({ username: 'a', password: 'hunter2', algorithm: 'apr1' })
    assert.equal(md5CryptString('apr1', Buffer.from('hunter2'), (apr1.hash as string).split('$')[2]), apr1.hash)
  })

  test('warnings: weak algorithms, sha-crypt’s reach, and a bcrypt password past 72 bytes (cut, as Apache does)', async () => {
    assert.deepEqual((await run({ username: 'a', password: 'x', cost: 4 })).warnings, [])
    assert.match(((await run({ username: 'a', password: 'x', algorithm: 'apr1' })).warnings as string[])[0], /weak/)
    assert.match(((await run({ username: 'a', password: 'x', algorithm: 'sha1' })).warnings as string[])[0], /unsalted/)
    assert.match(((await run({ username: 'a', password: 'x', algorithm: 'sha256-crypt' })).warnings as string[])[0], /Windows/)
    const long = `${'a'.repeat(72)}tail`
    const answer = await run({ username: 'a', password: long, cost: 4 })
    assert.match((answer.warnings as string[])[0], /first 72 bytes of a password; the other 4 /)
    assert.ok(!(answer.warnings as string[])[0].includes('tail'))
    assert.equal(await matches(answer.result as string, long), true)
    assert.equal(await matches(answer.result as string, 'a'.repeat(72)), true)
    assert.equal(await matches(answer.result as string, 'a'.repeat(71)), false)
  })

  test('verify’s weak-hash warning advises what an htpasswd file can hold (bcrypt), never Argon2, which Apache does not read', async () => {
    const generated = await run({ username: 'a', password: 'x', algorithm: 'apr1' })
    const read = await run({ action: 'verify', input: generated.result, password: 'x' })
    assert.deepEqual(read.warnings, generated.warnings)
    const md5 = await run({ action: 'verify', input: 'a:$1$saltsalt$5Jhcit4zN9UlGiA0txPkO0', password: '' })
    assert.equal(md5.algorithm, 'md5-crypt')
    assert.equal(md5.matches, true, 'the oracle fixture’s openssl passwd -1 -salt saltsalt of the empty password')
    for (const warning of [...(read.warnings as string[]), ...(md5.warnings as string[])]) {
      assert.match(warning, /weak.*prefer bcrypt/)
      assert.doesNotMatch(warning, /argon2/i)
    }
  })

  test('an empty password, with every algorithm', async () => {
    for (const algorithm of ['bcrypt', 'sha512-crypt', 'sha256-crypt', 'apr1', 'sha1']) {
      const { result } = await run({ username: 'a', password: '', algorithm, cost: 4 })
      assert.equal(await matches(result as string, ''), true, algorithm)
      assert.equal(await matches(result as string, ' '), false, algorithm)
    }
  })

  test('property: generate then verify matches for any user and password, and a changed password does not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ minLength: 1, maxLength: 20 })
          .filter((name) => !/[:\r\n]/.test(name) && name.trim() === name && !name.startsWith('#') && !name.startsWith('$')),
        fc.string({ maxLength: 40, unit: 'grapheme' }).filter((text) => !text.includes('\u0000')),
        fc.constantFrom(
          { algorithm: 'bcrypt', cost: 4 },
          { algorithm: 'sha512-crypt', rounds: 1000 },
          { algorithm: 'sha256-crypt', rounds: 1000 },
          { algorithm: 'apr1' },
          { algorithm: 'sha1' },
        ),
        async (username, password, settings) => {
          const { result } = await run({ username, password, ...settings })
          assert.equal(await matches(`# a comment\n${result}\n`, password, username), true)
          assert.equal(await matches(result as string, `${password}x`), false)
        },
      ),
      { numRuns: 40 },
    )
  })

  test('offloads every generate but {SHA}, and every verify', () => {
    const offload = (input: Record<string, unknown>) =>
      htpasswd.offload?.({ action: 'generate', algorithm: 'bcrypt', cost: 10, rounds: 5000, password: 'x', ...input } as never)
    assert.equal(offload({}), true)
    assert.equal(offload({ action: 'verify', algorithm: 'sha1' }), true)
    assert.equal(offload({ algorithm: 'sha512-crypt', rounds: 100_000 }), true)
    assert.equal(offload({ algorithm: 'sha512-crypt', rounds: 1000 }), true)
    assert.equal(offload({ algorithm: 'apr1' }), true)
    assert.equal(offload({ algorithm: 'sha1' }), false)
  })
})

describe('htpasswd: verify reads files as Apache does', () => {
  const file = ['# the team', '', `carol:${APACHE_DOCUMENTED.sha1}`, `dave:${APACHE_DOCUMENTED.apr1}:extra:fields`, `dave:${APACHE_DOCUMENTED.sha1}`].join(
    '\r\n',
  )

  test('picks the user’s first line, skipping comments and empty lines, reading the hash up to the next colon; CRLF or LF', async () => {
    const dave = await run({ action: 'verify', input: file, username: 'dave', password: 'myPassword' })
    assert.equal(dave.matches, true)
    assert.equal(dave.algorithm, 'apr1')
    assert.equal((await run({ action: 'verify', input: file.replaceAll('\r\n', '\n'), username: 'carol', password: 'myPassword' })).algorithm, 'sha1')
    // One line among comments needs no username.
    assert.equal((await run({ action: 'verify', input: `# x\n\ncarol:${APACHE_DOCUMENTED.sha1}\n`, password: 'myPassword' })).username, 'carol')
    // A hash alone with a username: the answer names that user.
    assert.equal((await run({ action: 'verify', input: APACHE_DOCUMENTED.apr1, username: 'eve', password: 'myPassword' })).username, 'eve')
    assert.equal((await run({ action: 'verify', input: APACHE_DOCUMENTED.apr1, password: 'myPassword' })).username, undefined)
  })

  test('a file of several lines needs username (400); an unknown user is a 422 that names no other user', async () => {
    await expectRefusal(run({ action: 'verify', input: file, password: 'x' }), { code: 'VALIDATION_ERROR', field: 'username', message: /one of the 3 lines/ })
    const refusal = await refusesQuietly(
      { action: 'verify', input: file, username: 'mallory', password: 'x' },
      'INVALID_INPUT',
      /no line for the user 'mallory'/,
      ['carol', 'dave', 'HqJZimcKQFAMYayBlzkrA'],
    )
    assert.deepEqual(refusal.details, { field: 'username' })
    await expectRefusal(run({ action: 'verify', input: '# only a comment\n\n', password: 'x' }), { code: 'INVALID_INPUT', details: { field: 'input' } })
  })

  test('DES crypt, plain text, Argon2 and malformed hashes are 422s that quote nothing of the line', async () => {
    const cases: Array<[line: string, pattern: RegExp]> = [
      ['user:rOVMBaE2bF5ec', /^unsupported: DES crypt\(3\) keeps 8 characters; regenerate with bcrypt$/],
      ['user:myPasswordIsPlain', /^unsupported: the hash is none that htpasswd writes/],
      ['user:$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4', /Argon2 or scrypt/],
      ['user:{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE', /not a valid \{SHA\} hash/],
      ['user:{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNF=', /not a valid \{SHA\} hash/],
      ['user:$2y$05$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRq', /^input’s hash is not valid/],
      ['user:$2x$05$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRqC', /crypt_blowfish bug/],
      // Apache's example with bits no bcrypt writes in its last character (C is …10, D is …11), or in its salt's.
      ['user:$2y$05$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRqD', /^input’s hash is not valid/],
      ['user:$2y$05$c4WoMPo3SXsafkva.HHa6vXQZWr7oboPiC2bT/r7q1BB8I2s0BRqC', /^input’s hash is not valid/],
      ['user:$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl', /^input’s hash is not valid/],
      ['user:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA', /^input’s hash is not valid/],
      ['user:', /^unsupported/],
    ]
    for (const [line, pattern] of cases) {
      const refusal = await refusesQuietly({ action: 'verify', input: line, password: 'myPassword' }, 'INVALID_INPUT', pattern, [
        'myPassword',
        ...line
          .slice(5)
          .split(/[$:{}]/)
          .filter((part) => part.length > 8),
      ])
      assert.deepEqual(refusal.details, { field: 'input' }, line)
    }
  })

  test('a line naming a cost or rounds above the ceilings is refused without running, the specification’s 999,999,999 rounds too', async () => {
    const cases: Array<[line: string, parameter: string]> = [
      ['u:$2y$15$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRqC', 'cost'],
      ['u:$2y$31$c4WoMPo3SXsafkva.HHa6uXQZWr7oboPiC2bT/r7q1BB8I2s0BRqC', 'cost'],
      [`u:$6$rounds=999999999$saltstring$${'a'.repeat(86)}`, 'rounds'],
      [`u:$5$rounds=1000000000$saltstring$${'a'.repeat(43)}`, 'rounds'],
    ]
    for (const [line, parameter] of cases) {
      const started = performance.now()
      const refusal = await refusesQuietly({ action: 'verify', input: line, password: 'myPassword' }, 'LIMIT_EXCEEDED', /was not run/, [
        'myPassword',
        'saltstring',
      ])
      assert.equal(refusal.details?.parameter, parameter)
      assert.ok(performance.now() - started < 1000)
    }
  })

  test('rounds below 1,000 in a line are raised, with a warning (Drepper’s rounds=10 vector)', async () => {
    const answer = await run({
      action: 'verify',
      input: 'u:$5$rounds=10$roundstoolow$yfvwcWrQ8l/K0DAWyuPMDNHpIVlTQebY9l/gL972bIC',
      password: 'the minimum number is still observed',
    })
    assert.equal(answer.matches, true)
    assert.equal(answer.rounds, 1000)
    assert.match((answer.warnings as string[])[0], /raises/)
  })

  test('a bcrypt line checked with a password past 72 bytes compares the first 72, and says so', async () => {
    const line = (await run({ username: 'a', password: 'b'.repeat(72), cost: 4 })).result as string
    const answer = await run({ action: 'verify', input: line, password: `${'b'.repeat(72)}zzz` })
    assert.equal(answer.matches, true)
    assert.match((answer.warnings as string[])[0], /first 72 bytes/)
  })

  test('a file of 256 KiB with the user on its last line answers quickly', async () => {
    const filler = Array.from({ length: 5000 }, (_, index) => `user${index}:${APACHE_DOCUMENTED.sha1}`).join('\n')
    const input = `${filler.slice(0, 262_144 - 80)}\nlast:${APACHE_DOCUMENTED.sha1}`.slice(-262_144)
    const started = performance.now()
    assert.equal(await matches(input, 'myPassword', 'last'), true)
    assert.ok(performance.now() - started < 2000)
  })
})

describe('htpasswd: refusals', () => {
  test('user names with a colon, CR or LF, empty or too long, are 400s; generate needs username, verify needs input', async () => {
    for (const username of ['a:b', 'a\nb', 'a\rb', '', 'u'.repeat(256)]) {
      await expectRefusal(run({ username, password: 'x', algorithm: 'sha1' }), { code: 'VALIDATION_ERROR', field: 'username' })
    }
    assert.equal((await run({ username: 'u'.repeat(255), password: 'x', algorithm: 'sha1' })).username, 'u'.repeat(255))
    await expectRefusal(run({ password: 'x' }), { code: 'VALIDATION_ERROR', field: 'username' })
    await expectRefusal(run({ username: 'a' }), { code: 'VALIDATION_ERROR', field: 'password' })
    await expectRefusal(run({ action: 'verify', password: 'x' }), { code: 'VALIDATION_ERROR', field: 'input' })
    await expectRefusal(run({ username: 'a', password: 'x', input: 'a:{SHA}x' }), { code: 'VALIDATION_ERROR', field: 'input' })
    await expectRefusal(run({ username: 'a', password: 'x', cost: 15 }), { code: 'VALIDATION_ERROR', field: 'cost' })
    await expectRefusal(run({ username: 'a', password: 'x', cost: 3 }), { code: 'VALIDATION_ERROR', field: 'cost' })
    await expectRefusal(run({ username: 'a', password: 'x', rounds: 999 }), { code: 'VALIDATION_ERROR', field: 'rounds' })
    await expectRefusal(run({ username: 'a', password: 'x', rounds: 1_000_001 }), { code: 'VALIDATION_ERROR', field: 'rounds' })
    await expectRefusal(run({ username: 'a', password: 'x', algorithm: 'md5-crypt' }), { code: 'VALIDATION_ERROR', field: 'algorithm' })
    await expectRefusal(run({ username: 'a', password: 'x'.repeat(4097) }), { code: 'VALIDATION_ERROR', field: 'password' })
    await expectRefusal(run({ action: 'verify', password: 'x', input: 'x'.repeat(262_145) }), { code: 'VALIDATION_ERROR', field: 'input' })
  })

  test('passwords htpasswd cannot take: U+0000, more than 4,096 bytes; SHA-crypt work past the bound', async () => {
    await refusesQuietly({ username: 'a', password: 'se\u0000cret', algorithm: 'sha1' }, 'INVALID_INPUT', /U\+0000/, ['se', 'cret'])
    await refusesQuietly({ action: 'verify', input: `a:${APACHE_DOCUMENTED.sha1}`, password: 'se\u0000cret' }, 'INVALID_INPUT', /U\+0000/, ['cret'])
    const long = 'é'.repeat(2049)
    const refusal = await refusesQuietly({ username: 'a', password: long, algorithm: 'sha1' }, 'LIMIT_EXCEEDED', /4098 bytes/, [long])
    assert.deepEqual(refusal.details, { field: 'password', bytes: 4098, limit: 4096 })
    const started = performance.now()
    await expectRefusal(run({ username: 'a', password: 'x'.repeat(4096), algorithm: 'sha512-crypt', rounds: 1_000_000 }), {
      code: 'LIMIT_EXCEEDED',
      details: { parameter: 'work' },
    })
    assert.ok(performance.now() - started < 1000)
  })

  test('never answers GET: its secrets stay out of URLs', () => {
    assert.notEqual(htpasswd.allowGet, true)
    assert.equal(htpasswd.deliberatelySlow, true)
    const properties = htpasswd.input.properties as Record<string, { writeOnly?: boolean }>
    assert.equal(properties.password.writeOnly, true)
    assert.equal(properties.input.writeOnly, true)
  })
})
