type JsonSchema = Record<string, unknown>

/** What a field's schema accepts, as far as reading a value from text goes. */
export interface FieldKind {
  /** The JSON types the schema names (`integer` and `number` apart). */
  types: Set<string>
  /** The values an enum or a union of constants allows. */
  choices: unknown[]
}

export function fieldKind(schema: JsonSchema): FieldKind {
  const kind: FieldKind = { types: new Set(), choices: [] }
  const visit = (node: JsonSchema) => {
    if (typeof node.type === 'string') kind.types.add(node.type)
    if (Array.isArray(node.enum)) kind.choices.push(...node.enum)
    if ('const' in node) kind.choices.push(node.const)
    if (Array.isArray(node.anyOf)) for (const branch of node.anyOf) visit(branch as JsonSchema)
  }
  visit(schema)
  return kind
}

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/**
 * Reads text (a query parameter, a command-line flag) as the value a field's schema expects: one
 * of its choices, a number, or a boolean, where the field takes it. Text that is none of these is
 * returned as it is, for the schema to accept as text or to refuse by name.
 */
export function textToValue(schema: JsonSchema, text: string): unknown {
  const kind = fieldKind(schema)
  const choice = kind.choices.find((value) => String(value) === text)
  if (choice !== undefined) return choice
  const numeric = (kind.types.has('integer') || kind.types.has('number')) && NUMBER_TEXT.test(text)
  // A field that takes text as well keeps it as text unless the number says exactly the same
  // thing: 30 digits of base-convert input would lose precision as a number.
  if (numeric && (!kind.types.has('string') || String(Number(text)) === text)) return Number(text)
  if (kind.types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true'
  return text
}
