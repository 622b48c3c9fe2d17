// Over 600 lines: every section here shares the published vectors, the refusal check that no secret is quoted, and the round-trip properties; split, each file would carry a copy of them.
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal, type Refusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { deriveKey } from './derivation.ts'
import { cipher } from './index.ts'

// A roomy budget: these tests are about answers, and a loaded machine slows the key derivations.
const run = async (input: Record<string, unknown>) => (await execute(cipher, input, { timeBudgetMs: 60_000 })) as Record<string, unknown>
const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex')

after(() => closeWorkerPool())

/** Asserts a refusal that quotes none of the secrets it was given, in its message or its details. */
async function refusesQuietly(input: Record<string, unknown>, code: string, pattern: RegExp, secrets: string[] = []): Promise<Refusal> {
  const refusal = await expectRefusal(run(input), { code, message: pattern })
  for (const secret of [...secrets, input.key, input.passphrase].filter((value): value is string => typeof value === 'string' && value.length > 2)) {
    assert.ok(!refusal.message.includes(secret), `the message "${refusal.message}" does not quote a secret`)
    assert.ok(!JSON.stringify(refusal.details ?? {}).includes(secret), 'the details do not quote a secret')
  }
  return refusal
}

const fixture = (path: string) => JSON.parse(readFileSync(new URL(`../../../test/fixtures/${path}`, import.meta.url), 'utf8'))

describe('cipher: published vectors', () => {
  const SP800_38A_PLAINTEXT = '6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710'
  const KEY_128 = '2b7e151628aed2a6abf7158809cf4f3c'
  const KEY_256 = '603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4'

  test('NIST SP 800-38A F.2.1 and F.2.5 (CBC): the four blocks, then one block of PKCS#7 padding; decrypting gives them back', async () => {
    const vectors = [
      [
        'aes-128-cbc',
        KEY_128,
        '7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7',
      ],
      [
        'aes-256-cbc',
        KEY_256,
        'f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b',
      ],
    ]
    for (const [algorithm, key, expected] of vectors) {
      const common = { algorithm, key, iv: '000102030405060708090a0b0c0d0e0f' }
      const { result, warnings } = await run({ ...common, input: SP800_38A_PLAINTEXT, inputEncoding: 'hex', outputEncoding: 'hex' })
      assert.equal((result as string).slice(0, expected.length), expected, algorithm)
      assert.equal((result as string).length, expected.length + 32, 'a whole block of padding follows')
      assert.deepEqual(warnings, [], 'a given CBC IV is not warned about')
      const back = await run({ ...common, action: 'decrypt', input: result, inputEncoding: 'hex', outputEncoding: 'hex' })
      assert.equal(back.result, SP800_38A_PLAINTEXT)
    }
  })

  test('NIST SP 800-38A F.5.1 and F.5.5 (CTR), both ways', async () => {
    const vectors = [
      [
        'aes-128-ctr',
        KEY_128,
        '874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee',
      ],
      [
        'aes-256-ctr',
        KEY_256,
        '601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6',
      ],
    ]
    for (const [algorithm, key, expected] of vectors) {
      const common = { algorithm, key, iv: 'f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff', outputEncoding: 'hex', inputEncoding: 'hex' }
      const encrypted = await run({ ...common, input: SP800_38A_PLAINTEXT })
      assert.equal(encrypted.result, expected, algorithm)
      assert.match((encrypted.warnings as string[])[0], /never use it again/)
      assert.equal((await run({ ...common, action: 'decrypt', input: expected })).result, SP800_38A_PLAINTEXT)
    }
  })

  test('the GCM specification’s test cases 1 to 4 (McGrew and Viega)', async () => {
    const gcmP = 'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255'
    const gcmC = '42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985'
    const cases = [
      { key: '00'.repeat(16), iv: '00'.repeat(12), p: '', c: '', t: '58e2fccefa7e3061367f1d57a4e7455a' },
      { key: '00'.repeat(16), iv: '00'.repeat(12), p: '00'.repeat(16), c: '0388dace60b6a392f328c2b971b2fe78', t: 'ab6e47d42cec13bdf53a67b21257bddf' },
      { key: 'feffe9928665731c6d6a8f9467308308', iv: 'cafebabefacedbaddecaf888', p: gcmP, c: gcmC, t: '4d5c2af327cd64a62cf35abd2ba6fab4' },
      {
        key: 'feffe9928665731c6d6a8f9467308308',
        iv: 'cafebabefacedbaddecaf888',
        p: gcmP.slice(0, 120),
        c: gcmC.slice(0, 120),
        t: '5bc94fbc3221a5db94fae95ae7121a47',
        aad: 'feedfacedeadbeeffeedfacedeadbeefabaddad2',
      },
    ]
    for (const { key, iv, p, c, t, aad } of cases) {
      const common = { algorithm: 'aes-128-gcm', key, iv, inputEncoding: 'hex', outputEncoding: 'hex', ...(aad ? { aad, aadEncoding: 'hex' } : {}) }
      const encrypted = await run({ ...common, input: p })
      assert.equal(encrypted.result, c)
      assert.equal(encrypted.tag, t)
      assert.equal((await run({ ...common, action: 'decrypt', input: c, tag: t })).result, p)
    }
  })

  test('Wycheproof aes_gcm tcId 1 and 2; a flipped tag bit and the tag cut to 4 bytes are refused', async () => {
    const tc1 = {
      algorithm: 'aes-128-gcm',
      key: '5b9604fe14eadba931b0ccf34843dab9',
      iv: '028318abc1824029138141a2',
      inputEncoding: 'hex',
      outputEncoding: 'hex',
    }
    const encrypted = await run({ ...tc1, input: '001d0c231287c1182784554ca3a21908' })
    assert.equal(encrypted.result, '26073cc1d851beff176384dc9896d5ff')
    assert.equal(encrypted.tag, '0a3ea7a5487cb5f7d70fb6c58d038554')
    const tc2 = {
      ...tc1,
      iv: '921d2507fa8007b7bd067d34',
      aad: '00112233445566778899aabbccddeeff',
      aadEncoding: 'hex',
    }
    const second = await run({ ...tc2, input: '001d0c231287c1182784554ca3a21908' })
    assert.equal(second.result, '49d8b9783e911913d87094d1f63cc765')
    assert.equal(second.tag, '1e348ba07cca2cf04c618cb4d43a5b92')
    const decrypt = { ...tc1, action: 'decrypt', input: '26073cc1d851beff176384dc9896d5ff' }
    assert.equal((await run({ ...decrypt, tag: '0a3ea7a5487cb5f7d70fb6c58d038554' })).result, '001d0c231287c1182784554ca3a21908')
    const refusal = await refusesQuietly({ ...decrypt, tag: '0a3ea7a5487cb5f7d70fb6c58d038555' }, 'INVALID_INPUT', /^authentication failed/)
    assert.equal(refusal.message, 'authentication failed: the key, IV, AAD or tag is wrong, or the data was altered')
    assert.equal(refusal.details, undefined, 'nothing more is told')
    // node alone would accept this 4-byte prefix of the right tag.
    await refusesQuietly({ ...decrypt, tag: '0a3ea7a5' }, 'INVALID_INPUT', /^tag is 4 bytes/)
  })

  test('RFC 8439 §2.8.2 (ChaCha20-Poly1305, the "Ladies and Gentlemen" sunscreen text)', async () => {
    const plaintext = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
    const common = {
      algorithm: 'chacha20-poly1305',
      key: '808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f',
      iv: '070000004041424344454647',
      aad: '50515253c0c1c2c3c4c5c6c7',
      aadEncoding: 'hex',
    }
    const encrypted = await run({ ...common, input: plaintext, outputEncoding: 'hex' })
    const ciphertext = encrypted.result as string
    assert.equal(ciphertext.length, 114 * 2)
    assert.ok(ciphertext.startsWith('d31a8d34648e60db7b86afbc53ef7ec2') && ciphertext.endsWith('86cec64b6116'))
    assert.equal(encrypted.tag, '1ae10b594f09e26a7e902ecbd0600691')
    assert.equal((await run({ ...common, action: 'decrypt', input: ciphertext, inputEncoding: 'hex', tag: encrypted.tag })).result, plaintext)
  })

  test('RFC 6070 (PBKDF2-HMAC-SHA1), through the derivation the passphrase takes', async () => {
    const derive = (iterations: number) =>
      deriveKey({ kdf: 'pbkdf2-sha1', parameters: { name: 'pbkdf2-sha1', iterations } }, Buffer.from('password'), Buffer.from('salt'), 20)
    assert.equal((await derive(1)).toString('hex'), '0c60c80f961f0e71f3a9b524af6012062fe037a6')
    assert.equal((await derive(2)).toString('hex'), 'ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957')
    assert.equal((await derive(4096)).toString('hex'), '4b007901b765489abead49d926f721d065a429c1')
  })
})

interface AeadCase {
  tcId: number
  key: string
  iv: string
  aad?: string
  msg: string
  ct: string
  tag?: string
  result: 'valid' | 'invalid' | 'acceptable'
  comment: string
}

interface Suite {
  numberOfTests: number
  testGroups: Array<{ keySize: number; ivSize: number; tagSize?: number; tests: AeadCase[] }>
}

/**
 * Runs every case of a Wycheproof file. A valid case must encrypt to its ciphertext and tag and
 * decrypt back; an invalid one must be refused. `refusedByDesign` names the valid cases this
 * service refuses on purpose (with a 400 naming the field), counted apart with the reason.
 */
async function runWycheproof(
  file: string,
  algorithmOf: (keySize: number) => string,
  refusedByDesign: (group: Suite['testGroups'][number]) => string | undefined,
) {
  const suite = fixture(`suites/wycheproof/${file}`) as Suite
  const counts = { passed: 0, refusedByDesign: 0, reasons: new Set<string>() }
  for (const group of suite.testGroups) {
    const algorithm = algorithmOf(group.keySize)
    const reason = refusedByDesign(group)
    for (const tc of group.tests) {
      const common = {
        algorithm,
        key: tc.key,
        iv: tc.iv,
        inputEncoding: 'hex',
        outputEncoding: 'hex',
        ...(tc.aad === undefined ? {} : { aad: tc.aad, aadEncoding: 'hex' }),
      }
      const decrypt = { ...common, action: 'decrypt', input: tc.ct, ...(tc.tag === undefined ? {} : { tag: tc.tag }) }
      const name = `${file} tcId ${tc.tcId} (${tc.comment})`
      if (reason !== undefined) {
        // The IV length is refused before anything runs, whether the case is valid or not.
        await expectRefusal(run(decrypt), { code: 'VALIDATION_ERROR', field: 'iv' })
        if (tc.result === 'valid') {
          counts.refusedByDesign++
          counts.reasons.add(reason)
        } else counts.passed++
        continue
      }
      if (tc.result === 'valid') {
        const encrypted = await run({ ...common, input: tc.msg })
        assert.equal(encrypted.result, tc.ct, name)
        assert.equal(encrypted.tag, tc.tag, name)
        assert.equal((await run(decrypt)).result, tc.msg, name)
      } else {
        await assert.rejects(run(decrypt), (error: Refusal) => error.code === 'INVALID_INPUT' || error.code === 'VALIDATION_ERROR', name)
      }
      counts.passed++
    }
  }
  assert.equal(counts.passed + counts.refusedByDesign, suite.numberOfTests, 'every case ran')
  return counts
}

describe('cipher: Wycheproof', () => {
  test('aes_gcm_test.json: every case with a 12-byte IV; the valid ones with other IV lengths are refused by design', async () => {
    const counts = await runWycheproof(
      'aes_gcm_test.json',
      (keySize) => `aes-${keySize}-gcm`,
      (group) => (group.ivSize === 96 ? undefined : 'GCM IVs other than 12 bytes are refused (SP 800-38D §8.2 recommends 96 bits)'),
    )
    // 316 cases: 197 with 12-byte IVs (the 81 invalid among them refused), 6 invalid with empty IVs, 113 valid with other lengths.
    assert.deepEqual([counts.passed, counts.refusedByDesign], [203, 113])
  })

  test('chacha20_poly1305_test.json: every case (nonces other than 12 bytes are invalid in the suite and refused here)', async () => {
    const counts = await runWycheproof(
      'chacha20_poly1305_test.json',
      () => 'chacha20-poly1305',
      (group) => (group.ivSize === 96 ? undefined : 'ChaCha20-Poly1305 nonces are 12 bytes (RFC 8439)'),
    )
    assert.deepEqual([counts.passed, counts.refusedByDesign], [325, 0])
  })

  test('aes_cbc_pkcs5_test.json: every case (bad padding and empty ciphertexts refused)', async () => {
    const counts = await runWycheproof(
      'aes_cbc_pkcs5_test.json',
      (keySize) => `aes-${keySize}-cbc`,
      () => undefined,
    )
    assert.deepEqual([counts.passed, counts.refusedByDesign], [216, 0])
  })
})

interface OpensslVector {
  algorithm: string
  kdf: string
  iterations?: number
  passphrase: string
  plaintext: string
  ciphertext: string
  command: string
}

const HAS_OPENSSL = spawnSync('openssl', ['version']).status === 0

describe('cipher: openssl enc', () => {
  test('decrypts what openssl enc wrote (test/fixtures/cipher/openssl-enc.json, made by make-openssl-vectors.sh)', async () => {
    const { vectors } = fixture('cipher/openssl-enc.json') as { vectors: OpensslVector[] }
    assert.equal(vectors.length, 25)
    for (const { algorithm, kdf, iterations, passphrase, plaintext, ciphertext, command } of vectors) {
      const answer = await run({ action: 'decrypt', format: 'openssl', algorithm, kdf, passphrase, input: ciphertext, ...(iterations ? { iterations } : {}) })
      assert.deepEqual(answer, { result: plaintext, action: 'decrypt', algorithm, format: 'openssl' }, command)
    }
  })

  test('the two published interop vectors: PBKDF2-SHA256 10,000 and EVP_BytesToKey with MD5', async () => {
    const pbkdf2 = await run({
      action: 'decrypt',
      format: 'openssl',
      input: 'U2FsdGVkX18d5LqufG/1Q2plozpaoj2gwLEj+eDVMZg=',
      passphrase: 'correct-horse',
      iterations: 10_000,
    })
    assert.equal(pbkdf2.result, 'hello devutils')
    assert.equal(pbkdf2.algorithm, 'aes-256-cbc', 'format openssl defaults to aes-256-cbc')
    const md5 = await run({
      action: 'decrypt',
      format: 'openssl',
      input: 'U2FsdGVkX18RtQ1sPQHrbKMRdIlB+U8937B7Cp1H4Ws=',
      passphrase: 'correct-horse',
      kdf: 'evp-md5',
    })
    assert.equal(md5.result, 'hello devutils')
    // The wrong kdf, or openssl's default iteration count left out, fails the padding check and says what to look at.
    await refusesQuietly(
      { action: 'decrypt', format: 'openssl', input: 'U2FsdGVkX18d5LqufG/1Q2plozpaoj2gwLEj+eDVMZg=', passphrase: 'correct-horse', iterations: 1000 },
      'INVALID_INPUT',
      /^bad padding: wrong key or IV, or not CBC ciphertext; check the passphrase, kdf .*10000/,
    )
  })

  test('openssl enc output taken apart (its salt given, the header left out) decrypts in format fields, the IV derived as openssl does', async () => {
    const bytes = Buffer.from('U2FsdGVkX18RtQ1sPQHrbKMRdIlB+U8937B7Cp1H4Ws=', 'base64')
    const parts = { action: 'decrypt', algorithm: 'aes-256-cbc', passphrase: 'correct-horse', kdf: 'evp-md5', salt: bytes.subarray(8, 16).toString('hex') }
    assert.equal((await run({ ...parts, input: bytes.subarray(16).toString('base64') })).result, 'hello devutils')
    await expectRefusal(run({ ...parts, salt: '00'.repeat(16), input: bytes.subarray(16).toString('base64') }), { code: 'VALIDATION_ERROR', field: 'salt' })
  })

  test('writes what openssl enc -a writes: Salted__, an 8-byte salt, the ciphertext, base64 in lines of 64 characters', async () => {
    const text = 'a longer message, so that the base64 runs over more than one line of sixty-four characters'
    const answer = await run({ input: text, passphrase: 'correct-horse', format: 'openssl', iterations: 1000 })
    const result = answer.result as string
    assert.ok(result.startsWith('U2FsdGVkX1'), 'base64 of Salted__')
    assert.ok(result.endsWith('\n'))
    const lines = result.slice(0, -1).split('\n')
    assert.ok(lines.length > 1 && lines.slice(0, -1).every((line) => line.length === 64) && lines.at(-1)!.length <= 64)
    const bytes = Buffer.from(result, 'base64')
    assert.equal(bytes.subarray(8, 16).toString('hex'), answer.salt)
    assert.equal(bytes.length, 16 + (Math.floor(Buffer.byteLength(text) / 16) + 1) * 16)
    assert.equal(answer.opensslCommand, 'openssl enc -d -aes-256-cbc -pbkdf2 -iter 1000 -md sha256 -a')
    assert.deepEqual(answer.kdf, { name: 'pbkdf2-sha256', iterations: 1000 })
    assert.deepEqual(answer.warnings, [])
    assert.equal((await run({ action: 'decrypt', format: 'openssl', input: result, passphrase: 'correct-horse', iterations: 1000 })).result, text)
    const legacy = await run({ input: text, passphrase: 'p', format: 'openssl', kdf: 'evp-md5', algorithm: 'aes-128-ctr', outputEncoding: 'hex' })
    assert.equal(legacy.opensslCommand, 'xxd -r -p | openssl enc -d -aes-128-ctr -md md5')
    assert.match((legacy.warnings as string[])[0], /legacy EVP_BytesToKey/)
    assert.ok((legacy.result as string).startsWith(hex('Salted__')))
  })

  test('openssl itself reads what this writes, and this reads what openssl writes now', {
    skip: HAS_OPENSSL ? false : 'openssl is not installed',
  }, async () => {
    const cases = [
      { algorithm: 'aes-256-cbc', kdf: 'pbkdf2-sha256', iterations: 1000 },
      { algorithm: 'aes-128-ctr', kdf: 'pbkdf2-sha512', iterations: 2000 },
      { algorithm: 'aes-192-cbc', kdf: 'evp-sha256' },
    ]
    const plaintext = 'Grüße from devutils, long enough for two lines of base64 output from openssl enc.'
    for (const parameters of cases) {
      const env = { ...process.env, CIPHER_PASSPHRASE: 'correct horse' }
      const { result, opensslCommand } = await run({ input: plaintext, passphrase: 'correct horse', format: 'openssl', ...parameters })
      const argv = `${(opensslCommand as string).replace(/^openssl /, '')} -pass env:CIPHER_PASSPHRASE`.split(' ')
      assert.equal(execFileSync('openssl', argv, { input: result as string, env, encoding: 'utf8' }), plaintext, JSON.stringify(parameters))
      const kdfFlags = parameters.kdf.startsWith('pbkdf2')
        ? ['-pbkdf2', '-iter', String(parameters.iterations), '-md', parameters.kdf.slice(7)]
        : ['-md', 'sha256']
      const written = execFileSync('openssl', ['enc', `-${parameters.algorithm}`, ...kdfFlags, '-a', '-pass', 'env:CIPHER_PASSPHRASE'], {
        input: plaintext,
        env,
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'ignore'],
      })
      const answer = await run({ action: 'decrypt', format: 'openssl', input: written, passphrase: 'correct horse', ...parameters })
      assert.equal(answer.result, plaintext, JSON.stringify(parameters))
    }
  })
})

const AEADS = ['aes-256-gcm', 'aes-192-gcm', 'aes-128-gcm', 'chacha20-poly1305']
const ALL = [...AEADS, 'aes-256-cbc', 'aes-192-cbc', 'aes-128-cbc', 'aes-256-ctr', 'aes-192-ctr', 'aes-128-ctr']
const keyFor = (algorithm: string) => (algorithm.includes('128') ? '11'.repeat(16) : algorithm.includes('192') ? '22'.repeat(24) : '33'.repeat(32))

describe('cipher: round trips and formats', () => {
  test('defaults: AES-256-GCM, a random 12-byte IV each time, base64 out, fields format', async () => {
    const key = keyFor('aes-256-gcm')
    const first = await run({ input: 'hello', key })
    const second = await run({ input: 'hello', key })
    assert.equal(first.algorithm, 'aes-256-gcm')
    assert.equal(first.format, 'fields')
    assert.match(first.iv as string, /^[0-9a-f]{24}$/)
    assert.match(first.tag as string, /^[0-9a-f]{32}$/)
    assert.notEqual(first.iv, second.iv)
    assert.notEqual(first.result, second.result)
    assert.deepEqual(first.warnings, [])
    assert.equal(first.salt, undefined)
    assert.equal(first.kdf, undefined)
    assert.equal(Buffer.from(first.result as string, 'base64').length, 5)
  })

  test('property: every algorithm and format decrypts what it encrypts, with any bytes and AAD', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 100 }),
        fc.option(fc.uint8Array({ maxLength: 40 }), { nil: undefined }),
        fc.constantFrom(...ALL),
        fc.constantFrom('fields', 'combined'),
        fc.constantFrom('base64', 'hex'),
        async (bytes, aadBytes, algorithm, format, encoding) => {
          const aead = AEADS.includes(algorithm)
          const aad = aead && aadBytes ? { aad: Buffer.from(aadBytes).toString('base64'), aadEncoding: 'base64' } : {}
          const common = { algorithm, format, key: keyFor(algorithm), ...aad }
          const encrypted = await run({ ...common, input: Buffer.from(bytes).toString('hex'), inputEncoding: 'hex', outputEncoding: encoding })
          const carried = format === 'fields' ? { iv: encrypted.iv, ...(aead ? { tag: encrypted.tag } : {}) } : {}
          const decrypted = await run({ ...common, ...carried, action: 'decrypt', input: encrypted.result, inputEncoding: encoding, outputEncoding: 'hex' })
          assert.equal(decrypted.result, Buffer.from(bytes).toString('hex'))
          if (format === 'combined') {
            const length = Buffer.from(encrypted.result as string, encoding as BufferEncoding).length
            const ivBytes = algorithm.includes('gcm') || algorithm.startsWith('chacha') ? 12 : 16
            const ciphertextBytes = algorithm.includes('cbc') ? (Math.floor(bytes.length / 16) + 1) * 16 : bytes.length
            assert.equal(length, ivBytes + ciphertextBytes + (aead ? 16 : 0))
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  test('property: any change to an AEAD ciphertext, tag, IV or AAD fails authentication with the one message', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.constantFrom(...AEADS),
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        fc.constantFrom('input', 'tag', 'iv', 'aad'),
        async (bytes, algorithm, at, bit, part) => {
          const common = { algorithm, key: keyFor(algorithm), aad: 'header', outputEncoding: 'hex', inputEncoding: 'hex' }
          const encrypted = await run({ ...common, input: Buffer.from(bytes).toString('hex') })
          const fields: Record<string, string> = {
            input: encrypted.result as string,
            tag: encrypted.tag as string,
            iv: encrypted.iv as string,
            aad: hex('header'),
          }
          const flipped = Buffer.from(fields[part], 'hex')
          flipped[at % flipped.length] ^= 1 << bit
          fields[part] = flipped.toString('hex')
          await refusesQuietly(
            { ...common, action: 'decrypt', ...fields, aadEncoding: 'hex', outputEncoding: 'hex' },
            'INVALID_INPUT',
            /^authentication failed: the key, IV, AAD or tag is wrong, or the data was altered$/,
          )
        },
      ),
      { numRuns: 60 },
    )
  })

  test('combined with a passphrase: salt(16) ‖ iv ‖ ciphertext ‖ tag, read back with the same kdf', async () => {
    const settings = { passphrase: 'correct horse', kdf: 'pbkdf2-sha256', iterations: 1000, format: 'combined' }
    const encrypted = await run({ ...settings, input: 'hi', outputEncoding: 'hex' })
    const value = encrypted.result as string
    assert.equal(value.length, (16 + 12 + 2 + 16) * 2)
    assert.equal(value.slice(0, 32), encrypted.salt)
    assert.equal(value.slice(32, 56), encrypted.iv)
    assert.equal(value.slice(60), encrypted.tag)
    // The bytes between are the ciphertext, as format fields reads it.
    const { format: _combined, ...fields } = settings
    const parts = { salt: encrypted.salt, iv: encrypted.iv, tag: encrypted.tag, input: value.slice(56, 60), inputEncoding: 'hex' }
    assert.equal((await run({ ...fields, ...parts, action: 'decrypt' })).result, 'hi')
    assert.deepEqual(encrypted.kdf, { name: 'pbkdf2-sha256', iterations: 1000 })
    assert.equal((await run({ ...settings, action: 'decrypt', input: encrypted.result, inputEncoding: 'hex' })).result, 'hi')
    await refusesQuietly(
      { ...settings, iterations: 1001, action: 'decrypt', input: encrypted.result, inputEncoding: 'hex' },
      'INVALID_INPUT',
      /^authentication failed/,
    )
  })

  test('each derivation: pbkdf2-sha512/sha1, scrypt and argon2id, with their parameters answered', async () => {
    const derivations: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { kdf: 'pbkdf2-sha512', iterations: 1000 },
        { name: 'pbkdf2-sha512', iterations: 1000 },
      ],
      [
        { kdf: 'pbkdf2-sha1', iterations: 1000 },
        { name: 'pbkdf2-sha1', iterations: 1000 },
      ],
      [
        { kdf: 'scrypt', logN: 4, blockSize: 2 },
        { name: 'scrypt', logN: 4, blockSize: 2, parallelism: 1 },
      ],
      [
        { kdf: 'argon2id', memoryKiB: 64, iterations: 1, parallelism: 2 },
        { name: 'argon2id', iterations: 1, memoryKiB: 64, parallelism: 2 },
      ],
    ]
    for (const [settings, kdf] of derivations) {
      const common = { ...settings, passphrase: 'pässwörd', algorithm: 'aes-128-cbc' }
      const encrypted = await run({ ...common, input: 'secret text' })
      assert.deepEqual(encrypted.kdf, kdf)
      assert.match(encrypted.salt as string, /^[0-9a-f]{32}$/)
      const back = await run({ ...common, action: 'decrypt', input: encrypted.result, iv: encrypted.iv, salt: encrypted.salt })
      assert.equal(back.result, 'secret text')
    }
    // The default PBKDF2 count, and a given salt.
    const slow = await run({ input: 'x', passphrase: 'p', salt: '00'.repeat(8) })
    assert.deepEqual(slow.kdf, { name: 'pbkdf2-sha256', iterations: 600_000 })
    assert.equal(slow.salt, '00'.repeat(8))
  })

  test('a key in base64, base64url or UTF-8; plaintext in latin1 or base64; plaintext as latin1', async () => {
    const raw = Buffer.from('00112233445566778899aabbccddeeff', 'hex')
    const results = new Set<unknown>()
    for (const [key, keyEncoding] of [
      [raw.toString('hex'), 'hex'],
      [raw.toString('base64'), 'base64'],
      [raw.toString('base64url'), 'base64url'],
    ]) {
      results.add((await run({ input: 'é', inputEncoding: 'latin1', key, keyEncoding, algorithm: 'aes-128-ctr', iv: '00'.repeat(16) })).result)
    }
    assert.equal(results.size, 1)
    const utf8 = await run({
      input: 'AQID',
      inputEncoding: 'base64',
      key: 'sixteen byte key',
      keyEncoding: 'utf8',
      algorithm: 'aes-128-ctr',
      iv: '00'.repeat(16),
    })
    const back = await run({
      action: 'decrypt',
      input: utf8.result,
      key: 'sixteen byte key',
      keyEncoding: 'utf8',
      algorithm: 'aes-128-ctr',
      iv: '00'.repeat(16),
      outputEncoding: 'base64',
    })
    assert.equal(back.result, 'AQID')
  })
})

describe('cipher: refusals', () => {
  const KEY = '33'.repeat(32)

  test('key and passphrase: both, neither, a wrong size (naming the size and suggesting passphrase), bad encoding: never quoting the key', async () => {
    await refusesQuietly({ input: 'x', key: KEY, passphrase: 'secret-pass' }, 'VALIDATION_ERROR', /^key and passphrase cannot both be given/)
    await refusesQuietly({ input: 'x' }, 'VALIDATION_ERROR', /^key or passphrase is required/)
    const wrong = await refusesQuietly({ input: 'x', key: 'c0ffee'.repeat(4) }, 'VALIDATION_ERROR', /^key must be 32 bytes for aes-256-gcm.*passphrase/)
    assert.equal((wrong.details as unknown as Array<{ field: string }>)[0].field, 'key')
    await refusesQuietly({ input: 'x', key: 'c0ffee'.repeat(4), algorithm: 'aes-128-cbc' }, 'VALIDATION_ERROR', /^key must be 16 bytes for aes-128-cbc/)
    await refusesQuietly({ input: 'x', key: `zz${'33'.repeat(31)}` }, 'INVALID_INPUT', /^key is not valid hex/, ['zz'])
    await refusesQuietly({ input: 'x', key: '+/+/', keyEncoding: 'base64url' }, 'INVALID_INPUT', /^key is not valid base64url/)
    await refusesQuietly({ input: 'x', key: 'hunter2 is what I use' }, 'INVALID_INPUT', /^key is not valid hex.*passphrase/, ['hunter2'])
  })

  test('fields that do not apply are refused, not ignored', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ input: 'x', key: KEY, algorithm: 'aes-256-cbc', aad: 'a' }, 'aad', /^aad applies only to an AEAD cipher/],
      [{ input: 'x', key: KEY, algorithm: 'aes-256-ctr', action: 'decrypt', iv: '00'.repeat(16), tag: '00'.repeat(16) }, 'tag', /^tag applies only/],
      [{ input: 'x', key: KEY, tag: '00'.repeat(16) }, 'tag', /^tag is made by encrypting/],
      [{ input: 'x', key: KEY, iterations: 1000 }, 'iterations', /applies only with passphrase/],
      [{ input: 'x', key: KEY, salt: '00'.repeat(16) }, 'salt', /applies only with passphrase/],
      [{ input: 'x', key: KEY, kdf: 'scrypt' }, 'kdf', /applies only with passphrase/],
      [{ input: 'x', passphrase: 'p', memoryKiB: 64 }, 'memoryKiB', /does not apply to pbkdf2-sha256/],
      [{ input: 'x', passphrase: 'p', kdf: 'scrypt', iterations: 1000 }, 'iterations', /does not apply to scrypt/],
      [{ input: 'x', passphrase: 'p', kdf: 'evp-md5', format: 'openssl', iterations: 1000 }, 'iterations', /EVP_BytesToKey runs once/],
      [{ input: 'x', key: KEY, iv: '00'.repeat(16) }, 'iv', /^iv must be 12 bytes \(24 hex digits\) for aes-256-gcm, not 16/],
      [{ input: 'x', key: KEY, iv: '000' }, 'iv', /odd number of hex digits/],
      [{ input: 'x', key: '00'.repeat(16) }, 'key', /^key must be 32 bytes for aes-256-gcm \(64 hex digits\), not 16/],
      [{ input: 'x', key: 'AAAA', keyEncoding: 'base64' }, 'key', /^key must be 32 bytes for aes-256-gcm \(44 base64 characters with padding\), not 3/],
      [
        { input: 'x', key: 'AAAA', keyEncoding: 'base64url', algorithm: 'aes-128-gcm' },
        'key',
        /^key must be 16 bytes for aes-128-gcm \(22 base64url characters\), not 3/,
      ],
      [{ input: 'x', key: 'é'.repeat(15), keyEncoding: 'utf8' }, 'key', /^key must be 32 bytes for aes-256-gcm \(of UTF-8\), not 30/],
      [{ input: 'x', key: KEY, iv: 'xyz' }, 'iv', /./],
      [{ input: 'x', key: KEY, action: 'decrypt' }, 'iv', /^iv is required/],
      [{ input: 'x', key: KEY, action: 'decrypt', iv: '00'.repeat(12) }, 'tag', /^tag is required/],
      [{ input: 'x', passphrase: 'p', action: 'decrypt', iv: '00'.repeat(12), tag: '00'.repeat(16) }, 'salt', /^salt is required/],
      [{ input: 'x', key: KEY, format: 'combined', action: 'decrypt', iv: '00'.repeat(12) }, 'iv', /read from the value/],
      [{ input: 'x', key: KEY, action: 'decrypt', inputEncoding: 'utf8', iv: '00'.repeat(12), tag: '00'.repeat(16) }, 'inputEncoding', /base64 or hex/],
      [{ input: 'x', key: KEY, outputEncoding: 'utf8' }, 'outputEncoding', /base64 or hex/],
      [{ input: 'x', key: KEY, format: 'openssl', algorithm: 'aes-256-cbc' }, 'key', /give passphrase/],
      [{ input: 'x', passphrase: 'p', format: 'openssl', algorithm: 'aes-256-gcm' }, 'algorithm', /no AEAD/],
      [{ input: 'x', passphrase: 'p', format: 'openssl', kdf: 'scrypt' }, 'kdf', /openssl enc knows/],
      [{ input: 'x', passphrase: 'p', format: 'openssl', iv: '00'.repeat(16) }, 'iv', /derives it/],
      [{ input: 'x', passphrase: 'p', format: 'openssl', salt: '00'.repeat(16) }, 'salt', /8 bytes/],
      [{ input: 'x', passphrase: 'p', format: 'combined', salt: '00'.repeat(8), iterations: 1000 }, 'salt', /16 bytes with format combined/],
      [{ input: 'x', passphrase: 'p', salt: '00'.repeat(4), iterations: 1000 }, 'salt', /8 to 64 bytes/],
      [{ input: 'x', passphrase: 'p', kdf: 'evp-md5' }, 'kdf', /only with format openssl/],
      [{ input: 'x', passphrase: 'p', kdf: 'evp-md5', action: 'decrypt', format: 'combined' }, 'kdf', /format combined/],
      [{ input: 'x', passphrase: 'p', iterations: 999 }, 'iterations', /at least 1000/],
      [{ input: 'x', passphrase: 'p', kdf: 'argon2id', iterations: 11 }, 'iterations', /at most 10/],
      [{ input: 'x', passphrase: 'p', kdf: 'argon2id', memoryKiB: 8, parallelism: 2 }, 'memoryKiB', /8 · parallelism/],
      [{ input: 'x', passphrase: 'p', kdf: 'scrypt', logN: 20, blockSize: 8 }, 'logN', /256 MiB/],
      [{ input: 'x', passphrase: 'p', kdf: 'scrypt', logN: 18, blockSize: 8, parallelism: 2 }, 'logN', /2\^21/],
      [{ input: 'x', passphrase: 'p', iterations: 2_000_001 }, 'iterations', /./],
      [{ input: 'x', passphrase: '' }, 'passphrase', /./],
      [{ input: 'x', passphrase: 'p'.repeat(1025) }, 'passphrase', /./],
      [{ input: 'x', key: KEY, algorithm: 'aes-256-ecb' }, 'algorithm', /./],
    ]
    // A passphrase sends the work to a worker thread, started here first: its start is not a derivation.
    await expectRefusal(run({ input: 'x', passphrase: 'p', memoryKiB: 64 }), { code: 'VALIDATION_ERROR' })
    for (const [input, field, message] of cases) {
      const started = performance.now()
      await expectRefusal(run(input), { code: 'VALIDATION_ERROR', field, message })
      assert.ok(performance.now() - started < 1000, `${JSON.stringify(input)} is refused before any derivation runs`)
    }
  })

  test('what only processing finds is a 422: short combined values, no Salted__ header, partial CBC blocks, a short tag, bytes that are not UTF-8', async () => {
    await refusesQuietly(
      { action: 'decrypt', key: KEY, format: 'combined', input: Buffer.alloc(27).toString('base64') },
      'INVALID_INPUT',
      /27 bytes.*iv \(12\) \+ tag \(16\) = 28/,
    )
    await refusesQuietly(
      { action: 'decrypt', passphrase: 'pw', format: 'combined', algorithm: 'aes-128-cbc', input: Buffer.alloc(31).toString('base64') },
      'INVALID_INPUT',
      /salt \(16\) \+ iv \(16\) = 32/,
    )
    await refusesQuietly(
      { action: 'decrypt', passphrase: 'pw', format: 'openssl', input: 'aGVsbG8gd29ybGQsIG5vIGhlYWRlciBoZXJl' },
      'INVALID_INPUT',
      /Salted__ header/,
    )
    await refusesQuietly({ action: 'decrypt', passphrase: 'pw', format: 'openssl', input: '' }, 'INVALID_INPUT', /Salted__ header/)
    for (const length of [0, 15, 17]) {
      await refusesQuietly(
        { action: 'decrypt', key: KEY, algorithm: 'aes-256-cbc', iv: '00'.repeat(16), input: '00'.repeat(length), inputEncoding: 'hex' },
        'INVALID_INPUT',
        new RegExp(`ciphertext is ${length} bytes; CBC`),
      )
    }
    await refusesQuietly({ action: 'decrypt', key: KEY, iv: '00'.repeat(12), tag: '00'.repeat(17), input: '' }, 'INVALID_INPUT', /^tag is 17 bytes/)
    await refusesQuietly({ action: 'decrypt', key: KEY, iv: '00'.repeat(12), tag: '00'.repeat(16), input: '' }, 'INVALID_INPUT', /^authentication failed/)
    const bad = await refusesQuietly(
      { action: 'decrypt', key: KEY, algorithm: 'aes-256-cbc', iv: '00'.repeat(16), input: '00'.repeat(32), inputEncoding: 'hex' },
      'INVALID_INPUT',
      /^bad padding: wrong key or IV, or not CBC ciphertext$/,
    )
    assert.equal(bad.details, undefined)
    // CTR has no check: a wrong key gives other bytes, and bytes that are not UTF-8 are refused with the hint.
    const encrypted = await run({ input: 'hello there', key: KEY, algorithm: 'aes-256-ctr' })
    await refusesQuietly(
      { action: 'decrypt', key: '44'.repeat(32), algorithm: 'aes-256-ctr', iv: encrypted.iv, input: encrypted.result },
      'INVALID_INPUT',
      /not valid UTF-8.*outputEncoding/,
    )
    await refusesQuietly({ action: 'decrypt', key: KEY, iv: '00'.repeat(12), tag: '00'.repeat(16), input: '!!' }, 'INVALID_INPUT', /not base64/)
  })

  test('a wrong passphrase fails the same way as a wrong key, and errors never name the passphrase', async () => {
    const settings = { passphrase: 'hunter2-hunter2', iterations: 1000, format: 'combined' }
    const encrypted = await run({ ...settings, input: 'x' })
    await refusesQuietly(
      { ...settings, passphrase: 'hunter2-hunter3', action: 'decrypt', input: encrypted.result },
      'INVALID_INPUT',
      /^authentication failed/,
      ['hunter2'],
    )
  })
})

describe('cipher: limits and where it runs', () => {
  test('offloads inputs over 64 KiB and every passphrase derivation', () => {
    const offload = (input: Record<string, unknown>) => cipher.offload!(input as never)
    assert.equal(offload({ input: 'x' }), false)
    assert.equal(offload({ input: 'x'.repeat(64 * 1024 + 1) }), true)
    assert.equal(offload({ input: 'x', aad: 'a'.repeat(64 * 1024 + 1) }), true)
    assert.equal(offload({ input: 'x', passphrase: 'p' }), true)
    assert.equal(cipher.deliberatelySlow, true)
    assert.equal(cipher.allowGet, undefined)
  })

  test('the key and passphrase are secrets (writeOnly)', () => {
    const properties = cipher.input.properties as Record<string, { writeOnly?: boolean }>
    assert.deepEqual(
      Object.keys(properties).filter((field) => properties[field].writeOnly),
      ['key', 'passphrase'],
    )
  })

  test('a mebibyte of plaintext encrypts and decrypts quickly, on a worker thread', async () => {
    const input = 'a'.repeat(1024 * 1024)
    const started = performance.now()
    const encrypted = await run({ input, key: '55'.repeat(32) })
    const decrypted = await run({ action: 'decrypt', input: encrypted.result, key: '55'.repeat(32), iv: encrypted.iv, tag: encrypted.tag })
    assert.equal(decrypted.result, input)
    assert.ok(performance.now() - started < 5000)
  })
})
