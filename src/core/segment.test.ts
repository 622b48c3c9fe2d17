import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { describe, test } from 'node:test'
import { promisify } from 'node:util'
import fc from 'fast-check'
import { cpuTimeOf } from '../../test/expect.ts'
import { ROOT } from '../../test/processes.ts'
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

const granularities: Granularity[] = ['grapheme', 'word']

const whole = (text: string, granularity: Granularity) =>
  Array.from(new Intl.Segmenter('und', { granularity }).segment(text), ({ segment, index }) => [segment, index])

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

  test("a process's first word segmentation of kana is the same as every later one", async () => {
    const script = "import { segmentsOf } from './src/core/segment.ts'; console.log(JSON.stringify(Array.from(segmentsOf('ーのaZ', 'word'), (s) => s.segment)))"
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
})
