type JsonSchema = Record<string, unknown>

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/**
 * Gives every `enum` and `const` of a schema the `type` of its values, in place. TypeBox writes
 * `Type.Enum([...])` as a bare `{ enum }`, which validates the same but leaves client generators and
 * MCP clients guessing: an untyped enum of numbers becomes a text field in a form, and `"7"` is sent
 * for `7`. An enum whose values are of different types is refused: write it as a union of one enum
 * per type, so that each branch says its type.
 */
export function typeEnums<T>(schema: T): T {
  visit(schema as JsonSchema, new Set())
  return schema
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']
const SCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems']
const SCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']

function visit(schema: JsonSchema, seen: Set<unknown>): void {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return
  seen.add(schema)
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined
  if (values !== undefined && schema.type === undefined && values.length > 0) {
    const types = [...new Set(values.map(jsonTypeOf))]
    const type = types.length === 1 ? types[0] : types.length === 2 && types.includes('integer') && types.includes('number') ? 'number' : undefined
    if (type === undefined) throw new Error(`The enum ${JSON.stringify(values)} mixes types (${types.join(', ')}); write it as a union of one enum per type`)
    schema.type = type
  }
  for (const key of SCHEMA_MAPS) for (const child of Object.values((schema[key] ?? {}) as JsonSchema)) visit(child as JsonSchema, seen)
  for (const key of SCHEMA_LISTS) for (const child of (schema[key] ?? []) as JsonSchema[]) visit(child, seen)
  for (const key of SCHEMAS) visit(schema[key] as JsonSchema, seen)
}
