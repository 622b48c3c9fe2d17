import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { baseConvert, digitsToBigInt } from './index.ts'

const run = (input: Record<string, unknown>) => execute(baseConvert, input, { timeBudgetMs: 60_000 })
const result = async (input: Record<string, unknown>) => (await run(input)).result
const fails = (input: Record<string, unknown>, code: string, pattern: RegExp, position?: number) =>
  expectRefusal(run(input), { code, message: pattern, position })

/** The digits of a random bigint in `base`, written by a method independent of the code under test. */
const bigintIn = (value: bigint, base: number) => value.toString(base)

describe('base-convert', () => {
  test('the documented example: 255 → ff, with the default bases echoed', async () => {
    assert.deepEqual(await run({ input: '255' }), { result: 'ff', fromBase: 10, toBase: 16 })
    assert.deepEqual(Object.keys(await run({ input: '255' })), ['result', 'fromBase', 'toBase'])
  })

  test('digits are case-insensitive on input and lower-case on output', async () => {
    assert.equal(await result({ input: 'FF', fromBase: 16, toBase: 10 }), '255')
    assert.equal(await result({ input: 'fF', fromBase: 16, toBase: 10 }), '255')
    assert.equal(await result({ input: '1295', toBase: 36 }), 'zz')
    assert.equal(await result({ input: 'ZZ', fromBase: 36, toBase: 10 }), '1295')
  })

  test('a safe integer as a JSON number is read through its decimal digits', async () => {
    assert.equal(await result({ input: 255 }), 'ff')
    assert.equal(await result({ input: -255 }), '-ff')
    assert.equal(await result({ input: 101, fromBase: 2, toBase: 10 }), '5')
    assert.equal(await result({ input: Number.MAX_SAFE_INTEGER }), '1fffffffffffff')
    await fails({ input: 19, fromBase: 8 }, 'INVALID_INPUT', /'9' at position 1 is not a digit in base 8/, 1)
  })

  test('negative numbers, an explicit plus, zero and negative zero', async () => {
    assert.equal(await result({ input: '-255' }), '-ff')
    assert.equal(await result({ input: '+255' }), 'ff')
    assert.equal(await result({ input: '-ff', fromBase: 16, toBase: 2 }), '-11111111')
    assert.equal(await result({ input: '0' }), '0')
    assert.equal(await result({ input: '-0' }), '0')
    assert.equal(await result({ input: '-000', fromBase: 7, toBase: 3 }), '0')
    assert.equal(await result({ input: '0007', toBase: 2 }), '111')
  })

  test('surrounding whitespace is ignored', async () => {
    assert.equal(await result({ input: ' \t255\n ' }), 'ff')
    assert.equal(await result({ input: '  -0x10 ', fromBase: 16, toBase: 10 }), '-16')
  })

  test('each prefix is accepted with its own base only', async () => {
    assert.equal(await result({ input: '0xff', fromBase: 16, toBase: 10 }), '255')
    assert.equal(await result({ input: '0XFF', fromBase: 16, toBase: 10 }), '255')
    assert.equal(await result({ input: '0o17', fromBase: 8, toBase: 10 }), '15')
    assert.equal(await result({ input: '0O17', fromBase: 8, toBase: 10 }), '15')
    assert.equal(await result({ input: '0b101', fromBase: 2, toBase: 10 }), '5')
    assert.equal(await result({ input: '-0b101', fromBase: 2, toBase: 10 }), '-5')
    await fails({ input: '0xff' }, 'INVALID_INPUT', /'x' at position 1 is not a digit in base 10 \(the 0x prefix goes with fromBase 16\)/, 1)
    await fails({ input: '0o17', fromBase: 16 }, 'INVALID_INPUT', /'o' at position 1 .*fromBase 8/, 1)
    await fails({ input: '0b1', fromBase: 8 }, 'INVALID_INPUT', /'b' at position 1 .*fromBase 2/, 1)
    // Where the prefix letter is itself a digit, the text is read as digits.
    assert.equal(await result({ input: '0b1', fromBase: 16, toBase: 10 }), '177')
    assert.equal(await result({ input: '0x1', fromBase: 36, toBase: 10 }), String(33 * 36 + 1))
    await fails({ input: '0x', fromBase: 16 }, 'INVALID_INPUT', /no digits/)
  })

  test('underscores only between two digits', async () => {
    assert.equal(await result({ input: '1_000_000' }), 'f4240')
    assert.equal(await result({ input: '0xff_ff', fromBase: 16, toBase: 10 }), '65535')
    assert.equal(await result({ input: '-1_0', fromBase: 2, toBase: 10 }), '-2')
    await fails({ input: '_1' }, 'INVALID_INPUT', /'_' at position 0 is not between two digits/, 0)
    await fails({ input: '1_' }, 'INVALID_INPUT', /'_' at position 1/, 1)
    await fails({ input: '1__0' }, 'INVALID_INPUT', /'_' at position 1/, 1)
    await fails({ input: '-_1' }, 'INVALID_INPUT', /'_' at position 1/, 1)
    await fails({ input: '0x_ff', fromBase: 16 }, 'INVALID_INPUT', /'_' at position 2/, 2)
    await fails({ input: '1_9', fromBase: 8 }, 'INVALID_INPUT', /'9' at position 2/, 2)
    await fails({ input: '1_.5' }, 'INVALID_INPUT', /fractions are not supported/, 2)
  })

  test('a character outside the base is a 422 naming it and its position in the original input', async () => {
    await fails({ input: '129', fromBase: 8 }, 'INVALID_INPUT', /'9' at position 2 is not a digit in base 8/, 2)
    await fails({ input: '  -1_29', fromBase: 8 }, 'INVALID_INPUT', /'9' at position 6 is not a digit in base 8/, 6)
    await fails({ input: '12g', fromBase: 16 }, 'INVALID_INPUT', /'g' at position 2 is not a digit in base 16/, 2)
    await fails({ input: '12 34' }, 'INVALID_INPUT', /U\+0020 at position 2 is not a digit in base 10/, 2)
    await fails({ input: '1😀' }, 'INVALID_INPUT', /'😀' at position 1/, 1)
    await fails({ input: '--1' }, 'INVALID_INPUT', /'-' at position 1/, 1)
  })

  test('fractions and empty input are 422s', async () => {
    await fails({ input: '1.5' }, 'INVALID_INPUT', /fractions are not supported/, 1)
    await fails({ input: '.5' }, 'INVALID_INPUT', /fractions are not supported/, 0)
    await fails({ input: '1.' }, 'INVALID_INPUT', /fractions are not supported/, 1)
    await fails({ input: '' }, 'INVALID_INPUT', /no digits/)
    await fails({ input: '   ' }, 'INVALID_INPUT', /no digits/)
    await fails({ input: '-' }, 'INVALID_INPUT', /no digits/)
  })

  test('schema bounds are 400s', async () => {
    await fails({ input: '1', toBase: 37 }, 'VALIDATION_ERROR', /toBase must be <= 36/)
    await fails({ input: '1', fromBase: 1 }, 'VALIDATION_ERROR', /fromBase must be >= 2/)
    await fails({ input: '1', fromBase: 2.5 }, 'VALIDATION_ERROR', /fromBase/)
    await fails({ input: '1', toBase: '16' }, 'VALIDATION_ERROR', /toBase/)
    await fails({ input: 1.5 }, 'VALIDATION_ERROR', /input/)
    await fails({ input: 2 ** 53 }, 'VALIDATION_ERROR', /input/)
    await fails({ input: '1', frombase: 2 }, 'VALIDATION_ERROR', /frombase is not a known field/)
    await fails({ input: '1'.repeat(20_101) }, 'VALIDATION_ERROR', /input/)
  })

  test('10,000 digits convert exactly; 10,001 are refused', async () => {
    const decimal = `9${'1234567890'.repeat(999)}123456789`
    assert.equal(decimal.length, 10_000)
    assert.equal(await result({ input: decimal, toBase: 36 }), BigInt(decimal).toString(36))
    const base7 = `6${'0123456'.repeat(1428)}123`
    assert.equal(base7.length, 10_000)
    let expected = 0n
    for (const digit of base7) expected = expected * 7n + BigInt(digit)
    assert.equal(await result({ input: base7, fromBase: 7, toBase: 36 }), expected.toString(36))
    const grouped = decimal.replace(/\B(?=(\d{3})+$)/g, '_')
    assert.equal(await result({ input: grouped, toBase: 10 }), decimal)
    const everyDigitApart = ` -${decimal.split('').join('_')} `
    assert.equal(await result({ input: everyDigitApart, toBase: 10 }), `-${decimal}`)
    await fails({ input: `${decimal}0` }, 'LIMIT_EXCEEDED', /10001 digits; at most 10000/)
  })

  test('chunked parsing reads back any bigint written in any base', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 36 }), fc.bigInt({ min: 0n, max: 1n << 2000n }), (base, value) => {
        assert.equal(digitsToBigInt(bigintIn(value, base), base), value)
      }),
    )
  })

  test('round trip over bigints: convert(convert(x, 10, b), b, 10) === x', async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: -(1n << 600n), max: 1n << 600n }), fc.integer({ min: 2, max: 36 }), async (value, base) => {
        const there = await result({ input: value.toString(), fromBase: 10, toBase: base })
        assert.equal(there, bigintIn(value, base))
        assert.equal(await result({ input: there, fromBase: base, toBase: 10 }), value.toString())
      }),
    )
  })

  test('upper-case input with underscores reads the same as plain digits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 1n, max: 1n << 200n }), fc.integer({ min: 11, max: 36 }), async (value, base) => {
        const digits = bigintIn(value, base)
        const decorated = digits.toUpperCase().replace(/(.)(?=(.{4})+$)/g, '$1_')
        assert.equal(await result({ input: decorated, fromBase: base, toBase: 10 }), value.toString())
      }),
    )
  })
})
