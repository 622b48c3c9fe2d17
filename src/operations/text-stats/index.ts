import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { forEachLine, textTotals } from '../../lib/text/counts.ts'
import { segmentsOf } from '../../lib/text/segment.ts'

/**
 * The longest `input`, in UTF-16 code units: a request body of the default limit holds no more, and
 * the slowest text to segment (CJK words, found by dictionary) this long stays well within the time
 * budget (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const MAX_INPUT_LENGTH = 1024 * 1024

/**
 * Longer inputs go to a worker thread: the text is segmented three times over (graphemes, words,
 * sentences), several times the work per character of a JSON format, so the line sits where
 * unicode's inspect puts it (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
const OFFLOAD_LENGTH = 8 * 1024

/** Brysbaert (2019), "How many words do we read per minute?", Journal of Memory and Language 109: English non-fiction. */
const SILENT_READING_RATE = 238
const READING_ALOUD_RATE = 183

const MAX_TOP_WORDS = 100

const WHITE_SPACE = /^\p{White_Space}+$/u
const BLANK_LINE = /^\p{White_Space}*$/u

/** The locale as ICU will use it, or a 400 naming the field. */
function canonicalLocale(locale: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(locale)
    new Intl.Segmenter(canonical)
    return canonical
  } catch {
    throw validationError('locale', `must be a BCP 47 language tag such as en, ja or el; '${locale}' is not one`)
  }
}

/**
 * Case folding for counting words: upper then lower case gives Unicode's full folding for all but a
 * handful of letters (Straße and STRASSE are one word, and so are ΣΟΦΟΣ and σοφος), and ẞ, which
 * upper-casing keeps, folds to ss as the full folding does.
 */
function foldCase(word: string): string {
  return word.normalize('NFC').toUpperCase().toLowerCase().replaceAll('ß', 'ss')
}

const GRAPHEME_START = 1
const WORD_START = 2

function paragraphsOf(text: string): number {
  let paragraphs = 0
  let inParagraph = false
  forEachLine(text, (line) => {
    const blank = BLANK_LINE.test(line)
    if (!blank && !inParagraph) paragraphs++
    inParagraph = !blank
  })
  return paragraphs
}

function mostFrequent(counts: Map<string, number>, limit: number): Array<{ word: string; count: number }> {
  // Map keeps first-seen order and the sort is stable, so ties stay in the order the words first appear.
  return [...counts]
    .sort(([, a], [, b]) => b - a)
    .slice(0, limit)
    .map(([word, count]) => ({ word, count }))
}

function stats(text: string, locale: string, wordsPerMinute: number, speakingWordsPerMinute: number, topWords: number) {
  // One flag byte per code unit marks where graphemes and words start, so words and sentences can be
  // measured against graphemes and words in one linear pass each.
  const starts = new Uint8Array(text.length)
  let spaces = 0
  let wordGraphemes = 0
  const counts = topWords > 0 ? new Map<string, number>() : undefined
  const totals = textTotals(text, locale, {
    grapheme({ segment, index }) {
      starts[index] |= GRAPHEME_START
      if (WHITE_SPACE.test(segment)) spaces++
    },
    word({ segment, index }) {
      starts[index] |= WORD_START
      for (let at = index; at < index + segment.length; at++) if (starts[at] & GRAPHEME_START) wordGraphemes++
      if (counts !== undefined) {
        const key = foldCase(segment)
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
    },
  })
  let sentences = 0
  for (const { segment, index } of segmentsOf(text, 'sentence', undefined, locale)) {
    for (let at = index; at < index + segment.length; at++) {
      if (starts[at] & WORD_START) {
        sentences++
        break
      }
    }
  }
  const { words } = totals
  const result = {
    characters: totals.graphemes,
    charactersNoSpaces: totals.graphemes - spaces,
    codePoints: totals.codePoints,
    codeUnits: totals.codeUnits,
    bytesUtf8: totals.utf8Bytes,
    bytesUtf16: 2 * totals.codeUnits,
    words,
    sentences,
    lines: totals.lines,
    paragraphs: paragraphsOf(text),
    averageWordLength: words === 0 ? 0 : Math.round((wordGraphemes / words) * 100) / 100,
    readingTimeSeconds: Math.ceil((words * 60) / wordsPerMinute),
    speakingTimeSeconds: Math.ceil((words * 60) / speakingWordsPerMinute),
  }
  return counts === undefined ? { result } : { result, topWords: mostFrequent(counts, topWords) }
}

export const textStats = defineOperation({
  name: 'text-stats',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Count the characters, words, sentences, lines and paragraphs of a text, with reading and speaking time',
  title: 'Text statistics (word counter)',
  aliases: [
    'word count',
    'word counter',
    'character count',
    'character counter',
    'letter count',
    'sentence count',
    'sentences',
    'line count',
    'paragraph count',
    'reading time',
    'speaking time',
    'wc',
    'text length',
    'string length',
    'statistics',
    'word frequency',
    'byte count',
  ],
  description:
    'Counts `input` as a writer’s word counter does, by Unicode’s rules (UAX #29 text segmentation, through the platform’s ICU): ' +
    '`characters` are grapheme clusters, what a reader sees as one character (an emoji family, a flag, e with a combining accent: one each), and `charactersNoSpaces` leaves out those that are whitespace (spaces, tabs, line breaks); ' +
    '`codePoints`, `codeUnits` (UTF-16, JavaScript’s length), `bytesUtf8` and `bytesUtf16` measure the text as stored. ' +
    '`words` are the UAX #29 word segments that hold letters, digits or ideographs (not spaces or punctuation): `don’t` and `3.14` are one word, `e-mail` and `a@b.com` two, and Chinese, Japanese and Thai are split into words by ICU’s dictionaries. ' +
    '`sentences` are UAX #29 sentence segments that hold at least one word; the count is approximate: ICU knows no abbreviations, so `Mr. Smith` ends a sentence after `Mr.`, and every line break ends a sentence, so text wrapped at a fixed width counts each line. ' +
    '`lines` are split at CR LF, LF, CR, NEL, U+2028 and U+2029, a break at the very end starting no new line; `paragraphs` are runs of lines that are not blank. ' +
    'Words, lines, characters (graphemes), code points, code units and UTF-8 bytes are counted exactly as `unicode` inspect counts them. ' +
    '`averageWordLength` is in characters (graphemes), rounded to two decimals. ' +
    '`readingTimeSeconds` and `speakingTimeSeconds` are the words at `wordsPerMinute` and `speakingWordsPerMinute`, rounded up to a whole second: by default 238 and 183 words a minute, the averages Brysbaert (2019, Journal of Memory and Language 109) found for silent reading and reading aloud of English non-fiction. ' +
    '`topWords` asks for the most frequent words, compared after NFC normalization and case folding (Straße and STRASSE are one word) and shown folded; ties keep the order in which the words first appear. ' +
    '`locale` picks ICU’s segmentation rules for a language where it has its own (Greek ends sentences at `;`); an invalid tag is a 400. ' +
    'A lone surrogate in `input` is refused with 422, as everywhere in this service.',
  input: Type.Object(
    {
      input: Type.String({
        maxLength: MAX_INPUT_LENGTH,
        description: `The text to count. May be empty; at most ${MAX_INPUT_LENGTH.toLocaleString('en')} UTF-16 code units.`,
        examples: ['Hello, world! It’s 3.14 — don’t stop.'],
      }),
      locale: withDefault(
        Type.String({
          minLength: 2,
          maxLength: 35,
          description:
            'The BCP 47 language tag whose segmentation rules apply, such as `el` or `ja`; `und` (the default) is Unicode’s root rules. Tags without rules of their own behave as `und`.',
        }),
        'und',
      ),
      wordsPerMinute: withDefault(
        Type.Integer({ minimum: 50, maximum: 1000, description: 'Silent reading rate for `readingTimeSeconds`, in words per minute (50 to 1,000).' }),
        SILENT_READING_RATE,
      ),
      speakingWordsPerMinute: withDefault(
        Type.Integer({ minimum: 50, maximum: 500, description: 'Reading-aloud rate for `speakingTimeSeconds`, in words per minute (50 to 500).' }),
        READING_ALOUD_RATE,
      ),
      topWords: withDefault(
        Type.Integer({
          minimum: 0,
          maximum: MAX_TOP_WORDS,
          description: `How many of the most frequent words to list in \`topWords\` (0 to ${MAX_TOP_WORDS}); 0, the default, lists none and leaves the field out.`,
        }),
        0,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Object(
      {
        characters: Type.Integer({ description: 'Grapheme clusters (UAX #29): what a reader sees as characters.' }),
        charactersNoSpaces: Type.Integer({ description: 'Grapheme clusters that are not whitespace (Unicode White_Space: spaces, tabs, line breaks).' }),
        codePoints: Type.Integer({ description: 'Unicode code points.' }),
        codeUnits: Type.Integer({ description: 'UTF-16 code units (JavaScript’s length).' }),
        bytesUtf8: Type.Integer({ description: 'Bytes in UTF-8.' }),
        bytesUtf16: Type.Integer({ description: 'Bytes in UTF-16 (without a byte order mark).' }),
        words: Type.Integer({ description: 'UAX #29 word segments that are words (letters, digits, ideographs), not spaces or punctuation.' }),
        sentences: Type.Integer({ description: 'UAX #29 sentence segments holding at least one word (approximate: abbreviations end sentences).' }),
        lines: Type.Integer({
          description: 'Lines, split at CR LF, LF, CR, NEL, U+2028 and U+2029; a break at the very end starts no new line; 0 for empty text.',
        }),
        paragraphs: Type.Integer({ description: 'Runs of consecutive lines that are not blank (blank: empty or only whitespace).' }),
        averageWordLength: Type.Number({ description: 'Characters (graphemes) per word, rounded to two decimals; 0 without words.' }),
        readingTimeSeconds: Type.Integer({ description: 'Words at `wordsPerMinute`, in seconds, rounded up.' }),
        speakingTimeSeconds: Type.Integer({ description: 'Words at `speakingWordsPerMinute`, in seconds, rounded up.' }),
      },
      { description: 'The counts, over the whole text.' },
    ),
    topWords: Type.Optional(
      Type.Array(
        Type.Object({
          word: Type.String({ description: 'The word, NFC-normalized and case-folded.' }),
          count: Type.Integer({ description: 'How many times it occurs.' }),
        }),
        { description: 'Only when `topWords` > 0: the most frequent words, most frequent first, ties in order of first appearance.' },
      ),
    ),
  }),
  examples: [
    {
      summary: 'Count a short text: contractions and a decimal number are one word each',
      input: { input: 'Hello, world! It’s 3.14 — don’t stop.' },
      output: {
        result: {
          characters: 37,
          charactersNoSpaces: 31,
          codePoints: 37,
          codeUnits: 37,
          bytesUtf8: 43,
          bytesUtf16: 74,
          words: 6,
          sentences: 2,
          lines: 1,
          paragraphs: 1,
          averageWordLength: 4.5,
          readingTimeSeconds: 2,
          speakingTimeSeconds: 2,
        },
      },
    },
    {
      summary: 'Paragraphs are runs of non-blank lines; the three most frequent words, case-folded',
      input: { input: 'The cat sat.\nThe cat ran!\n\nA dog barked at the cat.\n', topWords: 3 },
      output: {
        result: {
          characters: 52,
          charactersNoSpaces: 39,
          codePoints: 52,
          codeUnits: 52,
          bytesUtf8: 52,
          bytesUtf16: 104,
          words: 12,
          sentences: 3,
          lines: 4,
          paragraphs: 2,
          averageWordLength: 3,
          readingTimeSeconds: 4,
          speakingTimeSeconds: 4,
        },
        topWords: [
          { word: 'the', count: 3 },
          { word: 'cat', count: 3 },
          { word: 'sat', count: 1 },
        ],
      },
    },
    {
      summary: 'An emoji family is one character of seven code points and 25 UTF-8 bytes',
      input: { input: 'Family: \u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}' },
      output: {
        result: {
          characters: 9,
          charactersNoSpaces: 8,
          codePoints: 15,
          codeUnits: 19,
          bytesUtf8: 33,
          bytesUtf16: 38,
          words: 1,
          sentences: 1,
          lines: 1,
          paragraphs: 1,
          averageWordLength: 6,
          readingTimeSeconds: 1,
          speakingTimeSeconds: 1,
        },
      },
    },
    {
      summary: 'Greek ends a sentence at ; (its question mark) with locale el',
      input: { input: 'Τι κάνεις; Καλά.', locale: 'el' },
      output: {
        result: {
          characters: 16,
          charactersNoSpaces: 14,
          codePoints: 16,
          codeUnits: 16,
          bytesUtf8: 28,
          bytesUtf16: 32,
          words: 3,
          sentences: 2,
          lines: 1,
          paragraphs: 1,
          averageWordLength: 4,
          readingTimeSeconds: 1,
          speakingTimeSeconds: 1,
        },
      },
    },
  ],
  offload({ input }) {
    return input.length > OFFLOAD_LENGTH
  },
  overrun: { advice: 'send a smaller text' },
  run({ input, locale, wordsPerMinute, speakingWordsPerMinute, topWords }) {
    return stats(input, canonicalLocale(locale), wordsPerMinute, speakingWordsPerMinute, topWords)
  },
})
