import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as StreamableHTTPClientTransport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FastifyInstance } from 'fastify'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { Type } from 'typebox'
import { defineOperation } from '../../src/core/operation.ts'
import { registryOf } from '../../src/core/registry.ts'
import { closestName, searchOperations } from '../../src/core/search.ts'
import { DISCOVERY_TOOLS } from '../../src/mcp/discovery.ts'
import { type CreateMcpServerOptions, createMcpServer } from '../../src/mcp/server.ts'
import { operations } from '../../src/operations/index.ts'
import { servedOperations } from '../../src/served-operations.ts'
import { MCP_TASKS, SEARCH_WORDS } from '../collected-rows.ts'
import { buildTestApp, connectInMemory } from '../helpers.ts'

/** The budget of the default tool list an agent loads before it asks anything, in o200k tokens. */
const TOOL_LIST_BUDGET = 1000

/** What `tools/list` answers a client, as text, for a server of these operations. */
async function toolListText(operations = servedOperations): Promise<{ text: string; names: string[] }> {
  const client = await connectInMemory(createMcpServer({ registry: registryOf(operations) }), 'count')
  const listed = await client.listTools()
  await client.close()
  return { text: JSON.stringify(listed), names: listed.tools.map((tool) => tool.name) }
}

/** Stand-ins for the operations to come: each with schemas as large as a real one's. */
function standIns(count: number) {
  return Array.from({ length: count }, (_, index) =>
    defineOperation({
      name: `stand-in-${index}`,
      category: 'converters',
      summary: `Stand-in operation number ${index} for measuring the tool list`,
      title: `Stand-in ${index}`,
      aliases: ['stand-in', 'measure'],
      description: 'Converts its input in a way of its own; exists only so that the registry has a hundred operations.',
      input: Type.Object({ input: Type.String({ maxLength: 1000, description: 'The text.' }), mode: Type.Optional(Type.String({ description: 'A mode.' })) }),
      output: Type.Object({ result: Type.String() }),
      examples: [{ summary: 'An example', input: { input: 'x' }, output: { result: 'x' } }],
      run: ({ input }) => ({ result: input }),
    }),
  )
}

describe('the default MCP tool list', () => {
  test(`reaches every operation through ${DISCOVERY_TOOLS.length} tools, within ${TOOL_LIST_BUDGET} tokens at 40 and at 100 operations`, async () => {
    const now = await toolListText()
    assert.deepEqual(now.names, [...DISCOVERY_TOOLS])
    const tokens = countTokens(now.text)
    assert.ok(tokens <= TOOL_LIST_BUDGET, `${tokens} tokens`)
    const grown = await toolListText([...servedOperations, ...standIns(100 - servedOperations.length)])
    assert.equal(countTokens(grown.text), tokens, 'the default list does not grow with the registry')
  })

  test('every operation directly (MCP_TOOLS=all) costs far more: why it is not the default', async () => {
    const client = await connectInMemory(createMcpServer({ tools: servedOperations.filter((operation) => operation.name !== 'batch') }), 'count')
    const all = countTokens(JSON.stringify(await client.listTools()))
    await client.close()
    assert.ok(all > 5 * TOOL_LIST_BUDGET, `${all} tokens`)
  })

  test('the instructions name the discovery tools where they are listed, and only there', async () => {
    const instructionsOf = async (tools?: CreateMcpServerOptions['tools']) => {
      const client = await connectInMemory(createMcpServer({ tools }))
      const instructions = client.getInstructions() ?? ''
      await client.close()
      return instructions
    }
    const discovery = await instructionsOf()
    for (const name of DISCOVERY_TOOLS) assert.ok(discovery.includes(name), name)
    const direct = await instructionsOf(servedOperations.filter((operation) => operation.name === 'base64'))
    assert.match(direct, /^Developer utilities: /)
    for (const name of DISCOVERY_TOOLS) assert.ok(!direct.includes(name), name)
  })
})

/** A text far longer than any a discovery tool takes: one mebibyte. */
const OVERSIZE = 'x'.repeat(1024 * 1024)

/** Arguments the discovery tools' input schemas refuse, with the field each names. */
const REFUSED_ARGUMENTS: Array<[what: string, tool: string, args: Record<string, unknown>, field: string]> = [
  ['a query of a mebibyte', 'find_operations', { query: OVERSIZE }, 'query'],
  ['an empty query', 'find_operations', { query: '' }, 'query'],
  ['no query', 'find_operations', {}, 'query'],
  ['a query that is not text', 'find_operations', { query: 1 }, 'query'],
  ['a limit of 0', 'find_operations', { query: 'hash', limit: 0 }, 'limit'],
  ['a limit above 20', 'find_operations', { query: 'hash', limit: 21 }, 'limit'],
  ['a limit that is not an integer', 'find_operations', { query: 'hash', limit: 2.5 }, 'limit'],
  ['an unknown field', 'find_operations', { query: 'hash', limt: 3 }, 'limt'],
  ['a name of a mebibyte', 'describe_operation', { name: OVERSIZE }, 'name'],
  ['no name', 'describe_operation', {}, 'name'],
  ['a name that is not text', 'describe_operation', { name: 1 }, 'name'],
  ['an operation of a mebibyte', 'run_operation', { operation: OVERSIZE, arguments: {} }, 'operation'],
  ['no operation', 'run_operation', {}, 'operation'],
  ['an operation that is not text', 'run_operation', { operation: ['base64'] }, 'operation'],
  ['arguments that are not an object', 'run_operation', { operation: 'base64', arguments: 'hi' }, 'arguments'],
]

describe('the name nearest a mistyped one', () => {
  const names = servedOperations.map((operation) => operation.name)

  test('is one at most two edits away', () => {
    assert.equal(closestName(names, 'bas64'), 'base64')
    assert.equal(closestName(names, 'YAML-JSN'), 'yaml-json')
    assert.equal(closestName(names, 'nothing-like-it'), undefined)
  })

  test('is found at once, or not at all, however long the typed name', () => {
    const started = performance.now()
    assert.equal(closestName(names, OVERSIZE), undefined)
    const elapsed = performance.now() - started
    assert.ok(elapsed < 100, `${elapsed} ms`)
  })
})

/** The registry as MCP's discovery and the web app's search box give it to the ranking. */
const searchable = operations.map((operation) => ({
  name: operation.name,
  title: operation.title,
  summary: operation.summary,
  aliases: operation.aliases,
  text: operation.description,
}))

const ranked = (query: string) => searchOperations(searchable, query).map((hit) => hit.item.name)

describe('the ranking that finds operations (searchOperations), for MCP and the web app', () => {
  // What people type into a launcher: a name, or the word they know the tool by.
  for (const [query, expected] of SEARCH_WORDS) {
    test(`"${query}" ranks ${expected} first`, () => {
      assert.equal(ranked(query)[0], expected, ranked(query).join(', '))
    })
  }

  test('the exact name or title ranks first, in any case and with hyphens or spaces', () => {
    assert.equal(ranked('BASE64')[0], 'base64')
    assert.equal(ranked('qr code')[0], 'qr-code')
    assert.equal(ranked('Unix timestamp')[0], 'timestamp')
  })

  test('a name being typed ranks above the operations that only mention its words', () => {
    assert.equal(ranked('base6')[0], 'base64')
    assert.equal(ranked('has')[0], 'hash')
    assert.equal(ranked('json p')[0], 'json-patch')
    // A title's prefix counts too, stop words and all.
    assert.equal(ranked('regular')[0], 'regex')
    assert.equal(ranked('one')[0], 'otp')
    // Then the other names the query begins, before the operations that merely mention it.
    const url = ranked('url')
    assert.deepEqual(url.slice(0, 2), ['url', 'url-parse'])
  })

  test('the name, its prefix, an alias, the summary, the description: in that order', () => {
    const items = [
      { name: 'in-text', title: 'In text', summary: 'Something', aliases: [], text: 'It says tool.' },
      { name: 'in-summary', title: 'In summary', summary: 'A tool', aliases: [] },
      { name: 'in-alias', title: 'In alias', summary: 'Something', aliases: ['tool'] },
      { name: 'toolbox', title: 'Toolbox', summary: 'Something', aliases: [] },
      { name: 'tool', title: 'Tool', summary: 'Something', aliases: [] },
    ]
    assert.deepEqual(
      searchOperations(items, 'tool').map((hit) => hit.item.name),
      ['tool', 'toolbox', 'in-alias', 'in-summary', 'in-text'],
    )
    assert.equal(ranked('guid')[0], 'uuid')
    assert.equal(ranked('crontab')[0], 'cron')
    assert.equal(ranked('percent')[0], 'url')
  })

  test('an alias that many operations say claims the query alone, or beside a word that points at the operation', () => {
    // "decode" is an alias of base64, and half a dozen other summaries say it.
    assert.equal(ranked('decode')[0], 'base64')
    for (const [query, expected] of [
      ['hex decode', 'hex-text'],
      ['percent decode', 'url'],
      ['gzip decode', 'compress'],
      ['decode uri', 'url'],
      // json-schema's names corroborate its alias "validate".
      ['validate json against a schema', 'json-schema'],
    ]) {
      assert.equal(ranked(query)[0], expected, `${query}: ${ranked(query).join(', ')}`)
    }
  })

  test('ties keep the order given, and nothing matches nothing', () => {
    const items = [
      { name: 'first', title: 'First', summary: 'Same words', aliases: [] },
      { name: 'second', title: 'Second', summary: 'Same words', aliases: [] },
    ]
    assert.deepEqual(
      searchOperations(items, 'words').map((hit) => hit.item.name),
      ['first', 'second'],
    )
    assert.deepEqual(searchOperations(items, ''), [])
    assert.deepEqual(searchOperations(items, '  -  '), [])
    assert.deepEqual(searchOperations(items, 'zzzz'), [])
  })
})

describe('the discovery tools check their arguments against their input schemas', () => {
  for (const [what, tool, args, field] of REFUSED_ARGUMENTS) {
    test(`${tool}, ${what}: a VALIDATION_ERROR result naming ${field}, answered at once`, async () => {
      const client = await connectInMemory(createMcpServer())
      try {
        const started = performance.now()
        const result = await client.callTool({ name: tool, arguments: args })
        const elapsed = performance.now() - started
        assert.equal(result.isError, true)
        assert.equal(result.structuredContent, undefined)
        const [summary, error] = (result.content as Array<{ text: string }>).map((block) => block.text)
        assert.match(summary, new RegExp(`^VALIDATION_ERROR: ${field} `))
        assert.equal(JSON.parse(error).details[0].field, field)
        assert.ok(!summary.includes(OVERSIZE.slice(0, 100)), 'the message does not echo a long value')
        // Matching a mebibyte against every name took seconds of the event loop.
        assert.ok(elapsed < 500, `${elapsed} ms`)
      } finally {
        await client.close()
      }
    })
  }
})

describe('an agent on the default tools over Streamable HTTP', () => {
  let app: FastifyInstance
  let url: URL
  let client: Client
  before(async () => {
    app = await buildTestApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    url = new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`)
    client = new Client({ name: 'agent', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(url))
  })
  after(async () => {
    await client.close()
    await app.close()
  })

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args })
    assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`)
    return result.structuredContent as Record<string, unknown>
  }

  for (const { task, operation, arguments: fields, check } of MCP_TASKS) {
    test(`"${task}": finds ${operation} first, reads its fields, runs it`, async () => {
      const found = (await call('find_operations', { query: task })) as { operations: Array<{ name: string }> }
      assert.equal(found.operations[0]?.name, operation, JSON.stringify(found.operations.map((match) => match.name)))
      const described = await call('describe_operation', { name: operation })
      const properties = (described.input as { properties: Record<string, unknown> }).properties
      for (const field of Object.keys(fields)) assert.ok(field in properties, `${operation} takes ${field}`)
      check(await call('run_operation', { operation, arguments: fields }))
    })
  }

  test('the exact name ranks first, and an unknown name is an error that says what to do', async () => {
    for (const operation of servedOperations) {
      const found = (await call('find_operations', { query: operation.name })) as { operations: Array<{ name: string }> }
      assert.equal(found.operations[0].name, operation.name)
    }
    const unknown = await client.callTool({ name: 'run_operation', arguments: { operation: 'bas64', arguments: { input: 'x' } } })
    assert.equal(unknown.isError, true)
    assert.match((unknown.content as Array<{ text: string }>)[0].text, /^UNKNOWN_OPERATION: .*did you mean 'base64'/)
  })

  test("run_operation validates as HTTP does, and both SDK generations show the service's message", async () => {
    const client1 = new Client1({ name: 'agent-1x', version: '1.0.0' })
    await client1.connect(new StreamableHTTPClientTransport1(url))
    try {
      await client1.listTools()
      for (const caller of [client, client1]) {
        const refused = await caller.callTool({ name: 'run_operation', arguments: { operation: 'base-convert', arguments: { input: '12', fromBase: 2 } } })
        assert.equal(refused.isError, true)
        assert.match((refused.content as Array<{ text: string }>)[0].text, /^INVALID_INPUT: /)
        const invalid = await caller.callTool({ name: 'run_operation', arguments: { operation: 'base64', arguments: { input: 'x', frombase: 2 } } })
        assert.match((invalid.content as Array<{ text: string }>)[0].text, /^VALIDATION_ERROR: /)
      }
    } finally {
      await client1.close()
    }
  })

  test('the catalogue, the OpenAPI document and each operation are resources', async () => {
    const { resources } = await client.listResources()
    const uris = resources.map((resource) => resource.uri)
    for (const uri of ['devutils://catalogue', 'devutils://openapi.json', 'devutils://operations/base64', 'devutils://operations/pipeline'])
      assert.ok(uris.includes(uri), uri)
    const read = async (uri: string) => (await client.readResource({ uri })).contents[0] as { text: string; mimeType: string }
    assert.equal(JSON.parse((await read('devutils://catalogue')).text).operations.length, servedOperations.length - 2)
    const openApi = (await read('devutils://openapi.json')).text
    assert.match(JSON.parse(openApi).openapi, /^3\.1/)
    assert.equal(openApi, await (await fetch(new URL('/openapi.json', url))).text(), 'the text /openapi.json serves')
    const base64 = await read('devutils://operations/base64')
    assert.equal(base64.mimeType, 'text/markdown')
    assert.match(base64.text, /^# Base64 \(`base64`\)/)
    assert.match(base64.text, /\| `lineLength` \|/)
  })
})
