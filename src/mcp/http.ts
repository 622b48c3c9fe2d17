import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Config } from '../core/config.ts'
import { validationError } from '../core/errors.ts'
import type { McpHttpHandler } from './http-handler.ts'
import { parseToolSelection, selectTools, type ToolSelection } from './tools.ts'

export const MCP_PATH = '/mcp'

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
 * The MCP SDK is loaded with the first request to /mcp: it is a third of what the server would
 * otherwise load and compile before it is ready, for a route many instances never serve.
 */
export function registerMcpRoute(app: FastifyInstance, { timeBudgetMs }: Config): void {
  let handler: Promise<McpHttpHandler> | undefined
  app.addHook('onClose', async () => (await handler)?.close())

  app.post(
    MCP_PATH,
    {
      schema: {
        tags: ['service'],
        summary: 'Model Context Protocol (Streamable HTTP, stateless): every operation and the pipeline as MCP tools',
        description:
          'Point an MCP client at this URL. The body is a JSON-RPC message of the MCP protocol; tools/list lists one tool per operation plus `pipeline`, ' +
          "and tools/call answers the operation's `data` as structured content, or an error result whose structured content is this API's `error` object. " +
          'A client that loads only so many tools can ask for fewer in the URL: `/mcp?categories=encoders,converters` or `/mcp?tools=base64,hash` (both together give the union).',
        querystring: Type.Object(
          {
            tools: Type.Optional(Type.String({ description: 'Comma-separated tool names (operation names, or pipeline) to serve.' })),
            categories: Type.Optional(
              Type.String({ description: 'Comma-separated categories whose tools to serve: encoders, generators, converters, workflows (the pipeline).' }),
            ),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      // Checked here, so that a bad selection is this API's 400 rather than a protocol error.
      selectTools(toolSelectionOf(request))
      handler ??= import('./http-handler.ts').then(({ createMcpHttpHandler }) => createMcpHttpHandler(app, timeBudgetMs))
      return (await handler).answer(request, reply)
    },
  )
}

/** The tools a request to /mcp asks for, from its query string; any other parameter is a 400. */
export function toolSelectionOf(request: FastifyRequest | Request): ToolSelection {
  const params = new URL(request.url, 'http://localhost').searchParams
  for (const name of params.keys()) {
    if (name !== 'tools' && name !== 'categories') throw validationError(name, 'is not a parameter of /mcp; it takes tools and categories')
  }
  return parseToolSelection((name) => params.get(name) ?? undefined)
}
