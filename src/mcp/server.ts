import {
  type CallToolResult,
  fromJsonSchema,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  McpServer,
  type ToolAnnotations,
} from '@modelcontextprotocol/server'
import { DEFAULT_CONFIG, type TimeBudgets } from '../core/config.ts'
import { DevutilsError, INTERNAL_ERROR_MESSAGE, isDevutilsError } from '../core/errors.ts'
import { execute } from '../core/execute.ts'
import type { OperationInfo } from '../core/operation.ts'
import type { Registry } from '../core/registry.ts'
import { VERSION } from '../core/version.ts'
import { served } from '../served.ts'
import { registerDiscoveryTools, registerDocumentResources } from './discovery.ts'
import { failure, success } from './results.ts'

export interface CreateMcpServerOptions {
  /** One direct tool per operation of this list (see `selectTools`); without it, the discovery tools. */
  tools?: readonly OperationInfo[]
  /** What the tools run and the discovery tools and the resources reach: the registry's operations and the workflows, unless a test brings its own. */
  registry?: Registry
  /** The OpenAPI document's text, for its resource: the HTTP app's own, or the one the build wrote. */
  openApiDocument?: () => Promise<string>
  /** The processing time budgets of each tool call, as for an HTTP request. */
  budgets?: TimeBudgets
  /** The client's address, where the transport knows it (see `RunContext.client`). */
  client?: string
  /** Hears of defects (errors that answer INTERNAL_ERROR), which the client only sees as a fixed message. */
  reportDefect?: (error: unknown) => void
}

/**
 * The SDK validates tool arguments against the tool's input schema before the tool runs, and would
 * answer bad arguments with a protocol error in its own words. This validator lets everything
 * through, so that the tools validate them as HTTP does (`execute`, and the discovery tools with
 * the same validation): same codes, same messages.
 */
const acceptEverything: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined })
  },
}

/**
 * MCP's idempotentHint, read here as "the same arguments give the same result": false for the
 * operations that can answer differently each time (their examples show no fixed output, the
 * registry's mark of random or clock-dependent results: uuid, password, timestamp…) and for the
 * pipeline, whose steps may be such operations. Every tool is read-only and touches nothing outside.
 */
export function annotationsFor(operation: OperationInfo): ToolAnnotations {
  const repeatable = operation.category !== 'workflows' && operation.examples.every((example) => example.output !== undefined)
  return { readOnlyHint: true, idempotentHint: repeatable, openWorldHint: false }
}

/** What the server tells a client of itself when it connects, in parts. */
const INSTRUCTIONS = {
  about: 'Developer utilities: encoders, generators and converters, the same operations as the devutils HTTP API.',
  discovery: 'find_operations finds one from a task in words, describe_operation gives its fields, run_operation runs it.',
  results:
    "Every tool is read-only and pure. A result is the operation's data as structured content; a refused call is an error result whose text says 'CODE: message', followed by the error { code, message, details } as JSON text.",
}

const unavailableDocument = async (): Promise<string> => {
  throw new DevutilsError('NOT_FOUND', 'The OpenAPI document is not available here: run `npm run build`, or read /openapi.json from a server')
}

/**
 * A fresh MCP server: the discovery tools, or one direct tool per operation asked for, and the
 * documents as resources. The HTTP route makes one per request, stdio one per connection.
 */
export function createMcpServer({
  tools,
  registry = served,
  budgets = DEFAULT_CONFIG,
  client,
  reportDefect,
  openApiDocument = unavailableDocument,
}: CreateMcpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'devutils', version: VERSION },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      // The discovery tools are named only where they are listed: a client of direct tools has none of them.
      instructions: [INSTRUCTIONS.about, ...(tools === undefined ? [INSTRUCTIONS.discovery] : []), INSTRUCTIONS.results].join(' '),
    },
  )
  const run = async (operation: OperationInfo, args: unknown): Promise<CallToolResult> => {
    try {
      const definition = await registry.operation(operation.name)
      if (definition === undefined) throw new DevutilsError('UNKNOWN_OPERATION', `There is no operation named '${operation.name}'`)
      return success(await execute(definition, args, { timeBudgetMs: budgets.timeBudgetMs, codeBudgets: budgets, client, reportDefect }))
    } catch (error) {
      // A defect, whether thrown as it is or already answered as INTERNAL_ERROR (a pipeline's step), is reported with its causes.
      if (!isDevutilsError(error) || error.code === 'INTERNAL_ERROR') reportDefect?.(error)
      return failure(isDevutilsError(error) ? error : new DevutilsError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE))
    }
  }
  const { operations } = registry
  if (tools === undefined) registerDiscoveryTools(server, { operations, run, validator: acceptEverything })
  else
    for (const operation of tools) {
      server.registerTool(
        operation.name,
        {
          title: operation.title,
          description: `${operation.summary}.\n\n${operation.description}`,
          inputSchema: fromJsonSchema(operation.input as JsonSchemaType, acceptEverything),
          // Published so that clients can check and type results; the server does not check its own
          // (the tests hold every operation's results to its schema). Error results carry none.
          outputSchema: fromJsonSchema(operation.output as JsonSchemaType, acceptEverything),
          annotations: annotationsFor(operation),
        },
        async (args) => run(operation, args),
      )
    }
  registerDocumentResources(server, { operations, openApiDocument })
  return server
}
