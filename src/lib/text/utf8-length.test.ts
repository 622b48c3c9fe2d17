import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { countUtf8Length, utf8Length } from './utf8-length.ts'

describe('utf8Length, and the count a browser runs', () => {
  test('counts as TextEncoder writes: one to four bytes a code point, three for a lone surrogate', () => {
    for (const [text, bytes] of [
      ['', 0],
      ['a', 1],
      ['é', 2],
      ['€', 3],
      ['😀', 4],
      ['\ud83d', 3],
      ['\ude00', 3],
      ['\ude00\ud83d', 6],
      ['a\ud83d', 4],
    ] as const) {
      assert.equal(utf8Length(text), bytes, JSON.stringify(text))
      assert.equal(countUtf8Length(text), bytes, JSON.stringify(text))
      assert.equal(new TextEncoder().encode(text).length, bytes, JSON.stringify(text))
    }
  })

  test('property: the length TextEncoder writes, for any text, lone surrogates included', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.integer({ min: 0xd7f0, max: 0xe010 }).map((unit) => String.fromCharCode(unit)) }),
    )
    fc.assert(
      fc.property(text, (value) => {
        const written = new TextEncoder().encode(value).length
        return utf8Length(value) === written && countUtf8Length(value) === written
      }),
    )
  })
})
