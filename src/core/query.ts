import type { TObject } from 'typebox'
import { textToValue } from './text-values.ts'

/**
 * Turns query-string text into the JSON values the schema expects (see `textToValue`). Unknown
 * fields and repeated parameters are passed through, so that validation refuses them by name.
 */
export function queryToInput(schema: TObject, query: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>>
  const input: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(query)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined
    input[key] = property !== undefined && typeof value === 'string' ? textToValue(property, value) : value
  }
  return input
}
