import assert from 'node:assert/strict'
import { isUtf8 } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { TOML_OFFLOAD_THRESHOLD, tomlJson } from './index.ts'

const run = (input: Record<string, unknown>) => execute(tomlJson, input, { timeBudgetMs: 60_000 })
const toJson = async (input: string) => (await run({ input })).result
const toToml = async (input: unknown) => (await run({ input, action: 'jsonToToml' })).result as string
const rejects = (input: Record<string, unknown>, code: string, pattern: RegExp, details?: Record<string, unknown>) =>
  expectRefusal(run(input), { code, message: pattern, details })

after(() => closeWorkerPool())

// Published test data: github.com/toml-lang/toml-test, the TOML 1.0.0 cases (see test/fixtures/suites/toml-test/SOURCE.txt).
const SUITE = new URL('../../../test/fixtures/suites/toml-test/', import.meta.url)
const suiteFiles = readFileSync(new URL('files-toml-1.0.0', SUITE), 'utf8').split('\n').filter(Boolean)

type Tagged = { type: string; value: string }
const isTagged = (value: unknown): value is Tagged =>
  value !== null && typeof value === 'object' && typeof (value as Tagged).type === 'string' && typeof (value as Tagged).value === 'string'

/** toml-test's typed JSON as this operation answers it: big integers and inf/nan as strings, dates as text. */
function expectedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expectedJson)
  if (isTagged(value)) {
    switch (value.type) {
      case 'integer': {
        const integer = BigInt(value.value)
        return integer >= -Number.MAX_SAFE_INTEGER && integer <= Number.MAX_SAFE_INTEGER ? Number(integer) : String(integer)
      }
      case 'float':
        return /nan/.test(value.value) ? 'nan' : /inf/.test(value.value) ? value.value.replace('+', '') : Number(value.value)
      case 'bool':
        return value.value === 'true'
      case 'string':
        return value.value
      default:
        return { date: normalDate(value.value) }
    }
  }
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expectedJson(item)]))
  return value
}

/** Dates compared as instants written alike: T, Z, fractions truncated to milliseconds (TOML 1.0 §Offset Date-Time allows it). */
function normalDate(text: string): string {
  return text
    .replace(' ', 'T')
    .toUpperCase()
    .replace(/(\.\d{3})\d+/, '$1')
    .replace(/\.0{1,3}(?=$|Z|[+-])/, '')
    .replace(/(\.\d*?)0+(?=$|Z|[+-])/, '$1')
    .replace(/\+00:00$|-00:00$/, 'Z')
}

/** This operation's answer with each date string replaced by its normal form, where the expectation has a date. */
function comparable(actual: unknown, expected: unknown): unknown {
  if (expected !== null && typeof expected === 'object' && 'date' in expected && typeof actual === 'string') return { date: normalDate(actual) }
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((item, index) => comparable(item, expected[index]))
  if (actual !== null && typeof actual === 'object' && expected !== null && typeof expected === 'object') {
    return Object.fromEntries(Object.entries(actual).map(([key, item]) => [key, comparable(item, (expected as Record<string, unknown>)[key])]))
  }
  return actual
}

describe('toml-json against toml-test (TOML 1.0.0)', () => {
  test('every valid document reads to the expected JSON', async () => {
    const valid = suiteFiles.filter((file) => file.startsWith('valid/') && file.endsWith('.toml'))
    assert.ok(valid.length > 180)
    for (const file of valid) {
      const text = readFileSync(new URL(file, SUITE), 'utf8')
      const expected = expectedJson(JSON.parse(readFileSync(new URL(file.replace(/\.toml$/, '.json'), SUITE), 'utf8')))
      const data = await run({ input: text })
      assert.deepEqual(comparable(data.result, expected), expected, file)
    }
  })

  test('every invalid document is refused with a 422 (except those TOML 1.1 allows, and those not UTF-8, which JSON text cannot carry)', async () => {
    const invalidIn11 = new Set(readFileSync(new URL('files-toml-1.1.0', SUITE), 'utf8').split('\n'))
    const invalid = suiteFiles.filter((file) => file.startsWith('invalid/') && invalidIn11.has(file))
    let sent = 0
    for (const file of invalid) {
      const bytes = readFileSync(new URL(file, SUITE))
      const text = bytes.toString('utf8')
      if (!isUtf8(bytes)) continue
      sent++
      await expectRefusal(run({ input: text }), {
        check: (error) => assert.ok(['INVALID_INPUT', 'LIMIT_EXCEEDED'].includes(error.code), `${file}: ${error.code}`),
      }).catch((error) => assert.fail(`${file} was accepted or failed oddly: ${error}`))
    }
    assert.ok(sent > 300, `${sent} invalid documents sent`)
  })
})

describe('toml-json tomlToJson', () => {
  test('TOML 1.1 additions are read too (smol-toml reads 1.1, a superset of 1.0)', async () => {
    assert.deepEqual(await toJson('t = {a = 1,\n b = 2,}\ns = "\\x41\\e"\nlt = 17:45\n'), { t: { a: 1, b: 2 }, s: 'A\u001b', lt: '17:45:00' })
  })

  test('dates and times as RFC 3339 text, local forms kept local (TOML 1.0 spec examples)', async () => {
    const toml = [
      'odt1 = 1979-05-27T07:32:00Z',
      'odt2 = 1979-05-27T00:32:00-07:00',
      'odt3 = 1979-05-27T00:32:00.999999-07:00',
      'odt4 = 1979-05-27 07:32:00Z',
      'ldt1 = 1979-05-27T07:32:00',
      'ldt2 = 1979-05-27T00:32:00.999999',
      'ld1 = 1979-05-27',
      'lt1 = 07:32:00',
      'lt2 = 00:32:00.999999',
    ].join('\n')
    assert.deepEqual(await toJson(toml), {
      odt1: '1979-05-27T07:32:00Z',
      odt2: '1979-05-27T00:32:00-07:00',
      odt3: '1979-05-27T00:32:00.999-07:00',
      odt4: '1979-05-27T07:32:00Z',
      ldt1: '1979-05-27T07:32:00',
      ldt2: '1979-05-27T00:32:00.999',
      ld1: '1979-05-27',
      lt1: '07:32:00',
      lt2: '00:32:00.999',
    })
  })

  test('integers beyond 2^53 and inf/nan are strings with warnings; hex, octal and binary integers are read', async () => {
    const data = await run({ input: 'a = 0xDEADBEEF\nb = 0o755\nc = 0b1101\nd = -9223372036854775808\ne = +inf\nf = -inf\ng = nan\nh = 1_000\ni = 6.626e-34' })
    assert.deepEqual(data.result, { a: 3735928559, b: 493, c: 13, d: '-9223372036854775808', e: 'inf', f: '-inf', g: 'nan', h: 1000, i: 6.626e-34 })
    assert.equal((data.warnings as string[]).length, 4)
  })

  test('errors are 422s with line, column and position', async () => {
    await rejects({ input: 'a = 1\nb = \n' }, 'INVALID_INPUT', /not valid at line 2, column 5/, { line: 2, column: 5, position: 10 })
    await rejects({ input: 'a = 1\na = 2' }, 'INVALID_INPUT', /line 2/)
    await rejects({ input: '[t]\n[t]' }, 'INVALID_INPUT', /line 2/)
    // smol-toml would move these to the next month, as JavaScript's Date does.
    await rejects({ input: 'ok = "2100-02-29"\nd = 2100-02-29' }, 'INVALID_INPUT', /line 2, column 5: 2100-02-29 is not a date \(that month has 28 days\)/, {
      position: 22,
    })
    await rejects({ input: 'a = [2024-04-31T23:00:00-05:00]' }, 'INVALID_INPUT', /2024-04-31 is not a date \(that month has 30 days\)/)
    assert.deepEqual(await toJson('a = 2000-02-29\nb = "2100-02-30"\nc = 2024-03-01'), { a: '2000-02-29', b: '2100-02-30', c: '2024-03-01' })
    await expectRefusal(run({ input: { a: 1 } }), { code: 'VALIDATION_ERROR', field: 'input' })
  })

  test('nesting: 100 levels are fine, 101 are LIMIT_EXCEEDED, inline or through table paths', async () => {
    const inline = (levels: number) => `a = ${'['.repeat(levels)}${']'.repeat(levels)}`
    assert.ok(await toJson(inline(99)))
    await rejects({ input: inline(101) }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
    await rejects({ input: inline(100_000) }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
    await rejects({ input: `[${Array(101).fill('k').join('.')}]` }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
    await rejects({ input: `${Array(5000).fill('k').join('.')} = 1` }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
  })

  test('keys such as __proto__ stay ordinary keys', async () => {
    const result = (await toJson('"__proto__" = 1\n[constructor]\nprototype = 2')) as Record<string, unknown>
    assert.deepEqual(Object.keys(result), ['__proto__', 'constructor'])
    assert.equal(Object.getPrototypeOf(result), Object.prototype)
  })
})

describe('toml-json jsonToToml', () => {
  test('round trip: JSON objects written as TOML read back the same', async () => {
    const key = fc.string({ maxLength: 8 })
    const leaf = fc.oneof(fc.string(), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))
    const { tree } = fc.letrec((tie) => ({
      tree: fc.dictionary(key, fc.oneof({ maxDepth: 3 }, leaf, tie('tree'), fc.array(fc.oneof(leaf, tie('tree')), { maxLength: 3 }))),
    }))
    await fc.assert(
      fc.asyncProperty(tree, async (value) => {
        const json = JSON.parse(JSON.stringify(value)) as Record<string, unknown>
        const toml = await toToml(json)
        // -0 has no TOML integer; JSON would write it 0 anyway.
        assert.deepEqual(await toJson(toml), JSON.parse(JSON.stringify(json)), toml)
      }),
      { numRuns: 150 },
    )
  })

  test('numbers beyond 2^53 are written as floats, so they read back as the same numbers', async () => {
    const value = { a: 1e20, b: 2 ** 53, c: 1e21, d: 0.1 }
    assert.equal(await toToml(value), 'a = 100000000000000000000.0\nb = 9007199254740992.0\nc = 1e+21\nd = 0.1\n')
    assert.deepEqual(await toJson(await toToml(value)), value)
  })

  test('null is refused with its path; the top level must be an object; JSON text is read', async () => {
    await rejects({ input: { a: { b: [1, null] } }, action: 'jsonToToml' }, 'INVALID_INPUT', /\$\.a\.b\[1\] is null/, { path: '$.a.b[1]' })
    await rejects({ input: [1], action: 'jsonToToml' }, 'INVALID_INPUT', /must be a JSON object/)
    await rejects({ input: '{"a":', action: 'jsonToToml' }, 'INVALID_INPUT', /not valid JSON text/)
    assert.equal(await toToml('{"a":1}'), 'a = 1\n')
  })

  test('output that would pass 16 MiB is refused before it is written: deep tables under long keys repeat their paths', async () => {
    let value: Record<string, unknown> = { leaf: 1 }
    for (let i = 0; i < 99; i++) value = { [`k${i}${'x'.repeat(9_000)}`]: value, v: 1 }
    await rejects({ input: value, action: 'jsonToToml' }, 'LIMIT_EXCEEDED', /output limit/)
  })

  test('large inputs run on a worker thread', () => {
    assert.ok(tomlJson.offload!(validate(tomlJson.input, { input: `a = "${'x'.repeat(TOML_OFFLOAD_THRESHOLD)}"` })))
    assert.ok(!tomlJson.offload!(validate(tomlJson.input, { input: 'a = 1' })))
  })
})
