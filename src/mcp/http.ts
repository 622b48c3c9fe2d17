import type { FastifyInstance } from 'fastify'
import type { Config } from '../core/config.ts'
import type { McpHttpHandler } from './http-handler.ts'

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
          "and tools/call answers the operation's `data` as structured content, or an error result whose structured content is this API's `error` object.",
      },
    },
    async (request, reply) => {
      handler ??= import('./http-handler.ts').then(({ createMcpHttpHandler }) => createMcpHttpHandler(app, timeBudgetMs))
      return (await handler).answer(request, reply)
    },
  )
}
