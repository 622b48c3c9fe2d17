import assert from 'node:assert/strict'
import { Buffer as NodeBuffer, isUtf8 as nodeIsUtf8 } from 'node:buffer'
import * as node from 'node:crypto'
import { isIP as nodeIsIP } from 'node:net'
import { describe, test } from 'node:test'
import { crc32 as nodeCrc32 } from 'node:zlib'
import fc from 'fast-check'
import { Buffer, isUtf8 } from '../../src/web/stand-ins/buffer.ts'
import * as standIn from '../../src/web/stand-ins/crypto.ts'
import { isIP } from '../../src/web/stand-ins/net.ts'
import { setImmediate } from '../../src/web/stand-ins/timers-promises.ts'
import { crc32 } from '../../src/web/stand-ins/zlib.ts'

/** The web app's stand-ins for Node's modules answer as Node does, for what operations running in the page call of them. */

const ENCODINGS = ['utf8', 'hex', 'base64', 'base64url', 'latin1'] as const

describe("the page's node:buffer", () => {
  test('is the buffer package, not Node’s own Buffer', () => {
    assert.notEqual(Buffer, NodeBuffer)
  })

  test('writes bytes in every encoding as Node does, and reads them back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        for (const encoding of ENCODINGS) {
          const text = Buffer.from(bytes).toString(encoding)
          assert.equal(text, NodeBuffer.from(bytes).toString(encoding), encoding)
          assert.deepEqual([...Buffer.from(text, encoding)], [...NodeBuffer.from(text, encoding)], encoding)
        }
        assert.equal(isUtf8(bytes), nodeIsUtf8(bytes))
      }),
      { numRuns: 2000 },
    )
  })

  test('reads text as UTF-8, lone surrogates too, and hex up to its first pair that is not hex, as Node does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 24 }), fc.stringMatching(/^[0-9a-fA-F g]{0,12}$/), (text, hex) => {
        assert.deepEqual([...Buffer.from(text)], [...NodeBuffer.from(text)], text)
        assert.deepEqual([...Buffer.from(text, 'utf8')], [...NodeBuffer.from(text, 'utf8')], text)
        assert.deepEqual([...Buffer.from(hex, 'hex')], [...NodeBuffer.from(hex, 'hex')], hex)
      }),
      { numRuns: 2000 },
    )
  })

  test('reads padded and URL-safe base64 alike, and compares with any Uint8Array', () => {
    assert.deepEqual([...Buffer.from('-_8', 'base64url')], [...NodeBuffer.from('-_8', 'base64url')])
    assert.deepEqual([...Buffer.from('+/8=', 'base64url')], [...NodeBuffer.from('+/8=', 'base64url')])
    // The package types `equals` for its Buffers only; the stand-in, as Node's, takes any Uint8Array.
    const equals = (bytes: number[], other: number[]) => Buffer.from(bytes).equals(new Uint8Array(other) as unknown as Buffer)
    assert.equal(equals([1, 2], [1, 2]), true)
    assert.equal(equals([1, 2], [1, 3]), false)
    assert.equal(equals([1, 2], [1]), false)
  })

  test('tells UTF-8 from what is not, as Node does', () => {
    for (const bytes of [[0xc3, 0xa9], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82, 0xac], []]) {
      assert.equal(isUtf8(new Uint8Array(bytes)), nodeIsUtf8(new Uint8Array(bytes)), String(bytes))
    }
  })
})

describe("the page's node:crypto", () => {
  const message = new TextEncoder().encode('The quick brown fox jumps over the lazy dog')
  const algorithms = [
    'md5',
    'sha1',
    'ripemd160',
    'sha224',
    'sha256',
    'sha384',
    'sha512',
    'sha512-224',
    'sha512-256',
    'sha3-224',
    'sha3-256',
    'sha3-384',
    'sha3-512',
    'blake2b512',
    'blake2s256',
  ]

  test('hashes and HMACs as OpenSSL does, in pieces or at once', () => {
    for (const algorithm of algorithms) {
      const expected = node.createHash(algorithm).update(message).digest('hex')
      assert.equal(standIn.createHash(algorithm).update(message.subarray(0, 7)).update(message.subarray(7)).digest('hex'), expected, algorithm)
      assert.equal(standIn.createHmac(algorithm, 'key').update('text').digest('hex'), node.createHmac(algorithm, 'key').update('text').digest('hex'), algorithm)
    }
    for (const algorithm of ['shake128', 'shake256']) {
      for (const outputLength of [1, 32, 100]) {
        assert.equal(
          standIn.createHash(algorithm, { outputLength }).update(message).digest('hex'),
          node.createHash(algorithm, { outputLength }).update(message).digest('hex'),
        )
      }
    }
  })

  test('refuses an algorithm it lacks, as Node refuses one it does not know', () => {
    assert.throws(() => standIn.createHash('sm3'), /Digest method not supported/)
  })

  test('compares in constant time, refusing lengths that differ as Node does', () => {
    assert.equal(standIn.timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])), true)
    assert.equal(standIn.timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3])), false)
    assert.throws(() => standIn.timingSafeEqual(new Uint8Array([1]), new Uint8Array([1, 2])), RangeError)
  })

  test('makes version 4 UUIDs', () => {
    const uuids = new Set(Array.from({ length: 64 }, () => standIn.randomUUID()))
    assert.equal(uuids.size, 64)
    for (const uuid of uuids) assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})

describe("the page's node:zlib and node:timers/promises", () => {
  test('crc32 is zlib’s, continued from a value', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (first, second) => {
        assert.equal(crc32(second, crc32(first)), nodeCrc32(second, nodeCrc32(first)))
      }),
    )
    assert.equal(crc32('123456789'), 0xcbf43926)
  })

  test('setImmediate settles in a later task, after the microtasks queued before it', async () => {
    let settled = false
    const yielded = setImmediate().then(() => {
      settled = true
    })
    for (let turn = 0; turn < 100; turn++) await Promise.resolve()
    assert.equal(settled, false)
    await yielded
    assert.equal(settled, true)
  })
})

describe("the page's node:net", () => {
  const ipLike = fc.stringMatching(/^[0-9a-fA-F:.%z-]{0,44}$/)
  const v4 = fc.ipV4().map(String)
  const v6 = fc.ipV6().map(String)
  const zoned = fc.tuple(fc.ipV6(), fc.stringMatching(/^[0-9a-z.:%-]{0,6}$/)).map(([address, zone]) => `${address}%${zone}`)

  test('isIP tells IPv4, IPv6 and neither as Node does', () => {
    fc.assert(
      fc.property(fc.oneof(ipLike, v4, v6, zoned, fc.ipV4Extended().map(String)), (text) => {
        assert.equal(isIP(text), nodeIsIP(text), text)
      }),
      { numRuns: 5000 },
    )
    for (const text of [
      '::',
      '::1',
      '1::',
      '1:2:3:4:5:6:7::',
      '::1:2:3:4:5:6:7',
      '1::2:3:4:5:6:7:8',
      '::ffff:1.2.3.4',
      '1:2:3:4:5:6:1.2.3.4',
      '01.2.3.4',
      '256.1.1.1',
      'fe80::1%eth0',
      'fe80::1%',
      ':::',
      '1:::2',
    ])
      assert.equal(isIP(text), nodeIsIP(text), text)
  })
})
