import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { getPriority } from 'node:os'
import { after, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describeDefect } from '../../src/core/defects.ts'
import { DevutilsError } from '../../src/core/errors.ts'
import { execute, executeToJson, WHOLE_BODY_OFFLOAD_BYTES } from '../../src/core/execute.ts'
import { closeWorkerPool, createWorkerPool, WORKER_THREADS } from '../../src/core/pool.ts'
import { csvJson } from '../../src/operations/csv-json/index.ts'
import { diff } from '../../src/operations/diff/index.ts'
import { uuid } from '../../src/operations/uuid/index.ts'
import { type ExpectedRefusal, expectRefusal } from '../expect.ts'
import type { PoolTestTask } from '../fixtures/pool-worker.ts'
import { buildTestApp, post, request } from '../helpers.ts'
import { threadNiceness } from '../processes.ts'

const pool = createWorkerPool(new URL('../fixtures/pool-worker.ts', import.meta.url))
const runTask = (task: PoolTestTask, timeBudgetMs = 5000) => pool.run(task, timeBudgetMs)
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const bigCsv = `id,name\n${Array.from({ length: 20_000 }, (_, i) => `${i},"name ${i}"`).join('\n')}`

after(() => Promise.all([pool.close(), closeWorkerPool()]))

describe('the worker pool', () => {
  test('answers come back; a DevutilsError is rebuilt with its class, code, message and details', async () => {
    assert.deepEqual(await runTask({ kind: 'echo', value: { a: [1, 'x'] } }), { a: [1, 'x'] })
    await assert.rejects(runTask({ kind: 'refuse' }), (error) => {
      assert.ok(error instanceof DevutilsError)
      assert.deepEqual(
        [error.code, error.status, error.message, error.details],
        ['INVALID_INPUT', 422, 'The content is wrong at line 3', { line: 3, column: 7 }],
      )
      return true
    })
  })

  test('any other error stays a plain error (a 500), caused by the worker’s error: its type and stack for the log, never its message', async () => {
    await assert.rejects(runTask({ kind: 'defect' }), (error) => {
      assert.ok(!(error instanceof DevutilsError))
      assert.equal((error as Error).message, 'A worker task failed')
      const defect = describeDefect(error)
      assert.equal(defect.type, 'Error')
      assert.match(defect.stack ?? '', /pool\.ts/, 'where the pool threw it, on this thread')
      assert.equal(defect.cause?.type, 'TypeError')
      assert.match(defect.cause?.stack ?? '', /^ {4}at .*fixtures\/pool-worker\.ts:\d+/m, 'where the worker threw the original')
      assert.doesNotMatch(JSON.stringify(defect), /something is undefined/)
      return true
    })
  })

  test('any positive time budget is kept: a fraction of a millisecond, more than a timer can wait, no limit at all', async () => {
    assert.equal(await runTask({ kind: 'wait', ms: 50 }, 1000.25), 'waited')
    for (const budget of [2 ** 31, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER, Number.POSITIVE_INFINITY]) {
      assert.equal(await runTask({ kind: 'wait', ms: 50 }, budget), 'waited', `a budget of ${budget} ms`)
    }
    await assert.rejects(runTask({ kind: 'spin' }, 0.25), (error) => {
      assert.ok(error instanceof DevutilsError)
      assert.deepEqual([error.code, error.details], ['TIMEOUT', { timeBudgetMs: 1 }], 'the last fraction of a millisecond, rounded up')
      return true
    })
  })

  test('a task past its budget is 503 TIMEOUT and its thread is terminated: no core keeps burning', async () => {
    await runTask({ kind: 'echo', value: 'warm' })
    const started = performance.now()
    await assert.rejects(runTask({ kind: 'spin' }, 300), (error) => {
      assert.ok(error instanceof DevutilsError)
      assert.equal(error.code, 'TIMEOUT')
      assert.equal(error.status, 503)
      assert.match(error.message, /300 ms time budget/)
      return true
    })
    assert.ok(performance.now() - started < 2000)
    assert.equal(await runTask({ kind: 'echo', value: 'after' }), 'after', 'the pool goes on with a new thread')
    const before = cpuMs()
    await sleep(1000)
    const burnt = cpuMs() - before
    assert.ok(burnt < 300, `the process used ${burnt} ms of CPU in the second after the timeout; an infinite loop left running would use about 1000`)
  })

  const overrun = (runBudgetMs?: number) => ({
    error: (limitMs: number) => new DevutilsError('LIMIT_EXCEEDED', `ran past ${limitMs} ms`, { reason: 'timeout', limitMs }),
    runBudgetMs,
  })
  const outcome = (task: Promise<unknown>) =>
    task.then(
      () => 'done',
      (error: DevutilsError) => `${error.code} ${JSON.stringify(error.details)}`,
    )

  test('with an overrun, a task stopped while it ran gets its error; one stopped while it waited for a thread is still 503 TIMEOUT', async () => {
    await runTask({ kind: 'echo', value: 'warm' })
    const running = Array.from({ length: WORKER_THREADS }, () => outcome(pool.run({ kind: 'spin' }, 900, overrun())))
    await sleep(300)
    const waiting = outcome(pool.run({ kind: 'echo', value: 'never reached' }, 200, overrun()))
    assert.equal(await waiting, 'TIMEOUT {"timeBudgetMs":200}', 'every thread was busy for its whole budget')
    assert.deepEqual(await Promise.all(running), Array(WORKER_THREADS).fill('LIMIT_EXCEEDED {"reason":"timeout","limitMs":900}'))
  })

  test('a task that waited for a thread and ran for the rest of the whole budget is 503 TIMEOUT: a retry might finish', async () => {
    await runTask({ kind: 'echo', value: 'warm' })
    const busy = Array.from({ length: WORKER_THREADS }, () => outcome(pool.run({ kind: 'wait', ms: 700 }, 5000)))
    assert.equal(await outcome(pool.run({ kind: 'spin' }, 1000, overrun(800))), 'TIMEOUT {"timeBudgetMs":1000}', 'it ran about 300 ms of its 800')
    await Promise.all(busy)
    await runTask({ kind: 'echo', value: 'a new thread in place of the one stopped' })
    assert.equal(
      await outcome(pool.run({ kind: 'spin' }, 1000, overrun())),
      'LIMIT_EXCEEDED {"reason":"timeout","limitMs":1000}',
      'it ran all of the whole budget',
    )
  })

  test('a run budget counts from the moment a thread begins the task: waiting for a thread takes nothing from it', async () => {
    await runTask({ kind: 'echo', value: 'warm' })
    const busy = Array.from({ length: WORKER_THREADS }, () => outcome(pool.run({ kind: 'wait', ms: 600 }, 5000)))
    const started = performance.now()
    const queued = pool.run({ kind: 'spin' }, 5000, overrun(300))
    assert.equal(await outcome(queued), 'LIMIT_EXCEEDED {"reason":"timeout","limitMs":300}')
    const elapsed = performance.now() - started
    assert.ok(elapsed >= 850, `stopped after ${elapsed} ms: its 300 ms began once the 600 ms task before it had ended`)
    assert.deepEqual(await Promise.all(busy), Array(WORKER_THREADS).fill('done'))
    assert.equal(await outcome(pool.run({ kind: 'wait', ms: 50 }, 5000, overrun(300))), 'done', 'a task within its run budget is answered')
  })

  test('a full queue is 503 OVERLOADED at once, the rest time out', async () => {
    const tasks = Array.from({ length: WORKER_THREADS * 20 + 5 }, () =>
      runTask({ kind: 'spin' }, 400).then(
        () => 'done',
        (error: DevutilsError) => error.code,
      ),
    )
    const codes = await Promise.all(tasks)
    assert.ok(codes.includes('OVERLOADED'), codes.join())
    assert.ok(
      codes.every((code) => code === 'OVERLOADED' || code === 'TIMEOUT'),
      codes.join(),
    )
  })
})

describe('heavy operations through execute and HTTP', () => {
  test('heavy work runs at a lower priority than the event loop (Linux), so small requests are answered first', {
    skip: process.platform !== 'linux' && 'thread niceness is read from /proc',
  }, async () => {
    await execute(csvJson, { input: bigCsv }, { timeBudgetMs: 60_000 })
    const threads = threadNiceness('self')
    const ours = getPriority()
    assert.equal(threads.find(({ threadId }) => threadId === process.pid)?.nice, ours, 'the main thread keeps its priority')
    assert.ok(
      threads.some(({ nice }) => nice === Math.min(19, ours + 10)),
      `a worker thread runs ten steps below it: ${JSON.stringify(threads)}`,
    )
  })
  test('a heavy input past the budget is 503 TIMEOUT with Retry-After; within it, the same answer as in process', async () => {
    await assert.rejects(execute(csvJson, { input: bigCsv }, { timeBudgetMs: 1 }), { code: 'TIMEOUT' })
    const app = await buildTestApp({ timeBudgetMs: 1 })
    try {
      const response = await post(app, 'csv-json', { input: bigCsv })
      assert.equal(response.status, 503)
      assert.equal(response.body.error?.code, 'TIMEOUT')
      assert.ok(response.headers['retry-after'])
    } finally {
      await app.close()
    }
    const roomy = await buildTestApp({ timeBudgetMs: 60_000 })
    try {
      const response = await post(roomy, 'csv-json', { input: bigCsv })
      assert.equal(response.status, 200)
      assert.deepEqual(
        response.body.data,
        await csvJson.run({
          input: bigCsv,
          action: 'csvToJson',
          header: true,
          dynamicTyping: false,
          skipEmptyLines: true,
          relaxColumnCount: false,
          newline: '\r\n',
          quoteAll: false,
          escapeFormulae: false,
        }),
      )
      const invalid = await post(roomy, 'csv-json', { input: `${bigCsv}\n1,"open` })
      assert.equal(invalid.status, 422)
      assert.equal(invalid.body.error?.code, 'INVALID_INPUT')
      assert.deepEqual(invalid.body.error?.details, { line: 20_002, column: 3 })
    } finally {
      await roomy.close()
    }
  })

  test('asked for JSON, heavy work comes back as UTF-8 bytes made on the worker, light work as text: both the JSON of the value', async () => {
    const heavyInput = { input: `${bigCsv}\n"é ✓ 😀",x` }
    const heavy = await executeToJson(csvJson, { input: heavyInput }, { timeBudgetMs: 60_000 })
    assert.ok(heavy instanceof Uint8Array)
    assert.equal(Buffer.from(heavy).toString('utf8'), JSON.stringify(await execute(csvJson, heavyInput, { timeBudgetMs: 60_000 })))
    const lightInput = { input: 'a\n"é ✓ 😀"' }
    const light = await executeToJson(csvJson, { input: lightInput })
    assert.equal(typeof light, 'string')
    assert.equal(light, JSON.stringify(await execute(csvJson, lightInput)))
    assert.match(light as string, /é ✓ 😀/)
    await assert.rejects(async () => executeToJson(csvJson, { input: { input: `${bigCsv}\n1,"open` } }, { timeBudgetMs: 60_000 }), { code: 'INVALID_INPUT' })
    const app = await buildTestApp({ timeBudgetMs: 60_000 })
    try {
      const response = await request(app, { method: 'POST', url: '/api/v1/csv-json', payload: heavyInput })
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
      assert.ok(response.body.startsWith(`{"success":true,"data":${Buffer.from(heavy).toString('utf8')},"meta":{"processingTime":`), response.body.slice(0, 80))
      assert.deepEqual(Object.keys(response.json().meta), ['processingTime', 'requestId'])
    } finally {
      await app.close()
    }
  })

  test("a worker thread runs the operation with the call's context: its time budget bounds the work there as in process", async () => {
    // Both diffs are long enough to run on a worker; the first loads the operation on the thread.
    await execute(diff, { input: 'a'.repeat(300), compareTo: 'b'.repeat(300), mode: 'chars' }, { timeBudgetMs: 60_000 })
    const rounds = 'ab'.repeat(20_000)
    const fields = { input: rounds, compareTo: `${rounds.slice(1)}a`.replaceAll('b', 'c'), mode: 'chars' }
    await expectRefusal(execute(diff, fields, { timeBudgetMs: 1000 }), { code: 'LIMIT_EXCEEDED', message: /within the time budget \(800 ms/ })
  })

  test('a large body for heavy work is parsed and checked on the worker, with the same answers and errors as in process', async () => {
    const options = { timeBudgetMs: 60_000 }
    const bytes = (body: string) => Buffer.from(body)
    assert.ok(JSON.stringify({ input: bigCsv }).length > WHOLE_BODY_OFFLOAD_BYTES)
    const whole = await executeToJson(csvJson, { body: bytes(JSON.stringify({ input: bigCsv })) }, options)
    assert.ok(whole instanceof Uint8Array, 'made on the worker')
    assert.equal(Buffer.from(whole).toString(), JSON.stringify(await execute(csvJson, { input: bigCsv }, options)))
    const small = await executeToJson(csvJson, { body: bytes('{"input":"a\\n1"}') }, options)
    assert.equal(typeof small, 'string', 'a small body is parsed and run here')
    const padded = await executeToJson(uuid, { body: bytes(`{${' '.repeat(WHOLE_BODY_OFFLOAD_BYTES)}}`) }, options)
    assert.equal(typeof padded, 'string', 'an operation that never offloads parses any body here')
    const padding = 'x'.repeat(WHOLE_BODY_OFFLOAD_BYTES)
    const refusals: Array<[Buffer, ExpectedRefusal]> = [
      [
        bytes(`{"input":"${padding}",}`),
        { code: 'INVALID_JSON', message: /not valid JSON/, check: (error) => assert.deepEqual(error.details, { position: padding.length + 12 }) },
      ],
      [Buffer.concat([bytes(`{"input":"${padding}`), Buffer.from([0xc3, 0x28]), bytes('"}')]), { code: 'INVALID_JSON', message: /UTF-8/ }],
      [bytes(`{"input":"${padding}","__proto__":{}}`), { code: 'INVALID_JSON', message: /__proto__/ }],
      [bytes(`{"input":"${padding}","delimitr":";"}`), { code: 'VALIDATION_ERROR', message: /delimitr is not a known field/ }],
      [bytes(`{"input":"${padding}\\ud800"}`), { code: 'INVALID_INPUT', message: /lone surrogate/ }],
    ]
    for (const [body, expected] of refusals) {
      assert.ok(body.byteLength > WHOLE_BODY_OFFLOAD_BYTES)
      await expectRefusal(
        Promise.resolve().then(() => executeToJson(csvJson, { body }, options)),
        expected,
      )
    }
  })

  const root = fileURLToPath(new URL('../..', import.meta.url))
  const child = fileURLToPath(new URL('../fixtures/offload-child.ts', import.meta.url))
  const launchers = {
    'node --import tsx (the tests)': ['--import', 'tsx', child],
    'tsx (development)': [fileURLToPath(import.meta.resolve('tsx/cli')), child],
  }
  for (const [name, args] of Object.entries(launchers)) {
    test(`workers load TypeScript under ${name}, and idle threads let the process exit`, async () => {
      const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, timeout: 20_000 })
      assert.deepEqual(JSON.parse(stdout), { offloaded: true, keys: 500, last: [499, 'x'] })
    })
  }

  test('the build runs its workers with plain node (dist/worker.js), and idle threads let the command exit', async () => {
    const yaml = Array.from({ length: 500 }, (_, i) => `key${i}: [${i}, "x"]`).join('\n')
    const child = execFile(process.execPath, ['bin/devutils.js', 'yaml-json'], { cwd: root, timeout: 20_000 })
    child.stdin!.end(yaml)
    let stdout = ''
    child.stdout!.on('data', (chunk: string) => {
      stdout += chunk
    })
    const [code] = (await once(child, 'exit')) as [number]
    assert.equal(code, 0)
    assert.deepEqual(JSON.parse(stdout).key499, [499, 'x'])
  })
})
