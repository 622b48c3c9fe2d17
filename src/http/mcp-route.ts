import type { FastifyInstance, FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { TimeBudgets } from '../core/config.ts'
import { JSON_CONTENT_TYPE } from '../core/envelope.ts'
import { isDevutilsError } from '../core/errors.ts'
import { parseJsonBody } from '../core/json-body.ts'
import { typeEnums } from '../core/schema-types.ts'
import { selectTools } from '../mcp/tools.ts'
import { bodyBytes } from './json-body.ts'
import type { McpHttpHandler } from './mcp-handler.ts'
import { toolSelectionOf } from './mcp-selection.ts'
import { ERROR_ENVELOPE_ID } from './openapi.ts'

const MCP_PATH = '/mcp'

/**
 * MCP over Streamable HTTP at /mcp, stateless: every POST is served by a fresh server instance, for
 * clients of the 2025 protocol revisions and of 2026-07-28 alike. The route is an ordinary Fastify
 * route, so the app's JSON body parser and body limit, CORS, security headers, rate limit, metrics
 * and error envelope apply to it as to any other; the SDK sees the already-parsed body and answers
 * with a web Response, which Fastify sends (streamed when it is an event stream). GET and DELETE
 * (the session operations of the 2025 revisions) get the app's 405, as a stateless server should.
 * There is no Host/Origin allow-list: the service is public, its tools are pure and read-only, and
 * it keeps no session or credential that a rebound or cross-site request could reach.
 *
 * The MCP SDK is loaded with the first request to /mcp: it is a large part of what the server would
 * otherwise load and compile before it is ready, for a route many instances never serve.
 */
export async function mcpRoute(app: FastifyInstance, options: { budgets: TimeBudgets; allTools: boolean }) {
  let handler: Promise<McpHttpHandler> | undefined
  app.addHook('onClose', async () => (await handler)?.close())

  app.post(MCP_PATH, { schema: mcpRouteSchema() }, async (request, reply) => {
    // Checked here, so that a bad selection is this API's 400 rather than a protocol error.
    selectTools(toolSelectionOf(request))
    let body: unknown
    try {
      body = parseJsonBody(bodyBytes(request))
    } catch (error) {
      if (isDevutilsError(error) && error.code === 'INVALID_JSON') return sendJsonRpcError(reply, PARSE_ERROR, error.message)
      throw error
    }
    handler ??= import('./mcp-handler.ts').then(({ createMcpHttpHandler }) => createMcpHttpHandler(app, options))
    return (await handler).answer(request, reply, body)
  })
}

/** JSON-RPC 2.0's code for a body that is not JSON; the SDK answers -32600 for JSON that is not a request. */
const PARSE_ERROR = -32700

/** As the Streamable HTTP transport answers a message it cannot take: a JSON-RPC error with no id, status 400. */
function sendJsonRpcError(reply: FastifyReply, code: number, message: string) {
  return reply
    .code(400)
    .type(JSON_CONTENT_TYPE)
    .send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }))
}

const JsonRpcId = Type.Union([Type.String(), Type.Integer()], { description: 'The request id, echoed in the response.' })

const JsonRpcRequestSchema = typeEnums(
  Type.Object(
    {
      jsonrpc: Type.Literal('2.0'),
      id: Type.Optional(
        Type.Union([Type.String(), Type.Integer()], { description: 'The request id; absent in a notification, which is answered 202 with no body.' }),
      ),
      method: Type.String({ description: 'An MCP method: initialize, tools/list, tools/call, ping, or a notification such as notifications/initialized.' }),
      params: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "The method's parameters." })),
    },
    { description: 'One JSON-RPC 2.0 message of the Model Context Protocol.' },
  ),
)

const JsonRpcErrorSchema = typeEnums(
  Type.Object(
    {
      jsonrpc: Type.Literal('2.0'),
      id: Type.Union([JsonRpcId, Type.Null()]),
      error: Type.Object({
        code: Type.Integer({
          description: '-32700: the body is not JSON. -32600: it is not a JSON-RPC request. -32000: the Accept header lacks a media type.',
        }),
        message: Type.String(),
        data: Type.Optional(Type.Unknown()),
      }),
    },
    { description: 'A JSON-RPC 2.0 error response.' },
  ),
)

const JsonRpcResponseSchema = typeEnums(
  Type.Object(
    {
      jsonrpc: Type.Literal('2.0'),
      id: JsonRpcId,
      result: Type.Record(Type.String(), Type.Unknown(), { description: "The method's result, e.g. tools/call's { content, structuredContent, isError }." }),
    },
    { description: 'A JSON-RPC 2.0 result.' },
  ),
)

const TOOLS_CALL = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'run_operation', arguments: { operation: 'base64', arguments: { input: 'hi' } } },
}

/** The route schema of /mcp, for the OpenAPI document: the JSON-RPC messages it takes and answers. */
function mcpRouteSchema() {
  const envelope = (description: string) => ({ description, $ref: `${ERROR_ENVELOPE_ID}#` })
  return {
    operationId: 'mcp',
    tags: ['service'],
    summary: 'Model Context Protocol (Streamable HTTP, stateless): every operation and the workflows, through MCP tools',
    description:
      'Point an MCP client at this URL. The body is a JSON-RPC message of the MCP protocol. ' +
      'tools/list lists three tools that reach every operation: `find_operations` (from a task in words), `describe_operation` (its fields) and `run_operation` (runs it; `pipeline` and `batch` run several). ' +
      'Operations are tools of their own, each with its full schemas, when the URL asks for some (`/mcp?categories=encoders,converters`, `/mcp?tools=base64,hash`; both together give the union) or, without either, when the service runs with MCP_TOOLS=all. ' +
      "tools/call answers the operation's `data` as structured content, or an error result without structured content whose text is `CODE: message`, then this API's `error` object as JSON. " +
      'Send `Accept: application/json, text/event-stream`: a result comes as a server-sent event stream.',
    querystring: Type.Object(
      {
        tools: Type.Optional(Type.String({ description: 'Comma-separated tool names (operation names, or pipeline) to serve.' })),
        categories: Type.Optional(
          Type.String({ description: 'Comma-separated categories whose tools to serve: encoders, generators, converters, workflows (the pipeline).' }),
        ),
      },
      { additionalProperties: false },
    ),
    body: {
      ...JsonRpcRequestSchema,
      'x-examples': {
        initialize: {
          summary: 'Open a session (2025 revisions)',
          value: {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'my-client', version: '1.0.0' } },
          },
        },
        'tools/list': { summary: 'List the tools', value: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
        'tools/call': { summary: 'Run base64', value: TOOLS_CALL },
      },
    },
    response: {
      200: {
        description: 'The JSON-RPC response, as a server-sent event stream (one `message` event) or as JSON.',
        content: {
          'text/event-stream': {
            schema: Type.String({ description: 'Server-sent events, each `event: message` with a JSON-RPC response as `data`.' }),
            example: `event: message\ndata: {"result":{"content":[{"type":"text","text":"{\\"result\\":\\"aGk=\\",\\"action\\":\\"encode\\"}"}],"structuredContent":{"result":"aGk=","action":"encode"}},"jsonrpc":"2.0","id":2}\n\n`,
          },
          'application/json': {
            schema: Type.Union([JsonRpcResponseSchema, JsonRpcErrorSchema]),
            example: {
              jsonrpc: '2.0',
              id: 2,
              result: { content: [{ type: 'text', text: '{"result":"aGk=","action":"encode"}' }], structuredContent: { result: 'aGk=', action: 'encode' } },
            },
          },
        },
      },
      202: { description: 'A notification or a response was accepted; there is no body.' },
      400: {
        description:
          'A JSON-RPC error: -32700 when the body is not JSON, -32600 when it is not a JSON-RPC request. Or VALIDATION_ERROR in the error envelope when the query names an unknown tool, category or parameter.',
        content: {
          'application/json': {
            schema: Type.Union([JsonRpcErrorSchema, Type.Ref(ERROR_ENVELOPE_ID)]),
            example: {
              jsonrpc: '2.0',
              id: null,
              error: { code: PARSE_ERROR, message: "The body is not valid JSON: Expected ',' or '}' after property value in JSON at position 11" },
            },
          },
        },
      },
      406: {
        description: 'A JSON-RPC error (-32000): the Accept header must list both application/json and text/event-stream.',
        content: { 'application/json': { schema: JsonRpcErrorSchema } },
      },
      413: envelope('PAYLOAD_TOO_LARGE: the body exceeds the body limit.'),
      415: envelope('UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json.'),
      429: envelope('RATE_LIMITED: too many requests from this client; see Retry-After.'),
    },
  }
}
