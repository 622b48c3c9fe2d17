import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { createHMAC, createSHA3, createSHA256 } from 'hash-wasm'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { HASH_SLICE_BYTES } from '../../lib/crypto/digest.ts'
import { HMAC_ALGORITHMS, hmac, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(hmac, input)
const refuses = (input: Record<string, unknown>, code: string, pattern: RegExp) => expectRefusal(run(input), { code, message: pattern })

const hex = (byte: number, count: number) => byte.toString(16).padStart(2, '0').repeat(count)
const KEY_0102_TO_19 = Buffer.from(Array.from({ length: 25 }, (_, i) => i + 1)).toString('hex')

interface Case {
  key: string
  data: string
  dataIsHex?: boolean
  /** Compare only the first this many hex digits (RFC 4231 test case 5). */
  truncateTo?: number
  expected: Record<string, string>
}

// RFC 4231 §4.2–4.8: keys and data as hex or text, HMAC-SHA-224/256/384/512.
const RFC4231: Case[] = [
  {
    key: hex(0x0b, 20),
    data: 'Hi There',
    expected: {
      sha224: '896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22',
      sha256: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
      sha384: 'afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6',
      sha512: '87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854',
    },
  },
  {
    key: Buffer.from('Jefe').toString('hex'),
    data: 'what do ya want for nothing?',
    expected: {
      sha224: 'a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44',
      sha256: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      sha384: 'af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649',
      sha512: '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
    },
  },
  {
    key: hex(0xaa, 20),
    data: hex(0xdd, 50),
    dataIsHex: true,
    expected: {
      sha224: '7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea',
      sha256: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
      sha384: '88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27',
      sha512: 'fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb',
    },
  },
  {
    key: KEY_0102_TO_19,
    data: hex(0xcd, 50),
    dataIsHex: true,
    expected: {
      sha224: '6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a',
      sha256: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
      sha384: '3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb',
      sha512: 'b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd',
    },
  },
  {
    key: hex(0x0c, 20),
    data: 'Test With Truncation',
    truncateTo: 32,
    expected: {
      sha224: '0e2aea68a90c8d37c988bcdb9fca6fa8',
      sha256: 'a3b6167473100ee06e0c796c2955552b',
      sha384: '3abf34c3503b2a23a46efc619baef897',
      sha512: '415fad6271580a531d4179bc891d87a6',
    },
  },
  {
    key: hex(0xaa, 131),
    data: 'Test Using Larger Than Block-Size Key - Hash Key First',
    expected: {
      sha224: '95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e',
      sha256: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
      sha384: '4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952',
      sha512: '80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598',
    },
  },
  {
    key: hex(0xaa, 131),
    data: 'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
    expected: {
      sha224: '3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1',
      sha256: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
      sha384: '6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e',
      sha512: 'e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58',
    },
  },
]

// RFC 2202 §2 (HMAC-MD5) and §3 (HMAC-SHA-1), test cases 1–7.
const RFC2202_MD5: Array<[key: string, data: string, dataIsHex: boolean, digest: string]> = [
  [hex(0x0b, 16), 'Hi There', false, '9294727a3638bb1c13f48ef8158bfc9d'],
  [Buffer.from('Jefe').toString('hex'), 'what do ya want for nothing?', false, '750c783e6ab0b503eaa86e310a5db738'],
  [hex(0xaa, 16), hex(0xdd, 50), true, '56be34521d144c88dbb8c733f0e8b3f6'],
  [KEY_0102_TO_19, hex(0xcd, 50), true, '697eaf0aca3a3aea3a75164746ffaa79'],
  [hex(0x0c, 16), 'Test With Truncation', false, '56461ef2342edc00f9bab995690efd4c'],
  [hex(0xaa, 80), 'Test Using Larger Than Block-Size Key - Hash Key First', false, '6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd'],
  [hex(0xaa, 80), 'Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data', false, '6f630fad67cda0ee1fb1f562db3aa53e'],
]
const RFC2202_SHA1: Array<[key: string, data: string, dataIsHex: boolean, digest: string]> = [
  [hex(0x0b, 20), 'Hi There', false, 'b617318655057264e28bc0b6fb378c8ef146be00'],
  [Buffer.from('Jefe').toString('hex'), 'what do ya want for nothing?', false, 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79'],
  [hex(0xaa, 20), hex(0xdd, 50), true, '125d7342b9ac11cd91a39af48aa17b4f63f175d3'],
  [KEY_0102_TO_19, hex(0xcd, 50), true, '4c9007f4026250c6bc8414f9bf50c86c2d7235da'],
  [hex(0x0c, 20), 'Test With Truncation', false, '4c1a03424b55e07fe7f27be1d58bb9324a9a5a04'],
  [hex(0xaa, 80), 'Test Using Larger Than Block-Size Key - Hash Key First', false, 'aa4ae5e15272d00e95705637ce8a3b55ed402112'],
  [hex(0xaa, 80), 'Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data', false, 'e8e99d0f45237d786d6bbaa7965c7808bbff1a91'],
]

/** HMAC from hash-wasm, an implementation independent of node:crypto. */
async function referenceHmac(hash: ReturnType<typeof createSHA3>, key: Uint8Array, message: Uint8Array): Promise<string> {
  const hasher = await createHMAC(hash, key)
  hasher.init()
  hasher.update(message)
  return hasher.digest('hex')
}

describe('hmac', () => {
  test('RFC 4231 test cases 1–7 for HMAC-SHA-224/256/384/512', async () => {
    for (const [index, { key, data, dataIsHex, truncateTo, expected }] of RFC4231.entries()) {
      for (const [algorithm, digest] of Object.entries(expected)) {
        const { result } = await run({ input: data, inputEncoding: dataIsHex ? 'hex' : 'utf8', key, keyEncoding: 'hex', algorithm })
        const compared = truncateTo === undefined ? String(result) : String(result).slice(0, truncateTo)
        assert.equal(compared, digest, `RFC 4231 case ${index + 1}, ${algorithm}`)
      }
    }
  })

  test('RFC 2202 test cases 1–7 for HMAC-MD5 and HMAC-SHA-1', async () => {
    for (const [algorithm, cases] of [
      ['md5', RFC2202_MD5],
      ['sha1', RFC2202_SHA1],
    ] as const) {
      for (const [index, [key, data, dataIsHex, digest]] of cases.entries()) {
        const { result } = await run({ input: data, inputEncoding: dataIsHex ? 'hex' : 'utf8', key, keyEncoding: 'hex', algorithm })
        assert.equal(result, digest, `RFC 2202 ${algorithm} case ${index + 1}`)
      }
    }
  })

  test('HMAC-SHA3 agrees with an independent implementation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 200 }),
        fc.constantFrom(256, 384, 512) as fc.Arbitrary<256 | 384 | 512>,
        async (key, message, bits) => {
          const { result } = await run({
            input: Buffer.from(message).toString('hex'),
            inputEncoding: 'hex',
            key: Buffer.from(key).toString('base64'),
            keyEncoding: 'base64',
            algorithm: `SHA3-${bits}`,
          })
          assert.equal(result, await referenceHmac(createSHA3(bits), key, message))
        },
      ),
      { numRuns: 100 },
    )
  })

  test('a message larger than a hashing slice gives the same code as an independent implementation', async () => {
    const key = randomBytes(40)
    const message = randomBytes(3 * HASH_SLICE_BYTES + 5)
    for (const [algorithm, reference] of [
      ['sha256', createSHA256()],
      ['sha3-512', createSHA3(512)],
    ] as const) {
      const { result } = await run({ input: message.toString('base64'), inputEncoding: 'base64', key: key.toString('hex'), keyEncoding: 'hex', algorithm })
      assert.equal(result, await referenceHmac(reference, key, message), algorithm)
    }
  })

  test('the key may be empty, UTF-8 text (default), hex or base64', async () => {
    // HMAC-SHA256 with an empty key of an empty message.
    assert.equal((await run({ input: '', key: '' })).result, 'b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad')
    const jefe = RFC4231[1].expected.sha256
    assert.equal((await run({ input: 'what do ya want for nothing?', key: 'Jefe' })).result, jefe)
    assert.equal((await run({ input: 'what do ya want for nothing?', key: 'SmVmZQ==', keyEncoding: 'base64' })).result, jefe)
    assert.equal((await run({ input: 'what do ya want for nothing?', key: '4a 65 66 65', keyEncoding: 'hex' })).result, jefe)
  })

  test('defaults to sha256 and hex, answers result, algorithm, encoding (and matches) in order', async () => {
    const data = await run({ input: 'what do ya want for nothing?', key: 'Jefe' })
    assert.deepEqual(data, { result: RFC4231[1].expected.sha256, algorithm: 'sha256', encoding: 'hex' })
    assert.deepEqual(Object.keys(await run({ input: 'x', key: 'k', expected: 'ab' })), ['result', 'algorithm', 'encoding', 'matches'])
  })

  test('spellings follow the hash rules; algorithms outside the HMAC list are 400s listing the list', async () => {
    for (const [spelling, canonical] of [
      ['MD5', 'md5'],
      ['SHA-1', 'sha1'],
      ['SHA-256', 'sha256'],
      ['SHA-512', 'sha512'],
      ['Sha3-384', 'sha3-384'],
      ['sha-3-256', 'sha3-256'],
    ]) {
      assert.equal((await run({ input: 'x', key: 'k', algorithm: spelling })).algorithm, canonical)
    }
    for (const algorithm of ['sha512-256', 'sha3-224', 'blake3', 'crc32', 'hmac-sha256']) {
      await assert.rejects(run({ input: 'x', key: 'k', algorithm }), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'VALIDATION_ERROR')
        assert.match(error.message, /^algorithm /)
        for (const name of HMAC_ALGORITHMS) assert.ok(error.message.includes(name), `the message lists ${name}`)
        return true
      })
    }
  })

  test('base64 and base64url output', async () => {
    const bytes = Buffer.from(RFC4231[1].expected.sha512, 'hex')
    assert.equal((await run({ input: 'what do ya want for nothing?', key: 'Jefe', algorithm: 'sha512', encoding: 'base64' })).result, bytes.toString('base64'))
    assert.equal(
      (await run({ input: 'what do ya want for nothing?', key: 'Jefe', algorithm: 'sha512', encoding: 'base64url' })).result,
      bytes.toString('base64url'),
    )
  })

  test('expected is verified: match, mismatch, hex in any case, other lengths', async () => {
    const digest = RFC4231[1].expected.sha256
    const verify = async (expected: string, encoding = 'hex') => (await run({ input: 'what do ya want for nothing?', key: 'Jefe', encoding, expected })).matches
    assert.equal(await verify(digest), true)
    assert.equal(await verify(digest.toUpperCase()), true)
    assert.equal(await verify(`${digest.slice(0, -1)}4`), false)
    assert.equal(await verify(digest.slice(0, 32)), false)
    assert.equal(await verify(Buffer.from(digest, 'hex').toString('base64'), 'base64'), true)
    assert.equal(await verify(Buffer.from(digest, 'hex').toString('base64url'), 'base64url'), true)
  })

  test('a malformed key is a 422 that never quotes the key', async () => {
    const secrets: Array<[key: string, keyEncoding: string, pattern: RegExp]> = [
      ['deadbeefQsecretZ', 'hex', /position 8/],
      ['Q', 'hex', /position 0/],
      ['abc', 'hex', /length/],
      ['c2VjcmV0*Kq', 'base64', /position 8/],
      ['c2VjcmV0K', 'base64', /length/],
    ]
    for (const [key, keyEncoding, pattern] of secrets) {
      await assert.rejects(run({ input: 'message', key, keyEncoding }), (error: Error & { code?: string; details?: unknown }) => {
        assert.equal(error.code, 'INVALID_INPUT')
        assert.match(error.message, /^key is not valid/)
        assert.match(error.message, pattern)
        const shown = error.message + JSON.stringify(error.details)
        assert.ok(!shown.includes(key), 'the key is not in the error')
        assert.ok(!/'.'/.test(error.message), 'no character of the key is quoted')
        return true
      })
    }
  })

  test('a key that is not Unicode text is refused without telling anything of it', async () => {
    await assert.rejects(run({ input: 'message', key: 'sec\ud800ret' }), (error: Error & { code?: string; details?: unknown }) => {
      assert.equal(error.code, 'INVALID_INPUT')
      assert.equal(error.message, 'key contains a lone surrogate, which is not Unicode text')
      assert.deepEqual(error.details, { field: 'key' })
      return true
    })
  })

  test('the key is never echoed in a response or a schema error', async () => {
    const key = 'my-very-secret-key-0123456789'
    const data = await run({ input: 'hello', key, expected: 'ff' })
    assert.ok(!JSON.stringify(data).includes(key))
    const longKey = `${key}${'s'.repeat(4096)}`
    await assert.rejects(run({ input: 'hello', key: longKey }), (error: Error & { code?: string; details?: unknown }) => {
      assert.equal(error.code, 'VALIDATION_ERROR')
      assert.match(error.message, /^key must be at most 4096 characters long/)
      assert.ok(!(error.message + JSON.stringify(error.details)).includes(key))
      return true
    })
  })

  test('schema bounds and types are 400s', async () => {
    await refuses({ input: 'x' }, 'VALIDATION_ERROR', /^key is required/)
    await refuses({ key: 'k' }, 'VALIDATION_ERROR', /^input is required/)
    await refuses({ input: 'x', key: 7 }, 'VALIDATION_ERROR', /^key must be a string/)
    await refuses({ input: 'x', key: 'k', keyEncoding: 'latin1' }, 'VALIDATION_ERROR', /^keyEncoding must be one of: utf8, hex, base64/)
    await refuses({ input: 'x', key: 'k', encoding: 'binary' }, 'VALIDATION_ERROR', /^encoding must be one of/)
    await refuses({ input: 'x', key: 'k', uppercase: true }, 'VALIDATION_ERROR', /^uppercase is not a known field/)
    assert.equal((await run({ input: 'x', key: 'k'.repeat(4096) })).algorithm, 'sha256')
  })
})

describe('hmac: where it runs', () => {
  test(`hex or base64 inputs over ${OFFLOAD_LENGTH} characters are decoded on a worker thread; text, hashed in slices, stays`, () => {
    const offloads = (input: string, inputEncoding: string) => hmac.offload!(validate(hmac.input, { input, inputEncoding, key: 'k' }))
    for (const encoding of ['hex', 'base64']) {
      assert.equal(offloads('0'.repeat(OFFLOAD_LENGTH), encoding), false, encoding)
      assert.equal(offloads('0'.repeat(OFFLOAD_LENGTH + 1), encoding), true, encoding)
    }
    for (const encoding of ['utf8', 'latin1']) assert.equal(offloads('0'.repeat(4 * OFFLOAD_LENGTH), encoding), false, encoding)
  })
})
