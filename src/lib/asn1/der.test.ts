import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { childrenOf, contentOf, elementsBetween, encodeTlv, readTlv } from './der.ts'

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex')

describe('the DER reader', () => {
  test('reads short and long lengths, and a long form with leading zero octets as OpenSSL does (BER)', () => {
    assert.deepEqual(readTlv(hex('04 02 aabb'), 0), { tag: 4, start: 0, contentStart: 2, end: 4 })
    assert.deepEqual(readTlv(hex('04 81 02 aabb'), 0), { tag: 4, start: 0, contentStart: 3, end: 5 })
    assert.deepEqual(readTlv(hex('04 84 00000002 aabb'), 0), { tag: 4, start: 0, contentStart: 6, end: 8 })
  })

  test('refuses a length past the end, an indefinite length and the high-tag-number form', () => {
    for (const bad of ['04 03 aabb', '04 84 ffffffff aa', '04 80 aa 0000', '1f 01 aa', '04', '04 82 01']) {
      assert.throws(() => readTlv(hex(bad), 0), { code: 'INVALID_INPUT' }, bad)
    }
    // A child may not run past its parent, even where the buffer goes on.
    const sequence = hex('30 03 04 05 aabbccddee')
    assert.throws(() => childrenOf(sequence, readTlv(sequence, 0, 5)), { code: 'INVALID_INPUT' })
  })

  test('reads back what encodeTlv writes, nested or one after another', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 0x1e }), fc.uint8Array({ maxLength: 300 })), { maxLength: 5 }), (items) => {
        const elements = items.map(([tag, content]) => encodeTlv(tag, Buffer.from(content)))
        const whole = encodeTlv(0x30, Buffer.concat(elements))
        const children = childrenOf(whole, readTlv(whole, 0))
        assert.deepEqual(
          children.map((child) => [child.tag, new Uint8Array(contentOf(whole, child))]),
          items.map(([tag, content]) => [tag, content]),
        )
        assert.equal(elementsBetween(Buffer.concat(elements), 0, Buffer.concat(elements).length).length, items.length)
      }),
    )
  })
})
