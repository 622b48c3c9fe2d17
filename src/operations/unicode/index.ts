import { Type } from 'typebox'
import { invalidInput } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { textTotals } from '../../lib/text/counts.ts'

const ACTIONS = ['inspect', 'normalize'] as const
const FORMS = ['NFC', 'NFD', 'NFKC', 'NFKD'] as const
const FLAGS = ['invisible', 'bidi-control', 'confusable', 'lone-surrogate'] as const
type Flag = (typeof FLAGS)[number]

/**
 * The longest `input`, in UTF-16 code units (what JSON strings and JavaScript count): inspecting that
 * much CJK text, the slowest to segment into words, stays well within the time budget (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const MAX_INPUT_LENGTH = 256 * 1024
/** The most code points `inspect` lists: each entry is about 150 bytes of JSON, so 10,000 stay near 1.5 MB. */
export const MAX_LISTED = 10_000

/**
 * Inputs longer than this go to a worker thread: inspect tests every code point against several
 * Unicode properties and segments the text twice; normalize is native and fast, so it waits for much
 * larger inputs.
 */
const INSPECT_OFFLOAD_LENGTH = 8 * 1024
const NORMALIZE_OFFLOAD_LENGTH = 64 * 1024

/** The general categories (Unicode §4.5) with their long names. */
const CATEGORY_NAMES = {
  Lu: 'Uppercase_Letter',
  Ll: 'Lowercase_Letter',
  Lt: 'Titlecase_Letter',
  Lm: 'Modifier_Letter',
  Lo: 'Other_Letter',
  Mn: 'Nonspacing_Mark',
  Mc: 'Spacing_Mark',
  Me: 'Enclosing_Mark',
  Nd: 'Decimal_Number',
  Nl: 'Letter_Number',
  No: 'Other_Number',
  Pc: 'Connector_Punctuation',
  Pd: 'Dash_Punctuation',
  Ps: 'Open_Punctuation',
  Pe: 'Close_Punctuation',
  Pi: 'Initial_Punctuation',
  Pf: 'Final_Punctuation',
  Po: 'Other_Punctuation',
  Sm: 'Math_Symbol',
  Sc: 'Currency_Symbol',
  Sk: 'Modifier_Symbol',
  So: 'Other_Symbol',
  Zs: 'Space_Separator',
  Zl: 'Line_Separator',
  Zp: 'Paragraph_Separator',
  Cc: 'Control',
  Cf: 'Format',
  Cs: 'Surrogate',
  Co: 'Private_Use',
  Cn: 'Unassigned',
} as const
type Category = keyof typeof CATEGORY_NAMES
const CATEGORIES = Object.keys(CATEGORY_NAMES) as Category[]

/** One alternative per category, so a single match names the category: V8's own Unicode tables, no copy of ours. */
const CATEGORY_PATTERN = new RegExp(`^(?:${CATEGORIES.map((category) => `(?<${category}>\\p{gc=${category}})`).join('|')})$`, 'u')

function categoryOf(character: string): Category {
  const groups = CATEGORY_PATTERN.exec(character)?.groups ?? {}
  return CATEGORIES.find((category) => groups[category] !== undefined) ?? 'Cn'
}

const BIDI_CONTROL = /^\p{Bidi_Control}$/u
/** Draws nothing, or only a gap, without being a plain space, tab or line break. */
const INVISIBLE = /^(?:\p{Default_Ignorable_Code_Point}|\p{gc=Cf}|(?![ \t\n\r])\p{White_Space})$/u
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/
/** Scripts whose letters are commonly mistaken for one another (UTS #39 mixed-script confusables). */
const LOOKALIKE_SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Cherokee', 'Coptic'].map((script) => ({
  script,
  pattern: new RegExp(`^\\p{Script=${script}}$`, 'u'),
}))
const WORD_CHARACTER = /^[\p{L}\p{M}\p{N}]$/u

const isLoneSurrogate = (character: string) => character.length === 1 && character.charCodeAt(0) >= 0xd800 && character.charCodeAt(0) <= 0xdfff

function lookalikeScriptOf(character: string): string | undefined {
  return LOOKALIKE_SCRIPTS.find(({ pattern }) => pattern.test(character))?.script
}

/** A code point of the input with where it starts (UTF-16 index); lone surrogates are code points of their own. */
interface Place {
  character: string
  index: number
}

function codePointsOf(text: string): Place[] {
  const places: Place[] = []
  for (let index = 0; index < text.length; ) {
    const character = String.fromCodePoint(text.codePointAt(index)!)
    places.push({ character, index })
    index += character.length
  }
  return places
}

/**
 * Indexes (into `places`) of letters that share a word with letters of another lookalike script and
 * are not of the word's most common one (Latin wins a tie): `pаypal` with a Cyrillic а.
 */
function mixedScriptLetters(places: Place[]): Set<number> {
  const flagged = new Set<number>()
  let wordStart = 0
  const closeWord = (end: number) => {
    const scripts = new Map<string, number[]>()
    for (let i = wordStart; i < end; i++) {
      const script = lookalikeScriptOf(places[i].character)
      if (!script) continue
      const indexes = scripts.get(script)
      if (indexes) indexes.push(i)
      else scripts.set(script, [i])
    }
    if (scripts.size > 1) {
      const ranked = [...scripts.entries()].sort(([a, first], [b, second]) => second.length - first.length || Number(b === 'Latin') - Number(a === 'Latin'))
      for (const [, indexes] of ranked.slice(1)) for (const index of indexes) flagged.add(index)
    }
  }
  for (let i = 0; i <= places.length; i++) {
    if (i < places.length && WORD_CHARACTER.test(places[i].character)) continue
    closeWord(i)
    wordStart = i + 1
  }
  return flagged
}

function flagsOf(character: string, mixedScript: boolean): Flag[] {
  if (isLoneSurrogate(character)) return ['lone-surrogate']
  const flags: Flag[] = []
  if (INVISIBLE.test(character)) flags.push('invisible')
  if (BIDI_CONTROL.test(character)) flags.push('bidi-control')
  if (mixedScript || (character.codePointAt(0)! > 0x7f && PRINTABLE_ASCII.test(character.normalize('NFKC')))) flags.push('confusable')
  return flags
}

const UTF8 = new TextEncoder()
const hexUnits = (values: Iterable<number>, digits: number) => Array.from(values, (value) => value.toString(16).toUpperCase().padStart(digits, '0')).join(' ')

function describe(place: Place, flags: Flag[]) {
  const { character, index } = place
  const codePoint = character.codePointAt(0)!
  const category = categoryOf(character)
  const notation = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`
  const utf16 = hexUnits(
    Array.from({ length: character.length }, (_, i) => character.charCodeAt(i)),
    4,
  )
  if (flags.includes('lone-surrogate')) return { index, codePoint: notation, utf16, category, categoryName: CATEGORY_NAMES[category], flags }
  return {
    index,
    codePoint: notation,
    character,
    utf8: hexUnits(UTF8.encode(character), 2),
    utf16,
    category,
    categoryName: CATEGORY_NAMES[category],
    flags,
  }
}

function inspect(text: string, maxCodePoints: number) {
  const places = codePointsOf(text)
  const mixed = mixedScriptLetters(places)
  const counts = { invisible: 0, bidiControl: 0, confusable: 0, loneSurrogates: 0 }
  const listed = []
  for (let i = 0; i < places.length; i++) {
    const flags = flagsOf(places[i].character, mixed.has(i))
    if (flags.includes('invisible')) counts.invisible++
    if (flags.includes('bidi-control')) counts.bidiControl++
    if (flags.includes('confusable')) counts.confusable++
    if (flags.includes('lone-surrogate')) counts.loneSurrogates++
    if (i < maxCodePoints) listed.push(describe(places[i], flags))
  }
  return {
    result: listed,
    action: 'inspect' as const,
    totals: textTotals(text),
    flagged: counts,
    truncated: places.length > maxCodePoints,
  }
}

function normalize(text: string, form: (typeof FORMS)[number]) {
  if (!text.isWellFormed()) {
    const position = codePointsOf(text).find(({ character }) => isLoneSurrogate(character))!.index
    throw invalidInput(
      `input has a lone surrogate (U+${text.charCodeAt(position).toString(16).toUpperCase()}) at position ${position}: normalization is defined for Unicode text only; inspect shows such code units`,
      { position },
    )
  }
  const result = text.normalize(form)
  return { result, action: 'normalize' as const, form, alreadyNormalized: result === text }
}

const codePointSchema = Type.Object({
  index: Type.Integer({ description: 'Where the code point starts in `input`, in UTF-16 code units from 0.' }),
  codePoint: Type.String({ description: 'The code point in U+ notation (at least 4 hex digits).' }),
  character: Type.Optional(Type.String({ description: 'The character itself; absent for a lone surrogate, which is not a character.' })),
  utf8: Type.Optional(Type.String({ description: 'Its UTF-8 bytes in hex, separated by spaces; absent for a lone surrogate, which UTF-8 cannot encode.' })),
  utf16: Type.String({ description: 'Its UTF-16 code units in hex, separated by spaces.' }),
  category: Type.Enum(CATEGORIES, { description: 'The general category, as the platform’s Unicode tables give it (unassigned code points are Cn).' }),
  categoryName: Type.String({ description: 'The long name of the general category, e.g. Uppercase_Letter.' }),
  flags: Type.Array(Type.Enum(FLAGS), {
    description:
      '`invisible`: default-ignorable, a format control, or whitespace other than space, tab and line breaks; `bidi-control`: a Bidi_Control character (e.g. U+202E, used in "Trojan Source" attacks); ' +
      '`confusable`: a non-ASCII character whose compatibility form (NFKC) is ASCII, or a letter mixed into a word of another lookalike script (Latin, Cyrillic, Greek, Armenian, Cherokee, Coptic); `lone-surrogate`.',
  }),
})

export const unicode = defineOperation({
  name: 'unicode',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Inspect the code points of a text, or normalize it to NFC, NFD, NFKC or NFKD',
  title: 'Unicode inspector',
  aliases: ['code point', 'codepoint', 'utf-8', 'utf8', 'utf-16', 'normalize', 'normalization', 'nfc', 'nfd', 'nfkc', 'nfkd', 'character info', 'emoji'],
  description:
    '`inspect` (the default) lists the code points of `input`, each with its U+ notation, UTF-8 bytes, UTF-16 code units, general category and flags for invisible, bidirectional-control and confusable-prone characters, ' +
    'and counts the text: UTF-16 code units, code points, grapheme clusters (user-perceived characters, UAX #29), UTF-8 bytes, words (UAX #29) and lines. ' +
    `At most \`maxCodePoints\` code points are listed (default 1,000, at most ${MAX_LISTED.toLocaleString('en')}); \`truncated\` says when there were more; the counts always cover the whole text. ` +
    'Lone surrogates are accepted here: inspect lists them as such (category Cs, no character, no UTF-8) and leaves them out of `utf8Bytes`; normalize refuses them with 422 and their position, since normalization is only defined for Unicode text. ' +
    '`normalize` gives the text in the Unicode normalization form `form` (UAX #15) and says whether it already was. ' +
    'Categories, segmentation and normalization follow the Unicode version of the platform’s ICU.',
  allowLoneSurrogates: true,
  input: Type.Object(
    {
      input: Type.String({
        maxLength: MAX_INPUT_LENGTH,
        description: 'The text to inspect or normalize. May be empty; may contain lone surrogates (see the description).',
        examples: ['e\u0301'],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, { description: '`inspect`: list and count the code points; `normalize`: convert to the normalization form `form`.' }),
        'inspect',
      ),
      form: withDefault(
        Type.Enum(FORMS, {
          description:
            'For normalize: NFC (composed, the usual form for storage and the web), NFD (decomposed), NFKC or NFKD (also folding compatibility characters such as ﬁ, ² or full-width letters).',
        }),
        'NFC',
      ),
      maxCodePoints: withDefault(
        Type.Integer({ minimum: 0, maximum: MAX_LISTED, description: `For inspect: how many code points to list, from the start (0 to ${MAX_LISTED}).` }),
        1000,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.Array(codePointSchema), Type.String()], {
      description: 'inspect: the code points, in order (at most `maxCodePoints`); normalize: the normalized text.',
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    form: Type.Optional(Type.Enum(FORMS, { description: 'normalize: the normalization form used.' })),
    alreadyNormalized: Type.Optional(Type.Boolean({ description: 'normalize: whether `input` was already in that form (the result equals it).' })),
    totals: Type.Optional(
      Type.Object(
        {
          codeUnits: Type.Integer({ description: 'UTF-16 code units (JavaScript’s length).' }),
          codePoints: Type.Integer({ description: 'Code points, each lone surrogate counted as one.' }),
          graphemes: Type.Integer({ description: 'Extended grapheme clusters (UAX #29): what a reader sees as characters.' }),
          utf8Bytes: Type.Integer({ description: 'Bytes in UTF-8, lone surrogates left out (UTF-8 cannot encode them).' }),
          words: Type.Integer({ description: 'Words by UAX #29 word boundaries (segments that are words, not spaces or punctuation).' }),
          lines: Type.Integer({
            description: 'Lines, split at CR LF, LF, CR, NEL, U+2028 and U+2029; a break at the very end starts no new line; 0 for empty text.',
          }),
        },
        { description: 'inspect: counts over the whole text.' },
      ),
    ),
    flagged: Type.Optional(
      Type.Object(
        {
          invisible: Type.Integer({ description: 'Code points flagged invisible.' }),
          bidiControl: Type.Integer({ description: 'Code points flagged bidi-control.' }),
          confusable: Type.Integer({ description: 'Code points flagged confusable.' }),
          loneSurrogates: Type.Integer({ description: 'Lone surrogates.' }),
        },
        { description: 'inspect: how many code points of the whole text carry each flag.' },
      ),
    ),
    truncated: Type.Optional(Type.Boolean({ description: 'inspect: true when the text has more code points than were listed.' })),
  }),
  actions: {
    inspect: { fields: ['input', 'maxCodePoints'] },
    normalize: { fields: ['input', 'form'] },
  },
  examples: [
    {
      summary: 'Inspect a decomposed é: two code points, one grapheme',
      input: { input: 'e\u0301' },
      output: {
        result: [
          { index: 0, codePoint: 'U+0065', character: 'e', utf8: '65', utf16: '0065', category: 'Ll', categoryName: 'Lowercase_Letter', flags: [] },
          { index: 1, codePoint: 'U+0301', character: '\u0301', utf8: 'CC 81', utf16: '0301', category: 'Mn', categoryName: 'Nonspacing_Mark', flags: [] },
        ],
        action: 'inspect',
        totals: { codeUnits: 2, codePoints: 2, graphemes: 1, utf8Bytes: 3, words: 1, lines: 1 },
        flagged: { invisible: 0, bidiControl: 0, confusable: 0, loneSurrogates: 0 },
        truncated: false,
      },
    },
    {
      summary: 'Normalize to NFC',
      input: { input: 'e\u0301', action: 'normalize' },
      output: { result: 'é', action: 'normalize', form: 'NFC', alreadyNormalized: false },
    },
    {
      summary: 'NFKC folds compatibility characters (UAX #15: ẛ̣ becomes ṩ)',
      input: { input: '\u1e9b\u0323', action: 'normalize', form: 'NFKC' },
      output: { result: '\u1e69', action: 'normalize', form: 'NFKC', alreadyNormalized: false },
    },
    {
      summary: 'Spot a Cyrillic letter and a right-to-left override in a name, listing only the first three code points',
      input: { input: 'p\u0430y\u202epal', maxCodePoints: 3 },
      output: {
        result: [
          { index: 0, codePoint: 'U+0070', character: 'p', utf8: '70', utf16: '0070', category: 'Ll', categoryName: 'Lowercase_Letter', flags: [] },
          {
            index: 1,
            codePoint: 'U+0430',
            character: '\u0430',
            utf8: 'D0 B0',
            utf16: '0430',
            category: 'Ll',
            categoryName: 'Lowercase_Letter',
            flags: ['confusable'],
          },
          { index: 2, codePoint: 'U+0079', character: 'y', utf8: '79', utf16: '0079', category: 'Ll', categoryName: 'Lowercase_Letter', flags: [] },
        ],
        action: 'inspect',
        totals: { codeUnits: 7, codePoints: 7, graphemes: 7, utf8Bytes: 10, words: 1, lines: 1 },
        flagged: { invisible: 1, bidiControl: 1, confusable: 1, loneSurrogates: 0 },
        truncated: true,
      },
    },
  ],
  offload({ input, action }) {
    return input.length > (action === 'inspect' ? INSPECT_OFFLOAD_LENGTH : NORMALIZE_OFFLOAD_LENGTH)
  },
  run({ input, action, form, maxCodePoints }) {
    return action === 'inspect' ? inspect(input, maxCodePoints) : normalize(input, form)
  },
})
