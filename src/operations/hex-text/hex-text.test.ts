import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { hexText, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(hexText, input)
const result = async (input: Record<string, unknown>) => (await run(input)).result
const fails = (input: Record<string, unknown>, code: string, pattern: RegExp, position?: number) =>
  expectRefusal(run(input), { code, message: pattern, position })

describe('hex-text', () => {
  test('"Hi" is 4869, and back', async () => {
    assert.deepEqual(await run({ input: 'Hi' }), { result: '4869', action: 'textToHex' })
    assert.deepEqual(await run({ input: '4869', action: 'hexToText' }), { result: 'Hi', action: 'hexToText' })
    assert.equal(await result({ input: '' }), '')
    assert.equal(await result({ input: '', action: 'hexToText' }), '')
  })

  test('multi-byte UTF-8 and Latin-1; upper case on request', async () => {
    assert.equal(await result({ input: 'é' }), 'c3a9')
    assert.equal(await result({ input: '€' }), 'e282ac')
    assert.equal(await result({ input: '😀' }), 'f09f9880')
    assert.equal(await result({ input: '😀', uppercase: true }), 'F09F9880')
    assert.equal(await result({ input: 'é', encoding: 'latin1' }), 'e9')
    assert.equal(await result({ input: 'F09F9880', action: 'hexToText' }), '😀')
    assert.equal(await result({ input: 'e9', action: 'hexToText', encoding: 'latin1' }), 'é')
  })

  test('separators of 0 to 4 characters go between bytes only', async () => {
    assert.equal(await result({ input: 'Hi!', separator: ':' }), '48:69:21')
    assert.equal(await result({ input: 'Hi', separator: ' ' }), '48 69')
    assert.equal(await result({ input: 'Hi', separator: ', 0x' }), '48, 0x69')
    assert.equal(await result({ input: 'H', separator: ':' }), '48')
    await fails({ input: 'Hi', separator: '12345' }, 'VALIDATION_ERROR', /separator must be at most 4 characters/)
  })

  test('reading ignores whitespace, : - , separators and 0x / \\x prefixes, in either case', async () => {
    for (const text of ['4869', '48 69', '48:69', '48-69', '48,69', '0x48 0x69', '0X48,0x69', '\\x48\\x69', ' 4\n8 6\t9 ', '0x4869', '0x48:\\x69']) {
      assert.equal(await result({ input: text, action: 'hexToText' }), 'Hi', text)
    }
    assert.equal(await result({ input: 'C3A9', action: 'hexToText' }), 'é')
    // A prefix with nothing after it adds no digits.
    assert.equal(await result({ input: '48 69 0x', action: 'hexToText' }), 'Hi')
  })

  test('a non-hex character is a 422 with its position in the original input', async () => {
    await fails({ input: '48 6g', action: 'hexToText' }, 'INVALID_INPUT', /'g' at position 4 is not a hex digit/, 4)
    await fails({ input: '480x69', action: 'hexToText' }, 'INVALID_INPUT', /'x' at position 3/, 3)
    await fails({ input: '48;69', action: 'hexToText' }, 'INVALID_INPUT', /';' at position 2/, 2)
    await fails({ input: '48 😀', action: 'hexToText' }, 'INVALID_INPUT', /'😀' at position 3/, 3)
  })

  test('an odd digit count is a 422 pointing at the last byte', async () => {
    await fails(
      { input: '48:6', action: 'hexToText' },
      'INVALID_INPUT',
      /3 hex digits cannot make whole bytes of 2: the last byte, starting at position 3, has only 1/,
      3,
    )
    await fails({ input: '0x4', action: 'hexToText' }, 'INVALID_INPUT', /1 hex digit cannot make whole bytes of 2: .* starting at position 2/, 2)
  })

  test('bytes that are not UTF-8 are a 422 pointing at the digits of the bad byte', async () => {
    await fails({ input: '48:ff', action: 'hexToText' }, 'INVALID_INPUT', /not valid UTF-8: byte 1, written at position 3.*encoding to latin1/, 3)
    await fails({ input: 'c3 28', action: 'hexToText' }, 'INVALID_INPUT', /byte 0/, 0)
    await fails({ input: 'ed a0 80', action: 'hexToText' }, 'INVALID_INPUT', /byte 0/, 0)
    assert.equal(await result({ input: '48:ff', action: 'hexToText', encoding: 'latin1' }), 'Hÿ')
  })

  test('latin1 text with a character above U+00FF is a 422 with its position', async () => {
    await fails({ input: 'a😀', encoding: 'latin1' }, 'INVALID_INPUT', /'😀' \(U\+1F600\) at position 1 is outside Latin-1/, 1)
  })

  test('round trip: any text survives with any ignorable separator, in either case', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.constantFrom('', ' ', ':', '-', ', ', '\n'), fc.boolean(), async (text, separator, uppercase) => {
        const hex = await result({ input: text, separator, uppercase })
        assert.equal(await result({ input: hex, action: 'hexToText' }), text)
      }),
    )
  })

  test('round trip: any bytes survive through Latin-1, and the digits match Buffer hex', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array(), async (bytes) => {
        const text = Buffer.from(bytes).toString('latin1')
        const hex = await result({ input: text, encoding: 'latin1' })
        assert.equal(hex, Buffer.from(bytes).toString('hex'))
        assert.equal(await result({ input: hex, action: 'hexToText', encoding: 'latin1' }), text)
      }),
    )
  })
})

describe('hex-text: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => hexText.offload!(validate(hexText.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
