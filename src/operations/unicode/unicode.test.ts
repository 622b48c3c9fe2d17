import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOf, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { MAX_INPUT_LENGTH, MAX_LISTED, unicode } from './index.ts'

const run = (input: Record<string, unknown>) => execute(unicode, input, { timeBudgetMs: 60_000 })
type Entry = { index: number; codePoint: string; character?: string; utf8?: string; utf16: string; category: string; flags: string[] }
type Totals = { codeUnits: number; codePoints: number; graphemes: number; utf8Bytes: number; words: number; lines: number }
const inspect = async (input: string, fields: Record<string, unknown> = {}) => {
  const data = await run({ input, ...fields })
  return { entries: data.result as Entry[], totals: data.totals as Totals, flagged: data.flagged as Record<string, number>, truncated: data.truncated }
}
const normalized = async (input: string, form: string) => (await run({ input, action: 'normalize', form })).result as string
const fromHex = (codePoints: string) => String.fromCodePoint(...codePoints.split(' ').map((hex) => Number.parseInt(hex, 16)))

after(() => closeWorkerPool())

describe('unicode normalize', () => {
  test('UAX #15, the table of the four forms: U+1E9B U+0323 (ẛ̣)', async () => {
    const source = fromHex('1E9B 0323')
    assert.equal(await normalized(source, 'NFC'), fromHex('1E9B 0323'))
    assert.equal(await normalized(source, 'NFD'), fromHex('017F 0323 0307'))
    assert.equal(await normalized(source, 'NFKC'), fromHex('1E69'))
    assert.equal(await normalized(source, 'NFKD'), fromHex('0073 0323 0307'))
  })

  test('NormalizationTest.txt lines checked by hand, with the invariants its header states for each column', async () => {
    // source; NFC; NFD; NFKC; NFKD
    const lines = [
      '1E0A;1E0A;0044 0307;1E0A;0044 0307;',
      '1E0C 0307;1E0C 0307;0044 0323 0307;1E0C 0307;0044 0323 0307;',
      '1E0A 0323;1E0C 0307;0044 0323 0307;1E0C 0307;0044 0323 0307;',
      '00C5;00C5;0041 030A;00C5;0041 030A;',
      '212B;00C5;0041 030A;00C5;0041 030A;',
      '2126;03A9;03A9;03A9;03A9;',
      'FB01;FB01;FB01;0066 0069;0066 0069;',
      '1E9B 0323;1E9B 0323;017F 0323 0307;1E69;0073 0323 0307;',
      'AC00;AC00;1100 1161;AC00;1100 1161;',
      'AC01;AC01;1100 1161 11A8;AC01;1100 1161 11A8;',
    ]
    for (const line of lines) {
      const [c1, c2, c3, c4, c5] = line.split(';').slice(0, 5).map(fromHex)
      for (const source of [c1, c2, c3]) {
        assert.equal(await normalized(source, 'NFC'), c2, `NFC ${line}`)
        assert.equal(await normalized(source, 'NFD'), c3, `NFD ${line}`)
      }
      for (const source of [c4, c5]) {
        assert.equal(await normalized(source, 'NFC'), c4, `NFC ${line}`)
        assert.equal(await normalized(source, 'NFD'), c5, `NFD ${line}`)
      }
      for (const source of [c1, c2, c3, c4, c5]) {
        assert.equal(await normalized(source, 'NFKC'), c4, `NFKC ${line}`)
        assert.equal(await normalized(source, 'NFKD'), c5, `NFKD ${line}`)
      }
    }
  })

  test('conjoining jamo compose to a syllable (Unicode §3.12: L 1100 + V 1161 + T 11A8 is SIndex 1, U+AC01)', async () => {
    assert.equal(await normalized(fromHex('1100 1161 11A8'), 'NFC'), '각')
  })

  test('alreadyNormalized tells whether the text was in that form', async () => {
    assert.equal((await run({ input: 'é', action: 'normalize' })).alreadyNormalized, true)
    assert.equal((await run({ input: 'é', action: 'normalize', form: 'NFD' })).alreadyNormalized, false)
    assert.deepEqual(await run({ input: '', action: 'normalize', form: 'NFKD' }), { result: '', action: 'normalize', form: 'NFKD', alreadyNormalized: true })
  })

  test('normalizing is idempotent and NFC/NFD round-trip any Unicode text (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom('NFC', 'NFD', 'NFKC', 'NFKD'), async (text, form) => {
        const once = await normalized(text, form)
        assert.equal(await normalized(once, form), once)
        assert.equal((await run({ input: once, action: 'normalize', form })).alreadyNormalized, true)
        assert.equal(await normalized(await normalized(text, 'NFD'), 'NFC'), await normalized(text, 'NFC'))
      }),
      { numRuns: 150 },
    )
  })

  test('a lone surrogate is refused with its position: normalization forms are defined for Unicode text only', async () => {
    await expectRefusal(run({ input: 'ab\udc00', action: 'normalize' }), {
      code: 'INVALID_INPUT',
      message: /lone surrogate \(U\+DC00\) at position 2/,
      position: 2,
    })
    await expectRefusal(run({ input: '😀\ud83d', action: 'normalize' }), { code: 'INVALID_INPUT', position: 2 })
  })
})

describe('unicode inspect', () => {
  test('UTF-8 bytes of RFC 3629 §7’s examples, one code point at a time', async () => {
    const utf8Of = async (text: string) => (await inspect(text)).entries.map((entry) => entry.utf8).join(' ')
    assert.equal(await utf8Of('A\u2262\u0391.'), '41 E2 89 A2 CE 91 2E')
    assert.equal(await utf8Of('한국어'), 'ED 95 9C EA B5 AD EC 96 B4')
    assert.equal(await utf8Of('日本語'), 'E6 97 A5 E6 9C AC E8 AA 9E')
    assert.equal(await utf8Of('\u{233B4}'), 'F0 A3 8E B4')
  })

  test('UTF-16 surrogate pairs as RFC 2781 §2.1 computes them: U+12345 is D808 DF45, U+10FFFF is DBFF DFFF', async () => {
    const { entries } = await inspect('\u{12345}\u{10FFFF}')
    assert.deepEqual(
      entries.map((entry) => [entry.index, entry.codePoint, entry.utf16, entry.utf8]),
      [
        [0, 'U+12345', 'D808 DF45', 'F0 92 8D 85'],
        [2, 'U+10FFFF', 'DBFF DFFF', 'F4 8F BF BF'],
      ],
    )
  })

  test('one example of every general category, from the platform’s tables', async () => {
    const samples: Array<[string, string]> = [
      ['A', 'Lu'], ['ǅ', 'Lt'], ['ʰ', 'Lm'], ['中', 'Lo'], ['\u0301', 'Mn'], ['\u0903', 'Mc'], ['\u20dd', 'Me'], ['٣', 'Nd'], ['Ⅻ', 'Nl'], ['½', 'No'],
      ['_', 'Pc'], ['-', 'Pd'], ['(', 'Ps'], [')', 'Pe'], ['«', 'Pi'], ['»', 'Pf'], ['!', 'Po'], ['+', 'Sm'], ['$', 'Sc'], ['^', 'Sk'], ['©', 'So'],
      [' ', 'Zs'], ['\u2028', 'Zl'], ['\u2029', 'Zp'], ['\u0000', 'Cc'], ['\u200b', 'Cf'], ['\ud800', 'Cs'], ['\ue000', 'Co'], ['\uffff', 'Cn'],
    ] // biome-ignore format: one pair per category reads best as a table
    const { entries } = await inspect(samples.map(([character]) => character).join(''))
    assert.deepEqual(
      entries.map((entry) => entry.category),
      samples.map(([, category]) => category),
    )
  })

  test('an emoji ZWJ sequence and a flag are one grapheme each (UAX #29 GB11, GB12)', async () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'
    assert.deepEqual((await inspect(family)).totals, { codeUnits: 11, codePoints: 7, graphemes: 1, utf8Bytes: 25, words: 0, lines: 1 })
    assert.deepEqual((await inspect('\u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA}')).totals.graphemes, 2, 'FR DE: regional indicators pair up')
  })

  test('Hangul: precomposed syllables and their conjoining jamo are the same three graphemes (UAX #29 GB6–GB8)', async () => {
    assert.deepEqual((await inspect('한국어')).totals, { codeUnits: 3, codePoints: 3, graphemes: 3, utf8Bytes: 9, words: 1, lines: 1 })
    const jamo = '한국어'.normalize('NFD')
    assert.deepEqual((await inspect(jamo)).totals, { codeUnits: 8, codePoints: 8, graphemes: 3, utf8Bytes: 24, words: 1, lines: 1 })
  })

  test('combining marks and CR LF stay in one grapheme; words and lines are counted', async () => {
    assert.deepEqual((await inspect('Cafe\u0301 au lait\r\nsecond line\n')).totals, {
      codeUnits: 27,
      codePoints: 27,
      graphemes: 25,
      utf8Bytes: 28,
      words: 5,
      lines: 2,
    })
    assert.equal((await inspect('')).totals.lines, 0)
    assert.equal((await inspect('a\u2028b\u0085c\rd')).totals.lines, 4)
    assert.equal((await inspect('\n\n')).totals.lines, 2)
  })

  test('flags: invisible, bidi-control and confusable characters', async () => {
    const { entries, flagged } = await inspect('a\u200bb\u00a0c\u202ed\u2066e ｅ 𝐞 gοogle Привет world')
    const flagsOf = (character: string) => entries.find((entry) => entry.character === character)?.flags
    assert.deepEqual(flagsOf('\u200b'), ['invisible'])
    assert.deepEqual(flagsOf('\u00a0'), ['invisible'])
    assert.deepEqual(flagsOf('\u202e'), ['invisible', 'bidi-control'])
    assert.deepEqual(flagsOf('\u2066'), ['invisible', 'bidi-control'])
    assert.deepEqual(flagsOf('ｅ'), ['confusable'], 'full-width e is e under NFKC')
    assert.deepEqual(flagsOf('𝐞'), ['confusable'], 'mathematical bold e is e under NFKC')
    assert.deepEqual(flagsOf('ο'), ['confusable'], 'a Greek omicron inside a Latin word')
    assert.deepEqual(flagsOf('П'), [], 'a word all in Cyrillic is not suspicious')
    assert.deepEqual(flagsOf(' '), [])
    assert.deepEqual(flagged, { invisible: 4, bidiControl: 2, confusable: 3, loneSurrogates: 0 })
  })

  test('lone surrogates are listed as such, without a character or UTF-8, and left out of utf8Bytes', async () => {
    const { entries, totals, flagged } = await inspect('a\ud800b\udfff\u{1F600}')
    assert.deepEqual(entries[1], { index: 1, codePoint: 'U+D800', utf16: 'D800', category: 'Cs', categoryName: 'Surrogate', flags: ['lone-surrogate'] })
    assert.deepEqual(entries[3], { index: 3, codePoint: 'U+DFFF', utf16: 'DFFF', category: 'Cs', categoryName: 'Surrogate', flags: ['lone-surrogate'] })
    assert.equal(entries[4].codePoint, 'U+1F600', 'a proper pair is one code point')
    assert.equal(totals.utf8Bytes, 6)
    assert.equal(totals.codePoints, 5)
    assert.equal(flagged.loneSurrogates, 2)
  })

  test('maxCodePoints bounds the list and truncated says so; the totals cover everything', async () => {
    const text = 'x'.repeat(50)
    const some = await inspect(text, { maxCodePoints: 10 })
    assert.equal(some.entries.length, 10)
    assert.equal(some.truncated, true)
    assert.equal(some.totals.codePoints, 50)
    assert.equal((await inspect(text, { maxCodePoints: 50 })).truncated, false)
    assert.equal((await inspect(text, { maxCodePoints: 0 })).entries.length, 0)
    await expectRefusal(run({ input: 'x', maxCodePoints: MAX_LISTED + 1 }), { code: 'VALIDATION_ERROR', field: 'maxCodePoints' })
    await expectRefusal(run({ input: 'x'.repeat(MAX_INPUT_LENGTH + 1) }), { code: 'VALIDATION_ERROR', field: 'input' })
  })

  test('the largest input with the longest list stays far within the output limit, on a worker', async () => {
    const repeats = Math.floor(MAX_INPUT_LENGTH / 6)
    const input = '\u{1F468}\u200D\u{1F469}\u202e'.repeat(repeats)
    assert.equal(unicode.offload?.(validate(unicode.input, { input })), true)
    const data = await run({ input, maxCodePoints: MAX_LISTED })
    assert.ok(Buffer.byteLength(JSON.stringify(data)) < OUTPUT_LIMIT_BYTES / 4)
    assert.equal((data.totals as Totals).graphemes, repeats * 2)
    assert.equal((data.result as Entry[]).length, MAX_LISTED)
  })

  test('the slowest text to segment (CJK words, found by dictionary) at the largest size takes well under the time budget', () => {
    const fields = { input: '日本語の文章です'.repeat(MAX_INPUT_LENGTH / 8) }
    const cpu = cpuTimeOf(() => unicode.run(validate(unicode.input, fields)))
    assert.ok(cpu < 3000, `${cpu} ms`)
  })

  test('offload: long inspections go to a worker, normalization only when much longer', () => {
    const offloads = (input: Record<string, unknown>) => unicode.offload?.(validate(unicode.input, input))
    assert.equal(offloads({ input: 'x'.repeat(1000) }), false)
    assert.equal(offloads({ input: 'x'.repeat(10_000) }), true)
    assert.equal(offloads({ input: 'x'.repeat(10_000), action: 'normalize' }), false)
    assert.equal(offloads({ input: 'x'.repeat(70_000), action: 'normalize' }), true)
  })
})
