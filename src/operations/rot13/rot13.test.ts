import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { OFFLOAD_LENGTH, rot13 } from './index.ts'

const run = (input: Record<string, unknown>) => execute(rot13, input, { timeBudgetMs: 60_000 })
const rotate = async (input: string, variant = 'rot13') => (await run({ input, variant })).result

const VARIANTS = ['rot13', 'rot5', 'rot18', 'rot47'] as const
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const PRINTABLE = Array.from({ length: 94 }, (_, k) => String.fromCharCode(33 + k)).join('')
const ALPHABETS: Record<(typeof VARIANTS)[number], string> = { rot13: LETTERS, rot5: DIGITS, rot18: LETTERS + DIGITS, rot47: PRINTABLE }

describe('rot13', () => {
  test('known values', async () => {
    assert.deepEqual(await run({ input: 'Hello, World!' }), { result: 'Uryyb, Jbeyq!', action: 'encode' })
    assert.equal(await rotate('Hello', 'rot47'), 'w6==@')
    assert.equal(await rotate('The Quick Brown Fox Jumps Over The Lazy Dog.'), 'Gur Dhvpx Oebja Sbk Whzcf Bire Gur Ynml Qbt.')
    assert.equal(await rotate('abcxyzABCXYZ 0123456789'), 'nopklmNOPKLM 0123456789')
    assert.equal(await rotate('abc 0123456789', 'rot5'), 'abc 5678901234')
    assert.equal(await rotate('abc 0123456789', 'rot18'), 'nop 5678901234')
    assert.equal(await rotate('!~ azAZ09', 'rot47'), 'PO 2Kp+_h')
    assert.equal(await rotate('The Quick Brown Fox Jumps Over The Lazy Dog.', 'rot47'), '%96 "F:4< qC@H? u@I yF>AD ~G6C %96 {2KJ s@8]')
  })

  test('decode gives the same answer as encode, and is echoed', async () => {
    for (const variant of VARIANTS) {
      const encoded = await run({ input: 'Hello, World 42!', variant })
      assert.deepEqual(await run({ input: 'Hello, World 42!', variant, action: 'decode' }), { result: encoded.result, action: 'decode' })
    }
    assert.deepEqual(Object.keys(await run({ input: 'x', action: 'decode' })), ['result', 'action'])
  })

  test('each variant moves every character of its alphabet and nothing else in ASCII', async () => {
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('')
    for (const variant of VARIANTS) {
      const result = String(await rotate(ascii, variant))
      for (let code = 0; code < 128; code++) {
        const char = ascii[code]
        if (ALPHABETS[variant].includes(char)) {
          assert.notEqual(result[code], char, `${variant} moves ${char}`)
          assert.ok(ALPHABETS[variant].includes(result[code]), `${variant} keeps ${char} in its alphabet`)
        } else {
          assert.equal(result[code], char, `${variant} leaves U+${code.toString(16)} alone`)
        }
      }
    }
  })

  test('non-ASCII text passes through unchanged, astral characters included', async () => {
    for (const variant of VARIANTS) {
      const text = 'ÜÏÖ éàç ß 日本語 😀 \u00a0\u2028 𝔸 ０１２ ＡＢＣ'
      assert.equal(await rotate(text, variant), text)
    }
    assert.equal(await rotate('café 😀!', 'rot47'), '427é 😀P')
  })

  test('long input is rotated whole, across the internal chunks', async () => {
    const input = 'ab😀'.repeat(10_000)
    assert.equal(await rotate(input), 'no😀'.repeat(10_000))
  })

  test('schema errors are 400s', async () => {
    for (const input of [{ input: 'x', variant: 'rot26' }, { input: 'x', action: 'rotate' }, { input: 'x', shift: 3 }, {}]) {
      await assert.rejects(run(input), (error: Error & { code?: string }) => error.code === 'VALIDATION_ERROR')
    }
  })

  test('every variant is an involution and leaves characters outside its alphabet alone', async () => {
    const text = fc.string({
      unit: fc.oneof(fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
    })
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom(...VARIANTS), async (value, variant) => {
        const once = String(await rotate(value, variant))
        assert.equal(once.length, value.length)
        assert.equal(await rotate(once, variant), value)
        for (let i = 0; i < value.length; i++) {
          if (!ALPHABETS[variant].includes(value[i])) assert.equal(once[i], value[i])
        }
      }),
    )
  })
})

describe('rot13: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => rot13.offload!(validate(rot13.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
