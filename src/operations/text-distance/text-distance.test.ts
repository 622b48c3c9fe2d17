import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { MAX_CELLS, MAX_MARK_RUN, MAX_UNITS, MAX_UNRESTRICTED_CELLS, textDistance } from './index.ts'

const run = (input: Record<string, unknown>) => execute(textDistance, input, { timeBudgetMs: 60_000 })
const resultOf = async (input: Record<string, unknown>) => (await run(input)).result as number

after(() => closeWorkerPool())

/** Inputs and the answers a reference gives to them: a standard's test vectors, or another tool's output. */
const KNOWN_ANSWERS: Array<{ input: Record<string, unknown>; output: Record<string, unknown> }> = [
  // Levenshtein (1965), as Wikipedia's "Levenshtein distance" works it through.
  {
    input: { input: 'kitten', compareTo: 'sitting' },
    output: { result: 3, metric: 'levenshtein', unit: 'grapheme', similarity: 1 - 3 / 7, lengths: { input: 6, compareTo: 7 } },
  },
  {
    input: { input: 'Saturday', compareTo: 'Sunday' },
    output: { result: 3, metric: 'levenshtein', unit: 'grapheme', similarity: 1 - 3 / 8, lengths: { input: 8, compareTo: 6 } },
  },
  // Wikipedia "Damerau–Levenshtein distance": CA → ABC is 3 as optimal string alignment, 2 unrestricted.
  {
    input: { input: 'ca', compareTo: 'abc', metric: 'damerau' },
    output: { result: 3, metric: 'damerau', unit: 'grapheme', similarity: 0, lengths: { input: 2, compareTo: 3 } },
  },
  {
    input: { input: 'ca', compareTo: 'abc', metric: 'damerauUnrestricted' },
    output: { result: 2, metric: 'damerauUnrestricted', unit: 'grapheme', similarity: 1 - 2 / 3, lengths: { input: 2, compareTo: 3 } },
  },
  // Wikipedia "Hamming distance".
  {
    input: { input: 'karolin', compareTo: 'kathrin', metric: 'hamming' },
    output: { result: 3, metric: 'hamming', unit: 'grapheme', similarity: 1 - 3 / 7, lengths: { input: 7, compareTo: 7 } },
  },
  {
    input: { input: '1011101', compareTo: '1001001', metric: 'hamming' },
    output: { result: 2, metric: 'hamming', unit: 'grapheme', similarity: 1 - 2 / 7, lengths: { input: 7, compareTo: 7 } },
  },
  // Wikipedia "Longest common subsequence": ABCBDAB and BDCABA share 4 (BCBA), so 7 + 6 − 2·4 insertions and deletions.
  {
    input: { input: 'ABCBDAB', compareTo: 'BDCABA', metric: 'lcs' },
    output: { result: 5, metric: 'lcs', unit: 'grapheme', similarity: 8 / 13, lengths: { input: 7, compareTo: 6 } },
  },
  // One member leaves an emoji family: 1 grapheme changes, 2 code points go (a joiner and a boy), 3 UTF-16 units.
  {
    input: { input: '👨‍👩‍👧‍👦', compareTo: '👨‍👩‍👧' },
    output: { result: 1, metric: 'levenshtein', unit: 'grapheme', similarity: 0, lengths: { input: 1, compareTo: 1 } },
  },
  {
    input: { input: '👨‍👩‍👧‍👦', compareTo: '👨‍👩‍👧', unit: 'codePoint' },
    output: { result: 2, metric: 'levenshtein', unit: 'codePoint', similarity: 1 - 2 / 7, lengths: { input: 7, compareTo: 5 } },
  },
  {
    input: { input: '👨‍👩‍👧‍👦', compareTo: '👨‍👩‍👧', unit: 'codeUnit' },
    output: { result: 3, metric: 'levenshtein', unit: 'codeUnit', similarity: 1 - 3 / 11, lengths: { input: 11, compareTo: 8 } },
  },
]

/** Inputs it must refuse, each with the code of its error (VALIDATION_ERROR, INVALID_INPUT, LIMIT_EXCEEDED…). */
const REFUSED: Array<{ input: Record<string, unknown>; code: string }> = [
  { input: { input: 'a' }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', compareTo: 1 }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', compareTo: 'b', metric: 'jaro' }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', compareTo: 'b', unit: 'byte' }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', compareTo: 'b', normalize: 'NFD' }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', compareTo: 'b', caseSensitive: 'false' }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', compareTo: 'b', casesensitive: false }, code: 'VALIDATION_ERROR' },
  { input: { input: 'ab', compareTo: 'abc', metric: 'hamming' }, code: 'INVALID_INPUT' },
  { input: { input: 'a\ud800', compareTo: 'b' }, code: 'INVALID_INPUT' },
  { input: { input: 'a'.repeat(MAX_UNITS + 1), compareTo: 'b' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: 'a'.repeat(20_000), compareTo: 'b'.repeat(20_000) }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `a${'\u0301\u0316'.repeat(MAX_MARK_RUN)}`, compareTo: 'b' }, code: 'LIMIT_EXCEEDED' },
]

/** The reference implementations: each metric's whole table, as the textbooks fill it, with no shortcut. */
const reference = {
  levenshtein(a: string[], b: string[]): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    return d[a.length][b.length]
  },
  damerau(a: string[], b: string[]): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
      }
    return d[a.length][b.length]
  },
  /** Lowrance and Wagner's table, as Wikipedia's "Damerau–Levenshtein distance" gives it, with row and column −1. */
  damerauUnrestricted(a: string[], b: string[]): number {
    const infinity = a.length + b.length
    const d = Array.from({ length: a.length + 2 }, () => new Array<number>(b.length + 2).fill(0))
    d[0][0] = infinity
    for (let i = 0; i <= a.length; i++) [d[i + 1][0], d[i + 1][1]] = [infinity, i]
    for (let j = 0; j <= b.length; j++) [d[0][j + 1], d[1][j + 1]] = [infinity, j]
    const lastRow = new Map<string, number>()
    for (let i = 1; i <= a.length; i++) {
      let lastColumn = 0
      for (let j = 1; j <= b.length; j++) {
        const k = lastRow.get(b[j - 1]) ?? 0
        const l = lastColumn
        const cost = a[i - 1] === b[j - 1] ? 0 : 1
        if (cost === 0) lastColumn = j
        d[i + 1][j + 1] = Math.min(d[i][j] + cost, d[i + 1][j] + 1, d[i][j + 1] + 1, d[k][l] + (i - k - 1) + 1 + (j - l - 1))
      }
      lastRow.set(a[i - 1], i)
    }
    return d[a.length + 1][b.length + 1]
  },
  lcs(a: string[], b: string[]): number {
    const d = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) d[i][j] = a[i - 1] === b[j - 1] ? d[i - 1][j - 1] + 1 : Math.max(d[i - 1][j], d[i][j - 1])
    return a.length + b.length - 2 * d[a.length][b.length]
  },
}

/** The fewest insertions, deletions, substitutions and adjacent transpositions, found by a breadth-first search: the definition itself, for tiny texts. */
function fewestEdits(a: string[], b: string[]): number {
  const key = (units: string[]) => units.join('\u0000')
  const alphabet = [...new Set([...a, ...b])]
  const longest = Math.max(a.length, b.length) + 1
  const seen = new Set([key(a)])
  let frontier = [a]
  for (let distance = 0; ; distance++) {
    if (frontier.some((units) => key(units) === key(b))) return distance
    const next: string[][] = []
    const visit = (units: string[]) => {
      if (units.length <= longest && !seen.has(key(units))) {
        seen.add(key(units))
        next.push(units)
      }
    }
    for (const units of frontier) {
      for (let i = 0; i <= units.length; i++) {
        for (const unit of alphabet) visit([...units.slice(0, i), unit, ...units.slice(i)])
        if (i === units.length) continue
        visit([...units.slice(0, i), ...units.slice(i + 1)])
        for (const unit of alphabet) visit([...units.slice(0, i), unit, ...units.slice(i + 1)])
        if (i + 1 < units.length) visit([...units.slice(0, i), units[i + 1], units[i], ...units.slice(i + 2)])
      }
    }
    frontier = next
  }
}

const graphemes = (text: string) => Array.from(new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text), ({ segment }) => segment)

/** Short texts of a few graphemes, so that generated pairs share units and transpositions happen. */
const UNITS = ['a', 'b', 'c', 'é', '😀', '🇫🇷', '👨‍👩‍👧']
const shortText = (maxLength: number) => fc.array(fc.constantFrom(...UNITS), { maxLength }).map((units) => units.join(''))

describe('text-distance', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(textDistance).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/text-distance/index.ts')
  })

  test('answers known inputs as a reference does', async () => {
    assert.ok(KNOWN_ANSWERS.length > 0, 'give text-distance known answers in KNOWN_ANSWERS')
    for (const { input, output } of KNOWN_ANSWERS) assert.deepEqual(await run(input), output, JSON.stringify(input))
  })

  test('Jaro–Winkler similarities of Winkler (1990): MARTHA/MARHTA 0.961, DWAYNE/DUANE 0.84, DIXON/DICKSONX 0.813', async () => {
    const cases: Array<[string, string, number]> = [
      ['MARTHA', 'MARHTA', 0.961],
      ['DWAYNE', 'DUANE', 0.84],
      ['DIXON', 'DICKSONX', 0.813],
    ]
    for (const [input, compareTo, expected] of cases) {
      const data = await run({ input, compareTo, metric: 'jaroWinkler' })
      assert.equal(Math.round((data.result as number) * 1000) / 1000, expected, `${input}/${compareTo}`)
      assert.equal(data.similarity, data.result)
      assert.equal(await resultOf({ input: compareTo, compareTo: input, metric: 'jaroWinkler' }), data.result, 'symmetric')
    }
    // No unit in common, and one empty text: 0; two empty texts are equal: 1.
    assert.equal(await resultOf({ input: 'abc', compareTo: 'xyz', metric: 'jaroWinkler' }), 0)
    assert.equal(await resultOf({ input: '', compareTo: 'xyz', metric: 'jaroWinkler' }), 0)
    assert.equal(await resultOf({ input: '', compareTo: '', metric: 'jaroWinkler' }), 1)
  })

  test('refuses what it cannot process, saying why', async () => {
    assert.ok(REFUSED.length > 0, 'give text-distance inputs it refuses in REFUSED')
    for (const { input, code } of REFUSED) await assert.rejects(run(input), { code }, JSON.stringify(input))
  })
})

describe('text-distance units and options', () => {
  test('NFC by default: a precomposed é equals e with a combining accent; normalize: none keeps them apart', async () => {
    assert.equal(await resultOf({ input: 'caf\u00e9', compareTo: 'cafe\u0301' }), 0)
    assert.equal(await resultOf({ input: 'caf\u00e9', compareTo: 'cafe\u0301', normalize: 'none', unit: 'codePoint' }), 2)
    // As graphemes both are one character, but not the same one.
    assert.equal(await resultOf({ input: 'caf\u00e9', compareTo: 'cafe\u0301', normalize: 'none' }), 1)
  })

  test('NFKC folds compatibility forms: the ﬁ ligature and full-width letters', async () => {
    assert.equal(await resultOf({ input: 'ﬁle', compareTo: 'file', normalize: 'NFKC' }), 0)
    assert.equal(await resultOf({ input: 'ﬁle', compareTo: 'file' }), 2)
    assert.equal(await resultOf({ input: 'ＡＢＣ', compareTo: 'ABC', normalize: 'NFKC' }), 0)
  })

  test('caseSensitive: false folds case, ß with SS and final sigma with capital sigma included', async () => {
    assert.equal(await resultOf({ input: 'Hello', compareTo: 'hello' }), 1)
    assert.equal(await resultOf({ input: 'Hello', compareTo: 'hello', caseSensitive: false }), 0)
    const data = await run({ input: 'Straße', compareTo: 'STRASSE', caseSensitive: false })
    assert.deepEqual([data.result, data.lengths], [0, { input: 7, compareTo: 7 }])
    assert.equal(await resultOf({ input: 'ΟΔΟΣ', compareTo: 'οδος', caseSensitive: false }), 0)
    assert.equal(await resultOf({ input: 'ΟΔΟΣ', compareTo: 'οδος', caseSensitive: false, metric: 'hamming', unit: 'codePoint' }), 0)
  })

  test('words: UAX #29 word segments, spaces and punctuation left out, any script', async () => {
    const data = await run({ input: 'The quick, brown fox!', compareTo: 'The quick fox', unit: 'word' })
    assert.deepEqual([data.result, data.lengths], [1, { input: 4, compareTo: 3 }])
    assert.equal(await resultOf({ input: "don't stop", compareTo: 'do not stop', unit: 'word' }), 2)
    assert.equal(await resultOf({ input: 'один два три', compareTo: 'три два один', unit: 'word', metric: 'hamming' }), 2)
  })

  test('empty texts: distance 0 and similarity 1 for every metric; against an empty text, every unit is an edit', async () => {
    for (const metric of ['levenshtein', 'damerau', 'damerauUnrestricted', 'hamming', 'lcs']) {
      assert.deepEqual(await run({ input: '', compareTo: '', metric }), {
        result: 0,
        metric,
        unit: 'grapheme',
        similarity: 1,
        lengths: { input: 0, compareTo: 0 },
      })
    }
    for (const metric of ['levenshtein', 'damerau', 'damerauUnrestricted', 'lcs']) {
      const data = await run({ input: '', compareTo: 'abc', metric })
      assert.deepEqual([data.result, data.similarity], [3, 0], metric)
    }
  })

  test('lcs counts insertions and deletions only: a substitution is two, and its similarity never falls below 0', async () => {
    const data = await run({ input: 'ab', compareTo: 'cd', metric: 'lcs' })
    assert.deepEqual([data.result, data.similarity], [4, 0])
    assert.equal(await resultOf({ input: 'kitten', compareTo: 'sitting', metric: 'lcs' }), 5)
  })

  test('long texts that differ in a small part cost the part, not the whole (their common start and end are set aside)', async () => {
    const base = 'lorem ipsum dolor sit amet '.repeat(1_500)
    for (const metric of ['levenshtein', 'damerau', 'damerauUnrestricted', 'lcs']) {
      const data = await run({ input: `${base}kitten${base}`, compareTo: `${base}sitting${base}`, metric, unit: 'codeUnit' })
      assert.equal(data.result, metric === 'lcs' ? 5 : 3, metric)
    }
  })
})

describe('text-distance properties (fast-check)', () => {
  test('levenshtein is a metric: zero only between equal texts, symmetric, and the triangle inequality holds', async () => {
    await fc.assert(
      fc.asyncProperty(shortText(6), shortText(6), shortText(6), async (x, y, z) => {
        const xy = await resultOf({ input: x, compareTo: y })
        assert.equal(await resultOf({ input: y, compareTo: x }), xy)
        assert.equal(await resultOf({ input: x, compareTo: x }), 0)
        assert.equal(xy === 0, x === y)
        const xz = await resultOf({ input: x, compareTo: z })
        const zy = await resultOf({ input: z, compareTo: y })
        assert.ok(xy <= xz + zy, `${xy} <= ${xz} + ${zy}`)
      }),
      { numRuns: 150 },
    )
  })

  test('each table metric equals its textbook definition, filled whole (so setting the common start and end aside changes nothing)', async () => {
    await fc.assert(
      fc.asyncProperty(shortText(6), shortText(6), async (x, y) => {
        const [a, b] = [graphemes(x), graphemes(y)]
        for (const metric of ['levenshtein', 'damerau', 'damerauUnrestricted', 'lcs'] as const) {
          assert.equal(await resultOf({ input: x, compareTo: y, metric }), reference[metric](a, b), `${metric} of ${JSON.stringify([x, y])}`)
        }
      }),
      { numRuns: 150 },
    )
  })

  test('damerauUnrestricted is the fewest edits with transpositions, as a search over every edit finds them on tiny texts', async () => {
    const tiny = fc.array(fc.constantFrom('a', 'b', '😀'), { maxLength: 4 }).map((units) => units.join(''))
    await fc.assert(
      fc.asyncProperty(tiny, tiny, async (x, y) => {
        assert.equal(await resultOf({ input: x, compareTo: y, metric: 'damerauUnrestricted' }), fewestEdits(graphemes(x), graphemes(y)), JSON.stringify([x, y]))
      }),
      { numRuns: 60 },
    )
  })

  test('damerauUnrestricted ≤ damerau ≤ levenshtein ≤ lcs ≤ 2 × levenshtein, and levenshtein lies between the length difference and the longer length', async () => {
    await fc.assert(
      fc.asyncProperty(shortText(10), shortText(10), fc.constantFrom('grapheme', 'codePoint', 'codeUnit'), async (x, y, unit) => {
        const distance = async (metric: string) => await run({ input: x, compareTo: y, metric, unit })
        const levenshtein = await distance('levenshtein')
        const [damerau, unrestricted, lcs] = [await distance('damerau'), await distance('damerauUnrestricted'), await distance('lcs')]
        const [l, d, u, c] = [levenshtein.result, damerau.result, unrestricted.result, lcs.result] as number[]
        assert.ok(u <= d && d <= l && l <= c && c <= 2 * l, `${u} ${d} ${l} ${c}`)
        const { input: n, compareTo: m } = levenshtein.lengths as { input: number; compareTo: number }
        assert.ok(Math.abs(n - m) <= l && l <= Math.max(n, m))
        for (const data of [levenshtein, damerau, unrestricted, lcs]) assert.ok((data.similarity as number) >= 0 && (data.similarity as number) <= 1)
      }),
      { numRuns: 150 },
    )
  })

  test('hamming counts the positions whose graphemes differ', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...UNITS), fc.constantFrom(...UNITS)), { maxLength: 20 }), async (pairs) => {
        const x = pairs.map(([first]) => first).join('')
        const y = pairs.map(([, second]) => second).join('')
        const data = await run({ input: x, compareTo: y, metric: 'hamming' })
        assert.equal(data.result, pairs.filter(([first, second]) => first !== second).length)
        assert.deepEqual(data.lengths, { input: pairs.length, compareTo: pairs.length })
      }),
      { numRuns: 150 },
    )
  })

  test('jaroWinkler lies in [0, 1], is 1 for equal texts and symmetric', async () => {
    await fc.assert(
      fc.asyncProperty(shortText(12), shortText(12), async (x, y) => {
        const similarity = await resultOf({ input: x, compareTo: y, metric: 'jaroWinkler' })
        assert.ok(similarity >= 0 && similarity <= 1, String(similarity))
        assert.equal(await resultOf({ input: x, compareTo: x, metric: 'jaroWinkler' }), 1)
        assert.equal(await resultOf({ input: y, compareTo: x, metric: 'jaroWinkler' }), similarity)
      }),
      { numRuns: 150 },
    )
  })

  test('lengths count what each unit says: graphemes as Intl.Segmenter, code points, UTF-16 code units', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 30 }), async (text) => {
        const nfc = text.normalize('NFC')
        const lengthIn = async (unit: string) => ((await run({ input: text, compareTo: '', unit })).lengths as { input: number }).input
        assert.equal(await lengthIn('grapheme'), graphemes(nfc).length)
        assert.equal(await lengthIn('codePoint'), [...nfc].length)
        assert.equal(await lengthIn('codeUnit'), nfc.length)
      }),
      { numRuns: 100 },
    )
  })
})

describe('text-distance limits and hostile inputs', () => {
  test('hamming over texts of different lengths: 422 INVALID_INPUT with both lengths in its unit', async () => {
    await expectRefusal(run({ input: '👨‍👩‍👧‍👦x', compareTo: '👨‍👩‍👧y', metric: 'hamming', unit: 'codePoint' }), {
      code: 'INVALID_INPUT',
      message: /same length.*8 and 6 code points/,
      details: { unit: 'codePoint', lengths: { input: 8, compareTo: 6 } },
    })
    // Equal in graphemes, so the same texts compare by grapheme.
    assert.equal(await resultOf({ input: '👨‍👩‍👧‍👦x', compareTo: '👨‍👩‍👧y', metric: 'hamming' }), 2)
  })

  test(`a text of more than ${MAX_UNITS} units is refused, counted in the unit asked for`, async () => {
    await expectRefusal(run({ input: 'x', compareTo: 'ab'.repeat(MAX_UNITS / 2 + 1), unit: 'codeUnit' }), {
      code: 'LIMIT_EXCEEDED',
      details: { field: 'compareTo', unit: 'codeUnit', limit: MAX_UNITS },
    })
    // Within the limit as graphemes, beyond it as code units.
    const thumbs = '👍'.repeat(60_000)
    assert.equal(await resultOf({ input: thumbs, compareTo: thumbs, metric: 'hamming' }), 0)
    await expectRefusal(run({ input: thumbs, compareTo: thumbs, metric: 'hamming', unit: 'codeUnit' }), { code: 'LIMIT_EXCEEDED', details: { field: 'input' } })
    await expectRefusal(run({ input: 'w '.repeat(MAX_UNITS + 1), compareTo: '', unit: 'word' }), { code: 'LIMIT_EXCEEDED', details: { unit: 'word' } })
    assert.equal(await resultOf({ input: 'w '.repeat(MAX_UNITS), compareTo: '', unit: 'word', metric: 'lcs' }), MAX_UNITS)
  })

  test(`texts whose units multiply past ${MAX_CELLS} are refused before the work starts; at the limit they are answered`, async () => {
    const side = Math.sqrt(MAX_CELLS)
    await expectRefusal(run({ input: 'a'.repeat(side + 1), compareTo: 'b'.repeat(side) }), {
      code: 'LIMIT_EXCEEDED',
      details: { limit: MAX_CELLS, cells: (side + 1) * side, metric: 'levenshtein' },
    })
    for (const metric of ['damerau', 'lcs', 'jaroWinkler']) {
      await expectRefusal(run({ input: 'a'.repeat(side + 1), compareTo: 'b'.repeat(side), metric }), { code: 'LIMIT_EXCEEDED', details: { metric } })
    }
    const unrestrictedSide = Math.ceil(Math.sqrt(MAX_UNRESTRICTED_CELLS))
    await expectRefusal(run({ input: 'a'.repeat(unrestrictedSide), compareTo: 'b'.repeat(unrestrictedSide), metric: 'damerauUnrestricted' }), {
      code: 'LIMIT_EXCEEDED',
      details: { limit: MAX_UNRESTRICTED_CELLS },
    })
    // Hamming is linear: texts of the most units compare.
    assert.equal(await resultOf({ input: 'a'.repeat(MAX_UNITS), compareTo: 'b'.repeat(MAX_UNITS), metric: 'hamming' }), MAX_UNITS)
    // The largest table allowed, on a worker thread.
    assert.equal(await resultOf({ input: 'ab'.repeat(side / 2), compareTo: 'ba'.repeat(side / 2), unit: 'codeUnit' }), 2)
    assert.equal(await resultOf({ input: 'a'.repeat(side), compareTo: 'b'.repeat(side), unit: 'codeUnit' }), side)
  })

  test(`a run of more than ${MAX_MARK_RUN} combining marks is refused before normalization, whose cost is its square; normalize: none takes it`, async () => {
    const zalgo = `a${'\u0301\u0316'.repeat(MAX_MARK_RUN / 2)}`
    assert.equal(await resultOf({ input: zalgo, compareTo: 'a' }), 1)
    const long = `xa${'\u0316\u0301'.repeat(200_000)}`
    const cpu = await cpuTimeOfAsync(() =>
      expectRefusal(run({ input: 'a', compareTo: long }), { code: 'LIMIT_EXCEEDED', details: { field: 'compareTo', position: 2, limit: MAX_MARK_RUN } }),
    )
    assert.ok(cpu < 2_000, `${cpu} ms`)
    // One grapheme of hundreds of thousands of code units, segmented in linear time.
    const data = await run({ input: long, compareTo: 'xa', normalize: 'none' })
    assert.deepEqual([data.result, data.lengths], [1, { input: 2, compareTo: 2 }])
  })

  test('a body-sized text of each kind is answered or refused quickly', async () => {
    const texts = ['a'.repeat(1_000_000), '日本語の文章'.repeat(150_000), `${'e\u0301 '.repeat(300_000)}`, '👨‍👩‍👧‍👦'.repeat(90_000)]
    for (const text of texts) {
      for (const unit of ['grapheme', 'word', 'codePoint']) {
        const cpu = await cpuTimeOfAsync(() =>
          run({ input: text, compareTo: text, unit, metric: 'hamming' }).catch((error) => assert.equal(error.code, 'LIMIT_EXCEEDED')),
        )
        assert.ok(cpu < 3_000, `${unit} of ${text.slice(0, 8)}…: ${cpu} ms`)
      }
    }
  })

  test('small inputs run in process, large ones on a worker thread', () => {
    const offload = textDistance.offload!
    const input = (fields: Record<string, unknown>) => ({ metric: 'levenshtein', unit: 'grapheme', caseSensitive: true, normalize: 'NFC', ...fields }) as never
    assert.equal(offload(input({ input: 'kitten', compareTo: 'sitting' })), false)
    assert.equal(offload(input({ input: 'a'.repeat(1_000), compareTo: 'b'.repeat(1_000) })), true)
    assert.equal(offload(input({ input: 'a'.repeat(1_000), compareTo: 'b'.repeat(1_000), metric: 'hamming' })), false)
    assert.equal(offload(input({ input: 'a'.repeat(100_000), compareTo: 'b'.repeat(100_000), metric: 'hamming' })), true)
  })
})
