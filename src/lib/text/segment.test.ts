import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { promisify } from 'node:util'
import fc from 'fast-check'
import { cpuTimeOf } from '../../../test/expect.ts'
import { ROOT } from '../../../test/processes.ts'
import { type Granularity, segmentsOf } from './segment.ts'

/** Pieces that the segmentation rules treat specially, mixed with plain letters, digits and spaces. */
const PIECES = [
  'a',
  'Z',
  '7',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '.',
  ',',
  "'",
  '-',
  '_',
  ':',
  'é',
  'e\u0301',
  '\u0301',
  '\u200d',
  '\u200c',
  '\ufe0f',
  '\u00ad',
  '中',
  '文',
  'の',
  'カ',
  'ー',
  '\u1100',
  '\u1161',
  '\u11a8',
  '한',
  '글',
  '\u{1f1eb}',
  '\u{1f1f7}',
  '\u{1f468}',
  '\u{1f3fd}',
  '\u{1f469}',
  '\u2764',
  'क',
  '\u094d',
  'ष',
  'ि',
  '\u0d4e',
  'മ',
  '\u0600',
  '٣',
  'א',
  '״',
]

/** Pieces that the sentence rules treat specially: terminators, closing marks, spaces, separators, upper- and lower-case words. */
const SENTENCE_PIECES = [
  'a',
  'Z',
  'Mr',
  'etc',
  '7',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u0085',
  '\u2028',
  '\u2029',
  '.',
  '. ',
  '! ',
  '?',
  '\u3002',
  '\uff01',
  ';',
  ',',
  ':',
  '-',
  '"',
  "'",
  '(',
  ')',
  '\u00bb',
  '\u201d',
  '\u300d',
  '\u0301',
  '\u200d',
  '\u00ad',
  '\u00a0',
  '中',
  'の',
  'é',
  'Σ',
  'ǅ',
  'ß',
  '١',
  'a.b',
  '\u{1F600}',
  '\u{1F1EB}',
  '\u0964',
]

const granularities: Granularity[] = ['grapheme', 'word', 'sentence']

const whole = (text: string, granularity: Granularity, locale = 'und') =>
  Array.from(new Intl.Segmenter(locale, { granularity }).segment(text), ({ segment, index }) => [segment, index])

/** The cases of a UAX #29 break test file: each text with the offsets (UTF-16) where the file puts a break. */
function breakTestCases(file: string): Array<{ line: string; text: string; breaks: number[] }> {
  const cases = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const body = line.split('#')[0].trim()
    if (body === '') continue
    let text = ''
    const breaks: number[] = []
    for (const token of body.split(/\s+/)) {
      if (token === '÷') breaks.push(text.length)
      else if (token !== '×') text += String.fromCodePoint(Number.parseInt(token, 16))
    }
    cases.push({ line: body, text, breaks })
  }
  return cases
}

const SENTENCE_BREAK_TEST = join(ROOT, 'test/fixtures/suites/uax29-sentence-break/SentenceBreakTest.txt')
/**
 * Cases of SentenceBreakTest.txt where the ICU of the Node that runs the tests breaks otherwise, with
 * why: none with ICU 78.2 (Unicode 17), the version the file is of. A newer or older ICU may differ
 * on characters whose Sentence_Break value changed; list such lines here rather than pin them.
 */
const SENTENCE_BREAK_EXCEPTIONS: Record<string, string> = {}

describe('segmentsOf', () => {
  for (const granularity of granularities) {
    test(`${granularity}: cut into pieces, the segments are those of the whole text (fast-check)`, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (pieces, chunkLength) => {
          const text = pieces.join('')
          const chunked = Array.from(segmentsOf(text, granularity, chunkLength), ({ segment, index }) => [segment, index])
          assert.deepEqual(chunked, whole(text, granularity))
        }),
        { numRuns: 3000 },
      )
    })
  }

  for (const locale of ['und', 'el', 'ja', 'de', 'en-US-u-ss-standard']) {
    test(`sentence (${locale}): cut into pieces, the segments are those of the whole text (fast-check)`, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...SENTENCE_PIECES), { maxLength: 80 }), fc.integer({ min: 1, max: 8 }), (pieces, chunkLength) => {
          const text = pieces.join('')
          const chunked = Array.from(segmentsOf(text, 'sentence', chunkLength, locale), ({ segment, index }) => [segment, index])
          assert.deepEqual(chunked, whole(text, 'sentence', locale))
        }),
        { numRuns: 1500 },
      )
    })
  }

  test('UAX #29 SentenceBreakTest.txt: every case breaks where the file says, unchunked and cut into pieces', () => {
    const cases = breakTestCases(SENTENCE_BREAK_TEST)
    assert.equal(cases.length, 512)
    const failed: string[] = []
    for (const { line, text, breaks } of cases) {
      for (const chunkLength of [128, 1, 2]) {
        const found = [0, ...Array.from(segmentsOf(text, 'sentence', chunkLength), ({ segment, index }) => index + segment.length)]
        if (JSON.stringify(found) !== JSON.stringify(breaks)) failed.push(`${line} (pieces of ${chunkLength}): ${JSON.stringify(found)}`)
      }
    }
    assert.deepEqual(
      failed.filter((failure) => !Object.keys(SENTENCE_BREAK_EXCEPTIONS).some((line) => failure.startsWith(line))),
      [],
    )
    const joined = cases.map(({ text }) => text).join('')
    for (const chunkLength of [1, 3, 8, 32]) {
      assert.deepEqual(
        Array.from(segmentsOf(joined, 'sentence', chunkLength), ({ segment, index }) => [segment, index]),
        whole(joined, 'sentence'),
        `the file's texts joined, in pieces of ${chunkLength}`,
      )
    }
  })

  test('sentences: a full stop that a lower-case word continues past a long run of digits and spaces is no boundary (SB8), cut or not', () => {
    const texts = [`x. ${'1 '.repeat(100)}b c. Next`, `${`A. ${'1 '.repeat(100)}`.repeat(5)}b`, `${`a! ${'. '.repeat(70)}, `.repeat(20)}c`]
    for (const text of texts) {
      for (const chunkLength of [1, 4, 16, 64]) {
        const chunked = Array.from(segmentsOf(text, 'sentence', chunkLength), ({ segment, index }) => [segment, index])
        assert.deepEqual(chunked, whole(text, 'sentence'), `pieces of ${chunkLength}: ${text.slice(0, 12)}…`)
      }
    }
  })

  test('sentences: a locale picks ICU’s tailoring (Greek ends a sentence at ;)', () => {
    const segments = (locale: string) => Array.from(segmentsOf('Τι κάνεις; Καλά.', 'sentence', undefined, locale), ({ segment }) => segment)
    assert.deepEqual(segments('el'), ['Τι κάνεις; ', 'Καλά.'])
    assert.deepEqual(segments('und'), ['Τι κάνεις; Καλά.'])
  })

  test("a process's first word segmentation of kana is the same as every later one", async () => {
    const script =
      "import { segmentsOf } from './src/lib/text/segment.ts'; console.log(JSON.stringify(Array.from(segmentsOf('ーのaZ', 'word'), (s) => s.segment)))"
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT })
    assert.deepEqual(JSON.parse(stdout), ['ー', 'の', 'aZ'])
  })

  test('words keep isWordLike', () => {
    assert.deepEqual(
      Array.from(segmentsOf('Hi, you', 'word', 2), ({ segment, isWordLike }) => [segment, isWordLike]),
      [
        ['Hi', true],
        [',', false],
        [' ', false],
        ['you', true],
      ],
    )
  })

  test('texts with no certain boundary (emoji sequences, CJK, a cluster of a thousand marks) are cut where the segmenter cuts them', () => {
    const texts = [
      '\u{1F468}\u200D\u{1F469}\u202e'.repeat(3000),
      '日本語の文章です'.repeat(1000),
      `a${'\u0301'.repeat(5000)}b${'\u0300'.repeat(3000)}`,
      '\u{1F1EB}\u{1F1F7}'.repeat(3000),
    ]
    for (const text of texts) {
      for (const granularity of granularities) {
        const chunked = Array.from(segmentsOf(text, granularity, 64), ({ segment, index }) => [segment, index])
        assert.deepEqual(chunked, whole(text, granularity), `${granularity} of ${text.slice(0, 12)}…`)
      }
    }
    const cpu = cpuTimeOf(() => {
      for (const _ of segmentsOf('\u{1F468}\u200D\u{1F469}\u202e'.repeat(100_000), 'grapheme'));
    })
    assert.ok(cpu < 3000, `${cpu} ms for 600,000 code units`)
  })

  test('time grows linearly: 40,000 words take well under a second (Intl.Segmenter alone takes minutes)', () => {
    const text = 'word '.repeat(40_000)
    let count = 0
    const cpu = cpuTimeOf(() => {
      for (const _ of segmentsOf(text, 'word')) count++
    })
    assert.equal(count, 80_000)
    assert.ok(cpu < 1000, `${cpu} ms`)
    const graphemes = cpuTimeOf(() => {
      count = 0
      for (const _ of segmentsOf('语言'.repeat(50_000), 'grapheme')) count++
    })
    assert.equal(count, 100_000)
    assert.ok(graphemes < 1000, `${graphemes} ms`)
  })

  test('sentences in linear time: 320 KB of short sentences, or of sentences with no certain cut, take well under 2 s (Intl.Segmenter alone takes seconds)', () => {
    const texts = [
      'This is it. '.repeat(27_000),
      '1. '.repeat(110_000),
      '私は猫です。'.repeat(55_000),
      'no capitals here. '.repeat(18_000),
      'Short one? Yes! '.repeat(20_000),
    ]
    for (const text of texts) {
      let count = 0
      const cpu = cpuTimeOf(() => {
        for (const _ of segmentsOf(text, 'sentence')) count++
      })
      assert.ok(count > 0)
      assert.ok(cpu < 2000, `${cpu} ms for ${text.length} code units of ${text.slice(0, 12)}…`)
    }
    assert.equal(Array.from(segmentsOf(texts[0], 'sentence')).length, 27_000)
  })
})
