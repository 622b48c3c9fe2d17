import { Type } from 'typebox'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { levenshtein } from '../../lib/text/edit-distance.ts'
import { segmentsOf } from '../../lib/text/segment.ts'

const METRICS = ['levenshtein', 'damerau', 'damerauUnrestricted', 'hamming', 'jaroWinkler', 'lcs'] as const
type Metric = (typeof METRICS)[number]
const UNITS = ['grapheme', 'codePoint', 'codeUnit', 'word'] as const
type Unit = (typeof UNITS)[number]
const NORMALIZATIONS = ['none', 'NFC', 'NFKC'] as const
type Normalization = (typeof NORMALIZATIONS)[number]

/** Each text may be this long in UTF-16 code units: no more than a request body holds. */
export const MAX_TEXT_LENGTH = 1024 * 1024

/** Each text may hold this many units (graphemes, code points, code units or words). */
export const MAX_UNITS = 100_000

/**
 * The most cells (one text's units times the other's) a table-filling metric may cost: its time grows
 * with their product, and this many stay within the time budget (docs/PERFORMANCE.md, "Offload
 * thresholds and cost bounds").
 */
export const MAX_CELLS = 100_000_000

/**
 * Unrestricted Damerau–Levenshtein (Lowrance and Wagner) looks back at any earlier row, so it keeps
 * the whole table in memory rather than two rows: its bound is set by memory, not time.
 */
export const MAX_UNRESTRICTED_CELLS = 10_000_000

/**
 * Texts whose code units multiply past this go to a worker thread (a metric's cost grows with the
 * product), and texts longer than OFFLOAD_LENGTH together (segmentation and normalization cost grows
 * with the length): beyond either, the work in process would cost more than a thread hop.
 */
const OFFLOAD_CELLS = 100_000
const OFFLOAD_LENGTH = 8 * 1024

/**
 * The longest run of combining marks (in code units) a text may hold when it is normalized. ICU
 * reorders the marks of one run by insertion sort, so normalizing costs the square of the longest run
 * (docs/PERFORMANCE.md, "Offload thresholds and cost bounds"). Unicode's stream-safe format (UAX #15)
 * allows far fewer; this allows more than any writing system, or "Zalgo" text, uses.
 */
export const MAX_MARK_RUN = 1024
const MARK_RUN = /\p{M}+/gu

/** Winkler's weight of a common start, the longest start that counts, and the Jaro similarity below which it does not. */
const WINKLER_SCALING = 0.1
const WINKLER_PREFIX = 4
const WINKLER_BOOST_THRESHOLD = 0.7

/** The metrics whose cost is the product of the lengths (all but hamming). */
const isQuadratic = (metric: Metric) => metric !== 'hamming'

/**
 * Compared ignoring case, each text is upper-cased then lower-cased: that folds what Unicode's full
 * case folding folds in practice (ß and SS, ς and Σ, the Kelvin sign and k), where lower-casing alone
 * would leave ß and SS apart.
 */
function prepared(text: string, caseSensitive: boolean, normalize: Normalization, field: string): string {
  let result = normalized(text, normalize, field)
  if (!caseSensitive) {
    result = result.toUpperCase().toLowerCase()
    // Case mapping can decompose a character that normalization had composed (ǰ upper-cases to J and a combining caron).
    result = normalized(result, normalize, field)
  }
  return result
}

function normalized(text: string, normalize: Normalization, field: string): string {
  if (normalize === 'none') return text
  for (const run of text.matchAll(MARK_RUN)) {
    if (run[0].length > MAX_MARK_RUN) {
      throw limitExceeded(
        `${field} holds a run of ${run[0].length} combining marks (code units) at position ${run.index}, more than the ${MAX_MARK_RUN} that can be normalized; send it with normalize: none`,
        { field, position: run.index, limit: MAX_MARK_RUN },
      )
    }
  }
  return text.normalize(normalize)
}

/** Gives each distinct unit (a grapheme, a word, a code point or unit) a small number, shared by both texts. */
class Alphabet {
  readonly #ids = new Map<string | number, number>()

  idOf(key: string | number): number {
    let id = this.#ids.get(key)
    if (id === undefined) {
      id = this.#ids.size
      this.#ids.set(key, id)
    }
    return id
  }

  get size(): number {
    return this.#ids.size
  }
}

function* unitsOf(text: string, unit: Unit): Generator<string | number> {
  if (unit === 'codeUnit') {
    for (let index = 0; index < text.length; index++) yield text.charCodeAt(index)
  } else if (unit === 'codePoint') {
    for (const character of text) yield character.codePointAt(0)!
  } else if (unit === 'grapheme') {
    for (const { segment } of segmentsOf(text, 'grapheme')) yield segment
  } else {
    for (const { segment, isWordLike } of segmentsOf(text, 'word')) if (isWordLike) yield segment
  }
}

const UNIT_NAMES: Record<Unit, string> = { grapheme: 'graphemes', codePoint: 'code points', codeUnit: 'code units', word: 'words' }

/** The text as a sequence of unit numbers; refused, before it grows further, past MAX_UNITS. */
function symbolsOf(text: string, unit: Unit, alphabet: Alphabet, field: string): Int32Array {
  const symbols = new Int32Array(Math.min(text.length, MAX_UNITS))
  let length = 0
  for (const key of unitsOf(text, unit)) {
    if (length === MAX_UNITS) {
      throw limitExceeded(`${field} holds more than ${MAX_UNITS} ${UNIT_NAMES[unit]}, the most a text may hold`, { field, unit, limit: MAX_UNITS })
    }
    symbols[length++] = alphabet.idOf(key)
  }
  return symbols.subarray(0, length)
}

/**
 * The texts without the units they share at their start and end. A common start or end never
 * changes the edit distances nor the longest common subsequence, and texts that differ in a small
 * part (the usual case) then cost little.
 */
function trimmed(a: Int32Array, b: Int32Array): [Int32Array, Int32Array] {
  let start = 0
  const shorter = Math.min(a.length, b.length)
  while (start < shorter && a[start] === b[start]) start++
  let end = 0
  while (end < shorter - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  return [a.subarray(start, a.length - end), b.subarray(start, b.length - end)]
}

/** Optimal string alignment distance: Levenshtein plus transpositions of adjacent units, no unit edited twice. */
export function optimalStringAlignment(a: Int32Array, b: Int32Array): number {
  const width = b.length + 1
  let beforePrevious = new Int32Array(width)
  let previous = new Int32Array(width)
  let current = new Int32Array(width)
  for (let j = 0; j < width; j++) previous[j] = j
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    const symbol = a[i - 1]
    for (let j = 1; j < width; j++) {
      let best = previous[j - 1] + (symbol === b[j - 1] ? 0 : 1)
      const indel = Math.min(previous[j], current[j - 1]) + 1
      if (indel < best) best = indel
      if (i > 1 && j > 1 && symbol === b[j - 2] && a[i - 2] === b[j - 1] && beforePrevious[j - 2] + 1 < best) best = beforePrevious[j - 2] + 1
      current[j] = best
    }
    ;[beforePrevious, previous, current] = [previous, current, beforePrevious]
  }
  return previous[b.length]
}

/** Damerau–Levenshtein distance without OSA's restriction (Lowrance and Wagner 1975): a transposed pair may be edited again. */
export function damerauLevenshtein(a: Int32Array, b: Int32Array, alphabetSize: number): number {
  const n = a.length
  const m = b.length
  const width = m + 2
  // Row and column -1, the sentinels, sit at index 0, so every row and column is stored one further on.
  const table = new (n + m < 0xffff ? Uint16Array : Int32Array)((n + 2) * width)
  const infinity = n + m
  const lastRowOf = new Int32Array(alphabetSize)
  table[0] = infinity
  for (let i = 0; i <= n; i++) {
    table[(i + 1) * width] = infinity
    table[(i + 1) * width + 1] = i
  }
  for (let j = 0; j <= m; j++) {
    table[j + 1] = infinity
    table[width + j + 1] = j
  }
  for (let i = 1; i <= n; i++) {
    const symbol = a[i - 1]
    let lastMatchingColumn = 0
    const rowStart = (i + 1) * width
    const previousRowStart = i * width
    for (let j = 1; j <= m; j++) {
      const k = lastRowOf[b[j - 1]]
      const l = lastMatchingColumn
      let cost = 1
      if (symbol === b[j - 1]) {
        cost = 0
        lastMatchingColumn = j
      }
      let best = table[previousRowStart + j] + cost
      const deletion = table[previousRowStart + j + 1] + 1
      if (deletion < best) best = deletion
      const insertion = table[rowStart + j] + 1
      if (insertion < best) best = insertion
      const transposition = table[k * width + l] + (i - k - 1) + 1 + (j - l - 1)
      if (transposition < best) best = transposition
      table[rowStart + j + 1] = best
    }
    lastRowOf[symbol] = i
  }
  return table[(n + 1) * width + m + 1]
}

/** The length of the longest common subsequence, one row of the table at a time. */
export function longestCommonSubsequence(a: Int32Array, b: Int32Array): number {
  if (a.length < b.length) [a, b] = [b, a]
  const row = new Int32Array(b.length + 1)
  for (let i = 1; i <= a.length; i++) {
    const symbol = a[i - 1]
    let diagonal = 0
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]
      row[j] = symbol === b[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1])
      diagonal = above
    }
  }
  return row[b.length]
}

export function hamming(a: Int32Array, b: Int32Array): number {
  let distance = 0
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) distance++
  return distance
}

/**
 * Jaro–Winkler similarity (Winkler 1990): units match within half the longer length less one, half
 * the matches out of order (rounded down, as Winkler's strcmp95 does) count as transpositions, and a
 * common start of up to four units raises a Jaro similarity above 0.7 by a tenth of the rest per unit.
 */
export function jaroWinkler(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 && b.length === 0) return 1
  if (a.length === 0 || b.length === 0) return 0
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1)
  const matchedA = new Uint8Array(a.length)
  const matchedB = new Uint8Array(b.length)
  let matches = 0
  for (let i = 0; i < a.length; i++) {
    const to = Math.min(b.length - 1, i + window)
    for (let j = Math.max(0, i - window); j <= to; j++) {
      if (matchedB[j] === 0 && a[i] === b[j]) {
        matchedA[i] = 1
        matchedB[j] = 1
        matches++
        break
      }
    }
  }
  if (matches === 0) return 0
  let outOfOrder = 0
  for (let i = 0, j = 0; i < a.length; i++) {
    if (matchedA[i] === 0) continue
    while (matchedB[j] === 0) j++
    if (a[i] !== b[j]) outOfOrder++
    j++
  }
  const transpositions = Math.floor(outOfOrder / 2)
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions) / matches) / 3
  if (jaro <= WINKLER_BOOST_THRESHOLD) return jaro
  let prefix = 0
  const prefixLimit = Math.min(WINKLER_PREFIX, a.length, b.length)
  while (prefix < prefixLimit && a[prefix] === b[prefix]) prefix++
  return jaro + prefix * WINKLER_SCALING * (1 - jaro)
}

function assertWithinCells(cells: number, limit: number, metric: Metric, unit: Unit): void {
  if (cells > limit) {
    throw limitExceeded(
      `${metric} over these texts would fill ${cells} cells (one text's ${UNIT_NAMES[unit]} times the other's, after their common start and end), more than the ${limit} allowed; compare shorter texts or use hamming`,
      { limit, cells, metric },
    )
  }
}

interface Distance {
  result: number
  similarity: number
}

/** 1 − distance / the largest distance texts of these lengths can have; 1 for two empty texts. */
function similarityOf(distance: number, largest: number): number {
  return largest === 0 ? 1 : 1 - distance / largest
}

function distanceOf(metric: Metric, a: Int32Array, b: Int32Array, alphabetSize: number, unit: Unit): Distance {
  if (metric === 'hamming') {
    if (a.length !== b.length) {
      throw invalidInput(`hamming compares texts of the same length, and these hold ${a.length} and ${b.length} ${UNIT_NAMES[unit]}`, {
        unit,
        lengths: { input: a.length, compareTo: b.length },
      })
    }
    const distance = hamming(a, b)
    return { result: distance, similarity: similarityOf(distance, a.length) }
  }
  if (metric === 'jaroWinkler') {
    assertWithinCells(a.length * b.length, MAX_CELLS, metric, unit)
    const similarity = jaroWinkler(a, b)
    return { result: similarity, similarity }
  }
  const longer = Math.max(a.length, b.length)
  const [x, y] = trimmed(a, b)
  if (metric === 'lcs') {
    assertWithinCells(x.length * y.length, MAX_CELLS, metric, unit)
    const distance = x.length + y.length - 2 * longestCommonSubsequence(x, y)
    return { result: distance, similarity: similarityOf(distance, a.length + b.length) }
  }
  let distance: number
  if (metric === 'damerauUnrestricted') {
    assertWithinCells(x.length * y.length, MAX_UNRESTRICTED_CELLS, metric, unit)
    distance = damerauLevenshtein(x, y, alphabetSize)
  } else {
    assertWithinCells(x.length * y.length, MAX_CELLS, metric, unit)
    distance = metric === 'damerau' ? optimalStringAlignment(x, y) : levenshtein(x, y)
  }
  return { result: distance, similarity: similarityOf(distance, longer) }
}

const lengthsSchema = Type.Object(
  {
    input: Type.Integer({ description: 'The units of `input`, after normalization and case folding.' }),
    compareTo: Type.Integer({ description: 'The units of `compareTo`, after normalization and case folding.' }),
  },
  { description: 'How many units each text holds, in `unit`s.' },
)

export const textDistance = defineOperation({
  name: 'text-distance',
  category: 'converters',
  summary: 'Measure how far apart two texts are: Levenshtein, Damerau, Hamming, Jaro–Winkler or LCS distance',
  title: 'Text distance',
  aliases: [
    'levenshtein',
    'edit distance',
    'damerau-levenshtein',
    'optimal string alignment',
    'hamming distance',
    'jaro-winkler',
    'longest common subsequence',
    'string similarity',
    'how similar two strings are',
    'fuzzy match',
    'compare strings',
    'typo distance',
  ],
  description:
    'Compares `input` with `compareTo` and answers one number. `levenshtein` (the default) counts the fewest insertions, deletions and substitutions that turn one text into the other; ' +
    '`damerau` also counts a transposition of two neighbouring units as one edit, as optimal string alignment does (no unit is edited twice, so `ca` → `abc` is 3); ' +
    '`damerauUnrestricted` is the true Damerau–Levenshtein distance (Lowrance and Wagner), where it is 2; ' +
    '`hamming` counts the positions that differ in texts of the same length; ' +
    '`lcs` counts the insertions and deletions alone, so the longest common subsequence is (`lengths.input` + `lengths.compareTo` − `result`) / 2; ' +
    '`jaroWinkler` answers a similarity from 0 to 1 instead (Winkler 1990: matches within half the longer length less one, transpositions halved and rounded down, ' +
    'and a common start of up to four units worth a tenth of the rest each when the Jaro similarity is above 0.7). ' +
    'Units are what a person sees as one character by default (`grapheme`, Unicode extended grapheme clusters, UAX #29), so an emoji, a flag or a letter with its accents is one unit; ' +
    '`codePoint` and `codeUnit` (UTF-16, what JavaScript counts) are there to match other tools, and `word` compares words (UAX #29 word boundaries; spaces and punctuation are left out). ' +
    'Both texts are normalized first (`NFC` by default, so a precomposed é equals e with a combining accent), and compared ignoring case when `caseSensitive` is false ' +
    '(upper-cased then lower-cased, so ß matches SS). ' +
    '`similarity` is 1 − `result` / the largest distance possible for texts of these lengths: the longer length (the sum of both for `lcs`), 1 for two empty texts; for `jaroWinkler` it is `result`. ' +
    `Hamming over texts of different lengths is a 422 INVALID_INPUT whose details give both lengths. A text of more than ${MAX_UNITS} units is a 422 LIMIT_EXCEEDED, ` +
    `and so are texts whose units multiply to more than ${MAX_CELLS} after their common start and end are set aside (all metrics but hamming; jaroWinkler counts whole texts), ` +
    `or ${MAX_UNRESTRICTED_CELLS} for damerauUnrestricted, which keeps its whole table in memory. ` +
    `A run of more than ${MAX_MARK_RUN} code units of combining marks is a 422 LIMIT_EXCEEDED unless \`normalize\` is \`none\`: normalizing it would cost the square of its length.`,
  input: Type.Object(
    {
      input: Type.String({ maxLength: MAX_TEXT_LENGTH, description: 'The first text. May be empty.', examples: ['kitten'] }),
      compareTo: Type.String({ maxLength: MAX_TEXT_LENGTH, description: 'The second text, compared with `input`. May be empty.', examples: ['sitting'] }),
      metric: withDefault(
        Type.Enum(METRICS, {
          description:
            'The measure: `levenshtein`, `damerau` (optimal string alignment), `damerauUnrestricted`, `hamming` (texts of equal length), `jaroWinkler` (a similarity) or `lcs` (insertions and deletions only).',
        }),
        'levenshtein',
      ),
      unit: withDefault(
        Type.Enum(UNITS, {
          description: 'What one unit is: a `grapheme` (a user-perceived character), a `codePoint`, a UTF-16 `codeUnit`, or a `word`.',
        }),
        'grapheme',
      ),
      caseSensitive: withDefault(Type.Boolean({ description: 'Whether upper and lower case differ; false folds both texts to one case first.' }), true),
      normalize: withDefault(
        Type.Enum(NORMALIZATIONS, {
          description:
            'The Unicode normalization applied to both texts first: `NFC`, `NFKC` (also folds compatibility forms such as ﬁ and full-width letters) or `none`.',
        }),
        'NFC',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Number({ description: 'The distance, in units (edits, or differing positions for hamming); for jaroWinkler, the similarity from 0 to 1.' }),
    metric: Type.Enum(METRICS, { description: 'The metric used.' }),
    unit: Type.Enum(UNITS, { description: 'The unit used.' }),
    similarity: Type.Number({ minimum: 0, maximum: 1, description: 'From 0 (nothing in common) to 1 (equal): 1 − result / the largest possible distance.' }),
    lengths: lengthsSchema,
  }),
  examples: [
    {
      summary: 'Levenshtein distance (the default): three edits',
      input: { input: 'kitten', compareTo: 'sitting' },
      output: { result: 3, metric: 'levenshtein', unit: 'grapheme', similarity: 0.5714285714285714, lengths: { input: 6, compareTo: 7 } },
    },
    {
      summary: 'An emoji family losing a member: one grapheme, two code points',
      input: { input: '👨‍👩‍👧‍👦', compareTo: '👨‍👩‍👧', unit: 'codePoint' },
      output: { result: 2, metric: 'levenshtein', unit: 'codePoint', similarity: 0.7142857142857143, lengths: { input: 7, compareTo: 5 } },
    },
    {
      summary: 'Jaro–Winkler similarity of two names',
      input: { input: 'MARTHA', compareTo: 'MARHTA', metric: 'jaroWinkler' },
      output: { result: 0.9611111111111111, metric: 'jaroWinkler', unit: 'grapheme', similarity: 0.9611111111111111, lengths: { input: 6, compareTo: 6 } },
    },
    {
      summary: 'Words, ignoring case and punctuation',
      input: { input: 'The quick brown fox.', compareTo: 'the quick red fox', unit: 'word', caseSensitive: false },
      output: { result: 1, metric: 'levenshtein', unit: 'word', similarity: 0.75, lengths: { input: 4, compareTo: 4 } },
    },
  ],
  offload({ input, compareTo, metric }) {
    return input.length + compareTo.length > OFFLOAD_LENGTH || (isQuadratic(metric) && input.length * compareTo.length > OFFLOAD_CELLS)
  },
  runsInBrowser: true,
  run({ input, compareTo, metric, unit, caseSensitive, normalize }) {
    const alphabet = new Alphabet()
    const a = symbolsOf(prepared(input, caseSensitive, normalize, 'input'), unit, alphabet, 'input')
    const b = symbolsOf(prepared(compareTo, caseSensitive, normalize, 'compareTo'), unit, alphabet, 'compareTo')
    const { result, similarity } = distanceOf(metric, a, b, alphabet.size, unit)
    return { result, metric, unit, similarity, lengths: { input: a.length, compareTo: b.length } }
  },
})
