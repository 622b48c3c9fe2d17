import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { type ExpectedRefusal, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { MORSE_CODE, morse, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(morse, input, { timeBudgetMs: 60_000 })
const encode = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result as string
const decode = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, action: 'decode', ...options })).result as string
const rejects = (input: Record<string, unknown>, code: string, expected: ExpectedRefusal = {}) => expectRefusal(run(input), { code, ...expected })

// ITU-R M.1677-1 §1.1, in the recommendation's order, typed from it independently of the implementation.
const ITU = `
  A .-  B -...  C -.-.  D -..  E .  F ..-.  G --.  H ....  I ..  J .---  K -.-  L .-..  M --  N -.  O ---
  P .--.  Q --.-  R .-.  S ...  T -  U ..-  V ...-  W .--  X -..-  Y -.--  Z --..
  1 .----  2 ..---  3 ...--  4 ....-  5 .....  6 -....  7 --...  8 ---..  9 ----.  0 -----
  . .-.-.-  , --..--  : ---...  ? ..--..  ' .----.  - -....-  / -..-.  ( -.--.  ) -.--.-  " .-..-.  = -...-  + .-.-.  @ .--.-.
`
// Not in the recommendation; the codes in common use (the ITU "wait" sign serves as &).
const CUSTOMARY = '! -.-.--  & .-...  ; -.-.-.  _ ..--.-  $ ...-..-'
const EXPECTED = Object.fromEntries(
  `${ITU}  ${CUSTOMARY}`
    .trim()
    .split(/\s{2,}/)
    .map((pair) => pair.trim().split(' ') as [string, string]),
)

describe('morse', () => {
  test('the table is ITU-R M.1677-1 plus ! & ; _ $, with distinct codes', () => {
    assert.equal(Object.keys(EXPECTED).length, 26 + 10 + 13 + 5)
    assert.deepEqual({ ...MORSE_CODE }, EXPECTED)
    assert.equal(new Set(Object.values(MORSE_CODE)).size, Object.keys(MORSE_CODE).length)
  })

  test('every character encodes to its code (letters in either case) and every code decodes back', async () => {
    for (const [character, code] of Object.entries(EXPECTED)) {
      assert.equal(await encode(character), code, character)
      assert.equal(await encode(character.toLowerCase()), code, character.toLowerCase())
      assert.equal(await decode(code), character, code)
    }
    const all = Object.keys(EXPECTED).join('')
    assert.equal(await decode(await encode(all)), all)
  })

  test('SOS and HELLO WORLD', async () => {
    assert.equal(await encode('SOS'), '... --- ...')
    assert.equal(await decode('... --- ...'), 'SOS')
    const hello = '.... . .-.. .-.. --- / .-- --- .-. .-.. -..'
    assert.equal(await encode('Hello World'), hello)
    assert.equal(await decode(hello), 'HELLO WORLD')
  })

  test('whitespace runs are one word break; whitespace at either end is dropped', async () => {
    assert.equal(await encode('  a \t\n b  '), '.- / -...')
    assert.equal(await encode(''), '')
    assert.equal(await encode('   '), '')
    assert.equal(await decode('  / .- /  -... |  '), 'A B')
    assert.equal(await decode(''), '')
  })

  test('custom symbols and separators, both ways', async () => {
    const options = { dot: 'dit', dash: 'dah', letterSeparator: ',', wordSeparator: ' // ' }
    const encoded = await encode('Hi all', options)
    assert.equal(encoded, 'ditditditdit,ditdit // ditdah,ditdahditdit,ditdahditdit')
    assert.equal(await decode(encoded, options), 'HI ALL')
    assert.equal(await encode('sos', { dot: '•', dash: '—' }), '••• ——— •••')
    assert.equal(await decode('••• ——— •••', { dot: '•', dash: '—' }), 'SOS')
    // A chosen symbol wins over the built-in meaning of the same character.
    assert.equal(await decode('_-', { dot: '_', dash: '-' }), 'A')
    assert.equal(await decode('-_', { dot: '_', dash: '-' }), 'N')
  })

  test('every accepted spelling of dot, dash and word break', async () => {
    for (const dot of ['.', '\u00b7', '\u2022']) {
      for (const dash of ['-', '_', '\u2212', '\u2013']) assert.equal(await decode(`${dot}${dash} ${dash}${dot}${dot}${dot}`), 'AB', `${dot}${dash}`)
    }
    for (const gap of ['/', '|', ' / ', ' | ', '  ', '   ', '\n', '\r\n', ' \n ', '\t\t', '//'])
      assert.equal(await decode(`.-${gap}-...`), 'A B', JSON.stringify(gap))
    for (const gap of [' ', '\t']) assert.equal(await decode(`.-${gap}-...`), 'AB', JSON.stringify(gap))
    assert.equal(await decode('.- # -...', { wordSeparator: ' # ' }), 'A B')
  })

  test('characters outside the alphabet are a 422 listing each with its positions', async () => {
    await rejects({ input: 'a#b é#😀!' }, 'INVALID_INPUT', {
      message: /"#" at positions 1, 5; "é" at position 4; "😀" at position 6/,
      // The whole details, not just these keys.
      check: (error) =>
        assert.deepEqual(error.details, {
          position: 1,
          distinct: 3,
          unknown: [
            { value: '#', count: 2, positions: [1, 5] },
            { value: 'é', count: 1, positions: [4] },
            { value: '😀', count: 1, positions: [6] },
          ],
        }),
    })
  })

  test('unknown codes are a 422 with their positions; a stray character too', async () => {
    await rejects({ input: '... ........ --- ........', action: 'decode' }, 'INVALID_INPUT', {
      details: { unknown: [{ value: '........', count: 2, positions: [4, 17] }] },
      position: 4,
      message: /"\.\.\.\.\.\.\.\." at positions 4, 17/,
    })
    await rejects({ input: '... --x', action: 'decode' }, 'INVALID_INPUT', { position: 6, message: /"x" at position 6 is not Morse/ })
    await rejects({ input: '... --x', action: 'decode', onUnknown: 'skip' }, 'INVALID_INPUT', { position: 6 })
  })

  test('skip mode leaves unknowns out and lists them once each, in order', async () => {
    assert.deepEqual(await run({ input: 'C# 4€ ##', onUnknown: 'skip' }), { result: '-.-. / ....-', action: 'encode', skipped: ['#', '€'] })
    assert.deepEqual(await run({ input: '-.-. ........ / ....- ..--.. -......- ........', action: 'decode', onUnknown: 'skip' }), {
      result: 'C 4?',
      action: 'decode',
      skipped: ['........', '-......-'],
    })
    assert.deepEqual(await run({ input: 'ok' }), { result: '--- -.-', action: 'encode', skipped: [] })
  })

  test('symbols are checked: shape by the schema, readability across fields (400 either way)', async () => {
    const invalid = (options: Record<string, unknown>, field: string) =>
      rejects({ input: 'x', ...options }, 'VALIDATION_ERROR', { check: (error) => JSON.stringify(error.details).includes(`"field":"${field}"`) })
    await invalid({ dot: '' }, 'dot')
    await invalid({ dash: 'x'.repeat(9) }, 'dash')
    await invalid({ letterSeparator: '' }, 'letterSeparator')
    await invalid({ wordSeparator: 'x'.repeat(17) }, 'wordSeparator')
    await invalid({ onUnknown: 'ignore' }, 'onUnknown')
    await invalid({ dot: 'x', dash: 'x' }, 'dash')
    await invalid({ dot: 'di', dash: 'dit' }, 'dash')
    await invalid({ letterSeparator: ' / ' }, 'wordSeparator')
    await invalid({ letterSeparator: ' . ' }, 'letterSeparator')
    await invalid({ dot: '/' }, 'wordSeparator')
  })

  test('output that would pass the limit is refused before it is built', async () => {
    await rejects({ input: '$'.repeat(300_000), dot: 'xxxxxxxx', dash: 'yyyyyyyy' }, 'LIMIT_EXCEEDED')
  })

  test('answers result, action, skipped', async () => {
    assert.deepEqual(Object.keys(await run({ input: 'e' })), ['result', 'action', 'skipped'])
    assert.deepEqual(Object.keys(await run({ input: '.', action: 'decode' })), ['result', 'action', 'skipped'])
  })

  test('round trip: text from the alphabet survives encode then decode, with default and custom symbols', async () => {
    const alphabet = [...Object.keys(EXPECTED), ...'abcdefghijklmnopqrstuvwxyz']
    const word = fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 8 }).map((letters) => letters.join(''))
    const symbols = fc.constantFrom(
      {},
      { dot: '·', dash: '−' },
      { dot: 'dit', dash: 'dah', letterSeparator: '  ', wordSeparator: ' | ' },
      { dot: '0', dash: '1', letterSeparator: ',', wordSeparator: '\n' },
      { dot: '-', dash: '.', letterSeparator: '/', wordSeparator: '|' },
    )
    await fc.assert(
      fc.asyncProperty(fc.array(word, { maxLength: 6 }), symbols, async (words, options) => {
        const text = words.join(' ')
        assert.equal(await decode(await encode(text, options), options), text.toUpperCase())
      }),
    )
  })
})

describe('morse: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => morse.offload!(validate(morse.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
