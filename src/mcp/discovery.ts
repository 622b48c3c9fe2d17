import {
  type CallToolResult,
  fromJsonSchema,
  type JsonSchemaType,
  type jsonSchemaValidator,
  type McpServer,
  ResourceTemplate,
} from '@modelcontextprotocol/server'
import { type Static, type TSchema, Type } from 'typebox'
import { catalogue } from '../core/catalogue.ts'
import { DevutilsError, isDevutilsError } from '../core/errors.ts'
import type { OperationInfo } from '../core/operation.ts'
import { operationDocument } from '../core/operation-docs.ts'
import { closestName, type Searchable, searchOperations } from '../core/search.ts'
import { validate } from '../core/validate.ts'
import { failure, success } from './results.ts'

/** How many matches `find_operations` answers unless asked for more. */
const DEFAULT_MATCHES = 5
const MAX_MATCHES = 20

const FindInput = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 200, description: 'The task in a few words, e.g. "decode a JWT", "sha256 of a text", "next cron run".' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_MATCHES, default: DEFAULT_MATCHES, description: 'How many matches to answer.' })),
  },
  { additionalProperties: false },
)

const FindOutput = Type.Object({
  operations: Type.Array(Type.Object({ name: Type.String(), title: Type.String(), category: Type.String(), summary: Type.String() }), {
    description: 'The best matches first; empty when nothing matched.',
  }),
})

const DescribeInput = Type.Object(
  { name: Type.String({ maxLength: 64, description: 'The operation, as find_operations names it.' }) },
  { additionalProperties: false },
)

const DescribeOutput = Type.Object({
  name: Type.String(),
  title: Type.String(),
  category: Type.String(),
  summary: Type.String(),
  description: Type.String(),
  input: Type.Object({}, { additionalProperties: true, description: "The JSON Schema of run_operation's `arguments` for it." }),
  output: Type.Object({}, { additionalProperties: true, description: 'The JSON Schema of its result.' }),
  examples: Type.Array(Type.Object({ summary: Type.String(), arguments: Type.Unknown(), result: Type.Optional(Type.Unknown()) })),
})

const RunInput = Type.Object(
  {
    operation: Type.String({ maxLength: 64, description: 'The operation, as find_operations names it; `pipeline` and `batch` run several.' }),
    arguments: Type.Optional(Type.Object({}, { additionalProperties: true, description: "The operation's fields, as describe_operation gives them." })),
  },
  { additionalProperties: false },
)

const RunOutput = Type.Object({}, { additionalProperties: true, description: "The operation's result, as its output schema gives it." })

export interface DiscoveryOptions {
  /** Every operation the tools reach, the workflows included. */
  operations: readonly OperationInfo[]
  /** Runs one operation on raw arguments, validated as over HTTP, as a tool's result. */
  run: (operation: OperationInfo, args: unknown) => Promise<CallToolResult>
  /** What the SDK checks the tools' arguments with: the tools check them themselves, as HTTP does. */
  validator: jsonSchemaValidator
}

/** The discovery tools' names, for those who list them. */
export const DISCOVERY_TOOLS = ['find_operations', 'describe_operation', 'run_operation'] as const

/**
 * The default tools: three that reach every operation however many there are. An agent finds an
 * operation from its task in words, reads its fields, then runs it; the list stays the same size
 * as the registry grows, where one tool per operation would fill an agent's context.
 */
export function registerDiscoveryTools(server: McpServer, options: DiscoveryOptions): void {
  const tools = discoveryTools(options)
  registerFindOperations(server, tools)
  registerDescribeOperation(server, tools)
  registerRunOperation(server, tools, options.run)
}

/** What the three tools share: the operations by name and as searched, and how a tool checks its arguments. */
interface DiscoveryTools {
  searchable: Array<Searchable & { operation: OperationInfo }>
  /** A tool's schema as the SDK takes it. */
  schema: (type: object) => ReturnType<typeof fromJsonSchema>
  /** The operation of that name; an unknown one is UNKNOWN_OPERATION, naming the closest. */
  found: (name: string) => OperationInfo
  /** The tool's answer to arguments checked against its input schema: a refusal, such as VALIDATION_ERROR, as an error result. */
  answer: <Input extends TSchema>(
    input: Input,
    args: unknown,
    work: (fields: Static<Input>) => CallToolResult | Promise<CallToolResult>,
  ) => Promise<CallToolResult>
}

function discoveryTools({ operations, validator }: DiscoveryOptions): DiscoveryTools {
  const byName = new Map(operations.map((operation) => [operation.name, operation]))
  const searchable = operations.map((operation) => ({
    operation,
    name: operation.name,
    title: operation.title,
    summary: operation.summary,
    aliases: operation.aliases,
    text: operation.description,
  }))
  return {
    searchable,
    schema: (type) => fromJsonSchema(type as JsonSchemaType, validator),
    found: (name) => {
      const operation = byName.get(name)
      if (operation) return operation
      const closest = closestName([...byName.keys()], name) ?? searchOperations(searchable, name)[0]?.item.name
      throw new DevutilsError(
        'UNKNOWN_OPERATION',
        `There is no operation named '${name}'${closest ? `; did you mean '${closest}'?` : ';'} find_operations finds one from a task in words`,
      )
    },
    answer: async (input, args, work) => {
      try {
        return await work(validate<Static<typeof input>>(input, args))
      } catch (error) {
        if (isDevutilsError(error)) return failure(error)
        throw error
      }
    },
  }
}

function registerFindOperations(server: McpServer, { searchable, schema, answer }: DiscoveryTools): void {
  server.registerTool(
    'find_operations',
    {
      title: 'Find an operation',
      description:
        'Find the devutils operations (encoders, generators, converters: base64, hashes, JWT, UUID, JSON, YAML, cron, timestamps…) that do a task described in words. ' +
        'Answers their names, best first. Then describe_operation gives the fields of one, and run_operation runs it.',
      inputSchema: schema(FindInput),
      outputSchema: schema(FindOutput),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) =>
      answer(FindInput, args, ({ query, limit = DEFAULT_MATCHES }) => {
        const hits = searchOperations(searchable, query).slice(0, limit)
        const result: Static<typeof FindOutput> = {
          operations: hits.map(({ item }) => ({ name: item.name, title: item.title, category: item.operation.category, summary: item.summary })),
        }
        return success(result)
      }),
  )
}

function registerDescribeOperation(server: McpServer, { schema, found, answer }: DiscoveryTools): void {
  server.registerTool(
    'describe_operation',
    {
      title: 'Describe an operation',
      description: "An operation's fields (a JSON Schema, with defaults and bounds), its result's schema and worked examples: what run_operation takes for it.",
      inputSchema: schema(DescribeInput),
      outputSchema: schema(DescribeOutput),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) =>
      answer(DescribeInput, args, ({ name }) => {
        const operation = found(name)
        const result: Static<typeof DescribeOutput> = {
          name: operation.name,
          title: operation.title,
          category: operation.category,
          summary: operation.summary,
          description: operation.description,
          input: operation.input,
          output: operation.output,
          examples: operation.examples.map((example) => ({
            summary: example.summary,
            arguments: example.input,
            ...(example.output !== undefined && { result: example.output }),
          })),
        }
        return success(result)
      }),
  )
}

function registerRunOperation(server: McpServer, { schema, found, answer }: DiscoveryTools, run: DiscoveryOptions['run']): void {
  server.registerTool(
    'run_operation',
    {
      title: 'Run an operation',
      description:
        "Run one devutils operation by name with its fields as `arguments`, checked as the HTTP API checks them; answers the operation's result. " +
        'Use `pipeline` to chain operations (each result becomes the next input) and `batch` for several independent ones.',
      inputSchema: schema(RunInput),
      outputSchema: schema(RunOutput),
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args) => answer(RunInput, args, ({ operation, arguments: fields = {} }) => run(found(operation), fields)),
  )
}

/** The catalogue, the OpenAPI document and each operation's documentation, for clients to attach. */
export function registerDocumentResources(
  server: McpServer,
  { operations, openApiDocument }: { operations: readonly OperationInfo[]; openApiDocument: () => Promise<string> },
): void {
  const byName = new Map(operations.map((operation) => [operation.name, operation]))
  server.registerResource(
    'catalogue',
    'devutils://catalogue',
    { title: 'Catalogue of operations', description: 'Every operation with its category, HTTP path, methods and summary.', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ operations: catalogue(operations) }) }] }),
  )
  server.registerResource(
    'openapi',
    'devutils://openapi.json',
    {
      title: 'OpenAPI document',
      description: 'The HTTP API: every operation with its fields, defaults, limits, examples and errors.',
      mimeType: 'application/json',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: await openApiDocument() }] }),
  )
  server.registerResource(
    'operation',
    new ResourceTemplate('devutils://operations/{name}', {
      list: async () => ({
        resources: operations.map((operation) => ({
          uri: `devutils://operations/${operation.name}`,
          name: operation.name,
          title: operation.title,
          description: operation.summary,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    { title: "An operation's documentation", description: 'Its fields, defaults, examples and errors, in Markdown.', mimeType: 'text/markdown' },
    async (uri, { name }) => {
      const operation = byName.get(String(name))
      if (!operation) throw new DevutilsError('UNKNOWN_OPERATION', `There is no operation named '${name}'`)
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: operationDocument(operation) }] }
    },
  )
}
