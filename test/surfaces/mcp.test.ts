import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { type CallToolResult, Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import type { FastifyInstance } from 'fastify'
import { INTERNAL_ERROR_MESSAGE } from '../../src/core/errors.ts'
import { registryOf } from '../../src/core/registry.ts'
import { createWorkflows } from '../../src/core/workflows.ts'
import { annotationsFor, createMcpServer } from '../../src/mcp/server.ts'
import { stderrReport } from '../../src/mcp/stdio.ts'
import { mcpTools } from '../../src/mcp/tools.ts'
import { operations } from '../../src/operations/index.ts'
import { brokenOperation, DEFECT_MESSAGE } from '../fixtures/broken-operation.ts'
import { buildTestApp, connectInMemory, post, ROOMY_CONFIG, request } from '../helpers.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** `devutils mcp`, as an MCP client starts it: the compiled command, serving every operation directly. */
const MCP_COMMAND = ['bin/devutils.js', 'mcp', '--all']

/** Bad arguments for base64, each refused by HTTP with a different code or status. */
const BAD_BASE64_ARGUMENTS: Array<[string, Record<string, unknown>]> = [
  ['an unknown field (400)', { input: 'hi', frombase: 2 }],
  ['a missing required field (400)', { action: 'decode' }],
  ['a value of the wrong type (400)', { input: 5 }],
  ['a value out of range (400)', { input: 'hi', lineLength: 3 }],
  ['a character that is not base64 (422)', { input: 'a*', action: 'decode' }],
  ['a lone surrogate (422)', { input: '\ud800' }],
]

const PIPELINE = { input: 'hello', steps: [{ operation: 'rot13' }, { operation: 'base64' }] }
const BAD_PIPELINES: Array<[string, Record<string, unknown>]> = [
  ['a step that fails on its content (422)', { input: 'a*', steps: [{ operation: 'rot13' }, { operation: 'base64', action: 'decode' }] }],
  ['a step with an unknown field (400)', { input: 'hi', steps: [{ operation: 'base64', nope: true }] }],
  ['no steps (400)', { input: 'hi', steps: [] }],
]

/** Both protocol eras a client may speak: the 2025 initialize handshake (today's clients) and 2026-07-28. */
const ERAS = [
  ['2025 handshake', 'legacy'],
  ['2026-07-28', { pin: '2026-07-28' }],
] as const

let app: FastifyInstance
let mcpUrl: URL

before(async () => {
  // Every operation as a direct tool (MCP_TOOLS=all); test/mcp-discovery.test.ts holds the default.
  // Roomy budgets: these tests check answers, and a cold worker thread on a busy machine is slow.
  app = await buildTestApp({ mcpTools: 'all', ...ROOMY_CONFIG })
  await app.listen({ port: 0, host: '127.0.0.1' })
  mcpUrl = new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`)
})
after(() => app.close())

function stdioTransport(stderr: string[]): StdioClientTransport {
  const transport = new StdioClientTransport({ command: process.execPath, args: MCP_COMMAND, cwd: ROOT, stderr: 'pipe' })
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()))
  return transport
}

function textOf(result: CallToolResult): string {
  assert.equal(result.content.length, 1, JSON.stringify(result.content).slice(0, 1000))
  const [block] = result.content
  assert.equal(block.type, 'text')
  return (block as { text: string }).text
}

/** An error result's two texts, `CODE: message` and the error as JSON; it has no structured content. */
function refusalOf(result: CallToolResult): { summary: string; error: unknown } {
  assert.equal(result.isError, true)
  assert.equal(result.structuredContent, undefined)
  assert.deepEqual(
    result.content.map((block) => block.type),
    ['text', 'text'],
  )
  const [summary, error] = result.content.map((block) => (block as { text: string }).text)
  return { summary, error: JSON.parse(error) }
}

/** What HTTP answers for the same body: the envelope's `error` object. */
async function httpError(operation: string, body: Record<string, unknown>) {
  const { status, body: envelope } = await post(app, operation, body)
  assert.ok(status >= 400, `HTTP accepted ${JSON.stringify(body)}`)
  return envelope.error!
}

const TRANSPORTS = [
  ['Streamable HTTP', (_stderr: string[]): Transport => new StreamableHTTPClientTransport(mcpUrl)],
  ['stdio', stdioTransport],
] as const

for (const [transportName, makeTransport] of TRANSPORTS) {
  for (const [eraName, mode] of ERAS) {
    describe(`MCP over ${transportName}, ${eraName}, with the SDK's client`, () => {
      let client: Client
      const clientErrors: Error[] = []
      const stderr: string[] = []

      before(async () => {
        client = new Client({ name: 'devutils-test', version: '1.0.0' }, { versionNegotiation: { mode } })
        client.onerror = (error) => clientErrors.push(error)
        await client.connect(makeTransport(stderr))
      })
      after(async () => {
        await client.close()
        // On stdio, a line on standard output that is not a protocol message is a client error.
        assert.deepEqual(clientErrors, [], `client errors; server stderr: ${stderr.join('')}`)
      })

      test('lists one tool per operation, plus the pipeline, with schemas and annotations', async () => {
        const { tools } = await client.listTools()
        assert.equal(tools.length, operations.length + 1)
        assert.deepEqual(
          tools.map((tool) => tool.name),
          [...operations.map((operation) => operation.name), 'pipeline'],
        )
        for (const operation of mcpTools) {
          const tool = tools.find((candidate) => candidate.name === operation.name)!
          assert.equal(tool.inputSchema.type, 'object')
          assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}), Object.keys(operation.input.properties), operation.name)
          assert.deepEqual(tool.inputSchema.required ?? [], operation.input.required ?? [], operation.name)
          assert.equal(tool.inputSchema.additionalProperties, false, operation.name)
          assert.equal(tool.title, operation.title)
          assert.ok(tool.description?.startsWith(`${operation.summary}.`), operation.name)
          assert.ok(tool.description?.includes(operation.description), operation.name)
          assert.deepEqual(tool.annotations, annotationsFor(operation), operation.name)
          assert.deepEqual(tool.outputSchema, JSON.parse(JSON.stringify(operation.output)), operation.name)
        }
        const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]))
        for (const name of ['base64', 'hash', 'yaml-json', 'slug'])
          assert.deepEqual(hints[name], { readOnlyHint: true, idempotentHint: true, openWorldHint: false }, name)
        for (const name of ['uuid', 'password', 'random-number', 'lorem-ipsum', 'timestamp', 'pipeline']) assert.equal(hints[name]?.idempotentHint, false, name)
      })

      test('calls base64 and gets the data as structured content and as JSON text', async () => {
        const result = await client.callTool({ name: 'base64', arguments: { input: 'hi' } })
        assert.ok(!result.isError)
        assert.deepEqual(result.structuredContent, { result: 'aGk=', action: 'encode' })
        assert.deepEqual(JSON.parse(textOf(result)), result.structuredContent)
      })

      test('a generator needs no arguments at all', async () => {
        const result = await client.callTool({ name: 'uuid' })
        assert.ok(!result.isError, textOf(result))
        assert.match((result.structuredContent as { result: string }).result, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      })

      for (const [name, args] of BAD_BASE64_ARGUMENTS) {
        test(`${name} is an error result with HTTP's code, message and details`, async () => {
          const expected = await httpError('base64', args)
          const { summary, error } = refusalOf(await client.callTool({ name: 'base64', arguments: args }))
          assert.equal(summary, `${expected.code}: ${expected.message}`)
          assert.deepEqual(error, expected)
        })
      }

      test('runs the pipeline', async () => {
        const result = await client.callTool({ name: 'pipeline', arguments: PIPELINE })
        assert.ok(!result.isError, textOf(result))
        assert.deepEqual(result.structuredContent, (await post(app, 'pipeline', PIPELINE)).body.data)
        assert.equal((result.structuredContent as { result: string }).result, 'dXJ5eWI=')
      })

      for (const [name, args] of BAD_PIPELINES) {
        test(`a pipeline with ${name} is an error result naming the step as HTTP does`, async () => {
          const expected = await httpError('pipeline', args)
          const { summary, error } = refusalOf(await client.callTool({ name: 'pipeline', arguments: args }))
          assert.equal(summary, `${expected.code}: ${expected.message}`)
          assert.deepEqual(error, expected)
        })
      }
    })
  }
}

describe('every example of every tool, through the SDK client that checks results against the output schema', () => {
  test("each answers structured content that matches the tool's outputSchema, and the example's output where it has one", async () => {
    const client = new Client({ name: 'examples-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(mcpUrl))
    try {
      const { tools } = await client.listTools()
      for (const operation of mcpTools) {
        assert.ok(tools.find((tool) => tool.name === operation.name)?.outputSchema, operation.name)
        for (const example of operation.examples) {
          // callTool throws when structured content does not match the tool's outputSchema.
          const result = await client.callTool({ name: operation.name, arguments: example.input as Record<string, unknown> })
          assert.ok(!result.isError, `${operation.name}: ${example.summary}: ${textOf(result)}`)
          if (example.output !== undefined) assert.deepEqual(result.structuredContent, example.output, `${operation.name}: ${example.summary}`)
        }
      }
    } finally {
      await client.close()
    }
  })
})

describe('a defect in a tool', () => {
  test('is an INTERNAL_ERROR result with the fixed message, and is reported, never leaked', async () => {
    const reported: unknown[] = []
    const client = await connectInMemory(
      createMcpServer({ registry: registryOf([brokenOperation]), tools: [brokenOperation], reportDefect: (error) => reported.push(error) }),
    )
    try {
      const { summary, error } = refusalOf(await client.callTool({ name: 'broken', arguments: {} }))
      assert.equal(summary, `INTERNAL_ERROR: ${INTERNAL_ERROR_MESSAGE}`)
      assert.deepEqual(error, { code: 'INTERNAL_ERROR', message: INTERNAL_ERROR_MESSAGE })
      assert.equal((reported[0] as Error).message, DEFECT_MESSAGE)
    } finally {
      await client.close()
    }
  })

  test('inside a pipeline step, is reported with the original error as its cause, which devutils mcp logs by its stack, never its message', async () => {
    const reported: unknown[] = []
    const { pipeline } = createWorkflows(registryOf([brokenOperation]))
    const client = await connectInMemory(
      createMcpServer({ registry: registryOf([pipeline]), tools: [pipeline], reportDefect: (error) => reported.push(error) }),
    )
    try {
      const { summary, error } = refusalOf(await client.callTool({ name: 'pipeline', arguments: { input: 'x', steps: [{ operation: 'broken' }] } }))
      assert.equal(summary, `INTERNAL_ERROR: ${INTERNAL_ERROR_MESSAGE}`)
      assert.deepEqual(error, { code: 'INTERNAL_ERROR', message: INTERNAL_ERROR_MESSAGE, details: { step: 0, operation: 'broken' } })
      assert.equal(reported.length, 1)
      assert.equal(((reported[0] as Error).cause as Error).message, DEFECT_MESSAGE)
      // What devutils mcp writes to standard error of it: MCP hosts keep that in their log files.
      const report = stderrReport('tool call failed', reported[0])
      const [own, cause] = report.split('\ncaused by ')
      assert.match(own, /^devutils mcp: tool call failed: DevutilsError \(INTERNAL_ERROR\)\n\s+at /)
      assert.match(cause, /^Error\n\s+at .*broken-operation\.ts/s, 'the stack of the error the operation threw, as its cause')
      assert.ok(!report.includes(DEFECT_MESSAGE), report)
    } finally {
      await client.close()
    }
  })
})

describe('the /mcp route among the HTTP service', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  }
  const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'https://example.com' }

  test('answers POST with the service headers: request id, CORS, security headers, rate limit', async () => {
    const response = await request(app, { method: 'POST', url: '/mcp', headers: mcpHeaders, payload: initialize })
    assert.equal(response.statusCode, 200)
    assert.match(response.body, /"serverInfo":\{"name":"devutils"/)
    assert.equal(response.headers['access-control-allow-origin'], '*')
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
    assert.ok(response.headers['x-request-id'])
    assert.ok(response.headers['ratelimit-limit'])
  })

  test('GET and DELETE are 405 (no sessions, no server-initiated stream), in the error envelope', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await request(app, { method, url: '/mcp', headers: { accept: 'text/event-stream' } })
      assert.equal(response.statusCode, 405, method)
      assert.equal(response.headers.allow, 'POST')
      assert.equal(response.json().error.code, 'METHOD_NOT_ALLOWED')
    }
  })

  test('a body sent as another media type is refused as on every route', async () => {
    const wrongType = await request(app, { method: 'POST', url: '/mcp', headers: { ...mcpHeaders, 'content-type': 'text/plain' }, payload: 'hi' })
    assert.equal(wrongType.statusCode, 415)
    assert.equal(wrongType.json().error.code, 'UNSUPPORTED_MEDIA_TYPE')
  })

  test('a body that is not JSON is a JSON-RPC parse error (-32700), one that is not a JSON-RPC request -32600, both 400', async () => {
    for (const payload of ['{"jsonrpc":', '', 'nope', '{"jsonrpc":"2.0","__proto__":{}}']) {
      const response = await request(app, { method: 'POST', url: '/mcp', headers: mcpHeaders, payload })
      assert.equal(response.statusCode, 400, payload)
      const answer = response.json()
      assert.equal(answer.jsonrpc, '2.0')
      assert.equal(answer.id, null)
      assert.equal(answer.error.code, -32700, payload)
      assert.equal(typeof answer.error.message, 'string')
    }
    for (const payload of ['{"foo":1}', '5', '"x"', '[]']) {
      const response = await request(app, { method: 'POST', url: '/mcp', headers: mcpHeaders, payload })
      assert.equal(response.statusCode, 400, payload)
      assert.equal(response.json().error.code, -32600, payload)
    }
  })

  test('counts against the rate limit like any other route', async () => {
    const limited = await buildTestApp({ rateLimitMax: 1 })
    try {
      assert.equal((await request(limited, { method: 'POST', url: '/mcp', headers: mcpHeaders, payload: initialize })).statusCode, 200)
      const refused = await request(limited, { method: 'POST', url: '/mcp', headers: mcpHeaders, payload: initialize })
      assert.equal(refused.statusCode, 429)
      assert.equal(refused.json().error.code, 'RATE_LIMITED')
    } finally {
      await limited.close()
    }
  })
})

describe('a subset of the tools, for clients that load only so many', () => {
  const listed = async (transport: Transport) => {
    const client = new Client({ name: 'subset-test', version: '1' })
    await client.connect(transport)
    try {
      return (await client.listTools()).tools.map((tool) => tool.name)
    } finally {
      await client.close()
    }
  }
  const generators = operations.filter((operation) => operation.category === 'generators').map((operation) => operation.name)

  test('/mcp?categories=…&tools=… serves those of the categories and those named, in the registry order', async () => {
    const url = new URL(`${mcpUrl.href}?categories=generators&tools=base64,pipeline`)
    const names = await listed(new StreamableHTTPClientTransport(url))
    assert.deepEqual(
      names,
      mcpTools.map((tool) => tool.name).filter((name) => generators.includes(name) || name === 'base64' || name === 'pipeline'),
    )
    assert.ok(names.length < mcpTools.length)
  })

  test('an unknown tool, category or parameter in the URL is a 400 that names it', async () => {
    for (const [query, field] of [
      ['tools=base64,nope', 'tools'],
      ['categories=encoders,toys', 'categories'],
      ['tool=base64', 'tool'],
    ]) {
      const response = await request(app, {
        method: 'POST',
        url: `/mcp?${query}`,
        headers: { 'content-type': 'application/json' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      })
      assert.equal(response.statusCode, 400, query)
      assert.equal(response.json().error.code, 'VALIDATION_ERROR')
      assert.equal(response.json().error.details[0].field, field)
    }
  })

  test('devutils mcp --categories … --tools … serves the same subset over stdio', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...MCP_COMMAND, '--categories', 'generators', '--tools', 'base64'],
      cwd: ROOT,
      stderr: 'pipe',
    })
    assert.deepEqual(
      await listed(transport),
      mcpTools.map((tool) => tool.name).filter((name) => generators.includes(name) || name === 'base64'),
    )
  })
})

describe('the stdio server as a process', () => {
  test('writes only protocol messages to standard output and exits when standard input closes', async () => {
    const child = spawn(process.execPath, MCP_COMMAND, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    const exited = once(child, 'exit')
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('\n')) child.stdin.end()
    })
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    )
    const timer = setTimeout(() => child.kill(), 20_000)
    const [code] = await exited
    clearTimeout(timer)
    assert.equal(code, 0)
    const lines = stdout.split('\n').filter(Boolean)
    assert.equal(lines.length, 1, stdout)
    const message = JSON.parse(lines[0])
    assert.equal(message.id, 1)
    assert.equal(message.result.serverInfo.name, 'devutils')
  })
})
