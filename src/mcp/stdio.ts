import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio'
import { loadConfig, type TimeBudgets } from '../core/config.ts'
import { type DefectDescription, describeDefect } from '../core/defects.ts'
import type { OperationInfo } from '../core/operation.ts'
import { createMcpServer } from './server.ts'

/**
 * The OpenAPI document the build writes beside the bundle (the HTTP app generates it; the command
 * line does not start one): in the build, beside this module; where tsx runs the sources, in dist/.
 */
const OPENAPI_FILE =
  extname(new URL(import.meta.url).pathname) === '.js' ? new URL('./openapi.json', import.meta.url) : new URL('../../dist/openapi.json', import.meta.url)

const builtOpenApiDocument = () => readFile(OPENAPI_FILE, 'utf8')

/**
 * What standard error says of a failure: the type, code and stack of each error down its chain of
 * causes, as the HTTP service logs a defect, and never a message: a message may hold the caller's
 * input (a password, a key), and MCP hosts keep a server's standard error in their log files.
 */
export function stderrReport(what: string, error: unknown): string {
  return `devutils mcp: ${what}: ${readableDefect(describeDefect(error))}\n`
}

/** A defect's description as lines: each error's type and code, then its stack frames, then its cause's. */
function readableDefect({ type, code, stack, cause }: DefectDescription): string {
  const heading = code === undefined ? type : `${type} (${String(code)})`
  const own = stack ? `${heading}\n${stack}` : heading
  return cause === undefined ? own : `${own}\ncaused by ${readableDefect(cause)}`
}

function logToStderr(what: string, error: unknown): void {
  process.stderr.write(stderrReport(what, error))
}

/**
 * Speaks MCP on standard input and output (`devutils mcp`) until the client closes standard input.
 * Standard output carries protocol messages only; anything worth telling goes to standard error.
 * The time budget (TIME_BUDGET_MS unless the caller passes its configuration) applies to each tool
 * call, as it does to each HTTP request.
 */
export async function serveMcpOverStdio({ budgets = loadConfig(), tools }: { budgets?: TimeBudgets; tools?: readonly OperationInfo[] } = {}): Promise<void> {
  const transport = new StdioServerTransport()
  await new Promise<void>((resolve) => {
    serveStdio(
      () => createMcpServer({ tools, budgets, openApiDocument: builtOpenApiDocument, reportDefect: (error) => logToStderr('tool call failed', error) }),
      {
        transport,
        onerror: (error) => logToStderr('protocol error', error),
      },
    )
    // serveStdio owns the transport's callbacks; this one chains onto its close handler to learn the end.
    const onclose = transport.onclose
    transport.onclose = () => {
      onclose?.()
      resolve()
    }
  })
}
