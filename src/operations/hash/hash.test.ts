import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { crc32 } from 'node:zlib'
import fc from 'fast-check'
import { blake2b, blake2s, blake3, keccak, whirlpool } from 'hash-wasm'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { algorithmPattern, canonicalAlgorithm, HASH_SLICE_BYTES } from '../../lib/crypto/digest.ts'
import { HASH_ALGORITHMS, hash, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(hash, input, { timeBudgetMs: 60_000 })
const refuses = (input: Record<string, unknown>, code: string, pattern: RegExp) => expectRefusal(run(input), { code, message: pattern })

// FIPS 180-4 (SHA-1, SHA-2) and FIPS 202 (SHA-3) example values for "" and "abc"; BLAKE2 from RFC 7693
// and the reference implementation's test vectors; BLAKE3 from the reference implementation.
const KNOWN_ANSWERS: Record<string, [empty: string, abc: string]> = {
  sha1: ['da39a3ee5e6b4b0d3255bfef95601890afd80709', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
  sha224: ['d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f', '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7'],
  sha256: ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  sha384: [
    '38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b',
    'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7',
  ],
  sha512: [
    'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
    'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
  ],
  'sha512-256': ['c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a', '53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23'],
  'sha3-224': ['6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7', 'e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf'],
  'sha3-256': ['a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a', '3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532'],
  'sha3-384': [
    '0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004',
    'ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25',
  ],
  'sha3-512': [
    'a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26',
    'b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0',
  ],
  blake2b512: [
    '786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce',
    'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923',
  ],
  blake2s256: ['69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9', '508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982'],
  blake3: ['af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262', '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85'],
  // FIPS 180-4's SHA-512/224 examples (NIST CSRC).
  'sha512-224': ['6ed0dd02806fa89e25de060c19d3ac86cabb87d6a0ddd05c333b84f4', '4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa'],
  // Keccak with its original padding, as the Keccak team's reference and Ethereum compute it.
  'keccak-224': ['f71837502ba8e10837bdd8d365adb85591895602fc552b48b7390abd', 'c30411768506ebe1c2871b1ee2e87d38df342317300a9b97a95ec6a8'],
  'keccak-256': ['c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470', '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45'],
  'keccak-384': [
    '2c23146a63a29acf99e73b88f8c24eaa7dc60aa771780ccc006afbfa8fe2479b2dd2b21362337441ac12b515911957ff',
    'f7df1165f033337be098e7d288ad6a2f74409d7a60b49c36642218de161b1f99f8c681e4afaf31a34db29fb763e3c28e',
  ],
  'keccak-512': [
    '0eab42de4c3ceb9235fc91acffe746b29c29a8c366b7c60e4e67c466f36a4304c00fa9caf9d87976ba469bcbe06713b435f091ef2769fb160cdab33d3670680e',
    '18587dc2ea106b9a1563e32b3312421ca164c7f1f07bc922a9c83d77cea3a1e5d0c69910739025372dc14ac9642629379540c17e2a65b19d77aa511a9d00bb96',
  ],
  // Bosselaers' RIPEMD-160 page.
  ripemd160: ['9c1185a5c5e9fc54612808977ee8f548b2258d31', '8eb208f7e05d987a9b044a8e98c6b087f15a0bfc'],
  // GB/T 32905-2016 Appendix A gives "abc"; "" is OpenSSL's answer.
  sm3: ['1ab21d8355cfa17f8e61194831e81a8f22bec8c728fefb747ed035eb5082aa2b', '66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0'],
  // ISO/IEC 10118-3's Whirlpool test vectors.
  whirlpool: [
    '19fa61d75522a4669b44e39c1d2e1726c530232130d407f89afee0964997f7a73e83be698b288febcf88e3e03c4f0757ea8964e59b63d93708b138cc42a66eb3',
    '4e2448a4c6f486bb16b6562c73b4020bf3043e3a731bce721ae1b303d97e6d4c7181eebdb6c57e277d0e34957114cbd6c797fc9d95d8b582d225292076d4eef5',
  ],
  blake2b: [
    '786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce',
    'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923',
  ],
  blake2s: ['69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9', '508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982'],
}

/** The digest length asked for where one must be: SHAKE's. */
const LENGTHS: Record<string, number> = { shake128: 256, shake256: 512 }
const withLength = (algorithm: string) => (algorithm in LENGTHS ? { algorithm, length: LENGTHS[algorithm] } : { algorithm })

// FIPS 202's SHAKE examples (NIST CSRC example values), at the lengths of LENGTHS.
const SHAKE_ANSWERS: Record<string, [empty: string, abc: string]> = {
  shake128: ['7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26', '5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8'],
  shake256: [
    '46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be',
    '483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4',
  ],
}

// Bosselaers' RIPEMD-160 page: the rest of its messages.
const RIPEMD160_SUITE: Array<[string, string]> = [
  ['a', '0bdc9d2d256b3ee9daae347be6f4dc835a467ffe'],
  ['message digest', '5d0689ef49d2fae572b881b123a85ffa21595f36'],
  ['abcdefghijklmnopqrstuvwxyz', 'f71c27109c692c1b56bbdceb5b9d2865b3708dbc'],
  ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '12a053384a9c0c88e405a06c27dcf49ada62eb2b'],
  ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'b0e20b6e3116640286ed3a87a5713079b21f5189'],
  ['1234567890'.repeat(8), '9b752e45573d4b39f4dbd3323cab82bf63326bfb'],
]

// ISO/IEC 10118-3's Whirlpool test vectors: the rest of its messages.
const WHIRLPOOL_SUITE: Array<[string, string]> = [
  ['a', '8aca2602792aec6f11a67206531fb7d7f0dff59413145e6973c45001d0087b42d11bc645413aeff63a42391a39145a591a92200d560195e53b478584fdae231a'],
  ['message digest', '378c84a4126e2dc6e56dcc7458377aac838d00032230f53ce1f5700c0ffb4d3b8421557659ef55c106b4b52ac5a4aaa692ed920052838f3362e86dbd37a8903e'],
  [
    'abcdefghijklmnopqrstuvwxyz',
    'f1d754662636ffe92c82ebb9212a484a8d38631ead4238f5442ee13b8054e41b08bf2a9251c30b6a0b8aae86177ab4a6f68f673e7207865d5d9819a3dba4eb3b',
  ],
  [
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
    'dc37e008cf9ee69bf11f00ed9aba26901dd7c28cdec066cc6af42e40f82f3a1e08eba26629129d8fb7cb57211b9281a65517cc879d7b962142c65f5a7af01467',
  ],
  ['1234567890'.repeat(8), '466ef18babb0154d25b9d38a6414f5c08784372bccb204d6549c4afadb6014294d5bd8df2a6c44e538cd047b2681a51a2c60481e88c5a20b2c2a80cf3a9a083b'],
  [
    'abcdbcdecdefdefgefghfghighijhijk',
    '2a987ea40f917061f5d6f0a0e4644f488a7a5a52deee656207c562f988e95c6916bdc8031bc5be1b7b947639fe050b56939baaa0adff9ae6745b7b181c3be3fd',
  ],
]

const suiteFile = (path: string) => readFileSync(new URL(`../../../test/fixtures/suites/${path}`, import.meta.url), 'utf8')

// RFC 1321 §A.5 test suite.
const MD5_SUITE: Array<[string, string]> = [
  ['', 'd41d8cd98f00b204e9800998ecf8427e'],
  ['a', '0cc175b9c0f1b6a831c399e269772661'],
  ['abc', '900150983cd24fb0d6963f7d28e17f72'],
  ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
  ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
  ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 'd174ab98d277d9f5a5611c2c9f419d9f'],
  ['1234567890'.repeat(8), '57edf4a22be3c955ac49da2e2107b67a'],
]

const BITS: Record<string, number> = {
  md5: 128,
  sha1: 160,
  sha224: 224,
  sha256: 256,
  sha384: 384,
  sha512: 512,
  'sha512-256': 256,
  'sha3-224': 224,
  'sha3-256': 256,
  'sha3-384': 384,
  'sha3-512': 512,
  blake2b512: 512,
  blake2s256: 256,
  blake3: 256,
  crc32: 32,
  'sha512-224': 224,
  shake128: 256,
  shake256: 512,
  'keccak-224': 224,
  'keccak-256': 256,
  'keccak-384': 384,
  'keccak-512': 512,
  ripemd160: 160,
  sm3: 256,
  whirlpool: 512,
  blake2b: 512,
  blake2s: 256,
}

/** The digest computed in one call, without the operation's slicing. */
async function oneShotHex(algorithm: string, bytes: Buffer): Promise<string> {
  if (algorithm === 'blake3') return blake3(bytes)
  if (algorithm === 'crc32') return crc32(bytes).toString(16).padStart(8, '0')
  if (algorithm.startsWith('keccak-')) return keccak(bytes, Number(algorithm.slice(7)) as 224 | 256 | 384 | 512)
  if (algorithm === 'whirlpool') return whirlpool(bytes)
  if (algorithm === 'blake2b') return blake2b(bytes)
  if (algorithm === 'blake2s') return blake2s(bytes)
  if (algorithm in LENGTHS)
    return createHash(algorithm, { outputLength: LENGTHS[algorithm] / 8 })
      .update(bytes)
      .digest('hex')
  return createHash(algorithm).update(bytes).digest('hex')
}

describe('hash', () => {
  test('FIPS 180-4, FIPS 202, BLAKE2 and BLAKE3 known answers for "" and "abc"', async () => {
    for (const [algorithm, [empty, abc]] of Object.entries({ ...KNOWN_ANSWERS, ...SHAKE_ANSWERS })) {
      assert.equal((await run({ input: '', ...withLength(algorithm) })).result, empty, `${algorithm}("")`)
      assert.equal((await run({ input: 'abc', ...withLength(algorithm) })).result, abc, `${algorithm}("abc")`)
    }
  })

  test('RFC 1321 MD5 test suite', async () => {
    for (const [text, digest] of MD5_SUITE) assert.equal((await run({ input: text, algorithm: 'md5' })).result, digest, `md5(${JSON.stringify(text)})`)
  })

  test('CRC-32 check value of "123456789" is cbf43926, 8 hex digits big-endian', async () => {
    assert.deepEqual(await run({ input: '123456789', algorithm: 'crc32' }), { result: 'cbf43926', algorithm: 'crc32', encoding: 'hex', bits: 32 })
    assert.equal((await run({ input: '', algorithm: 'crc32' })).result, '00000000')
    assert.equal((await run({ input: 'a', algorithm: 'crc32' })).result, 'e8b7be43')
    assert.equal((await run({ input: '123456789', algorithm: 'crc32', encoding: 'base64' })).result, Buffer.from('cbf43926', 'hex').toString('base64'))
  })

  test('defaults to sha256 and hex; answers result, algorithm, encoding, bits in that order', async () => {
    const data = await run({ input: 'abc' })
    assert.deepEqual(Object.keys(data), ['result', 'algorithm', 'encoding', 'bits'])
    assert.deepEqual(data, { result: KNOWN_ANSWERS.sha256[1], algorithm: 'sha256', encoding: 'hex', bits: 256 })
  })

  test('bits is the digest size of each algorithm', async () => {
    assert.deepEqual(Object.keys(BITS).sort(), [...HASH_ALGORITHMS].sort())
    for (const algorithm of HASH_ALGORITHMS) {
      const data = await run({ input: 'x', ...withLength(algorithm) })
      assert.equal(data.bits, BITS[algorithm], algorithm)
      assert.equal(String(data.result).length, BITS[algorithm] / 4, algorithm)
    }
  })

  test('upper-case spellings and other accepted spellings answer with the canonical name', async () => {
    const spellings: Record<string, string> = {
      MD5: 'md5',
      'SHA-1': 'sha1',
      'SHA-256': 'sha256',
      'SHA-512': 'sha512',
      SHA384: 'sha384',
      'sha-224': 'sha224',
      'SHA3-256': 'sha3-256',
      'SHA-3-512': 'sha3-512',
      'SHA-512/256': 'sha512-256',
      'sha512/256': 'sha512-256',
      'Sha-512-256': 'sha512-256',
      BLAKE3: 'blake3',
      BLAKE2b512: 'blake2b512',
      Blake2S256: 'blake2s256',
      CRC32: 'crc32',
      'SHA-512/224': 'sha512-224',
      'sha512/224': 'sha512-224',
      SHAKE128: 'shake128',
      'Keccak-256': 'keccak-256',
      RIPEMD160: 'ripemd160',
      SM3: 'sm3',
      Whirlpool: 'whirlpool',
      BLAKE2b: 'blake2b',
    }
    for (const [spelling, canonical] of Object.entries(spellings)) {
      const data = await run({ input: 'abc', ...withLength(canonical), algorithm: spelling })
      assert.equal(data.algorithm, canonical, spelling)
      assert.equal(data.result, (await run({ input: 'abc', ...withLength(canonical) })).result, spelling)
    }
    assert.equal((await run({ input: 'abc', algorithm: 'SHA-1' })).result, KNOWN_ANSWERS.sha1[1])
    assert.equal((await run({ input: 'abc', algorithm: 'SHA-512' })).result, KNOWN_ANSWERS.sha512[1])
  })

  test('expected takes a digest as long as the longest length asks for (16,384 bits, 4,096 hex digits)', async () => {
    const { result } = (await run({ input: 'abc', algorithm: 'shake256', length: 16_384 })) as { result: string }
    assert.equal(result.length, 4096)
    assert.equal(((await run({ input: 'abc', algorithm: 'shake256', length: 16_384, expected: result.toUpperCase() })) as { matches: boolean }).matches, true)
  })

  test('an unknown algorithm is a 400 that lists the canonical names', async () => {
    for (const algorithm of [
      'whirlpool2',
      'sha',
      'sha256 ',
      'sha--256',
      'sha3256',
      'md-5',
      'blake2b-512',
      'sha3-512/256',
      'sha-ke128',
      'keccak256',
      'shake512',
      '',
    ]) {
      await assert.rejects(run({ input: 'abc', algorithm }), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'VALIDATION_ERROR', algorithm)
        for (const name of HASH_ALGORITHMS) assert.ok(error.message.includes(name), `the message lists ${name}`)
        return true
      })
    }
  })

  test('the schema pattern accepts exactly the spellings that normalise to an algorithm', () => {
    const pattern = new RegExp(algorithmPattern(HASH_ALGORITHMS), 'u')
    const respell = fc
      .tuple(
        fc.constantFrom(...HASH_ALGORITHMS),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        fc.constantFrom('', '-', '/', '--', '_', ' '),
        fc.nat(12),
      )
      .map(([name, upper, insert, at]) => {
        const cased = Array.from(name, (character, i) => (upper[i] ? character.toUpperCase() : character)).join('')
        return cased.slice(0, at) + insert + cased.slice(at)
      })
    fc.assert(
      fc.property(fc.oneof(respell, fc.string({ unit: fc.constantFrom(...'shaSHA-/1235bBlkeKcrCmdD') })), (spelling) => {
        assert.equal(pattern.test(spelling), (HASH_ALGORITHMS as readonly string[]).includes(canonicalAlgorithm(spelling)), spelling)
      }),
      { numRuns: 2000 },
    )
  })

  test('base64, base64url and upper-case hex', async () => {
    const bytes = Buffer.from(KNOWN_ANSWERS.sha256[1], 'hex')
    assert.equal((await run({ input: 'abc', encoding: 'base64' })).result, bytes.toString('base64'))
    assert.equal((await run({ input: 'abc', encoding: 'base64url' })).result, 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
    assert.equal((await run({ input: 'abc', uppercase: true })).result, KNOWN_ANSWERS.sha256[1].toUpperCase())
    assert.equal((await run({ input: 'abc', encoding: 'base64', uppercase: false })).result, bytes.toString('base64'))
  })

  test('uppercase with a base64 encoding is a 400, not silently ignored', async () => {
    await refuses({ input: 'abc', encoding: 'base64', uppercase: true }, 'VALIDATION_ERROR', /^uppercase applies only to encoding hex/)
    await refuses({ input: 'abc', encoding: 'base64url', uppercase: true }, 'VALIDATION_ERROR', /^uppercase/)
  })

  test('inputEncoding reads hex, base64 and Latin-1 bytes; bad encoded input is a 422 with its position', async () => {
    const abc = KNOWN_ANSWERS.sha256[1]
    assert.equal((await run({ input: '616263', inputEncoding: 'hex' })).result, abc)
    assert.equal((await run({ input: 'YWJj', inputEncoding: 'base64' })).result, abc)
    assert.equal((await run({ input: 'abc', inputEncoding: 'latin1' })).result, abc)
    // "é" is one byte in Latin-1 and two in UTF-8.
    assert.equal(
      (await run({ input: '\u00e9', inputEncoding: 'latin1', algorithm: 'md5' })).result,
      (await run({ input: 'e9', inputEncoding: 'hex', algorithm: 'md5' })).result,
    )
    assert.notEqual((await run({ input: '\u00e9', algorithm: 'md5' })).result, (await run({ input: 'e9', inputEncoding: 'hex', algorithm: 'md5' })).result)
    await refuses({ input: '61zz', inputEncoding: 'hex' }, 'INVALID_INPUT', /position 2/)
    await refuses({ input: '\u0100', inputEncoding: 'latin1' }, 'INVALID_INPUT', /position 0/)
  })

  test('expected: matching, non-matching, any hex case, optional base64 padding, other lengths', async () => {
    const abc = KNOWN_ANSWERS.sha256[1]
    const verify = async (expected: string, extra: Record<string, unknown> = {}) => (await run({ input: 'abc', expected, ...extra })).matches
    assert.equal(await verify(abc), true)
    assert.equal(await verify(abc.toUpperCase()), true)
    assert.equal(await verify(abc, { uppercase: true }), true)
    assert.equal(await verify(abc.replace(/^b/, 'c')), false)
    assert.equal(await verify(abc.slice(0, -2)), false)
    assert.equal(await verify(`${abc}00`), false)
    assert.equal(await verify(''), false)
    assert.equal(await verify(KNOWN_ANSWERS.sha256[0]), false)
    const base64 = Buffer.from(abc, 'hex').toString('base64')
    assert.equal(await verify(base64, { encoding: 'base64' }), true)
    assert.equal(await verify(base64.replace(/=+$/, ''), { encoding: 'base64' }), true)
    assert.equal(await verify(base64.toLowerCase(), { encoding: 'base64' }), false)
    assert.equal(await verify(`${Buffer.from(abc, 'hex').toString('base64url')}=`, { encoding: 'base64url' }), true)
    assert.equal(await verify(abc, { encoding: 'base64' }), false)
    assert.deepEqual(Object.keys(await run({ input: 'abc', expected: abc })), ['result', 'algorithm', 'encoding', 'bits', 'matches'])
    assert.equal('matches' in (await run({ input: 'abc' })), false)
  })

  test('schema bounds and types are 400s', async () => {
    await refuses({}, 'VALIDATION_ERROR', /^input is required/)
    await refuses({ input: 1 }, 'VALIDATION_ERROR', /^input must be a string/)
    await refuses({ input: 'abc', encoding: 'base32' }, 'VALIDATION_ERROR', /^encoding must be one of: hex, base64, base64url/)
    await refuses({ input: 'abc', uppercase: 'true' }, 'VALIDATION_ERROR', /^uppercase must be a boolean/)
    await refuses({ input: 'abc', expected: 'a'.repeat(4097) }, 'VALIDATION_ERROR', /^expected must be at most 4096/)
    await refuses({ input: 'abc', algorithm: 'MD5', salt: 'x' }, 'VALIDATION_ERROR', /^salt is not a known field/)
  })

  test('any bytes hash the same through every input encoding', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(...HASH_ALGORITHMS), async (bytes, algorithm) => {
        const buffer = Buffer.from(bytes)
        const viaHex = await run({ input: buffer.toString('hex'), inputEncoding: 'hex', ...withLength(algorithm) })
        const viaBase64 = await run({ input: buffer.toString('base64'), inputEncoding: 'base64', ...withLength(algorithm) })
        const viaLatin1 = await run({ input: buffer.toString('latin1'), inputEncoding: 'latin1', ...withLength(algorithm) })
        assert.equal(String(viaHex.result).length, BITS[algorithm] / 4, 'leading zeros are kept')
        assert.equal(viaBase64.result, viaHex.result)
        assert.equal(viaLatin1.result, viaHex.result)
        assert.equal(
          (await run({ input: buffer.toString('hex'), inputEncoding: 'hex', ...withLength(algorithm), expected: String(viaHex.result).toUpperCase() })).matches,
          true,
        )
      }),
      { numRuns: 200 },
    )
  })

  test('FIPS long-message known answers: a million "a", hashed across several slices', async () => {
    const input = 'a'.repeat(1_000_000)
    assert.ok(input.length > 3 * HASH_SLICE_BYTES)
    const expected: Record<string, string> = {
      md5: '7707d6ae4e027c70eea2a935c2296f21',
      sha1: '34aa973cd4c4daa4f61eeb2bdbad27316534016f',
      sha256: 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
      sha512: 'e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b',
      'sha3-256': '5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1',
    }
    for (const [algorithm, digest] of Object.entries(expected)) assert.equal((await run({ input, algorithm })).result, digest, algorithm)
  })

  test('slicing gives the one-shot digest for every algorithm at and around slice boundaries', async () => {
    for (const size of [HASH_SLICE_BYTES - 1, HASH_SLICE_BYTES, HASH_SLICE_BYTES + 1, 4 * HASH_SLICE_BYTES + 3]) {
      const bytes = randomBytes(size)
      const base64 = bytes.toString('base64')
      for (const algorithm of HASH_ALGORITHMS) {
        assert.equal(
          (await run({ input: base64, inputEncoding: 'base64', ...withLength(algorithm) })).result,
          await oneShotHex(algorithm, bytes),
          `${algorithm}, ${size} bytes`,
        )
      }
    }
  })

  test('concurrent large inputs, interleaving their slices, keep their states apart', async () => {
    const inputs = Array.from({ length: 6 }, () => randomBytes(2 * HASH_SLICE_BYTES + 11))
    for (const algorithm of ['blake3', 'crc32', 'sha3-256'] as const) {
      // Latin-1, not base64: these stay in process, where the slices interleave.
      const answers = await Promise.all(inputs.map((bytes) => run({ input: bytes.toString('latin1'), inputEncoding: 'latin1', algorithm })))
      for (const [index, bytes] of inputs.entries()) {
        assert.equal(answers[index].result, await oneShotHex(algorithm, bytes), `${algorithm}, input ${index}`)
      }
    }
  })

  test('a large input lets the event loop run between slices; a small one finishes at once', async () => {
    const ticksDuring = async (input: string) => {
      let ticked = false
      setImmediate(() => {
        ticked = true
      })
      await run({ input, algorithm: 'sha256' })
      return ticked
    }
    assert.equal(await ticksDuring('x'.repeat(HASH_SLICE_BYTES + 1)), true)
    assert.equal(await ticksDuring('x'.repeat(HASH_SLICE_BYTES)), false)
  })

  test('RIPEMD-160 (Bosselaers), Whirlpool (ISO/IEC 10118-3) and SM3 (GB/T 32905-2016) example suites', async () => {
    for (const [text, digest] of RIPEMD160_SUITE)
      assert.equal((await run({ input: text, algorithm: 'ripemd160' })).result, digest, `ripemd160(${JSON.stringify(text)})`)
    for (const [text, digest] of WHIRLPOOL_SUITE)
      assert.equal((await run({ input: text, algorithm: 'whirlpool' })).result, digest, `whirlpool(${JSON.stringify(text)})`)
    assert.equal((await run({ input: 'abcd'.repeat(16), algorithm: 'sm3' })).result, 'debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732')
    const million = 'a'.repeat(1_000_000)
    assert.equal((await run({ input: million, algorithm: 'ripemd160' })).result, '52783243c1697bdbe16d37f97f68f08325dc1528')
    assert.equal(
      (await run({ input: million, algorithm: 'whirlpool' })).result,
      '0c99005beb57eff50a7cf005560ddf5d29057fd86b20bfd62deca0f1ccea4af51fc15490eddc47af32bb2b66c34ff9ad8c6008ad677f77126953b226e4ed8b01',
    )
  })

  test("BLAKE2's reference known answers: every unkeyed blake2b and blake2s case of blake2-kat.json", async () => {
    const cases = JSON.parse(suiteFile('blake2-kat/blake2-kat-unkeyed.json')) as Array<{ hash: string; in: string; key: string; out: string }>
    assert.equal(cases.length, 512)
    for (const entry of cases) {
      const data = await run({ input: entry.in, inputEncoding: 'hex', algorithm: entry.hash })
      assert.equal(data.result, entry.out, `${entry.hash}, ${entry.in.length / 2} bytes`)
      const fixed = entry.hash === 'blake2b' ? 'blake2b512' : 'blake2s256'
      assert.equal((await run({ input: entry.in, inputEncoding: 'hex', algorithm: fixed })).result, entry.out, `${fixed}, ${entry.in.length / 2} bytes`)
    }
  })

  test("BLAKE3's official test vectors: every case, at the default length and the full extended output", async () => {
    const vectors = JSON.parse(suiteFile('blake3-test-vectors/test_vectors.json')) as { cases: Array<{ input_len: number; hash: string }> }
    assert.equal(vectors.cases.length, 35)
    for (const { input_len: size, hash: expected } of vectors.cases) {
      const input = Buffer.from(Array.from({ length: size }, (_, i) => i % 251)).toString('base64')
      assert.equal((await run({ input, inputEncoding: 'base64', algorithm: 'blake3' })).result, expected.slice(0, 64), `${size} bytes`)
      const extended = await run({ input, inputEncoding: 'base64', algorithm: 'blake3', length: expected.length * 4 })
      assert.deepEqual([extended.result, extended.bits], [expected, expected.length * 4], `${size} bytes, extended`)
    }
  })

  test('variable lengths: BLAKE2 at other sizes, SHAKE and BLAKE3 read further, bits reports the length', async () => {
    // Values from Python's hashlib (blake2b/blake2s with digest_size, shake_128), computed once.
    const cases: Array<[algorithm: string, length: number, digest: string]> = [
      ['blake2b', 256, 'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319'],
      ['blake2b', 160, '384264f676f39536840523f284921cdc68b6846b'],
      ['blake2b', 8, '6b'],
      ['blake2s', 128, 'aa4938119b1dc7b87cbad0ffd200d0ae'],
      ['blake2s', 160, '5ae3b99be29b01834c3b508521ede60438f8de17'],
      ['blake2s', 8, '0d'],
    ]
    for (const [algorithm, length, digest] of cases) {
      assert.deepEqual(await run({ input: 'abc', algorithm, length }), { result: digest, algorithm, encoding: 'hex', bits: length }, `${algorithm}/${length}`)
    }
    const long = await run({ input: '', algorithm: 'shake128', length: 16_384 })
    assert.equal(String(long.result).length, 4096)
    assert.equal(String(long.result).slice(-32), '10e7e33816e581d85fc48a77254c23bb')
    assert.ok(String(long.result).startsWith(SHAKE_ANSWERS.shake128[0]))
    assert.equal((await run({ input: '', algorithm: 'shake256', length: 8 })).result, '46')
    const blake3Long = await run({ input: '', algorithm: 'blake3', length: 512 })
    assert.equal(blake3Long.result, `${KNOWN_ANSWERS.blake3[0]}e00f03e7b69af26b7faaf09fcd333050338ddfe085b8cc869ca98b206c08243a`)
  })

  test('length: required for SHAKE, bounded per algorithm, refused for fixed sizes', async () => {
    await refuses({ input: 'abc', algorithm: 'shake128' }, 'VALIDATION_ERROR', /^length is required with shake128/)
    await refuses({ input: 'abc', algorithm: 'SHAKE256' }, 'VALIDATION_ERROR', /^length is required with shake256/)
    await refuses({ input: 'abc', algorithm: 'blake2b', length: 520 }, 'VALIDATION_ERROR', /^length must be at most 512 with blake2b/)
    await refuses({ input: 'abc', algorithm: 'blake2s', length: 264 }, 'VALIDATION_ERROR', /^length must be at most 256 with blake2s/)
    await refuses(
      { input: 'abc', algorithm: 'sha256', length: 256 },
      'VALIDATION_ERROR',
      /^length applies only to shake128, shake256, blake2b, blake2s, blake3; sha256 has a fixed size/,
    )
    await refuses({ input: 'abc', algorithm: 'blake2b512', length: 256 }, 'VALIDATION_ERROR', /^length applies only to/)
    await refuses({ input: 'abc', algorithm: 'shake128', length: 12 }, 'VALIDATION_ERROR', /^length must be a multiple of 8/)
    await refuses({ input: 'abc', algorithm: 'shake128', length: 0 }, 'VALIDATION_ERROR', /^length must be >= 8/)
    await refuses({ input: 'abc', algorithm: 'blake3', length: 16_392 }, 'VALIDATION_ERROR', /^length must be <= 16384/)
  })
})

describe('hash: where it runs', () => {
  test(`hex or base64 inputs over ${OFFLOAD_LENGTH} characters are decoded on a worker thread; text, hashed in slices, stays`, () => {
    const offloads = (input: string, inputEncoding: string) => hash.offload!(validate(hash.input, { input, inputEncoding }))
    for (const encoding of ['hex', 'base64']) {
      assert.equal(offloads('0'.repeat(OFFLOAD_LENGTH), encoding), false, encoding)
      assert.equal(offloads('0'.repeat(OFFLOAD_LENGTH + 1), encoding), true, encoding)
    }
    for (const encoding of ['utf8', 'latin1']) assert.equal(offloads('0'.repeat(4 * OFFLOAD_LENGTH), encoding), false, encoding)
  })
})
