import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { LOREM_WORDS, loremIpsum } from './index.ts'

const run = async (input: Record<string, unknown>) => (await execute(loremIpsum, input)) as { result: string; wordCount: number }
const refuses = (input: Record<string, unknown>, pattern: RegExp) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', message: pattern })

const OPENING_SENTENCE = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.'

/** The words of a result, without markup and punctuation, in lower case. */
function wordsOf(result: string): string[] {
  return result
    .replace(/<\/?p>/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.replace(/[.,]$/, '').toLowerCase())
}

const sentencesOf = (paragraph: string) => paragraph.match(/[^.]+\./g) ?? []

const options = fc.record({
  unit: fc.constantFrom('words', 'sentences', 'paragraphs'),
  count: fc.integer({ min: 1, max: 40 }),
  startWithLorem: fc.boolean(),
  format: fc.constantFrom('text', 'html'),
  seed: fc.nat({ max: 2 ** 32 - 1 }),
})

describe('lorem-ipsum', () => {
  test('the word list is the classic one: 60 to 180 distinct lower-case Latin words opening with lorem ipsum', () => {
    assert.ok(LOREM_WORDS.length >= 60 && LOREM_WORDS.length <= 180, `${LOREM_WORDS.length} words`)
    assert.equal(new Set(LOREM_WORDS).size, LOREM_WORDS.length)
    for (const word of LOREM_WORDS) assert.match(word, /^[a-z]+$/)
    assert.deepEqual(LOREM_WORDS.slice(0, 8), ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit'])
  })

  test('the same seed and options give the same text; other seeds give other text', async () => {
    for (const unit of ['words', 'sentences', 'paragraphs']) {
      const input = { unit, count: 5, seed: 12345, startWithLorem: false }
      const first = await run(input)
      assert.deepEqual(await run(input), first)
      assert.notEqual((await run({ ...input, seed: 12346 })).result, first.result)
      assert.notEqual((await run({ ...input, seed: 0 })).result, first.result)
      assert.notEqual((await run({ ...input, seed: 2 ** 32 - 1 })).result, first.result)
    }
  })

  test('any safe integer is a seed: negative and large ones are reproducible too', async () => {
    for (const seed of [-1, -Number.MAX_SAFE_INTEGER, 2 ** 32, Number.MAX_SAFE_INTEGER]) {
      const input = { unit: 'sentences', count: 3, seed, startWithLorem: false }
      assert.equal((await run(input)).result, (await run(input)).result, `seed ${seed}`)
    }
    const texts = new Set<string>()
    for (const seed of [-1, 2 ** 32, 2 ** 32 + 1, -(2 ** 40)])
      texts.add((await run({ unit: 'sentences', count: 3, seed, startWithLorem: false })).result as string)
    assert.equal(texts.size, 4)
  })

  test('without a seed the text differs from call to call', async () => {
    const texts = new Set<string>()
    for (let i = 0; i < 5; i++) texts.add((await run({ unit: 'sentences', count: 3, startWithLorem: false })).result)
    assert.equal(texts.size, 5)
  })

  test('words: exactly count words separated by single spaces, the first capitalised, no punctuation', async () => {
    for (const count of [1, 2, 4, 8, 9, 100, 10_000]) {
      const { result, wordCount } = await run({ unit: 'words', count, seed: count, startWithLorem: false })
      assert.equal(result.split(' ').length, count)
      assert.equal(wordCount, count)
      assert.match(result, /^[A-Z][a-z]*( [a-z]+)*$/)
    }
  })

  test('sentences: exactly count sentences of 4 to 16 words, capitalised, ending with a period', async () => {
    for (const count of [1, 2, 17, 1000]) {
      const { result } = await run({ unit: 'sentences', count, seed: count })
      assert.ok(!result.includes('\n'))
      const sentences = sentencesOf(result)
      assert.equal(sentences.length, count)
      assert.equal(sentences.map((sentence) => sentence.trim()).join(' '), result, 'sentences are separated by one space')
      for (const sentence of sentences) {
        const words = sentence.trim().split(' ')
        assert.ok(words.length >= 4 && words.length <= 16, sentence)
        assert.match(sentence.trim(), /^[A-Z][a-z]*(,? [a-z]+)*\.$/)
      }
    }
  })

  test('commas: at most one per sentence, only in sentences of 8 or more words, with 3 or more words on each side', async () => {
    const { result } = await run({ unit: 'sentences', count: 1000, seed: 99, startWithLorem: false })
    let commas = 0
    for (const sentence of sentencesOf(result)) {
      const words = sentence.trim().split(' ')
      const at = words.findIndex((word) => word.endsWith(','))
      if (at < 0) continue
      commas++
      assert.equal(words.filter((word) => word.includes(',')).length, 1, sentence)
      assert.ok(words.length >= 8 && at >= 2 && words.length - 1 - at >= 3, sentence)
    }
    assert.ok(commas > 100 && commas < 700, `${commas} commas in 1000 sentences`)
  })

  test('paragraphs: exactly count paragraphs of 3 to 7 sentences, separated by a blank line', async () => {
    for (const count of [1, 3, 100]) {
      const { result } = await run({ unit: 'paragraphs', count, seed: 7 * count })
      const paragraphs = result.split('\n\n')
      assert.equal(paragraphs.length, count)
      for (const paragraph of paragraphs) {
        assert.ok(!paragraph.includes('\n'))
        const sentences = sentencesOf(paragraph).length
        assert.ok(sentences >= 3 && sentences <= 7, `${sentences} sentences`)
      }
    }
  })

  test('the defaults are three paragraphs of text starting with lorem ipsum', async () => {
    const { result } = await run({})
    assert.equal(result.split('\n\n').length, 3)
    assert.ok(result.startsWith(`${OPENING_SENTENCE} `))
  })

  test('startWithLorem opens every unit with the classic words; false draws every word', async () => {
    assert.ok((await run({ unit: 'paragraphs', count: 2, seed: 1 })).result.startsWith(`${OPENING_SENTENCE} `))
    assert.equal((await run({ unit: 'sentences', count: 1, seed: 1 })).result, OPENING_SENTENCE)
    assert.ok((await run({ unit: 'sentences', count: 4, seed: 1 })).result.startsWith(`${OPENING_SENTENCE} `))
    assert.equal((await run({ unit: 'words', count: 1 })).result, 'Lorem')
    assert.equal((await run({ unit: 'words', count: 3 })).result, 'Lorem ipsum dolor')
    assert.equal((await run({ unit: 'words', count: 5 })).result, 'Lorem ipsum dolor sit amet')
    assert.equal((await run({ unit: 'words', count: 8 })).result, 'Lorem ipsum dolor sit amet consectetur adipiscing elit')
    const eleven = (await run({ unit: 'words', count: 11, seed: 3 })).result.split(' ')
    assert.equal(eleven.slice(0, 8).join(' '), 'Lorem ipsum dolor sit amet consectetur adipiscing elit')
    assert.equal(eleven.length, 11)
    for (let seed = 0; seed < 50; seed++) {
      for (const unit of ['words', 'sentences', 'paragraphs']) {
        const { result } = await run({ unit, count: 2, seed, startWithLorem: false })
        assert.ok(!result.startsWith('Lorem ipsum dolor sit'), `${unit}, seed ${seed}`)
      }
    }
  })

  test('html: each paragraph in <p>…</p>, joined by a newline; words and sentences make one paragraph', async () => {
    const paragraphs = (await run({ unit: 'paragraphs', count: 4, format: 'html', seed: 5 })).result
    assert.match(paragraphs, /^<p>[^<>\n]+<\/p>(\n<p>[^<>\n]+<\/p>){3}$/)
    const text = (await run({ unit: 'paragraphs', count: 4, format: 'text', seed: 5 })).result
    assert.equal(
      paragraphs,
      text
        .split('\n\n')
        .map((paragraph) => `<p>${paragraph}</p>`)
        .join('\n'),
    )
    assert.equal((await run({ unit: 'words', count: 3, format: 'html' })).result, '<p>Lorem ipsum dolor</p>')
    assert.match((await run({ unit: 'sentences', count: 5, format: 'html', seed: 5 })).result, /^<p>[^<>\n]+<\/p>$/)
  })

  test('the per-unit maximum of count is a 400 naming count and the maximum', async () => {
    await refuses({ unit: 'sentences', count: 1001 }, /^count must be <= 1000 when unit is sentences$/)
    await refuses({ unit: 'paragraphs', count: 101 }, /^count must be <= 100 when unit is paragraphs$/)
    await refuses({ count: 101 }, /^count must be <= 100 when unit is paragraphs$/)
    await refuses({ unit: 'words', count: 10_001 }, /^count must be <= 10000$/)
    await refuses({ unit: 'words', count: 0 }, /^count must be >= 1$/)
    assert.equal((await run({ unit: 'sentences', count: 1000, seed: 1 })).wordCount > 0, true)
    assert.equal((await run({ unit: 'paragraphs', count: 100, seed: 1 })).result.split('\n\n').length, 100)
  })

  test('the seed is an unsigned 32-bit integer, and other fields are checked by the schema', async () => {
    await refuses({ seed: Number.MAX_SAFE_INTEGER + 1 }, /^seed must be <= 9007199254740991$/)
    await refuses({ seed: 1.5 }, /^seed must be an integer/)
    await refuses({ seed: '1' }, /^seed must be an integer/)
    await refuses({ unit: 'letters' }, /^unit must be one of: words, sentences, paragraphs \(received the string "letters"\)$/)
    await refuses({ format: 'markdown' }, /^format must be one of: text, html \(received the string "markdown"\)$/)
    await refuses({ lorem: true }, /^lorem is not a known field/)
  })

  test('wordCount matches the text, every word is from the list, and no word follows itself', async () => {
    const list = new Set(LOREM_WORDS)
    await fc.assert(
      fc.asyncProperty(options, async (input) => {
        const { result, wordCount } = await run(input)
        const words = wordsOf(result)
        assert.equal(wordCount, words.length)
        for (const [index, word] of words.entries()) {
          assert.ok(list.has(word), `${word} is in the list`)
          assert.notEqual(word, words[index - 1])
        }
      }),
    )
  })

  test('answers result, then wordCount', async () => {
    assert.deepEqual(Object.keys(await run({ seed: 1 })), ['result', 'wordCount'])
  })
})
