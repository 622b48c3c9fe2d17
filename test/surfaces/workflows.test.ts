import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { type DefectDescription, describeDefect } from '../../src/core/defects.ts'
import { DevutilsError } from '../../src/core/errors.ts'
import { execute, type OffloadPolicy, setOffloadPolicy } from '../../src/core/execute.ts'
import { type AnyOperation, defineOperation } from '../../src/core/operation.ts'
import { closeWorkerPool } from '../../src/core/pool.ts'
import { registryOf } from '../../src/core/registry.ts'
import { createWorkflows, PIPELINE_MAX_STEPS } from '../../src/core/workflows.ts'
import { buildApp } from '../../src/http/app.ts'
import { operations } from '../../src/operations/index.ts'
import { batch, pipeline } from '../../src/served.ts'
import { buildTestApp, post } from '../helpers.ts'

after(closeWorkerPool)

describe('pipeline', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp()
  })
  after(() => app.close())

  test("each step's result is the next step's input; steps holds each step's data", async () => {
    const { status, body } = await post(app, 'pipeline', {
      input: 'Hello, World!',
      steps: [{ operation: 'rot13' }, { operation: 'base64' }, { operation: 'base64', action: 'decode' }, { operation: 'rot13' }],
    })
    assert.equal(status, 200, JSON.stringify(body))
    assert.equal(body.data!.result, 'Hello, World!')
    const steps = body.data!.steps as Array<Record<string, unknown>>
    assert.deepEqual(
      steps.map((step) => step.result),
      ['Uryyb, Jbeyq!', 'VXJ5eWIsIEpiZXlxIQ==', 'Uryyb, Jbeyq!', 'Hello, World!'],
    )
  })

  test('a generator step starts afresh; a later step takes its result', async () => {
    const { status, body } = await post(app, 'pipeline', {
      steps: [
        { operation: 'uuid', version: 'nil' },
        { operation: 'hash', algorithm: 'sha1' },
      ],
    })
    assert.equal(status, 200)
    const nil = '00000000-0000-0000-0000-000000000000'
    assert.equal((body.data!.steps as Array<{ result: string }>)[0].result, nil)
    assert.equal(body.data!.result, createHash('sha1').update(nil).digest('hex'))
  })

  test('an error names the failing step, with the code the operation gives on its own', async () => {
    const invalid = await post(app, 'pipeline', { input: 'hi', steps: [{ operation: 'base64' }, { operation: 'base-convert', fromBase: 10 }] })
    assert.equal(invalid.status, 422)
    assert.equal(invalid.body.error!.code, 'INVALID_INPUT')
    assert.match(invalid.body.error!.message, /^Step 1 \(base-convert\): /)
    assert.equal((invalid.body.error!.details as { step: number }).step, 1)

    const badField = await post(app, 'pipeline', { input: 'hi', steps: [{ operation: 'base64', frombase: 2 }] })
    assert.equal(badField.status, 400)
    assert.equal(badField.body.error!.code, 'VALIDATION_ERROR')
    assert.deepEqual(badField.body.error!.details, {
      step: 0,
      operation: 'base64',
      fields: [{ field: 'frombase', message: badField.body.error!.message.split('frombase ')[1] }],
    })

    const suppliedInput = await post(app, 'pipeline', { input: 'hi', steps: [{ operation: 'base64', input: 'other' }] })
    assert.equal(suppliedInput.status, 400)
    assert.equal((suppliedInput.body.error!.details as { step: number }).step, 0)
  })

  test('the schema bounds the steps and names the operations', async () => {
    const tooMany = await post(app, 'pipeline', { input: 'x', steps: Array.from({ length: PIPELINE_MAX_STEPS + 1 }, () => ({ operation: 'rot13' })) })
    assert.equal(tooMany.status, 400)
    assert.match(tooMany.body.error!.message, /steps must have at most 20 items/)
    const none = await post(app, 'pipeline', { input: 'x', steps: [] })
    assert.equal(none.status, 400)
    const unknown = await post(app, 'pipeline', { input: 'x', steps: [{ operation: 'rot13' }, { operation: 'rot14' }] })
    assert.equal(unknown.status, 400)
    assert.equal((unknown.body.error!.details as { step: number }).step, 1)
    assert.match(unknown.body.error!.message, /^Step 1 \(rot14\): steps\[1\]\.operation must be one of: barcode, base-convert, base-encoding, base32, base64/)
    const twenty = await post(app, 'pipeline', { input: 'x', steps: Array.from({ length: PIPELINE_MAX_STEPS }, () => ({ operation: 'rot13' })) })
    assert.equal(twenty.status, 200)
    assert.equal(twenty.body.data!.result, 'x')
  })

  test('one time budget covers the whole pipeline', async () => {
    const strict = await buildTestApp({ timeBudgetMs: 1 })
    const steps = Array.from({ length: PIPELINE_MAX_STEPS }, () => ({ operation: 'password', length: 1024, count: 100 }))
    const { status, body } = await post(strict, 'pipeline', { steps })
    assert.equal(status, 503)
    assert.equal(body.error!.code, 'TIMEOUT')
    await strict.close()
  })
})

describe('batch', () => {
  let app: FastifyInstance
  before(async () => {
    app = await buildTestApp()
  })
  after(() => app.close())

  test('one envelope per request, in order; a failure does not fail the others', async () => {
    const { status, body } = await post(app, 'batch', {
      requests: [
        { operation: 'base64', input: 'hi' },
        { operation: 'base-convert', input: '12', fromBase: 2 },
        { operation: 'url', input: 'a b!' },
        { operation: 'hash', input: '', algorithm: 'nope' },
      ],
    })
    assert.equal(status, 200)
    const results = body.data!.results as Array<{
      success: boolean
      data?: { result: string }
      error?: { code: string; message: string }
      meta: { processingTime: number }
    }>
    assert.equal(results.length, 4)
    assert.deepEqual(
      results.map((entry) => entry.success),
      [true, false, true, false],
    )
    assert.equal(results[0].data!.result, 'aGk=')
    assert.equal(results[1].error!.code, 'INVALID_INPUT')
    assert.equal(results[2].data!.result, 'a%20b%21')
    assert.equal(results[3].error!.code, 'VALIDATION_ERROR')
    for (const entry of results) assert.equal(typeof entry.meta.processingTime, 'number')
    const alone = await post(app, 'base-convert', { input: '12', fromBase: 2 })
    assert.deepEqual(results[1].error, alone.body.error)
  })

  test('an unknown operation, a lone surrogate or deep nesting fails only its own request', async () => {
    const deep = '['.repeat(100) + ']'.repeat(100)
    const payload = `{"requests":[{"operation":"rot14","input":"x"},{"operation":"rot13","input":"a\\ud800"},{"operation":"yaml-json","action":"jsonToYaml","input":${deep}},{"operation":"rot13","input":"ok"}]}`
    const { status, body } = await post(app, 'batch', payload)
    assert.equal(status, 200, JSON.stringify(body))
    const results = body.data!.results as Array<{ success: boolean; error?: { code: string; message: string } }>
    assert.deepEqual(
      results.map((entry) => entry.success),
      [false, false, true, true],
    )
    assert.equal(results[0].error!.code, 'VALIDATION_ERROR')
    assert.match(results[0].error!.message, /requests\[0\]\.operation must be one of: barcode, base-convert/)
    assert.equal(results[1].error!.code, 'INVALID_INPUT')
  })

  test('1 to 100 requests', async () => {
    assert.equal((await post(app, 'batch', { requests: [] })).status, 400)
    assert.equal((await post(app, 'batch', { requests: Array.from({ length: 101 }, () => ({ operation: 'uuid' })) })).status, 400)
    const hundred = await post(app, 'batch', { requests: Array.from({ length: 100 }, () => ({ operation: 'uuid' })) })
    assert.equal(hundred.status, 200)
    assert.equal((hundred.body.data!.results as unknown[]).length, 100)
  })
})

/** Runs `work` with heavy work placed as `policy` says, then puts the policy back. */
async function withOffload<T>(policy: OffloadPolicy, work: () => Promise<T>): Promise<T> {
  const previous = setOffloadPolicy(policy)
  try {
    return await work()
  } finally {
    setOffloadPolicy(previous)
  }
}

describe('steps and requests that run on a worker thread', () => {
  test('a pipeline step and a batch request of an operation that always offloads (password-hash) answer 200 over HTTP', async () => {
    const app = await buildTestApp()
    try {
      const piped = await post(app, 'pipeline', { input: 'hunter2', steps: [{ operation: 'password-hash' }] })
      assert.equal(piped.status, 200, JSON.stringify(piped.body))
      assert.match(String(piped.body.data!.result), /^\$argon2id\$/)
      const batched = await post(app, 'batch', { requests: [{ operation: 'password-hash', input: 'hunter2' }] })
      assert.equal(batched.status, 200)
      const [entry] = batched.body.data!.results as Array<{ success: boolean; data?: { result: string } }>
      assert.equal(entry.success, true, JSON.stringify(entry))
      assert.match(entry.data!.result, /^\$argon2id\$/)
    } finally {
      await app.close()
    }
  })

  /** Every example of the registry, as a pipeline of one step and as a batch of one request. */
  const calls = operations.flatMap((operation) =>
    operation.examples.map((example) => {
      const { input, ...fields } = example.input as Record<string, unknown>
      const step = { operation: operation.name, ...fields }
      return {
        name: `${operation.name}: ${example.summary}`,
        fixed: example.output !== undefined,
        pipeline: input === undefined ? { steps: [step] } : { input, steps: [step] },
        batch: { requests: [{ ...step, ...(input === undefined ? {} : { input }) }] },
      }
    }),
  )
  const answers = (policy: OffloadPolicy) =>
    withOffload(policy, async () => {
      const answered = new Map<string, { pipeline: unknown; batch: unknown }>()
      for (const call of calls) {
        const piped = await execute(pipeline, call.pipeline).catch((error: unknown) => assert.fail(`${call.name}, pipeline: ${String(error)}`))
        const batched = (await execute(batch, call.batch)) as { results: Array<{ success: boolean; data?: unknown; error?: unknown }> }
        const [{ success, data, error }] = batched.results
        assert.ok(success, `${call.name}, batch: ${JSON.stringify(error)}`)
        answered.set(call.name, { pipeline: piped, batch: data })
      }
      return answered
    })

  test('every example of every operation gives the same data as a step and as a request whether heavy work is offloaded or not', async () => {
    const onWorkers = await answers('always')
    const inProcess = await answers('never')
    for (const call of calls) if (call.fixed) assert.deepEqual(onWorkers.get(call.name), inProcess.get(call.name), call.name)
  })
})

describe('a defect inside a step or a request', () => {
  const SECRET = 'the request said hunter2'
  /** A defect in process: a TypeError thrown from this file. */
  const throwsTypeError = defineOperation({
    name: 'throws-type-error',
    category: 'converters',
    summary: 'Throws a TypeError',
    title: 'Throws a TypeError',
    aliases: [],
    description: 'A test operation with a defect.',
    input: Type.Object({ input: Type.Optional(Type.String()) }, { additionalProperties: false }),
    output: Type.Object({ result: Type.String() }),
    examples: [],
    run: () => {
      throw new TypeError(SECRET)
    },
  })
  /**
   * A defect on a worker thread: the worker runs the registry's slug by name, on an input this
   * schema let through and slug's own never would (a number), so slug itself throws a TypeError.
   */
  const slugOfANumber = defineOperation({
    name: 'slug',
    category: 'converters',
    summary: 'slug on a worker, fed a number',
    title: 'Slug',
    aliases: [],
    description: 'A test operation that makes the real slug fail on a worker thread.',
    input: Type.Object({ input: Type.Number() }, { additionalProperties: false }),
    output: Type.Object({ result: Type.String() }),
    examples: [],
    offload: () => true,
    run: () => assert.fail('runs on a worker thread only'),
  })
  const registry: AnyOperation[] = [throwsTypeError, slugOfANumber]
  const workflows = createWorkflows(registryOf(registry))

  /** The description of the error at the end of a defect's chain of causes. */
  const originOf = (description: DefectDescription): DefectDescription => (description.cause ? originOf(description.cause) : description)
  const assertOrigin = (description: DefectDescription, where: RegExp) => {
    assert.equal(description.code, 'INTERNAL_ERROR')
    const origin = originOf(description)
    assert.equal(origin.type, 'TypeError')
    assert.match(origin.stack ?? '', where, 'the stack of the original error')
    assert.doesNotMatch(JSON.stringify(description), /hunter2|is not a function/, 'never a message')
  }

  test('a pipeline step fails with INTERNAL_ERROR naming the step, caused by the original error, in process and on a worker', async () => {
    for (const [input, operation, where] of [
      ['x', 'throws-type-error', /workflows\.test\.ts/],
      [13, 'slug', /src\/operations\/slug\/index\.ts/],
    ] as const) {
      await assert.rejects(execute(workflows.pipeline, { input, steps: [{ operation }] }), (error) => {
        assert.ok(error instanceof DevutilsError)
        assert.deepEqual([error.code, error.details], ['INTERNAL_ERROR', { step: 0, operation }])
        assertOrigin(describeDefect(error), where)
        return true
      })
    }
  })

  test('a batch request answers INTERNAL_ERROR in its envelope and reports its defect, with the original error as its cause', async () => {
    const reported: unknown[] = []
    const { results } = (await execute(
      workflows.batch,
      { requests: [{ operation: 'throws-type-error' }, { operation: 'slug', input: 13 }, { operation: 'slug', input: 'x' }] },
      { reportDefect: (error) => reported.push(error) },
    )) as { results: Array<{ success: boolean; error?: { code: string; message: string } }> }
    assert.deepEqual(
      results.map(({ success, error }) => [success, error?.code]),
      [
        [false, 'INTERNAL_ERROR'],
        [false, 'INTERNAL_ERROR'],
        [false, 'VALIDATION_ERROR'],
      ],
    )
    assert.equal(reported.length, 2, 'the two defects, not the refusal')
    assertOrigin(describeDefect(reported[0]), /workflows\.test\.ts/)
    assertOrigin(describeDefect(reported[1]), /src\/operations\/slug\/index\.ts/)
  })

  test("over HTTP, a pipeline step's defect is logged with the original error's type and stack", async () => {
    const lines: string[] = []
    const app = await buildApp({ config: { logLevel: 'error' }, registry: registryOf([workflows.pipeline]), logStream: { write: (line) => lines.push(line) } })
    try {
      for (const [input, operation] of [
        ['x', 'throws-type-error'],
        [13, 'slug'],
      ] as const) {
        const { status } = await post(app, 'pipeline', { input, steps: [{ operation }] })
        assert.equal(status, 500)
      }
    } finally {
      await app.close()
    }
    const defects = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request failed')
    assert.equal(defects.length, 2)
    assertOrigin(defects[0].defect, /workflows\.test\.ts/)
    assertOrigin(defects[1].defect, /src\/operations\/slug\/index\.ts/)
  })
})
