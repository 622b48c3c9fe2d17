import { toWebRequest } from '@modelcontextprotocol/node'
import { createMcpHandler } from '@modelcontextprotocol/server'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TimeBudgets } from '../core/config.ts'
import { describeDefect } from '../core/defects.ts'
import { createMcpServer } from '../mcp/server.ts'
import { selectTools } from '../mcp/tools.ts'
import { toolSelectionOf } from './mcp-selection.ts'

export interface McpHttpHandler {
  /** Answers a request whose body the route has parsed. */
  answer(request: FastifyRequest, reply: FastifyReply, body: unknown): Promise<Response>
  close(): Promise<void> | void
}

/**
 * The MCP SDK's stateless Streamable HTTP handler, over Fastify's request: every POST is served by a
 * fresh server instance. The SDK sees the already-parsed body and answers with a web Response.
 */
export function createMcpHttpHandler(app: FastifyInstance, { budgets, allTools }: { budgets: TimeBudgets; allTools: boolean }): McpHttpHandler {
  // The client's address of each request the SDK is handed, for the server it makes for that request.
  const clients = new WeakMap<Request, string>()
  const handler = createMcpHandler(
    ({ requestInfo }) =>
      createMcpServer({
        tools: selectTools({ ...(requestInfo ? toolSelectionOf(requestInfo) : {}), all: allTools }),
        openApiDocument: async () => app.openApiText(),
        budgets,
        client: requestInfo && clients.get(requestInfo),
        reportDefect: (error) => app.log.error({ defect: describeDefect(error) }, 'MCP tool call failed'),
      }),
    // Mostly clients' protocol mistakes, already answered (4xx) and counted by the request log line.
    { onerror: (error) => app.log.debug({ reason: error.message }, 'MCP request refused') },
  )
  return {
    async answer(request, reply, body) {
      // As the SDK's own Node adapter does: a client that goes away aborts the exchange.
      const abort = new AbortController()
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort()
      })
      const webRequest = await toWebRequest(request.raw, body, { signal: abort.signal })
      clients.set(webRequest, request.ip)
      return handler.fetch(webRequest, { parsedBody: body })
    },
    close: () => handler.close(),
  }
}
