import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { type ExpectedRefusal, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { base32, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(base32, input, { timeBudgetMs: 60_000 })
const decode = (input: string, variant = 'rfc4648', outputEncoding = 'utf8') => run({ input, action: 'decode', variant, outputEncoding })
const rejects = (input: Record<string, unknown>, code: string, expected: ExpectedRefusal = {}) => expectRefusal(run(input), { code, ...expected })

// RFC 4648 §10 test vectors.
const RFC4648 = [
  ['', '', ''],
  ['f', 'MY======', 'CO======'],
  ['fo', 'MZXQ====', 'CPNG===='],
  ['foo', 'MZXW6===', 'CPNMU==='],
  ['foob', 'MZXW6YQ=', 'CPNMUOG='],
  ['fooba', 'MZXW6YTB', 'CPNMUOJ1'],
  ['foobar', 'MZXW6YTBOI======', 'CPNMUOJ1E8======'],
]

const HEX = '0123456789ABCDEFGHIJKLMNOPQRSTUV'
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** base32hex and Crockford share the bit layout and symbol values; only the letters differ. */
const hexToCrockford = (text: string) => text.replace(/[0-9A-V]/g, (symbol) => CROCKFORD[HEX.indexOf(symbol)])

describe('base32', () => {
  test('RFC 4648 §10 vectors, base32 and base32hex, encode and decode', async () => {
    for (const [text, encoded, encodedHex] of RFC4648) {
      assert.deepEqual(await run({ input: text }), { result: encoded, action: 'encode' })
      assert.deepEqual(await run({ input: text, variant: 'hex' }), { result: encodedHex, action: 'encode' })
      assert.deepEqual(await decode(encoded), { result: text, action: 'decode' })
      assert.deepEqual(await decode(encodedHex, 'hex'), { result: text, action: 'decode' })
    }
  })

  test('without padding, the same vectors lose their = only', async () => {
    for (const [text, encoded, encodedHex] of RFC4648) {
      assert.equal((await run({ input: text, padding: false })).result, encoded.replace(/=+$/, ''))
      assert.equal((await run({ input: text, variant: 'hex', padding: false })).result, encodedHex.replace(/=+$/, ''))
      assert.equal((await decode(encoded.replace(/=+$/, ''))).result, text)
    }
  })

  test('answers result first, then action', async () => {
    assert.deepEqual(Object.keys(await run({ input: 'f' })), ['result', 'action'])
    assert.deepEqual(Object.keys(await decode('MY')), ['result', 'action'])
  })

  test('Crockford: its alphabet over the RFC 4648 bit layout, never padded', async () => {
    for (const [text, , encodedHex] of RFC4648) {
      const expected = hexToCrockford(encodedHex.replace(/=+$/, ''))
      assert.equal((await run({ input: text, variant: 'crockford' })).result, expected)
      assert.equal((await decode(expected, 'crockford')).result, text)
    }
    assert.equal((await run({ input: '12ab', inputEncoding: 'hex', variant: 'crockford' })).result, '2ANG')
    assert.equal((await run({ input: 'ffffffffff', inputEncoding: 'hex', variant: 'crockford', padding: false })).result, 'ZZZZZZZZ')
  })

  test('Crockford decoding: any case, hyphens, I and L as 1, O as 0', async () => {
    assert.equal((await decode('csqp-yrk1-e8', 'crockford')).result, 'foobar')
    assert.equal((await decode('CSQPYRKIE8', 'crockford')).result, 'foobar')
    assert.equal((await decode('csqpyrkle8', 'crockford')).result, 'foobar')
    assert.equal((await decode('oO-00', 'crockford', 'hex')).result, '0000')
    assert.equal((await decode('2ANG', 'crockford', 'hex')).result, '12ab')
  })

  test('decoding is case-insensitive and ignores whitespace', async () => {
    assert.equal((await decode('mzxw 6ytb\r\noi======')).result, 'foobar')
    assert.equal((await decode('cpnmuoj1e8', 'hex')).result, 'foobar')
    assert.equal((await decode('\tMZXW6YQ=\n')).result, 'foob')
  })

  test('a character outside the variant is a 422 with its position in the input', async () => {
    await rejects({ input: 'MZ XW1YQ=', action: 'decode' }, 'INVALID_INPUT', { position: 5 })
    await rejects({ input: 'MZXW-6YQ', action: 'decode' }, 'INVALID_INPUT', { position: 4 })
    await rejects({ input: 'CPNMW', action: 'decode', variant: 'hex' }, 'INVALID_INPUT', { position: 4 })
    await rejects({ input: 'CSQU', action: 'decode', variant: 'crockford' }, 'INVALID_INPUT', { position: 3 })
    await rejects({ input: 'CO======', action: 'decode', variant: 'crockford' }, 'INVALID_INPUT', { position: 2 })
    await rejects({ input: 'MZ😀XQ', action: 'decode' }, 'INVALID_INPUT', { message: /'😀' at position 2/, position: 2 })
    await rejects({ input: 'MY\u0000', action: 'decode' }, 'INVALID_INPUT', { message: /U\+0000/ })
    await rejects({ input: 'MY======MY', action: 'decode' }, 'INVALID_INPUT', { message: /after the padding/, position: 8 })
  })

  test('impossible lengths and wrong padding are 422s', async () => {
    for (const input of ['M', 'MZX', 'MZXW6Y', 'MZXW6YTBO', 'MZXW6YTBOIX']) {
      await rejects({ input, action: 'decode' }, 'INVALID_INPUT', { message: /cannot encode whole bytes/ })
    }
    await rejects({ input: 'MY=', action: 'decode' }, 'INVALID_INPUT', { message: /padding/, position: 2 })
    await rejects({ input: 'MZXW6===== ', action: 'decode' }, 'INVALID_INPUT', { position: 5 })
  })

  test('a last symbol with non-zero unused bits is a 422 at its position', async () => {
    await rejects({ input: 'MZ======', action: 'decode' }, 'INVALID_INPUT', { message: /unused|bits/, position: 1 })
    await rejects({ input: 'mz xw 7', action: 'decode', outputEncoding: 'hex' }, 'INVALID_INPUT', { position: 6 })
  })

  test('bytes that are not UTF-8 are refused with a hint, and given in the other encodings', async () => {
    await rejects({ input: '74======', action: 'decode' }, 'INVALID_INPUT', { message: /not valid UTF-8.*outputEncoding/ })
    assert.equal((await decode('74======', 'rfc4648', 'latin1')).result, '\u00ff')
    assert.equal((await decode('74======', 'rfc4648', 'base64')).result, '/w==')
  })

  test('padding: true with Crockford is refused (400); schema errors are 400s', async () => {
    await rejects({ input: 'x', variant: 'crockford', padding: true }, 'VALIDATION_ERROR', { message: /padding/ })
    await rejects({ input: 'x', variant: 'base32' }, 'VALIDATION_ERROR')
    await rejects({ input: 'x', padding: 'yes' }, 'VALIDATION_ERROR')
    await rejects({ input: 'x', pading: false }, 'VALIDATION_ERROR')
  })

  test('a result that would pass the output limit is refused before it is built', async () => {
    // 10.5 MiB of bytes take 16.8 MiB of base32.
    await rejects({ input: 'x'.repeat(10.5 * 1024 * 1024) }, 'LIMIT_EXCEEDED')
    // 13,421,776 symbols decode to 8,388,610 bytes: 16,777,220 hex digits, 4 over the limit.
    await rejects({ input: 'A'.repeat(13_421_776), action: 'decode', outputEncoding: 'hex' }, 'LIMIT_EXCEEDED')
  })

  test('input encodings feed the encoder', async () => {
    assert.equal((await run({ input: '666f6f', inputEncoding: 'hex' })).result, 'MZXW6===')
    assert.equal((await run({ input: 'Zm9v', inputEncoding: 'base64' })).result, 'MZXW6===')
  })

  test('round trip: any bytes survive encode then decode, in every variant, with and without padding', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('rfc4648', 'hex', 'crockford'), fc.boolean(), async (bytes, variant, padding) => {
        const hex = Buffer.from(bytes).toString('hex')
        const encoded = await run({ input: hex, inputEncoding: 'hex', variant, padding: variant === 'crockford' ? false : padding })
        assert.equal(String(encoded.result).includes('='), padding && variant !== 'crockford' && bytes.length % 5 !== 0)
        assert.equal((await decode(String(encoded.result), variant, 'hex')).result, hex)
        assert.equal((await decode(String(encoded.result).toLowerCase(), variant, 'hex')).result, hex)
      }),
    )
  })

  test('round trip: any Unicode text survives, in every variant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.constantFrom('rfc4648', 'hex', 'crockford'), async (text, variant) => {
        const encoded = await run({ input: text, variant })
        assert.equal((await decode(String(encoded.result), variant)).result, text)
      }),
    )
  })
})

describe('base32: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => base32.offload!(validate(base32.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
