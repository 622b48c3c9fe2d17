import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { argon2Verify, bcryptVerify, scrypt as wasmScrypt } from 'hash-wasm'
import { expectRefusal, type Refusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { shaCryptString } from '../../lib/crypto/crypt-hashes.ts'
import { scryptKey } from '../../lib/crypto/kdf.ts'
import { passwordHash } from './index.ts'

// A roomy budget: these tests are about answers, and a loaded machine slows the hashing a lot.
const run = async (input: Record<string, unknown>) => (await execute(passwordHash, input, { timeBudgetMs: 60_000 })) as Record<string, unknown>
const verify = async (input: string, hash: string) => (await run({ action: 'verify', input, hash })).matches
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64').replace(/=+$/, '')

after(() => closeWorkerPool())

/** Asserts a refusal that says nothing of the secrets it was given. */
async function refusesQuietly(input: Record<string, unknown>, code: string, pattern: RegExp, secrets: string[]): Promise<Refusal> {
  const refusal = await expectRefusal(run(input), { code, message: pattern })
  for (const secret of secrets) {
    assert.ok(!refusal.message.includes(secret), 'the message does not quote the secret')
    assert.ok(!JSON.stringify(refusal.details ?? {}).includes(secret), 'the details do not quote the secret')
  }
  return refusal
}

describe('password-hash: published vectors', () => {
  test('Argon2id, the reference implementation (P-H-C/phc-winner-argon2 src/test.c, version 0x13)', async () => {
    const vectors: Array<[password: string, hash: string]> = [
      ['password', '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc'],
      ['password', '$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4'],
      ['password', '$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc'],
      ['password', '$argon2id$v=19$m=65536,t=1,p=1$c29tZXNhbHQ$9qWtwbpyPd3vm1rB1GThgPzZ3/ydHL92zKL+15XZypg'],
      ['password', '$argon2id$v=19$m=65536,t=4,p=1$c29tZXNhbHQ$kCXUjmjvc5XMqQedpMTsOv+zyJEf5PhtGiUghW9jFyw'],
      ['differentpassword', '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$C4TWUs9rDEvq7w3+J4umqA32aWKB1+DSiRuBfYxFj94'],
      ['password', '$argon2id$v=19$m=65536,t=2,p=1$ZGlmZnNhbHQ$vfMrBczELrFdWP0ZsfhWsRPaHppYdP3MVEMIVlqoFBw'],
    ]
    for (const [password, hash] of vectors) {
      assert.equal(await verify(password, hash), true, hash)
      assert.equal(await verify(`${password}!`, hash), false, hash)
    }
    // The same file's hex output of the first vector is the hash in the string.
    assert.equal(b64('09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7'), 'CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc')
    // Its m=262144 (256 MiB) vector is above this service's bound: refused before running.
    await expectRefusal(
      run({ action: 'verify', input: 'password', hash: '$argon2id$v=19$m=262144,t=2,p=1$c29tZXNhbHQ$eP4eyR+zqlZX1y5xCFTkw9m5GYx0L5YWwvCFvtlbLow' }),
      {
        code: 'LIMIT_EXCEEDED',
        details: { parameter: 'memoryKiB', limit: 65536 },
      },
    )
  })

  test('Argon2i, the reference implementation’s hex outputs (src/test.c, version 0x13)', async () => {
    const vectors: Array<[parameters: string, salt: string, hex: string]> = [
      ['m=256,t=2,p=1', 'somesalt', '89e9029f4637b295beb027056a7336c414fadd43f6b208645281cb214a56452f'],
      ['m=256,t=2,p=2', 'somesalt', '4ff5ce2769a1d7f4c8a491df09d41a9fbe90e5eb02155a13e4c01e20cd4eab61'],
      ['m=65536,t=1,p=1', 'somesalt', 'd168075c4d985e13ebeae560cf8b94c3b5d8a16c51916b6f4ac2da3ac11bbecf'],
    ]
    for (const [parameters, salt, hex] of vectors) {
      const hash = `$argon2i$v=19$${parameters}$${Buffer.from(salt).toString('base64').replace(/=+$/, '')}$${b64(hex)}`
      assert.deepEqual(await run({ action: 'verify', input: 'password', hash }), {
        result: true,
        action: 'verify',
        algorithm: 'argon2i',
        parameters: Object.fromEntries(
          parameters.split(',').map((pair) => {
            const [key, value] = pair.split('=')
            return [{ m: 'memoryKiB', t: 'iterations', p: 'parallelism' }[key]!, Number(value)]
          }),
        ),
        matches: true,
      })
    }
  })

  test('scrypt, RFC 7914 §12', async () => {
    // Vector 1: an empty password and an empty salt.
    const vector1 = '77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906'
    assert.equal((await scryptKey(new Uint8Array(0), new Uint8Array(0), { logN: 4, blockSize: 1, parallelism: 1 }, 64)).toString('hex'), vector1)
    assert.equal(await verify('', `$scrypt$ln=4,r=1,p=1$$${b64(vector1)}`), true)
    assert.equal(await verify(' ', `$scrypt$ln=4,r=1,p=1$$${b64(vector1)}`), false)
    const vector2 = 'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640'
    assert.equal(await verify('password', `$scrypt$ln=10,r=8,p=16$${Buffer.from('NaCl').toString('base64').replace(/=+$/, '')}$${b64(vector2)}`), true)
    const vector3 = '7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887'
    const hash3 = `$scrypt$ln=14,r=8,p=1$${Buffer.from('SodiumChloride').toString('base64').replace(/=+$/, '')}$${b64(vector3)}`
    assert.deepEqual(await run({ action: 'verify', input: 'pleaseletmein', hash: hash3 }), {
      result: true,
      action: 'verify',
      algorithm: 'scrypt',
      parameters: { logN: 14, blockSize: 8, parallelism: 1 },
      matches: true,
    })
    assert.equal(await verify('pleaseletmeiN', hash3), false)
    // Vector 4 needs N = 2^20 with r = 8: 1 GiB, above the bound, so it is refused without running.
    const hash4 = `$scrypt$ln=20,r=8,p=1$${Buffer.from('SodiumChloride').toString('base64').replace(/=+$/, '')}$${b64('2101cb9b6a511aaeaddbbe09cf70f881ec568d574a2ffd4dabe5ee9820adaa478e56fd8f4ba5d09ffa1c6d927c40f4c337304049e8a952fbcbf45c6fa77a41a4')}`
    await expectRefusal(run({ action: 'verify', input: 'pleaseletmein', hash: hash4 }), { code: 'LIMIT_EXCEEDED', details: { parameter: 'memory' } })
  })

  test('bcrypt: the jBCrypt vectors (Damien Miller, cross-checked with OpenBSD) and OpenWall crypt_blowfish ones', async () => {
    const vectors: Array<[password: string, hash: string]> = [
      ['a', '$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe'],
      ['a', '$2a$08$cfcvVd2aQ8CMvoMpP2EBfeodLEkkFJ9umNEfPD18.hUF62qqlC/V.'],
      ['abc', '$2a$06$If6bvum7DFjUnE9p2uDeDu0YHzrHM6tf.iqN8.yx.jNN1ILEf7h0i'],
      ['abc', '$2a$08$Ro0CUfOqk6cXEKf3dyaM7OhSCvnwM9s4wIX9JeLapehKK5YdLxKcm'],
      ['abcdefghijklmnopqrstuvwxyz', '$2a$06$.rCVZVOThsIa97pEDOxvGuRRgzG64bvtJ0938xuqzv18d3ZpQhstC'],
      ['abcdefghijklmnopqrstuvwxyz', '$2a$10$fVH8e28OQRj9tqiDXs1e1uxpsjN0c7II7YPKXua2NAKYvM6iQk7dq'],
      ['~!@#$%^&*()      ~!@#$%^&*()PNBFRD', '$2a$06$fPIsBO8qRqkjj273rfaOI.HtSV9jLDpTbZn782DC6/t7qT67P6FfO'],
      ['~!@#$%^&*()      ~!@#$%^&*()PNBFRD', '$2a$08$Eq2r4G/76Wv39MzSX262huzPz612MZiYHVUJe/OcOql2jo4.9UxTW'],
      ['U*U', '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'],
      ['U*U*', '$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK'],
      ['U*U*U', '$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a'],
    ]
    for (const [password, hash] of vectors) {
      assert.equal(await verify(password, hash), true, hash)
      // $2b$ and $2y$ compute the same for passwords this short: only the prefix differs.
      for (const prefix of ['$2b$', '$2y$']) assert.equal(await verify(password, prefix + hash.slice(4)), true, `${prefix} ${hash}`)
      assert.equal(await verify(`${password}x`, hash), false, hash)
    }
  })

  test('bcrypt: an empty password verifies, with the published vectors for it', async () => {
    const vectors = [
      // Openwall crypt_blowfish’s test vectors.
      '$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy',
      // jBCrypt’s (Damien Miller) test vectors.
      '$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s.',
      '$2a$08$HqWuK6/Ng6sg9gQzbLrgb.Tl.ZHfXLhvt/SgVyWhQqgqcZ7ZuUtye',
      '$2a$10$k1wbIrmNyFAPwPVPSVa/zecw2BCEnBwVS2GbrmgzxFUOqW9dk4TCW',
    ]
    for (const hash of vectors) {
      assert.deepEqual(await run({ action: 'verify', input: '', hash }), {
        result: true,
        action: 'verify',
        algorithm: 'bcrypt',
        parameters: { cost: Number(hash.slice(4, 6)) },
        matches: true,
      })
      for (const prefix of ['$2b$', '$2y$']) assert.equal(await verify('', prefix + hash.slice(4)), true, `${prefix} ${hash}`)
      assert.equal(await verify(' ', hash), false, hash)
    }
    // And an empty password does not match the hash of another (Openwall’s U*U).
    assert.equal(await verify('', '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'), false)
  })
})

describe('password-hash: hashing', () => {
  test('argon2id by default at OWASP’s minimum, in the PHC format, with a new salt each time; another implementation verifies it', async () => {
    const first = await run({ input: 'correct horse battery staple' })
    assert.deepEqual(first.parameters, { memoryKiB: 19456, iterations: 2, parallelism: 1 })
    assert.equal(first.algorithm, 'argon2id')
    assert.match(first.result as string, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    const second = await run({ input: 'correct horse battery staple' })
    assert.notEqual(first.result, second.result)
    assert.equal(await argon2Verify({ password: 'correct horse battery staple', hash: first.result as string }), true)
    assert.equal(await verify('correct horse battery staple', first.result as string), true)
    assert.equal(await verify('correct horse battery stapl', first.result as string), false)
  })

  test('bcrypt writes $2b$ with a two-digit cost; hash-wasm’s own verifier and ours agree', async () => {
    const { result, parameters } = await run({ input: 'pässwörd', algorithm: 'bcrypt', cost: 5 })
    assert.deepEqual(parameters, { cost: 5 })
    assert.match(result as string, /^\$2b\$05\$[./A-Za-z0-9]{53}$/)
    assert.equal(await bcryptVerify({ password: 'pässwörd', hash: (result as string).replace('$2b$', '$2a$') }), true)
    assert.equal(await verify('pässwörd', result as string), true)
  })

  test('scrypt writes ln, r and p; hash-wasm’s scrypt gives the same bytes', async () => {
    const { result, parameters } = await run({ input: 'hunter2', algorithm: 'scrypt', logN: 10, blockSize: 4, parallelism: 2 })
    assert.deepEqual(parameters, { logN: 10, blockSize: 4, parallelism: 2 })
    const [, , settings, salt, hash] = (result as string).split('$')
    assert.equal(settings, 'ln=10,r=4,p=2')
    const expected = await wasmScrypt({
      password: 'hunter2',
      salt: Buffer.from(salt, 'base64'),
      costFactor: 1024,
      blockSize: 4,
      parallelism: 2,
      hashLength: 32,
      outputType: 'binary',
    })
    assert.equal(Buffer.from(expected).toString('base64').replace(/=+$/, ''), hash)
  })

  test('property: whatever the password and costs, hash then verify matches, and a changed password does not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }),
        fc.constantFrom(
          { algorithm: 'argon2id', memoryKiB: 64, iterations: 1 },
          { algorithm: 'argon2id', memoryKiB: 32, iterations: 2, parallelism: 4 },
          { algorithm: 'bcrypt', cost: 4 },
          { algorithm: 'scrypt', logN: 4, blockSize: 1 },
        ),
        async (password, settings) => {
          // bcrypt takes at most 72 bytes, and the changed password is one byte longer.
          fc.pre(settings.algorithm !== 'bcrypt' || Buffer.byteLength(password) < 72)
          const { result } = await run({ input: password, ...settings })
          assert.equal(await verify(password, result as string), true)
          assert.equal(await verify(`${password}.`, result as string), false)
        },
      ),
      { numRuns: 40 },
    )
  })

  test('always runs on the worker pool', () => {
    assert.equal(passwordHash.offload?.({} as never), true)
  })
})

describe('password-hash: limits and refusals', () => {
  test('bcrypt refuses passwords over 72 bytes (counted in UTF-8) rather than truncating; 72 bytes are fine', async () => {
    const seventyTwo = 'é'.repeat(36)
    const hash = (await run({ input: seventyTwo, algorithm: 'bcrypt', cost: 4 })).result as string
    assert.equal(await verify(seventyTwo, hash), true)
    await refusesQuietly({ input: `${seventyTwo}x`, algorithm: 'bcrypt', cost: 4 }, 'INVALID_INPUT', /73 bytes.*only the first 72/, [seventyTwo])
    await refusesQuietly({ action: 'verify', input: 'a'.repeat(73), hash }, 'INVALID_INPUT', /73 bytes/, ['a'.repeat(73)])
    await refusesQuietly({ input: 'a\u0000b', algorithm: 'bcrypt', cost: 4 }, 'INVALID_INPUT', /U\+0000/, [])
    // argon2id takes both.
    assert.equal((await run({ input: `${seventyTwo}x\u0000`, memoryKiB: 8, iterations: 1 })).algorithm, 'argon2id')
  })

  test('a hash claiming more than the bounds is refused before running, whatever the algorithm', async () => {
    const cases: Array<[hash: string, parameter: string]> = [
      ['$argon2id$v=19$m=4194304,t=3,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc', 'memoryKiB'],
      ['$argon2id$v=19$m=65536,t=4000000000,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc', 'iterations'],
      ['$argon2d$v=19$m=65536,t=2,p=255$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc', 'parallelism'],
      ['$2b$31$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', 'cost'],
      ['$2b$15$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', 'cost'],
      ['$scrypt$ln=60,r=8,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc', 'logN'],
      ['$scrypt$ln=17,r=8,p=16$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc', 'work'],
    ]
    for (const [hash, parameter] of cases) {
      const started = performance.now()
      const refusal = await refusesQuietly({ action: 'verify', input: 'password', hash }, 'LIMIT_EXCEEDED', /was not run/, [hash, 'c29tZXNhbHQ'])
      assert.equal(refusal.details?.parameter, parameter, hash)
      assert.ok(performance.now() - started < 1000, 'refused without running')
    }
    await expectRefusal(run({ input: 'x', algorithm: 'scrypt', logN: 20, blockSize: 8 }), { code: 'LIMIT_EXCEEDED', details: { parameter: 'memory' } })
    await expectRefusal(run({ input: 'x', algorithm: 'scrypt', logN: 18, blockSize: 8, parallelism: 2 }), {
      code: 'LIMIT_EXCEEDED',
      details: { parameter: 'work' },
    })
  })

  test('a malformed hash is a 422 that does not quote it', async () => {
    const malformed = [
      'not a hash',
      '$argon2id$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=16$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$t=2,m=65536,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=065536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=65536,t=0,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=8,t=2,p=2$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ=$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHR$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=65536,t=2,p=1$c29tZQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=65536,t=2,p=1,keyid=abc$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$',
      '$scrypt$ln=0,r=8,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc',
      '$2b$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW',
      '$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe',
      '$2b$5$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW',
      '$2x$05$/OK.fbVrR/bpIqNJ5ianF.CE5elHaaO4EbggVDjb8P19RukzXSM3e',
      '$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe!',
      '',
    ]
    for (const hash of malformed) {
      const refusal = await expectRefusal(run({ action: 'verify', input: 'password', hash }), {
        code: 'INVALID_INPUT',
        message: /^hash is not a valid password hash/,
      })
      if (hash.length > 0) {
        for (const part of hash.split('$').filter((piece) => piece.length > 10)) assert.ok(!refusal.message.includes(part), `${refusal.message} quotes ${part}`)
      }
      assert.deepEqual(refusal.details, { field: 'hash' })
    }
    const lone = await expectRefusal(run({ action: 'verify', input: 'password', hash: '$2b$05$\ud800' }), { code: 'INVALID_INPUT' })
    assert.equal(lone.details?.position, undefined)
  })

  test('an empty password: hashing it is a 400 naming input, whatever the algorithm; verifying it against Argon2 is a 422', async () => {
    for (const algorithm of ['argon2id', 'bcrypt', 'scrypt', 'sha512-crypt', 'sha256-crypt']) {
      await expectRefusal(run({ input: '', algorithm }), { code: 'VALIDATION_ERROR', field: 'input', message: /^input .*hash/ })
    }
    for (const variant of ['argon2id', 'argon2i', 'argon2d']) {
      const hash = `$${variant}$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4`
      await refusesQuietly({ action: 'verify', input: '', hash }, 'INVALID_INPUT', /^input is empty.*Argon2/, [hash, 'c29tZXNhbHQ'])
    }
  })

  test('schema bounds are 400', async () => {
    const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
    await refuses({}, 'input')
    await refuses({ input: '' }, 'input')
    await refuses({ input: 'x'.repeat(4097) }, 'input')
    await refuses({ input: 'x', action: 'verify' }, 'hash')
    await refuses({ input: 'x', hash: 'y'.repeat(513), action: 'verify' }, 'hash')
    await refuses({ input: 'x', algorithm: 'md5' }, 'algorithm')
    await refuses({ input: 'x', algorithm: 'md5-crypt' }, 'algorithm')
    await refuses({ input: 'x', algorithm: 'apr1' }, 'algorithm')
    await refuses({ input: 'x', memoryKiB: 65537 }, 'memoryKiB')
    await refuses({ input: 'x', memoryKiB: 8, parallelism: 2 }, 'memoryKiB')
    await refuses({ input: 'x', iterations: 11 }, 'iterations')
    await refuses({ input: 'x', parallelism: 17 }, 'parallelism')
    await refuses({ input: 'x', algorithm: 'bcrypt', cost: 3 }, 'cost')
    await refuses({ input: 'x', algorithm: 'bcrypt', cost: 15 }, 'cost')
    await refuses({ input: 'x', algorithm: 'scrypt', logN: 21 }, 'logN')
    await refuses({ input: 'x', algorithm: 'scrypt', blockSize: 33 }, 'blockSize')
  })
})

/** Ulrich Drepper, "Unix crypt using SHA-256 and SHA-512" (akkadia.org/drepper/SHA-crypt.txt): every test vector it gives, as setting, password, string. */
const DREPPER_VECTORS: Array<[setting: string, password: string, expected: string]> = [
  ['$5$saltstring', 'Hello world!', '$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5'],
  ['$5$rounds=10000$saltstringsaltstring', 'Hello world!', '$5$rounds=10000$saltstringsaltst$3xv.VbSHBb41AL9AvLeujZkZRBAwqFMz2.opqey6IcA'],
  ['$5$rounds=5000$toolongsaltstring', 'This is just a test', '$5$rounds=5000$toolongsaltstrin$Un/5jzAHMgOGZ5.mWJpuVolil07guHPvOW8mGRcvxa5'],
  [
    '$5$rounds=1400$anotherlongsaltstring',
    'a very much longer text to encrypt.  This one even stretches over morethan one line.',
    '$5$rounds=1400$anotherlongsalts$Rx.j8H.h8HjEDGomFU8bDkXm3XIUnzyxf12oP84Bnq1',
  ],
  ['$5$rounds=77777$short', 'we have a short salt string but not a short password', '$5$rounds=77777$short$JiO1O3ZpDAxGJeaDIuqCoEFysAe1mZNJRs3pw0KQRd/'],
  ['$5$rounds=123456$asaltof16chars..', 'a short string', '$5$rounds=123456$asaltof16chars..$gP3VQ/6X7UUEW3HkBn2w1/Ptq2jxPyzV/cZKmF/wJvD'],
  ['$5$rounds=10$roundstoolow', 'the minimum number is still observed', '$5$rounds=1000$roundstoolow$yfvwcWrQ8l/K0DAWyuPMDNHpIVlTQebY9l/gL972bIC'],
  ['$6$saltstring', 'Hello world!', '$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1'],
  [
    '$6$rounds=10000$saltstringsaltstring',
    'Hello world!',
    '$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.',
  ],
  [
    '$6$rounds=5000$toolongsaltstring',
    'This is just a test',
    '$6$rounds=5000$toolongsaltstrin$lQ8jolhgVRVhY4b5pZKaysCLi0QBxGoNeKQzQ3glMhwllF7oGDZxUhx1yxdYcz/e1JSbq3y6JMxxl8audkUEm0',
  ],
  [
    '$6$rounds=1400$anotherlongsaltstring',
    'a very much longer text to encrypt.  This one even stretches over morethan one line.',
    '$6$rounds=1400$anotherlongsalts$POfYwTEok97VWcjxIiSOjiykti.o/pQs.wPvMxQ6Fm7I6IoYN3CmLs66x9t0oSwbtEW7o7UmJEiDwGqd8p4ur1',
  ],
  [
    '$6$rounds=77777$short',
    'we have a short salt string but not a short password',
    '$6$rounds=77777$short$WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0',
  ],
  [
    '$6$rounds=123456$asaltof16chars..',
    'a short string',
    '$6$rounds=123456$asaltof16chars..$BtCwjqMJGx5hrJhZywWvt0RLE8uZ4oPwcelCjmw2kSYu.Ec6ycULevoBK25fs2xXgMNrCzIMVcgEJAstJeonj1',
  ],
  [
    '$6$rounds=10$roundstoolow',
    'the minimum number is still observed',
    '$6$rounds=1000$roundstoolow$kUMsbe306n21p9R.FRkW3IGn.S9NPN0x50YhH1xhLsPuWGsUSklZt58jaTfF4ZEQpyUNGc0dqbpBYYBaHHrsX.',
  ],
]

/** What crypt(3) does with a setting: rounds named are clamped and written, the salt is cut at `$` and to 16 characters. */
function cryptOf(setting: string, password: string): string {
  const [, variant, roundsText, salt] = /^\$([56])\$(?:rounds=(\d+)\$)?([^$]*)/.exec(setting)!
  const rounds = roundsText === undefined ? 5000 : Math.min(Math.max(Number(roundsText), 1000), 999_999_999)
  return shaCryptString(variant === '5' ? 'sha256-crypt' : 'sha512-crypt', Buffer.from(password), salt.slice(0, 16), rounds, roundsText !== undefined)
}

interface OracleCase {
  algorithm: 'md5-crypt' | 'apr1' | 'sha256-crypt' | 'sha512-crypt'
  password: string
  setting: string
  expected: string
  oracle: string
}
const ORACLE = JSON.parse(readFileSync(new URL('../../../test/fixtures/crypt/oracle.json', import.meta.url), 'utf8')) as { cases: OracleCase[] }

describe('password-hash: crypt(3) strings (sha512-crypt, sha256-crypt, md5-crypt, apr1)', () => {
  test('Drepper’s SHA-crypt vectors, all 14: the string from the setting, and verify of it', async () => {
    for (const [setting, password, expected] of DREPPER_VECTORS) {
      assert.equal(cryptOf(setting, password), expected, setting)
      const answer = await run({ action: 'verify', input: password, hash: expected })
      assert.equal(answer.matches, true, expected)
      assert.equal(answer.algorithm, setting.startsWith('$5$') ? 'sha256-crypt' : 'sha512-crypt')
      assert.deepEqual(answer.parameters, { rounds: Number(/rounds=(\d+)/.exec(expected)?.[1] ?? 5000) })
      assert.equal(answer.warnings, undefined)
      assert.equal(await verify(`${password}.`, expected), false, expected)
    }
  })

  test('rounds below 1,000 are raised to 1,000 (Drepper’s rounds=10 vectors), and the answer says so', async () => {
    for (const [setting, password, expected] of DREPPER_VECTORS.filter(([setting]) => setting.includes('rounds=10$'))) {
      // The hash as the setting spelled it: checked with 1,000 rounds.
      const named = expected.replace('rounds=1000$', 'rounds=10$')
      const answer = await run({ action: 'verify', input: password, hash: named })
      assert.equal(answer.matches, true, setting)
      assert.deepEqual(answer.parameters, { rounds: 1000 })
      assert.match((answer.warnings as string[])[0], /names rounds=10; .* checked with 1000 rounds/)
      const zero = await run({ action: 'verify', input: password, hash: expected.replace('rounds=1000$', 'rounds=0$') })
      assert.equal(zero.matches, true)
    }
  })

  test('rounds above the ceiling, as far as the specification’s 999,999,999 and past it, are refused without running', async () => {
    for (const rounds of ['1000001', '999999999', '1000000000', '18446744073709551616', '9'.repeat(30)]) {
      for (const prefix of ['$5$', '$6$']) {
        const hash = `${prefix}rounds=${rounds}$saltstring$${'a'.repeat(prefix === '$5$' ? 43 : 86)}`
        const started = performance.now()
        const refusal = await refusesQuietly({ action: 'verify', input: 'Hello world!', hash }, 'LIMIT_EXCEEDED', /rounds .*1000000 .*was not run/, [
          'saltstring',
          'aaaaaaaa',
        ])
        assert.deepEqual(refusal.details, { parameter: 'rounds', limit: 1_000_000 })
        assert.ok(performance.now() - started < 1000)
      }
    }
    await expectRefusal(run({ input: 'x', algorithm: 'sha512-crypt', rounds: 1_000_001 }), { code: 'VALIDATION_ERROR', field: 'rounds' })
    await expectRefusal(run({ input: 'x', algorithm: 'sha256-crypt', rounds: 999 }), { code: 'VALIDATION_ERROR', field: 'rounds' })
  })

  test(`${ORACLE.cases.length} strings from openssl passwd and Python’s crypt (test/fixtures/crypt/oracle.json) verify, and SHA-crypt ones are reproduced`, async () => {
    for (const { algorithm, password, setting, expected } of ORACLE.cases) {
      const answer = await run({ action: 'verify', input: password, hash: expected })
      assert.equal(answer.matches, true, `${algorithm} ${setting}`)
      assert.equal(answer.algorithm, algorithm)
      if (algorithm.startsWith('sha')) assert.equal(cryptOf(setting, password), expected)
      else assert.match((answer.warnings as string[])[0], /weak/)
    }
  })

  test('Apache’s documented apr1 example, and MD5-crypt against the wrong password', async () => {
    assert.deepEqual(await run({ action: 'verify', input: 'myPassword', hash: '$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/' }), {
      result: true,
      action: 'verify',
      algorithm: 'apr1',
      parameters: {},
      matches: true,
      warnings: ['apr1 is a weak hash (MD5, 1,000 fixed rounds): rehash the password with bcrypt, argon2id or sha512-crypt'],
    })
    assert.equal(await verify('mypassword', '$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/'), false)
    // The same salt and password under $1$ differ: the prefix is mixed into the hash.
    assert.equal(await verify('myPassword', '$1$r31.....$HqJZimcKQFAMYayBlzkrA/'), false)
  })

  test('hashing: sha512-crypt by default rounds writes no rounds=, other rounds are written; both verify', async () => {
    const plain = await run({ input: 'pässwörd', algorithm: 'sha512-crypt' })
    assert.match(plain.result as string, /^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/)
    assert.deepEqual(plain.parameters, { rounds: 5000 })
    assert.equal(await verify('pässwörd', plain.result as string), true)
    const [, , salt] = (plain.result as string).split('$')
    assert.equal(cryptOf(`$6$${salt}`, 'pässwörd'), plain.result)
    const counted = await run({ input: 'pässwörd', algorithm: 'sha256-crypt', rounds: 1000 })
    assert.match(counted.result as string, /^\$5\$rounds=1000\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{43}$/)
    assert.deepEqual(counted.parameters, { rounds: 1000 })
    assert.equal(await verify('pässwörd', counted.result as string), true)
    assert.notEqual((await run({ input: 'pässwörd', algorithm: 'sha512-crypt' })).result, plain.result)
  })

  test('property: hash then verify matches for any password and rounds, a changed one does not; the string is what the specification gives', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 80, unit: 'grapheme' }).filter((text) => !text.includes('\u0000')),
        fc.constantFrom('sha512-crypt', 'sha256-crypt'),
        fc.integer({ min: 1000, max: 1300 }),
        async (password, algorithm, rounds) => {
          const { result } = await run({ input: password, algorithm, rounds })
          assert.equal(await verify(password, result as string), true)
          assert.equal(await verify(`${password}x`, result as string), false)
          const salt = (result as string).split('$')[3]
          assert.equal(cryptOf(`$${algorithm === 'sha256-crypt' ? 5 : 6}$rounds=${rounds}$${salt}`, password), result)
        },
      ),
      { numRuns: 30 },
    )
  })

  test('a malformed crypt string is a 422 that does not quote it; the wrong length of hash never throws', async () => {
    const hash86 = 'svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1'
    const malformed = [
      `$6$saltstring$${hash86.slice(1)}`,
      `$6$saltstring$${hash86}x`,
      `$5$saltstring$${hash86}`,
      `$6$saltstringsaltstring$${hash86}`,
      `$6$rounds=$saltstring$${hash86}`.replace('rounds=$', 'rounds=x$x'),
      `$6$salt:string$${hash86}`,
      `$6$saltstring$${hash86.slice(0, -1)}!`,
      '$1$saltsalt$5Jhcit4zN9UlGiA0txPkO',
      '$1$saltsaltsalt$5Jhcit4zN9UlGiA0txPkO0',
      '$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/x',
      '$apr1$HqJZimcKQFAMYayBlzkrA/',
      '$7$saltstring$abc',
    ]
    for (const hash of malformed) {
      const refusal = await expectRefusal(run({ action: 'verify', input: 'Hello world!', hash }), {
        code: 'INVALID_INPUT',
        message: /^hash is not a valid password hash/,
      })
      for (const part of hash.split('$').filter((piece) => piece.length > 8)) assert.ok(!refusal.message.includes(part), `${refusal.message} quotes ${part}`)
      assert.deepEqual(refusal.details, { field: 'hash' })
    }
  })

  test('passwords crypt(3) cannot take: U+0000 and more than 4,096 bytes; rounds × length past the work bound', async () => {
    await refusesQuietly({ input: 'a\u0000b', algorithm: 'sha512-crypt' }, 'INVALID_INPUT', /U\+0000.*crypt\(3\)/, [])
    await refusesQuietly({ action: 'verify', input: 'a\u0000secret', hash: '$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/' }, 'INVALID_INPUT', /U\+0000/, [
      'secret',
      'HqJZimcKQFAMYayBlzkrA',
    ])
    const long = 'é'.repeat(2049)
    const refusal = await refusesQuietly({ input: long, algorithm: 'sha256-crypt' }, 'LIMIT_EXCEEDED', /4098 bytes.*at most 4096/, [long])
    assert.deepEqual(refusal.details, { field: 'input', bytes: 4098, limit: 4096 })
    // 4,096 bytes at 1,000,000 rounds would run for many seconds: refused before the first round.
    const started = performance.now()
    await expectRefusal(run({ input: 'x'.repeat(4096), algorithm: 'sha512-crypt', rounds: 1_000_000 }), {
      code: 'LIMIT_EXCEEDED',
      details: { parameter: 'work', limit: 2 ** 28 },
    })
    await expectRefusal(run({ action: 'verify', input: 'x'.repeat(4096), hash: `$6$rounds=100000$salt$${hash86Of('x')}` }), {
      code: 'LIMIT_EXCEEDED',
      details: { parameter: 'work', limit: 2 ** 28 },
    })
    assert.ok(performance.now() - started < 1000)
    // 4,096 bytes at the default rounds are fine.
    const { result } = await run({ input: 'x'.repeat(4096), algorithm: 'sha256-crypt' })
    assert.equal(await verify('x'.repeat(4096), result as string), true)
  })
})

const hash86Of = (character: string) => character.repeat(86)
