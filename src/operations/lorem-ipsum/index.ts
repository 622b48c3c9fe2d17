import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { randomBelow } from '../../lib/random/random.ts'

/** The words of the classic placeholder, drawn from Cicero's De finibus bonorum et malorum (1.32–33). */
export const LOREM_WORDS: readonly string[] = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore ' +
  'magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat ' +
  'duis aute irure in reprehenderit voluptate velit esse cillum eu fugiat nulla pariatur excepteur sint occaecat ' +
  'cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum perspiciatis unde omnis iste ' +
  'natus error voluptatem accusantium doloremque laudantium totam rem aperiam eaque ipsa quae ab illo inventore ' +
  'veritatis quasi architecto beatae vitae dicta explicabo nemo ipsam quia voluptas aspernatur aut odit fugit ' +
  'consequuntur magni dolores eos ratione sequi nesciunt neque porro quisquam dolorem adipisci numquam eius modi ' +
  'tempora incidunt magnam quaerat at vero accusamus iusto odio dignissimos ducimus blanditiis praesentium ' +
  'voluptatum deleniti atque corrupti quos quas molestias excepturi occaecati cupiditate provident similique ' +
  'mollitia animi dolorum fuga harum quidem rerum facilis expedita distinctio nam libero tempore cum soluta nobis ' +
  'eligendi optio cumque nihil impedit quo minus quod maxime placeat facere possimus assumenda repellendus ' +
  'temporibus autem quibusdam officiis debitis necessitatibus saepe eveniet voluptates repudiandae recusandae'
).split(' ')

/** With startWithLorem the text opens with this sentence (or, for unit words, with its first words). */
const OPENING = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit']
const OPENING_COMMA_AFTER = 4

const MAX_COUNT = { words: 10_000, sentences: 1_000, paragraphs: 100 } as const
type Unit = keyof typeof MAX_COUNT

const SENTENCE_WORDS = { min: 4, max: 16 }
const PARAGRAPH_SENTENCES = { min: 3, max: 7 }
/** A sentence this long has one comma half the time, with at least three words on each side. */
const COMMA_MIN_WORDS = 8
const SEED_SPACE = 2 ** 32

/** A safe integer as a 32-bit seed: 0 to 2^32 − 1 as they are, others through splitmix64's mixer. */
function foldSeed(seed: number): number {
  if (seed >= 0 && seed < SEED_SPACE) return seed
  let mixed = BigInt.asUintN(64, BigInt(seed))
  mixed = BigInt.asUintN(64, (mixed ^ (mixed >> 30n)) * 0xbf58476d1ce4e5b9n)
  mixed = BigInt.asUintN(64, (mixed ^ (mixed >> 27n)) * 0x94d049bb133111ebn)
  return Number(BigInt.asUintN(32, mixed ^ (mixed >> 31n)))
}

/** mulberry32: a small, fast PRNG whose whole state is the 32-bit seed, so every seed gives its own stream. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = Math.imul(state ^ (state >>> 15), state | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
}

interface Sentence {
  words: string[]
  /** Index of the word followed by a comma, or -1. */
  commaAfter: number
}

/** Draws from a seeded stream, unbiased (rejection sampling), never the same word twice in a row. */
class LoremWriter {
  private readonly next: () => number
  private previousWord = -1

  constructor(seed: number) {
    this.next = mulberry32(seed)
  }

  below(n: number): number {
    const limit = SEED_SPACE - (SEED_SPACE % n)
    for (;;) {
      const value = this.next()
      if (value < limit) return value % n
    }
  }

  between(range: { min: number; max: number }): number {
    return range.min + this.below(range.max - range.min + 1)
  }

  words(count: number): string[] {
    const words: string[] = []
    for (let i = 0; i < count; i++) {
      let index = this.below(LOREM_WORDS.length - 1)
      if (index >= this.previousWord && this.previousWord >= 0) index++
      this.previousWord = index
      words.push(LOREM_WORDS[index])
    }
    return words
  }

  sentence(): Sentence {
    const length = this.between(SENTENCE_WORDS)
    const words = this.words(length)
    const commaAfter = length >= COMMA_MIN_WORDS && this.below(2) === 0 ? 2 + this.below(length - 5) : -1
    return { words, commaAfter }
  }

  /** After the opening words, the next drawn word must not repeat the last of them. */
  continueAfterOpening(used: number): void {
    this.previousWord = LOREM_WORDS.indexOf(OPENING[used - 1])
  }
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

function renderSentence({ words, commaAfter }: Sentence): string {
  const parts = words.map((word, index) => (index === commaAfter ? `${word},` : word))
  parts[0] = capitalize(parts[0])
  return `${parts.join(' ')}.`
}

interface Text {
  /** Each paragraph; units words and sentences make one. */
  paragraphs: string[]
  wordCount: number
}

function writeWords(writer: LoremWriter, count: number, startWithLorem: boolean): Text {
  const opening = startWithLorem ? OPENING.slice(0, count) : []
  if (opening.length > 0) writer.continueAfterOpening(opening.length)
  const words = [...opening, ...writer.words(count - opening.length)]
  words[0] = capitalize(words[0])
  return { paragraphs: [words.join(' ')], wordCount: count }
}

function writeSentences(writer: LoremWriter, count: number, startWithLorem: boolean): Sentence[] {
  const sentences: Sentence[] = []
  if (startWithLorem) {
    sentences.push({ words: OPENING, commaAfter: OPENING_COMMA_AFTER })
    writer.continueAfterOpening(OPENING.length)
  }
  while (sentences.length < count) sentences.push(writer.sentence())
  return sentences
}

function countWords(sentences: Sentence[]): number {
  return sentences.reduce((total, sentence) => total + sentence.words.length, 0)
}

function write(unit: Unit, count: number, startWithLorem: boolean, writer: LoremWriter): Text {
  if (unit === 'words') return writeWords(writer, count, startWithLorem)
  if (unit === 'sentences') {
    const sentences = writeSentences(writer, count, startWithLorem)
    return { paragraphs: [sentences.map(renderSentence).join(' ')], wordCount: countWords(sentences) }
  }
  const paragraphs: string[] = []
  let wordCount = 0
  for (let i = 0; i < count; i++) {
    const sentences = writeSentences(writer, writer.between(PARAGRAPH_SENTENCES), startWithLorem && i === 0)
    paragraphs.push(sentences.map(renderSentence).join(' '))
    wordCount += countWords(sentences)
  }
  return { paragraphs, wordCount }
}

export const loremIpsum = defineOperation({
  name: 'lorem-ipsum',
  category: 'generators',
  summary: 'Generate lorem ipsum placeholder text, reproducibly with a seed',
  title: 'Lorem ipsum',
  aliases: ['placeholder text', 'dummy text', 'filler text', 'lipsum'],
  description:
    'Writes placeholder text from the classic lorem ipsum word list (178 Latin words from Cicero). ' +
    'A sentence has 4 to 16 words, a capital first letter and a final period; one of 8 or more words has a comma half the time. ' +
    'A paragraph has 3 to 7 sentences. No word follows itself. ' +
    '`unit` words gives the words separated by single spaces, with the first capitalised and no punctuation; sentences gives them separated by a space, as one paragraph. ' +
    'With `startWithLorem` the text opens with the sentence "Lorem ipsum dolor sit amet, consectetur adipiscing elit." (for unit words: with its first `count` words, without the comma). ' +
    'The same `seed` and options always give the same text (a mulberry32 stream); without a seed one is drawn from the CSPRNG. ' +
    '`format` html wraps each paragraph in <p>…</p>, one per line (words and sentences make one paragraph).',
  allowGet: true,
  input: Type.Object(
    {
      unit: withDefault(Type.Enum(['words', 'sentences', 'paragraphs'], { description: 'What `count` counts: words, sentences or paragraphs.' }), 'paragraphs'),
      count: withDefault(
        Type.Integer({
          minimum: 1,
          maximum: MAX_COUNT.words,
          description: 'How many units to write: at most 10,000 words, 1,000 sentences or 100 paragraphs.',
        }),
        3,
      ),
      startWithLorem: withDefault(
        Type.Boolean({
          description:
            'Open with "Lorem ipsum dolor sit amet, consectetur adipiscing elit." (for unit words: its first `count` words). With false every word is drawn at random.',
        }),
        true,
      ),
      format: withDefault(
        Type.Enum(['text', 'html'], { description: 'text: paragraphs separated by a blank line. html: each paragraph in <p>…</p>, joined by a newline.' }),
        'text',
      ),
      seed: Type.Optional(
        Type.Integer({
          minimum: -Number.MAX_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
          description:
            'Any safe integer: the same seed and options give the same text. Seeds from 0 to 4,294,967,295 each start their own stream; others are folded into that range. Without a seed the text is different every time.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The text.' }),
    wordCount: Type.Integer({ description: 'The number of words in `result`.' }),
  }),
  examples: [
    { summary: 'The famous first words', input: { unit: 'words', count: 5 }, output: { result: 'Lorem ipsum dolor sit amet', wordCount: 5 } },
    {
      summary: 'Seeded sentences: the same every time',
      input: { unit: 'sentences', count: 3, seed: 42 },
      output: {
        result:
          'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Aute quia esse dolorum iste illo placeat quibusdam sequi iste elit vitae animi. ' +
          'Sint dolor neque ut laborum cumque aliqua quisquam eveniet esse ad.',
        wordCount: 32,
      },
    },
    {
      summary: 'Random words only',
      input: { unit: 'words', count: 12, startWithLorem: false, seed: 2024 },
      output: { result: 'Voluptatum cupiditate sequi ipsum recusandae impedit nesciunt mollit dolorem accusamus saepe occaecati', wordCount: 12 },
    },
    { summary: 'Three paragraphs of new text (the defaults)', input: {} },
    { summary: 'HTML paragraphs', input: { count: 2, format: 'html' } },
  ],
  runsInBrowser: true,
  run({ unit, count, startWithLorem, format, seed }) {
    if (count > MAX_COUNT[unit]) throw validationError('count', `must be <= ${MAX_COUNT[unit]} when unit is ${unit}`)
    const text = write(unit, count, startWithLorem, new LoremWriter(seed === undefined ? randomBelow(SEED_SPACE) : foldSeed(seed)))
    const result = format === 'html' ? text.paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n') : text.paragraphs.join('\n\n')
    return { result, wordCount: text.wordCount }
  },
})
