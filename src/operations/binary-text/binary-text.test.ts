import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { validate } from '../../core/validate.ts'
import { binaryText, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(binaryText, input, { timeBudgetMs: 60_000 })
const result = async (input: Record<string, unknown>) => (await run(input)).result
const fails = (input: Record<string, unknown>, code: string, pattern: RegExp, position?: number) =>
  expectRefusal(run(input), { code, message: pattern, position })

/** Bits of each byte, computed independently of the code under test. */
const bitsOf = (bytes: Uint8Array) => [...bytes].map((byte) => byte.toString(2).padStart(8, '0'))

describe('binary-text', () => {
  test('"Hi" is 01001000 01101001, and back', async () => {
    assert.deepEqual(await run({ input: 'Hi' }), { result: '01001000 01101001', action: 'textToBinary' })
    assert.deepEqual(await run({ input: '01001000 01101001', action: 'binaryToText' }), { result: 'Hi', action: 'binaryToText' })
    assert.equal(await result({ input: '' }), '')
    assert.equal(await result({ input: '', action: 'binaryToText' }), '')
  })

  test('multi-byte UTF-8, and Latin-1 with one byte per character', async () => {
    assert.equal(await result({ input: 'é' }), '11000011 10101001')
    assert.equal(await result({ input: '€' }), '11100010 10000010 10101100')
    assert.equal(await result({ input: '😀' }), bitsOf(Buffer.from('😀')).join(' '))
    assert.equal(await result({ input: 'é', encoding: 'latin1' }), '11101001')
    assert.equal(await result({ input: '11110000 10011111 10011000 10000000', action: 'binaryToText' }), '😀')
    assert.equal(await result({ input: '11101001', action: 'binaryToText', encoding: 'latin1' }), 'é')
  })

  test('separators of 0 to 8 characters go between bytes only', async () => {
    assert.equal(await result({ input: 'Hi', separator: '' }), '0100100001101001')
    assert.equal(await result({ input: 'Hi', separator: ', ' }), '01001000, 01101001')
    assert.equal(await result({ input: 'Hi!', separator: '\n' }), '01001000\n01101001\n00100001')
    assert.equal(await result({ input: 'Hi', separator: ' · ' }), '01001000 · 01101001')
    assert.equal(await result({ input: 'H', separator: '--------' }), '01001000')
    await fails({ input: 'Hi', separator: '123456789' }, 'VALIDATION_ERROR', /separator must be at most 8 characters/)
  })

  test('reading ignores whitespace, commas and 0b prefixes', async () => {
    for (const text of ['0100100001101001', '0b01001000 0b01101001', '0B01001000,0b01101001', ' 0100 1000\n\t0110 1001 ', '01001000,\r\n01101001,']) {
      assert.equal(await result({ input: text, action: 'binaryToText' }), 'Hi', text)
    }
  })

  test('a foreign character is a 422 with its position in the original input', async () => {
    await fails({ input: '01001000 01201001', action: 'binaryToText' }, 'INVALID_INPUT', /'2' at position 11 is not a bit/, 11)
    await fails({ input: '0b0100b1000', action: 'binaryToText' }, 'INVALID_INPUT', /'b' at position 6/, 6)
    await fails({ input: '01001000;01101001', action: 'binaryToText' }, 'INVALID_INPUT', /';' at position 8/, 8)
    await fails({ input: '0100\u00001000', action: 'binaryToText' }, 'INVALID_INPUT', /U\+0000 at position 4/, 4)
    await fails({ input: 'x0b01001000', action: 'binaryToText' }, 'INVALID_INPUT', /'x' at position 0/, 0)
  })

  test('a bit count that is not a multiple of 8 is a 422 pointing at the last byte', async () => {
    await fails(
      { input: '01001000 0110', action: 'binaryToText' },
      'INVALID_INPUT',
      /12 bits cannot make whole bytes of 8: the last byte, starting at position 9, has only 4/,
      9,
    )
    await fails({ input: '0', action: 'binaryToText' }, 'INVALID_INPUT', /1 bit cannot make whole bytes of 8/, 0)
  })

  test('bytes that are not UTF-8 are a 422 pointing at the bits of the bad byte', async () => {
    await fails(
      { input: '01001000 11111111', action: 'binaryToText' },
      'INVALID_INPUT',
      /not valid UTF-8: byte 1, written at position 9.*encoding to latin1/,
      9,
    )
    await fails({ input: '11000011', action: 'binaryToText' }, 'INVALID_INPUT', /byte 0/, 0)
    assert.equal(await result({ input: '01001000 11111111', action: 'binaryToText', encoding: 'latin1' }), 'Hÿ')
  })

  test('latin1 text with a character above U+00FF is a 422 with its position', async () => {
    await fails({ input: 'ab€', encoding: 'latin1' }, 'INVALID_INPUT', /'€' \(U\+20AC\) at position 2 is outside Latin-1/, 2)
  })

  test('output beyond the limit is refused before it is built', async () => {
    // 16 characters per byte with an 8-character separator: one byte more than 1 MiB crosses 16 MiB.
    const text = 'a'.repeat(OUTPUT_LIMIT_BYTES / 16 + 1)
    await fails({ input: text, separator: '12345678' }, 'LIMIT_EXCEEDED', /output limit/)
    const fits = await result({ input: text })
    assert.equal(String(fits).length, text.length * 9 - 1)
  })

  test('round trip: any text survives with any ignorable separator', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', ',', ', ', '\n', '\t\t'), async (text, separator) => {
        const binary = await result({ input: text, separator })
        assert.equal(await result({ input: binary, action: 'binaryToText' }), text)
      }),
    )
  })

  test('round trip: any bytes survive through Latin-1, and the bits are those of each byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array(), async (bytes) => {
        const text = Buffer.from(bytes).toString('latin1')
        const binary = await result({ input: text, encoding: 'latin1' })
        assert.equal(binary, bitsOf(bytes).join(' '))
        assert.equal(await result({ input: `0b${bitsOf(bytes).join(',0b')}`, action: 'binaryToText', encoding: 'latin1' }), bytes.length ? text : '')
      }),
    )
  })
})

describe('binary-text: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => binaryText.offload!(validate(binaryText.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
