import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOf, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { CSV_OFFLOAD_THRESHOLD, csvJson, JSON_TO_CSV_OFFLOAD_THRESHOLD, MAX_FIELDS_PER_RECORD, RELAXED_CSV_OFFLOAD_THRESHOLD } from './index.ts'

// A roomy budget: these tests are about answers, and a loaded machine can slow the workers a lot.
const run = (input: Record<string, unknown>) => execute(csvJson, input, { timeBudgetMs: 60_000 })
const toJson = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result
const toCsv = async (input: unknown, options: Record<string, unknown> = {}) => (await run({ input, action: 'jsonToCsv', ...options })).result as string
const rejects = (input: Record<string, unknown>, code: string, pattern: RegExp, details?: Record<string, unknown>) =>
  expectRefusal(run(input), { code, message: pattern, details })

after(() => closeWorkerPool())

/** Values that dynamicTyping must leave as text: JSON has no exact number or boolean for them. */
const KEPT_AS_TEXT = ['007', '0x1F', '+1', '-0', '1_000', '9007199254740993', '12345678901234567', '1.2345678901234567', '1e400', 'NaN', ' 1', 'yes']

describe('csv-json csvToJson', () => {
  test('answers result, action, rows, columns, delimiter, warnings in that order', async () => {
    const data = await run({ input: 'a,b\n1,2\n' })
    assert.deepEqual(Object.keys(data), ['result', 'action', 'rows', 'columns', 'delimiter', 'warnings'])
    assert.deepEqual(data, { result: [{ a: '1', b: '2' }], action: 'csvToJson', rows: 1, columns: ['a', 'b'], delimiter: ',', warnings: [] })
  })

  test('RFC 4180: quoted delimiters, doubled quotes and line breaks inside quotes', async () => {
    assert.deepEqual(await toJson('a,b,c\n"x, y","say ""hi""","line 1\r\nline 2"\n'), [{ a: 'x, y', b: 'say "hi"', c: 'line 1\r\nline 2' }])
  })

  test('CRLF, LF and lone CR line ends, mixed in one file; the final line break is optional', async () => {
    const expected = [
      { a: '1', b: '2' },
      { a: '3', b: '4' },
      { a: '5', b: '6' },
    ]
    assert.deepEqual(await toJson('a,b\r\n1,2\r\n3,4\r\n5,6\r\n'), expected)
    assert.deepEqual(await toJson('a,b\r\n1,2\n3,4\r5,6'), expected)
  })

  test('a byte-order mark is dropped', async () => {
    const data = await run({ input: '\ufeffid,name\n1,x' })
    assert.deepEqual(data.columns, ['id', 'name'])
    assert.deepEqual(data.result, [{ id: '1', name: 'x' }])
  })

  test('detects ; tab and | even with a trailing line break (papaparse guesses , there)', async () => {
    for (const delimiter of [';', '\t', '|']) {
      const data = await run({ input: `a${delimiter}b\n1${delimiter}2\n`, skipEmptyLines: false })
      assert.equal(data.delimiter, delimiter)
      assert.deepEqual(data.result, [{ a: '1', b: '2' }])
    }
    const quoted = await run({ input: 'a;b\n"1,5";2\n' })
    assert.equal(quoted.delimiter, ';')
    assert.deepEqual(quoted.result, [{ a: '1,5', b: '2' }])
    assert.equal((await run({ input: 'single\nx\n' })).delimiter, ',')
    assert.deepEqual(await toJson('a;b\n1;2', { delimiter: ',' }), [{ 'a;b': '1;2' }])
  })

  test('header false gives arrays and no column names', async () => {
    const data = await run({ input: 'a,b\n1,2', header: false })
    assert.deepEqual(data.result, [
      ['a', 'b'],
      ['1', '2'],
    ])
    assert.deepEqual(data.columns, [])
    assert.equal(data.rows, 2)
  })

  test('dynamicTyping converts only unambiguous values', async () => {
    const csv = `v\n${['1', '-12.5', '1.5e3', '0', '0.25', 'true', 'FALSE', '', ...KEPT_AS_TEXT].join('\n')}`
    const rows = (await toJson(csv, { dynamicTyping: true, skipEmptyLines: false })) as Array<{ v: unknown }>
    assert.deepEqual(
      rows.map((row) => row.v),
      [1, -12.5, 1500, 0, 0.25, true, false, null, ...KEPT_AS_TEXT],
    )
    assert.deepEqual(await toJson('a\n1'), [{ a: '1' }], 'strings without dynamicTyping')
  })

  test('skipEmptyLines skips blank lines; without it a blank line is a row', async () => {
    assert.deepEqual(await toJson('a\n\nx\n  \ny\n'), [{ a: 'x' }, { a: 'y' }])
    assert.deepEqual(await toJson('a\n\nx', { skipEmptyLines: false }), [{ a: '' }, { a: 'x' }])
    assert.deepEqual(await toJson('a\n""\n'), [{ a: '' }], 'a quoted empty field is not a blank line')
    await rejects({ input: 'a,b\n\n1,2', skipEmptyLines: false }, 'INVALID_INPUT', /Row 1 \(line 2\) has 1 field but the header has 2/)
  })

  test('a row of another length is a 422 naming the row and line, unless relaxColumnCount', async () => {
    await rejects({ input: 'a,b\n1,2\n3\n' }, 'INVALID_INPUT', /Row 2 \(line 3\) has 1 field but the header has 2; set relaxColumnCount/, { row: 2, line: 3 })
    await rejects({ input: 'a,b\n1,2,3' }, 'INVALID_INPUT', /Row 1 \(line 2\) has 3 fields/)
    await rejects({ input: 'a,b\n1,2,3', header: false }, 'INVALID_INPUT', /the first row has 2/)
    assert.deepEqual(await toJson('a,b,_extra\n1\n1,2,3,4,5', { relaxColumnCount: true }), [
      { a: '1', b: null, _extra_2: null },
      { a: '1', b: '2', _extra_2: '3', _extra: ['4', '5'] },
    ])
    assert.deepEqual(await toJson('a,b\n1\n1,2,3', { relaxColumnCount: true, header: false }), [
      ['a', 'b'],
      ['1', null],
      ['1', '2', '3'],
    ])
  })

  test('duplicate header names get _2, _3… and a warning, without taking a later name', async () => {
    const data = await run({ input: 'a,a,a,a_2\n1,2,3,4' })
    assert.deepEqual(data.columns, ['a', 'a_3', 'a_4', 'a_2'])
    assert.deepEqual(data.result, [{ a: '1', a_3: '2', a_4: '3', a_2: '4' }])
    assert.deepEqual(data.warnings, ["Column 2 repeats the name 'a' and was renamed 'a_3'", "Column 3 repeats the name 'a' and was renamed 'a_4'"])
    const many = await run({ input: `${Array(30).fill('x').join(',')}\n${Array(30).fill('1').join(',')}` })
    assert.equal((many.warnings as string[]).length, 21)
    assert.match((many.warnings as string[])[20], /and 9 more/)
  })

  test('__proto__ and constructor headers are ordinary own keys (papaparse drops __proto__)', async () => {
    const [row] = (await toJson('__proto__,constructor,x\n1,2,3')) as Array<Record<string, unknown>>
    assert.deepEqual(Object.keys(row), ['__proto__', 'constructor', 'x'])
    assert.equal(Object.getPrototypeOf(row), Object.prototype)
    assert.equal(JSON.stringify(row), '{"__proto__":"1","constructor":"2","x":"3"}')
    assert.equal(({} as Record<string, unknown>).x, undefined, 'no prototype was polluted')
  })

  test('an unclosed quote is a 422 with its line; so is text after a closing quote', async () => {
    await rejects({ input: 'a,b\n1,2\n3,"four\n5,6\n' }, 'INVALID_INPUT', /starts at line 3, column 3 is never closed/, { line: 3, column: 3 })
    await rejects({ input: 'a,b\n1,"2"x\n' }, 'INVALID_INPUT', /followed by 'x' at line 2, column 6/, { line: 2, column: 6 })
    await rejects({ input: 'a\n"multi\nline" x' }, 'INVALID_INPUT', /line 3/)
  })

  test('a quote inside an unquoted field is kept as a character', async () => {
    assert.deepEqual(await toJson('h\n5\'11"'), [{ h: '5\'11"' }])
  })

  test('output amplification: a wide header repeated on every row is refused before the rows are built', async () => {
    const header = Array.from({ length: 1000 }, (_, i) => `a_rather_long_column_name_number_${i}`).join(',')
    const row = ','.repeat(999)
    const csv = `${header}\n${Array(400).fill(row).join('\n')}`
    assert.ok(csv.length < 500_000)
    await rejects({ input: csv }, 'LIMIT_EXCEEDED', /output limit/)
    // In process, measured in CPU time: the 78 MB of JSON it would make are never built.
    const cpu = cpuTimeOf(() => assert.throws(() => csvJson.run(validate(csvJson.input, { input: csv })), { code: 'LIMIT_EXCEEDED' }))
    assert.ok(cpu < 1000, `${cpu} ms`)
  })

  test('a delimiter that ends the input ends the record with one empty field, as it does before a line break', async () => {
    for (const [csv, fields] of [
      ['a,', ['a', '']],
      ['a,\n', ['a', '']],
      [',', ['', '']],
      ['a;b;', ['a', 'b', '']],
    ] as const) {
      assert.deepEqual((await run({ input: csv, header: false })).result, [fields], JSON.stringify(csv))
    }
  })

  test('a record of more than 100,000 fields is refused with its line, header or not; 100,000 are read', async () => {
    const commas = (fields: number) => ','.repeat(fields - 1)
    const widest = await run({ input: commas(MAX_FIELDS_PER_RECORD), header: false })
    assert.equal((widest.result as string[][])[0].length, MAX_FIELDS_PER_RECORD)
    await rejects({ input: `${commas(MAX_FIELDS_PER_RECORD + 1)}\n` }, 'LIMIT_EXCEEDED', /line 1 has more than 100,000 fields/, { line: 1 })
    await rejects({ input: `a,b\n1,2\n"x\ny"${','.repeat(MAX_FIELDS_PER_RECORD)}`, header: false, delimiter: ',' }, 'LIMIT_EXCEEDED', /line 3/, { line: 3 })
  })

  test('bounds in the schema are 400s; arrays are for jsonToCsv', async () => {
    await assert.rejects(run({ input: 'a', delimiter: ':' }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: 'a', header: 'yes' }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: [{ a: 1 }] }), { code: 'VALIDATION_ERROR', message: /must be CSV text/ })
    await assert.rejects(run({ input: 'a', extra: 1 }), { code: 'VALIDATION_ERROR' })
  })

  test('empty input, and a header alone', async () => {
    assert.deepEqual(await run({ input: '' }), { result: [], action: 'csvToJson', rows: 0, columns: [], delimiter: ',', warnings: [] })
    const headerOnly = await run({ input: 'a,b\n' })
    assert.deepEqual([headerOnly.result, headerOnly.columns], [[], ['a', 'b']])
  })
})

describe('csv-json jsonToCsv', () => {
  test('answers result, action, rows, columns in that order', async () => {
    const data = await run({ input: [{ a: 1 }], action: 'jsonToCsv' })
    assert.deepEqual(Object.keys(data), ['result', 'action', 'rows', 'columns'])
    assert.deepEqual(data, { result: 'a\r\n1\r\n', action: 'jsonToCsv', rows: 1, columns: ['a'] })
  })

  test('keys such as prototype, constructor and __proto__ are columns like any other', async () => {
    const rows = JSON.parse('[{"prototype":"p","constructor":"c","__proto__":"u","x":"1"}]') as unknown[]
    assert.equal(await toCsv(rows), 'prototype,constructor,__proto__,x\r\np,c,u,1\r\n')
  })

  test('columns are every key in first-seen order across all rows (papaparse unparse reads only the first row)', async () => {
    const data = await run({ input: [{ b: 1 }, { a: 2, b: 3 }, { c: 4 }], action: 'jsonToCsv' })
    assert.deepEqual(data.columns, ['b', 'a', 'c'])
    assert.equal(data.result, 'b,a,c\r\n1,,\r\n3,2,\r\n,,4\r\n')
  })

  test('nested values are JSON text (never [object Object]); null and missing keys are empty fields', async () => {
    assert.equal(await toCsv([{ a: { x: [1, 'y'] }, b: null, c: true, d: 1.5 }]), 'a,b,c,d\r\n"{""x"":[1,""y""]}",,true,1.5\r\n')
  })

  test('columns select and order; header false; quoteAll', async () => {
    const rows = [{ a: 1, b: 2, c: 3 }]
    assert.equal(await toCsv(rows, { columns: ['c', 'a', 'z'] }), 'c,a,z\r\n3,1,\r\n')
    assert.equal(await toCsv(rows, { header: false }), '1,2,3\r\n')
    assert.equal(await toCsv(rows, { quoteAll: true, delimiter: ';' }), '"a";"b";"c"\r\n"1";"2";"3"\r\n')
  })

  test('newline is named, crlf (the default) or lf; the characters themselves are still taken', async () => {
    const rows = [{ a: 1 }, { a: 2 }]
    assert.equal(await toCsv(rows), 'a\r\n1\r\n2\r\n')
    assert.equal(await toCsv(rows, { newline: 'crlf' }), 'a\r\n1\r\n2\r\n')
    assert.equal(await toCsv(rows, { newline: 'lf' }), 'a\n1\n2\n')
    assert.equal(await toCsv(rows, { newline: '\r\n' }), 'a\r\n1\r\n2\r\n')
    assert.equal(await toCsv(rows, { newline: '\n' }), 'a\n1\n2\n')
    for (const newline of ['CRLF', 'cr', '\r', '\n\n', '\r\n\r\n', ' \n', '\\n', 10]) {
      await expectRefusal(run({ input: rows, action: 'jsonToCsv', newline }), {
        code: 'VALIDATION_ERROR',
        field: 'newline',
        message: /^newline must be one of: crlf, lf or the line ending itself \("\\r\\n" or "\\n"\) \(received /,
      })
    }
  })

  test('the published schema of newline names its values and holds no raw line break, so that code generators can use it', () => {
    const { newline } = csvJson.input.properties
    assert.equal(newline.default, 'crlf')
    const published = JSON.stringify(newline)
    assert.doesNotMatch(published, /[\r\n]/)
    const branches: Array<{ enum?: unknown[] }> = JSON.parse(published).anyOf
    assert.deepEqual(
      branches.flatMap((branch) => branch.enum ?? []),
      ['crlf', 'lf'],
    )
  })

  test('quotes fields that need it, and those any auto-detecting reader could split', async () => {
    assert.equal(
      await toCsv([{ v: 'a,b' }, { v: 'say "x"' }, { v: 'l1\nl2' }, { v: 'semi;colon' }, { v: ' pad' }, { v: 'plain' }]),
      'v\r\n"a,b"\r\n"say ""x"""\r\n"l1\nl2"\r\n"semi;colon"\r\n" pad"\r\nplain\r\n',
    )
    assert.equal(await toCsv([{ '': '' }]), '""\r\n""\r\n', 'a lone empty field is written "" so it is not read as a blank line')
  })

  test('escapeFormulae prefixes string fields that a spreadsheet would run', async () => {
    const csv = await toCsv([{ a: '=SUM(A1:A9)', b: '+1', c: '-x', d: '@cmd', e: '\tx', f: 'safe', g: -5 }], { escapeFormulae: true })
    assert.equal(csv, "a,b,c,d,e,f,g\r\n'=SUM(A1:A9),'+1,'-x,'@cmd,\"'\tx\",safe,-5\r\n")
    assert.match(await toCsv([{ a: '=1' }]), /^a\r\n=1/, 'off by default')
  })

  test('arrays of arrays are written as they are; columns give the header line', async () => {
    assert.equal(await toCsv([[1, 'x'], [2]]), '1,x\r\n2\r\n')
    const data = await run({ input: [[1, 2]], action: 'jsonToCsv', columns: ['p', 'q'] })
    assert.deepEqual([data.result, data.columns], ['p,q\r\n1,2\r\n', ['p', 'q']])
  })

  test('JSON text holding the rows is accepted; invalid JSON text is a 422 with its position', async () => {
    assert.equal(await toCsv('[{"a":"x"}]'), 'a\r\nx\r\n')
    await rejects({ input: '[{"a":1},\n {"b" 2}]', action: 'jsonToCsv' }, 'INVALID_INPUT', /line 2, column 7/, { position: 16, line: 2, column: 7 })
    await rejects({ input: '{"a":1}', action: 'jsonToCsv' }, 'INVALID_INPUT', /JSON array of rows/)
  })

  test('rows must all be objects or all arrays', async () => {
    await rejects({ input: '[{"a":1}, 2]', action: 'jsonToCsv' }, 'INVALID_INPUT', /Row 2 is a number/, { row: 2 })
    await rejects({ input: [{ a: 1 }, [1]], action: 'jsonToCsv' }, 'INVALID_INPUT', /Row 2 is an array, but every row must be an object/)
    await assert.rejects(run({ input: [1, 2], action: 'jsonToCsv' }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: [{ a: 1 }], action: 'jsonToCsv', delimiter: 'auto' }), {
      code: 'VALIDATION_ERROR',
      message: /delimiter auto only applies/,
    })
    await assert.rejects(run({ input: [{ a: 1 }], action: 'jsonToCsv', columns: ['a', 'a'] }), { code: 'VALIDATION_ERROR' })
  })

  test('input nested deeper than 100 levels is LIMIT_EXCEEDED, never a stack overflow', async () => {
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
    await rejects({ input: `[{"a":${deep(100)}}]`, action: 'jsonToCsv' }, 'LIMIT_EXCEEDED', /deeper than 100/)
    await rejects({ input: `[${deep(200_000)}]`, action: 'jsonToCsv' }, 'LIMIT_EXCEEDED', /deeper than 100/)
    let value: unknown = []
    for (let i = 0; i < 150; i++) value = [value]
    await rejects({ input: [value], action: 'jsonToCsv' }, 'LIMIT_EXCEEDED', /deeper than 100/)
    assert.equal(await toCsv(`[{"a":${deep(97)}}]`), `a\r\n${deep(97)}\r\n`)
  })

  test('sparse rows whose columns would multiply the output are refused', async () => {
    const rows = Array.from({ length: 6000 }, (_, i) => ({ [`column_${i}`]: 'x' }))
    await rejects({ input: rows, action: 'jsonToCsv' }, 'LIMIT_EXCEEDED', /output limit/)
  })
})

describe('csv-json round trip and heavy inputs', () => {
  const tables = (value: fc.Arbitrary<string>) =>
    fc.uniqueArray(value, { minLength: 1, maxLength: 5 }).chain((keys) =>
      fc.array(
        fc.tuple(...keys.map(() => value)).map((values) => Object.fromEntries(keys.map((key, i) => [key, values[i]]))),
        { maxLength: 6 },
      ),
    )

  test('csvToJson(jsonToCsv(x)) gives back x for flat string-valued rows, with every delimiter', async () => {
    const special = fc.string({ unit: fc.constantFrom(',', ';', '\t', '|', '"', '\r', '\n', ' ', 'a', 'Z', '\ufeff', '=', '\u00e9', '😀') })
    for (const value of [fc.string({ unit: 'binary' }), special]) {
      await fc.assert(
        fc.asyncProperty(
          tables(value),
          fc.constantFrom(',', ';', '\t', '|'),
          fc.constantFrom('crlf', 'lf', '\r\n', '\n'),
          fc.boolean(),
          async (rows, delimiter, newline, asText) => {
            const csv = await toCsv(asText ? JSON.stringify(rows) : rows, { delimiter, newline })
            assert.deepEqual(await toJson(csv), rows)
            assert.deepEqual(await toJson(csv, { delimiter }), rows)
          },
        ),
        { numRuns: 150 },
      )
    }
  })

  test(`inputs over ${CSV_OFFLOAD_THRESHOLD} characters run on a worker and answer as in process`, async () => {
    const csv = `id,name\n${Array.from({ length: 20_000 }, (_, i) => `${i},"name, ${i}"`).join('\n')}`
    assert.ok(csvJson.offload!(validate(csvJson.input, { input: csv })))
    assert.ok(!csvJson.offload!(validate(csvJson.input, { input: 'a\n1' })))
    const input = validate<Parameters<typeof csvJson.run>[0]>(csvJson.input, { input: csv, dynamicTyping: true })
    const viaWorker = await run({ input: csv, dynamicTyping: true })
    assert.deepEqual(viaWorker, await csvJson.run(input))
    await rejects({ input: `${csv}\n1,"open` }, 'INVALID_INPUT', /line 20002/)
  })

  test('outputs that can grow with the square of the input run on a worker sooner: relaxed csvToJson, and jsonToCsv', async () => {
    const offloads = (fields: Record<string, unknown>) => csvJson.offload!(validate(csvJson.input, fields))
    // A string counts as its length plus two (see isLargerThan).
    const text = (size: number) => 'x'.repeat(size - 2)
    assert.equal(offloads({ input: text(RELAXED_CSV_OFFLOAD_THRESHOLD), relaxColumnCount: true }), false)
    assert.equal(offloads({ input: text(RELAXED_CSV_OFFLOAD_THRESHOLD + 1), relaxColumnCount: true }), true)
    assert.equal(offloads({ input: text(RELAXED_CSV_OFFLOAD_THRESHOLD + 1) }), false)
    // jsonToCsv measures input and columns together, as one array.
    assert.equal(offloads({ input: text(JSON_TO_CSV_OFFLOAD_THRESHOLD - 8), action: 'jsonToCsv' }), false)
    assert.equal(offloads({ input: text(JSON_TO_CSV_OFFLOAD_THRESHOLD + 1), action: 'jsonToCsv' }), true)
    const columns = Array.from({ length: JSON_TO_CSV_OFFLOAD_THRESHOLD / 4 }, (_, i) => `c${i}`)
    assert.equal(offloads({ input: [{}], action: 'jsonToCsv', columns: columns.slice(0, 16) }), false)
    assert.equal(offloads({ input: [{}], action: 'jsonToCsv', columns }), true)
    // Rows of one key each: as many columns as rows, and every row written in full.
    const sparse = Array.from({ length: 600 }, (_, i) => ({ [`k${i}`]: i }))
    assert.equal(offloads({ input: sparse, action: 'jsonToCsv' }), true)
    const viaWorker = await run({ input: sparse, action: 'jsonToCsv' })
    assert.deepEqual(viaWorker, await csvJson.run(validate(csvJson.input, { input: sparse, action: 'jsonToCsv' })))
    assert.equal(viaWorker.rows, 600)
  })
})
