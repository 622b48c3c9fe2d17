import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { jsonEscape, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(jsonEscape, input, { timeBudgetMs: 60_000 })
const escaped = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result as string
const unescaped = async (input: string) => (await run({ input, action: 'unescape' })).result as string
const refuses = (input: string, position: number, pattern: RegExp) =>
  expectRefusal(run({ input, action: 'unescape' }), { code: 'INVALID_INPUT', position, message: pattern })

/** What JSON.parse makes of a literal, or undefined if it refuses it or the result is not well-formed Unicode. */
function parseLiteral(literal: string): string | undefined {
  try {
    const value = JSON.parse(literal) as unknown
    return typeof value === 'string' && value.isWellFormed() ? value : undefined
  } catch {
    return undefined
  }
}

/** Characters that make JSON string grammar interesting, mixed with arbitrary Unicode. */
const jsonish = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\\', '"', 'u', 'U', 'd', 'D', '8', '0', 'a', 'F', 'b', 'n', '/', 'x', '\n', '\t', '\u0000', '\u001f', '\u007f'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    // \u escapes, often of surrogates, in either case
    fc
      .tuple(fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0xffff })), fc.boolean())
      .map(([unit, upper]) => `\\u${unit.toString(16).padStart(4, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`),
  ),
  maxLength: 30,
})

describe('json-escape', () => {
  test('escapes every short form, other control characters as lower-case \\u00xx, and leaves / alone', async () => {
    assert.equal(await escaped('"\\/\b\f\n\r\t'), '\\"\\\\/\\b\\f\\n\\r\\t')
    assert.equal(await escaped('\u0000\u0001\u001f\u007f'), '\\u0000\\u0001\\u001f\u007f')
    for (let code = 0; code < 0x20; code++) {
      const char = String.fromCharCode(code)
      assert.equal(await escaped(char), JSON.stringify(char).slice(1, -1))
    }
  })

  test('asciiOnly writes non-ASCII as lower-case \\uxxxx, astral characters as surrogate pairs', async () => {
    assert.equal(await escaped('é€😀', { asciiOnly: true }), '\\u00e9\\u20ac\\ud83d\\ude00')
    assert.equal(await escaped('é€😀'), 'é€😀')
    assert.equal(await escaped('\u2028\u00ff', { asciiOnly: true, wrapInQuotes: true }), '"\\u2028\\u00ff"')
    assert.match(await escaped('\u0080\uffff\u{10ffff}', { asciiOnly: true }), /^[\x20-\x7e]*$/)
  })

  test('answers result then action', async () => {
    assert.deepEqual(Object.keys(await run({ input: 'x' })), ['result', 'action'])
    assert.deepEqual(await run({ input: '\\n', action: 'unescape' }), { result: '\n', action: 'unescape' })
  })

  test('unescapes every short escape and \\u escapes in either case', async () => {
    assert.equal(await unescaped('\\"\\\\\\/\\b\\f\\n\\r\\t'), '"\\/\b\f\n\r\t')
    assert.equal(await unescaped('\\u0041\\u00e9\\u00E9\\uABCD\\uabcd'), 'A\u00e9\u00e9\uabcd\uabcd')
    assert.equal(await unescaped('\\ud83d\\ude00 \\uD83D\\uDE00'), '😀 😀')
    assert.equal(await unescaped('raw 😀 and \u007f and \u2028'), 'raw 😀 and \u007f and \u2028')
  })

  test('unescape accepts the literal with or without its quotes', async () => {
    assert.equal(await unescaped('"a\\"b"'), 'a"b')
    assert.equal(await unescaped('a\\"b'), 'a"b')
    assert.equal(await unescaped('""'), '')
    assert.equal(await unescaped(''), '')
    assert.equal(await unescaped('\\"quoted\\"'), '"quoted"')
  })

  test('refuses each raw control character with its position', async () => {
    for (let code = 0; code < 0x20; code++) {
      await refuses(`ab${String.fromCharCode(code)}`, 2, /control character U\+00[01][0-9A-F] at position 2/)
      await refuses(`"${String.fromCharCode(code)}"`, 1, /control character/)
    }
  })

  test('refuses each invalid escape with the position of its backslash', async () => {
    for (const letter of ['x', 'a', 'U', '0', "'", 'v', 'e', ' ', '\n', 'é', '😀']) {
      await refuses(`ok \\${letter}`, 3, /is followed by .*which starts no JSON escape/)
    }
    await refuses('\\u12', 0, /four hex digits/)
    await refuses('ab\\u12g4', 2, /four hex digits/)
    await refuses('\\u+123', 0, /four hex digits/)
    await refuses('trailing \\', 9, /ends the text/)
  })

  test('refuses unescaped and misplaced quotes', async () => {
    await refuses('say "hi"', 4, /quote at position 4 is not escaped/)
    await refuses('"a"b"', 2, /closes the string but text follows/)
    await refuses('"unclosed', 9, /never closed/)
    await refuses('"', 1, /never closed/)
    await refuses('"ends escaped\\"', 15, /never closed/)
  })

  test('refuses escaped lone surrogates: the result would not be Unicode', async () => {
    await refuses('\\ud800', 0, /high surrogate/)
    await refuses('ab\\udc00', 2, /low surrogate/)
    await refuses('\\ud83dx', 0, /high surrogate/)
    await refuses('\\ud83d\\ud83d\\ude00', 0, /high surrogate/)
    await refuses('\\ude00\\ud83d', 0, /low surrogate/)
    await refuses('\\ud83d\\u12', 6, /four hex digits/)
  })

  test('a lone surrogate in the input itself is refused before escaping', async () => {
    await assert.rejects(run({ input: 'a\ud800' }), { code: 'INVALID_INPUT' })
  })

  test('schema: unknown fields and wrong types are 400s', async () => {
    await assert.rejects(run({ input: 'x', action: 'decode' }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: 'x', asciiOnly: 1 }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: 'x', wrapinquotes: true }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({}), { code: 'VALIDATION_ERROR' })
  })

  test('property: escaped(x) is what JSON.stringify writes between its quotes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), async (text) => {
        assert.equal(await escaped(text), JSON.stringify(text).slice(1, -1))
        assert.equal(await escaped(text, { wrapInQuotes: true }), JSON.stringify(text))
        const ascii = await escaped(text, { asciiOnly: true, wrapInQuotes: true })
        assert.match(ascii, /^[\x20-\x7e]*$/)
        assert.equal(JSON.parse(ascii), text)
      }),
    )
  })

  test('property: unescaped(escaped(x)) === x, with and without asciiOnly and wrapInQuotes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), fc.boolean(), fc.boolean(), async (text, asciiOnly, wrapInQuotes) => {
        assert.equal(await unescaped(await escaped(text, { asciiOnly, wrapInQuotes })), text)
      }),
    )
  })

  test('property: unescape accepts exactly what JSON.parse accepts, and agrees with it', async () => {
    await fc.assert(
      fc.asyncProperty(jsonish, async (body) => {
        const literal = `"${body}"`
        const expected = parseLiteral(literal)
        const forms = body.startsWith('"') ? [literal] : [literal, body]
        for (const form of forms) {
          const answer = await run({ input: form, action: 'unescape' }).then(
            (data) => data.result,
            (error: { code?: string }) => {
              assert.equal(error.code, 'INVALID_INPUT')
              return undefined
            },
          )
          assert.equal(answer, expected, `unescape ${JSON.stringify(form)}`)
        }
      }),
      { numRuns: 1000 },
    )
  })

  test('escape refuses output beyond the 16 MiB limit, counting its UTF-8 size exactly', async () => {
    const limit = 16 * 1024 * 1024
    // With asciiOnly each astral character (4 bytes of UTF-8) becomes the twelve characters \ud83d\ude00.
    await assert.rejects(run({ input: '😀'.repeat(Math.floor(limit / 12) + 1), asciiOnly: true }), { code: 'LIMIT_EXCEEDED' })
    // é takes two bytes in UTF-8 and \n two characters: exactly at the limit is allowed, one byte more is not.
    const atLimit = `${'é'.repeat(limit / 2 - 1)}\n`
    assert.equal((await escaped(atLimit)).length, limit / 2 + 1)
    await assert.rejects(run({ input: `${atLimit}x` }), { code: 'LIMIT_EXCEEDED' })
  })
})

describe('json-escape: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => jsonEscape.offload!(validate(jsonEscape.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
