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
import { closestName, searchOperations } from '../../src/core/search.ts'
import { DISCOVERY_TOOLS } from '../../src/mcp/discovery.ts'
import { type CreateMcpServerOptions, createMcpServer } from '../../src/mcp/server.ts'
import { operations } from '../../src/operations/index.ts'
import { x509 } from '../../src/operations/x509/index.ts'
import { servedOperations } from '../../src/served.ts'
import { buildTestApp, connectInMemory } from '../helpers.ts'

/** The budget of the default tool list an agent loads before it asks anything, in o200k tokens. */
const TOOL_LIST_BUDGET = 1000

/** What `tools/list` answers a client, as text, for a server of these operations. */
async function toolListText(operations = servedOperations): Promise<{ text: string; names: string[] }> {
  const client = await connectInMemory(createMcpServer({ operations }), 'count')
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
  for (const [query, expected] of [
    ['base64', 'base64'],
    ['json', 'json'],
    ['diff', 'diff'],
    ['cron', 'cron'],
    ['url', 'url'],
    ['sha256', 'hash'],
    ['epoch', 'timestamp'],
    ['regex', 'regex'],
    ['uuid', 'uuid'],
    ['jwt', 'jwt'],
  ] as const) {
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

/** Everyday tasks in an agent's words, the operation that does each, and the fields it then sends. */
const TASKS: Array<{ task: string; operation: string; arguments: Record<string, unknown>; check: (data: Record<string, unknown>) => void }> = [
  {
    task: 'decode this JWT',
    operation: 'jwt',
    arguments: { action: 'decode', input: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig' },
    check: (data) => assert.match(JSON.stringify(data), /"sub":"123"/),
  },
  {
    task: 'crc16 modbus checksum of a message',
    operation: 'checksum',
    arguments: { input: '123456789', algorithm: 'CRC-16/MODBUS' },
    check: (data) => assert.equal(data.result, '4b37'),
  },
  {
    task: 'which crc algorithm gives this check value',
    operation: 'checksum',
    arguments: { input: '123456789', algorithm: 'all', expected: '0xcbf43926' },
    check: (data) => assert.deepEqual(data.matching, ['CRC-32/ISO-HDLC']),
  },
  {
    task: 'keccak-256 hash as ethereum computes it',
    operation: 'hash',
    arguments: { input: '', algorithm: 'keccak-256' },
    check: (data) => assert.match(String(data.result), /^c5d2460186f7233c/),
  },
  {
    task: 'sha256 of a text',
    operation: 'hash',
    arguments: { input: 'abc', algorithm: 'sha256' },
    check: (data) => assert.match(String(data.result), /^ba7816bf/),
  },
  {
    task: 'htpasswd line for basic auth',
    operation: 'htpasswd',
    arguments: { username: 'alice', password: 'secret', algorithm: 'sha1' },
    check: (data) => assert.equal(data.result, 'alice:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ='),
  },
  { task: 'next cron run', operation: 'cron', arguments: { input: '0 9 * * 1' }, check: (data) => assert.ok(data.description) },
  {
    task: 'epoch to date',
    operation: 'timestamp',
    arguments: { input: 1700000000 },
    check: (data) => assert.match(JSON.stringify(data), /2023-11-14T22:13:20/),
  },
  {
    task: 'convert 5 miles to km',
    operation: 'units',
    arguments: { input: '5 mi', to: 'km' },
    check: (data) => assert.equal(data.text, '8.04672'),
  },
  { task: 'prettify json', operation: 'json', arguments: { input: '{"a":1}' }, check: (data) => assert.equal(data.result, '{\n  "a": 1\n}') },
  { task: 'generate a uuid', operation: 'uuid', arguments: {}, check: (data) => assert.match(String(data.result), /^[0-9a-f-]{36}$/) },
  { task: 'url encode a string', operation: 'url', arguments: { input: 'a b' }, check: (data) => assert.equal(data.result, 'a%20b') },
  { task: 'convert yaml to json', operation: 'yaml-json', arguments: { input: 'a: 1' }, check: (data) => assert.deepEqual(data.result, { a: 1 }) },
  {
    task: 'count the words in a text',
    operation: 'text-stats',
    arguments: { input: 'One two three. Four!' },
    check: (data) => assert.equal((data.result as { words: number }).words, 4),
  },
  {
    task: 'escape a string for a python literal',
    operation: 'string-escape',
    arguments: { input: "it's\n", language: 'python' },
    check: (data) => assert.equal(data.result, "it\\'s\\n"),
  },
  {
    task: 'validate json against a schema',
    operation: 'json-schema',
    arguments: { input: { id: 0 }, schema: { properties: { id: { minimum: 1 } } } },
    check: (data) => assert.equal(data.result, false),
  },
  {
    task: 'generate typescript interfaces from json',
    operation: 'json-types',
    arguments: { input: { id: 1, name: 'Ada' } },
    check: (data) => assert.match(String(data.result), /^export interface Root \{/),
  },
  {
    task: 'convert markdown to html',
    operation: 'markdown',
    arguments: { input: '# Hi\n\n*there*' },
    check: (data) => assert.equal(data.result, '<h1>Hi</h1>\n<p><em>there</em></p>\n'),
  },
  {
    task: 'what are rwxr-xr-x file permissions in octal',
    operation: 'chmod',
    arguments: { input: 'rwxr-xr-x' },
    check: (data) => assert.equal(data.result, '0755'),
  },
  {
    task: 'find all matches of a regular expression',
    operation: 'regex',
    arguments: { pattern: '\\d+', input: 'a1b22' },
    check: (data) =>
      assert.deepEqual(
        (data.result as Array<{ match: string }>).map((match) => match.match),
        ['1', '22'],
      ),
  },
  {
    task: 'pretty print a minified sql query',
    operation: 'format',
    arguments: { input: 'select a, b from t where a = 1', language: 'sql' },
    check: (data) => assert.equal(data.result, 'select\n  a,\n  b\nfrom\n  t\nwhere\n  a = 1'),
  },
  {
    task: 'reshape json with a jq filter',
    operation: 'jq',
    arguments: { filter: '.users | map(.name)', input: '{"users":[{"name":"Ada"},{"name":"Linus"}]}' },
    check: (data) => assert.deepEqual(data.result, [['Ada', 'Linus']]),
  },
  {
    task: 'parse this user agent string: which browser and os, is it a bot?',
    operation: 'user-agent',
    arguments: { input: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    check: (data) => assert.deepEqual(data.bot, { isBot: true, name: 'Googlebot' }),
  },
  {
    task: 'convert an internationalized domain name with umlauts to punycode xn--',
    operation: 'idn',
    arguments: { input: 'bücher.example' },
    check: (data) => assert.equal(data.result, 'xn--bcher-kva.example'),
  },
  {
    task: 'what does http status code 422 mean',
    operation: 'lookup',
    arguments: { table: 'httpStatus', input: 422 },
    check: (data) => assert.equal((data.result as { title: string }).title, 'Unprocessable Content'),
  },
  {
    task: 'turn my docker run command into a docker-compose.yml',
    operation: 'docker-compose',
    arguments: { input: 'docker run -d -p 8080:80 --name web nginx' },
    check: (data) => assert.equal(data.result, 'services:\n  web:\n    image: nginx\n    container_name: web\n    ports:\n      - "8080:80"\n'),
  },
  {
    task: 'pull the ioc urls and ip addresses out of this threat report',
    operation: 'extract',
    arguments: { input: 'C2 at hxxp://evil[.]example/gate.php and 203.0.113.7', types: ['url', 'ipv4'] },
    check: (data) =>
      assert.deepEqual(
        (data.result as Array<{ fanged: string }>).map((item) => item.fanged),
        ['http://evil.example/gate.php', '203.0.113.7'],
      ),
  },
  {
    task: 'what kind of string is this? identify it',
    operation: 'detect',
    arguments: { input: '507f1f77bcf86cd799439011' },
    check: (data) => assert.equal(data.result, 'objectId'),
  },
  {
    task: 'which uuid version is this and when was it created',
    operation: 'uuid',
    arguments: { action: 'inspect', input: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F' },
    check: (data) => assert.deepEqual([data.version, data.time], [7, '2022-02-22T19:22:22.000Z']),
  },
  {
    task: 'how many days between two dates',
    operation: 'datetime',
    arguments: { input: '2024-01-01', action: 'difference', end: '2024-03-01', largestUnit: 'days' },
    check: (data) => assert.equal(data.result, 'P60D'),
  },
  {
    task: 'parse this url: hostname, port and query parameters',
    operation: 'url-parse',
    arguments: { input: 'https://example.com:8080/search?q=a+b' },
    check: (data) => assert.deepEqual([data.hostname, data.port, data.query], ['example.com', '8080', [{ name: 'q', value: 'a b' }]]),
  },
  {
    task: 'decode this base58check bitcoin address to hex',
    operation: 'base-encoding',
    arguments: { input: '1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs', action: 'decode', encoding: 'base58check', outputEncoding: 'hex' },
    check: (data) => assert.equal(data.result, '00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31'),
  },
  {
    task: 'decrypt this openssl aes-256-cbc encrypted text with my passphrase',
    operation: 'cipher',
    arguments: { action: 'decrypt', format: 'openssl', input: 'U2FsdGVkX18d5LqufG/1Q2plozpaoj2gwLEj+eDVMZg=', passphrase: 'correct-horse', iterations: 10_000 },
    check: (data) => assert.equal(data.result, 'hello devutils'),
  },
  {
    task: 'is this credit card number valid (luhn check)',
    operation: 'check-digit',
    arguments: { input: '4111 1111 1111 1111', scheme: 'card' },
    check: (data) => assert.deepEqual([data.valid, data.brand], [true, 'visa']),
  },
  {
    task: 'validate an IBAN bank account number',
    operation: 'iban',
    arguments: { input: 'GB82 WEST 1234 5698 7654 32' },
    check: (data) => assert.deepEqual([data.valid, data.country, data.bankCode], [true, 'GB', 'WEST']),
  },
  {
    task: 'is this phone number valid and what is it in e164 format',
    operation: 'phone',
    arguments: { input: '044 668 18 00', country: 'CH' },
    check: (data) => assert.deepEqual([data.result, data.valid], ['+41446681800', true]),
  },
  {
    task: 'show the fingerprint of my ssh public key',
    operation: 'key',
    arguments: { action: 'inspect', input: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea me@host' },
    check: (data) => assert.equal((data.fingerprints as { sha256: string }).sha256, 'SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8'),
  },
  { task: 'base64 decode', operation: 'base64', arguments: { input: 'aGk=', action: 'decode' }, check: (data) => assert.equal(data.result, 'hi') },
  {
    task: 'run several operations in sequence',
    operation: 'pipeline',
    arguments: { input: 'hello', steps: [{ operation: 'rot13' }, { operation: 'base64' }] },
    check: (data) => assert.equal(data.result, 'dXJ5eWI='),
  },
  {
    task: 'decode this PEM certificate and show its expiry date and fingerprint',
    operation: 'x509',
    arguments: { input: (x509.examples[0].input as { input: string }).input },
    check: (data) =>
      assert.deepEqual(
        (data.result as Array<{ notAfter: string; fingerprints: { sha256: string } }>).map((item) => item.notAfter),
        ['2026-04-01T00:00:00Z'],
      ),
  },
  {
    task: 'generate an EAN-13 barcode for product number 400638133393',
    operation: 'barcode',
    arguments: { input: '400638133393', format: 'ean13' },
    check: (data) => assert.equal(data.text, '4006381333931'),
  },
  {
    task: 'read the QR code in this PNG image',
    operation: 'qr-code',
    arguments: {
      action: 'decode',
      input:
        'iVBORw0KGgoAAAANSUhEUgAAADIAAAAyCAAAAAA7VNdtAAAAtElEQVR42t2W3QqAMAiFff+XrosIPf40pwbRoEFbnx30uKJje9CnEYJx3ctZ7nUQ8VrC2dlrICyKpQZ7QwgDbyK8Mo1gIvVjibokEG0YeSU9tkQcg9N2v6QQW847zcasRYQtiMXUwXqIXLKCphDZTloYBusg2Lg6gElHGfHsItsZQhURa3AvFX0EReExHggrIbHxsbHnECwgAnOILqJqvgZiP3zegdhDzCHqSn302BL5yZ/SCZzlHjdOt1ZRAAAAAElFTkSuQmCC',
    },
    check: (data) => assert.equal(data.result, 'hi'),
  },
]

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

  for (const { task, operation, arguments: fields, check } of TASKS) {
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
