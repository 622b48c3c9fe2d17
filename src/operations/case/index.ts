import { constantCase, dotCase, kebabCase, pathCase, snakeCase } from 'change-case'
import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation } from '../../core/operation.ts'

export const CASES = ['camel', 'pascal', 'snake', 'constant', 'kebab', 'train', 'dot', 'path', 'title', 'sentence', 'lower', 'upper'] as const
type Case = (typeof CASES)[number]

/** The longest `input`, in characters. Case mapping can triple the length (ΐ upper-cases to three code points). */
export const MAX_INPUT_LENGTH = 1024 * 1024

/** Inputs longer than this are converted on a worker thread (splitting and mapping cost about 0.1 µs a character). */
const OFFLOAD_LENGTH = 64 * 1024

/** Letters, marks and digits make words; zero-width (non-)joiners belong inside words of scripts that need them. */
const NOT_WORD = /[^\p{L}\p{M}\p{N}\u200c\u200d]+/gu
/** A lower-case letter or digit (with its marks) followed by an upper- or title-case letter: `fooBar`, `utf8Text`. */
const LOWER_TO_UPPER = /([\p{Ll}\p{N}]\p{M}*)(?=[\p{Lu}\p{Lt}])/gu
/** The last capital of an acronym, before a capitalised word: `XMLHttp` → `XML` `Http`. */
const ACRONYM_END = /([\p{Lu}\p{Lt}]\p{M}*)(?=\p{Lu}\p{M}*\p{Ll})/gu

/**
 * The words of `text`, as change-case finds them (a boundary where a lower-case letter or digit meets
 * an upper-case one, and before the last capital of an acronym; other characters separate words and
 * are dropped), but in any script: change-case's own splitter drops combining marks (breaking
 * decomposed accents and every Indic word) and digits other than 0–9.
 */
export function wordsOf(text: string): string[] {
  return text
    .replace(NOT_WORD, '\0')
    .replace(LOWER_TO_UPPER, '$1\0')
    .replace(ACRONYM_END, '$1\0')
    .split('\0')
    .filter((word) => word !== '')
}

/** Letters whose title case differs from their upper case (UnicodeData.txt): the Latin digraphs. */
const DIGRAPH_TITLE_CASE: Record<string, string> = {
  Ǆ: 'ǅ',
  ǅ: 'ǅ',
  ǆ: 'ǅ',
  Ǉ: 'ǈ',
  ǈ: 'ǈ',
  ǉ: 'ǈ',
  Ǌ: 'ǋ',
  ǋ: 'ǋ',
  ǌ: 'ǋ',
  Ǳ: 'ǲ',
  ǲ: 'ǲ',
  ǳ: 'ǲ',
  // SpecialCasing.txt: the title case of ŉ keeps the N capital.
  ŉ: 'ʼN',
}
/** Georgian Mkhedruli letters are their own title case: Mtavruli capitals are only for all-caps text. */
const GEORGIAN_MKHEDRULI = /^[\u10d0-\u10fa\u10fd-\u10ff]$/u
const TITLE_CASE_LETTER = /^\p{Lt}$/u
const YPOGEGRAMMENI = '\u0345'

/**
 * The title case of one character (JavaScript has upper and lower case only). Where the full upper
 * case is several characters, the title case is the first upper-cased and the rest lower-cased
 * (ß → Ss, ﬁ → Fi, և → Եւ), except that a Greek iota subscript stays a subscript (ᾳ → ᾼ, not Αι).
 */
export function titleCaseOf(character: string, locale: string | undefined): string {
  if (TITLE_CASE_LETTER.test(character) || GEORGIAN_MKHEDRULI.test(character)) return character
  const digraph = DIGRAPH_TITLE_CASE[character]
  if (digraph) return digraph
  const upper = character.toLocaleUpperCase(locale)
  const [first, ...rest] = upper
  if (rest.length === 0) return upper
  const decomposed = character.normalize('NFD')
  if (decomposed.includes(YPOGEGRAMMENI)) return `${decomposed.replace(YPOGEGRAMMENI, '').toLocaleUpperCase(locale)}${YPOGEGRAMMENI}`.normalize('NFC')
  return first + rest.join('').toLocaleLowerCase(locale)
}

/** The word with its first character (a code point, not a UTF-16 unit) in title case and the rest lower case. */
function capitalize(word: string, locale: string | undefined): string {
  const first = String.fromCodePoint(word.codePointAt(0)!)
  return titleCaseOf(first, locale) + word.slice(first.length).toLocaleLowerCase(locale)
}

/**
 * change-case's functions for the cases that only lower or upper words, given our splitter; `locale`
 * false makes them use the root mapping rather than the server's locale.
 */
const JOINED_BY_CHANGE_CASE = { snake: snakeCase, constant: constantCase, kebab: kebabCase, dot: dotCase, path: pathCase } as const

function convert(text: string, to: Case, locale: string | undefined): string {
  if (to === 'lower') return text.toLocaleLowerCase(locale)
  if (to === 'upper') return text.toLocaleUpperCase(locale)
  if (to in JOINED_BY_CHANGE_CASE) return JOINED_BY_CHANGE_CASE[to as keyof typeof JOINED_BY_CHANGE_CASE](text, { split: wordsOf, locale: locale ?? false })
  const words = wordsOf(text)
  const lower = (word: string) => word.toLocaleLowerCase(locale)
  const capital = (word: string) => capitalize(word, locale)
  switch (to) {
    case 'camel':
      return words.map((word, index) => (index === 0 ? lower(word) : capital(word))).join('')
    case 'pascal':
      return words.map(capital).join('')
    case 'train':
      return words.map(capital).join('-')
    case 'title':
      return words.map(capital).join(' ')
    default:
      return words.map((word, index) => (index === 0 ? capital(word) : lower(word))).join(' ')
  }
}

/** The locale as ICU will use it, or a 400 naming the field. */
function canonicalLocale(locale: string | undefined): string | undefined {
  if (locale === undefined) return undefined
  try {
    return Intl.getCanonicalLocales(locale)[0]
  } catch {
    throw validationError('locale', `must be a BCP 47 language tag such as tr, az or lt; '${locale}' is not one`)
  }
}

const CASE_EXAMPLES: Record<Case, string> = {
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
  lower: 'foo bar baz',
  upper: 'FOO BAR BAZ',
}

export const caseOperation = defineOperation({
  name: 'case',
  category: 'converters',
  summary: 'Convert text to camelCase, PascalCase, snake_case, kebab-case, Title Case and other cases',
  title: 'Case converter',
  aliases: [
    'camelcase',
    'pascalcase',
    'snake case',
    'snake_case',
    'kebab case',
    'constant case',
    'title case',
    'sentence case',
    'uppercase',
    'lowercase',
    'capitalize',
  ],
  description:
    'Splits `input` into words and joins them in the case `to` names. Words are runs of letters, marks and digits, in any script; a lower-case letter or digit followed by a capital starts a new word (`fooBar`), ' +
    'and so does the last capital of an acronym before a capitalised word (`XMLHttpRequest` → XML, Http, Request); every other character separates words and is dropped. ' +
    '`lower` and `upper` do not split: they map the whole text, keeping every character. ' +
    'Case mapping is Unicode’s full mapping (ß upper-cases to SS, ﬁ to FI), the same whatever the server’s locale; `locale` asks for a language’s own rules (tr and az: i ↔ İ, ı ↔ I; lt: dots kept over i with accents). ' +
    'Capitalised words take the title case of their first letter (ǆ → ǅ, ß → Ss) and keep Georgian letters as they are. ' +
    'camelCase and PascalCase join words with nothing between them, digits included (`version 2 beta` → version2Beta).',
  input: Type.Object(
    {
      input: Type.String({ maxLength: MAX_INPUT_LENGTH, description: 'The text to convert. May be empty.', examples: ['foo bar baz'] }),
      to: Type.Enum(CASES, {
        description: `The case to convert to: ${CASES.map((name) => `\`${name}\` (${CASE_EXAMPLES[name]})`).join(', ')}.`,
      }),
      locale: Type.Optional(
        Type.String({
          minLength: 2,
          maxLength: 35,
          description:
            'A BCP 47 language tag whose case rules apply, such as `tr` or `az` (dotted and dotless i) or `lt`. Omitted: Unicode’s default rules, whatever the server’s locale. Tags without special rules behave as omitted.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The converted text.' }),
    to: Type.Enum(CASES, { description: 'The case converted to.' }),
    locale: Type.Optional(Type.String({ description: 'The locale used, in its canonical form; only when one was given.' })),
  }),
  examples: [
    { summary: 'camelCase', input: { input: 'foo bar baz', to: 'camel' }, output: { result: 'fooBarBaz', to: 'camel' } },
    {
      summary: 'snake_case from camelCase with an acronym',
      input: { input: 'parseXMLHttpRequest2', to: 'snake' },
      output: { result: 'parse_xml_http_request2', to: 'snake' },
    },
    { summary: 'Full case mapping: ß upper-cases to SS', input: { input: 'Straße frei', to: 'constant' }, output: { result: 'STRASSE_FREI', to: 'constant' } },
    {
      summary: 'Turkish dotted and dotless i',
      input: { input: 'istanbul ılık', to: 'upper', locale: 'tr' },
      output: { result: 'İSTANBUL ILIK', to: 'upper', locale: 'tr' },
    },
    {
      summary: 'Title Case of any script',
      input: { input: 'ǆungla straße привет мир', to: 'title' },
      output: { result: 'ǅungla Straße Привет Мир', to: 'title' },
    },
  ],
  offload({ input }) {
    return input.length > OFFLOAD_LENGTH
  },
  runsInBrowser: true,
  run({ input, to, locale }) {
    const canonical = canonicalLocale(locale)
    const result = convert(input, to, canonical)
    return canonical === undefined ? { result, to } : { result, to, locale: canonical }
  },
})
