import type { TObject } from 'typebox'

type JsonSchema = Record<string, unknown>

function acceptedTypes(schema: JsonSchema): Set<string> {
  const types = new Set<string>()
  const visit = (node: JsonSchema) => {
    if (typeof node.type === 'string') types.add(node.type)
    if ('const' in node) types.add(typeof node.const)
    if (Array.isArray(node.enum)) for (const value of node.enum) types.add(typeof value)
    if (Array.isArray(node.anyOf)) for (const branch of node.anyOf) visit(branch as JsonSchema)
  }
  visit(schema)
  return types
}

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/**
 * Turns query-string text into the JSON values the schema expects: numbers and booleans are parsed
 * from their text where the field takes them, and everything else stays text for the validator to
 * judge. Unknown fields are passed through so that validation refuses them by name.
 */
export function queryToInput(schema: TObject, query: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, JsonSchema>
  const input: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(query)) {
    const property = properties[key]
    if (property === undefined || typeof value !== 'string') {
      input[key] = value
      continue
    }
    const types = acceptedTypes(property)
    if ((types.has('integer') || types.has('number')) && NUMBER_TEXT.test(value)) input[key] = Number(value)
    else if (types.has('boolean') && (value === 'true' || value === 'false')) input[key] = value === 'true'
    else input[key] = value
  }
  return input
}
