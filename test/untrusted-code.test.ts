import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { DEFAULT_CONFIG } from '../src/core/config.ts'
import { UNTRUSTED_CALLS_PER_CLIENT } from '../src/core/overrun.ts'
import { closeWorkerPool } from '../src/core/pool.ts'
import { buildTestApp, request, type SocketResponse } from './helpers.ts'

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

  const post = async (operation: string, payload: unknown, remoteAddress: string) => {
    const started = performance.now()
    const response = await request(app, { method: 'POST', url: `/api/v1/${operation}`, payload, remoteAddress })
    return { response, ms: performance.now() - started }
  }
  const codeOf = (response: SocketResponse) => (response.statusCode === 200 ? 'ok' : response.json().error.code)

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
