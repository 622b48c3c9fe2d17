import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { DEFAULT_CONFIG } from '../../src/core/config.ts'
import { DevutilsError } from '../../src/core/errors.ts'
import type { AnyOperation } from '../../src/core/operation.ts'
import { countedPerClient, overrunOf, UNTRUSTED_CALLS_PER_CLIENT } from '../../src/core/overrun.ts'
import { lines } from '../../src/operations/lines/index.ts'

const untrusted: AnyOperation = { ...lines, name: 'pattern-runner', overrun: { advice: 'try a simpler pattern', budget: 'regexTimeBudgetMs' } }
const costly: AnyOperation = { ...lines, name: 'formatter', overrun: { advice: 'send a smaller document' } }

/** A call that lasts until `finish` is called. */
function pendingCall() {
  let finish!: () => void
  const done = new Promise<string>((resolve) => {
    finish = () => resolve('answered')
  })
  return { done, finish }
}

describe('budgets of operations whose input decides their cost', () => {
  test('untrusted code may run for its own setting once begun; other costly operations for the whole budget; the rest have no overrun', () => {
    assert.equal(overrunOf(untrusted)?.runBudgetMs, DEFAULT_CONFIG.regexTimeBudgetMs)
    assert.equal(overrunOf(untrusted, { regexTimeBudgetMs: 250 })?.runBudgetMs, 250)
    assert.equal(overrunOf(costly, { regexTimeBudgetMs: 250 })?.runBudgetMs, undefined)
    assert.equal(overrunOf(lines), undefined)
  })

  test('the overrun error is 422 LIMIT_EXCEEDED naming the operation, the limit and the advice', () => {
    const error = overrunOf(costly)?.error(1000)
    assert.ok(error instanceof DevutilsError)
    assert.equal(error.status, 422)
    assert.equal(error.code, 'LIMIT_EXCEEDED')
    assert.equal(error.message, 'The formatter call ran past its 1000 ms time budget and was stopped: send a smaller document')
    assert.deepEqual(error.details, { reason: 'timeout', limitMs: 1000 })
  })

  test(`one client may have ${UNTRUSTED_CALLS_PER_CLIENT} calls of untrusted code in flight; the next is 429 until one answers`, async () => {
    const calls = Array.from({ length: UNTRUSTED_CALLS_PER_CLIENT }, pendingCall)
    const answers = calls.map((call) => countedPerClient(untrusted, '203.0.113.7', () => call.done))
    assert.throws(
      () => countedPerClient(untrusted, '203.0.113.7', async () => 'too many'),
      (error) => error instanceof DevutilsError && error.code === 'RATE_LIMITED' && error.status === 429,
    )
    assert.equal(await countedPerClient(untrusted, '203.0.113.8', async () => 'another client'), 'another client')
    assert.equal(await countedPerClient(costly, '203.0.113.7', async () => 'not untrusted code'), 'not untrusted code')
    assert.equal(await countedPerClient(untrusted, undefined, async () => 'no known client'), 'no known client')
    calls[0].finish()
    assert.equal(await answers[0], 'answered')
    assert.equal(await countedPerClient(untrusted, '203.0.113.7', async () => 'room again'), 'room again')
    calls[1].finish()
    await answers[1]
  })

  test('a failed call frees its place too', async () => {
    for (let round = 0; round < UNTRUSTED_CALLS_PER_CLIENT + 1; round++) {
      await assert.rejects(
        countedPerClient(untrusted, '198.51.100.1', async () => {
          throw new DevutilsError('INVALID_INPUT', 'bad pattern')
        }),
        { code: 'INVALID_INPUT' },
      )
    }
  })
})
