import assert from 'node:assert/strict'
import { availableParallelism } from 'node:os'
import { after, before, describe, test } from 'node:test'
import { isDeepStrictEqual } from 'node:util'
import { type CallToolResult, Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import { exampleArgs } from '../../src/cli/help.ts'
import { createClient } from '../../src/client/index.ts'
import { execute, type OffloadPolicy, setOffloadPolicy } from '../../src/core/execute.ts'
import type { AnyOperation } from '../../src/core/operation.ts'
import { closeWorkerPool } from '../../src/core/pool.ts'
import { textToValue } from '../../src/core/text-values.ts'
import { mcpTools } from '../../src/mcp/tools.ts'
import { operations } from '../../src/operations/index.ts'
import { batch } from '../../src/served.ts'
import { servedOperations } from '../../src/served-operations.ts'
import { HOSTILE_PAYLOADS } from '../collected-rows.ts'
import { buildTestApp, type CommandOutcome, devutils, type Envelope, originOf, postTo, ROOMY_CONFIG } from '../helpers.ts'
import { expectAnswer, expectError, invalidFieldInputs, MALFORMED_BODIES, NOT_OBJECT_BODIES } from '../hostile-inputs.ts'
import { ROOT } from '../processes.ts'

/**
 * Every example of every operation, through every surface a user reaches it by, with heavy work
 * forced onto the worker threads and forced off them: the same `data` everywhere, the example's
 * output where it has one, and an answer valid against the output schema always.
 */

type Fields = Record<string, unknown>
type Example = AnyOperation['examples'][number]

const OFFLOAD_POLICIES = ['always', 'never'] as const satisfies readonly OffloadPolicy[]
/** Command-line runs at once: one more than the cores, since each also waits on its start-up. */
const CLI_CONCURRENCY = availableParallelism() + 1

// ajv-formats is CommonJS: its function is the default export under Node, `.default` under TypeScript's types.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
const outputValidators = new Map(servedOperations.map((operation) => [operation, ajv.compile(JSON.parse(JSON.stringify(operation.output)))]))

const isRegistered = (operation: AnyOperation) => operations.includes(operation)
const methodName = (operation: AnyOperation) => operation.name.replace(/-([a-z0-9])/g, (_match: string, letter: string) => letter.toUpperCase())

/** The batch's data less each answer's processingTime, the one part of it that differs from run to run. */
function withoutTimings(operation: AnyOperation, data: Fields): Fields {
  if (operation !== batch) return data
  return { ...data, results: (data.results as Fields[]).map(({ meta: _timing, ...answer }) => answer) }
}

/**
 * The data an example must answer on every surface: its output; for the batch, whose examples leave
 * it out for their timings alone, what the batch answers here; none for a random or clock-bound one.
 */
const expectedData = new Map<Example, Fields | undefined>()
for (const operation of servedOperations) {
  for (const example of operation.examples) {
    const output = example.output as Fields | undefined
    expectedData.set(example, operation === batch ? withoutTimings(batch, await execute(batch, structuredClone(example.input))) : output)
  }
}

function assertExampleData(operation: AnyOperation, example: Example, data: unknown, surface: string): void {
  const context = `${operation.name}: ${example.summary}, ${surface}`
  const valid = outputValidators.get(operation)!
  assert.ok(valid(data), `${context}: ${ajv.errorsText(valid.errors)} in ${JSON.stringify(data)?.slice(0, 500)}`)
  const expected = expectedData.get(example)
  if (expected !== undefined) assert.deepEqual(withoutTimings(operation, data as Fields), expected, context)
}

/** A call of `operation` with `fields` as a pipeline of one step: the pipeline supplies the input, the step holds the rest. */
function asPipelineStep(operation: AnyOperation, fields: Fields): Fields {
  const { input, ...rest } = fields
  return { ...('input' in fields && { input }), steps: [{ operation: operation.name, ...rest }] }
}

/**
 * The query string that sends `fields` by GET, or undefined when they have none: a query parameter
 * is text that the field's schema reads back (src/core/query.ts), so an object, or text that reads
 * back as another value (the digits of a field that takes a number as well), cannot be written.
 */
function queryOf(operation: AnyOperation, fields: Fields): URLSearchParams | undefined {
  const properties = operation.input.properties as Record<string, Record<string, unknown>>
  const query = new URLSearchParams()
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'object' || !isDeepStrictEqual(textToValue(properties[field], String(value)), value)) return undefined
    query.set(field, String(value))
  }
  return query
}

/** The envelope's data of a successful HTTP answer, fetched over the socket as any client does. */
async function fetchData(url: string, init: RequestInit, context: string): Promise<Fields> {
  const response = await fetch(url, init)
  const envelope = (await response.json()) as Envelope
  assert.equal(response.status, 200, `${context}: ${JSON.stringify(envelope).slice(0, 500)}`)
  assert.deepEqual(Object.keys(envelope), ['success', 'data', 'meta'], context)
  assert.equal(envelope.success, true, context)
  assert.equal(typeof envelope.meta.processingTime, 'number', context)
  assert.equal(envelope.meta.requestId, response.headers.get('x-request-id'), context)
  return envelope.data!
}

const postData = (origin: string, operation: string, body: Fields, context: string) =>
  fetchData(`${origin}/api/v1/${operation}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, context)

/** The two ways an MCP client reaches an operation: a tool of its own (every operation, with `--all` or a subset asked for), or run_operation (the default). */
const MCP_ROUTES = ['its own tool', 'run_operation'] as const
type McpRoute = (typeof MCP_ROUTES)[number]
const MCP_TRANSPORTS = ['stdio', 'Streamable HTTP'] as const
type McpTransport = (typeof MCP_TRANSPORTS)[number]
/** Every category of the direct tools: asking for them all over HTTP gives every operation as its own tool. */
const ALL_TOOL_CATEGORIES = [...new Set(mcpTools.map((tool) => tool.category))].join(',')

/** Whether `route` reaches `operation`: run_operation reaches every one; the batch is no tool of its own (src/mcp/tools.ts). */
const reaches = (route: McpRoute, operation: AnyOperation) => route === 'run_operation' || mcpTools.some((tool) => tool.name === operation.name)

/** The data of `operation` called with `args` through `route`, the structured content of a result that is no error. */
async function toolData(client: Client, route: McpRoute, operation: AnyOperation, args: Fields, context: string): Promise<unknown> {
  const call =
    route === 'run_operation' ? { name: 'run_operation', arguments: { operation: operation.name, arguments: args } } : { name: operation.name, arguments: args }
  // The SDK's client also checks the structured content against the tool's outputSchema.
  const result = (await client.callTool(call)) as CallToolResult
  assert.ok(!result.isError, `${context}: ${JSON.stringify(result.content)}`)
  return result.structuredContent
}

/** Runs tasks at most `concurrency` at a time, each started as soon as a place is free. */
function limitedTo(concurrency: number) {
  let running = 0
  const waiting: Array<() => void> = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    while (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
    running++
    try {
      return await task()
    } finally {
      running--
      waiting.shift()?.()
    }
  }
}

/** The environment of the processes the tests start: their offload policy, and the roomy time budgets. */
const environmentOf = (policy: OffloadPolicy) => ({
  DEVUTILS_OFFLOAD: policy,
  TIME_BUDGET_MS: String(ROOMY_CONFIG.timeBudgetMs),
  REGEX_TIME_BUDGET_MS: String(ROOMY_CONFIG.regexTimeBudgetMs),
  JQ_TIME_BUDGET_MS: String(ROOMY_CONFIG.jqTimeBudgetMs),
})

const runLimited = limitedTo(CLI_CONCURRENCY)

/** `devutils <operation> --field value… --json` for an example, as its help shows the command. */
function runExample(policy: OffloadPolicy, operation: AnyOperation, example: Example): Promise<CommandOutcome> {
  const args = [operation.name, ...exampleArgs(operation, example.input as Fields), '--json']
  const run = runLimited(() => devutils(args, { env: environmentOf(policy) }))
  // Awaited by its test; until then, a failure to start is not an unhandled rejection.
  run.catch(() => {})
  return run
}

/**
 * The surfaces that take every example with heavy work forced onto worker threads: HTTP POST and
 * GET, where the thread answers JSON it made, and a pipeline step, where it answers a value, copied
 * across. They prove each example's answer from a thread in both forms. The other surfaces run the same
 * `execute` and take the first example of each operation there, which proves what each adds to a
 * thread's answer (an envelope, a tool's structured content, a one-shot process that starts and
 * closes its thread); with heavy work kept in process, every surface takes every example.
 */
const EVERY_EXAMPLE_ON_THREADS = new Set(['HTTP POST', 'HTTP GET', 'as a pipeline step'])
const examplesOn = (surface: string, policy: OffloadPolicy, operation: AnyOperation): Example[] =>
  policy === 'always' && !EVERY_EXAMPLE_ON_THREADS.has(surface) ? operation.examples.slice(0, 1) : operation.examples

let commandRuns: Map<OffloadPolicy, Map<Example, Promise<CommandOutcome>>> | undefined

/**
 * An example's command-line run under a policy. The first ask starts every run (a few at a time),
 * so that the processes overlap the other tests rather than hold up their own.
 */
function commandRunOf(policy: OffloadPolicy, example: Example): Promise<CommandOutcome> {
  commandRuns ??= new Map(
    OFFLOAD_POLICIES.map((each) => [
      each,
      new Map(
        servedOperations.flatMap((operation) =>
          examplesOn('the command line', each, operation).map((candidate) => [candidate, runExample(each, operation, candidate)] as const),
        ),
      ),
    ]),
  )
  return commandRuns.get(policy)!.get(example)!
}

for (const policy of OFFLOAD_POLICIES) {
  describe(`every operation on every surface, heavy work offloaded: ${policy}`, () => {
    let previousPolicy: OffloadPolicy
    let app: FastifyInstance
    let origin: string
    const mcpClients = new Map<string, Client>()
    const mcpKey = (transport: McpTransport, route: McpRoute) => `${transport}, ${route}`
    const mcpClient = (transport: McpTransport, route: McpRoute) => mcpClients.get(mcpKey(transport, route))!
    const stdioErrors: string[] = []

    /** A connection for `route`: every operation as its own tool (`--all`, or all the categories asked for), or the default tools. */
    function mcpTransport(transport: McpTransport, route: McpRoute): Transport {
      if (transport === 'Streamable HTTP') {
        return new StreamableHTTPClientTransport(new URL(route === 'its own tool' ? `${origin}/mcp?categories=${ALL_TOOL_CATEGORIES}` : `${origin}/mcp`))
      }
      const stdio = new StdioClientTransport({
        command: process.execPath,
        args: ['bin/devutils.js', 'mcp', ...(route === 'its own tool' ? ['--all'] : [])],
        cwd: ROOT,
        // The default tools whatever the environment running the tests says.
        env: { ...environmentOf(policy), MCP_TOOLS: 'discovery' },
        stderr: 'pipe',
      })
      stdio.stderr?.on('data', (chunk: Buffer) => stdioErrors.push(chunk.toString()))
      return stdio
    }

    before(async () => {
      previousPolicy = setOffloadPolicy(policy)
      app = await buildTestApp({ rateLimitMax: 0, ...ROOMY_CONFIG })
      origin = await originOf(app)
      const connections = MCP_TRANSPORTS.flatMap((transport) =>
        MCP_ROUTES.map(async (route) => {
          const client = new Client({ name: 'surfaces-test', version: '1.0.0' })
          await client.connect(mcpTransport(transport, route))
          mcpClients.set(mcpKey(transport, route), client)
        }),
      )
      await Promise.all(connections)
    })

    after(async () => {
      await Promise.all([...mcpClients.values()].map((client) => client.close()))
      await app?.close()
      await closeWorkerPool()
      setOffloadPolicy(previousPolicy)
      assert.deepEqual(stdioErrors, [], 'devutils mcp wrote to standard error')
    })

    for (const operation of servedOperations) {
      // The surfaces of one operation at once: the processes behind them work in parallel. One client
      // may have only a few calls of untrusted code (regex, jq) in flight, so those take turns.
      describe(operation.name, { concurrency: operation.overrun?.budget === undefined }, () => {
        test('HTTP POST', async () => {
          for (const example of examplesOn('HTTP POST', policy, operation)) {
            const data = await postData(origin, operation.name, example.input as Fields, `${operation.name}: ${example.summary}`)
            assertExampleData(operation, example, data, 'HTTP POST')
          }
        })

        if (operation.allowGet) {
          test('HTTP GET, the fields as query parameters', async () => {
            let sent = 0
            for (const example of examplesOn('HTTP GET', policy, operation)) {
              const query = queryOf(operation, example.input as Fields)
              // An action that reads a body (an image to decode) is refused by GET: test/http.test.ts.
              if (query === undefined || operation.postOnlyActions?.includes(String((example.input as Fields).action))) continue
              const data = await fetchData(`${origin}/api/v1/${operation.name}?${query}`, {}, `${operation.name}: ${example.summary}`)
              assertExampleData(operation, example, data, `HTTP GET ?${query}`)
              sent++
            }
            assert.ok(sent > 0, 'at least one example has a query form')
          })
        }

        if (isRegistered(operation)) {
          test('as a pipeline step', async () => {
            for (const example of examplesOn('as a pipeline step', policy, operation)) {
              const context = `${operation.name}: ${example.summary}, as a pipeline step`
              const data = await postData(origin, 'pipeline', asPipelineStep(operation, example.input as Fields), context)
              const steps = data.steps as Fields[]
              assert.equal(steps.length, 1, context)
              assert.deepEqual(data.result, steps[0].result, `${context}: the pipeline's result is its step's`)
              assertExampleData(operation, example, steps[0], 'as a pipeline step')
            }
          })

          test('as a batch item', async () => {
            for (const example of examplesOn('as a batch item', policy, operation)) {
              const context = `${operation.name}: ${example.summary}, as a batch item`
              const data = await postData(origin, 'batch', { requests: [{ operation: operation.name, ...(example.input as Fields) }] }, context)
              const [answer] = data.results as Array<{ success: boolean; data?: Fields; error?: unknown }>
              assert.equal(answer.success, true, `${context}: ${JSON.stringify(answer.error)}`)
              assertExampleData(operation, example, answer.data, 'as a batch item')
            }
          })
        }

        for (const transport of MCP_TRANSPORTS) {
          for (const route of MCP_ROUTES.filter((candidate) => reaches(candidate, operation))) {
            test(`MCP over ${transport}, ${route}`, async () => {
              for (const example of examplesOn('MCP', policy, operation)) {
                const context = `${operation.name}: ${example.summary}, MCP over ${transport}, ${route}`
                assertExampleData(
                  operation,
                  example,
                  await toolData(mcpClient(transport, route), route, operation, example.input as Fields, context),
                  `MCP over ${transport}, ${route}`,
                )
              }
            })
          }
        }

        test('the command line', async () => {
          for (const example of examplesOn('the command line', policy, operation)) {
            const context = `devutils ${operation.name} for ${example.summary}`
            const run = await commandRunOf(policy, example)
            const envelope = JSON.parse(run.stdout || 'null') as Envelope | null
            assert.equal(envelope?.success, true, `${context}: exit ${run.code}, ${run.stderr}${run.stdout}`)
            assertExampleData(operation, example, envelope.data, 'the command line')
            // A check that does not hold (a digest, a password, a token) exits 1, as `cmp` does.
            const held = operation.verdict === undefined || envelope.data![operation.verdict.field] !== false
            assert.equal(run.code, held ? 0 : 1, `${context}: ${run.stderr}`)
          }
        })

        test('the typed client', async () => {
          const client = createClient({ baseUrl: origin }) as unknown as Record<string, (input: unknown) => Promise<unknown>>
          for (const example of examplesOn('the typed client', policy, operation)) {
            assertExampleData(operation, example, await client[methodName(operation)](example.input), 'the typed client')
          }
        })

        // Through the listener under both policies; as a pipeline step with heavy work on worker
        // threads, where a thread's refusal crosses back and becomes the step's.
        const asPipelineStepToo = isRegistered(operation) && policy === 'always'
        test(`hostile inputs, through the listener${asPipelineStepToo ? ' and as a pipeline step' : ''}: the answer each must get, never a 5xx`, async () => {
          for (const payload of MALFORMED_BODIES) expectError(await postTo(app, operation.name, payload), 400, 'INVALID_JSON', `${operation.name} ${payload}`)
          for (const payload of NOT_OBJECT_BODIES)
            expectError(await postTo(app, operation.name, payload), 400, 'VALIDATION_ERROR', `${operation.name} ${payload}`)
          const hostileInputs = [...invalidFieldInputs(operation), ...HOSTILE_PAYLOADS.filter((input) => input.operation === operation.name)]
          for (const input of hostileInputs) {
            expectAnswer(await postTo(app, operation.name, input.body), input)
            if (asPipelineStepToo) {
              const response = await postTo(app, 'pipeline', asPipelineStep(operation, input.body))
              expectAnswer(response, input, `${operation.name}: ${input.name}, as a pipeline step`)
            }
          }
        })
      })
    }
  })
}
