import { Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { limitExceeded } from '../../core/errors.ts'
import { assertOutputWithinLimit, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { utf8Length } from '../../lib/text/utf8-length.ts'

/**
 * Inputs longer than this run on a worker thread: transliteration looks every character up in its
 * tables, which past this length holds the event loop for tens of milliseconds
 * (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 32 * 1024

/**
 * A slug is rewritten in one left-to-right pass per stage: at each position the longest key wins and
 * replaced text is never scanned again, so the cost is linear (times the longest key) and the order
 * of the keys does not matter. A replacement is fixed text or, for digraphs whose sound depends on
 * what follows, text chosen by the next character ('' at the end).
 */
type Replacement = string | ((next: string) => string)

interface TrieNode {
  children: Map<number, TrieNode>
  replacement?: Replacement
}

interface Match {
  length: number
  text: string
}

type Matcher = (text: string, at: number) => Match | undefined

/** Later entries win over earlier ones with the same key. */
function buildTrie(entries: Iterable<readonly [string, Replacement]>): TrieNode {
  const root: TrieNode = { children: new Map() }
  for (const [key, replacement] of entries) {
    let node = root
    for (let i = 0; i < key.length; i++) {
      const code = key.charCodeAt(i)
      let child = node.children.get(code)
      if (child === undefined) {
        child = { children: new Map() }
        node.children.set(code, child)
      }
      node = child
    }
    node.replacement = replacement
  }
  return root
}

function trieMatcher(root: TrieNode): Matcher {
  return (text, at) => {
    let node = root
    let best: TrieNode | undefined
    let bestEnd = at
    for (let i = at; i < text.length; i++) {
      const child = node.children.get(text.charCodeAt(i))
      if (child === undefined) break
      node = child
      if (node.replacement !== undefined) {
        best = node
        bestEnd = i + 1
      }
    }
    if (best === undefined) return undefined
    const replacement = best.replacement!
    return { length: bestEnd - at, text: typeof replacement === 'string' ? replacement : replacement(text.charAt(bestEnd)) }
  }
}

/**
 * Text may grow while it is rewritten (a one-character key may become 64 characters, a Chinese
 * character a whole syllable); past the output limit it is refused before it is built.
 */
function assertWorkingLength(length: number): void {
  if (length > OUTPUT_LIMIT_BYTES) {
    throw limitExceeded(`The text would grow to ${length} characters while it is rewritten, more than the limit of ${OUTPUT_LIMIT_BYTES}`, {
      limit: OUTPUT_LIMIT_BYTES,
      predicted: length,
    })
  }
}

function rewrite(text: string, match: Matcher): string {
  const pieces: string[] = []
  let length = 0
  let copied = 0
  for (let at = 0; at < text.length; ) {
    const found = match(text, at)
    if (found === undefined) {
      at++
      continue
    }
    pieces.push(text.slice(copied, at), found.text)
    length += at - copied + found.text.length
    at += found.length
    copied = at
  }
  if (pieces.length === 0) return text
  length += text.length - copied
  assertWorkingLength(length)
  pieces.push(text.slice(copied))
  return pieces.join('')
}

/** Built in, as separate words ("Tom&Jerry" → tom-and-jerry); a user replacement of the same key wins. */
const BUILT_IN_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['&', ' and '],
  ['@', ' at '],
]
const builtInMatcher = trieMatcher(buildTrie(BUILT_IN_REPLACEMENTS))

function replacementMatcher(replacements: Record<string, string> | undefined): Matcher {
  if (replacements === undefined || Object.keys(replacements).length === 0) return builtInMatcher
  const user = Object.entries(replacements).map(([key, value]) => [key.normalize('NFC'), value] as const)
  return trieMatcher(buildTrie([...BUILT_IN_REPLACEMENTS, ...user]))
}

// ---- Transliteration: the `transliteration` package, with the gaps below filled first ----

/**
 * Where the package's romanisation is not the common one: German umlauts (it drops the dots),
 * Danish/Norwegian å ø (it drops the ring and stroke), capital ẞ and schwa (lost or written `@`),
 * Greek χ and the digraphs ου, αυ ευ ηυ, γγ (ELOT 743), Cyrillic х ц (BGN/PCGN kh ts rather than h c),
 * Ukrainian ґ (it writes an apostrophe), Serbian ћ џ, Japanese kana (it gives Nihon-shiki syllable
 * by syllable: `si`, `tu`, `kiya`), and the katakana middle dot and § (it drops the dot, gluing the
 * words together, and writes § as SS). Hangul is handled by `hangulMatcher`.
 */
const GAPS: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
  ẞ: 'SS',
  å: 'aa',
  Å: 'Aa',
  æ: 'ae',
  Æ: 'Ae',
  ø: 'oe',
  Ø: 'Oe',
  ə: 'e',
  Ə: 'E',
  χ: 'ch',
  Χ: 'Ch',
  ου: 'ou',
  ού: 'ou',
  Ου: 'Ou',
  Ού: 'Ou',
  ΟΥ: 'OU',
  ΟΎ: 'OU',
  γγ: 'ng',
  Γγ: 'Ng',
  ΓΓ: 'NG',
  х: 'kh',
  Х: 'Kh',
  ц: 'ts',
  Ц: 'Ts',
  ґ: 'g',
  Ґ: 'G',
  ћ: 'c',
  Ћ: 'C',
  џ: 'dz',
  Џ: 'Dz',
  '・': ' ',
  '§': ' ',
}

/** ELOT 743: αυ ευ ηυ are av ev iv, but af ef if before a voiceless consonant or at the end of a word. */
const GREEK_VOICELESS = new Set('θκξπστφχψςΘΚΞΠΣΤΦΧΨ')
function greekUpsilonDigraphs(): Array<[string, Replacement]> {
  const entries: Array<[string, Replacement]> = []
  for (const [first, latin] of [
    ['α', 'a'],
    ['ε', 'e'],
    ['η', 'i'],
    ['Α', 'A'],
    ['Ε', 'E'],
    ['Η', 'I'],
  ]) {
    for (const upsilon of ['υ', 'ύ', 'Υ', 'Ύ']) {
      const capital = upsilon === 'Υ' || upsilon === 'Ύ'
      entries.push([
        first + upsilon,
        (next) => {
          const voiceless = GREEK_VOICELESS.has(next) || !/^\p{L}/u.test(next)
          const consonant = voiceless ? 'f' : 'v'
          return latin + (capital ? consonant.toUpperCase() : consonant)
        },
      ])
    }
  }
  return entries
}

/** Hiragana in modified Hepburn; katakana are the same letters 0x60 code points higher. */
const HIRAGANA =
  'あa いi うu えe おo かka きki くku けke こko さsa しshi すsu せse そso たta ちchi つtsu てte とto ' +
  'なna にni ぬnu ねne のno はha ひhi ふfu へhe ほho まma みmi むmu めme もmo やya ゆyu よyo ' +
  'らra りri るru れre ろro わwa ゐi ゑe をo んn がga ぎgi ぐgu げge ごgo ざza じji ずzu ぜze ぞzo ' +
  'だda ぢji づzu でde どdo ばba びbi ぶbu べbe ぼbo ぱpa ぴpi ぷpu ぺpe ぽpo ゔvu ' +
  'ぁa ぃi ぅu ぇe ぉo ゃya ゅyu ょyo ゎwa ゕka ゖke'
/** An i-row kana followed by a small ya, yu or yo is one syllable: きゃ kya, しゅ shu, ちょ cho. */
const YOON_STEMS = 'きky しsh ちch にny ひhy みmy りry ぎgy じj ぢj びby ぴpy'
const YOON_VOWELS: Array<[string, string]> = [
  ['ゃ', 'a'],
  ['ゅ', 'u'],
  ['ょ', 'o'],
]
/** Foreign sounds written only in katakana. */
const KATAKANA_EXTENDED =
  'ファfa フィfi フェfe フォfo フュfyu ティti ディdi トゥtu ドゥdu テュtyu デュdyu ウィwi ウェwe ウォwo ' +
  'ヴァva ヴィvi ヴェve ヴォvo ヴュvyu シェshe ジェje チェche ツァtsa ツィtsi ツェtse ツォtso イェye ヷva ヸvi ヹve ヺvo'

function parsePairs(list: string): Array<[string, string]> {
  return list.split(' ').map((pair) => {
    const split = pair.search(/[a-z]/)
    return [pair.slice(0, split), pair.slice(split)]
  })
}

const toKatakana = (hiragana: string) => hiragana.replace(/[\u3041-\u3096]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0x60))

/** A small tsu doubles the consonant that follows (きって kitte, まっちゃ matcha); alone it is silent. */
function withSokuon(syllables: Array<[string, string]>, smallTsu: string): Array<[string, string]> {
  const doubled = syllables
    .filter(([, latin]) => /^[^aeiouny]/.test(latin))
    .map(([kana, latin]): [string, string] => [smallTsu + kana, (latin.startsWith('ch') ? 't' : latin[0]) + latin])
  return [...syllables, ...doubled, [smallTsu, '']]
}

function kanaEntries(): Array<[string, string]> {
  const hiragana = parsePairs(HIRAGANA)
  for (const [stem, latin] of parsePairs(YOON_STEMS)) {
    for (const [small, vowel] of YOON_VOWELS) hiragana.push([stem + small, latin + vowel])
  }
  const katakana = [...hiragana.map(([kana, latin]): [string, string] => [toKatakana(kana), latin]), ...parsePairs(KATAKANA_EXTENDED)]
  return [...withSokuon(hiragana, 'っ'), ...withSokuon(katakana, 'ッ')]
}

const HANGUL_FIRST = 0xac00
const HANGUL_LAST = 0xd7a3
/** Revised Romanization of Korean: initial consonants, vowels, and final consonants before a consonant or the end. */
const HANGUL_INITIALS = ['g', 'kk', 'n', 'd', 'tt', 'r', 'm', 'b', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h']
const HANGUL_VOWELS = ['a', 'ae', 'ya', 'yae', 'eo', 'e', 'yeo', 'ye', 'o', 'wa', 'wae', 'oe', 'yo', 'u', 'wo', 'we', 'wi', 'yu', 'eu', 'ui', 'i']
const HANGUL_FINALS = [
  '',
  'k',
  'k',
  'k',
  'n',
  'n',
  'n',
  't',
  'l',
  'k',
  'm',
  'l',
  'l',
  'l',
  'p',
  'l',
  'm',
  'p',
  'p',
  't',
  't',
  'ng',
  't',
  't',
  'k',
  't',
  'p',
  't',
]
/** A final consonant before a vowel is carried over to it: 한국어 hangugeo, 떡볶이 tteokbokki. */
const HANGUL_FINALS_LINKED = [
  '',
  'g',
  'kk',
  'ks',
  'n',
  'nj',
  'n',
  'd',
  'r',
  'lg',
  'lm',
  'lb',
  'ls',
  'lt',
  'lp',
  'r',
  'm',
  'b',
  'ps',
  's',
  'ss',
  'ng',
  'j',
  'ch',
  'k',
  't',
  'p',
  '',
]
const SILENT_INITIAL = 11
const RIEUL_INITIAL = 5
const RIEUL_FINAL = 8

const isHangulSyllable = (code: number) => code >= HANGUL_FIRST && code <= HANGUL_LAST

/**
 * A run of Hangul syllables, romanised as a word: letter by letter, with the final consonant carried
 * over to a following vowel and ㄹㄹ written ll. Other sound changes (신라 Silla) are not applied.
 */
const hangulMatcher: Matcher = (text, at) => {
  if (!isHangulSyllable(text.charCodeAt(at))) return undefined
  let end = at
  while (end < text.length && isHangulSyllable(text.charCodeAt(end))) end++
  let latin = ''
  let previousFinal = 0
  for (let i = at; i < end; i++) {
    const index = text.charCodeAt(i) - HANGUL_FIRST
    const initial = Math.floor(index / 588)
    const final = index % 28
    const nextInitial = i + 1 < end ? Math.floor((text.charCodeAt(i + 1) - HANGUL_FIRST) / 588) : -1
    latin += previousFinal === RIEUL_FINAL && initial === RIEUL_INITIAL ? 'l' : HANGUL_INITIALS[initial]
    latin += HANGUL_VOWELS[Math.floor((index % 588) / 28)]
    latin += nextInitial === SILENT_INITIAL ? HANGUL_FINALS_LINKED[final] : HANGUL_FINALS[final]
    previousFinal = final
  }
  return { length: end - at, text: latin }
}

const gapTrieMatcher = trieMatcher(buildTrie([...Object.entries(GAPS), ...greekUpsilonDigraphs(), ...kanaEntries()]))
const gapMatcher: Matcher = (text, at) => hangulMatcher(text, at) ?? gapTrieMatcher(text, at)

/**
 * The package writes at most 12 characters for one UTF-16 unit (U+722B is `Tsumekanmuri`) and puts a
 * space between Chinese characters, so a non-ASCII unit grows to at most 13 (a test checks its table).
 */
export const MAX_TRANSLITERATION_GROWTH = 13

/**
 * The package, loaded the first time a text needs it: building its tables is most of what loading
 * the registry costs, and a one-shot command that never slugs non-ASCII text should not pay for it.
 */
type Transliteration = typeof import('transliteration')
let transliterationPackage: Promise<Transliteration> | undefined

/** NFKC first, so that compatibility forms (ｶﾀｶﾅ, ﬁ, ①) reach the tables as ordinary letters. */
async function toLatin(text: string): Promise<string> {
  const latin = rewrite(text.normalize('NFKC'), gapMatcher)
  let nonAscii = 0
  for (let i = 0; i < latin.length; i++) if (latin.charCodeAt(i) > 0x7f) nonAscii++
  if (nonAscii === 0) return latin
  assertWorkingLength(latin.length - nonAscii + nonAscii * MAX_TRANSLITERATION_GROWTH)
  transliterationPackage ??= import('transliteration')
  return commonJsExports(await transliterationPackage).transliterate(latin)
}

// ---- Words and the result ----

const ASCII_WORD = /[A-Za-z0-9]+/g
/** A word starts with a letter or digit; combining marks belong to the letter before them. */
const UNICODE_WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu

function codePointLength(text: string): number {
  let length = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0xdc00 && code <= 0xdfff) length--
  }
  return length
}

function codePointPrefix(text: string, count: number): string {
  let end = 0
  for (let taken = 0; taken < count && end < text.length; taken++) {
    const code = text.charCodeAt(end)
    end += code >= 0xd800 && code <= 0xdbff ? 2 : 1
  }
  return text.slice(0, end)
}

/** The leading words that fit in maxLength characters with their separators; a first word longer than that is cut hard. */
function wordsWithin(words: string[], separatorLength: number, maxLength: number): string[] {
  if (maxLength === 0) return words
  const kept: string[] = []
  let length = 0
  for (const word of words) {
    const grown = kept.length === 0 ? codePointLength(word) : length + separatorLength + codePointLength(word)
    if (grown > maxLength) break
    kept.push(word)
    length = grown
  }
  if (kept.length === 0 && words.length > 0) kept.push(codePointPrefix(words[0], maxLength))
  return kept
}

/** RFC 3986 pchar punctuation, except `&` and `@`, which the built-in replacements turn into words. `-` first: literal in a class. */
const SEPARATOR_CHARACTERS = "-._~!$'()*+,;=:"

export const slug = defineOperation({
  name: 'slug',
  category: 'generators',
  summary: 'Make a URL-friendly slug from any text, romanising other scripts',
  title: 'Slug',
  aliases: ['slugify', 'url slug', 'permalink', 'transliterate', 'seo url'],
  description:
    'Turns text into a slug: words of letters and digits joined by `separator`, which never repeats, leads or trails. ' +
    'Steps, in order: Unicode NFC; `replacements` (longest key first, one pass, with `&` → and and `@` → at built in as separate words); ' +
    'with `transliterate`, romanisation to ASCII (NFKC, then the `transliteration` package with these choices: ä ö ü → ae oe ue and ß → ss; Danish/Norwegian å æ ø → aa ae oe; ' +
    'Cyrillic BGN/PCGN-style (х kh, ц ts, щ shch); Greek ELOT 743 (χ ch, ου ou, αυ av/af); Chinese as toneless pinyin, one word per character; ' +
    'Japanese kana in Hepburn (し shi, きゃ kya, っ doubling), while kanji get their Mandarin reading (東京 → dong-jing), since a reading needs a dictionary; ' +
    'Korean in Revised Romanization with final consonants carried to a following vowel); then `lowercase`. ' +
    'Everything that is not a letter or number separates words (with `transliterate`: everything but A–Z, a–z, 0–9; without: everything but Unicode letters, numbers and the combining marks after them), ' +
    "so the apostrophe in don't does too, unless a replacement removes it. " +
    '`maxLength` keeps the leading words that fit, counting characters as code points; only when the first word alone is longer is it cut in the middle. ' +
    'Text with nothing to keep gives an empty slug. The work is linear in the length of the input.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to make a slug of, in any script.', examples: ['Crème Brûlée & Größe'] }),
      separator: withDefault(
        Type.String({
          maxLength: 3,
          pattern: `^[${SEPARATOR_CHARACTERS}]{0,3}$`,
          description: `The text between words: empty, or up to 3 of ${SEPARATOR_CHARACTERS.split('').join(' ')}, the punctuation a URL path carries unencoded`,
        }),
        '-',
      ),
      lowercase: withDefault(
        Type.Boolean({
          description: 'Lower-case the slug. With false the letters keep their case (and romanisations are capitalised as the package writes them: Ni-Hao).',
        }),
        true,
      ),
      transliterate: withDefault(
        Type.Boolean({
          description:
            'Romanise every script to ASCII letters and digits (see the operation description for the conventions), so the slug holds only a–z, 0–9 and the separator. ' +
            'With false, the letters and numbers of every script are kept as they are (with their combining marks) and everything else separates words.',
        }),
        true,
      ),
      maxLength: withDefault(
        Type.Integer({
          minimum: 0,
          maximum: Number.MAX_SAFE_INTEGER,
          description:
            'The longest slug, in characters (code points); 0 = no limit. The slug is cut after the last whole word that fits; only a first word longer than maxLength is cut in the middle.',
        }),
        0,
      ),
      replacements: Type.Optional(
        Type.Record(Type.String(), Type.String({ maxLength: 64 }), {
          maxProperties: 100,
          propertyNames: { minLength: 1, maxLength: 32 },
          description:
            'Text to replace before anything else, e.g. {"#": "sharp"}: at most 100 keys of 1 to 32 characters, values of 0 to 64 characters, matched case-sensitively, the longest key first, replaced text not scanned again. ' +
            'Built in: & → and, @ → at (as separate words); a key given here wins over them.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The slug; empty when the input has no letters or digits.' }),
  }),
  examples: [
    { summary: 'A title', input: { input: 'Hello, World!' }, output: { result: 'hello-world' } },
    { summary: 'Accents, German and the built-in &', input: { input: 'Crème Brûlée & Größe' }, output: { result: 'creme-brulee-and-groesse' } },
    {
      summary: 'Other scripts, with underscores',
      input: { input: 'Привет мир 你好 안녕하세요', separator: '_' },
      output: { result: 'privet_mir_ni_hao_annyeonghaseyo' },
    },
    {
      summary: 'Keep the letters of every script',
      input: { input: 'Ünïcödé Straße, Καλημέρα!', transliterate: false },
      output: { result: 'ünïcödé-straße-καλημέρα' },
    },
    { summary: 'Cut at a word boundary', input: { input: 'A long title that will be cut', maxLength: 16 }, output: { result: 'a-long-title' } },
    { summary: 'Own replacements', input: { input: 'C# & .NET', replacements: { '#': 'sharp' } }, output: { result: 'csharp-and-net' } },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  runsInBrowser: true,
  async run({ input, separator, lowercase, transliterate, maxLength, replacements }) {
    let text = rewrite(input.normalize('NFC'), replacementMatcher(replacements))
    if (transliterate) text = await toLatin(text)
    if (lowercase) text = text.toLowerCase()
    const words = (transliterate ? text.match(ASCII_WORD) : text.normalize('NFC').match(UNICODE_WORD)) ?? []
    const kept = wordsWithin(words, separator.length, maxLength)
    let bytes = kept.length > 0 ? (kept.length - 1) * separator.length : 0
    for (const word of kept) bytes += utf8Length(word)
    assertOutputWithinLimit(bytes)
    return { result: kept.join(separator) }
  },
})
