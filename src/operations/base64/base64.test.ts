import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { base64, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(base64, input)
const rejects = (input: Record<string, unknown>, pattern: RegExp) => expectRefusal(run(input), { code: 'INVALID_INPUT', message: pattern })

// RFC 4648 §10 test vectors.
const RFC4648 = [
  ['', ''],
  ['f', 'Zg=='],
  ['fo', 'Zm8='],
  ['foo', 'Zm9v'],
  ['foob', 'Zm9vYg=='],
  ['fooba', 'Zm9vYmE='],
  ['foobar', 'Zm9vYmFy'],
]

describe('base64', () => {
  test('RFC 4648 §10 vectors encode and decode', async () => {
    for (const [text, encoded] of RFC4648) {
      assert.deepEqual(await run({ input: text }), { result: encoded, action: 'encode' })
      assert.deepEqual(await run({ input: encoded, action: 'decode' }), { result: text, action: 'decode' })
    }
  })

  test('answers result first, then action, as documented', async () => {
    assert.deepEqual(Object.keys(await run({ input: 'hi' })), ['result', 'action'])
  })

  test('url variant uses - and _ and drops padding by default', async () => {
    assert.equal((await run({ input: 'fbff', inputEncoding: 'hex', variant: 'url' })).result, '-_8')
    assert.equal((await run({ input: 'fbff', inputEncoding: 'hex', variant: 'url', padding: true })).result, '-_8=')
    assert.equal((await run({ input: 'fbff', inputEncoding: 'hex' })).result, '+/8=')
    assert.equal((await run({ input: 'fbff', inputEncoding: 'hex', padding: false })).result, '+/8')
  })

  test('wraps lines at lineLength', async () => {
    const { result } = await run({ input: 'x'.repeat(100), lineLength: 76 })
    const lines = String(result).split('\n')
    assert.equal(lines[0].length, 76)
    assert.equal(lines.join(''), Buffer.from('x'.repeat(100)).toString('base64'))
  })

  test('lenient decoding: either alphabet, no padding, whitespace, data: prefix', async () => {
    assert.equal((await run({ input: '-_8', action: 'decode', outputEncoding: 'hex' })).result, 'fbff')
    assert.equal((await run({ input: 'Zm9v\r\nYmE', action: 'decode' })).result, 'fooba')
    assert.equal((await run({ input: 'data:text/plain;base64,aGk=', action: 'decode' })).result, 'hi')
  })

  test('a foreign character is a 422 naming its position', async () => {
    await rejects({ input: 'Zm9v*YmE=', action: 'decode' }, /'\*' at position 4/)
    await rejects({ input: 'Zg==Zg==', action: 'decode' }, /position 4 comes after the padding/)
    await rejects({ input: 'Zm9vY', action: 'decode' }, /5 base64 characters cannot encode whole bytes/)
    await rejects({ input: 'Zg=', action: 'decode' }, /padding/)
  })

  test('strict decoding refuses anything non-canonical', async () => {
    await rejects({ input: 'Zg', action: 'decode', strict: true }, /padding is missing/)
    await rejects({ input: 'Zh==', action: 'decode', strict: true }, /unused bits/)
    await rejects({ input: 'Zm9v YmFy', action: 'decode', strict: true }, /whitespace at position 4/)
    await rejects({ input: '-_8=', action: 'decode', strict: true }, /other base64 alphabet/)
    await rejects({ input: 'data:text/plain;base64,aGk=', action: 'decode', strict: true }, /data: URL/)
    assert.equal((await run({ input: 'Zg==', action: 'decode', strict: true })).result, 'f')
    assert.equal((await run({ input: '-_8', action: 'decode', strict: true, variant: 'url', outputEncoding: 'hex' })).result, 'fbff')
  })

  test('bytes that are not UTF-8 are refused with a hint, never replaced', async () => {
    await rejects({ input: '/w==', action: 'decode' }, /not valid UTF-8.*outputEncoding/)
    assert.equal((await run({ input: '/w==', action: 'decode', outputEncoding: 'latin1' })).result, '\u00ff')
  })

  test('round trip: any Unicode string survives encode then decode, in both variants', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.constantFrom('standard', 'url'), fc.boolean(), async (text, variant, padding) => {
        const encoded = await run({ input: text, variant, padding })
        const decoded = await run({ input: encoded.result, action: 'decode', variant, padding, strict: true })
        assert.equal(decoded.result, text)
      }),
    )
  })

  test('round trip: any bytes survive through hex', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array(), async (bytes) => {
        const hex = Buffer.from(bytes).toString('hex')
        const encoded = await run({ input: hex, inputEncoding: 'hex', lineLength: 64 })
        assert.equal((await run({ input: encoded.result, action: 'decode', outputEncoding: 'hex' })).result, hex)
      }),
    )
  })
})

describe('base64: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => base64.offload!(validate(base64.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
