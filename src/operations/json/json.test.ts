import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { isExactNumber } from '../../lib/json/value.ts'
import { JSON_OFFLOAD_THRESHOLD, json } from './index.ts'
import { MAX_QUERY_VALUES, QUERY_OFFLOAD_THRESHOLD } from './query.ts'

const run = (input: Record<string, unknown>) => execute(json, input, { timeBudgetMs: 60_000 })
const format = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result as string
const minify = (input: string, options: Record<string, unknown> = {}) => format(input, { action: 'minify', ...options })
const queryOf = async (input: unknown, path: string) => {
  const data = await run({ input: JSON.stringify(input), action: 'query', path })
  return { values: data.result as unknown[], paths: data.paths as string[] }
}
const pointerOf = async (input: string, pointer: string) => (await run({ input, action: 'pointer', pointer })).result
const rejects = (input: Record<string, unknown>, code: string, pattern: RegExp, details?: Record<string, unknown>) =>
  expectRefusal(run(input), { code, message: pattern, details })
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)

after(() => closeWorkerPool())

describe('json format and minify', () => {
  test('format lays JSON out exactly as JSON.stringify does, for any indent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant('\t' as const)), async (value, indent) => {
        const text = JSON.stringify(value)
        assert.equal(await format(text, { indent }), JSON.stringify(value, null, indent))
        assert.equal(await minify(JSON.stringify(value, null, 3)), text)
      }),
      { numRuns: 150 },
    )
  })

  test('numbers keep their text: no round trip through doubles', async () => {
    const text = '[12345678901234567890,1.0,1E+2,-0,1e400,0.10,-0.0e-0,9007199254740993,3.141592653589793238462643383279]'
    assert.equal(await minify(text.replaceAll(',', ' , ')), text)
    assert.equal(await format(text, { indent: 0 }), text)
    assert.equal(await format('{"a": 1.50}'), '{\n  "a": 1.50\n}')
  })

  test('strings keep their escapes, keys their order (integer-like keys too)', async () => {
    assert.equal(await minify('{ "2": "b", "1": "a", "b": "\\u00e9\\/\\n", "a": "é" }'), '{"2":"b","1":"a","b":"\\u00e9\\/\\n","a":"é"}')
    assert.equal(await format('{"z":{"2":1,"1":2}}', { indent: '\t' }), '{\n\t"z": {\n\t\t"2": 1,\n\t\t"1": 2\n\t}\n}')
  })

  test('sortKeys sorts at every depth, in code unit order, repeated keys keeping their order', async () => {
    const text = '{"b":{"z":1,"y":[{"d":1,"c":2}]},"a":0,"10":1,"9":2,"é":3,"E":4,"b":5}'
    assert.equal(await minify(text, { sortKeys: true }), '{"10":1,"9":2,"E":4,"a":0,"b":{"y":[{"c":2,"d":1}],"z":1},"b":5,"é":3}')
    assert.equal(await format('{"b":1,"a":{"d":[],"c":{}}}', { sortKeys: true }), '{\n  "a": {\n    "c": {},\n    "d": []\n  },\n  "b": 1\n}')
  })

  test('lenient reads JSONC (comments, trailing commas) and writes strict JSON; strict refuses both with their place', async () => {
    const jsonc = '/* head */ {\n  "a": [1, 2,], // two\n  "b": {"c": null,},\n}\n// tail'
    const data = await run({ input: jsonc, action: 'minify', lenient: true })
    assert.deepEqual(data, { result: '{"a":[1,2],"b":{"c":null}}', action: 'minify', warnings: ['3 comments were dropped: JSON has no comments'] })
    await rejects({ input: jsonc }, 'INVALID_INPUT', /input is not valid JSON: '\/' where a value was expected at line 1, column 1 \(position 0\)/, {
      position: 0,
      line: 1,
      column: 1,
    })
    await rejects({ input: '[1, 2,]' }, 'INVALID_INPUT', /at line 1, column 7 \(position 6\)/, { position: 6 })
    await rejects({ input: '[1 /* open', lenient: true }, 'INVALID_INPUT', /even leniently.*comment that is never closed/)
  })

  test('syntax errors are 422s with position, line and column', async () => {
    await rejects({ input: '{"a": 1,\n "b": tru}' }, 'INVALID_INPUT', /line 2, column 7 \(position 15\)/, { position: 15, line: 2, column: 7 })
    await rejects({ input: '"tab\there"' }, 'INVALID_INPUT', /control characters must be escaped.*position 4/, { position: 4 })
    await rejects({ input: '' }, 'INVALID_INPUT', /the text ends where a value was expected/, { position: 0 })
    await rejects({ input: '{} []' }, 'INVALID_INPUT', /'\[' where the end of the text was expected at line 1, column 4/)
    await rejects({ input: '\ufeff{}' }, 'INVALID_INPUT', /position 0/)
    await rejects({ input: '[01]' }, 'INVALID_INPUT', /position 2/)
  })

  test('repeated keys are warned about, with both places', async () => {
    const data = await run({ input: '{"a":1,\n"b":{"a":2,"a":3},\n"a":4}' })
    assert.deepEqual(data.warnings, [
      'line 2, column 12: the key "a" repeats the key at line 2, column 6; where the JSON is read into an object, the last one wins',
      'line 3, column 1: the key "a" repeats the key at line 1, column 2; where the JSON is read into an object, the last one wins',
    ])
  })

  test('an escaped lone surrogate is kept as written by format', async () => {
    assert.equal(await minify('[ "\\ud800" ]'), '["\\ud800"]')
  })

  test('nesting: 100 levels are fine, 101 are LIMIT_EXCEEDED at their place, and a megabyte of [ is refused quickly', async () => {
    assert.equal(await minify(nested(100)), nested(100))
    await rejects({ input: nested(101) }, 'LIMIT_EXCEEDED', /deeper than 100 levels \(at line 1, column 101\)/, { position: 100, column: 101 })
    await rejects({ input: '{"a":'.repeat(101) }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
    for (const action of ['format', 'validate', 'query', 'pointer']) {
      await rejects({ input: '['.repeat(1 << 20), action, path: '$', pointer: '' }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
    }
    const cpu = await cpuTimeOfAsync(() =>
      assert.rejects(async () => json.run(validate(json.input, { input: '['.repeat(1 << 20) })), { code: 'LIMIT_EXCEEDED' }),
    )
    assert.ok(cpu < 200, `${cpu} ms`)
  })

  test('a document of many values is written whole, in its order', async () => {
    const values = Array.from({ length: 30_000 }, (_, i) => (i % 3 === 0 ? [i] : i % 3 === 1 ? { [i]: i } : i))
    assert.equal(await format(JSON.stringify(values)), JSON.stringify(values, null, 2))
  })

  test('output that would pass 16 MiB is refused before it is written', async () => {
    // 99 levels, then 300,000 zeros: each would take a line indented 800 spaces (240 MB).
    const input = `${'['.repeat(99)}${Array(300_000).fill(0).join(',')}${']'.repeat(99)}`
    await rejects({ input, indent: 8 }, 'LIMIT_EXCEEDED', /output limit/)
    assert.equal((await minify(input)).length, input.length)
  })
})

describe('json validate', () => {
  test('answers valid and, when not, the first error with line, column and position', async () => {
    assert.deepEqual(await run({ input: '{"a":[1,2]}', action: 'validate' }), { result: true, action: 'validate', valid: true, warnings: [] })
    assert.deepEqual(await run({ input: '[1,\n  2,\n  x]', action: 'validate' }), {
      result: false,
      action: 'validate',
      valid: false,
      error: { message: "'x' where a value was expected at line 3, column 3 (position 11)", position: 11, line: 3, column: 3 },
      warnings: [],
    })
    const lenient = await run({ input: '[1, // one\n 2,]', action: 'validate', lenient: true })
    assert.deepEqual([lenient.valid, lenient.warnings], [true, ['1 comment was dropped: JSON has no comments']])
  })

  test('agrees with JSON.parse on JSON-like noise', async () => {
    const noise = fc.stringMatching(/^[[\]{}",:0-9.eE+\- tfalsenruxu\\\n]{0,24}$/)
    await fc.assert(
      fc.asyncProperty(fc.oneof(noise, fc.json()), async (text) => {
        let parses = true
        try {
          JSON.parse(text)
        } catch {
          parses = false
        }
        const data = await run({ input: text, action: 'validate' })
        assert.equal(data.valid, parses, text)
      }),
      { numRuns: 2000 },
    )
  })
})

// RFC 9535 §1.5, Figure 1: the document of the examples of Table 2.
const STORE = {
  store: {
    book: [
      { category: 'reference', author: 'Nigel Rees', title: 'Sayings of the Century', price: 8.95 },
      { category: 'fiction', author: 'Evelyn Waugh', title: 'Sword of Honour', price: 12.99 },
      { category: 'fiction', author: 'Herman Melville', title: 'Moby Dick', isbn: '0-553-21311-3', price: 8.99 },
      { category: 'fiction', author: 'J. R. R. Tolkien', title: 'The Lord of the Rings', isbn: '0-395-19395-8', price: 22.99 },
    ],
    bicycle: { color: 'red', price: 399 },
  },
}

describe('json query (JSONPath, RFC 9535)', () => {
  test('RFC 9535 §1.5, Table 2', async () => {
    const books = STORE.store.book
    const authors = books.map((book) => book.author)
    assert.deepEqual((await queryOf(STORE, '$.store.book[*].author')).values, authors)
    assert.deepEqual((await queryOf(STORE, '$..author')).values, authors)
    assert.deepEqual((await queryOf(STORE, '$.store.*')).values, [books, STORE.store.bicycle])
    assert.deepEqual(((await queryOf(STORE, '$.store..price')).values as number[]).sort(), [12.99, 22.99, 399, 8.95, 8.99])
    assert.deepEqual(await queryOf(STORE, '$..book[2]'), { values: [books[2]], paths: ["$['store']['book'][2]"] })
    assert.deepEqual((await queryOf(STORE, '$..book[2].author')).values, ['Herman Melville'])
    assert.deepEqual((await queryOf(STORE, '$..book[2].publisher')).values, [])
    assert.deepEqual((await queryOf(STORE, '$..book[-1]')).values, [books[3]])
    assert.deepEqual((await queryOf(STORE, '$..book[0,1]')).values, [books[0], books[1]])
    assert.deepEqual((await queryOf(STORE, '$..book[:2]')).values, [books[0], books[1]])
    assert.deepEqual((await queryOf(STORE, '$..book[?@.isbn]')).values, [books[2], books[3]])
    assert.deepEqual((await queryOf(STORE, '$..book[?@.price<10]')).values, [books[0], books[2]])
    assert.equal((await queryOf(STORE, '$..*')).values.length, 27)
  })

  test('RFC 9535 §2.3.5.3, filter examples', async () => {
    const doc = {
      a: [3, 5, 1, 2, 4, 6, { b: 'j' }, { b: 'k' }, { b: {} }, { b: 'kilo' }],
      o: { p: 1, q: 2, r: 3, s: 5, t: { u: 6 } },
      e: 'f',
    }
    const values = async (path: string) => (await queryOf(doc, path)).values
    assert.deepEqual(await values("$.a[?@.b == 'kilo']"), [{ b: 'kilo' }])
    assert.deepEqual(await values('$.a[?@>3.5]'), [5, 4, 6])
    assert.deepEqual(await values('$.a[?@.b]'), [{ b: 'j' }, { b: 'k' }, { b: {} }, { b: 'kilo' }])
    assert.deepEqual(await values('$[?@[?@.b]]'), [doc.a])
    assert.deepEqual(await values('$.o[?@<3, ?@<3]'), [1, 2, 1, 2])
    assert.deepEqual(await values('$.a[?@<2 || @.b == "k"]'), [1, { b: 'k' }])
    assert.deepEqual(await values('$.a[?match(@.b, "[jk]")]'), [{ b: 'j' }, { b: 'k' }])
    assert.deepEqual(await values('$.a[?search(@.b, "[jk]")]'), [{ b: 'j' }, { b: 'k' }, { b: 'kilo' }])
    assert.deepEqual(await values('$.o[?@>1 && @<4]'), [2, 3])
    assert.deepEqual(await values('$.o[?@.u || @.x]'), [{ u: 6 }])
    assert.deepEqual(await values('$.a[?@.b == $.x]'), [3, 5, 1, 2, 4, 6])
    assert.equal((await values('$.a[?@ == @]')).length, 10)
  })

  test('passes the JSONPath Compliance Test Suite', async () => {
    // Published test data: github.com/jsonpath-standard/jsonpath-compliance-test-suite (see test/fixtures/suites/…/SOURCE.txt).
    const suite = JSON.parse(readFileSync(new URL('../../../test/fixtures/suites/jsonpath-compliance-test-suite/cts.json', import.meta.url), 'utf8')) as {
      tests: Array<{
        name: string
        selector: string
        document?: unknown
        invalid_selector?: boolean
        result?: unknown[]
        result_paths?: string[]
        results?: unknown[][]
        results_paths?: string[][]
      }>
    }
    assert.ok(suite.tests.length > 700)
    let invalid = 0
    for (const cts of suite.tests) {
      if (cts.invalid_selector) {
        invalid++
        await expectRefusal(run({ input: '{}', action: 'query', path: cts.selector }), { code: 'INVALID_INPUT', details: { field: 'path' } }).catch((error) => {
          // A selector beyond the schema's bounds (empty) is a 400, which is a refusal too.
          if (cts.selector !== '') throw new Error(`${cts.name}: ${error}`)
        })
        continue
      }
      const { values, paths } = await queryOf(cts.document, cts.selector)
      const expected = cts.result ? [[cts.result, cts.result_paths]] : cts.results!.map((result, i) => [result, cts.results_paths![i]])
      assert.ok(
        expected.some(([result, resultPaths]) => JSON.stringify([values, paths]) === JSON.stringify([result, resultPaths])),
        `${cts.name}: ${cts.selector} gave ${JSON.stringify(values)}`,
      )
    }
    assert.ok(invalid > 100)
  })

  test('values keep numbers no double holds as strings, with a warning; key order in the input has no effect on results', async () => {
    const data = await run({ input: '{"id": 12345678901234567890, "n": 1.0, "x": 1e400, "ok": 0.1}', action: 'query', path: '$.*' })
    assert.deepEqual(data.result, ['12345678901234567890', 1, '1e400', 0.1])
    assert.deepEqual(data.paths, ["$['id']", "$['n']", "$['x']", "$['ok']"])
    assert.deepEqual(data.warnings, [
      'line 1: the number 12345678901234567890 has no exact JSON double (it would be read as 12345678901234567000), so it is given as a string',
      'line 1: the number 1e400 has no exact JSON double (it would be read as Infinity), so it is given as a string',
    ])
  })

  test('repeated keys: the query sees the last value, and says so', async () => {
    const data = await run({ input: '{"a": 1, "a": 2}', action: 'query', path: '$.a' })
    assert.deepEqual(
      [data.result, data.warnings],
      [[2], ['line 1, column 10: the key "a" repeats the key at line 1, column 2; where the JSON is read into an object, the last one wins']],
    )
  })

  test('a bad query is a 422 with its position; a missing path is a 400', async () => {
    await rejects({ input: '{}', action: 'query', path: '$.a[' }, 'INVALID_INPUT', /not a valid JSONPath query .*at position 4/, { field: 'path', position: 4 })
    await rejects({ input: '{}', action: 'query', path: '$[?length(@) == "a" ]x' }, 'INVALID_INPUT', /not a valid JSONPath/)
    await expectRefusal(run({ input: '{}', action: 'query' }), { code: 'VALIDATION_ERROR', field: 'path' })
    await expectRefusal(run({ input: '{}', action: 'pointer' }), { code: 'VALIDATION_ERROR', field: 'pointer' })
  })

  test('descent reaches every level of a 100-level document; a query that matches too much stops at the output limit', async () => {
    const deep = await queryOf(JSON.parse(nested(100)), '$..*')
    assert.equal(deep.values.length, 99)
    assert.equal(deep.paths.at(-1), `$${'[0]'.repeat(99)}`)
    // Each of the 99 matches holds the 200 KB string: about 20 MB in all.
    const heavy = `${'['.repeat(99)}"${'x'.repeat(200_000)}"${']'.repeat(99)}`
    await rejects({ input: heavy, action: 'query', path: '$..*' }, 'LIMIT_EXCEEDED', /output limit/)
    const lighter = heavy.replace('x'.repeat(100_000), '')
    assert.equal(((await run({ input: lighter, action: 'query', path: '$..*' })).result as unknown[]).length, 99, 'half of it, about 10 MB, is fine')
  })

  test(`a query may match ${MAX_QUERY_VALUES} values, and is refused at the next one, however little each would take`, async () => {
    const zeros = `[${Array(MAX_QUERY_VALUES).fill(0).join(',')}]`
    assert.equal(((await run({ input: zeros, action: 'query', path: '$[*]' })).result as unknown[]).length, MAX_QUERY_VALUES)
    await rejects({ input: zeros, action: 'query', path: '$[*,0]' }, 'LIMIT_EXCEEDED', new RegExp(`matches more than ${MAX_QUERY_VALUES} values`), {
      field: 'path',
      limit: MAX_QUERY_VALUES,
    })
  })

  test(`a wildcard, slice or filter runs over arrays and objects of at most ${MAX_QUERY_VALUES} members, which the query engine gathers at once; names and indexes over any`, async () => {
    const members = MAX_QUERY_VALUES + 1
    const input = JSON.stringify({ wide: Array(members).fill(0), narrow: [1, 2] })
    for (const path of ['$.wide[*]', '$.wide[1:3]', '$.wide[?@ > 0]', '$..*', '$.narrow[*]']) {
      await rejects({ input, action: 'query', path }, 'LIMIT_EXCEEDED', new RegExp(`an array or object of ${members} members`), {
        field: 'path',
        limit: MAX_QUERY_VALUES,
        members,
      })
    }
    assert.deepEqual((await run({ input, action: 'query', path: '$.wide[100000]' })).result, [0])
    assert.deepEqual((await run({ input, action: 'query', path: '$..narrow[1]' })).result, [2])
  })

  test('a regular expression with catastrophic backtracking runs on a worker, within the time budget', async () => {
    const input = JSON.stringify([`${'a'.repeat(40)}!`])
    const validated = validate<Parameters<typeof json.run>[0]>(json.input, { input, action: 'query', path: '$[?match(@, "(a|a)*b")]' })
    assert.ok(json.offload!(validated))
    await expectRefusal(execute(json, validated, { timeBudgetMs: 300 }), { code: 'TIMEOUT' })
  })
})

describe('json pointer (RFC 6901)', () => {
  // RFC 6901 §5: the document and the pointers of its example.
  const doc = '{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\\\j": 5, "k\\"l": 6, " ": 7, "m~n": 8}'
  const parsed = JSON.parse(doc)

  test('RFC 6901 §5, the JSON string representation', async () => {
    const cases: Array<[string, unknown]> = [
      ['', parsed],
      ['/foo', ['bar', 'baz']],
      ['/foo/0', 'bar'],
      ['/', 0],
      ['/a~1b', 1],
      ['/c%d', 2],
      ['/e^f', 3],
      ['/g|h', 4],
      ['/i\\j', 5],
      ['/k"l', 6],
      ['/ ', 7],
      ['/m~0n', 8],
    ]
    for (const [pointer, expected] of cases) assert.deepEqual(await pointerOf(doc, pointer), expected, pointer)
  })

  test('RFC 6901 §6, the URI fragment representation', async () => {
    const cases: Array<[string, unknown]> = [
      ['#', parsed],
      ['#/foo', ['bar', 'baz']],
      ['#/foo/0', 'bar'],
      ['#/', 0],
      ['#/a~1b', 1],
      ['#/c%25d', 2],
      ['#/e%5Ef', 3],
      ['#/g%7Ch', 4],
      ['#/i%5Cj', 5],
      ['#/k%22l', 6],
      ['#/%20', 7],
      ['#/m~0n', 8],
    ]
    for (const [pointer, expected] of cases) assert.deepEqual(await pointerOf(doc, pointer), expected, pointer)
  })

  test('what does not resolve is a 422 that names where it stopped', async () => {
    await rejects({ input: doc, action: 'pointer', pointer: '/foo/2' }, 'INVALID_INPUT', /array at '\/foo' has 2 elements/, { path: '/foo' })
    await rejects({ input: doc, action: 'pointer', pointer: '/foo/-' }, 'INVALID_INPUT', /'-' names the element after the last/)
    await rejects({ input: doc, action: 'pointer', pointer: '/foo/01' }, 'INVALID_INPUT', /not an array index/)
    await rejects({ input: doc, action: 'pointer', pointer: '/nope' }, 'INVALID_INPUT', /the object at '' has no member "nope"/)
    await rejects({ input: doc, action: 'pointer', pointer: '/foo/0/x' }, 'INVALID_INPUT', /the value at '\/foo\/0' is "bar", not an object or array/)
    await rejects({ input: doc, action: 'pointer', pointer: 'foo' }, 'INVALID_INPUT', /must be empty .* or start with \//)
    await rejects({ input: doc, action: 'pointer', pointer: '/m~2n' }, 'INVALID_INPUT', /~ at position 2 not followed by 0 or 1/, { position: 2 })
    await rejects({ input: doc, action: 'pointer', pointer: '#/%FF' }, 'INVALID_INPUT', /percent-encoding/)
  })

  test('the value keeps big numbers as strings; an escaped lone surrogate cannot be a value', async () => {
    assert.deepEqual(await run({ input: '{"a": [9007199254740993]}', action: 'pointer', pointer: '/a/0' }), {
      result: '9007199254740993',
      action: 'pointer',
      warnings: ['line 1: the number 9007199254740993 has no exact JSON double (it would be read as 9007199254740992), so it is given as a string'],
    })
    await rejects({ input: '{"a": "\\udc00"}', action: 'pointer', pointer: '/a' }, 'INVALID_INPUT', /lone surrogate/, { line: 1, column: 7 })
  })
})

describe('json internals', () => {
  test('isExactNumber compares decimal values, not spellings', () => {
    for (const text of ['0', '-0', '1.0', '1e2', '1E+2', '100e-2', '0.1', '5e-324', '1.7976931348623157e308', '9007199254740992', '123.450']) {
      assert.ok(isExactNumber(text), text)
    }
    for (const text of ['9007199254740993', '12345678901234567890', '1e400', '0.10000000000000000001', '2e-400']) assert.ok(!isExactNumber(text), text)
  })

  test('large inputs and filters run on a worker thread; small plain work does not', () => {
    const offloads = (input: Record<string, unknown>) => json.offload!(validate(json.input, input))
    assert.ok(offloads({ input: `[${'1,'.repeat(JSON_OFFLOAD_THRESHOLD)}1]` }))
    assert.ok(offloads({ input: '[]', action: 'query', path: '$[?@ > 1]' }))
    assert.ok(offloads({ input: '[]', action: 'query', path: '$..a..b' }))
    assert.ok(!offloads({ input: '[]', action: 'query', path: '$..a' }))
    assert.ok(!offloads({ input: '{"a":1}' }))
    // Queries that may write far more than they read: several selectors in a segment always, a descendant, wildcard or slice past a small input.
    assert.ok(offloads({ input: '[[1]]', action: 'query', path: '$[0,0][0,0]' }))
    const wide = `[${'1,'.repeat(QUERY_OFFLOAD_THRESHOLD)}1]`
    for (const path of ['$..a', '$.*', '$[1:]']) assert.ok(offloads({ input: wide, action: 'query', path }), path)
    assert.ok(!offloads({ input: wide, action: 'query', path: '$[0]' }))
  })

  test('a descendant query whose matches and paths would pass the output limit is refused, off the event loop', async () => {
    // 14 KB in: every leaf's path repeats 90 keys of 40 characters, so the answer would be about 20 MB.
    const leaf = `[${Array(5000).fill(0).join(',')}]`
    const input = `${`{"${'k'.repeat(40)}":`.repeat(90)}${leaf}${'}'.repeat(90)}`
    assert.ok(json.offload!(validate(json.input, { input, action: 'query', path: '$..*' })))
    const started = performance.now()
    await expectRefusal(execute(json, { input, action: 'query', path: '$..*' }, { timeBudgetMs: 60_000 }), { code: 'LIMIT_EXCEEDED' })
    assert.ok(performance.now() - started < 30_000)
  })
})
