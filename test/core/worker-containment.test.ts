import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { DevutilsError } from '../../src/core/errors.ts'
import { FairQueue } from '../../src/core/fair-queue.ts'
import { createWorkerPool, onThreadFailure, recycleThreadsAbove } from '../../src/core/pool.ts'
import type { PoolTestTask } from '../fixtures/pool-worker.ts'

const pool = createWorkerPool(new URL('../fixtures/pool-worker.ts', import.meta.url))
const reported: unknown[] = []
onThreadFailure((error) => reported.push(error))
after(() => pool.close())

/** How a task ended: its value, or its error's status and code. */
const ending = (task: PoolTestTask, timeBudgetMs = 60_000, client?: string) =>
  pool.run(task, timeBudgetMs, undefined, client).then(
    (value) => ({ value }),
    (error: unknown) => (error instanceof DevutilsError ? { status: error.status, code: error.code } : { unexpected: String(error) }),
  )

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('a task that fails on its thread in any way ends alone, answered in the envelope', () => {
  test('heap, stack, endless loop, odd throws, an uncaught error, an exit: each its answer, every task beside them answered', async () => {
    const failing: Array<[PoolTestTask, object, number?]> = [
      [{ kind: 'heap' }, { status: 422, code: 'LIMIT_EXCEEDED' }],
      [{ kind: 'stack' }, { status: 422, code: 'LIMIT_EXCEEDED' }],
      [{ kind: 'spin' }, { status: 503, code: 'TIMEOUT' }, 1000],
      [
        { kind: 'odd throw', value: 'number' },
        { status: 422, code: 'INVALID_INPUT' },
      ],
      [
        { kind: 'odd throw', value: 'null' },
        { status: 422, code: 'INVALID_INPUT' },
      ],
      [
        { kind: 'odd throw', value: 'proxy' },
        { status: 422, code: 'INVALID_INPUT' },
      ],
      [{ kind: 'uncaught' }, { status: 503, code: 'OVERLOADED' }],
      [{ kind: 'exit' }, { status: 503, code: 'OVERLOADED' }],
    ]
    const endings = await Promise.all(failing.flatMap(([task, , budget], index) => [ending(task, budget), ending({ kind: 'echo', value: index })]))
    failing.forEach(([task, expected], index) => {
      assert.deepEqual(endings[2 * index], expected, task.kind)
      assert.deepEqual(endings[2 * index + 1], { value: index }, `the task beside ${task.kind}`)
    })
    const reportedCodes = reported.map((error) => (error as { code?: string }).code)
    assert.ok(reported.length >= 5, `the uncaught error, the exit and the odd throws are reported for the log: ${reportedCodes}`)
  })

  test('threads terminated past their budgets while they fill their heaps: each task answered 503 or 422, the process goes on', async () => {
    const budgets = [200, 400, 700, 1000, 1500]
    const endings = []
    for (const budget of budgets) endings.push(await ending({ kind: 'heap' }, budget))
    for (const [index, answer] of endings.entries()) {
      assert.ok([503, 422].includes((answer as { status?: number }).status ?? 0), `${budgets[index]} ms: ${JSON.stringify(answer)}`)
    }
    assert.deepEqual(await ending({ kind: 'echo', value: 'after' }), { value: 'after' })
  })
})

describe('threads that keep much memory are recycled when idle', () => {
  test('past the RSS a server sets, an idle thread is ended and the next task runs on a new one; below it, the thread is kept', async () => {
    const threadOf = async () => ((await ending({ kind: 'thread' })) as { value: number }).value
    const kept = await threadOf()
    assert.equal(await threadOf(), kept)
    recycleThreadsAbove(1)
    try {
      const before = await threadOf()
      assert.notEqual(await threadOf(), before)
    } finally {
      recycleThreadsAbove(Number.POSITIVE_INFINITY)
    }
  })
})

describe('the fair line for the threads', () => {
  test('the client that used the threads least goes first (each call counting a little), then the first to come', () => {
    const line = new FairQueue<string>(10, 60_000)
    for (const client of ['a', 'b', 'c']) line.charge(client, 1000)
    line.charge('light', 3)
    for (const [client, item] of [
      ['a', 'a1'],
      ['b', 'b1'],
      ['light', 'light1'],
      ['new', 'new1'],
      ['c', 'c1'],
      ['new', 'new2'],
    ]) {
      assert.deepEqual(line.enqueue(client, item), { admitted: true })
    }
    assert.deepEqual(
      Array.from({ length: 6 }, () => line.dequeue()),
      ['light1', 'new1', 'new2', 'a1', 'b1', 'c1'],
    )
    assert.equal(line.dequeue(), undefined)
  })

  test('a full line sheds the call of the client that used the threads most, or the newcomer when nobody used more', () => {
    const line = new FairQueue<string>(2, 60_000)
    line.charge('heavy', 5000)
    line.charge('medium', 50)
    line.enqueue('heavy', 'heavy1')
    line.enqueue('medium', 'medium1')
    assert.deepEqual(line.enqueue('innocent', 'innocent1'), { admitted: true, shed: 'heavy1' })
    assert.deepEqual(line.enqueue('heavy', 'heavy2'), { admitted: false, shed: 'heavy2' })
    assert.equal(line.remove('medium1'), true)
    assert.equal(line.remove('medium1'), false)
    assert.deepEqual([line.size, line.dequeue()], [1, 'innocent1'])
  })

  test('use fades: a client idle for a half-life counts for half', async () => {
    const line = new FairQueue<string>(1, 100)
    line.charge('a', 1000)
    await sleep(100)
    const used = line.usedBy('a')
    assert.ok(used < 600 && used > 100, `${used} ms`)
  })

  test('on the pool: with the thread busy, a call from a client that has not used it runs before those of clients that have', async () => {
    for (const client of ['attacker 1', 'attacker 2']) await ending({ kind: 'wait', ms: 200 }, 60_000, client)
    const order: string[] = []
    const run = (client: string, ms: number) => pool.run({ kind: 'wait', ms }, 60_000, undefined, client).then(() => order.push(client))
    const busy = run('attacker 1', 300)
    const queued = [run('attacker 1', 10), run('attacker 2', 10)]
    await sleep(50)
    const innocent = run('innocent', 10)
    await Promise.all([busy, ...queued, innocent])
    assert.deepEqual(order.slice(0, 2), ['attacker 1', 'innocent'])
  })
})
