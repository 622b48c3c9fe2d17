import { validationError } from '../core/errors.ts'
import type { OperationInfo } from '../core/operation.ts'
import { served } from '../served.ts'

/**
 * The MCP tools: every operation of the registry, and the pipeline. The batch is left out: a client
 * that wants several independent results calls several tools.
 */
export const mcpTools: readonly OperationInfo[] = served.operations.filter((operation) => operation.name !== 'batch')

/**
 * Which tools a client asks for: those named and those of the categories named (the union), each
 * with its full schemas; with neither, every operation directly when `all` is set (MCP_TOOLS=all),
 * and otherwise the discovery tools, which reach every operation in a small, constant number of tokens.
 */
export interface ToolSelection {
  tools?: readonly string[]
  categories?: readonly string[]
  all?: boolean
}

/**
 * The direct tools of a selection, in the registry's order, or undefined for the discovery tools;
 * an unknown name or category is a 400.
 */
export function selectTools({ tools = [], categories = [], all = false }: ToolSelection): OperationInfo[] | undefined {
  if (tools.length === 0 && categories.length === 0) return all ? [...mcpTools] : undefined
  const knownCategories: string[] = [...new Set(mcpTools.map((tool) => tool.category))]
  for (const category of categories) {
    if (!knownCategories.includes(category)) throw validationError('categories', `has '${category}', which is not one of: ${knownCategories.join(', ')}`)
  }
  for (const name of tools) {
    if (!mcpTools.some((tool) => tool.name === name)) throw validationError('tools', `has '${name}', which is not a tool; devutils list names them`)
  }
  return mcpTools.filter((tool) => tools.includes(tool.name) || categories.includes(tool.category))
}

/** A selection written as `tools=a,b&categories=c` (the /mcp URL's query) or as the same flags of `devutils mcp`. */
export function parseToolSelection(read: (name: 'tools' | 'categories') => string | undefined): ToolSelection {
  const list = (name: 'tools' | 'categories') =>
    (read(name) ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
  return { tools: list('tools'), categories: list('categories') }
}
