import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { argon2Verify, bcryptVerify, scrypt as wasmScrypt } from 'hash-wasm'
import { expectRefusal, type Refusal } from '../../test/expect.ts'
import { execute } from '../core/execute.ts'
import { closeWorkerPool } from '../core/pool.ts'
import { passwordHash, scryptKey } from './password-hash.ts'

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
    for (const algorithm of ['argon2id', 'bcrypt', 'scrypt']) {
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
