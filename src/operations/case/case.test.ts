import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { CASES, caseOperation, titleCaseOf, wordsOf } from './index.ts'

const run = (input: Record<string, unknown>) => execute(caseOperation, input, { timeBudgetMs: 60_000 })
const to = async (target: string, input: string, locale?: string) =>
  (await run(locale === undefined ? { input, to: target } : { input, to: target, locale })).result as string

after(() => closeWorkerPool())

describe('case: the twelve cases', () => {
  test('one text in every case', async () => {
    const expected: Record<(typeof CASES)[number], string> = {
      camel: 'fooBarBaz',
      pascal: 'FooBarBaz',
      snake: 'foo_bar_baz',
      constant: 'FOO_BAR_BAZ',
      kebab: 'foo-bar-baz',
      train: 'Foo-Bar-Baz',
      dot: 'foo.bar.baz',
      path: 'foo/bar/baz',
      title: 'Foo Bar Baz',
      sentence: 'Foo bar baz',
      lower: 'foo bar-baz',
      upper: 'FOO BAR-BAZ',
    }
    for (const name of CASES) assert.equal(await to(name, 'foo Bar-baz'), expected[name], name)
  })

  test('word boundaries: case changes, acronyms, digits, and any separator', () => {
    assert.deepEqual(wordsOf('XMLHttpRequest'), ['XML', 'Http', 'Request'])
    assert.deepEqual(wordsOf('getHTTPResponseCode'), ['get', 'HTTP', 'Response', 'Code'])
    assert.deepEqual(wordsOf('ÉTATCivil'), ['ÉTAT', 'Civil'])
    assert.deepEqual(wordsOf('utf8Text'), ['utf8', 'Text'])
    assert.deepEqual(wordsOf('version2beta'), ['version2beta'])
    assert.deepEqual(wordsOf('  foo__bar--baz..qux//quux  '), ['foo', 'bar', 'baz', 'qux', 'quux'])
    assert.deepEqual(wordsOf('I ❤ NY!'), ['I', 'NY'])
    assert.deepEqual(wordsOf(''), [])
    assert.deepEqual(wordsOf('!!!'), [])
  })

  test('words in any script keep their marks, digits and joiners (change-case’s own splitter drops them)', async () => {
    assert.equal(await to('kebab', 'नमस्ते दुनिया'), 'नमस्ते-दुनिया', 'Devanagari vowel signs and virama are marks')
    assert.equal(await to('snake', 'cafe\u0301 au lait'), 'cafe\u0301_au_lait', 'a decomposed accent stays on its letter')
    assert.equal(await to('kebab', 'می\u200cخواهم برم'), 'می\u200cخواهم-برم', 'a Persian zero-width non-joiner stays inside its word')
    assert.equal(await to('snake', 'چیز ٣ تا'), 'چیز_٣_تا', 'Arabic-Indic digits are digits')
    assert.equal(await to('camel', '日本語 テキスト'), '日本語テキスト', 'caseless scripts are joined as they are')
  })

  test('camelCase and PascalCase join digits without a separator', async () => {
    assert.equal(await to('camel', 'version 2 beta'), 'version2Beta')
    assert.equal(await to('pascal', '2 fast 2 furious'), '2Fast2Furious')
  })
})

describe('case: Unicode case mapping', () => {
  test('SpecialCasing.txt’s unconditional mappings: ß → SS, ﬁ → FI, ŉ → ʼN, İ → i̇', async () => {
    assert.equal(await to('upper', 'straße ﬁx ŉ'), 'STRASSE FIX ʼN')
    assert.equal(await to('constant', 'Maßstab'), 'MASSSTAB')
    assert.equal(await to('lower', 'İ'), 'i\u0307')
  })

  test('SpecialCasing.txt’s Final_Sigma: a capital sigma at the end of a word lower-cases to ς', async () => {
    assert.equal(await to('snake', 'ΟΔΟΣ ΜΑΚΡΥΣ'), 'οδος_μακρυς')
    assert.equal(await to('lower', 'ΣΑΣ'), 'σας')
  })

  test('title case of a word’s first letter (UnicodeData.txt and SpecialCasing.txt): digraphs, ligatures, ß, iota subscript', async () => {
    assert.equal(await to('title', 'ǆungla ǉubav ǌ ǳ'), 'ǅungla ǈubav ǋ ǲ')
    assert.equal(await to('pascal', 'ǄUNGLA'), 'ǅungla')
    assert.equal(await to('title', 'ﬁre ﬂow ßa'), 'Fire Flow Ssa')
    assert.equal(titleCaseOf('ᾳ', undefined), 'ᾼ', 'U+1FB3 → U+1FBC, not ΑΙ')
    assert.equal(titleCaseOf('ᾀ', undefined), 'ᾈ', 'U+1F80 → U+1F88')
    assert.equal(titleCaseOf('ᾲ', undefined), '\u1fba\u0345', 'U+1FB2 → U+1FBA U+0345')
    assert.equal(titleCaseOf('ŉ', undefined), 'ʼN')
    assert.equal(titleCaseOf('և', undefined), 'Եւ', 'U+0587 → U+0535 U+0582')
  })

  test('Georgian: title case keeps Mkhedruli letters, upper case gives Mtavruli (Unicode 11)', async () => {
    assert.equal(await to('title', 'ქართული ენა'), 'ქართული ენა')
    assert.equal(await to('upper', 'ქართული'), 'ᲥᲐᲠᲗᲣᲚᲘ')
  })

  test('letters beyond U+FFFF are capitalised whole (Deseret, Adlam), not by their first UTF-16 unit', async () => {
    assert.equal(await to('pascal', '𐐨𐐯𐑊𐐬 𞤢𞤣𞤤𞤢𞤥'), '𐐀𐐯𐑊𐐬𞤀𞤣𞤤𞤢𞤥')
    assert.equal(await to('camel', 'hello 𐐨𐐯𐑊𐐬'), 'hello𐐀𐐯𐑊𐐬')
  })

  test('locale: Turkish and Azeri dotted and dotless i (SpecialCasing.txt conditional mappings), Lithuanian dots', async () => {
    assert.equal(await to('upper', 'istanbul ılık', 'tr'), 'İSTANBUL ILIK')
    assert.equal(await to('lower', 'İSTANBUL ILIK', 'az'), 'istanbul ılık')
    assert.equal(await to('title', 'iyi ılık', 'tr'), 'İyi Ilık')
    assert.equal(await to('upper', 'istanbul'), 'ISTANBUL', 'without a locale, the default rules')
    assert.equal(await to('lower', '\u00cc', 'lt'), 'i\u0307\u0300', 'Lithuanian keeps the dot under an accent')
    assert.deepEqual(await run({ input: 'i', to: 'upper', locale: 'TR' }), { result: 'İ', to: 'upper', locale: 'tr' }, 'the tag is echoed canonical')
    assert.equal(await to('upper', 'i', 'en-US'), 'I')
  })
})

describe('case: properties and bounds', () => {
  const lowerWord = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzабвгдежзийклмнопрстуфхцчшщъыьэюяαβγδεζηθικλμνξοπρστυφχψω'),
    minLength: 1,
    maxLength: 8,
  })
  const separator = fc.constantFrom(' ', '-', '_', '.', '/', ', ', '  ', ' + ')

  test('words joined by any separators come out in each case exactly as specified (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(lowerWord, separator), { minLength: 1, maxLength: 6 }), async (pairs) => {
        const words = pairs.map(([word]) => word)
        const text = pairs.map(([word, between]) => word + between).join('')
        const capital = (word: string) => word[0].toUpperCase() + word.slice(1)
        assert.equal(await to('snake', text), words.join('_'))
        assert.equal(await to('kebab', text), words.join('-'))
        assert.equal(await to('dot', text), words.join('.'))
        assert.equal(await to('path', text), words.join('/'))
        assert.equal(await to('constant', text), words.join('_').toUpperCase())
        assert.equal(await to('pascal', text), words.map(capital).join(''))
        assert.equal(await to('camel', text), words[0] + words.slice(1).map(capital).join(''))
        assert.equal(await to('train', text), words.map(capital).join('-'))
        assert.equal(await to('title', text), words.map(capital).join(' '))
        assert.equal(await to('sentence', text), [capital(words[0]), ...words.slice(1)].join(' '))
        // Two one-letter words in a row read as an acronym once joined (`AB`), in change-case as here.
        if (words.every((word, i) => i === 0 || word.length > 1 || words[i - 1].length > 1)) {
          assert.equal(await to('snake', await to('pascal', text)), words.join('_'), 'pascal → snake gives the words back')
          assert.equal(await to('kebab', await to('camel', text)), words.join('-'), 'camel → kebab gives the words back')
        }
      }),
      { numRuns: 200 },
    )
  })

  test('any text: no case answers a character that was not a letter, mark, digit or its separator; lower and upper keep length classes (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 30 }), async (text) => {
        for (const name of ['snake', 'kebab', 'camel', 'title']) {
          const result = await to(name, text)
          assert.match(result, /^(?:[\p{L}\p{M}\p{N}_\- ]|\u200c|\u200d)*$/u, `${name} of ${JSON.stringify(text)}`)
        }
        assert.equal(await to('lower', text), text.toLowerCase())
        assert.equal(await to('upper', text), text.toUpperCase())
      }),
      { numRuns: 150 },
    )
  })

  test('refusals: a missing or unknown case and a malformed locale are 400s; a lone surrogate is a 422', async () => {
    await expectRefusal(run({ input: 'x' }), { code: 'VALIDATION_ERROR', field: 'to' })
    await expectRefusal(run({ input: 'x', to: 'spongebob' }), { code: 'VALIDATION_ERROR', field: 'to' })
    await expectRefusal(run({ input: 'x', to: 'upper', locale: 'tr_TR' }), { code: 'VALIDATION_ERROR', field: 'locale', message: /BCP 47/ })
    await expectRefusal(run({ input: 'x', to: 'upper', locale: 'x' }), { code: 'VALIDATION_ERROR', field: 'locale' })
    await expectRefusal(run({ input: 'a\ud800', to: 'upper' }), { code: 'INVALID_INPUT', position: 1 })
  })

  test('large inputs run on a worker, with the same answer', async () => {
    const input = 'Hello wonderful World of XMLHttpRequests '.repeat(2000)
    const fields = { input, to: 'snake' }
    assert.equal(caseOperation.offload?.(validate(caseOperation.input, fields)), true)
    assert.equal(caseOperation.offload?.(validate(caseOperation.input, { input: 'short', to: 'snake' })), false)
    assert.deepEqual(await run(fields), caseOperation.run(validate(caseOperation.input, fields)))
  })
})
