import { API_PREFIX } from './catalogue.ts'
import type { OperationInfo } from './operation.ts'
import { describe } from './validate.ts'

type JsonSchema = Record<string, unknown>

/** The errors any operation may answer, beside what its own description says. */
const COMMON_ERRORS = [
  '`400 VALIDATION_ERROR`: a field is missing, unknown, of the wrong type or out of range; `details` lists each field.',
  '`400 INVALID_JSON`: the body is not a JSON object in UTF-8.',
  '`422 INVALID_INPUT`: the content cannot be processed; `details` says where (position, line, column, row or path).',
  '`422 LIMIT_EXCEEDED`: the content would exceed a processing limit (nesting, size of the output…).',
  '`503 TIMEOUT` / `503 OVERLOADED`: the work ran past its time budget, or the service sheds load; retry later.',
]

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

function fieldRow(name: string, schema: JsonSchema, required: boolean): string {
  const type = describe(schema)
  const value = 'default' in schema ? `\`${JSON.stringify(schema.default)}\`` : required ? 'required' : '(none)'
  const description = typeof schema.description === 'string' ? schema.description : ''
  const secret = schema.writeOnly === true ? ' A secret: never logged or echoed.' : ''
  return `| \`${name}\` | ${cell(type)} | ${cell(value)} | ${cell(description + secret)} |`
}

/**
 * An operation's documentation as Markdown: what it does, how it is called, its fields with their
 * types, defaults and bounds, its examples with their answers, and the errors it may give. The
 * same text on every surface that documents one operation (MCP's resources among them).
 */
export function operationDocument(operation: OperationInfo): string {
  const input = operation.input as JsonSchema & { properties: Record<string, JsonSchema>; required?: string[] }
  const required = new Set(input.required ?? [])
  const methods = operation.allowGet ? 'POST (JSON body) or GET (the fields as query parameters)' : 'POST (JSON body)'
  const lines = [
    `# ${operation.title} (\`${operation.name}\`)`,
    '',
    `${operation.summary}.`,
    '',
    operation.description,
    '',
    `Category: ${operation.category}. HTTP: ${methods} \`${API_PREFIX}/${operation.name}\`; MCP: \`run_operation\` with \`operation: "${operation.name}"\`; CLI: \`devutils ${operation.name}\`.`,
    '',
    '## Fields',
    '',
    '| field | type | default | description |',
    '| --- | --- | --- | --- |',
    ...Object.entries(input.properties).map(([name, schema]) => fieldRow(name, schema, required.has(name))),
    '',
    '## Examples',
    '',
  ]
  for (const example of operation.examples) {
    lines.push(`### ${example.summary}`, '', '```json', JSON.stringify(example.input), '```', '')
    if (example.output !== undefined) lines.push('Answers `data`:', '', '```json', JSON.stringify(example.output), '```', '')
    else lines.push('Answers random values of the shape its output schema gives.', '')
  }
  lines.push('## Errors', '', ...COMMON_ERRORS.map((error) => `- ${error}`), '')
  return lines.join('\n')
}
