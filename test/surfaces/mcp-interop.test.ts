import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, post } from '../helpers.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** `devutils mcp`, as an MCP client starts it: the compiled command. Both ends serve base-convert as a tool of its own. */
const MCP_COMMAND = ['bin/devutils.js', 'mcp']

/** What the tests read of a tool result, the same in both SDKs. */
interface ToolResult {
  isError?: boolean
  content: Array<{ type: string; text?: string }>
  structuredContent?: unknown
}

/** What the tests need of a connected client, whichever SDK it comes from. */
interface McpClient {
  listTools(): Promise<{ tools: Array<{ name: string; outputSchema?: Record<string, unknown> }> }>
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<ToolResult>
  close(): Promise<void>
}

let app: FastifyInstance
let mcpUrl: URL

before(async () => {
  app = await buildTestApp()
  await app.listen({ port: 0, host: '127.0.0.1' })
  mcpUrl = new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp?tools=base-convert`)
})
after(() => app.close())

const stdio = { command: process.execPath, args: [...MCP_COMMAND, '--tools', 'base-convert'], cwd: ROOT, stderr: 'pipe' as const }

/** A client of either SDK, connected over a transport of the same SDK. */
async function connect<T>(client: { connect(transport: T): Promise<void> }, transport: T): Promise<McpClient> {
  await client.connect(transport)
  return client as unknown as McpClient
}

const CLIENT_INFO = { name: 'interop-test', version: '1' }

/**
 * The 1.x SDK's client is what MCP Inspector and most hosts run: it checks a result's structured
 * content against the tool's outputSchema, error results included, once it has listed the tools.
 */
const CLIENTS: Array<[name: string, open: () => Promise<McpClient>]> = [
  ['the 1.x SDK client over stdio', () => connect(new ClientV1(CLIENT_INFO), new StdioClientTransportV1(stdio))],
  ['the 1.x SDK client over Streamable HTTP', () => connect(new ClientV1(CLIENT_INFO), new StreamableHTTPClientTransportV1(mcpUrl))],
  ['the 2.x SDK client over stdio', () => connect(new Client(CLIENT_INFO), new StdioClientTransport(stdio))],
  ['the 2.x SDK client over Streamable HTTP', () => connect(new Client(CLIENT_INFO), new StreamableHTTPClientTransport(mcpUrl))],
]

/** Refused calls of base-convert, each with the code HTTP answers. */
const REFUSED: Array<[what: string, args: Record<string, unknown>, code: string]> = [
  ['a digit not in the base', { input: '12', fromBase: 2 }, 'INVALID_INPUT'],
  ['a base out of range', { input: '255', toBase: 37 }, 'VALIDATION_ERROR'],
  ['an unknown field', { input: '255', tobase: 2 }, 'VALIDATION_ERROR'],
]

for (const [clientName, open] of CLIENTS) {
  describe(`tool results as ${clientName} reads them, after listing the tools`, () => {
    let client: McpClient
    let outputSchema: Record<string, unknown>

    before(async () => {
      client = await open()
      const { tools } = await client.listTools()
      outputSchema = tools.find((tool) => tool.name === 'base-convert')!.outputSchema!
    })
    after(() => client.close())

    for (const [what, args, code] of REFUSED) {
      test(`${what}: an error result whose text is the service's code and message, then its error as JSON`, async () => {
        const { body } = await post(app, 'base-convert', args)
        const expected = body.error!
        assert.equal(expected.code, code)
        const result = await client.callTool({ name: 'base-convert', arguments: args })
        assert.equal(result.isError, true)
        assert.equal(result.structuredContent, undefined)
        assert.deepEqual(
          result.content.map((block) => block.type),
          ['text', 'text'],
        )
        assert.equal(result.content[0].text, `${expected.code}: ${expected.message}`)
        assert.deepEqual(JSON.parse(result.content[1].text!), expected)
      })
    }

    test("a successful call still has structured content that matches the tool's outputSchema", async () => {
      const { body } = await post(app, 'base-convert', { input: '255', toBase: 2 })
      const result = await client.callTool({ name: 'base-convert', arguments: { input: '255', toBase: 2 } })
      assert.ok(!result.isError, result.content[0]?.text)
      assert.deepEqual(result.structuredContent, body.data)
      const validate = new Ajv2020({ strict: false }).compile(outputSchema)
      assert.ok(validate(result.structuredContent), JSON.stringify(validate.errors))
    })
  })
}
