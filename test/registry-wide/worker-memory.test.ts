import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { API_PREFIX } from '../../src/core/catalogue.ts'
import { DEFAULT_CONFIG } from '../../src/core/config.ts'
import { ERROR_STATUS, type ErrorCode } from '../../src/core/errors.ts'
import { WORKER_HEAP_LIMITS } from '../../src/core/pool.ts'
import { operationsByName } from '../../src/operations/index.ts'
import { HEAVY_INPUTS } from '../collected-rows.ts'
import { startService } from '../processes.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

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

/**
 * Roomy budgets, so that bounds rather than time answer: every input takes a second or two at most.
 * A jq program that writes only debug output without end has its time budget as its one bound, which
 * this keeps at seconds.
 */
const ROOMY = { TIME_BUDGET_MS: '600000', REGEX_TIME_BUDGET_MS: '600000', JQ_TIME_BUDGET_MS: '5000' }

interface Answer {
  status: number
  code?: string
  details?: { memoryLimitMb?: number }
}

/**
 * Sends each heavy input to the built service, as production runs it (worker threads load the
 * build, not TypeScript through a loader, which holds some tens of MB more of each thread's heap),
 * with every call offloaded: in a batch, whose results come back from the worker as values, and on
 * its own, whose JSON is made on the worker. The two series run side by side, each on a service of
 * its own (one worker thread each, on two cores), one call at a time.
 */
test('inputs crafted to grow the largest array, string or buffer of each operation that offloads are answered on worker threads, 200 or a 4xx or 503, by bounds rather than a full heap, and the process lives', async () => {
  await Promise.all([heavyInputsAnswered('value'), heavyInputsAnswered('json')])
})

/** Each heavy input, in a batch (`value`) or on its own (`json`), to a service of its own that must live through them. */
async function heavyInputsAnswered(output: 'value' | 'json'): Promise<void> {
  const service = await startService({ DEVUTILS_OFFLOAD: 'always', RATE_LIMIT_MAX: '0', ...ROOMY })
  try {
    for (const { operation, summary, input, manySmallObjects = false } of HEAVY_INPUTS) {
      if (!operationsByName.get(operation)?.offload) throw new Error(`${operation} is not an operation that offloads`)
      const body = JSON.stringify(output === 'json' ? input : { requests: [{ operation, ...input }] })
      if (Buffer.byteLength(body) > DEFAULT_CONFIG.bodyLimit)
        throw new Error(`${operation}, ${summary}: a body of ${Buffer.byteLength(body)} bytes is past the body limit`)
      const which = `${operation}, ${summary} (${output})`
      const answer = await send(service.url, output === 'json' ? operation : 'batch', body).catch((error: Error) => {
        throw new Error(`${which}: the service did not answer (${error.message}); it wrote:\n${service.output().slice(-3000)}`)
      })
      assert.ok(answer.status === 200 || (answer.status >= 400 && answer.status < 500) || answer.status === 503, `${which}: ${answer.status} ${answer.code}`)
      assert.ok(
        manySmallObjects || answer.details?.memoryLimitMb === undefined,
        `${which} filled the worker's heap: what grows with it is not bounded before it is built`,
      )
    }
  } finally {
    service.child.kill()
  }
}

/** One request, and its answer: for a batch, the answer of its one request (its error code's status). */
async function send(url: string, path: string, body: string): Promise<Answer> {
  const response = await fetch(`${url}${API_PREFIX}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const envelope = (await response.json()) as { data?: { results?: Array<{ success: boolean; error?: ErrorBody }> }; error?: ErrorBody }
  const inner = path === 'batch' && response.status === 200 ? envelope.data?.results?.[0] : undefined
  if (inner === undefined) return { status: response.status, code: envelope.error?.code, details: envelope.error?.details }
  if (inner.success) return { status: 200 }
  const { code, details } = inner.error as ErrorBody
  return { status: ERROR_STATUS[code as ErrorCode], code, details }
}

type ErrorBody = { code: string; details?: { memoryLimitMb?: number } }
