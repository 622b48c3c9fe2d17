import { toWebRequest } from '@modelcontextprotocol/node'
import { createMcpHandler } from '@modelcontextprotocol/server'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { describeDefect } from '../core/errors.ts'
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
export function createMcpHttpHandler(app: FastifyInstance, { timeBudgetMs, allTools }: { timeBudgetMs: number; allTools: boolean }): McpHttpHandler {
  const handler = createMcpHandler(
    ({ requestInfo }) =>
      createMcpServer({
        tools: selectTools({ ...(requestInfo ? toolSelectionOf(requestInfo) : {}), all: allTools }),
        openApiDocument: async () => app.openApiText(),
        timeBudgetMs,
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
      return handler.fetch(webRequest, { parsedBody: body })
    },
    close: () => handler.close(),
  }
}
