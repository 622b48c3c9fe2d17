import { Type } from 'typebox'
import { limitExceeded, validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { jsonStringSize } from '../../lib/json/string-literal.ts'
import { shuffle } from '../../lib/random/random.ts'

const ACTIONS = ['sort', 'unique', 'count', 'reverse', 'shuffle', 'union', 'intersection', 'difference', 'symmetricDifference', 'clean'] as const
type Action = (typeof ACTIONS)[number]
const SET_ACTIONS: ReadonlySet<Action> = new Set(['union', 'intersection', 'difference', 'symmetricDifference'])
const TRIMS = ['none', 'both', 'start', 'end'] as const
type Trim = (typeof TRIMS)[number]
const NORMALIZATIONS = ['none', 'NFC', 'NFKC'] as const
type Normalization = (typeof NORMALIZATIONS)[number]
const COMPARES = ['locale', 'natural', 'numeric', 'codeUnit', 'length'] as const
type Compare = (typeof COMPARES)[number]
const NEWLINES = { lf: '\n', crlf: '\r\n' } as const

/**
 * The most lines `input` and `compareTo` may hold together. A request body within the default limit
 * cannot reach it, since JSON escapes every line break; it bounds the memory and time of the command
 * line, which reads files of any size.
 */
export const MAX_LINES = 1_000_000

/**
 * Inputs of more lines than these together run on a worker thread: a sort collates each line many
 * times, the other actions touch it once or twice (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const SORT_OFFLOAD_LINES = 2_000
export const OFFLOAD_LINES = 20_000

const LINE_BREAK = /\r\n|\r|\n/

/**
 * The lines of `text` (split at CRLF, LF and CR; a break at the very end starts no new line),
 * counted without building them; counting stops once it passes `stopAfter`.
 */
export function countLines(text: string, stopAfter = Number.POSITIVE_INFINITY): number {
  let breaks = 0
  const length = text.length
  for (let i = 0; i < length && breaks <= stopAfter; i++) {
    const unit = text.charCodeAt(i)
    if (unit === 0x0a) breaks++
    else if (unit === 0x0d) {
      breaks++
      if (text.charCodeAt(i + 1) === 0x0a) i++
    }
  }
  const last = text.charCodeAt(length - 1)
  return length > 0 && last !== 0x0a && last !== 0x0d ? breaks + 1 : breaks
}

interface SplitText {
  lines: string[]
  /** The first line break of the text, if it has one. */
  firstBreak?: string
  /** Whether the text ends with a line break. */
  finalBreak: boolean
}

function split(text: string): SplitText {
  if (text === '') return { lines: [], finalBreak: false }
  const lines = text.split(LINE_BREAK)
  const finalBreak = lines[lines.length - 1] === ''
  if (finalBreak) lines.pop()
  return { lines, firstBreak: LINE_BREAK.exec(text)?.[0], finalBreak }
}

const TRIMMERS: Record<Trim, ((line: string) => string) | undefined> = {
  none: undefined,
  both: (line) => line.trim(),
  start: (line) => line.trimStart(),
  end: (line) => line.trimEnd(),
}

/** The lines after trimming and, when asked, without the blank ones (empty or only whitespace). */
function prepared(lines: string[], trim: Trim, removeBlank: boolean): string[] {
  const trimmer = TRIMMERS[trim]
  const trimmed = trimmer ? lines.map(trimmer) : lines
  return removeBlank ? trimmed.filter((line) => line.trim() !== '') : trimmed
}

/**
 * What lines are compared by. Upper- then lower-casing makes every case variant of a line one key
 * (ß, SS and ss; σ, ς and Σ), close to Unicode's full case folding, which JavaScript lacks.
 */
function keyMaker(caseSensitive: boolean, normalize: Normalization): (line: string) => string {
  if (caseSensitive && normalize === 'none') return (line) => line
  return (line) => {
    const folded = caseSensitive ? line : line.toUpperCase().toLowerCase()
    return normalize === 'none' ? folded : folded.normalize(normalize)
  }
}

/** The tag in its canonical form; an ill-formed BCP 47 tag is the caller's mistake (400). */
function canonicalLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0]
  } catch {
    throw validationError('locale', `must be a BCP 47 language tag such as de, sv or und (the root collation); '${locale}' is not one`)
  }
}

/**
 * A collator for the tag. A tag ICU has no data for (`und` among them) would make Intl fall back to
 * the host's default locale, which differs from server to server; such tags get CLDR's root order,
 * which is English's, since English has no tailoring.
 */
function collatorFor(locale: string, numeric: boolean): Intl.Collator {
  const locales = Intl.Collator.supportedLocalesOf([locale]).length > 0 ? locale : 'en'
  // Left out for `locale`, so that a -u-kn extension in the tag still applies.
  return new Intl.Collator(locales, numeric ? { numeric: true } : {})
}

/** JSON's number syntax (RFC 8259), with whitespace around it allowed. */
const JSON_NUMBER = /^\s*-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\s*$/

function codePointLength(text: string): number {
  let length = text.length
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--
        i++
      }
    }
  }
  return length
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const byValue = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0)

/** The indexes of `keys` in sorted order; equal keys keep their input order (Array.prototype.sort is stable). */
function sortedIndexes(keys: string[], compare: Compare, descending: boolean, locale: string): number[] {
  const sign = descending ? -1 : 1
  const indexes = keys.map((_, index) => index)
  if (compare === 'numeric') {
    const values = keys.map((key) => (JSON_NUMBER.test(key) ? Number(key) : Number.NaN))
    const numbers = indexes.filter((index) => !Number.isNaN(values[index]))
    numbers.sort((a, b) => sign * byValue(values[a], values[b]))
    // Lines that are not numbers come last, in input order, in either order.
    return numbers.concat(indexes.filter((index) => Number.isNaN(values[index])))
  }
  if (compare === 'length') {
    const lengths = keys.map(codePointLength)
    return indexes.sort((a, b) => sign * (lengths[a] - lengths[b]))
  }
  if (compare === 'codeUnit') return indexes.sort((a, b) => sign * byCodeUnits(keys[a], keys[b]))
  const { compare: collate } = collatorFor(locale, compare === 'natural')
  return indexes.sort((a, b) => sign * collate(keys[a], keys[b]))
}

/** The indexes of the first (or last) line of each key, in input order. */
function uniqueIndexes(keys: string[], keep: 'first' | 'last'): number[] {
  const seen = new Set<string>()
  const kept: number[] = []
  if (keep === 'first') {
    keys.forEach((key, index) => {
      if (!seen.has(key)) {
        seen.add(key)
        kept.push(index)
      }
    })
    return kept
  }
  for (let index = keys.length - 1; index >= 0; index--) {
    if (!seen.has(keys[index])) {
      seen.add(keys[index])
      kept.push(index)
    }
  }
  return kept.reverse()
}

interface CountEntry {
  line: string
  count: number
}

/** Each distinct line (as first written) with its count, most frequent first, ties in first-seen order. */
function countsOf(lines: string[], keys: string[]): CountEntry[] {
  const entries = new Map<string, CountEntry>()
  keys.forEach((key, index) => {
    const entry = entries.get(key)
    if (entry) entry.count++
    else entries.set(key, { line: lines[index], count: 1 })
  })
  return [...entries.values()].sort((a, b) => b.count - a.count)
}

/** The lines of a set action, each distinct line once, `input`'s first and in its order, then `compareTo`'s. */
function setLines(action: Action, lines: string[], keys: string[], otherLines: string[], otherKeys: string[]): string[] {
  const inOther = new Set(otherKeys)
  const inInput = new Set(keys)
  const seen = new Set<string>()
  const written: string[] = []
  const add = (line: string, key: string) => {
    if (!seen.has(key)) {
      seen.add(key)
      written.push(line)
    }
  }
  keys.forEach((key, index) => {
    const wanted = action === 'union' || (action === 'intersection' ? inOther.has(key) : !inOther.has(key))
    if (wanted) add(lines[index], key)
  })
  if (action === 'union' || action === 'symmetricDifference') {
    otherKeys.forEach((key, index) => {
      if (action === 'union' || !inInput.has(key)) add(otherLines[index], key)
    })
  }
  return written
}

/** What a count entry's JSON, `{"line":"…","count":…},`, holds besides its line's text and its count's digits. */
const COUNT_ENTRY_BYTES = 21
/** The most JSON one UTF-16 unit can take: a control character's escape. */
const WIDEST_ESCAPE = JSON.stringify('\u001f').length - 2

/**
 * Refuses an answer past the output limit before it is joined. No UTF-16 unit takes more JSON than
 * a control character's `\u001f`, so only answers near the limit are measured exactly.
 */
function assertAnswerWithinLimit(written: string[], newline: string, counts: CountEntry[] | undefined): void {
  let units = 0
  for (const line of written) units += line.length + newline.length
  for (const entry of counts ?? []) units += entry.line.length + COUNT_ENTRY_BYTES + String(entry.count).length
  if (units * WIDEST_ESCAPE <= OUTPUT_LIMIT_BYTES) return
  const jsonBytes = (text: string) => jsonStringSize(text) - 2
  // Each line break is written as two characters of JSON escape.
  let bytes = 0
  for (const line of written) bytes += jsonBytes(line) + newline.length * 2
  for (const entry of counts ?? []) bytes += jsonBytes(entry.line) + COUNT_ENTRY_BYTES + String(entry.count).length
  assertOutputWithinLimit(bytes)
}

const countEntrySchema = Type.Object({
  line: Type.String({ description: 'The line, as first written in `input` (after trimming).' }),
  count: Type.Integer({ minimum: 1, description: 'How many times it occurs (by the comparison key: case and normalization as asked).' }),
})

export const lines = defineOperation({
  name: 'lines',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Sort, dedupe, count, reverse, shuffle or compare the lines of a text',
  title: 'Line tools',
  aliases: [
    'sort lines',
    'natural sort',
    'numeric sort',
    'dedupe',
    'deduplicate',
    'remove duplicate lines',
    'uniq',
    'uniq -c',
    'count occurrences',
    'frequency',
    'reverse lines',
    'tac',
    'shuffle lines',
    'randomize lines',
    'comm',
    'set union',
    'set intersection',
    'set difference',
    'trim lines',
    'remove blank lines',
    'line endings',
  ],
  description:
    'Works on the lines of `input`, split at CRLF, LF or a lone CR (a line break at the very end starts no new line; an empty text has no lines). ' +
    'First, for every action, each line is trimmed as `trim` asks (JavaScript’s trim: Unicode spaces, tabs and the BOM) and, with `removeBlank`, lines that are empty or only whitespace are dropped. ' +
    'Lines are compared by a key: the line itself, or, with `caseSensitive: false`, the line upper- then lower-cased (ß matches SS, ς matches σ), and with `normalize`, that key in Unicode normalization form NFC or NFKC (UAX #15); lines are always written as given. ' +
    'Actions: `sort` orders the lines (a stable sort: equal keys keep their input order, also with `order: desc`) by `compare`: ' +
    '`locale`, the Unicode Collation Algorithm with CLDR’s order for `locale` (a BCP 47 tag; `und`, the default, and tags ICU has no data for get the root order; extensions such as `de-u-co-phonebk` apply); ' +
    '`natural`, the same with digit runs compared by value (`file2` before `file10`; digit runs only: `-5` sorts before `-10` and `x1.5` before `x1.10`); ' +
    '`numeric`, each line read as a JSON number (RFC 8259 syntax, spaces around allowed) and ordered by value, lines that are not numbers last in input order whatever the order; ' +
    '`codeUnit`, by UTF-16 code units, as JavaScript’s default sort (surrogates sort below U+E000–U+FFFF); `length`, by code points (after `normalize`; case does not change it). ' +
    'Collation follows the platform’s ICU and may differ slightly between Node builds. ' +
    '`unique` keeps one line per key, the first or last occurrence (`keep`), in input order. ' +
    '`count` lists each distinct line once with its count, most frequent first, ties in first-seen order (as `sort | uniq -c | sort -rn`): `result` has one line per distinct line, its count right-aligned, a space and the line; `counts` gives the same as data. ' +
    '`reverse` writes the lines last first; `shuffle` in a uniformly random order drawn from the operating system’s CSPRNG (Fisher–Yates; not seedable). ' +
    '`union`, `intersection`, `difference` (in `input` and not in `compareTo`) and `symmetricDifference` (in one only) treat both texts as sets of lines, as `comm` does but without sorting: each distinct line once, `input`’s lines first in input order, then `compareTo`’s; `compareTo` is trimmed and compared as `input` is, is required for these four actions and refused for the others (400). ' +
    '`clean` only trims, drops blank lines and rewrites line breaks. ' +
    'Lines are joined with `newline`: `auto` uses the first line break of `input` (LF when it has none); a final line break is written when `input` ended with one and a line is written. ' +
    '`lines` counts the lines written, `removed` the lines read from `input` and `compareTo` that were not (blank, duplicates, set logic). ' +
    `An ill-formed locale tag is a 400; more than ${MAX_LINES.toLocaleString('en')} lines in \`input\` and \`compareTo\` together, or an answer past the output limit (counts of many distinct lines, line breaks widened to CRLF), are a 422 LIMIT_EXCEEDED.`,
  input: Type.Object(
    {
      input: Type.String({ description: 'The text whose lines to work on. May be empty.', examples: ['pear\napple\nfig\n'] }),
      action: withDefault(
        Type.Enum(ACTIONS, {
          description:
            'What to do: `sort`, `unique` (drop duplicates), `count` (occurrences, most frequent first), `reverse`, `shuffle`, the set actions `union`, `intersection`, `difference`, `symmetricDifference` (with `compareTo`), or `clean` (trim and drop blank lines only).',
        }),
        'sort',
      ),
      compareTo: Type.Optional(
        Type.String({
          description: 'The second text, for the set actions only (required there, refused for the others). Trimmed and compared as `input` is.',
          examples: ['apple\nkiwi\n'],
        }),
      ),
      trim: withDefault(
        Type.Enum(TRIMS, { description: 'Whitespace to remove from each line before anything else: `none`, `both` ends, `start` or `end` only.' }),
        'none',
      ),
      removeBlank: withDefault(Type.Boolean({ description: 'Drop lines that are empty or only whitespace, before anything else.' }), false),
      caseSensitive: withDefault(
        Type.Boolean({ description: 'Whether lines that differ only in case are different (sort, unique, count and set actions).' }),
        true,
      ),
      normalize: withDefault(
        Type.Enum(NORMALIZATIONS, {
          description:
            'Compare lines in this Unicode normalization form (`NFC`: é composed or decomposed is one line; `NFKC`: also ﬁ and fi, full-width and ASCII). Lines are written as given.',
        }),
        'none',
      ),
      order: withDefault(Type.Enum(['asc', 'desc'], { description: 'sort: ascending or descending.' }), 'asc'),
      compare: withDefault(
        Type.Enum(COMPARES, {
          description:
            'sort: `locale` (the collation of `locale`), `natural` (the same, digit runs by value), `numeric` (lines as numbers), `codeUnit` (UTF-16 code units) or `length` (code points).',
        }),
        'locale',
      ),
      locale: withDefault(
        Type.String({
          minLength: 2,
          maxLength: 64,
          description:
            'sort with `locale` or `natural`: a BCP 47 language tag whose collation applies, such as `de`, `sv` or `de-u-co-phonebk`; `und` is the root collation.',
        }),
        'und',
      ),
      keep: withDefault(Type.Enum(['first', 'last'], { description: 'unique: which occurrence of a duplicate line to keep, and where.' }), 'first'),
      newline: withDefault(
        Type.Enum(['auto', 'lf', 'crlf'], { description: 'The line break to write: `auto` (the first one of `input`, else LF), `lf` or `crlf`.' }),
        'auto',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The lines written, joined with the line break chosen.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    lines: Type.Integer({ minimum: 0, description: 'How many lines `result` holds.' }),
    removed: Type.Integer({
      minimum: 0,
      description: 'How many lines read (from `input` and `compareTo`) were not written: blank, duplicate or left out by the set action.',
    }),
    counts: Type.Optional(Type.Array(countEntrySchema, { description: 'count only: each distinct line with its count, most frequent first.' })),
  }),
  actions: {
    sort: { fields: ['input', 'trim', 'removeBlank', 'caseSensitive', 'normalize', 'order', 'compare', 'locale', 'newline'] },
    unique: { fields: ['input', 'trim', 'removeBlank', 'caseSensitive', 'normalize', 'keep', 'newline'] },
    count: { fields: ['input', 'trim', 'removeBlank', 'caseSensitive', 'normalize'] },
    reverse: { fields: ['input', 'trim', 'removeBlank', 'newline'] },
    shuffle: { fields: ['input', 'trim', 'removeBlank', 'newline'] },
    union: { fields: ['input', 'compareTo', 'trim', 'removeBlank', 'caseSensitive', 'normalize', 'newline'], requires: ['compareTo'] },
    intersection: { fields: ['input', 'compareTo', 'trim', 'removeBlank', 'caseSensitive', 'normalize', 'newline'], requires: ['compareTo'] },
    difference: { fields: ['input', 'compareTo', 'trim', 'removeBlank', 'caseSensitive', 'normalize', 'newline'], requires: ['compareTo'] },
    symmetricDifference: { fields: ['input', 'compareTo', 'trim', 'removeBlank', 'caseSensitive', 'normalize', 'newline'], requires: ['compareTo'] },
    clean: { fields: ['input', 'trim', 'removeBlank', 'newline'] },
  },
  examples: [
    {
      summary: 'Natural sort: digit runs by value',
      input: { input: 'file10\nfile2\nFile1\nfile1b\n', compare: 'natural' },
      output: { result: 'File1\nfile1b\nfile2\nfile10\n', action: 'sort', lines: 4, removed: 0 },
    },
    {
      summary: 'Remove duplicate lines, ignoring case and surrounding spaces, and blank lines',
      input: { input: 'Apple\n  banana\napple\n\nBanana  \ncherry\n', action: 'unique', caseSensitive: false, trim: 'both', removeBlank: true },
      output: { result: 'Apple\nbanana\ncherry\n', action: 'unique', lines: 3, removed: 3 },
    },
    {
      summary: 'Count occurrences, most frequent first (sort | uniq -c | sort -rn)',
      input: { input: 'b\na\nb\nc\nb\na', action: 'count' },
      output: {
        result: '3 b\n2 a\n1 c',
        action: 'count',
        lines: 3,
        removed: 3,
        counts: [
          { line: 'b', count: 3 },
          { line: 'a', count: 2 },
          { line: 'c', count: 1 },
        ],
      },
    },
    {
      summary: 'Lines of input missing from compareTo, written with CRLF',
      input: { input: 'alice\nbob\ncarol\n', compareTo: 'bob\ndave\n', action: 'difference', newline: 'crlf' },
      output: { result: 'alice\r\ncarol\r\n', action: 'difference', lines: 2, removed: 3 },
    },
  ],
  offload({ input, compareTo, action }) {
    const threshold = action === 'sort' ? SORT_OFFLOAD_LINES : OFFLOAD_LINES
    // A line takes at least one character (its break), so a short text cannot hold enough lines.
    if (input.length + (compareTo?.length ?? 0) <= threshold) return false
    return countLines(input, threshold) + (compareTo === undefined ? 0 : countLines(compareTo, threshold)) > threshold
  },
  run({ input, action, compareTo, trim, removeBlank, caseSensitive, normalize, order, compare, locale, keep, newline }) {
    const isSetAction = SET_ACTIONS.has(action)
    if (isSetAction && compareTo === undefined) throw validationError('compareTo', `is required for ${action}: the lines to compare input's lines with`)
    if (!isSetAction && compareTo !== undefined) {
      throw validationError('compareTo', `is only for the set actions (union, intersection, difference, symmetricDifference), not ${action}`)
    }
    const canonical = canonicalLocale(locale)
    const lineCount = countLines(input, MAX_LINES) + (compareTo === undefined ? 0 : countLines(compareTo, MAX_LINES))
    if (lineCount > MAX_LINES) {
      throw limitExceeded(`input and compareTo hold more than ${MAX_LINES} lines together; split the text`, { limit: MAX_LINES })
    }

    const source = split(input)
    const other = compareTo === undefined ? undefined : split(compareTo)
    const read = source.lines.length + (other?.lines.length ?? 0)
    const lineBreak = newline === 'auto' ? (source.firstBreak ?? '\n') : NEWLINES[newline]
    const kept = prepared(source.lines, trim, removeBlank)
    const keyOf = keyMaker(caseSensitive, normalize)

    let written: string[]
    let counts: CountEntry[] | undefined
    if (action === 'sort') {
      // Case folding can change a line's length (ß to ss): length compares the lines as normalized only.
      const keys = kept.map(compare === 'length' ? keyMaker(true, normalize) : keyOf)
      written = sortedIndexes(keys, compare, order === 'desc', canonical).map((index) => kept[index])
    } else if (action === 'unique') {
      written = uniqueIndexes(kept.map(keyOf), keep).map((index) => kept[index])
    } else if (action === 'count') {
      counts = countsOf(kept, kept.map(keyOf))
      const width = String(counts[0]?.count ?? 0).length
      written = counts.map(({ line, count }) => `${String(count).padStart(width)} ${line}`)
    } else if (action === 'reverse') {
      written = kept.slice().reverse()
    } else if (action === 'shuffle') {
      written = shuffle(kept.slice())
    } else if (other) {
      const otherKept = prepared(other.lines, trim, removeBlank)
      written = setLines(action, kept, kept.map(keyOf), otherKept, otherKept.map(keyOf))
    } else {
      written = kept
    }

    assertAnswerWithinLimit(written, lineBreak, counts)
    const result = written.join(lineBreak) + (source.finalBreak && written.length > 0 ? lineBreak : '')
    const answer = { result, action, lines: written.length, removed: read - written.length }
    return counts ? { ...answer, counts } : answer
  },
})
