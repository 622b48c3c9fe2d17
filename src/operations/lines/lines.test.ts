import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { assertFits } from '../../../test/chi-square.ts'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { countLines, lines, MAX_LINES, OFFLOAD_LINES, SORT_OFFLOAD_LINES } from './index.ts'

type Answer = { result: string; action: string; lines: number; removed: number; counts?: Array<{ line: string; count: number }> }

const run = (input: Record<string, unknown>) => execute(lines, input, { timeBudgetMs: 60_000 }) as Promise<Answer>
/** The operation called in process, for properties that run it hundreds of times. */
const call = (input: Record<string, unknown>) => lines.run(validate(lines.input, input)) as Answer
const resultOf = async (input: Record<string, unknown>) => (await run(input)).result

const workDirectory = mkdtempSync(join(tmpdir(), 'devutils-lines-'))
after(() => {
  rmSync(workDirectory, { recursive: true, force: true })
  return closeWorkerPool()
})

/** POSIX tools in the C locale, where they compare bytes: for ASCII lines, the code-unit order. */
function posix(command: string, args: string[], stdin = ''): string {
  return execFileSync(command, args, { input: stdin, cwd: workDirectory, env: { ...process.env, LC_ALL: 'C' } }).toString()
}

/**
 * The vectors of the operation's specification, seen on Node 20 with ICU 78: CLDR's collation
 * charts for the locale orders, POSIX `sort`, `comm` and `uniq -c` for the rest.
 */
const KNOWN_ANSWERS: Array<{ name: string; input: Record<string, unknown>; result: string }> = [
  { name: '1. natural order', input: { input: 'file10\nfile2\nFile1\nfile1b', compare: 'natural' }, result: 'File1\nfile1b\nfile2\nfile10' },
  { name: '2. German collation (CLDR): ä beside a', input: { input: 'ä\na\nz', locale: 'de' }, result: 'a\nä\nz' },
  { name: '2. Swedish collation (CLDR tailoring): ä after z', input: { input: 'ä\na\nz', locale: 'sv' }, result: 'a\nz\nä' },
  {
    name: '3. code units: surrogates sort below U+E000–U+FFFF',
    input: { input: 'b\na\nB\né\n😀\n\uffff', compare: 'codeUnit' },
    result: 'B\na\nb\né\n😀\n\uffff',
  },
  { name: '4. numeric: JSON numbers by value, the rest last', input: { input: '10\n9\n-1.5\n1e3\nabc', compare: 'numeric' }, result: '-1.5\n9\n10\n1e3\nabc' },
  { name: '5. union (comm, duplicates dropped)', input: { input: 'a\nb\na', compareTo: 'b\nc', action: 'union' }, result: 'a\nb\nc' },
  { name: '5. intersection', input: { input: 'a\nb\na', compareTo: 'b\nc', action: 'intersection' }, result: 'b' },
  { name: '5. difference', input: { input: 'a\nb\na', compareTo: 'b\nc', action: 'difference' }, result: 'a' },
  { name: '5. symmetricDifference', input: { input: 'a\nb\na', compareTo: 'b\nc', action: 'symmetricDifference' }, result: 'a\nc' },
  { name: '6. count (sort | uniq -c | sort -rn)', input: { input: 'b\na\nb', action: 'count' }, result: '2 b\n1 a' },
]

describe('lines: the specification’s vectors', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(lines).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/lines/index.ts')
  })

  for (const { name, input, result } of KNOWN_ANSWERS) {
    test(name, async () => {
      assert.equal(await resultOf(input), result)
    })
  }

  test('6. count also answers the counts as data, ties in first-seen order', async () => {
    assert.deepEqual(await run({ input: 'b\na\nb', action: 'count' }), {
      result: '2 b\n1 a',
      action: 'count',
      lines: 2,
      removed: 1,
      counts: [
        { line: 'b', count: 2 },
        { line: 'a', count: 1 },
      ],
    })
    const tied = await run({ input: 'x\ny\nz\ny\nx\nz', action: 'count' })
    assert.deepEqual(
      tied.counts?.map(({ line }) => line),
      ['x', 'y', 'z'],
    )
  })
})

describe('lines: each action and option', () => {
  test('the natural order’s documented traps: digit runs, not numbers', async () => {
    assert.equal(await resultOf({ input: '-10\n-5', compare: 'natural' }), '-5\n-10')
    assert.equal(await resultOf({ input: 'x1.10\nx1.5', compare: 'natural' }), 'x1.5\nx1.10')
    assert.equal(await resultOf({ input: '10\n9\n0x1F', compare: 'numeric' }), '9\n10\n0x1F', '0x1F is text')
  })

  test('numeric: spaces around a number are allowed, equal values keep their order, non-numbers stay last in desc', async () => {
    assert.equal(await resultOf({ input: ' 2 \n1e1\n10\nn/a\n-0\n0', compare: 'numeric' }), '-0\n0\n 2 \n1e1\n10\nn/a')
    assert.equal(await resultOf({ input: 'x\n1\n3\ny\n2', compare: 'numeric', order: 'desc' }), '3\n2\n1\nx\ny')
    assert.equal(await resultOf({ input: '1e400\n-1e400\n0', compare: 'numeric' }), '-1e400\n0\n1e400')
  })

  test('length counts code points, and ties keep input order', async () => {
    assert.equal(await resultOf({ input: 'ccc\n😀😀\nb\naa', compare: 'length' }), 'b\n😀😀\naa\nccc')
    assert.equal(await resultOf({ input: 'ccc\nbb\naa\nd', compare: 'length', order: 'desc' }), 'ccc\nbb\naa\nd')
    assert.equal(await resultOf({ input: 'ss\nß', compare: 'length', caseSensitive: false }), 'ß\nss', 'case folding does not lengthen ß')
    assert.equal(await resultOf({ input: 'ab\ne\u0301', compare: 'length', normalize: 'NFC' }), 'e\u0301\nab', 'é composed is one code point')
    assert.equal(await resultOf({ input: 'ab\ne\u0301', compare: 'length' }), 'ab\ne\u0301', 'decomposed, two')
  })

  test('locale: extensions in the tag apply; an unknown or root tag gets the root order, whatever the host’s locale', async () => {
    assert.equal(await resultOf({ input: 'af\näb\nad', locale: 'de-u-co-phonebk' }), 'ad\näb\naf', 'phonebook: ä as ae')
    assert.equal(await resultOf({ input: 'af\näb\nad', locale: 'de' }), 'äb\nad\naf', 'standard German: ä as a')
    const mixed = 'ä\nb\nA\na\nz\nB'
    const root = await resultOf({ input: mixed })
    assert.equal(root, 'a\nA\nä\nb\nB\nz')
    assert.equal(await resultOf({ input: mixed, locale: 'xx' }), root)
    assert.equal(await resultOf({ input: mixed, locale: 'EN-us' }), root, 'tags are case-insensitive')
    assert.equal(await resultOf({ input: mixed, order: 'desc' }), 'z\nB\nb\nä\nA\na')
  })

  test('caseSensitive: false and normalize make lines one key, and lines are written as given', async () => {
    assert.equal(await resultOf({ input: 'Straße\nSTRASSE\nstrasse', action: 'unique', caseSensitive: false }), 'Straße')
    assert.equal(await resultOf({ input: 'Straße\nSTRASSE', action: 'unique' }), 'Straße\nSTRASSE')
    assert.equal(await resultOf({ input: 'ΟΔΟΣ\nοδος\nοδοσ', action: 'unique', caseSensitive: false }), 'ΟΔΟΣ')
    assert.equal(await resultOf({ input: 'e\u0301\n\u00e9', action: 'unique' }), 'e\u0301\n\u00e9')
    assert.equal(await resultOf({ input: 'e\u0301\n\u00e9', action: 'unique', normalize: 'NFC' }), 'e\u0301')
    assert.equal(await resultOf({ input: '\ufb01\nfi', action: 'unique', normalize: 'NFC' }), '\ufb01\nfi')
    assert.equal(await resultOf({ input: '\ufb01\nfi\n\uff21', action: 'unique', normalize: 'NFKC' }), '\ufb01\n\uff21')
    assert.equal(await resultOf({ input: 'b\nB\na\nA', compare: 'codeUnit', caseSensitive: false }), 'a\nA\nb\nB')
    assert.deepEqual((await run({ input: 'A\na\nb', action: 'count', caseSensitive: false })).counts, [
      { line: 'A', count: 2 },
      { line: 'b', count: 1 },
    ])
  })

  test('unique keeps the first or the last occurrence, where it stands', async () => {
    assert.deepEqual(await run({ input: 'a\nb\na\nc\nb', action: 'unique' }), { result: 'a\nb\nc', action: 'unique', lines: 3, removed: 2 })
    assert.equal(await resultOf({ input: 'a\nb\na\nc\nb', action: 'unique', keep: 'last' }), 'a\nc\nb')
    assert.equal(await resultOf({ input: 'A\nb\na', action: 'unique', keep: 'last', caseSensitive: false }), 'b\na')
  })

  test('trim and removeBlank apply first, for every action; a line of spaces is blank', async () => {
    assert.equal(await resultOf({ input: '  a  \n\tb\t', action: 'clean', trim: 'both' }), 'a\nb')
    assert.equal(await resultOf({ input: '  a  \n\tb\t', action: 'clean', trim: 'start' }), 'a  \nb\t')
    assert.equal(await resultOf({ input: '  a  \n\tb\t', action: 'clean', trim: 'end' }), '  a\n\tb')
    assert.deepEqual(await run({ input: 'a\n\n   \nb\n', action: 'clean', removeBlank: true }), { result: 'a\nb\n', action: 'clean', lines: 2, removed: 2 })
    assert.equal(await resultOf({ input: 'a\n\n   \nb\n', action: 'clean' }), 'a\n\n   \nb\n', 'clean with no option changes nothing')
    assert.equal(await resultOf({ input: ' b\na \n', action: 'sort', trim: 'both', compare: 'codeUnit' }), 'a\nb\n')
    assert.equal(await resultOf({ input: 'a\n\n', action: 'reverse', removeBlank: true }), 'a\n')
    assert.equal(
      await resultOf({ input: 'a \nb', compareTo: 'a\n\n', action: 'union', trim: 'end', removeBlank: true }),
      'a\nb',
      'compareTo is trimmed and cleaned as input is',
    )
  })

  test('reverse; set actions write input’s version of a line that matches one of compareTo', async () => {
    assert.equal(await resultOf({ input: '1\n2\n3\n', action: 'reverse' }), '3\n2\n1\n')
    assert.equal(await resultOf({ input: 'Bob\nalice', compareTo: 'bob', action: 'intersection', caseSensitive: false }), 'Bob')
    assert.equal(await resultOf({ input: '', compareTo: 'x\ny', action: 'union' }), 'x\ny')
    assert.deepEqual(await run({ input: '', compareTo: '', action: 'intersection' }), { result: '', action: 'intersection', lines: 0, removed: 0 })
  })

  test('newline: auto takes input’s first line break, LF without one; lf and crlf rewrite every break', async () => {
    assert.equal(await resultOf({ input: 'b\r\na\nc\rd\r\n', action: 'reverse' }), 'd\r\nc\r\na\r\nb\r\n')
    assert.equal(await resultOf({ input: 'b\ra\r', action: 'reverse' }), 'a\rb\r')
    assert.equal(await resultOf({ input: 'b\na\r\n', action: 'reverse', newline: 'crlf' }), 'a\r\nb\r\n')
    assert.equal(await resultOf({ input: 'b\r\na', action: 'reverse', newline: 'lf' }), 'a\nb')
    assert.equal(await resultOf({ input: 'b', compareTo: 'a\r\n', action: 'union' }), 'b\na', 'only input decides')
  })

  test('empty and break-only texts: no line, or one empty line', async () => {
    assert.deepEqual(await run({ input: '' }), { result: '', action: 'sort', lines: 0, removed: 0 })
    assert.deepEqual(await run({ input: '\n' }), { result: '\n', action: 'sort', lines: 1, removed: 0 })
    assert.deepEqual(await run({ input: '\n', removeBlank: true }), { result: '', action: 'sort', lines: 0, removed: 1 })
    assert.deepEqual(await run({ input: '', action: 'count' }), { result: '', action: 'count', lines: 0, removed: 0, counts: [] })
  })

  test('count right-aligns the counts, as uniq -c does', async () => {
    const input = `${'a\n'.repeat(10)}b\n`
    assert.equal(await resultOf({ input, action: 'count' }), '10 a\n 1 b\n')
  })
})

describe('lines: properties (fast-check)', () => {
  // No empty line: one at the very end would read back as a final line break (tested on its own above).
  const line = fc.constantFrom(' ', 'a', 'A', 'b', 'B', 'é', 'e\u0301', '10', '9', '-2', '1.5', 'x2', 'x10', 'ß', 'SS', '😀', '\uffff', 'zz', ' a')
  const lineList = fc.array(line, { maxLength: 30 })
  const breakChoice = fc.constantFrom('\n', '\r\n', '\r')
  const text = fc.tuple(lineList, breakChoice, fc.boolean()).map(([items, separator, final]) => ({
    items,
    separator,
    text: items.join(separator) + (final && items.length > 0 ? separator : ''),
    final: final && items.length > 0,
  }))
  const linesOf = (result: string) => (result === '' ? [] : result.replace(/(\r\n|\r|\n)$/, '').split(/\r\n|\r|\n/))
  const sorted = (values: string[]) => [...values].sort()

  test('sort is a permutation of the lines, ordered by its comparison, stable', () => {
    const collator = new Intl.Collator('en')
    const natural = new Intl.Collator('en', { numeric: true })
    const comparisons: Record<string, (a: string, b: string) => number> = {
      locale: collator.compare,
      natural: natural.compare,
      codeUnit: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
      length: (a, b) => [...a].length - [...b].length,
    }
    fc.assert(
      fc.property(
        text,
        fc.constantFrom('locale', 'natural', 'codeUnit', 'length'),
        fc.constantFrom('asc', 'desc'),
        ({ items, text: input }, compare, order) => {
          const answer = call({ input, compare, order })
          const written = linesOf(answer.result)
          assert.deepEqual(sorted(written), sorted(items))
          assert.equal(answer.lines, items.length)
          // Where each written line stood in the input: the k-th copy of a line is its k-th occurrence there.
          const copies = new Map<string, number>()
          const origins = written.map((value) => {
            const copy = copies.get(value) ?? 0
            copies.set(value, copy + 1)
            return items.findIndex((item, index) => item === value && items.slice(0, index).filter((before) => before === value).length === copy)
          })
          const sign = order === 'desc' ? -1 : 1
          for (let i = 1; i < written.length; i++) {
            const ordering = sign * comparisons[compare](written[i - 1], written[i])
            assert.ok(ordering <= 0, `${compare} ${order}: ${JSON.stringify(written)}`)
            // Stable: lines that compare equal keep their input order.
            if (ordering === 0) assert.ok(origins[i - 1] < origins[i], `stable: ${JSON.stringify(written)}`)
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  test('numeric sort: the numbers ascending, then the other lines in input order', () => {
    fc.assert(
      fc.property(lineList, (items) => {
        const input = items.join('\n')
        const written = call({ input, compare: 'numeric', newline: 'lf' }).result
        const numbers = items.filter((item) => /^\s*-?(0|[1-9]\d*)(\.\d+)?\s*$/.test(item))
        const others = items.filter((item) => !numbers.includes(item))
        const expected = [...numbers].sort((a, b) => Number(a) - Number(b)).concat(others)
        assert.equal(written, input === '' ? '' : expected.join('\n'))
      }),
      { numRuns: 200 },
    )
  })

  test('unique keeps the first or the last of each line, in input order', () => {
    fc.assert(
      fc.property(lineList, fc.constantFrom('first', 'last'), (items, keep) => {
        const input = items.map((item) => `${item}.`).join('\n')
        const dotted = items.map((item) => `${item}.`)
        const expected = dotted.filter((item, index) => (keep === 'first' ? dotted.indexOf(item) === index : dotted.lastIndexOf(item) === index))
        const answer = call({ input, action: 'unique', keep })
        assert.equal(answer.result, expected.join('\n'))
        assert.equal(answer.removed, items.length - expected.length)
      }),
      { numRuns: 200 },
    )
  })

  test('the set actions agree with a Set-based model', () => {
    const dotted = lineList.map((items) => items.map((item) => `${item}.`))
    fc.assert(
      fc.property(dotted, dotted, fc.constantFrom('union', 'intersection', 'difference', 'symmetricDifference'), (left, right, action) => {
        const a = new Set(left)
        const b = new Set(right)
        const model = {
          union: [...new Set([...a, ...b])],
          intersection: [...a].filter((item) => b.has(item)),
          difference: [...a].filter((item) => !b.has(item)),
          symmetricDifference: [...[...a].filter((item) => !b.has(item)), ...[...b].filter((item) => !a.has(item))],
        }[action]
        const answer = call({ input: left.join('\n'), compareTo: right.join('\n'), action })
        assert.equal(answer.result, model.join('\n'))
        assert.equal(answer.lines, model.length)
        assert.equal(answer.removed, left.length + right.length - model.length)
      }),
      { numRuns: 300 },
    )
  })

  test('count: the counts sum to the lines read, most frequent first, and the result writes them', () => {
    fc.assert(
      fc.property(lineList, (items) => {
        const answer = call({ input: items.map((item) => `${item}.`).join('\n'), action: 'count' })
        const counts = answer.counts ?? []
        assert.equal(
          counts.reduce((sum, entry) => sum + entry.count, 0),
          items.length,
        )
        for (let i = 1; i < counts.length; i++) assert.ok(counts[i - 1].count >= counts[i].count)
        const width = String(counts[0]?.count ?? 0).length
        assert.equal(answer.result, counts.map(({ line: item, count }) => `${String(count).padStart(width)} ${item}`).join('\n'))
      }),
      { numRuns: 200 },
    )
  })

  test('a final line break is kept, every break is the one chosen, and reverse twice gives the text back', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('auto', 'lf', 'crlf'), ({ text: input, separator, final }, newline) => {
        const answer = call({ input, action: 'reverse', newline })
        const chosen = newline === 'auto' ? separator : newline === 'lf' ? '\n' : '\r\n'
        const breaks = answer.result.match(/\r\n|\r|\n/g) ?? []
        assert.ok(
          breaks.every((found) => found === chosen),
          JSON.stringify(answer.result),
        )
        assert.equal(answer.result.endsWith(chosen), final)
        if (newline === 'auto') assert.equal(call({ input: answer.result, action: 'reverse' }).result, input)
      }),
      { numRuns: 300 },
    )
  })

  test('shuffle is a permutation, every order equally likely (chi-square over 4! orders)', () => {
    fc.assert(
      fc.property(lineList, (items) => {
        const input = items.join('\n')
        const answer = call({ input, action: 'shuffle' })
        assert.deepEqual(sorted(input === '' ? [] : answer.result.split('\n')), sorted(input === '' ? [] : input.split('\n')))
      }),
      { numRuns: 100 },
    )
    const observed = new Map<string, number>()
    const runs = 4800
    for (let i = 0; i < runs; i++) {
      const order = call({ input: 'a\nb\nc\nd', action: 'shuffle' }).result
      observed.set(order, (observed.get(order) ?? 0) + 1)
    }
    const orders = ['a', 'b', 'c', 'd'].flatMap((a, _, all) =>
      all.flatMap((b) => all.flatMap((c) => all.filter((d) => new Set([a, b, c, d]).size === 4).map((d) => [a, b, c, d].join('\n')))),
    )
    assert.equal(orders.length, 24)
    assertFits(observed, new Map(orders.map((order) => [order, runs / 24])))
  })
})

describe('lines: the same answers as POSIX sort, uniq -c and comm (fast-check)', () => {
  const asciiLines = fc.array(fc.constantFrom('a', 'B', 'b', 'A', '10', '9', 'a b', 'zz', '_', '~'), { minLength: 1, maxLength: 20 })
  const text = (items: string[]) => `${items.join('\n')}\n`

  test('sort by code units is LC_ALL=C sort; unique keeps what sort -u keeps; count is uniq -c', () => {
    fc.assert(
      fc.property(asciiLines, (items) => {
        assert.equal(call({ input: text(items), compare: 'codeUnit' }).result, posix('sort', [], text(items)))
        assert.equal(call({ input: text(items), compare: 'codeUnit', order: 'desc' }).result, posix('sort', ['-r'], text(items)))
        const unique = call({ input: text(items), action: 'unique' }).result
        assert.equal(call({ input: unique, compare: 'codeUnit' }).result, posix('sort', ['-u'], text(items)))
        const counts = call({ input: text(items), action: 'count' }).counts ?? []
        const uniqCounts = posix('uniq', ['-c'], posix('sort', [], text(items)))
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => {
            const [, count, value] = /^\s*(\d+) (.*)$/.exec(line)!
            return { line: value, count: Number(count) }
          })
        const byLine = (a: { line: string }, b: { line: string }) => (a.line < b.line ? -1 : 1)
        assert.deepEqual([...counts].sort(byLine), uniqCounts.sort(byLine))
      }),
      { numRuns: 15 },
    )
  })

  test('the set actions hold the lines comm finds in one file, the other, or both', () => {
    fc.assert(
      fc.property(asciiLines, asciiLines, (left, right) => {
        writeFileSync(join(workDirectory, 'left'), posix('sort', ['-u'], text(left)))
        writeFileSync(join(workDirectory, 'right'), posix('sort', ['-u'], text(right)))
        const comm = (flags: string) => posix('comm', [flags, 'left', 'right'])
        const ours = (action: string) => call({ input: text(left), compareTo: text(right), action, compare: 'codeUnit' }).result
        const sortedResult = (action: string) => call({ input: ours(action), compare: 'codeUnit' }).result
        assert.equal(sortedResult('intersection'), comm('-12'))
        assert.equal(sortedResult('difference'), comm('-23'))
        assert.equal(sortedResult('union'), posix('sort', ['-u'], text([...left, ...right])))
        assert.equal(sortedResult('symmetricDifference'), posix('sort', [], comm('-3').replaceAll('\t', '')))
      }),
      { numRuns: 15 },
    )
  })
})

describe('lines: refusals and bounds', () => {
  test('compareTo is required for the set actions and refused for the others (400)', async () => {
    for (const action of ['union', 'intersection', 'difference', 'symmetricDifference']) {
      await expectRefusal(run({ input: 'a', action }), {
        code: 'VALIDATION_ERROR',
        field: 'compareTo',
        message: new RegExp(`compareTo is required for ${action}`),
      })
    }
    for (const action of ['sort', 'unique', 'count', 'reverse', 'shuffle', 'clean']) {
      await expectRefusal(run({ input: 'a', action, compareTo: 'b' }), { code: 'VALIDATION_ERROR', field: 'compareTo', message: /only for the set actions/ })
    }
  })

  test('an ill-formed BCP 47 tag is a 400 naming locale; the schema refuses the rest', async () => {
    for (const locale of ['en_US', 'root', 'x-private', 'de--DE', '12']) {
      await expectRefusal(run({ input: 'a', locale }), { code: 'VALIDATION_ERROR', field: 'locale', message: /BCP 47/ })
    }
    await expectRefusal(run({ input: 'a', locale: 'e' }), { code: 'VALIDATION_ERROR', field: 'locale' })
    await expectRefusal(run({ input: 'a', compare: 'random' }), { code: 'VALIDATION_ERROR', field: 'compare' })
    await expectRefusal(run({ input: 'a', action: 'uniq' }), { code: 'VALIDATION_ERROR', field: 'action' })
    await expectRefusal(run({ input: 'a', newline: 'cr' }), { code: 'VALIDATION_ERROR', field: 'newline' })
    await expectRefusal(run({ input: 'a', normalize: 'NFD' }), { code: 'VALIDATION_ERROR', field: 'normalize' })
    await expectRefusal(run({ input: 'a', removeBlank: 'true' }), { code: 'VALIDATION_ERROR', field: 'removeBlank' })
    await expectRefusal(run({ compareTo: 'a', action: 'union' }), { code: 'VALIDATION_ERROR', message: /input is required/ })
  })

  test('a lone surrogate in either text is refused (422)', async () => {
    await expectRefusal(run({ input: 'a\ud800' }), { code: 'INVALID_INPUT', position: 1 })
    await expectRefusal(run({ input: 'a', compareTo: '\udc00', action: 'union' }), { code: 'INVALID_INPUT' })
  })

  test(`more than ${MAX_LINES} lines in input and compareTo together are LIMIT_EXCEEDED, refused before they are split`, async () => {
    const half = '\n'.repeat(MAX_LINES / 2)
    await expectRefusal(run({ input: `${half}x`, compareTo: half, action: 'union' }), {
      code: 'LIMIT_EXCEEDED',
      message: /more than 1000000 lines/,
      details: { limit: MAX_LINES },
    })
    const started = performance.now()
    assert.throws(() => lines.run(validate(lines.input, { input: 'x\n'.repeat(5_000_000) })), { code: 'LIMIT_EXCEEDED' })
    assert.ok(performance.now() - started < 1000, 'counted, not split')
    const atLimit = call({ input: '\n'.repeat(MAX_LINES), action: 'reverse' })
    assert.equal(atLimit.lines, MAX_LINES)
  })

  test('countLines counts lines as the operation splits them', () => {
    assert.deepEqual(
      ['', 'a', 'a\n', 'a\r\n', 'a\r', '\n', '\r\n\r\n', 'a\n\rb', 'a\r\rb'].map((value) => countLines(value)),
      [0, 1, 1, 1, 1, 1, 2, 3, 3],
    )
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', '\r', ' ') }), (value) => {
        assert.equal(countLines(value), call({ input: value, action: 'clean' }).lines)
      }),
    )
  })

  test('an answer past the 16 MiB output limit is refused before it is joined', () => {
    // Control characters take the most JSON of any character: these pass the limit once escaped, not before.
    const line = '\u0001'.repeat(150)
    assert.throws(() => call({ input: `${line}\n`.repeat(20_000), action: 'reverse' }), { code: 'LIMIT_EXCEEDED', message: /output limit/ })
    assert.equal(call({ input: `${'a'.repeat(150)}\n`.repeat(20_000), action: 'reverse' }).lines, 20_000, 'measured exactly near the limit')
    // Counting distinct lines writes each twice, in the result and in the counts.
    const distinct = Array.from({ length: 80_000 }, (_, i) => `${i}`.padStart(110, '-')).join('\n')
    assert.throws(() => call({ input: distinct, action: 'count' }), { code: 'LIMIT_EXCEEDED', message: /output limit/ })
    assert.equal(call({ input: distinct, action: 'unique' }).lines, 80_000)
  })

  test('hostile inputs are answered quickly: half a million lines, one line of a mebibyte, many distinct lines', async () => {
    const started = performance.now()
    assert.equal((await run({ input: '\n'.repeat(500_000), compare: 'natural' })).lines, 500_000)
    assert.equal((await run({ input: 'x'.repeat(1024 * 1024), action: 'count' })).lines, 1)
    const distinct = Array.from({ length: 100_000 }, (_, i) => `item ${(i * 7919) % 100_000}`).join('\n')
    assert.equal((await run({ input: distinct, action: 'count' })).lines, 100_000)
    assert.equal((await run({ input: distinct, compareTo: distinct, action: 'symmetricDifference' })).lines, 0)
    assert.ok(performance.now() - started < 8000)
  })

  test(`offload: a sort of more than ${SORT_OFFLOAD_LINES} lines, any other action of more than ${OFFLOAD_LINES}, goes to a worker, with the same answer as in process`, async () => {
    const offloads = (input: Record<string, unknown>) => lines.offload?.(validate(lines.input, input))
    assert.equal(offloads({ input: 'x\n'.repeat(SORT_OFFLOAD_LINES) }), false)
    assert.equal(offloads({ input: 'x\n'.repeat(SORT_OFFLOAD_LINES + 1) }), true)
    assert.equal(offloads({ input: 'x\n'.repeat(OFFLOAD_LINES), action: 'count' }), false)
    assert.equal(offloads({ input: 'x\n'.repeat(OFFLOAD_LINES + 1), action: 'unique' }), true)
    assert.equal(offloads({ input: 'x'.repeat(1024 * 1024) }), false, 'one long line stays')
    assert.equal(offloads({ input: 'x\n'.repeat(15_000), compareTo: 'y\n'.repeat(15_000), action: 'union' }), true)
    const fields = { input: Array.from({ length: 30_000 }, (_, i) => `line ${(i * 31) % 1000}`).join('\n'), compare: 'natural', order: 'desc' }
    assert.deepEqual(await run(fields), call(fields))
  })
})
