import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { jqEqual, jqPasses, readSuite } from '../../../test/jq-suite.ts'
import { checkedInput } from '../../core/checked-input.ts'
import { execute } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { patchJqJs } from './engine.ts'
import { JQ_ERROR_KINDS, JQ_LIMIT_REASONS, jq, MAX_FILTER_LENGTH, MAX_JSON_ARGS_BYTES, MAX_OUTPUTS, MAX_VARIABLES } from './index.ts'

after(() => closeWorkerPool())

/** Budgets that a busy machine never exhausts: only the test of the time budget sets a short one. */
const ROOMY = { timeBudgetMs: 60_000, codeBudgets: { jqTimeBudgetMs: 60_000 } }

/**
 * Starts a worker thread with time to spare: a thread stopped past its budget is replaced, and a new
 * one loading the sources (tsx) takes longer than jq's own budget, which counts the wait.
 */
const warm = () => execute(jq, { filter: '.' }, ROOMY)
before(warm)

const run = (input: Record<string, unknown>) => execute(jq, input, ROOMY)
/** The operation on this thread, past the same checks: for many calls, where the worker's hop would only add time. */
const runHere = (input: Record<string, unknown>) => Promise.resolve(jq.run(checkedInput(jq, input) as never))

/** Vectors of jq 1.7.1's tests/jq.test (test/fixtures/suites/jq), through the whole operation. */
const KNOWN_ANSWERS: Array<{ filter: string; input: string; result: unknown[] }> = [
  { filter: '[limit(3; .[])]', input: '[11,22,33,44,55,66,77,88,99]', result: [[11, 22, 33]] },
  { filter: 'reduce .[] as $x (0; . + $x)', input: '[1,2,4]', result: [7] },
  { filter: '[paths]', input: '[1,[[],{"a":2}]]', result: [[[0], [1], [1, 0], [1, 1], [1, 1, 'a']]] },
  {
    filter: 'to_entries',
    input: '{"a": 1, "b": 2}',
    result: [
      [
        { key: 'a', value: 1 },
        { key: 'b', value: 2 },
      ],
    ],
  },
  { filter: '{"k": {"a": 1, "b": 2}} * .', input: '{"k": {"a": 0,"c": 3}}', result: [{ k: { a: 0, b: 2, c: 3 } }] },
  { filter: '@base64', input: '"foóbar\\n"', result: ['Zm/Ds2Jhcgo='] },
  {
    filter: '[.[] | [.foo[] // .bar]]',
    input:
      '[{"foo":[1,2], "bar": 42}, {"foo":[1], "bar": null}, {"foo":[null,false,3], "bar": 18}, {"foo":[], "bar":42}, {"foo": [null,false,null], "bar": 41}]',
    result: [[[1, 2], [1], [3], [42], [41]]],
  },
  { filter: 'try error("\\($__loc__)") catch .', input: 'null', result: ['{"file":"<top-level>","line":1}'] },
]

describe('jq', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(jq).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/jq/index.ts')
  })

  test("answers jq 1.7.1's own vectors", async () => {
    for (const { filter, input, result } of KNOWN_ANSWERS) {
      assert.deepEqual(await run({ filter, input }), { result, count: result.length, jqVersion: '1.7.1' }, filter)
    }
  })

  test("a sample of jq's own test files passes through the whole operation too (all of them: test/suites/jq-suite.test.ts)", async () => {
    const sample = [...readSuite('jq.test').filter((_, index) => index % 40 === 0), ...readSuite('onig.test').slice(0, 3)]
    for (const suiteCase of sample) {
      if (suiteCase.fails) {
        await expectRefusal(run({ filter: suiteCase.program }), { code: 'INVALID_INPUT', details: { kind: 'compile' } })
        continue
      }
      const { result } = (await run({ filter: suiteCase.program, input: suiteCase.input })) as { result: unknown[] }
      assert.ok(
        jqEqual(
          result,
          suiteCase.expected.map((line) => JSON.parse(line)),
        ),
        `line ${suiteCase.line}: ${suiteCase.program}`,
      )
      assert.ok(await jqPasses(suiteCase))
    }
  })

  test('reads a stream of inputs, slurps it, runs on null, sorts keys', async () => {
    assert.deepEqual(await run({ filter: '.a', input: '{"a":1} {"a":2}\n{"a":3}' }), { result: [1, 2, 3], count: 3, jqVersion: '1.7.1' })
    assert.deepEqual((await run({ filter: 'add', input: '1 2 3', slurp: true })).result, [6])
    assert.deepEqual((await run({ filter: '[., input]', input: '1 2', nullInput: true })).result, [[null, 1]])
    assert.deepEqual((await run({ filter: '.', input: { b: 1, a: { d: 1, c: 2 } }, sortKeys: true, output: 'text' })).result, '{"a":{"c":2,"d":1},"b":1}')
    assert.deepEqual((await run({ filter: '.', input: '' })).result, [])
    assert.deepEqual((await run({ filter: '.' })).result, [null], 'input defaults to null')
  })

  test('a JSON value or JSON text: a string is text, a value is written as JSON', async () => {
    assert.deepEqual((await run({ filter: '.a', input: { a: [1, 'x'] } })).result, [[1, 'x']])
    assert.deepEqual((await run({ filter: '.', input: '"a"' })).result, ['a'])
    await expectRefusal(run({ filter: '.', input: 'a' }), { code: 'INVALID_INPUT', details: { kind: 'input', field: 'input' } })
  })

  test('text and raw keep every digit of big number literals; values are as JavaScript reads them', async () => {
    const input = '{"id": 100000000000000000001, "n": 1.000000000000000000001}'
    assert.equal((await run({ filter: '.id, .n', input, output: 'text' })).result, '100000000000000000001\n1.000000000000000000001')
    assert.equal((await run({ filter: '.id', input, output: 'raw' })).result, '100000000000000000001')
    assert.deepEqual((await run({ filter: '.id', input })).result, [Number('100000000000000000001')])
  })

  test('raw writes strings as they are, other values as compact JSON; a line feed between outputs, none after', async () => {
    const answer = await run({ filter: '"a\\nb", "tab\\t", 1, [2], {"c": null}, "\\u0000"', output: 'raw' })
    assert.deepEqual(answer, { result: 'a\nb\ntab\t\n1\n[2]\n{"c":null}\n\u0000', count: 6, jqVersion: '1.7.1' })
    assert.deepEqual(await run({ filter: 'empty', output: 'text' }), { result: '', count: 0, jqVersion: '1.7.1' })
  })

  test('args are strings, jsonArgs JSON values or JSON text', async () => {
    const answer = await run({
      filter: '[$name, $min, $big, $__loc__.line]',
      args: { name: 'Ada' },
      jsonArgs: { min: { at: 30 }, big: '100000000000000000001' },
      output: 'text',
    })
    assert.equal(answer.result, '["Ada",{"at":30},100000000000000000001,1]')
    assert.deepEqual((await run({ filter: '$x', args: { x: '{"not":"parsed"}' } })).result, ['{"not":"parsed"}'])
    const long = `${'é'.repeat(100_000)}\u0000end`
    assert.deepEqual((await run({ filter: '$long | length, .[-4:]', args: { long } })).result, [100_004, '\u0000end'], 'any length, any character')
    await expectRefusal(run({ filter: '$big', jsonArgs: { big: JSON.stringify('x'.repeat(MAX_JSON_ARGS_BYTES)) } }), {
      code: 'LIMIT_EXCEEDED',
      details: { field: 'jsonArgs', reason: 'jsonArgsSize', limit: MAX_JSON_ARGS_BYTES },
    })
    assert.deepEqual((await run({ filter: '$big | length', jsonArgs: { big: JSON.stringify('x'.repeat(MAX_JSON_ARGS_BYTES - 100)) } })).result, [
      MAX_JSON_ARGS_BYTES - 100,
    ])
  })

  test('sees nothing of the server: no host environment, no program path, no files', async () => {
    const { result } = await run({ filter: '$ENV | keys, ._, (env == $ENV), input_filename', nullInput: true })
    assert.deepEqual(result, [['HOME', 'LANG', 'LOGNAME', 'PATH', 'PWD', 'USER', '_'], 'jq', true, null])
    await expectRefusal(run({ filter: 'import "../../etc/passwd" as p; .' }), { code: 'INVALID_INPUT', details: { kind: 'module' } })
    await expectRefusal(run({ filter: 'include "/dev/stdin"; .' }), { code: 'INVALID_INPUT', details: { kind: 'module' } })
  })

  test('leaves the thread it runs on as it was: no console output, the same exit code', async () => {
    const calls: unknown[] = []
    const { warn, error, log } = console
    console.warn = console.error = console.log = (...args: unknown[]) => calls.push(args)
    try {
      await runHere({ filter: '1 | debug | stderr' })
      await assert.rejects(runHere({ filter: 'error("x")' }))
      await assert.rejects(runHere({ filter: '"bye" | halt_error(3)' }))
    } finally {
      Object.assign(console, { warn, error, log })
    }
    assert.deepEqual(calls, [])
    assert.equal(process.exitCode, undefined)
  })

  test("the edits of jq-web's jq.js fail loudly when its text has changed, so the build does", () => {
    const source = readFileSync(createRequire(import.meta.url).resolve('jq-web/jq.js'), 'utf8')
    assert.doesNotMatch(patchJqJs(source), /outBuffer\.push|errBuffer\.push|console\.warn|jq = jq\(\)/)
    assert.throws(() => patchJqJs(source.replace('if (c) outBuffer.push(c)', 'outBuffer.push(c)')), /jq-web's jq\.js has changed/)
    assert.throws(
      () =>
        patchJqJs(
          source.replaceAll('FS.writeFile("inputString", jsonstring);', 'FS.writeFile("inputString", jsonstring); FS.writeFile("inputString", jsonstring);'),
        ),
      /exactly once/,
    )
  })

  test('each call gets a fresh jq: an instance a deep value broke does not break the next call', async () => {
    await expectRefusal(run({ filter: 'reduce range(9999) as $_ ([]; [.]) | tojson', nullInput: true }), {
      code: 'LIMIT_EXCEEDED',
      details: { reason: 'aborted' },
    })
    assert.deepEqual((await run({ filter: '1 + 1', nullInput: true })).result, [2])
  })

  test('errors: compile (with the line), modules, run time (with the outputs before), halt_error, input not JSON', async () => {
    const compile = await expectRefusal(run({ filter: '1,\n  foo' }), { code: 'INVALID_INPUT', details: { kind: 'compile', line: 2 } })
    assert.match(compile.message, /^The filter does not compile: foo\/0 is not defined at <top-level>, line 2:/)
    await expectRefusal(run({ filter: '.[' }), { code: 'INVALID_INPUT', message: /syntax error, unexpected end of file at <top-level>, line 1/ })
    await expectRefusal(run({ filter: 'import "a" as a; .' }), { code: 'INVALID_INPUT', message: /modules/, details: { kind: 'module' } })
    await expectRefusal(run({ filter: '.[] | if . == 3 then error("three") else . end', input: '[1,2,3,4]' }), {
      code: 'INVALID_INPUT',
      message: /^The filter failed at run time: three$/,
      details: { kind: 'runtime', message: 'three', outputs: 2 },
    })
    await expectRefusal(run({ filter: '.a', input: '1' }), { details: { kind: 'runtime', message: 'Cannot index number with string "a"', outputs: 0 } })
    await expectRefusal(run({ filter: 'error({"a": 1})' }), { details: { kind: 'runtime', message: '{"a":1}' } })
    await expectRefusal(run({ filter: 'if . == 2 then error("two") else . end', input: '1 2 3 {' }), {
      details: { kind: 'runtime', message: 'two', outputs: 2 },
    })
    await expectRefusal(run({ filter: '"bye\\n" | halt_error(1)' }), { code: 'INVALID_INPUT', details: { kind: 'halt', exitCode: 1, message: 'bye' } })
    await expectRefusal(run({ filter: '.', input: '1 2 {"a": tru}' }), {
      code: 'INVALID_INPUT',
      details: { kind: 'input', field: 'input', line: 1, column: 14, outputs: 2 },
    })
    assert.deepEqual((await run({ filter: '1, halt, 2' })).result, [1], 'halt ends without an error')
    assert.deepEqual([...JQ_ERROR_KINDS].sort(), ['compile', 'halt', 'input', 'module', 'runtime'])
  })

  test('schema errors are 400s: filter length, variable names, unknown fields, too many variables', async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{}, 'VALIDATION_ERROR'],
      [{ filter: '' }, 'VALIDATION_ERROR'],
      [{ filter: '.'.repeat(MAX_FILTER_LENGTH + 1) }, 'VALIDATION_ERROR'],
      [{ filter: '.', args: { '1x': 'a' } }, 'VALIDATION_ERROR'],
      [{ filter: '.', args: { 'a-b': 'a' } }, 'VALIDATION_ERROR'],
      [{ filter: '.', args: { a: 1 } }, 'VALIDATION_ERROR'],
      [{ filter: '.', output: 'yaml' }, 'VALIDATION_ERROR'],
      [{ filter: '.', raw: true }, 'VALIDATION_ERROR'],
      [{ filter: '.', nullInput: 'true' }, 'VALIDATION_ERROR'],
    ]
    for (const [input, code] of refusals) await expectRefusal(run(input), { code })
    const half = (prefix: string) => Object.fromEntries(Array.from({ length: MAX_VARIABLES / 2 + 1 }, (_, index) => [`${prefix}${index}`, '1']))
    await expectRefusal(run({ filter: '.', args: half('a'), jsonArgs: half('j') }), { code: 'VALIDATION_ERROR', field: 'args' })
    await expectRefusal(run({ filter: '.', args: { x: '1' }, jsonArgs: { x: 1 } }), { code: 'VALIDATION_ERROR', field: 'jsonArgs.x' })
    await expectRefusal(run({ filter: '.', jsonArgs: { x: '{"a": ' } }), { code: 'INVALID_INPUT', details: { field: 'jsonArgs.x', line: 1 } })
  })

  test('limits: depth of the input, number and size of outputs, memory, an instance stopped abnormally', async () => {
    const deep = `${'['.repeat(101)}${']'.repeat(101)}`
    await expectRefusal(run({ filter: '.', input: deep }), { code: 'LIMIT_EXCEEDED', details: { reason: 'depth', limit: 100 } })
    await expectRefusal(run({ filter: '.', input: `1 ${'{"a":'.repeat(101)}` }), { code: 'LIMIT_EXCEEDED', details: { reason: 'depth' } })
    assert.equal((await run({ filter: 'length', input: `"${'['.repeat(1000)}"` })).count, 1, 'brackets in strings are not nesting')
    assert.equal((await run({ filter: '.', input: `${'['.repeat(100)}${']'.repeat(100)}` })).count, 1)
    await expectRefusal(run({ filter: 'range(1e9)' }), { code: 'LIMIT_EXCEEDED', details: { reason: 'outputs', limit: MAX_OUTPUTS } })
    assert.equal((await run({ filter: `range(${MAX_OUTPUTS})`, output: 'text' })).count, MAX_OUTPUTS)
    // Sixteen copies of a string of 1 MiB: the last one does not fit.
    await expectRefusal(run({ filter: `("${'x'.repeat(64)}" * 16384) as $s | range(100) | $s` }), {
      code: 'LIMIT_EXCEEDED',
      details: { reason: 'outputSize', limit: OUTPUT_LIMIT_BYTES, outputs: 15 },
    })
    await expectRefusal(run({ filter: '"x" * 300000000 | length' }), { code: 'LIMIT_EXCEEDED', details: { reason: 'memory', limitMb: 256 } })
    assert.deepEqual([...JQ_LIMIT_REASONS].sort(), ['aborted', 'depth', 'jsonArgsSize', 'memory', 'outputSize', 'outputs'])
  })

  test('a value built deeper than jq writes out (it prints <skipped: too deep>, which is no JSON) is 422 in every output form', async () => {
    for (const output of ['values', 'text', 'raw']) {
      await expectRefusal(run({ filter: 'reduce range(257) as $_ (0; [.])', output }), {
        code: 'LIMIT_EXCEEDED',
        details: { reason: 'depth', limit: 256, outputs: 1 },
      })
    }
    assert.deepEqual((await run({ filter: 'reduce range(256) as $_ (0; [.]) | tojson | length' })).result, [513])
    assert.deepEqual((await run({ filter: '"<skipped: too deep>"' })).result, ['<skipped: too deep>'], 'the words in a string are a string')
  })

  test('text and raw are counted as the JSON string they are sent in: quotes and backslashes escaped again', async () => {
    await expectRefusal(run({ filter: '"\\"" * 8000000', output: 'text' }), {
      code: 'LIMIT_EXCEEDED',
      details: { reason: 'outputSize', limit: OUTPUT_LIMIT_BYTES, outputs: 1 },
    })
    await expectRefusal(run({ filter: '"\\u0001" * 3000000', output: 'raw' }), { code: 'LIMIT_EXCEEDED', details: { reason: 'outputSize' } })
    assert.equal(((await run({ filter: '"\\"" * 1000', output: 'text' })).result as string).length, 2002)
  })

  test('hostile inputs get their answers: a large input, a long filter, many lines, a regex that backtracks (stopped by its retry limit)', async () => {
    const large = `[${Array.from({ length: 50_000 }, (_, index) => `{"id":${index},"name":"n${index}"}`).join(',')}]`
    assert.deepEqual((await run({ filter: 'map(.id) | add', input: large })).result, [1_249_975_000])
    assert.deepEqual((await run({ filter: `${'1 + '.repeat(2_000)}1` })).result, [2_001])
    assert.deepEqual((await run({ filter: 'length', input: '1\n'.repeat(100_000), slurp: true })).result, [100_000])
    await expectRefusal(run({ filter: 'test("^(a+)+$")', input: JSON.stringify(`${'a'.repeat(5_000)}!`) }), {
      code: 'INVALID_INPUT',
      details: { kind: 'runtime', message: 'Regex failure: retry-limit-in-match over' },
    })
  })

  test('property: . gives back any JSON value, and values, text and raw agree', async () => {
    const values = fc.jsonValue({ maxDepth: 4 }).filter((value) => !JSON.stringify(value).includes('"__proto__"'))
    await fc.assert(
      fc.asyncProperty(values, async (value) => {
        const asValues = await runHere({ filter: '., .', input: JSON.stringify(value) })
        assert.ok(jqEqual(asValues.result, [value, value]))
        const asText = (await runHere({ filter: '.', input: JSON.stringify(value), output: 'text' })).result as string
        assert.ok(jqEqual(JSON.parse(asText), value))
        const asRaw = (await runHere({ filter: '.', input: JSON.stringify(value), output: 'raw' })).result
        assert.equal(asRaw, typeof value === 'string' ? value : asText)
      }),
      { numRuns: 40 },
    )
  })

  test('property: a stream of values slurped is the array of them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)), { maxLength: 8 }), async (items) => {
        const stream = items.map((item) => JSON.stringify(item)).join('\n')
        assert.deepEqual((await runHere({ filter: '.', input: stream, slurp: true })).result, [items])
        assert.deepEqual((await runHere({ filter: '.', input: stream })).count, items.length)
      }),
      { numRuns: 20 },
    )
  })
  // Last: the thread stopped here is replaced only when a later call needs one.
  test('a filter still running past its budget is stopped: 422 LIMIT_EXCEEDED, reason timeout', async () => {
    await warm()
    // jq's own budget counts from the moment a thread begins the call, so a busy machine's wait for a thread takes nothing from it.
    await expectRefusal(execute(jq, { filter: 'last(range(1e12))' }, { timeBudgetMs: 60_000, codeBudgets: { jqTimeBudgetMs: 300 } }), {
      code: 'LIMIT_EXCEEDED',
      message: /^The jq call ran past its 300 ms time budget and was stopped: /,
      details: { reason: 'timeout', limitMs: 300 },
    })
  })
})
