import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute, setOffloadPolicy } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { MAX_CONTAINERS, MAX_OPERATIONS, PATCH_ERROR_REASONS } from './apply.ts'
import { jsonPatch } from './index.ts'

after(() => closeWorkerPool())

const run = (input: Record<string, unknown>, timeBudgetMs = 60_000) => execute(jsonPatch, input, { timeBudgetMs })
const applied = async (document: unknown, patch: unknown, format = 'jsonPatch') =>
  (await run({ input: JSON.stringify(document), patch: JSON.stringify(patch), format })).result
const diffed = async (before: unknown, after: unknown, fields: Record<string, unknown> = {}) =>
  (await run({ input: JSON.stringify(before), compareTo: JSON.stringify(after), action: 'diff', ...fields })).result

/** A JSON value's text with every object's members in sorted order: equal for equal JSON values, whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}
const assertSameJson = (actual: unknown, expected: unknown, context?: string) => assert.equal(canonical(actual), canonical(expected), context)

interface SuiteCase {
  comment?: string
  doc: unknown
  patch: unknown
  expected?: unknown
  error?: string
  disabled?: boolean
}

// Published test data: github.com/json-patch/json-patch-tests (see test/fixtures/suites/json-patch-tests/SOURCE.txt).
const SUITE = new URL('../../../test/fixtures/suites/json-patch-tests/', import.meta.url)
const suiteOf = (file: string) => JSON.parse(readFileSync(new URL(file, SUITE), 'utf8')) as SuiteCase[]

/**
 * The suite's disabled cases that this operation cannot pass, and why. The others it disables (a
 * scalar document replaced whole, a test of the whole document) are run with the rest.
 */
const NOT_APPLICABLE: Record<string, string> = {
  'duplicate ops': 'the case is a patch with two op members; once its JSON is read (the last member wins, as JSON.parse does) it is a valid move',
  'A.13 Invalid JSON Patch Document':
    "the case's operation has two op members; once read it is a remove of a missing member, which fails for that reason rather than for the duplicate",
}

describe('json-patch', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(jsonPatch).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/json-patch/index.ts')
  })

  for (const file of ['tests.json', 'spec_tests.json']) {
    test(`passes every case of json-patch-tests ${file} (${suiteOf(file).length} cases)`, async () => {
      let passed = 0
      for (const testCase of suiteOf(file)) {
        const name = testCase.comment ?? JSON.stringify(testCase.patch)
        if (testCase.disabled && name in NOT_APPLICABLE) continue
        // Given as JSON text, so that a string document is a string, not text to read.
        const answer = run({ input: JSON.stringify(testCase.doc), patch: JSON.stringify(testCase.patch) })
        if (testCase.error !== undefined) {
          await expectRefusal(answer, {
            code: 'INVALID_INPUT',
            check: (error) => assert.ok(PATCH_ERROR_REASONS.includes(error.details?.reason as never), name),
          })
        } else {
          const data = await answer
          if ('expected' in testCase) assertSameJson(data.result, testCase.expected, name)
        }
        passed++
      }
      const expectedPassed = { 'tests.json': 94, 'spec_tests.json': 16 }[file]
      assert.equal(passed, expectedPassed, 'every enabled case, and the disabled ones that apply')
    })
  }

  test('RFC 6902 Appendix A, as the vectors name them', async () => {
    assert.deepEqual(await applied({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }]), { foo: 'bar', baz: 'qux' })
    assert.deepEqual(await applied({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }]), { foo: ['bar', 'qux', 'baz'] })
    assert.deepEqual(await applied({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }]), {
      foo: ['all', 'cows', 'eat', 'grass'],
    })
    // A.11: a member an operation does not know is ignored.
    assert.deepEqual(await applied({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }]), { foo: 'bar', baz: 'qux' })
    await expectRefusal(run({ input: { foo: 'bar' }, patch: [{ op: 'add', path: '/baz/bat', value: 'qux' }] }), {
      code: 'INVALID_INPUT',
      details: { operation: 0, op: 'add', path: '/baz/bat', reason: 'noSuchPath' },
    })
    // A.14: ~01 is ~1 (the key "~1"), not /.
    assert.deepEqual(await applied({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }]), { '/': 9, '~1': 10 })
    await expectRefusal(run({ input: { '/': 9, '~1': 10 }, patch: [{ op: 'test', path: '/~01', value: '10' }] }), {
      details: { reason: 'testFailed' },
    })
    await expectRefusal(run({ input: ['foo', 'bar'], patch: [{ op: 'test', path: '/01', value: 'bar' }] }), {
      details: { reason: 'invalidPointer' },
    })
  })

  test('RFC 7396 Appendix A: every case', async () => {
    const cases: Array<[unknown, unknown, unknown]> = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [
        ['a', 'b'],
        ['c', 'd'],
        ['c', 'd'],
      ],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ]
    for (const [target, patch, result] of cases) {
      assert.deepEqual(await applied(target, patch, 'mergePatch'), result, `${JSON.stringify(target)} + ${JSON.stringify(patch)}`)
    }
  })

  test('applies to a copy: the input is left as it was, whether the patch applies or fails', async () => {
    const input = { list: [1, 2], nested: { a: 1 } }
    const before = structuredClone(input)
    await run({
      input,
      patch: [
        { op: 'add', path: '/list/-', value: 3 },
        { op: 'remove', path: '/nested/a' },
      ],
    })
    assert.deepEqual(input, before)
    await expectRefusal(
      run({
        input,
        patch: [
          { op: 'remove', path: '/list/0' },
          { op: 'remove', path: '/missing' },
        ],
      }),
      {
        details: { operation: 1, op: 'remove', path: '/missing', reason: 'noSuchPath' },
      },
    )
    assert.deepEqual(input, before)
    await run({ input, patch: { nested: { a: null } }, format: 'mergePatch' })
    assert.deepEqual(input, before)
  })

  test('a copy is a value of its own: changing it later leaves its source alone', async () => {
    const result = await applied({ a: { list: [1] } }, [
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'add', path: '/b/list/-', value: 2 },
      { op: 'replace', path: '/b/x', value: 1 },
    ]).catch(() => undefined)
    assert.equal(result, undefined, 'replace of a missing member fails')
    assert.deepEqual(
      await applied({ a: { list: [1] } }, [
        { op: 'copy', from: '/a', path: '/b' },
        { op: 'add', path: '/b/list/-', value: 2 },
      ]),
      { a: { list: [1] }, b: { list: [1, 2] } },
    )
  })

  test('__proto__ is an ordinary key, in the document and in pointers', async () => {
    const { result } = await run({
      input: '{"__proto__":{"kept":true}}',
      patch: '[{"op":"add","path":"/__proto__/polluted","value":1},{"op":"add","path":"/constructor","value":{"prototype":{"polluted":1}}}]',
    })
    assert.equal(JSON.stringify(result), '{"__proto__":{"kept":true,"polluted":1},"constructor":{"prototype":{"polluted":1}}}')
    assert.equal(Object.getPrototypeOf(result), Object.prototype)
    assert.equal(({} as Record<string, unknown>).polluted, undefined)
    // Object.prototype's members are no members of a document.
    await expectRefusal(run({ input: {}, patch: [{ op: 'remove', path: '/toString' }] }), { details: { reason: 'noSuchPath' } })
    const merged = await run({ input: {}, patch: '{"__proto__":{"polluted":1}}', format: 'mergePatch' })
    assert.equal(JSON.stringify(merged.result), '{"__proto__":{"polluted":1}}')
    assert.equal(({} as Record<string, unknown>).polluted, undefined)
    const generated = await run({ input: '{}', compareTo: '{"__proto__":{"a":1}}', action: 'diff' })
    assert.equal(JSON.stringify(generated.result), '[{"op":"add","path":"/__proto__","value":{"a":1}}]')
  })

  test('JSON Pointers: ~0 and ~1 read and written, leading zeros and other tokens refused in arrays', async () => {
    assert.deepEqual(await applied({ 'a/b': { 'm~n': 1 } }, [{ op: 'replace', path: '/a~1b/m~0n', value: 2 }]), { 'a/b': { 'm~n': 2 } })
    assert.deepEqual(await diffed({ 'a/b': { 'm~n': 1 } }, { 'a/b': { 'm~n': 2 } }), [{ op: 'replace', path: '/a~1b/m~0n', value: 2 }])
    assert.deepEqual(await applied({ '': { '': 1 } }, [{ op: 'replace', path: '//', value: 2 }]), { '': { '': 2 } })
    assert.deepEqual(await applied({ '0': 'key' }, [{ op: 'replace', path: '/0', value: 'still a key' }]), { '0': 'still a key' })
    assert.deepEqual(await applied([1, 2], [{ op: 'add', path: '/-', value: 3 }]), [1, 2, 3])
    assert.deepEqual(await applied([1, 2], [{ op: 'add', path: '/2', value: 3 }]), [1, 2, 3])
    for (const path of ['/00', '/01', '/-1', '/1e0', '/+1', '/ 1', '/x']) {
      await expectRefusal(run({ input: [1, 2], patch: [{ op: 'test', path, value: 2 }] }), { details: { reason: 'invalidPointer', path } })
    }
    for (const path of ['a', '/a~2', '/~', '/a~']) {
      await expectRefusal(run({ input: { a: 1 }, patch: [{ op: 'remove', path }] }), { details: { reason: 'invalidPointer' } })
    }
    await expectRefusal(run({ input: [1, 2], patch: [{ op: 'remove', path: '/-' }] }), { details: { reason: 'indexOutOfRange' } })
    await expectRefusal(run({ input: [1, 2], patch: [{ op: 'replace', path: '/99999999999999999999', value: 1 }] }), {
      details: { reason: 'indexOutOfRange' },
    })
  })

  test('refuses each kind of bad operation with its reason and the operation it is', async () => {
    const refusals: Array<[unknown[], Record<string, unknown>]> = [
      [[1], { operation: 0, reason: 'notAnOperation' }],
      [[{ op: 'test', path: '/list/0', value: 1 }, null], { operation: 1, reason: 'notAnOperation' }],
      [[{ op: 'delete', path: '/a' }], { operation: 0, op: 'delete', path: '/a', reason: 'unknownOp' }],
      [[{ op: 7, path: '/a' }], { operation: 0, path: '/a', reason: 'unknownOp' }],
      [[{ path: '/a' }], { operation: 0, path: '/a', reason: 'missingMember' }],
      [[{ op: 'add', value: 1 }], { operation: 0, op: 'add', reason: 'missingMember' }],
      [[{ op: 'replace', path: '/a' }], { operation: 0, reason: 'missingMember' }],
      [[{ op: 'copy', path: '/b' }], { operation: 0, reason: 'missingMember' }],
      [[{ op: 'remove', path: 5 }], { operation: 0, op: 'remove', reason: 'invalidPointer' }],
      [[{ op: 'remove', path: '' }], { operation: 0, reason: 'invalidPointer' }],
      [[{ op: 'add', path: '/a/b/c', value: 1 }], { operation: 0, reason: 'noSuchPath' }],
      [[{ op: 'add', path: '/list/3', value: 1 }], { operation: 0, reason: 'indexOutOfRange' }],
      [[{ op: 'move', from: '/a', path: '/a/b' }], { operation: 0, op: 'move', path: '/a/b', from: '/a', reason: 'moveIntoChild' }],
      [[{ op: 'move', from: '', path: '/x' }], { operation: 0, reason: 'moveIntoChild' }],
      [[{ op: 'test', path: '/list', value: [1] }], { operation: 0, reason: 'testFailed' }],
      [[{ op: 'test', path: '/a', value: { b: 1, c: 2 } }], { operation: 0, reason: 'testFailed' }],
    ]
    for (const [patch, details] of refusals) {
      await expectRefusal(run({ input: { a: { b: 1 }, list: [1, 2] }, patch }), { code: 'INVALID_INPUT', details, message: /^Operation \d+ of the patch/ })
    }
    const reasons = new Set(refusals.map(([, details]) => details.reason))
    assert.deepEqual([...reasons].sort(), [...PATCH_ERROR_REASONS].sort(), 'every reason is shown')
  })

  test('move: to itself is nothing, out of an array into a place after it counts the indexes after the removal', async () => {
    assert.deepEqual(await applied({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }]), { a: 1 })
    assert.deepEqual(await applied({ list: ['x', 'y', {}] }, [{ op: 'move', from: '/list/0', path: '/list/1/x' }]), { list: ['y', { x: 'x' }] })
    assert.deepEqual(await applied({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '' }]), { b: 1 })
    assert.deepEqual(await applied({ a: 1 }, [{ op: 'test', path: '', value: { a: 1 } }]), { a: 1 })
    assert.deepEqual(await applied({ a: 1.0 }, [{ op: 'test', path: '/a', value: 1 }]), { a: 1 })
  })

  test('refuses what the schema cannot say, as a field error (400)', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ input: {}, format: 'jsonMergePatch', patch: {} }, 'format'],
      [{ input: {} }, 'patch'],
      [{ input: {}, action: 'diff' }, 'compareTo'],
      [{ input: {}, patch: [], compareTo: {} }, 'compareTo'],
      [{ input: {}, action: 'diff', compareTo: {}, patch: [] }, 'patch'],
      [{ input: {}, action: 'diff', compareTo: {}, format: 'mergePatch', invertible: true }, 'invertible'],
      [{ input: {}, patch: { op: 'add', path: '/a', value: 1 } }, 'patch'],
      [{ input: {}, patch: [], arrays: 'lcs' }, 'arrays'],
    ]
    for (const [input, field] of refused) await expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
  })

  test('refuses JSON text that is not JSON, or not a patch, with where (422)', async () => {
    await expectRefusal(run({ input: '{"a":', patch: [] }), { code: 'INVALID_INPUT', details: { field: 'input', position: 5 } })
    await expectRefusal(run({ input: {}, patch: '[{"op":"add"' }), { code: 'INVALID_INPUT', details: { field: 'patch' } })
    await expectRefusal(run({ input: {}, patch: '{"op":"add","path":"/a","value":1}' }), {
      code: 'INVALID_INPUT',
      details: { field: 'patch', reason: 'notAnOperation' },
    })
    await expectRefusal(run({ input: 'not json', compareTo: '{}', action: 'diff' }), { code: 'INVALID_INPUT', details: { field: 'input' } })
    await expectRefusal(run({ input: '"a\\ud800"', patch: [] }), { code: 'INVALID_INPUT', message: /lone surrogate/ })
  })

  test('warns of number literals in JSON text that a double cannot hold', async () => {
    const answer = await run({ input: '{"id":12345678901234567890,"ok":1.5,"s":"12345678901234567890","big":1e400}', patch: '[]' })
    assert.deepEqual(answer.warnings, [
      'input: the number 12345678901234567890 has no exact double, so it is read as 12345678901234567000',
      'input: the number 1e400 has no exact double, so it is read as Infinity',
    ])
    const diffAnswer = await run({ input: '[1.0, 2e0, -0]', compareTo: '[0.1000000000000000000000001]', action: 'diff' })
    assert.equal((diffAnswer.warnings as string[]).length, 1)
  })

  test('property: an empty patch gives the document back, and JSON.stringify text (every number a double) has nothing to warn of', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (document) => {
        const answer = await run({ input: JSON.stringify(document), patch: '[]' })
        assertSameJson(answer.result, document)
        assert.deepEqual(answer.warnings, [])
      }),
      { numRuns: 200 },
    )
    const escapes = await run({ input: '{"s":"a\\"1e400\\\\","t":"\\\\","n":12345678901234567890}', patch: [] })
    assert.deepEqual(escapes.result, { s: 'a"1e400\\', t: '\\', n: 12345678901234567000 })
    assert.equal((escapes.warnings as string[]).length, 1)
  })

  test('diff: objects member by member, arrays by their elements, invertible with a test before each change', async () => {
    assert.deepEqual(await diffed({ a: 1 }, { a: 1 }), [])
    assert.deepEqual(await diffed({ a: 1, b: 2 }, { b: 3, c: 4 }), [
      { op: 'remove', path: '/a' },
      { op: 'replace', path: '/b', value: 3 },
      { op: 'add', path: '/c', value: 4 },
    ])
    assert.deepEqual(await diffed([1, 2, 3], [0, 1, 2, 3]), [{ op: 'add', path: '/0', value: 0 }])
    assert.deepEqual(await diffed([1, 2, 3], [0, 1, 2, 3], { arrays: 'index' }), [
      { op: 'replace', path: '/0', value: 0 },
      { op: 'replace', path: '/1', value: 1 },
      { op: 'replace', path: '/2', value: 2 },
      { op: 'add', path: '/3', value: 3 },
    ])
    assert.deepEqual(await diffed([{ id: 1, n: 'a' }, { id: 2 }], [{ id: 1, n: 'b' }, { id: 2 }]), [{ op: 'replace', path: '/0/n', value: 'b' }])
    assert.deepEqual(await diffed(['a', 'b', 'c', 'd'], ['a', 'd']), [
      { op: 'remove', path: '/1' },
      { op: 'remove', path: '/1' },
    ])
    assert.deepEqual(await diffed({ a: [1, 2], b: 'x' }, { a: [2], b: 'y' }, { invertible: true }), [
      { op: 'test', path: '/a/0', value: 1 },
      { op: 'remove', path: '/a/0' },
      { op: 'test', path: '/b', value: 'x' },
      { op: 'replace', path: '/b', value: 'y' },
    ])
    assert.deepEqual(await diffed({ a: 1 }, [1]), [{ op: 'replace', path: '', value: [1] }])
    // Member order is no difference.
    assert.deepEqual(await diffed({ a: 1, b: { c: 1, d: 2 } }, { b: { d: 2, c: 1 }, a: 1 }), [])
  })

  test('a merge patch diff says what a merge patch cannot express', async () => {
    const answer = await run({ input: { a: { b: 1 } }, compareTo: { a: { b: null, c: null }, n: { x: null } }, action: 'diff', format: 'mergePatch' })
    assert.deepEqual(answer.result, { a: { b: null }, n: { x: null } })
    assert.deepEqual(answer.warnings, [
      'compareTo\'s member "/a/b" is null, which a merge patch cannot set: the patch removes the member instead',
      'compareTo\'s member "/a/c" is null, which a merge patch cannot set: the patch leaves it out',
      'compareTo\'s member "/n/x" is null, which a merge patch cannot set: the patch leaves it out',
    ])
    assert.deepEqual((await run({ input: { a: 1 }, compareTo: { a: 1 }, action: 'diff', format: 'mergePatch' })).result, {})
  })

  const jsonPair = fc.tuple(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 4 }))
  /** Values that share much, so that diffs find real edits rather than replacing everything. */
  const related = fc
    .tuple(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.tuple(fc.nat(5), fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 }))
    .map(([base, edits]) => {
      const after = structuredClone(base) as unknown
      for (const [at, value] of edits) {
        if (Array.isArray(after)) after.splice(at % (after.length + 1), at % 2, value)
        else if (after !== null && typeof after === 'object') (after as Record<string, unknown>)[`k${at}`] = value
      }
      return [base, after] as const
    })

  test('property: applying the JSON Patch diff(a, b) to a gives b, for every array mode, invertible or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonPair, related), fc.constantFrom('smart', 'index'), fc.boolean(), async ([before, after], arrays, invertible) => {
        const patch = await diffed(before, after, { arrays, invertible })
        assertSameJson(await applied(before, patch), after)
      }),
      { numRuns: 300 },
    )
  })

  /** JSON values without null: a merge patch cannot set one. */
  const noNull = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
    ),
  })).value

  test('property: applying the merge patch diff(a, b) to a gives b where b holds no null', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), noNull, async (before, after) => {
        const answer = await run({ input: JSON.stringify(before), compareTo: JSON.stringify(after), action: 'diff', format: 'mergePatch' })
        assertSameJson(await applied(before, answer.result, 'mergePatch'), after)
      }),
      { numRuns: 300 },
    )
  })

  test('property: a failed test operation leaves nothing applied; the answer never depends on member order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }), async (document) => {
        const reversed = Object.fromEntries(Object.entries(document).reverse())
        assert.deepEqual(await diffed(document, reversed), [])
        const patch = [
          { op: 'add', path: '/new', value: 1 },
          { op: 'test', path: '', value: 'not the document' },
        ]
        await expectRefusal(run({ input: JSON.stringify(document), patch }), { details: { operation: 1, reason: 'testFailed' } })
      }),
      { numRuns: 100 },
    )
  })

  describe('limits', () => {
    test(`a patch of more than ${MAX_OPERATIONS} operations`, async () => {
      const patch = Array.from({ length: MAX_OPERATIONS + 1 }, () => ({ op: 'test', path: '', value: 1 }))
      await expectRefusal(run({ input: 1, patch }), { code: 'LIMIT_EXCEEDED', details: { field: 'patch', limit: MAX_OPERATIONS } })
      const fine = await run({ input: 1, patch: patch.slice(1) })
      assert.equal(fine.operations, MAX_OPERATIONS)
    })

    test('a diff of more operations than a patch may hold', async () => {
      const before = Array.from({ length: MAX_OPERATIONS + 1 }, (_, index) => index)
      const after = before.map((value) => -value - 1)
      await expectRefusal(run({ input: before, compareTo: after, action: 'diff', arrays: 'index' }), { code: 'LIMIT_EXCEEDED' })
    })

    test('copies that double the document are stopped at the output limit, before they are built', async () => {
      const patch = Array.from({ length: 40 }, (_, index) => ({ op: 'copy', from: '', path: `/copy${index}` }))
      const started = performance.now()
      await expectRefusal(run({ input: { text: 'x'.repeat(1000) }, patch }), {
        code: 'LIMIT_EXCEEDED',
        check: (error) => assert.equal(error.details?.limit, OUTPUT_LIMIT_BYTES),
      })
      assert.ok(performance.now() - started < 2000)
      // Removing what was copied does not make room: what is written counts as it is written.
      const churn = Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? { op: 'copy', from: '/text', path: '/copy' } : { op: 'remove', path: '/copy' }))
      await expectRefusal(run({ input: { text: 'x'.repeat(1_000_000) }, patch: churn }), { code: 'LIMIT_EXCEEDED' })
    })

    test('copies that double a document of many small containers: refused at the copy that would pass the limit, on a worker thread', async () => {
      const doubling = Array.from({ length: 30 }, () => ({ op: 'copy', from: '/a', path: '/a/-' }))
      const fields = { input: { a: [1] }, patch: doubling, action: 'apply' as const, format: 'jsonPatch' as const, arrays: 'smart' as const, invertible: false }
      // The patch is small, but its copies could build a large document: that is built off the event loop.
      assert.equal(jsonPatch.offload?.(fields), true)
      assert.equal(jsonPatch.offload?.({ ...fields, patch: JSON.stringify(doubling) }), true)
      assert.equal(jsonPatch.offload?.({ ...fields, patch: doubling.slice(0, 1) }), false)
      for (const policy of ['auto', 'never'] as const) {
        const previous = setOffloadPolicy(policy)
        const started = performance.now()
        await expectRefusal(
          run({ input: { a: [1] }, patch: doubling }).finally(() => setOffloadPolicy(previous)),
          {
            code: 'LIMIT_EXCEEDED',
            details: { operation: 19, op: 'copy', path: '/a/-', limit: MAX_CONTAINERS },
          },
        )
        assert.ok(performance.now() - started < 30_000, policy)
      }
      // Below both limits, such a patch is applied.
      const applied = await run({ input: { a: [1] }, patch: doubling.slice(0, 10) })
      assert.equal(JSON.stringify(applied.result).length, 6 + 2 ** 12 - 1)
    })

    test('nesting past 100 levels, given or made by add, copy or move', async () => {
      const deep = (depth: number): unknown => (depth === 0 ? 1 : { a: deep(depth - 1) })
      await expectRefusal(run({ input: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, patch: [] }), { code: 'LIMIT_EXCEEDED' })
      await expectRefusal(run({ input: deep(101), patch: [] }), { code: 'LIMIT_EXCEEDED' })
      // The patch nests its value two levels deep itself (an array of objects).
      await expectRefusal(run({ input: { x: { y: {} } }, patch: [{ op: 'add', path: '/x/y/z', value: deep(98) }] }), {
        code: 'LIMIT_EXCEEDED',
        details: { operation: 0, op: 'add', path: '/x/y/z', limit: 100 },
      })
      assert.equal((await run({ input: { x: { y: {} } }, patch: [{ op: 'add', path: '/x/y', value: deep(98) }] })).operations, 1)
      const sixty = { left: deep(60), right: deep(60) }
      const deepPath = `/right${'/a'.repeat(59)}`
      await expectRefusal(run({ input: sixty, patch: [{ op: 'move', from: '/left', path: deepPath }] }), { code: 'LIMIT_EXCEEDED' })
      await expectRefusal(run({ input: sixty, patch: [{ op: 'copy', from: '/left', path: deepPath }] }), { code: 'LIMIT_EXCEEDED' })
      // A path longer than any the document can hold leads nowhere: that is what is told.
      await expectRefusal(run({ input: {}, patch: [{ op: 'add', path: '/a'.repeat(150), value: 1 }] }), { details: { reason: 'noSuchPath' } })
      // Within the limit: a value moved up and down again.
      const moved = await run({
        input: sixty,
        patch: [
          { op: 'move', from: `/right${'/a'.repeat(30)}`, path: '/mid' },
          { op: 'move', from: '/mid', path: `/left${'/a'.repeat(30)}` },
        ],
      })
      assert.equal(moved.operations, 2)
    })

    test('large arrays: a few edits found at once, many edits or too little time fall back to index by index', async () => {
      const long = Array.from({ length: 50_000 }, (_, index) => index)
      const edited = [...long]
      edited.splice(100, 1)
      edited.splice(25_000, 0, -1)
      edited[40_000] = -2
      let started = performance.now()
      const few = await run({ input: long, compareTo: edited, action: 'diff' })
      assert.deepEqual(few.result, [
        { op: 'remove', path: '/100' },
        { op: 'add', path: '/25000', value: -1 },
        { op: 'replace', path: '/40000', value: -2 },
      ])
      assert.ok(performance.now() - started < 2000)
      const changed = long.slice(0, 5000).map((value) => -value - 1)
      started = performance.now()
      const many = await run({ input: long.slice(0, 5000), compareTo: changed, action: 'diff' })
      assert.equal(many.operations, 5000)
      assert.ok(performance.now() - started < 2000)
      // Scattered edits under a tiny time budget: whichever way the arrays are diffed, the patch is right.
      const scattered = long.map((value) => (value % 200 === 7 ? -value : value))
      started = performance.now()
      const previous = setOffloadPolicy('never')
      const hurried = await run({ input: long, compareTo: scattered, action: 'diff' }, 20).finally(() => setOffloadPolicy(previous))
      assert.equal(hurried.operations, 250)
      assert.ok(performance.now() - started < 2000)
    })
  })
})
