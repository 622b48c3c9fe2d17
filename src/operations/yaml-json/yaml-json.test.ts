import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { parse } from 'yaml'
import { cpuTimeOf, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { YAML_OFFLOAD_THRESHOLD } from '../../lib/yaml/yaml-to-json.ts'
import { yamlJson } from './index.ts'

// A roomy budget: these tests are about answers, and a loaded machine can slow the workers a lot.
const run = (input: Record<string, unknown>) => execute(yamlJson, input, { timeBudgetMs: 60_000 })
const toJson = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result
const toYaml = async (input: unknown, options: Record<string, unknown> = {}) => (await run({ input, action: 'jsonToYaml', ...options })).result as string
/** fast-check builds objects without a prototype; JSON text gives them back as the API sees them. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown
const rejects = (input: Record<string, unknown>, code: string, pattern: RegExp, details?: Record<string, unknown>) =>
  expectRefusal(run(input), { code, message: pattern, details })

after(() => closeWorkerPool())

describe('yaml-json yamlToJson', () => {
  test('answers result, action, documents, warnings in that order', async () => {
    const data = await run({ input: 'a: 1\nb: [x, {c: null}]\n' })
    assert.deepEqual(Object.keys(data), ['result', 'action', 'documents', 'warnings'])
    assert.deepEqual(data, { result: { a: 1, b: ['x', { c: null }] }, action: 'yamlToJson', documents: 1, warnings: [] })
  })

  test('YAML 1.2 core schema: yes/no/on are strings, 012 is decimal, 0o and 0x are integers', async () => {
    assert.deepEqual(await toJson('[yes, no, on, off, y, true, False, ~, null, Null, 012, 0o12, 0x1F, 1e3, .5, 1_000, 2001-12-14, "1"]'), [
      'yes',
      'no',
      'on',
      'off',
      'y',
      true,
      false,
      null,
      null,
      null,
      12,
      10,
      31,
      1000,
      0.5,
      '1_000',
      '2001-12-14',
      '1',
    ])
  })

  test('anchors and aliases are expanded; merge keys are honoured, keys written in the mapping win', async () => {
    const yaml = [
      'base: &base {a: 1, b: 2}',
      'more: &more {b: 20, c: 30}',
      'one: {<<: *base, b: 3}',
      'two:',
      '  z: 0',
      '  <<: [*base, *more]',
      '  a: 9',
      'copy: *base',
      'quoted: {"<<": *base}',
    ].join('\n')
    assert.deepEqual(await toJson(yaml), {
      base: { a: 1, b: 2 },
      more: { b: 20, c: 30 },
      one: { a: 1, b: 3 },
      two: { z: 0, a: 9, b: 2, c: 30 },
      copy: { a: 1, b: 2 },
      quoted: { '<<': { a: 1, b: 2 } },
    })
    await rejects({ input: 'a: &a [1]\nb: {<<: *a}' }, 'INVALID_INPUT', /merge key << at line 2 needs a mapping/)
  })

  test('a "billion laughs" document is LIMIT_EXCEEDED, quickly', async () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for (let i = 1; i < 10; i++) {
      const previous = String.fromCharCode(96 + i)
      const name = String.fromCharCode(97 + i)
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`)
    }
    await rejects({ input: levels.join('\n') }, 'LIMIT_EXCEEDED', /expand .* output limit/)
    const cpu = cpuTimeOf(() => assert.throws(() => yamlJson.run(validate(yamlJson.input, { input: levels.join('\n') })), { code: 'LIMIT_EXCEEDED' }))
    assert.ok(cpu < 500, `${cpu} ms`)
    assert.equal(((await toJson(levels.slice(0, 3).join('\n'))) as { c: unknown[] }).c.length, 9, 'modest aliasing is fine')
  })

  test('yaml aborts the process composing ~1,200 nested [ (RegExpCompiler Allocation failed): depth is checked first', async () => {
    const flows = ['['.repeat(5000), '{'.repeat(5000), '['.repeat(5000) + ']'.repeat(5000), '[{'.repeat(2500), `${'- '.repeat(5000)}x`, `${'? '.repeat(3000)}x`]
    for (let round = 0; round < 3; round++) {
      for (const input of flows) {
        await rejects({ input }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
        // The same in process, where the whole server would go down.
        assert.throws(() => yamlJson.run({ input, action: 'yamlToJson', multiDocument: false, indent: 2, sortKeys: false, lineWidth: 80 }), {
          code: 'LIMIT_EXCEEDED',
        })
      }
    }
    const blocks = [
      Array.from({ length: 1300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
      Array.from({ length: 1300 }, (_, i) => `${' '.repeat(i)}-`).join('\n'),
    ]
    for (const input of blocks) await rejects({ input }, 'LIMIT_EXCEEDED', /deeper than 100 levels \(at line 101/)
    assert.deepEqual(await toJson('a: [1, {b: 2}]'), { a: [1, { b: 2 }] }, 'a normal parse still works')
    assert.deepEqual(await toJson(`a: [1, {b: 2}]\nc: ${'x'.repeat(2000)}`), { a: [1, { b: 2 }], c: 'x'.repeat(2000) }, 'and on a worker')
  })

  test('nesting: 100 levels are fine, 101 are refused, through aliases too', async () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
    let value = await toJson(nested(100))
    let depth = 0
    while (Array.isArray(value) && value.length > 0) [value, depth] = [value[0], depth + 1]
    assert.equal(depth, 99)
    await rejects({ input: nested(101) }, 'LIMIT_EXCEEDED', /deeper than 100 levels \(at line 1, column 101\)/, { line: 1, column: 101 })
    await rejects({ input: `a: &a ${nested(60)}\nb: &b ${'['.repeat(50)}*a${']'.repeat(50)}` }, 'LIMIT_EXCEEDED', /Through its aliases .* deeper than 100/)
  })

  test('duplicate keys are a 422 with the line; 40,000 keys are read in linear time (yaml’s own check is quadratic)', async () => {
    await rejects({ input: 'a: 1\nb: 2\na: 3\n' }, 'INVALID_INPUT', /key 'a' at line 3, column 1 repeats the key of line 1/, { line: 3, firstLine: 1 })
    await rejects({ input: '{1: a, "1": b}' }, 'INVALID_INPUT', /key '1'/)
    const keys = Array.from({ length: 40_000 }, (_, i) => `key${i}: ${i}`)
    const result = (await toJson(keys.join('\n'))) as Record<string, number>
    assert.equal(Object.keys(result).length, 40_000)
    assert.equal(result.key39999, 39_999)
    // CPU time, in process, so that a busy machine does not fail the test: about 0.6 s here, while
    // yaml's own quadratic uniqueKeys check takes about 25 s on these keys.
    const cpu = cpuTimeOf(() => yamlJson.run(validate(yamlJson.input, { input: keys.join('\n') })))
    assert.ok(cpu < 8000, `40,000 keys took ${cpu} ms of CPU`)
    await rejects({ input: [...keys, 'key7: again'].join('\n') }, 'INVALID_INPUT', /key 'key7' at line 40001, column 1 repeats the key of line 8/)
  })

  test('an undefined alias or a cycle is a 422 (yaml throws a plain ReferenceError there)', async () => {
    await rejects({ input: 'a: 1\nb: *nope\n' }, 'INVALID_INPUT', /alias \*nope at line 2, column 4 refers to no anchor/, { line: 2, column: 4 })
    await rejects({ input: 'a: *b\nb: &b 1' }, 'INVALID_INPUT', /no anchor &b defined before it/)
    await rejects({ input: 'a: &a [1, *a]' }, 'INVALID_INPUT', /cycle/)
  })

  test('syntax errors are 422s with line and column', async () => {
    await rejects({ input: 'a: [1, 2\nb: 3' }, 'INVALID_INPUT', /line \d+, column \d+/)
    await rejects({ input: 'a:\n  b: 1\n c: 2' }, 'INVALID_INPUT', /not valid at line 3/)
    await rejects({ input: 'key: "unterminated' }, 'INVALID_INPUT', /not valid at line 1/)
    await rejects({ input: '- a\nb: c' }, 'INVALID_INPUT', /not valid at line 2/)
  })

  test('integers beyond 2^53 and .inf/.nan come back as strings, each with a warning', async () => {
    const data = await run({
      input:
        'safe: 9007199254740991\nbig: 9007199254740993\nneg: -123456789012345678901\nhex: 0xFFFFFFFFFFFFFFFFF\ninf: .inf\nninf: -.Inf\nnan: .NaN\nhuge: 1e400\n',
    })
    assert.deepEqual(data.result, {
      safe: 9007199254740991,
      big: '9007199254740993',
      neg: '-123456789012345678901',
      hex: '295147905179352825855',
      inf: '.inf',
      ninf: '-.inf',
      nan: '.nan',
      huge: '.inf',
    })
    const warnings = data.warnings as string[]
    assert.equal(warnings.length, 7)
    assert.match(warnings[0], /^line 2: the integer 9007199254740993 is beyond 2\^53/)
    assert.match(warnings[4], /^line 6: -\.inf has no JSON number/)
  })

  test('tags are never executed: unknown tags are ignored with a warning and the plain value kept', async () => {
    const data = await run({
      input: 'f: !!js/function "function () { process.exit(1) }"\nb: !!binary aGk=\nc: !custom {x: 1}\nd: !!str 123\ne: !!int "12"\ns: !!set {a, b}\n',
    })
    assert.deepEqual(data.result, { f: 'function () { process.exit(1) }', b: 'aGk=', c: { x: 1 }, d: '123', e: 12, s: { a: null, b: null } })
    const warnings = data.warnings as string[]
    assert.equal(warnings.length, 4)
    assert.match(warnings[0], /^line 1, column 4: Unresolved tag: tag:yaml.org,2002:js\/function; the tag was ignored and the plain value kept$/)
    assert.match(warnings[2], /!custom/)
  })

  test('multiDocument: several documents without it are a 422; with it the result is always an array', async () => {
    await rejects({ input: '--- 1\n--- 2\n' }, 'INVALID_INPUT', /holds 2 YAML documents; set multiDocument/)
    assert.deepEqual(await run({ input: '--- 1\n--- {a: b}\n', multiDocument: true }), {
      result: [1, { a: 'b' }],
      action: 'yamlToJson',
      documents: 2,
      warnings: [],
    })
    assert.deepEqual(await toJson('a: 1', { multiDocument: true }), [{ a: 1 }])
    assert.deepEqual(await run({ input: '' }), { result: null, action: 'yamlToJson', documents: 0, warnings: [] })
    assert.deepEqual(await toJson('# only a comment\n', { multiDocument: true }), [])
  })

  test('keys: __proto__ stays an own key, scalars give their text, collections their JSON text', async () => {
    const result = (await toJson('__proto__: {polluted: true}\nconstructor: 1\n1: one\n~: nothing\ntrue: yes')) as Record<string, unknown>
    assert.deepEqual(Object.keys(result), ['1', '__proto__', 'constructor', 'null', 'true'])
    assert.equal(Object.getPrototypeOf(result), Object.prototype)
    assert.equal(({} as Record<string, unknown>).polluted, undefined)
    const complex = await run({ input: '? [a, b]\n: c' })
    assert.deepEqual(complex.result, { '["a","b"]': 'c' })
    assert.match((complex.warnings as string[])[0], /collection used as a key/)
  })

  test('a lone surrogate written as an escape is refused', async () => {
    await rejects({ input: 'a: "\\ud800"' }, 'INVALID_INPUT', /lone surrogate/)
  })

  test('yamlToJson takes only a string (400)', async () => {
    await assert.rejects(run({ input: { a: 1 } }), { code: 'VALIDATION_ERROR', message: /must be YAML text/ })
    await assert.rejects(run({ input: 'a', action: 'toJson' }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: 'a', multiDocument: 1 }), { code: 'VALIDATION_ERROR' })
  })
})

/** Strings that YAML 1.1 or 1.2 readers take for something else when written plain. */
const TRICKY = [
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'Y',
  'N',
  'YES',
  'No',
  'On',
  'OFF',
  'true',
  'False',
  'null',
  'Null',
  '~',
  '',
  ' ',
  '012',
  '0o12',
  '0x1F',
  '0b101',
  '1e3',
  '1E+3',
  '1_000',
  '+12',
  '-0',
  '.5',
  '1.',
  '.inf',
  '-.Inf',
  '.NaN',
  '1:20',
  '190:20:30.15',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10 -5',
  '<<',
  '=',
  '- a',
  'a: b',
  '#x',
  '&a',
  '*a',
  '!x',
  '%x',
  '@x',
  '`x',
  '|',
  '>',
  '"',
  "'",
  '?',
  ':',
  '-',
  '---',
  '...',
  'a #b',
  'a\nb',
  ' lead',
  'trail ',
  '\ufeffbom',
  'x\u0085y',
  'a\u2028b',
  '\t',
]

describe('yaml-json jsonToYaml', () => {
  test('answers result and action', async () => {
    const data = await run({ input: { a: [1, 'x'] }, action: 'jsonToYaml' })
    assert.deepEqual(data, { result: 'a:\n  - 1\n  - x\n', action: 'jsonToYaml' })
  })

  test('strings YAML 1.1 would read as something else are quoted, as keys and values, and read back the same under 1.1 and 1.2', async () => {
    const object = Object.fromEntries(TRICKY.map((text) => [text, text]))
    const input = { map: object, list: TRICKY }
    const yaml = await toYaml(input)
    for (const version of ['1.1', '1.2'] as const) {
      assert.deepEqual(parse(yaml, { version }), input, `YAML ${version}`)
    }
    assert.deepEqual(await toJson(yaml), input)
    assert.match(yaml, /^ {2}"yes": "yes"$/m)
    assert.match(yaml, /^ {2}"=": "="$/m)
  })

  test('numbers read back as the same numbers under YAML 1.1, 1.2 and yamlToJson (1e+21 is written 1.0e+21)', async () => {
    const numbers = [0, 1, -5, 0.1, 1.5, 1e21, -1e21, 1e-7, 5e-324, 1.7976931348623157e308, 123456789012, 2 ** 53 - 1, 2 ** 53, 1e20]
    const yaml = await toYaml(numbers)
    assert.match(yaml, /^- 1\.0e\+21$/m)
    assert.match(yaml, /^- 9\.007199254740992e\+15$/m, 'an integer beyond 2^53 is written as a float')
    for (const version of ['1.1', '1.2'] as const) assert.deepEqual(parse(yaml, { version }), numbers, `YAML ${version}`)
    assert.deepEqual(await run({ input: yaml }), { result: numbers, action: 'yamlToJson', documents: 1, warnings: [] })
  })

  test('property: any JSON value reads back the same under YAML 1.1, 1.2 and yamlToJson', async () => {
    const text = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom(...TRICKY))
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(null, true, false),
        fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
        fc.integer(),
        text,
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    })).value
    await fc.assert(
      fc.asyncProperty(json.map(asJson), fc.integer({ min: 1, max: 8 }), fc.constantFrom(0, 20, 80), fc.boolean(), async (value, indent, lineWidth, asText) => {
        // A string input is JSON text, so a string value is sent as its JSON text.
        const yaml = await toYaml(asText || typeof value === 'string' ? JSON.stringify(value) : value, { indent, lineWidth })
        for (const version of ['1.1', '1.2'] as const) assert.deepEqual(parse(yaml, { version, uniqueKeys: true }), value, `YAML ${version}:\n${yaml}`)
        assert.deepEqual(await toJson(yaml), value)
      }),
      { numRuns: 200 },
    )
  })

  test('indent, sortKeys and lineWidth', async () => {
    assert.equal(await toYaml({ b: { d: 1, c: [2] }, a: 0 }, { indent: 4, sortKeys: true }), 'a: 0\nb:\n    c:\n        - 2\n    d: 1\n')
    const long = 'word '.repeat(40).trim()
    assert.equal(await toYaml({ t: long }, { lineWidth: 0 }), `t: ${long}\n`)
    const folded = await toYaml({ t: long }, { lineWidth: 40 })
    assert.ok(
      folded.split('\n').every((line) => line.length <= 45),
      folded,
    )
    assert.deepEqual(parse(folded), { t: long })
    await assert.rejects(run({ input: {}, action: 'jsonToYaml', indent: 9 }), { code: 'VALIDATION_ERROR', message: /indent must be <= 8/ })
    await assert.rejects(run({ input: {}, action: 'jsonToYaml', indent: 0 }), { code: 'VALIDATION_ERROR' })
  })

  test('a string input is JSON text; invalid JSON text is a 422 with its position', async () => {
    assert.equal(await toYaml('{"a": [true, null]}'), 'a:\n  - true\n  - null\n')
    assert.equal(await toYaml('"yes"'), '"yes"\n')
    assert.equal(await toYaml('42'), '42\n')
    await rejects({ input: '{"a": tru}', action: 'jsonToYaml' }, 'INVALID_INPUT', /line 1, column 7 \(position 6\)/, { position: 6 })
    await rejects({ input: 'plain words', action: 'jsonToYaml' }, 'INVALID_INPUT', /not valid JSON text/)
    await rejects({ input: '["\\ud800"]', action: 'jsonToYaml' }, 'INVALID_INPUT', /lone surrogate/)
  })

  test('keys such as prototype, constructor and __proto__ are written like any other', async () => {
    const value = JSON.parse('{"prototype":1,"constructor":2,"__proto__":3}') as unknown
    assert.equal(await toYaml(value), 'prototype: 1\nconstructor: 2\n__proto__: 3\n')
  })

  test('shared values are written in full, never as YAML aliases', async () => {
    const shared = { x: 1 }
    assert.equal(await toYaml({ a: shared, b: shared }), 'a:\n  x: 1\nb:\n  x: 1\n')
  })

  test('JSON nested deeper than 100 levels is LIMIT_EXCEEDED, never a stack overflow', async () => {
    await rejects({ input: '['.repeat(300_000) + ']'.repeat(300_000), action: 'jsonToYaml' }, 'LIMIT_EXCEEDED', /deeper than 100/)
    let value: unknown = 1
    for (let i = 0; i < 101; i++) value = { k: value }
    await rejects({ input: value, action: 'jsonToYaml' }, 'LIMIT_EXCEEDED', /deeper than 100/)
  })

  test('output that indentation would multiply past 16 MiB is refused before it is written', async () => {
    let value: unknown = Array.from({ length: 30_000 }, () => 'folded text '.repeat(8))
    for (let i = 0; i < 95; i++) value = [value]
    const input = { input: value, action: 'jsonToYaml', indent: 8, lineWidth: 20 }
    await rejects(input, 'LIMIT_EXCEEDED', /output limit/)
    const cpu = cpuTimeOf(() => assert.throws(() => yamlJson.run(validate(yamlJson.input, input)), { code: 'LIMIT_EXCEEDED' }))
    assert.ok(cpu < 1000, `${cpu} ms`)
  })
})

describe('yaml-json heavy inputs', () => {
  test(`inputs over ${YAML_OFFLOAD_THRESHOLD} characters run on a worker and answer as in process, errors included`, async () => {
    const yaml = Array.from({ length: 300 }, (_, i) => `- {id: ${i}, name: "item ${i}", big: ${2 ** 60 + i}}`).join('\n')
    assert.ok(yamlJson.offload!(validate(yamlJson.input, { input: yaml })))
    assert.ok(!yamlJson.offload!(validate(yamlJson.input, { input: 'a: 1' })))
    const viaWorker = await run({ input: yaml })
    assert.deepEqual(viaWorker, await yamlJson.run(validate(yamlJson.input, { input: yaml })))
    await rejects({ input: `${yaml}\n- *missing` }, 'INVALID_INPUT', /alias \*missing at line 301/)
    await rejects({ input: `${yaml}\n- ${'['.repeat(200)}${']'.repeat(200)}` }, 'LIMIT_EXCEEDED', /deeper than 100 levels \(at line 301/)
    const back = await run({ input: viaWorker.result, action: 'jsonToYaml' })
    assert.deepEqual(await toJson(back.result as string), viaWorker.result)
  })
})
