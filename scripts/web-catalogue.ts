import { choiceLabels, fieldLabel } from '../src/core/labels.ts'
import { type AnyOperation, CATEGORIES } from '../src/core/operation.ts'
import { PIPELINE_MAX_STEPS } from '../src/core/workflows.ts'
import type { FieldSchema, OutputField, WebCatalogue, WebField, WebOperation } from '../src/web/catalogue-types.ts'

interface ObjectSchema {
  properties?: Record<string, Record<string, unknown>>
  required?: string[]
}

/**
 * What the web app needs to draw a form for every operation of the catalogue: names, texts, the
 * input fields' schemas and the examples. The build writes it beside the app, so that a new
 * operation of the registry gets its page with no work.
 */
export function webCatalogue(operations: readonly AnyOperation[], pipeline: AnyOperation, version: string): WebCatalogue {
  const listed = operations.filter((operation) => (CATEGORIES as readonly string[]).includes(operation.category))
  return {
    version,
    categories: [...CATEGORIES],
    operations: listed.map(webOperation),
    pipeline: { maxSteps: PIPELINE_MAX_STEPS, summary: pipeline.summary, description: pipeline.description },
  }
}

function webOperation(operation: AnyOperation): WebOperation {
  const input = operation.input as ObjectSchema
  const output = operation.output as ObjectSchema
  const required = new Set(input.required ?? [])
  return {
    name: operation.name,
    title: operation.title,
    aliases: [...operation.aliases],
    category: operation.category,
    summary: operation.summary,
    description: operation.description,
    fields: Object.entries(input.properties ?? {}).map(([name, schema]) => webField(operation, name, schema, required.has(name))),
    outputFields: Object.fromEntries(Object.entries(output.properties ?? {}).map(([name, schema]) => [name, outputField(schema)])),
    examples: operation.examples.map((example) => ({
      summary: example.summary,
      input: example.input as Record<string, unknown>,
      fixedOutput: example.output !== undefined,
    })),
    deliberatelySlow: operation.deliberatelySlow === true,
    runsInBrowser: operation.runsInBrowser === true,
    verdictField: operation.verdict?.field,
    actions:
      operation.actions &&
      Object.fromEntries(
        Object.entries(operation.actions).map(([action, described]) => [
          action,
          {
            fields: [...described.fields],
            requires: (described.requires ?? []).map((need) => (typeof need === 'string' ? need : [...need])),
            readsFile: described.readsFile === true,
          },
        ]),
      ),
  }
}

function webField(operation: AnyOperation, name: string, schema: Record<string, unknown>, required: boolean): WebField {
  // A JSON round trip drops TypeBox's hidden markers and keeps only what JSON Schema says.
  const fieldSchema = JSON.parse(JSON.stringify(schema)) as FieldSchema & { title?: string }
  const labels = choiceLabels(choicesOf(fieldSchema), operation.labels?.choices?.[name])
  return {
    name,
    label: fieldLabel(name, operation.labels?.fields?.[name] ?? fieldSchema.title),
    required,
    schema: fieldSchema,
    ...(Object.keys(labels).length > 0 && { choiceLabels: labels }),
  }
}

/** The constant values a field's schema names: its enum, and its alternatives' consts and enums. */
function choicesOf(schema: FieldSchema): Array<string | number | boolean> {
  return [...(schema.enum ?? []), ...(schema.const === undefined ? [] : [schema.const]), ...(schema.anyOf ?? []).flatMap(choicesOf)]
}

/** The keywords by which a schema says what type its values are: a schema with none of them allows any JSON value. */
const TYPE_KEYWORDS = ['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref', 'properties', 'items']

/**
 * What the answer's views read of an output field's schema: its description, and the annotations
 * that say what a value means (a date-time, a colour, a media type, how to say a date against now,
 * spans of the input, the value written in a time zone, any JSON value), down through arrays,
 * records and objects; nothing where a nested schema says nothing.
 */
function outputField(schema: Record<string, unknown>, nested = false): OutputField {
  const field: OutputField = {}
  if (!nested && typeof schema.description === 'string') field.description = schema.description
  if (typeof schema.format === 'string') field.format = schema.format
  if (typeof schema.contentMediaType === 'string') field.contentMediaType = schema.contentMediaType
  if (typeof schema['x-relative'] === 'object' && schema['x-relative'] !== null) field.relative = schema['x-relative'] as OutputField['relative']
  if (typeof schema['x-spans'] === 'object' && schema['x-spans'] !== null) field.spans = schema['x-spans'] as OutputField['spans']
  if (typeof schema['x-zoned'] === 'object' && schema['x-zoned'] !== null) field.zoned = schema['x-zoned'] as OutputField['zoned']
  if (!nested && !TYPE_KEYWORDS.some((keyword) => keyword in schema)) field.anyJson = true
  const inner = (value: unknown) => {
    const annotated = typeof value === 'object' && value !== null ? outputField(value as Record<string, unknown>, true) : {}
    return Object.keys(annotated).length > 0 ? annotated : undefined
  }
  const items = inner(schema.items)
  if (items) field.items = items
  const values = inner(Object.values((schema.patternProperties ?? {}) as Record<string, unknown>)[0] ?? schema.additionalProperties)
  if (values) field.values = values
  const properties = Object.entries((schema.properties ?? {}) as Record<string, unknown>).flatMap(([name, property]) => {
    const annotated = inner(property)
    return annotated ? [[name, annotated] as const] : []
  })
  if (properties.length > 0) field.properties = Object.fromEntries(properties)
  return field
}
