import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import fc from 'fast-check'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { startService } from '../../../test/processes.ts'
import { runSuiteFile, suiteFiles } from '../../../test/test262-regexp.ts'
import { execute, setOffloadPolicy } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { MAX_SPLIT_PIECES } from './answers.ts'
import { ECMASCRIPT_ENGINE } from './ecmascript.ts'
import { regex } from './index.ts'
import { RE2_ENGINE, RE2JS_VERSION } from './re2.ts'

after(() => closeWorkerPool())

type Fields = Record<string, unknown>
type Match = {
  match: string
  index: number
  end: number
  groups: Array<{ number: number; name: string | null; value: string | null; index: number | null; end: number | null }>
}

/** Most calls run in process, where they are quicker to test; the worker path (where ECMAScript patterns always go) has its own tests below. */
const inProcess = async <T>(work: () => Promise<T>): Promise<T> => {
  const previous = setOffloadPolicy('never')
  try {
    return await work()
  } finally {
    setOffloadPolicy(previous)
  }
}
const run = (input: Fields) => inProcess(() => execute(regex, input, { timeBudgetMs: 60_000 }))
/** On a worker thread, with the regex budget as served unless a roomier one is asked for (a new thread loads the registry first). */
const onWorker = (input: Fields, roomy = false) => execute(regex, input, roomy ? { timeBudgetMs: 60_000, codeBudgets: { regexTimeBudgetMs: 60_000 } } : {})
/**
 * The operation's answer without the pool, for the properties that compare it with String.prototype methods thousands of
 * times: synchronous for ECMAScript patterns (as test262's harness needs), a promise for RE2's, whose engine loads on first use.
 */
const direct = (input: Fields) => regex.run(validate<Fields>(regex.input, input) as never) as Fields
const resultOf = async (input: Fields) => (await run(input)).result

/** Typos and ECMAScript syntax that RE2 refuses when it compiles the pattern. */
const RE2_REFUSED = ['(', '(a)\\1', '(?=a)', '(?<=a)b', '(?<!a)b', '\\u0041', '\\u{41}', '\\cJ', '[^]', 'a**', 'a{1001}', '(?P<n>a)(?P<n>b)']

const supports = (pattern: string, flags = '') => {
  try {
    new RegExp(pattern, flags)
    return true
  } catch {
    return false
  }
}

describe('regex: the published vectors', () => {
  test('says what it does; the engine names are right', () => {
    assert.deepEqual(JSON.stringify(regex).match(/TODO[^"]*/g) ?? [], [])
    const installed = JSON.parse(readFileSync(new URL('../../../node_modules/re2js/package.json', import.meta.url), 'utf8')) as { version: string }
    assert.equal(RE2JS_VERSION, installed.version)
    assert.equal(RE2_ENGINE, `re2js ${installed.version}`)
    assert.match(ECMASCRIPT_ENGINE, /^V8 \d+\.\d+ \(Node \d+\.\d+\.\d+\)$/)
    assert.ok(ECMASCRIPT_ENGINE.includes(process.version.slice(1)))
  })

  test('test262 RegExp/named-groups/string-replace.js: named and numbered groups, unmatched ones, global or not', async () => {
    const pattern = '(?<fst>.)(?<snd>.)|(?<thd>x)'
    const replace = (replacement: string, flags: string) => resultOf({ pattern, flags, input: 'abcd', action: 'replace', replacement })
    assert.equal(await replace('$<snd>$<fst>', 'gu'), 'badc')
    assert.equal(await replace('$2$1', 'gu'), 'badc')
    assert.equal(await replace('$<thd>', 'gu'), '')
    assert.equal(await replace('$<thd>', 'u'), 'cd')
    // The rule since ES2023: an unclosed $< is literal (older test262 copies expect a SyntaxError).
    assert.equal(await replace('$<snd', 'g'), '$<snd$<snd')
  })

  test('GetSubstitution: $<name>, $$, $&, a $3 past the groups, $01', async () => {
    assert.equal(
      await resultOf({
        pattern: '(?<first>\\w+) (?<last>\\w+)',
        flags: '',
        input: 'John Smith',
        action: 'replace',
        replacement: '$<last>, $<first> $$ $& $3 $01',
      }),
      'Smith, John $ John Smith $3 John',
    )
    assert.equal(await resultOf({ pattern: '(\\d)(\\d)?', input: 'x1y22z', action: 'replace', replacement: '<$2$1>' }), 'x<1>y<22>z')
    assert.equal(await resultOf({ pattern: '(?:)', input: 'abc', action: 'replace', replacement: '-' }), '-a-b-c-')
  })

  test('d indices, v set subtraction and a string property of emoji', async () => {
    assert.deepEqual(await resultOf({ pattern: '(?<w>b)', flags: 'd', input: 'abc' }), [
      { match: 'b', index: 1, end: 2, groups: [{ number: 1, name: 'w', value: 'b', index: 1, end: 2 }] },
    ])
    assert.deepEqual(
      ((await resultOf({ pattern: '[\\p{L}--[a-z]]+', flags: 'v', input: 'abcÉÀx' })) as Match[]).map((m) => m.match),
      ['ÉÀ'],
    )
    const family = '👨‍👩‍👧‍👦'
    assert.deepEqual(await resultOf({ pattern: '\\p{RGI_Emoji}', flags: 'v', input: family }), [{ match: family, index: 0, end: 11, groups: [] }])
  })

  test('re2js README: optional middle group unmatched, Go 1.22 (?<name>) spelling, split keeping trailing empty strings', async () => {
    const answer = await run({ pattern: '(?P<first>\\w+) (?:(?P<middle>\\w+) )?(?P<last>\\w+)', input: 'John Doe', flavor: 're2' })
    assert.deepEqual(answer.result, [
      {
        match: 'John Doe',
        index: 0,
        end: 8,
        groups: [
          { number: 1, name: 'first', value: 'John', index: 0, end: 4 },
          { number: 2, name: 'middle', value: null, index: null, end: null },
          { number: 3, name: 'last', value: 'Doe', index: 5, end: 8 },
        ],
      },
    ])
    assert.equal(answer.engine, RE2_ENGINE)
    assert.deepEqual((await run({ pattern: '(?<y>\\d{4})', input: 'in 2024', flavor: 're2' })).groups, [{ number: 1, name: 'y' }])
    // RE2J's own split drops the trailing empty strings; this one is JavaScript's.
    assert.deepEqual(await resultOf({ pattern: '/', input: 'a/b/cc//d/e//', flavor: 're2', action: 'split' }), ['a', 'b', 'cc', '', 'd', 'e', '', ''])
    assert.deepEqual(await resultOf({ pattern: '/', input: 'a/b/cc//d/e//', flavor: 're2', action: 'split', limit: 3 }), ['a', 'b', 'cc'])
    assert.deepEqual(await resultOf({ pattern: ':', input: ':a::b', flavor: 're2', action: 'split' }), ['', 'a', '', 'b'])
    assert.deepEqual(await resultOf({ pattern: 'abc+', input: 'abc abcccc abcc', flavor: 're2' }).then((r) => (r as Match[]).map((m) => m.match)), [
      'abc',
      'abcccc',
      'abcc',
    ])
  })

  test('RE2 syntax traps: \\s is ASCII only, . matches \\r, i folds the Kelvin sign, set operations read as another class', async () => {
    const matches = async (pattern: string, input: string, flavor: string, flags = '') => resultOf({ pattern, input, flavor, flags, action: 'test' })
    assert.equal(await matches('\\s', '\u00a0', 're2'), false)
    assert.equal(await matches('\\s', '\u00a0', 'ecmascript'), true)
    assert.equal(await matches('.', '\r', 're2'), true)
    assert.equal(await matches('.', '\r', 'ecmascript'), false)
    assert.equal(await matches('k', '\u212a', 're2', 'i'), true)
    assert.equal(await matches('k', '\u212a', 'ecmascript', 'i'), false)
    assert.equal(await matches('[\\p{L}--[a-z]]+', 'ÉÀ', 're2'), false)
  })

  test('test262: every vendored file of RegExp replacement and splitting, its own assertions answered by the operation', () => {
    const unsupported = new Set<string>()
    if (!supports('(?<a>x)|(?<a>y)')) unsupported.add('regexp-duplicate-named-groups')
    const route = (call: Fields) => direct(call).result as string | Array<string | null>
    const failures: string[] = []
    const unreached: string[] = []
    const partly: Record<string, string[]> = {}
    let routed = 0
    let passed = 0
    const files = suiteFiles()
    for (const file of files) {
      const outcome = runSuiteFile(file, route as never, unsupported)
      if (outcome.notRun !== undefined) continue
      if (outcome.error !== undefined) failures.push(`${file}: ${String((outcome.error as Error).message ?? outcome.error)}`)
      else passed++
      if (outcome.routed === 0) unreached.push(file)
      if (outcome.skipped.length > 0) partly[file] = outcome.skipped
      routed += outcome.routed
    }
    assert.deepEqual(failures, [])
    assert.deepEqual(unreached, [], 'every vendored file sends at least one call through the operation')
    // Calls the operation cannot take: a replacement function (the operation takes a string).
    assert.deepEqual(partly, {
      'test/built-ins/String/prototype/replace/regexp-prototype-replace-v-u-flag.js': ['a replacement function, or arguments that are not strings'],
    })
    assert.equal(files.length, 47)
    assert.equal(passed, files.length - unsupported.size * 2, 'the duplicate-names files run where the engine has them')
    assert.ok(routed >= 150, `${routed} calls answered by the operation`)
  })
})

describe('regex: the same answers as JavaScript (properties)', () => {
  const PATTERNS = [
    'a',
    'a*',
    'a+?',
    '(a)|(b)',
    '(?<x>a)(?<y>b)?',
    '(a*)',
    '\\b',
    '^',
    '$',
    '(?:)',
    '.',
    '(?=(b))',
    '(?<=a)b',
    '[^a]',
    'b+',
    '(.)\\1',
    '\\p{L}',
    '(\\ud83d)?',
  ]
  const text = fc.array(fc.constantFrom('a', 'b', 'ab', ' ', '\n', '😀', 'É', 'B', 'A'), { maxLength: 12 }).map((parts) => parts.join(''))
  const flags = fc.subarray(['g', 'i', 'm', 's', 'u', 'y', 'd']).map((chosen) => chosen.join(''))
  const template = fc
    .array(fc.constantFrom('$$', '$&', '$`', "$'", '$1', '$2', '$01', '$10', '$0', '$00', '$<x>', '$<y>', '$<z>', '$<', '$', 'x', '<', '>'), { maxLength: 6 })
    .map((parts) => parts.join(''))
  const valid = (pattern: string, chosen: string) => supports(pattern, chosen)

  test('replace is String.prototype.replace, GetSubstitution included', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATTERNS), flags, text, template, (pattern, chosen, input, replacement) => {
        fc.pre(valid(pattern, chosen))
        const expected = input.replace(new RegExp(pattern, chosen), replacement)
        assert.equal(direct({ pattern, flags: chosen, input, action: 'replace', replacement }).result, expected)
      }),
      { numRuns: 600 },
    )
  })

  test('split is String.prototype.split, with and without a limit (null where JavaScript has undefined)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATTERNS), flags, text, fc.option(fc.nat(6), { nil: undefined }), (pattern, chosen, input, limit) => {
        fc.pre(valid(pattern, chosen))
        const expected = input.split(new RegExp(pattern, chosen), limit).map((piece) => piece ?? null)
        assert.deepEqual(direct({ pattern, flags: chosen, input, action: 'split', ...(limit !== undefined && { limit }) }).result, expected)
      }),
      { numRuns: 600 },
    )
  })

  test('match answers what matchAll (g) or exec (without g) finds, positions and groups included; test is RegExp.prototype.test', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATTERNS), flags, text, (pattern, chosen, input) => {
        fc.pre(valid(pattern, chosen))
        const regExp = new RegExp(pattern, chosen.includes('d') ? chosen : `${chosen}d`)
        const found = chosen.includes('g') ? [...input.matchAll(regExp)] : [regExp.exec(input)].filter((m) => m !== null)
        const expected = found.map((m) => ({
          match: m[0],
          index: m.index,
          end: m.index + m[0].length,
          values: m.slice(1).map((value) => value ?? null),
          starts: m.indices!.slice(1).map((span) => span?.[0] ?? null),
        }))
        const answer = direct({ pattern, flags: chosen, input })
        const actual = (answer.result as Match[]).map((m) => ({
          match: m.match,
          index: m.index,
          end: m.end,
          values: m.groups.map((g) => g.value),
          starts: m.groups.map((g) => g.index),
        }))
        assert.deepEqual(actual, expected)
        assert.equal(answer.count, expected.length)
        assert.equal(direct({ pattern, flags: chosen, input, action: 'test' }).result, new RegExp(pattern, chosen).test(input))
      }),
      { numRuns: 600 },
    )
  })

  test('re2 finds what ECMAScript finds for the syntax both read alike (ASCII text)', async () => {
    const shared = ['a+', 'a*b', '(a|b)c', '[abc]+', '\\d+', '(?:ab)+', 'a{2,3}', '^a', 'b$', '(a)(b)?', '\\w+', '']
    const ascii = fc.array(fc.constantFrom('a', 'b', 'c', '1', '22', ' ', '\n', 'A'), { maxLength: 12 }).map((parts) => parts.join(''))
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...shared.filter(Boolean)), fc.subarray(['g', 'i', 'm']), ascii, async (pattern, chosen, input) => {
        const fields = { pattern, flags: chosen.join(''), input }
        const positions = (answer: Fields) => (answer.result as Match[]).map((m) => [m.index, m.end, m.groups.map((g) => g.value)])
        assert.deepEqual(positions(await direct({ ...fields, flavor: 're2' })), positions(direct(fields)))
        const test = { ...fields, action: 'test' }
        assert.equal((await direct({ ...test, flavor: 're2' })).result, direct(test).result)
        const split = { ...fields, action: 'split' }
        assert.deepEqual((await direct({ ...split, flavor: 're2' })).result, direct(split).result)
      }),
      { numRuns: 300 },
    )
  })
})

describe('regex: answers', () => {
  test('groups are listed in order with their names, duplicate names where the engine has them', async () => {
    assert.deepEqual((await run({ pattern: '(a)(?<n>b)(?:c)(?=(d))(?<=(a))[(](\\()', input: '' })).groups, [
      { number: 1, name: null },
      { number: 2, name: 'n' },
      { number: 3, name: null },
      { number: 4, name: null },
      { number: 5, name: null },
    ])
    assert.deepEqual((await run({ pattern: '[[a]b](x)', flags: 'v', input: '' })).groups, [{ number: 1, name: null }])
    assert.deepEqual((await run({ pattern: '(?<\\u0041>x)', input: '' })).groups, [{ number: 1, name: 'A' }])
    if (supports('(?<a>x)|(?<a>y)')) {
      const answer = await run({ pattern: '(?<a>x)|(?<a>y)', input: 'y', action: 'replace', replacement: '[$<a>]' })
      assert.equal(answer.result, '[y]')
      assert.deepEqual(answer.groups, [
        { number: 1, name: 'a' },
        { number: 2, name: 'a' },
      ])
    } else {
      await expectRefusal(run({ pattern: '(?<a>x)|(?<a>y)', input: 'y' }), {
        code: 'INVALID_INPUT',
        message: /group name used twice needs a newer JavaScript engine/,
      })
    }
  })

  test('pattern modifiers where the engine has them, a 422 naming the engine where it has not', async () => {
    if (supports('(?i:a)')) assert.equal(await resultOf({ pattern: '(?i:a)b', input: 'Ab', action: 'test' }), true)
    else
      await expectRefusal(run({ pattern: '(?i:a)b', input: 'Ab' }), { code: 'INVALID_INPUT', message: /modifiers .* need a newer JavaScript engine than V8/ })
  })

  test('sticky: test and a match without g anchor at 0; with g the matches must follow each other', async () => {
    assert.equal(await resultOf({ pattern: 'b', flags: 'y', input: 'ab', action: 'test' }), false)
    assert.equal(await resultOf({ pattern: 'a', flags: 'y', input: 'ab', action: 'test' }), true)
    assert.deepEqual(
      ((await resultOf({ pattern: 'a', flags: 'gy', input: 'aaba' })) as Match[]).map((m) => m.index),
      [0, 1],
    )
    assert.equal(await resultOf({ pattern: 'a', flags: 'gy', input: 'aaba', action: 'replace', replacement: 'x' }), 'xxba')
  })

  test('an empty match steps over a surrogate pair with u, v and RE2, over one code unit without; lone surrogates are a warning', async () => {
    const indices = async (fields: Fields) => ((await resultOf({ pattern: '(?:)', input: '😀b', ...fields })) as Match[]).map((m) => m.index)
    assert.deepEqual(await indices({}), [0, 1, 2, 3])
    assert.deepEqual(await indices({ flags: 'gu' }), [0, 2, 3])
    assert.deepEqual(await indices({ flags: 'gv' }), [0, 2, 3])
    assert.deepEqual(await indices({ flavor: 're2' }), [0, 2, 3])
    const split = await run({ pattern: '(?:)', input: '😀b', action: 'split' })
    assert.deepEqual(split.result, ['\ud83d', '\ude00', 'b'])
    assert.match((split.warnings as string[])[0], /2 strings of the result hold a lone surrogate/)
    assert.equal((await run({ pattern: '(?:)', flags: 'u', input: '😀b', action: 'split' })).warnings, undefined)
    // Lone surrogates leave as \u escapes: the JSON is valid and well formed.
    const json = (await inProcess(async () => JSON.stringify(await execute(regex, { pattern: '(?:)', input: '😀', action: 'split' })))) as string
    assert.ok(json.includes('"\\ud83d"'))
  })

  test('match: at most maxMatches, truncated when more existed; count as answered', async () => {
    const answer = await run({ pattern: '\\d', input: '123456', maxMatches: 4 })
    assert.equal(answer.count, 4)
    assert.equal(answer.truncated, true)
    const all = await run({ pattern: '\\d', input: '1234', maxMatches: 4 })
    assert.equal(all.truncated, false)
    const first = await run({ pattern: '\\d', flags: '', input: '1234' })
    assert.equal(first.count, 1)
    assert.equal((await run({ pattern: 'x', input: 'abc', action: 'test' })).count, 0)
    assert.equal((await run({ pattern: 'b', input: 'abcb', action: 'replace', replacement: '' })).count, 2)
    assert.equal((await run({ pattern: 'b', flags: '', input: 'abcb', action: 'replace', replacement: '' })).count, 1)
  })

  test('split: an empty input gives [""] unless the pattern matches it; limit 0 gives none; g and y are ignored', async () => {
    assert.deepEqual(await resultOf({ pattern: 'x', input: '', action: 'split' }), [''])
    assert.deepEqual(await resultOf({ pattern: 'x*', input: '', action: 'split' }), [])
    assert.deepEqual(await resultOf({ pattern: ',', input: 'a,b', action: 'split', limit: 0 }), [])
    assert.deepEqual(await resultOf({ pattern: ',', flags: 'gy', input: 'a,b,c', action: 'split' }), ['a', 'b', 'c'])
    assert.deepEqual(await resultOf({ pattern: '(x)?,', input: 'a,b', action: 'split' }), ['a', null, 'b'])
  })
})

describe('regex: refusals', () => {
  test('400 for flags: unknown, repeated, u with v, and what RE2 does not take', async () => {
    for (const flags of ['x', 'gg', 'uv', 'vu', 'G'])
      await expectRefusal(run({ pattern: 'a', input: 'a', flags }), { code: 'VALIDATION_ERROR', field: 'flags' })
    for (const flags of ['y', 'u', 'v', 'gu']) {
      await expectRefusal(run({ pattern: 'a', input: 'a', flags, flavor: 're2' }), { code: 'VALIDATION_ERROR', field: 'flags', message: /flavor re2/ })
    }
    assert.equal(await resultOf({ pattern: 'A', input: 'a', flags: 'dgims', flavor: 're2', action: 'test' }), true)
  })

  test('400 for replacement given to another action or missing for replace, limit outside split, a missing or empty pattern', async () => {
    await expectRefusal(run({ pattern: 'a', input: 'a', replacement: 'b' }), { code: 'VALIDATION_ERROR', field: 'replacement' })
    await expectRefusal(run({ pattern: 'a', input: 'a', action: 'replace' }), { code: 'VALIDATION_ERROR', field: 'replacement' })
    await expectRefusal(run({ pattern: 'a', input: 'a', action: 'test', limit: 2 }), { code: 'VALIDATION_ERROR', field: 'limit' })
    await expectRefusal(run({ input: 'a' }), { code: 'VALIDATION_ERROR', field: 'pattern' })
    await expectRefusal(run({ pattern: '', input: 'a' }), { code: 'VALIDATION_ERROR', field: 'pattern' })
    await expectRefusal(run({ pattern: 'a'.repeat(10_001), input: 'a' }), { code: 'VALIDATION_ERROR', field: 'pattern' })
    await expectRefusal(run({ pattern: 'a', input: 'a', maxMatches: 0 }), { code: 'VALIDATION_ERROR', field: 'maxMatches' })
    await expectRefusal(run({ pattern: 'a', input: 'a', action: 'split', limit: MAX_SPLIT_PIECES + 1 }), { code: 'VALIDATION_ERROR', field: 'limit' })
  })

  test('422 INVALID_INPUT with the engine’s message for a pattern that does not compile', async () => {
    await expectRefusal(run({ pattern: '(', input: 'a' }), {
      code: 'INVALID_INPUT',
      message: /Invalid regular expression: \/\(\/g?: Unterminated group/,
      details: { field: 'pattern', flavor: 'ecmascript' },
    })
    await expectRefusal(run({ pattern: '(', input: 'a', flavor: 're2' }), {
      code: 'INVALID_INPUT',
      details: { field: 'pattern', flavor: 're2', message: 'missing closing ): `(`' },
    })
    // Go syntax, not ECMAScript: each of these is refused by RE2.
    for (const pattern of RE2_REFUSED) {
      await expectRefusal(run({ pattern, input: 'a', flavor: 're2' }), { code: 'INVALID_INPUT', details: { field: 'pattern', flavor: 're2' } })
    }
    await expectRefusal(run({ pattern: '[z-a]', input: 'a' }), { code: 'INVALID_INPUT', message: /Range out of order/ })
    await expectRefusal(run({ pattern: '\\p{Nope}', flags: 'u', input: 'a' }), { code: 'INVALID_INPUT' })
  })

  test('in the built service too, where class names are minified, an RE2 pattern that does not compile is a 422 naming pattern', async () => {
    const service = await startService({ RATE_LIMIT_MAX: '0' })
    const send = (pattern: string) =>
      fetch(`${service.url}/api/v1/regex`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ flavor: 're2', pattern, input: 'a' }),
      })
    try {
      // A service just started on a busy machine sheds calls (503 OVERLOADED) while its event loop
      // still lags from the start: the refusals are asked for once it answers.
      for (let attempt = 0; (await send('a')).status === 503 && attempt < 100; attempt++) await sleep(100)
      for (const pattern of RE2_REFUSED) {
        const response = await send(pattern)
        const { error } = (await response.json()) as { error: { code: string; details?: { field: string } } }
        assert.deepEqual(
          { status: response.status, code: error.code, field: error.details?.field },
          { status: 422, code: 'INVALID_INPUT', field: 'pattern' },
          pattern,
        )
      }
    } finally {
      service.child.kill('SIGTERM')
      await service.exited
    }
  })

  test('a long pattern in a compile error is not echoed whole', async () => {
    const refusal = await expectRefusal(run({ pattern: '('.repeat(10_000), input: 'a' }), { code: 'INVALID_INPUT' })
    assert.ok(refusal.message.length < 400, `${refusal.message.length} characters`)
  })

  test('422 LIMIT_EXCEEDED: more split pieces than allowed, a result past the output limit, counted while built', async () => {
    await expectRefusal(run({ pattern: '(?:)', input: 'a'.repeat(MAX_SPLIT_PIECES + 1), action: 'split' }), {
      code: 'LIMIT_EXCEEDED',
      details: { limit: MAX_SPLIT_PIECES },
    })
    assert.equal(((await resultOf({ pattern: '(?:)', input: 'a'.repeat(MAX_SPLIT_PIECES + 1), action: 'split', limit: 10 })) as string[]).length, 10)
    const big = 'a'.repeat(1024 * 1024)
    await expectRefusal(run({ pattern: '(?:)', input: big, action: 'replace', replacement: '$`' }), {
      code: 'LIMIT_EXCEEDED',
      details: { limit: OUTPUT_LIMIT_BYTES },
    })
    await expectRefusal(run({ pattern: '(?=(.*))', input: big, action: 'split' }), { code: 'LIMIT_EXCEEDED' })
    await expectRefusal(run({ pattern: '(?=(.*))', input: big }), { code: 'LIMIT_EXCEEDED' })
    await expectRefusal(run({ pattern: '(?:)', input: 'a'.repeat(3000), action: 'replace', replacement: `$'`.repeat(5000) }), { code: 'LIMIT_EXCEEDED' })
  })

  test('a result whose JSON is over the limit though its characters are not (control characters, six bytes each)', async () => {
    const controls = '\u0001'.repeat(1024 * 1024)
    await expectRefusal(run({ pattern: '[^]+', flags: '', input: controls, action: 'replace', replacement: '$&$&$&' }), {
      code: 'LIMIT_EXCEEDED',
      message: /bytes of JSON/,
    })
  })
})

describe('regex: hostile inputs, on the worker as served', () => {
  test('a worker thread is ready (it loads the whole registry before its first task)', async () => {
    assert.equal((await onWorker({ pattern: 'a', input: 'a', action: 'test' }, true)).result, true)
  })

  test('catastrophic backtracking is stopped within the regex budget: 422 naming it and suggesting re2; the next call is answered', async () => {
    const started = Date.now()
    await expectRefusal(onWorker({ pattern: '(a+)+$', input: `${'a'.repeat(30)}!`, action: 'test' }), {
      code: 'LIMIT_EXCEEDED',
      message: /catastrophically.*re2/,
      check: (error) => error.details?.reason === 'timeout' && typeof error.details?.limitMs === 'number',
    })
    assert.ok(Date.now() - started < 4000, `${Date.now() - started} ms`)
    // The stopped thread is replaced; the next call is answered.
    assert.equal((await onWorker({ pattern: 'a+', input: 'aaa', action: 'test' }, true)).result, true)
  })

  test('re2 runs on a worker too: a pattern of hundreds of groups over a short input is stopped at the regex budget, never on the event loop', async () => {
    assert.equal(regex.offload?.({ ...validate<Fields>(regex.input, { pattern: 'a', input: 'a', flavor: 're2' }) } as never), true)
    await expectRefusal(onWorker({ pattern: `${'(x*)'.repeat(400)}$`, input: 'x'.repeat(16_000), flavor: 're2', maxMatches: 1 }), {
      code: 'LIMIT_EXCEEDED',
      check: (error) => error.details?.reason === 'timeout',
    })
  })

  test('every match repeats each group’s name: long names over many matches are counted against the output limit before the answer is built', async () => {
    const name = 'a'.repeat(9_990)
    await expectRefusal(onWorker({ pattern: `(?<${name}>)`, input: 'x'.repeat(30_000), maxMatches: 100_000 }, true), {
      code: 'LIMIT_EXCEEDED',
      check: (error) => error.details?.limit === 16 * 1024 * 1024,
    })
    const fits = await onWorker({ pattern: `(?<${name}>)`, input: 'x'.repeat(1_000), maxMatches: 100_000 }, true)
    assert.equal(fits.count, 1_001)
  })

  test('re2 is linear: the catastrophic pattern over 1 MiB answers false in well under the regex budget (in process, CPU time)', async () => {
    const big = `${'a'.repeat(1024 * 1024)}!`
    const cpu = await cpuTimeOfAsync(async () => assert.equal(await resultOf({ pattern: '(a+)+$', input: big, flavor: 're2', action: 'test' }), false))
    assert.ok(cpu < 1000, `${cpu} ms`)
  })

  test('re2 on 1 MiB: the same pattern answers false; an empty pattern over 1 MiB stops at maxMatches', async () => {
    const big = `${'a'.repeat(1024 * 1024)}!`
    assert.equal((await onWorker({ pattern: '(a+)+$', input: big, flavor: 're2', action: 'test' }, true)).result, false)
    const answer = await onWorker({ pattern: '(?:)', input: big }, true)
    assert.equal(answer.count, 1000)
    assert.equal(answer.truncated, true)
    const re2 = await onWorker({ pattern: '(?:)', input: big, flavor: 're2', maxMatches: 100_000 }, true)
    assert.equal(re2.count, 100_000)
  })

  test('the deepest group nest a pattern can hold compiles and runs harmlessly (RE2 refuses it)', async () => {
    const depth = 4999
    const answer = await onWorker({ pattern: `${'('.repeat(depth)}a${')'.repeat(depth)}`, input: 'xa' }, true)
    assert.equal(answer.count, 1)
    assert.equal((answer.groups as unknown[]).length, depth)
    // RE2 bounds nesting itself, as Go does.
    await expectRefusal(run({ pattern: `${'('.repeat(depth)}a${')'.repeat(depth)}`, input: 'xa', flavor: 're2', action: 'test' }), {
      code: 'INVALID_INPUT',
      details: { message: 'expression nests too deeply' },
    })
    await expectRefusal(onWorker({ pattern: '('.repeat(10_000), input: 'a' }, true), { code: 'INVALID_INPUT' })
  })
})
