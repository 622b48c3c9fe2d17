import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio'
import { loadConfig } from '../core/config.ts'
import type { AnyOperation } from '../core/operation.ts'
import { createMcpServer } from './server.ts'

function logToStderr(what: string, error: unknown): void {
  process.stderr.write(`devutils mcp: ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
}

/**
 * Speaks MCP on standard input and output (`devutils mcp`) until the client closes standard input.
 * Standard output carries protocol messages only; anything worth telling goes to standard error.
 * The time budget (TIME_BUDGET_MS unless the caller passes its configuration) applies to each tool
 * call, as it does to each HTTP request.
 */
export async function serveMcpOverStdio({
  timeBudgetMs = loadConfig().timeBudgetMs,
  tools,
}: {
  timeBudgetMs?: number
  tools?: readonly AnyOperation[]
} = {}): Promise<void> {
  const transport = new StdioServerTransport()
  await new Promise<void>((resolve) => {
    serveStdio(() => createMcpServer({ tools, timeBudgetMs, reportDefect: (error) => logToStderr('tool call failed', error) }), {
      transport,
      onerror: (error) => logToStderr('protocol error', error),
    })
    // serveStdio owns the transport's callbacks; this one chains onto its close handler to learn the end.
    const onclose = transport.onclose
    transport.onclose = () => {
      onclose?.()
      resolve()
    }
  })
}
