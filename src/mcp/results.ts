import type { CallToolResult } from '@modelcontextprotocol/server'
import { type DevutilsError, errorBody } from '../core/errors.ts'

/** A tool's data as structured content, and as JSON text for clients that read only text. */
export function success(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data }
}

/**
 * The error as `CODE: message`, then as the JSON of HTTP's `error` object, both as text. Not as
 * structured content: clients on the 1.x SDK check structured content against the tool's
 * outputSchema even in an error result, and would show a schema mismatch instead of the message.
 */
export function failure(error: DevutilsError): CallToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text: `${error.code}: ${error.message}` },
      { type: 'text', text: JSON.stringify(errorBody(error)) },
    ],
  }
}
