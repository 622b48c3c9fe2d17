import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOf, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { loadOperation } from '../registry.ts'
import { MAX_INPUT_LENGTH, textStats } from './index.ts'

/** unicode, reached through the registry as any other operation reaches it. */
const unicode = (await loadOperation('unicode'))!

const run = (input: Record<string, unknown>) => execute(textStats, input, { timeBudgetMs: 60_000 })
type Counts = Record<string, number>
const countsOf = async (input: string, fields: Record<string, unknown> = {}) => (await run({ input, ...fields })).result as Counts

after(() => closeWorkerPool())

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'

/**
 * Inputs and the counts the standards give them: grapheme clusters by the UAX #29 rule each case
 * names, words and sentences by its word and sentence rules, and sizes as UTF-8 (RFC 3629) and
 * UTF-16 (RFC 2781) encode them. Only the fields named are compared.
 */
const KNOWN_ANSWERS: Array<{ input: Record<string, unknown>; output: Counts }> = [
  // A ZWJ sequence is one grapheme (GB11): 7 code points, 11 UTF-16 units, 4 + 3 + 4 + 3 + 4 + 3 + 4 UTF-8 bytes.
  { input: { input: FAMILY }, output: { characters: 1, codePoints: 7, codeUnits: 11, bytesUtf8: 25, bytesUtf16: 22, words: 0, sentences: 0 } },
  // e + COMBINING ACUTE ACCENT (GB9), a flag of two regional indicators (GB12), Devanagari with a virama (GB9c).
  { input: { input: 'e\u0301' }, output: { characters: 1, codePoints: 2, codeUnits: 2, bytesUtf8: 3 } },
  { input: { input: '\u{1F1EB}\u{1F1F7}' }, output: { characters: 1, codePoints: 2, codeUnits: 4, bytesUtf8: 8 } },
  { input: { input: 'नमस्ते' }, output: { characters: 3, codePoints: 6, bytesUtf8: 18, words: 1 } },
  // Apostrophes and decimal points inside words and numbers hold them together (WB6/WB7, WB11/WB12); a hyphen and an at sign do not.
  {
    input: { input: 'Hello, world! It’s 3.14 — don’t stop.' },
    output: { words: 6, sentences: 2, characters: 37, charactersNoSpaces: 31, averageWordLength: 4.5 },
  },
  { input: { input: "can't" }, output: { words: 1 } },
  { input: { input: 'e-mail' }, output: { words: 2 } },
  { input: { input: 'a@b.com' }, output: { words: 2 } },
  // UAX #29 §5: sentence boundaries are found without knowing abbreviations, so "Mr." ends one.
  { input: { input: 'Mr. Smith went to Washington. He arrived on time.' }, output: { sentences: 3, words: 9 } },
  // SB8: a full stop followed by a lower-case word does not end the sentence; SB7: nor one between letters.
  { input: { input: 'Take e.g. this one. And U.S.A. here.' }, output: { sentences: 2 } },
  { input: { input: 'It is 5 p.m. now. Yes.' }, output: { sentences: 2 } },
  { input: { input: '' }, output: { characters: 0, words: 0, sentences: 0, lines: 0, paragraphs: 0, averageWordLength: 0, readingTimeSeconds: 0 } },
]

function assertCounts(counts: Counts, expected: Counts, context: string) {
  for (const [field, value] of Object.entries(expected)) assert.equal(counts[field], value, `${field} of ${context}`)
}

describe('text-stats', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(textStats).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/text-stats/index.ts')
  })

  test('answers known inputs as the standards count them', async () => {
    for (const { input, output } of KNOWN_ANSWERS) assertCounts((await run(input)).result as Counts, output, JSON.stringify(input))
  })

  test('CJK and Thai words are found by ICU’s dictionaries (as ICU 78 finds them)', {
    skip: !process.versions.icu?.startsWith('78.') && `ICU ${process.versions.icu}: its dictionaries may split otherwise`,
  }, async () => {
    assert.equal((await countsOf('私は東京に住んでいます')).words, 8)
    assert.equal((await countsOf('我爱北京天安门')).words, 4)
    assert.equal((await countsOf('สวัสดีครับ')).words, 2)
  })

  test('the examples give the answers they show', async () => {
    for (const example of textStats.examples) assert.deepEqual(await run(example.input), example.output, example.summary)
  })

  test('lines and paragraphs: every line break, a final break starting no line, blank lines (even of spaces) between paragraphs', async () => {
    assertCounts(await countsOf('one\r\ntwo\rthree\nfour\u0085five\u2028six\u2029seven'), { lines: 7, paragraphs: 1 }, 'every break')
    assertCounts(await countsOf('a\n'), { lines: 1, paragraphs: 1 }, 'a final break')
    assertCounts(await countsOf('a\n\n'), { lines: 2, paragraphs: 1 }, 'a blank last line')
    assertCounts(await countsOf('\n\n\n'), { lines: 3, paragraphs: 0, words: 0 }, 'only breaks')
    assertCounts(
      await countsOf('First para.\n  \t\nSecond, line one\nline two\n\n\n\nThird.'),
      { paragraphs: 3, lines: 8, sentences: 4 },
      'three paragraphs: a line break ends a sentence too (SB4)',
    )
    assertCounts(await countsOf('a\r\n\r\nb'), { lines: 3, paragraphs: 2 }, 'CR LF')
  })

  test('sentences must hold a word: emoji, punctuation and blank lines alone are none', async () => {
    assertCounts(await countsOf('😀. 😀! ...'), { sentences: 0, words: 0 }, 'emoji')
    assertCounts(await countsOf('Hi.\n\n\n!!!\n'), { sentences: 1 }, 'blank lines and punctuation')
    assertCounts(await countsOf('Chapter 1.\n2. Done.'), { sentences: 3 }, 'numbers are words')
  })

  test('charactersNoSpaces leaves out every whitespace cluster: spaces, tabs, CR LF, no-break and ideographic spaces', async () => {
    assertCounts(await countsOf('a b\tc\r\nd\u00a0e\u3000f'), { characters: 11, charactersNoSpaces: 6 }, 'whitespace')
    assertCounts(await countsOf(`${FAMILY} ${FAMILY}`), { characters: 3, charactersNoSpaces: 2 }, 'emoji')
  })

  test('reading and speaking time: words at the given rates, rounded up to the second (Brysbaert 2019: 238 and 183 words a minute)', async () => {
    const words = (count: number) => 'word '.repeat(count)
    assertCounts(await countsOf(words(238)), { readingTimeSeconds: 60, speakingTimeSeconds: 79 }, '238 words')
    assertCounts(await countsOf(words(183)), { readingTimeSeconds: 47, speakingTimeSeconds: 60 }, '183 words')
    assertCounts(await countsOf(words(1)), { readingTimeSeconds: 1, speakingTimeSeconds: 1 }, 'one word')
    assertCounts(
      await countsOf(words(500), { wordsPerMinute: 1000, speakingWordsPerMinute: 50 }),
      { readingTimeSeconds: 30, speakingTimeSeconds: 600 },
      'own rates',
    )
    assertCounts(await countsOf('... !!!'), { readingTimeSeconds: 0, speakingTimeSeconds: 0 }, 'no words')
  })

  test('topWords: case-folded and NFC-normalized, most frequent first, ties in order of first appearance, absent unless asked', async () => {
    const text = 'b a B c A b Straße STRASSE strasse Cafe\u0301 café CAFÉ'
    const data = await run({ input: text, topWords: 4 })
    assert.deepEqual(data.topWords, [
      { word: 'b', count: 3 },
      { word: 'strasse', count: 3 },
      { word: 'café', count: 3 },
      { word: 'a', count: 2 },
    ])
    assert.deepEqual((await run({ input: text, topWords: 100 })).topWords, [
      { word: 'b', count: 3 },
      { word: 'strasse', count: 3 },
      { word: 'café', count: 3 },
      { word: 'a', count: 2 },
      { word: 'c', count: 1 },
    ])
    assert.equal('topWords' in (await run({ input: text })), false)
    assert.deepEqual((await run({ input: '', topWords: 5 })).topWords, [])
    assert.deepEqual((await run({ input: 'ΣΟΦΟΣ σοφός σοφος', topWords: 5 })).topWords, [
      { word: 'σοφος', count: 2 },
      { word: 'σοφός', count: 1 },
    ])
  })

  test('locale: ICU’s tailoring for a language (Greek ; ends a sentence); tags are canonicalized; an invalid one is a 400', async () => {
    assert.equal((await countsOf('Τι κάνεις; Καλά.', { locale: 'el' })).sentences, 2)
    assert.equal((await countsOf('Τι κάνεις; Καλά.')).sentences, 1)
    assert.equal((await countsOf('Τι κάνεις; Καλά.', { locale: 'EL-gr' })).sentences, 2)
    assert.equal((await countsOf('Hello there. Bye.', { locale: 'xx' })).sentences, 2, 'a tag without rules of its own segments as und')
    for (const locale of ['not a tag', '12345', 'en_US', 'x']) await expectRefusal(run({ input: 'a', locale }), { code: 'VALIDATION_ERROR', field: 'locale' })
  })

  test('the six counts it shares with unicode inspect are the same, whatever the text (fast-check)', async () => {
    const pieces = [
      'a',
      'Z',
      ' ',
      '\n',
      '\r\n',
      '\r',
      '\u2028',
      '.',
      '. ',
      '!',
      "'",
      '3.14',
      'é',
      'e\u0301',
      '中文',
      'の',
      FAMILY,
      '\u{1F1EB}\u{1F1F7}',
      '\u200d',
      'क्षि',
    ]
    const texts = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join('')),
    )
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        const counts = await countsOf(text)
        const totals = (await execute(unicode, { input: text, maxCodePoints: 0 })).totals as Counts
        assert.deepEqual(
          {
            codeUnits: counts.codeUnits,
            codePoints: counts.codePoints,
            graphemes: counts.characters,
            utf8Bytes: counts.bytesUtf8,
            words: counts.words,
            lines: counts.lines,
          },
          totals,
        )
      }),
      { numRuns: 300 },
    )
  })

  test('invariants: sizes agree with the encoders, counts nest, and texts joined by a blank line add up (fast-check)', async () => {
    const pieces = ['a', 'Word', ' ', '  ', '\t', '\n', '.', '. ', '? ', '!', ',', '"', 'é', '中', '😀', FAMILY, '3']
    const text = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((parts) => parts.join(''))
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 30 }), text, text, async (anyText, first, second) => {
        const counts = await countsOf(anyText)
        assert.equal(counts.bytesUtf8, Buffer.byteLength(anyText, 'utf8'))
        assert.equal(counts.bytesUtf16, Buffer.byteLength(anyText, 'utf16le'))
        assert.equal(counts.codePoints, [...anyText].length)
        assert.ok(counts.charactersNoSpaces <= counts.characters && counts.characters <= counts.codePoints && counts.codePoints <= counts.codeUnits)
        assert.ok(counts.sentences <= counts.words && counts.paragraphs <= counts.lines)
        const [a, b, joined] = await Promise.all([countsOf(first), countsOf(second), countsOf(`${first}\n\n${second}`)])
        for (const field of ['words', 'sentences', 'paragraphs'])
          assert.equal(joined[field], a[field] + b[field], `${field} of ${JSON.stringify([first, second])}`)
      }),
      { numRuns: 300 },
    )
  })

  test('refuses what the schema forbids with 400 naming the field, and a lone surrogate with 422 and its position', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{}, 'input'],
      [{ input: 1 }, 'input'],
      [{ input: 'a', wordsPerMinute: 49 }, 'wordsPerMinute'],
      [{ input: 'a', wordsPerMinute: 1001 }, 'wordsPerMinute'],
      [{ input: 'a', wordsPerMinute: 200.5 }, 'wordsPerMinute'],
      [{ input: 'a', speakingWordsPerMinute: 49 }, 'speakingWordsPerMinute'],
      [{ input: 'a', speakingWordsPerMinute: 501 }, 'speakingWordsPerMinute'],
      [{ input: 'a', topWords: -1 }, 'topWords'],
      [{ input: 'a', topWords: 101 }, 'topWords'],
      [{ input: 'a', topWords: '5' }, 'topWords'],
      [{ input: 'a', locale: 'e' }, 'locale'],
      [{ input: 'a', locale: 'x'.repeat(36) }, 'locale'],
      [{ input: 'a', wordsPerMinut: 200 }, 'wordsPerMinut'],
      [{ input: 'x'.repeat(MAX_INPUT_LENGTH + 1) }, 'input'],
    ]
    for (const [input, field] of refused) await expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
    await expectRefusal(run({ input: 'ok \ud800 no' }), { code: 'INVALID_INPUT', position: 3 })
    await expectRefusal(run({ input: `${'x'.repeat(20_000)}\udfff` }), { code: 'INVALID_INPUT', position: 20_000 })
  })

  test('the output matches its schema, with and without topWords', async () => {
    for (const input of [{ input: 'Some text. More text.' }, { input: 'Some text. More text.', topWords: 2 }]) validate(textStats.output, await run(input))
  })

  test('offload: texts over 8 KiB go to a worker, and are counted there as in process', async () => {
    const defaults = { locale: 'und', wordsPerMinute: 238, speakingWordsPerMinute: 183, topWords: 0 }
    assert.equal(textStats.offload!({ ...defaults, input: 'x'.repeat(8 * 1024) }), false)
    assert.equal(textStats.offload!({ ...defaults, input: 'x'.repeat(8 * 1024 + 1) }), true)
    const text = 'A sentence of words. Another one!\n\n'.repeat(400)
    assert.deepEqual(await run({ input: text, topWords: 3 }), textStats.run({ ...defaults, input: text, topWords: 3 }))
  })

  test('hostile texts are counted in time linear in their length: no boundary, every boundary, one cluster of marks, CJK, many distinct words', () => {
    // A quarter of the largest input each, run in process: segment.ts's own tests hold the segmentation to linear time.
    const size = MAX_INPUT_LENGTH / 4
    const defaults = { locale: 'und', wordsPerMinute: 238, speakingWordsPerMinute: 183, topWords: 100 }
    const distinct = Array.from({ length: size / 8 }, (_, index) => `w${index.toString(36)}`).join(' ')
    const cases: Array<[string, Counts]> = [
      ['x'.repeat(size), { words: 1, sentences: 1, characters: size }],
      ['\n'.repeat(size), { lines: size, paragraphs: 0, sentences: 0, charactersNoSpaces: 0 }],
      ['. '.repeat(size / 2), { words: 0, sentences: 0 }],
      [`a${'\u0301'.repeat(size - 1)}`, { characters: 1, words: 1, averageWordLength: 1 }],
      ['東京に住んでいます。'.repeat(size / 16), { sentences: size / 16 }],
      [distinct, { words: size / 8 }],
    ]
    for (const [input, expected] of cases) {
      let data: Record<string, unknown> = {}
      const cpu = cpuTimeOf(() => {
        data = textStats.run({ ...defaults, input }) as Record<string, unknown>
      })
      assert.ok(cpu < 2000, `${cpu} ms for ${input.slice(0, 8)}…`)
      assertCounts(data.result as Counts, expected, `${input.slice(0, 8)}…`)
      assert.ok((data.topWords as unknown[]).length <= 100)
    }
  })
})
