import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { PIPELINE_MAX_STEPS } from '../src/core/workflows.ts'
import { buildTestApp, post } from './helpers.ts'

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
    assert.match(unknown.body.error!.message, /^Step 1 \(rot14\): steps\[1\]\.operation must be one of: base-convert, base32, base64/)
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
    assert.match(results[0].error!.message, /requests\[0\]\.operation must be one of: base-convert/)
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
