import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { WORKER_HEAP_LIMITS } from '../src/core/pool.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Runs node with `args` to its end, whatever the end: its exit code or the signal that ended it, and what it wrote. */
function runNode(args: string[], timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, args, { cwd: root, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, signal: child.signalCode, stdout, stderr }),
    )
  })
}

test('a worker thread past its heap limit while one array grows aborts the whole process, not only itself: why requests are bounded before they are built', async () => {
  const growOneArray = `
    const { Worker } = require('node:worker_threads')
    const source = 'const values = []; for (let i = 0; i < 3e7; i++) values.push(i & 0xff)'
    new Worker(source, { eval: true, resourceLimits: ${JSON.stringify(WORKER_HEAP_LIMITS)} }).on('error', (error) => console.log(error.code))`
  const { signal, stdout, stderr } = await runNode(['-e', growOneArray], 60_000)
  assert.equal(signal, 'SIGABRT', `the process ended with ${signal}, writing ${stdout}`)
  assert.match(stderr, /Reached heap limit/)
})

test('inputs crafted to grow the largest array, string or buffer of each operation that offloads are answered on worker threads, 200 or a 4xx or 503, by bounds rather than a full heap, and the process lives', async () => {
  const { code, signal, stdout, stderr } = await runNode(['--import', 'tsx', 'test/fixtures/heavy-inputs-child.ts'], 1_200_000)
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, `the process ended early after:\n${stdout}\n${stderr.slice(0, 2000)}`)
  const answers = stdout
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as {
          output: string
          operation: string
          summary: string
          manySmallObjects: boolean
          status: number
          details?: { memoryLimitMb?: number }
        },
    )
  assert.ok(answers.length > 0)
  for (const { output, operation, summary, manySmallObjects, status, details } of answers) {
    const which = `${operation}, ${summary} (${output})`
    assert.ok(status === 200 || (status >= 400 && status < 500) || status === 503, `${which}: ${status}`)
    assert.ok(
      manySmallObjects || details?.memoryLimitMb === undefined,
      `${which} filled the worker's heap: what grows with it is not bounded before it is built`,
    )
  }
})
