import { toWebRequest } from '@modelcontextprotocol/node'
import { createMcpHandler } from '@modelcontextprotocol/server'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../core/config.ts'
import { parseJsonBody } from '../core/json-body.ts'
import { describeDefect } from '../http/errors.ts'
import { bodyBytes } from '../http/json-body.ts'
import { createMcpServer } from './server.ts'

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
 */
export function registerMcpRoute(app: FastifyInstance, { timeBudgetMs }: Config): void {
  const handler = createMcpHandler(
    () => createMcpServer({ timeBudgetMs, reportDefect: (error) => app.log.error({ defect: describeDefect(error) }, 'MCP tool call failed') }),
    // Mostly clients' protocol mistakes, already answered (4xx) and counted by the request log line.
    { onerror: (error) => app.log.debug({ reason: error.message }, 'MCP request refused') },
  )
  app.addHook('onClose', () => handler.close())

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
      const body = parseJsonBody(bodyBytes(request))
      // As the SDK's own Node adapter does: a client that goes away aborts the exchange.
      const abort = new AbortController()
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort()
      })
      const webRequest = await toWebRequest(request.raw, body, { signal: abort.signal })
      return handler.fetch(webRequest, { parsedBody: body })
    },
  )
}
