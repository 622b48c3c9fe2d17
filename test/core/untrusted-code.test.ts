import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { DEFAULT_CONFIG } from '../../src/core/config.ts'
import { UNTRUSTED_CALLS_PER_CLIENT } from '../../src/core/overrun.ts'
import { closeWorkerPool } from '../../src/core/pool.ts'
import { buildTestApp, request, type SocketResponse } from '../helpers.ts'

/** `^(a+)+$` on 32 a's and a '!': V8 backtracks through 2^32 ways before it answers false. */
const CATASTROPHIC = { pattern: '^(a+)+$', input: `${'a'.repeat(32)}!`, action: 'test' }

describe('untrusted code over HTTP: stopped within its budget, a few calls per client, the service unharmed', () => {
  let app: FastifyInstance
  before(async () => {
    // The whole budget is roomy, for the time the flood waits for a thread: a thread stopped past its
    // budget is replaced by a new one, which under tsx takes seconds to load the registry. The regex
    // budget is the default, and counts from the moment a thread begins the pattern.
    app = await buildTestApp({ rateLimitMax: 0, timeBudgetMs: 30_000 })
    await post('regex', { pattern: 'warm', input: 'the pool' }, '127.0.0.9')
  })
  after(async () => {
    await app.close()
    await closeWorkerPool()
  })

  const post = (operation: string, payload: unknown, remoteAddress: string) => postTo(app, operation, payload, remoteAddress)

  test(`one client's catastrophic patterns: ${UNTRUSTED_CALLS_PER_CLIENT} are stopped at the regex budget (422), one more is 429 at once; other clients are answered meanwhile`, async () => {
    const flood = Array.from({ length: UNTRUSTED_CALLS_PER_CLIENT + 1 }, () => post('regex', CATASTROPHIC, '127.0.0.2'))
    const [small, otherClientsPattern] = await Promise.all([
      post('base64', { input: 'still here' }, '127.0.0.3'),
      post('regex', { pattern: '\\d+', input: 'a1b22' }, '127.0.0.3'),
    ])
    const answers = await Promise.all(flood)

    const refused = answers.filter(({ response }) => response.statusCode === 429)
    assert.equal(refused.length, 1, answers.map(({ response }) => response.statusCode).join())
    assert.equal(refused[0].response.headers['retry-after'], '1')
    assert.match(refused[0].response.json().error.message, /in flight/)
    assert.ok(refused[0].ms < 1000, `the 429 came after ${refused[0].ms} ms, without waiting for a thread`)

    const stopped = answers.filter(({ response }) => response.statusCode === 422)
    assert.equal(stopped.length, UNTRUSTED_CALLS_PER_CLIENT)
    for (const { response } of stopped) {
      const { error } = response.json()
      assert.equal(error.code, 'LIMIT_EXCEEDED')
      assert.deepEqual(error.details, { reason: 'timeout', limitMs: DEFAULT_CONFIG.regexTimeBudgetMs })
      assert.match(error.message, /catastrophic.*re2/)
      assert.equal(response.headers['retry-after'], undefined, 'a retry would run out again')
    }

    assert.equal(codeOf(small.response), 'ok')
    assert.ok(small.ms < 1000, `a small request waited ${small.ms} ms beside the patterns`)
    assert.equal(codeOf(otherClientsPattern.response), 'ok', 'another client’s pattern waits its turn for the thread and is answered')
    assert.deepEqual(otherClientsPattern.response.json().data.count, 2)
  })

  test('afterwards the client may send patterns again, and they are answered', async () => {
    const { response } = await post('regex', { pattern: '(?<word>\\w+)', input: 'hi there', action: 'replace', replacement: '[$<word>]' }, '127.0.0.2')
    assert.equal(response.statusCode, 200)
    assert.equal(response.json().data.result, '[hi] [there]')
  })
})

describe('untrusted code over HTTP: fair to every client', () => {
  let app: FastifyInstance
  before(async () => {
    // A whole budget of a few regex budgets: calls still waiting when the attackers stop are soon answered.
    app = await buildTestApp({ rateLimitMax: 0, timeBudgetMs: 4 * DEFAULT_CONFIG.regexTimeBudgetMs })
    await warm(app)
  })
  after(async () => {
    await app.close()
    await closeWorkerPool()
  })

  test('twenty clients each holding a catastrophic pattern: another client’s sane patterns are answered, each within about a regex budget', async () => {
    let stopHolding = false
    const attackerAnswers: string[] = []
    const attackers = Array.from({ length: 20 }, async (_, index) => {
      while (!stopHolding) attackerAnswers.push(codeOf((await postTo(app, 'regex', CATASTROPHIC, `127.0.1.${index + 1}`)).response))
    })
    await new Promise((resolve) => setTimeout(resolve, 2 * DEFAULT_CONFIG.regexTimeBudgetMs))
    const innocent: Array<{ code: string; ms: number }> = []
    for (let call = 0; call < 4; call++) {
      const { response, ms } = await postTo(app, 'regex', { pattern: '\\d+', input: 'a1b22' }, '127.0.2.1')
      innocent.push({ code: codeOf(response), ms })
    }
    stopHolding = true
    await Promise.all(attackers)
    const slowest = Math.max(...innocent.map(({ ms }) => ms))
    console.log(
      `# fairness: sane calls beside 20 attackers in ${innocent.map(({ ms }) => Math.round(ms)).join(', ')} ms; the attackers' answers ${attackerSummary(attackerAnswers)}`,
    )
    assert.deepEqual(
      innocent.map(({ code }) => code),
      ['ok', 'ok', 'ok', 'ok'],
    )
    // A sane call waits at most for the pattern running when it came, which is stopped at its budget.
    assert.ok(slowest < 2.5 * DEFAULT_CONFIG.regexTimeBudgetMs, `the slowest sane call took ${Math.round(slowest)} ms`)
    assert.ok(attackerAnswers.includes('LIMIT_EXCEEDED'), attackerAnswers.join())
  })
})

/** Starts the pool's thread, which under tsx may take longer than a short budget to load the registry. */
async function warm(app: FastifyInstance) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const { response } = await postTo(app, 'regex', { pattern: 'warm', input: 'the pool' }, '127.0.0.9')
    if (response.statusCode === 200) return
  }
}

async function postTo(app: FastifyInstance, operation: string, payload: unknown, remoteAddress: string) {
  const started = performance.now()
  const response = await request(app, { method: 'POST', url: `/api/v1/${operation}`, payload, remoteAddress })
  return { response, ms: performance.now() - started }
}

const codeOf = (response: SocketResponse) => (response.statusCode === 200 ? 'ok' : response.json().error.code)

/** How many answers of each code, e.g. `OVERLOADED × 1650, LIMIT_EXCEEDED × 2`. */
const attackerSummary = (codes: string[]) =>
  Object.entries(Object.groupBy(codes, (code) => code))
    .map(([code, all]) => `${code} × ${all?.length}`)
    .join(', ')
