import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute, setOffloadPolicy } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate as validateBody } from '../../core/validate.ts'
import { jsonSchema } from './index.ts'

after(() => closeWorkerPool())

/** Most calls run in process, where they are quicker to test; the worker path has its own tests below. */
const inProcess = async <T>(work: () => Promise<T>): Promise<T> => {
  const previous = setOffloadPolicy('never')
  try {
    return await work()
  } finally {
    setOffloadPolicy(previous)
  }
}
const run = (input: Record<string, unknown>) => inProcess(() => execute(jsonSchema, input, { timeBudgetMs: 60_000 }))
const validity = async (instance: unknown, schema: unknown, fields: Record<string, unknown> = {}) =>
  (await run({ input: JSON.stringify(instance), schema: JSON.stringify(schema), ...fields })).result

/** Every field with its default, as `run` receives it after validation, so that a test can call `run` with what the body could not carry (a `__proto__` key). */
const withDefaults = (fields: Record<string, unknown>) => validateBody<Record<string, unknown>>(jsonSchema.input, fields)

// Published test data: github.com/json-schema-org/JSON-Schema-Test-Suite (see test/fixtures/suites/JSON-Schema-Test-Suite/SOURCE.txt).
const SUITE = new URL('../../../test/fixtures/suites/JSON-Schema-Test-Suite/tests/', import.meta.url)
const SUITE_DRAFTS = { 'draft2020-12': '2020-12', 'draft2019-09': '2019-09', draft7: 'draft-07', draft6: 'draft-06', draft4: 'draft-04' } as const
type SuiteFolder = keyof typeof SUITE_DRAFTS

interface SuiteGroup {
  description: string
  schema: unknown
  tests: Array<{ description: string; data: unknown; valid: boolean }>
}

/**
 * The suite's cases ajv 8.20.0 gets wrong, by draft, file and group (`all` its tests, or those
 * named), and why. A case that starts passing, or a new failure, makes the test fail, so this list
 * stays true. Cases whose schema refers to the suite's remote server (http://localhost:1234/) are
 * apart: the operation never fetches, so it refuses each of them (see REMOTE below).
 */
const REASONS = {
  dynamicRef: 'ajv 8 resolves $dynamicRef statically, not through the dynamic scope',
  relativeRef: 'ajv overflows its stack compiling a relative-URI or URN $ref between embedded resources (answered 422 LIMIT_EXCEEDED)',
  unevaluated: 'ajv 8 misses annotations that contains, if without then/else and nested items give unevaluatedItems and unevaluatedProperties',
  recursiveRef: 'ajv 8 follows $recursiveRef to the outer schema when the inner target has no $recursiveAnchor',
} as const

type Exception = [file: string, group: string, tests: 'all' | string[], reason: keyof typeof REASONS]

const KNOWN_FAILURES: Record<SuiteFolder, Exception[]> = {
  'draft2020-12': [
    [
      'dynamicRef',
      'A $dynamicRef to a $dynamicAnchor in the same schema resource behaves like a normal $ref to an $anchor',
      ['An array of strings is valid'],
      'dynamicRef',
    ],
    [
      'dynamicRef',
      'A $dynamicRef to an $anchor in the same schema resource behaves like a normal $ref to an $anchor',
      ['An array of strings is valid'],
      'dynamicRef',
    ],
    [
      'dynamicRef',
      'A $dynamicRef resolves to the first $dynamicAnchor still in scope that is encountered when the schema is evaluated',
      ['An array of strings is valid'],
      'dynamicRef',
    ],
    ['dynamicRef', 'A $dynamicRef without anchor in fragment behaves identical to $ref', ['An array of numbers is valid'], 'dynamicRef'],
    [
      'dynamicRef',
      "A $dynamicRef with intermediate scopes that don't include a matching $dynamicAnchor does not affect dynamic scope resolution",
      ['An array of strings is valid'],
      'dynamicRef',
    ],
    ['dynamicRef', 'An $anchor with the same name as a $dynamicAnchor is not used for dynamic scope resolution', 'all', 'dynamicRef'],
    ['dynamicRef', 'A $dynamicRef without a matching $dynamicAnchor in the same schema resource behaves like a normal $ref to $anchor', 'all', 'dynamicRef'],
    ['dynamicRef', 'A $dynamicRef with a non-matching $dynamicAnchor in the same schema resource behaves like a normal $ref to $anchor', 'all', 'dynamicRef'],
    [
      'dynamicRef',
      'A $dynamicRef that initially resolves to a schema with a matching $dynamicAnchor resolves to the first $dynamicAnchor in the dynamic scope',
      'all',
      'dynamicRef',
    ],
    [
      'dynamicRef',
      'A $dynamicRef that initially resolves to a schema without a matching $dynamicAnchor behaves like a normal $ref to $anchor',
      'all',
      'dynamicRef',
    ],
    ['dynamicRef', 'multiple dynamic paths to the $dynamicRef keyword', ['number list with string values', 'string list with number values'], 'dynamicRef'],
    ['dynamicRef', 'after leaving a dynamic scope, it is not used by a $dynamicRef', 'all', 'dynamicRef'],
    ['dynamicRef', '$dynamicRef points to a boolean schema', ['follow $dynamicRef to a false schema'], 'dynamicRef'],
    ['dynamicRef', '$dynamicRef skips over intermediate resources - direct reference', ['integer property passes'], 'dynamicRef'],
    ['dynamicRef', '$dynamicRef avoids the root of each schema, but scopes are still registered', 'all', 'dynamicRef'],
    ['ref', 'refs with relative uris and defs', 'all', 'relativeRef'],
    ['ref', 'relative refs with absolute uris and defs', 'all', 'relativeRef'],
    ['ref', 'URN ref with nested pointer ref', 'all', 'relativeRef'],
    ['unevaluatedItems', 'unevaluatedItems with nested items', ['with no additional items', 'with invalid additional item'], 'unevaluated'],
    ['unevaluatedItems', 'unevaluatedItems with $dynamicRef', 'all', 'dynamicRef'],
    ['unevaluatedItems', 'unevaluatedItems depends on adjacent contains', ['contains passes, second item is not evaluated'], 'unevaluated'],
    ['unevaluatedItems', 'unevaluatedItems depends on multiple nested contains', ['7 not evaluated, fails unevaluatedItems'], 'unevaluated'],
    [
      'unevaluatedItems',
      'unevaluatedItems and contains interact to control item dependency relationship',
      ["only b's are invalid", "only c's are invalid", "only b's and c's are invalid", "only a's and c's are invalid"],
      'unevaluated',
    ],
    ['unevaluatedItems', 'unevaluatedItems with minContains = 0', ['all items evaluated by contains'], 'unevaluated'],
    ['unevaluatedItems', 'unevaluatedItems can see annotations from if without then and else', ['valid in case if is evaluated'], 'unevaluated'],
    [
      'unevaluatedProperties',
      'unevaluatedProperties with if/then/else, then not defined',
      ['when if is true and has no unevaluated properties', 'when if is false and has unevaluated properties'],
      'unevaluated',
    ],
    ['unevaluatedProperties', 'unevaluatedProperties with $dynamicRef', 'all', 'dynamicRef'],
    ['unevaluatedProperties', 'unevaluatedProperties can see annotations from if without then and else', ['valid in case if is evaluated'], 'unevaluated'],
  ],
  'draft2019-09': [
    [
      'recursiveRef',
      '$recursiveRef with no $recursiveAnchor in the initial target schema resource',
      ['leaf node matches: recursion uses the inner schema', 'leaf node does not match: recursion uses the inner schema'],
      'recursiveRef',
    ],
    ['ref', 'refs with relative uris and defs', 'all', 'relativeRef'],
    ['ref', 'relative refs with absolute uris and defs', 'all', 'relativeRef'],
    ['ref', 'URN ref with nested pointer ref', 'all', 'relativeRef'],
    ['unevaluatedItems', 'unevaluatedItems with nested items', ['with no additional items', 'with invalid additional item'], 'unevaluated'],
    ['unevaluatedItems', 'unevaluatedItems can see annotations from if without then and else', ['valid in case if is evaluated'], 'unevaluated'],
    [
      'unevaluatedProperties',
      'unevaluatedProperties with if/then/else, then not defined',
      ['when if is true and has no unevaluated properties', 'when if is false and has unevaluated properties'],
      'unevaluated',
    ],
    ['unevaluatedProperties', 'unevaluatedProperties can see annotations from if without then and else', ['valid in case if is evaluated'], 'unevaluated'],
  ],
  draft7: [],
  draft6: [],
  draft4: [],
}

/** Where the suite's remote schemas would be served: a schema that names it is refused, never fetched. */
const REMOTE = 'http://localhost:1234/'

/** How many cases of each draft pass, are known failures and are refused for their remote references. */
const SUITE_COUNTS: Record<SuiteFolder, { cases: number; passed: number; known: number; remote: number }> = {
  'draft2020-12': { cases: 1299, passed: 1205, known: 45, remote: 49 },
  'draft2019-09': { cases: 1259, passed: 1207, known: 16, remote: 36 },
  draft7: { cases: 927, passed: 904, known: 0, remote: 23 },
  draft6: { cases: 839, passed: 816, known: 0, remote: 23 },
  draft4: { cases: 618, passed: 601, known: 0, remote: 17 },
}

describe('json-schema', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(jsonSchema).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/json-schema/index.ts')
  })

  test('JSON-Schema-Test-Suite: every required case of 2020-12, 2019-09, draft-07, draft-06 and draft-04, formats not asserted', async () => {
    const allCounts: Record<string, Record<string, number>> = {}
    for (const [folder, draft] of Object.entries(SUITE_DRAFTS) as Array<[SuiteFolder, string]>) {
      const counts = { cases: 0, passed: 0, known: 0, remote: 0 }
      allCounts[folder] = counts
      const unexpected: string[] = []
      const seenExceptions = new Set<Exception>()
      const files = readdirSync(new URL(`${folder}/`, SUITE)).filter((file) => file.endsWith('.json'))
      for (const file of files) {
        const name = file.slice(0, -'.json'.length)
        const groups = JSON.parse(readFileSync(new URL(`${folder}/${file}`, SUITE), 'utf8')) as SuiteGroup[]
        for (const group of groups) {
          const remote = JSON.stringify(group.schema).includes(REMOTE)
          for (const { description, data, valid } of group.tests) {
            counts.cases++
            // A string instance is JSON text to the operation; the schema goes in as a value, so that `__proto__` keys stay.
            const fields = withDefaults({ input: typeof data === 'string' ? JSON.stringify(data) : data, schema: {}, draft, formats: 'ignore' })
            fields.schema = group.schema
            let outcome: unknown
            try {
              outcome = ((await jsonSchema.run(fields as never)) as { result: boolean }).result
            } catch (error) {
              outcome = error
            }
            const where = `${folder}/${name}: ${group.description}: ${description}`
            if (outcome === valid) {
              counts.passed++
              continue
            }
            const refusal = outcome as { code?: string; message?: string }
            if (
              remote &&
              refusal.code === 'INVALID_INPUT' &&
              /remote references are not fetched|\$schema "http:\/\/localhost:1234\//.test(refusal.message ?? '')
            ) {
              counts.remote++
              continue
            }
            const exception = KNOWN_FAILURES[folder].find(
              ([f, g, tests]) => f === name && g === group.description && (tests === 'all' || tests.includes(description)),
            )
            if (exception === undefined) {
              unexpected.push(`${where}: expected ${valid}, got ${outcome instanceof Error ? outcome.message : String(outcome)}`)
              continue
            }
            seenExceptions.add(exception)
            counts.known++
          }
        }
      }
      assert.deepEqual(unexpected, [], `${folder}: cases that fail and are not known failures`)
      const stale = KNOWN_FAILURES[folder].filter((exception) => !seenExceptions.has(exception))
      assert.deepEqual(stale, [], `${folder}: known failures that pass now (take them off the list)`)
    }
    assert.deepEqual(allCounts, SUITE_COUNTS)
  })

  test('the published vectors of JSON-Schema-Test-Suite named for this operation', async () => {
    assert.equal(await validity(1.0, { type: 'integer' }), true)
    assert.equal(await validity(1.1, { type: 'integer' }), false)
    assert.equal(await validity([1, 1], { uniqueItems: true }), false)
    assert.equal(await validity([1, 2], { uniqueItems: true }), true)
    assert.equal(await validity({}, { required: ['__proto__', 'toString', 'constructor'] }), false)
    // A property named __proto__ is checked as any other, in every draft, and is no additional property.
    const protoNumber = '{"properties": {"__proto__": {"type": "number"}}, "additionalProperties": false}'
    for (const draft of ['2020-12', '2019-09', 'draft-07', 'draft-06', 'draft-04']) {
      assert.equal((await run({ input: '{"__proto__": "foo"}', schema: protoNumber, draft })).result, false, draft)
      assert.equal((await run({ input: '{"__proto__": 1}', schema: protoNumber, draft })).result, true, draft)
      assert.equal((await run({ input: '{"other": 1}', schema: protoNumber, draft })).result, false, draft)
    }
    // $ref stands alone up to draft-07: the keywords beside it are ignored; from 2019-09 they apply.
    const refWithSibling = { definitions: { list: { type: 'array' } }, properties: { foo: { $ref: '#/definitions/list', maxItems: 2 } } }
    for (const draft of ['draft-07', 'draft-06', 'draft-04']) assert.equal(await validity({ foo: [1, 2, 3] }, refWithSibling, { draft }), true, draft)
    assert.equal(await validity({ foo: 'x' }, refWithSibling, { draft: 'draft-07' }), false)
    assert.equal(await validity({ foo: [1, 2, 3] }, refWithSibling, { draft: '2019-09' }), false)
    assert.equal(await validity({ foo: 'foo' }, { unevaluatedProperties: false }), false)
    assert.equal(await validity({}, { unevaluatedProperties: false }), true)
    assert.equal(await validity(-2.0, { minimum: -2 }), true)
    // Formats apply to strings only, asserted or not.
    assert.equal(await validity(12, { format: 'email' }), true)
    assert.equal(await validity('not an address', { format: 'email' }), false)
    assert.equal(await validity('not an address', { format: 'email' }, { formats: 'ignore' }), true)
  })

  test('answers with every error, where it is and why', async () => {
    const answer = await run({ input: [1, 'x', 3, 'y'], schema: { items: { type: 'integer' } } })
    assert.deepEqual(answer, {
      result: false,
      action: 'validate',
      draft: '2020-12',
      errors: [
        { instancePath: '/1', schemaPath: '#/items/type', keyword: 'type', message: 'must be integer', params: { type: 'integer' } },
        { instancePath: '/3', schemaPath: '#/items/type', keyword: 'type', message: 'must be integer', params: { type: 'integer' } },
      ],
      errorCount: 2,
      truncated: false,
      warnings: [],
    })
    const many = await run({ input: Array.from({ length: 500 }, () => 'x'), schema: { items: { type: 'integer' } }, maxErrors: 3 })
    assert.equal(many.errorCount, 500)
    assert.equal((many.errors as unknown[]).length, 3)
    assert.equal(many.truncated, true)
  })

  test('reads the draft from $schema, or as asked', async () => {
    const draft04 = { $schema: 'http://json-schema.org/draft-04/schema#', minimum: 1, exclusiveMinimum: true }
    assert.deepEqual(await run({ input: 1, schema: draft04 }).then(({ result, draft }) => ({ result, draft })), { result: false, draft: 'draft-04' })
    const draft06 = { $schema: 'http://json-schema.org/draft-06/schema', exclusiveMinimum: 1 }
    assert.deepEqual(await run({ input: 1, schema: draft06 }).then(({ result, draft }) => ({ result, draft })), { result: false, draft: 'draft-06' })
    assert.equal((await run({ input: 2, schema: { exclusiveMinimum: 1 }, draft: 'draft-07' })).draft, 'draft-07')
    assert.equal((await run({ input: 2, schema: { $schema: 'https://json-schema.org/draft/2019-09/schema' } })).draft, '2019-09')
    const overridden = await run({ input: 2, schema: { $schema: 'https://json-schema.org/draft/2019-09/schema' }, draft: 'draft-07' })
    assert.equal(overridden.draft, 'draft-07')
    assert.match((overridden.warnings as string[])[0], /names 2019-09, but draft draft-07 was asked for/)
    // A draft-07 keyword of another meaning in draft-04: the dependencies of draft-07 accept a boolean schema.
    assert.equal(await validity({ a: 1 }, { dependencies: { a: false } }, { draft: 'draft-07' }), false)
  })

  test('a schema that is compiled once answers again the same: nothing of a call stays for the next', async () => {
    const schema = { $id: 'https://example.org/user', type: 'object', required: ['id'] }
    assert.equal(await validity({}, schema), false)
    assert.equal(await validity({ id: 1 }, schema), true)
    assert.equal(await validity({}, { ...schema, required: [] }), true)
  })

  test('refuses what it cannot process, saying why', async () => {
    await expectRefusal(run({ input: 1 }), { code: 'VALIDATION_ERROR', field: 'schema', message: /schema is required for validate/ })
    await expectRefusal(run({ input: 1, schema: [1] }), { code: 'VALIDATION_ERROR' })
    await expectRefusal(run({ input: 1, schema: 1 }), { code: 'VALIDATION_ERROR' })
    await expectRefusal(run({ input: 1, schema: {}, draft: 'draft-03' }), { code: 'VALIDATION_ERROR' })
    await expectRefusal(run({ input: 1, schema: {}, maxErrors: 0 }), { code: 'VALIDATION_ERROR' })
    await expectRefusal(run({ input: 1, schema: {}, action: 'infer' }), { code: 'VALIDATION_ERROR', field: 'schema', message: /is for validate/ })
    await expectRefusal(run({ input: '{"a":', schema: {} }), { code: 'INVALID_INPUT', details: { field: 'input', position: 5, line: 1, column: 6 } })
    await expectRefusal(run({ input: 1, schema: '{"type":}' }), { code: 'INVALID_INPUT', details: { field: 'schema', position: 8 } })
    await expectRefusal(run({ input: 1, schema: '[1]' }), { code: 'INVALID_INPUT', message: /neither an object nor a boolean/ })
    const refused = await expectRefusal(run({ input: 1, schema: { properties: { a: { type: 'strin' } } } }), {
      code: 'INVALID_INPUT',
      message: /not a valid 2020-12 JSON Schema: \/properties\/a\/type must be equal to one of the allowed values/,
    })
    assert.deepEqual((refused.details as unknown as Array<Record<string, unknown>>)[0], {
      field: 'schema',
      schemaPath: '/properties/a/type',
      message: 'must be equal to one of the allowed values',
    })
    await expectRefusal(run({ input: 1, schema: { $schema: 'http://json-schema.org/draft-03/schema#' } }), {
      code: 'INVALID_INPUT',
      message: /names no draft this service knows; use one of https:\/\/json-schema\.org\/draft\/2020-12\/schema/,
    })
    await expectRefusal(run({ input: 1, schema: { $ref: '#/$defs/missing' } }), { code: 'INVALID_INPUT', details: { reason: 'unresolvedReference' } })
    await expectRefusal(run({ input: 1, schema: { $id: 'https://json-schema.org/draft/2020-12/schema' } }), {
      code: 'INVALID_INPUT',
      message: /already exists/,
    })
    await expectRefusal(run({ input: 1, schema: { $ref: '#' } }), { code: 'LIMIT_EXCEEDED', message: /recurse without end/ })
  })

  test('never fetches a remote reference: the link-local metadata address, a file, another host', async () => {
    for (const ref of [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'file:///etc/passwd',
      'https://example.org/schema.json#/$defs/a',
      'other.json',
    ]) {
      const started = performance.now()
      await expectRefusal(run({ input: 1, schema: { properties: { a: { $ref: ref } } } }), {
        code: 'INVALID_INPUT',
        message: /remote references are not fetched; put the schema it names under \$defs/,
        details: { field: 'schema', ref, reason: 'remoteReference' },
      })
      assert.ok(performance.now() - started < 1_000, 'answered at once, without waiting for a network')
    }
  })

  test('refuses schema and instance nested deeper than 100 levels, before compiling', async () => {
    let schema: Record<string, unknown> = { type: 'integer' }
    for (let depth = 0; depth < 200; depth++) schema = { items: schema }
    await expectRefusal(run({ input: 1, schema }), { code: 'LIMIT_EXCEEDED', details: { field: 'schema', limit: 100 } })
    await expectRefusal(run({ input: 1, schema: JSON.stringify(schema) }), { code: 'LIMIT_EXCEEDED' })
    await expectRefusal(run({ input: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, schema: {} }), {
      code: 'LIMIT_EXCEEDED',
      details: { field: 'input', limit: 100 },
    })
    await expectRefusal(run({ input: `${'['.repeat(101)}${']'.repeat(101)}`, action: 'infer' }), { code: 'LIMIT_EXCEEDED' })
  })

  test('warns of number literals a double cannot hold', async () => {
    const answer = await run({ input: '{"id": 12345678901234567890}', schema: { properties: { id: { type: 'integer' } } } })
    assert.equal(answer.result, true)
    assert.match((answer.warnings as string[])[0], /input: the number 12345678901234567890 has no exact double/)
  })

  test('runs on a worker thread, and a schema that runs past the time budget is stopped there: 422, since it would again', async () => {
    const answer = await execute(jsonSchema, jsonSchema.examples[1].input, { timeBudgetMs: 60_000 })
    assert.deepEqual(answer, jsonSchema.examples[1].output)
    const started = performance.now()
    await expectRefusal(execute(jsonSchema, { input: `"${'a'.repeat(40)}!"`, schema: { pattern: '^(a+)+$' } }, { timeBudgetMs: 1_000 }), {
      code: 'LIMIT_EXCEEDED',
      details: { reason: 'timeout', limitMs: 1_000 },
    })
    assert.ok(performance.now() - started < 5_000)
  })

  test('infers genson’s schema: integer and number make a number, required keys are in every sample', async () => {
    const infer = async (input: unknown, fields: Record<string, unknown> = {}) =>
      (await run({ input: JSON.stringify(input), action: 'infer', ...fields })).result
    assert.deepEqual(await infer([{ id: 1 }, { id: 2.5, x: null }], { multipleSamples: true }), {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { id: { type: 'number' }, x: { type: 'null' } },
      required: ['id'],
    })
    assert.deepEqual(await infer([1, 'a', null, true], { multipleSamples: true, draft: 'draft-07' }), {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: ['null', 'boolean', 'integer', 'string'],
    })
    assert.deepEqual(await infer([[], { a: [1] }], { multipleSamples: true, required: 'none', additionalProperties: false }), {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      anyOf: [{ type: 'array' }, { type: 'object', properties: { a: { type: 'array', items: { type: 'integer' } } }, additionalProperties: false }],
    })
    assert.deepEqual(await infer(['2024-05-01T10:00:00Z', '2024-05-02T00:00:00+02:00'], { detectFormats: true }), {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      items: { type: 'string', format: 'date-time' },
    })
    assert.deepEqual(await infer(['ada@example.org', 'not one'], { detectFormats: true }), {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      items: { type: 'string' },
    })
    assert.deepEqual(await infer(7, { draft: 'draft-04' }), { $schema: 'http://json-schema.org/draft-04/schema#', type: 'integer' })
    // __proto__ in JSON text is an ordinary key, in the samples and in the schema.
    const proto = (await run({ input: '{"__proto__": 1}', action: 'infer' })).result as Record<string, Record<string, unknown>>
    assert.deepEqual(Object.keys(proto.properties), ['__proto__'])
    assert.deepEqual(proto.required, ['__proto__'])
    await expectRefusal(run({ input: '{}', action: 'infer', multipleSamples: true }), { code: 'INVALID_INPUT', details: { reason: 'notSamples' } })
    await expectRefusal(run({ input: '[]', action: 'infer', multipleSamples: true }), { code: 'INVALID_INPUT', details: { reason: 'notSamples' } })
  })

  test('property: the inferred schema validates every sample it came from, in every draft and with every option', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue({ maxDepth: 4 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('2020-12', '2019-09', 'draft-07', 'draft-06', 'draft-04'),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('all', 'none'),
        async (samples, draft, additionalProperties, detectFormats, required) => {
          const inferred = await run({
            input: JSON.stringify(samples),
            action: 'infer',
            multipleSamples: true,
            draft,
            additionalProperties,
            detectFormats,
            required,
          })
          for (const sample of samples) {
            const answer = await run({ input: JSON.stringify(sample), schema: inferred.result as object, draft })
            assert.equal(answer.result, true, `${JSON.stringify(sample)} against ${JSON.stringify(inferred.result)}: ${JSON.stringify(answer.errors)}`)
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  test('property: a schema that is the instance as const, or as enum, accepts it and nothing else of another type', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        assert.equal(await validity(value, { const: value }), true)
        assert.equal(await validity(value, { enum: [value] }), true)
        assert.equal(await validity(value, { not: { const: value } }), false)
      }),
      { numRuns: 100 },
    )
  })

  test('hostile inputs are answered quickly and within bounds', async () => {
    let started = performance.now()
    const long = await run({ input: Array.from({ length: 100_000 }, (_, i) => i), schema: { items: { type: 'string' } }, maxErrors: 1_000 })
    assert.equal(long.errorCount, 100_000)
    assert.equal((long.errors as unknown[]).length, 1_000)
    assert.ok(performance.now() - started < 5_000)
    // A long enum, repeated in the params of every error: the list of errors stops before the output limit.
    const values = Array.from({ length: 20_000 }, (_, i) => `value-${i}`)
    started = performance.now()
    const wide = await run({ input: Array.from({ length: 1_000 }, () => 'other'), schema: { items: { enum: values } }, maxErrors: 1_000 })
    assert.equal(wide.errorCount, 1_000)
    assert.equal(wide.truncated, true)
    assert.ok((wide.errors as unknown[]).length < 1_000)
    assert.ok(JSON.stringify(wide).length < 16 * 1024 * 1024)
    assert.match((wide.warnings as string[]).at(-1)!, /larger than the output limit/)
    // Many samples of many keys.
    started = performance.now()
    const samples = Array.from({ length: 2_000 }, (_, i) => ({ [`k${i % 500}`]: i, shared: [i, `${i}`, { deep: { deeper: i % 2 === 0 ? null : 1.5 } }] }))
    const inferred = await run({ input: samples, action: 'infer', multipleSamples: true, detectFormats: true })
    assert.deepEqual((inferred.result as { required: string[] }).required, ['shared'])
    assert.ok(performance.now() - started < 5_000)
  })
})
