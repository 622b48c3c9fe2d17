import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { transliterate } from 'transliteration'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { MAX_TRANSLITERATION_GROWTH, OFFLOAD_LENGTH, slug } from './index.ts'

const run = (input: Record<string, unknown>) => execute(slug, input, { timeBudgetMs: 60_000 })
const slugOf = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result as string
/**
 * Any Unicode scalar value. A custom unit rather than `unit: 'binary'`, whose shrinker can build a map
 * of every code point first, which costs seconds.
 */
const anyCharacter = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCodePoint(code))

const refuses = (input: Record<string, unknown>, code: string, pattern: RegExp) => expectRefusal(run(input), { code, message: pattern })

/** Several words for each script the operation supports, with the romanisation we document. */
const TRANSLITERATIONS: Record<string, Array<[string, string]>> = {
  'Latin accents': [
    ['Crème Brûlée', 'creme-brulee'],
    ['Ça va très bien', 'ca-va-tres-bien'],
    ['São Paulo', 'sao-paulo'],
    ['Łódź Żółć', 'lodz-zolc'],
    ['Ñandú İstanbul', 'nandu-istanbul'],
    ['Þingvellir Œuvre', 'thingvellir-oeuvre'],
  ],
  German: [
    ['Größe Über', 'groesse-ueber'],
    ['Straße', 'strasse'],
    ['Äpfel Öl Übel', 'aepfel-oel-uebel'],
    ['GROẞ', 'gross'],
    ['Gro\u0308\u00dfe', 'groesse'],
  ],
  'Scandinavian (å → aa, æ → ae, ø → oe)': [
    ['Blåbærsyltetøy', 'blaabaersyltetoey'],
    ['Ærø', 'aeroe'],
    ['Smørrebrød', 'smoerrebroed'],
    ['Århus Øresund', 'aarhus-oeresund'],
  ],
  'Cyrillic (Russian, Ukrainian, Serbian)': [
    ['Привет мир', 'privet-mir'],
    ['Москва', 'moskva'],
    ['Щука и ёж', 'shchuka-i-yozh'],
    ['Царь Хлеб', 'tsar-khleb'],
    ['Ґанок Україна', 'ganok-ukrayina'],
    ['Ћуприја', 'cuprija'],
  ],
  'Greek (ELOT 743)': [
    ['Καλημέρα', 'kalimera'],
    ['Θεσσαλονίκη', 'thessaloniki'],
    ['Χαίρετε', 'chairete'],
    ['Ευρώπη αυτό', 'evropi-afto'],
    ['ουρανός', 'ouranos'],
    ['Άγγελος', 'angelos'],
  ],
  'Chinese (pinyin, one word per character)': [
    ['你好世界', 'ni-hao-shi-jie'],
    ['北京', 'bei-jing'],
    ['中文 abc', 'zhong-wen-abc'],
  ],
  'Japanese kana (Hepburn)': [
    ['こんにちは', 'konnichiha'],
    ['さくら すし', 'sakura-sushi'],
    ['カタカナ', 'katakana'],
    ['まっちゃ きって', 'matcha-kitte'],
    ['コンピューター', 'konpyuta'],
    ['ヴァイオリン', 'vaiorin'],
    ['ジョン・スミス', 'jon-sumisu'],
    ['ｶﾀｶﾅ', 'katakana'],
  ],
  'Japanese kanji (Mandarin reading, documented)': [
    ['東京', 'dong-jing'],
    ['東京タワー', 'dong-jing-tawa'],
  ],
  'Korean (Revised Romanization)': [
    ['안녕하세요', 'annyeonghaseyo'],
    ['한국어', 'hangugeo'],
    ['서울특별시', 'seoulteukbyeolsi'],
    ['김치 떡볶이', 'gimchi-tteokbokki'],
    ['달래', 'dallae'],
  ],
}

describe('slug', () => {
  for (const [script, cases] of Object.entries(TRANSLITERATIONS)) {
    test(`transliterates ${script}`, async () => {
      for (const [input, expected] of cases) assert.equal(await slugOf(input), expected, input)
    })
  }

  test('separators never repeat, lead or trail, and text with nothing to keep is empty', async () => {
    assert.equal(await slugOf('  --Hello--  World__!!  '), 'hello-world')
    assert.equal(await slugOf('a - b -- c'), 'a-b-c')
    assert.equal(await slugOf('!!! ... ---'), '')
    assert.equal(await slugOf(''), '')
  })

  test('separator variants, including empty and several characters', async () => {
    const input = 'Hello big  World'
    assert.equal(await slugOf(input, { separator: '_' }), 'hello_big_world')
    assert.equal(await slugOf(input, { separator: '.' }), 'hello.big.world')
    assert.equal(await slugOf(input, { separator: '' }), 'hellobigworld')
    assert.equal(await slugOf(input, { separator: '--' }), 'hello--big--world')
    assert.equal(await slugOf(input, { separator: '~+~' }), 'hello~+~big~+~world')
    assert.equal(await slugOf('a_b-c', { separator: '_' }), 'a_b_c')
  })

  test('a separator must be up to 3 URL-safe punctuation characters (400)', async () => {
    for (const separator of ['/', ' ', '----', 'x', '&', '@', 'é']) {
      await refuses(
        { input: 'a b', separator },
        'VALIDATION_ERROR',
        /^separator (must be at most 3|does not have the expected form: .*the punctuation a URL path carries unencoded)/,
      )
    }
  })

  test('lowercase false keeps the case of the input and of romanisations', async () => {
    assert.equal(await slugOf('Hello World', { lowercase: false }), 'Hello-World')
    assert.equal(await slugOf('Größe Über ÄPFEL', { lowercase: false }), 'Groesse-Ueber-AePFEL')
    assert.equal(await slugOf('你好 Привет', { lowercase: false }), 'Ni-Hao-Privet')
  })

  test('transliterate false keeps the letters and digits of every script', async () => {
    const cases: Array<[string, string]> = [
      ['Привет, мир!', 'привет-мир'],
      ['你好，世界', '你好-世界'],
      ['Καλημέρα κόσμε', 'καλημέρα-κόσμε'],
      ['हिन्दी भाषा', 'हिन्दी-भाषा'],
      ['مرحبا بالعالم', 'مرحبا-بالعالم'],
      ['Straße № 5 & ½', 'straße-5-and-½'],
      ['こんにちは 世界 ２０２４', 'こんにちは-世界-２０２４'],
    ]
    for (const [input, expected] of cases) assert.equal(await slugOf(input, { transliterate: false }), expected, input)
    assert.equal(await slugOf('Ωμέγα ÄÖ', { transliterate: false, lowercase: false }), 'Ωμέγα-ÄÖ')
  })

  test('maxLength cuts after the last whole word that fits', async () => {
    const input = 'The quick brown fox'
    assert.equal(await slugOf(input, { maxLength: 0 }), 'the-quick-brown-fox')
    assert.equal(await slugOf(input, { maxLength: 15 }), 'the-quick-brown')
    assert.equal(await slugOf(input, { maxLength: 14 }), 'the-quick')
    assert.equal(await slugOf(input, { maxLength: 9 }), 'the-quick')
    assert.equal(await slugOf(input, { maxLength: 8 }), 'the')
    assert.equal(await slugOf(input, { maxLength: 19 }), 'the-quick-brown-fox')
    assert.equal(await slugOf(input, { maxLength: 21, separator: '---' }), 'the---quick---brown')
    assert.equal(await slugOf(input, { maxLength: 8, separator: '' }), 'thequick')
  })

  test('maxLength cuts a first word longer than itself in the middle, counting code points', async () => {
    assert.equal(await slugOf('Supercalifragilistic word', { maxLength: 5 }), 'super')
    assert.equal(await slugOf('𝒜𝒜𝒜 b', { maxLength: 2, transliterate: false }), '𝒜𝒜')
    assert.equal(await slugOf('ab', { maxLength: 1 }), 'a')
    await refuses({ input: 'a', maxLength: -1 }, 'VALIDATION_ERROR', /maxLength must be >= 0/)
  })

  test('replacements come first, longest key wins, and replaced text is not scanned again', async () => {
    assert.equal(await slugOf('C# & .NET', { replacements: { '#': 'sharp' } }), 'csharp-and-net')
    assert.equal(await slugOf('me@example.com'), 'me-at-example-com')
    assert.equal(await slugOf('Tom&Jerry'), 'tom-and-jerry')
    assert.equal(await slugOf('Tom & Jerry', { replacements: { '&': 'und' } }), 'tom-und-jerry')
    assert.equal(await slugOf('Tom&Jerry', { replacements: { '&': '' } }), 'tomjerry')
    assert.equal(await slugOf('a&&b', { replacements: { '&&': 'or' } }), 'aorb')
    assert.equal(await slugOf('ab', { replacements: { a: 'b', b: 'c' } }), 'bc')
    assert.equal(await slugOf("don't", { replacements: { "'": '' } }), 'dont')
    assert.equal(await slugOf('I ♥ tea', { replacements: { '♥': 'любовь' } }), 'i-lyubov-tea')
    assert.equal(await slugOf('Café', { replacements: { 'Cafe\u0301': 'bar' } }), 'bar')
  })

  test('replacements are bounded by the schema (400)', async () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v']))
    await refuses({ input: 'a', replacements: many }, 'VALIDATION_ERROR', /replacements must have at most 100 properties/)
    await refuses({ input: 'a', replacements: { ['x'.repeat(33)]: 'v' } }, 'VALIDATION_ERROR', /at most 32 characters/)
    await refuses({ input: 'a', replacements: { '': 'v' } }, 'VALIDATION_ERROR', /at least 1 character/)
    await refuses({ input: 'a', replacements: { x: 'v'.repeat(65) } }, 'VALIDATION_ERROR', /at most 64 characters/)
    await refuses({ input: 'a', replacements: { x: 1 } }, 'VALIDATION_ERROR', /replacements\.x must be a string/)
    assert.equal(await slugOf('x', { replacements: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v'])) }), 'x')
  })

  test('text that would grow past the output limit is refused (422), not built', async () => {
    await refuses({ input: 'a'.repeat(300_000), replacements: { a: 'b'.repeat(64) } }, 'LIMIT_EXCEEDED', /more than the limit/)
    await refuses({ input: 'a '.repeat(300_000), replacements: { a: '中'.repeat(5) } }, 'LIMIT_EXCEEDED', /more than the limit/)
  })

  test('the transliteration package grows a UTF-16 unit by no more than the bound the limit check assumes', () => {
    const table = transliterate.setData()
    let longest = 0
    for (const [from, to] of Object.entries(table)) longest = Math.max(longest, Math.ceil(to.length / from.length))
    assert.ok(longest + 1 <= MAX_TRANSLITERATION_GROWTH, `longest replacement ${longest} + 1 space`)
  })

  test('with transliterate, the slug holds only a–z, 0–9 and the separator', async () => {
    const separators = fc.constantFrom('-', '_', '', '.', '~', '--', "'", '+=:')
    const text = fc.oneof(fc.string({ unit: anyCharacter }), fc.string({ unit: fc.constantFrom(...'aÄ ß-å你ф Ω한カっ!&@x1'.split('')) }))
    await fc.assert(
      fc.asyncProperty(text, separators, fc.boolean(), async (input, separator, lowercase) => {
        const result = await slugOf(input, { separator, lowercase })
        const word = lowercase ? '[a-z0-9]+' : '[A-Za-z0-9]+'
        const escaped = separator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        assert.match(result, new RegExp(`^(?:${word}(?:${escaped}${word})*)?$`))
      }),
    )
  })

  test('idempotence: slug(slug(x)) === slug(x) for any text and options', async () => {
    const options = fc.record({
      separator: fc.constantFrom('-', '_', '', '.', '--', '=', ':)'),
      lowercase: fc.boolean(),
      transliterate: fc.boolean(),
      maxLength: fc.constantFrom(0, 1, 5, 12, 40),
    })
    const text = fc.oneof(fc.string({ unit: anyCharacter }), fc.string({ unit: fc.constantFrom(...'Aé ß-İ你ф Ωού한カっ\u0301\u0338=!&@x1'.split('')) }))
    await fc.assert(
      fc.asyncProperty(text, options, async (input, opts) => {
        const once = await slugOf(input, opts)
        assert.equal(await slugOf(once, opts), once)
      }),
      { numRuns: 300 },
    )
  })

  test('long runs of spaces and separators stay linear (1 MiB each)', async () => {
    const MiB = 1024 * 1024
    const inputs = [' '.repeat(MiB), '-'.repeat(MiB), 'a -'.repeat(MiB / 3), '你 '.repeat(MiB / 2)]
    for (const input of inputs) {
      for (const transliterate of [true, false]) {
        // CPU time, not wall time, so that a busy machine cannot fail the test: linear work takes
        // well under a second of it here (at most ~0.5 s), anything quadratic would take minutes.
        const started = process.cpuUsage()
        const result = await slugOf(input, { transliterate })
        const { user, system } = process.cpuUsage(started)
        const elapsed = (user + system) / 1000
        assert.ok(elapsed < 2000, `${JSON.stringify(input.slice(0, 3))}… took ${elapsed.toFixed(0)} ms of CPU`)
        assert.ok(!result.startsWith('-') && !result.endsWith('-') && !result.includes('--'))
      }
    }
  })
})

describe('slug: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => slug.offload!(validate(slug.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })

  test('a large input gives the same answer on a worker thread as in process', async () => {
    const fields = { input: 'Crème Brûlée & Größe, 東京 and Ελληνικά '.repeat(1000) }
    assert.equal(slug.offload!(validate(slug.input, fields)), true)
    assert.deepEqual(await execute(slug, fields, { timeBudgetMs: 60_000 }), await slug.run(validate(slug.input, fields)))
  })

  after(() => closeWorkerPool())
})
