import type { FastifyRequest } from 'fastify'
import { validationError } from '../core/errors.ts'
import { parseToolSelection, type ToolSelection } from '../mcp/tools.ts'

/** The tools a request to /mcp asks for, from its query string; any other parameter is a 400. */
export function toolSelectionOf(request: FastifyRequest | Request): ToolSelection {
  const params = new URL(request.url, 'http://localhost').searchParams
  for (const name of params.keys()) {
    if (name !== 'tools' && name !== 'categories') throw validationError(name, 'is not a parameter of /mcp; it takes tools and categories')
  }
  return parseToolSelection((name) => params.get(name) ?? undefined)
}
