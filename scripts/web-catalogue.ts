import { type AnyOperation, CATEGORIES } from '../src/core/operation.ts'
import { PIPELINE_MAX_STEPS } from '../src/core/workflows.ts'
import type { FieldSchema, WebCatalogue, WebOperation } from '../src/web/catalogue-types.ts'

interface ObjectSchema {
  properties?: Record<string, FieldSchema & { description?: string }>
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
    // A JSON round trip drops TypeBox's hidden markers and keeps only what JSON Schema says.
    fields: Object.entries(input.properties ?? {}).map(([name, schema]) => ({
      name,
      required: required.has(name),
      schema: JSON.parse(JSON.stringify(schema)),
    })),
    outputFields: Object.fromEntries(Object.entries(output.properties ?? {}).map(([name, schema]) => [name, schema.description ?? ''])),
    examples: operation.examples.map((example) => ({
      summary: example.summary,
      input: example.input as Record<string, unknown>,
      fixedOutput: example.output !== undefined,
    })),
    deliberatelySlow: operation.deliberatelySlow === true,
    verdictField: operation.verdict?.field,
  }
}
