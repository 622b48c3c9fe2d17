import assert from 'node:assert/strict'
import { ERROR_STATUS } from '../src/core/errors.ts'
import type { AnyOperation } from '../src/core/operation.ts'
import type { Envelope, SocketResponse } from './helpers.ts'
import type { HostileInput } from './test-rows.ts'

// x509's own tests build certificates with these.
export { certificateWithNames, der } from './hostile-builders.ts'

type JsonSchema = Record<string, unknown>

/** Bodies that are not JSON, or JSON that would pollute a prototype: 400 INVALID_JSON for every operation. */
export const MALFORMED_BODIES: ReadonlyArray<string | Buffer> = [
  '{',
  '',
  '{"a":1}}',
  Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
]

/** JSON bodies that are not an object: 400 VALIDATION_ERROR for every operation. */
export const NOT_OBJECT_BODIES: readonly string[] = ['[]', '"text"', '1', 'null', 'true']

export const properties = (operation: AnyOperation) => operation.input.properties as Record<string, JsonSchema>
const required = (operation: AnyOperation) => (operation.input.required as string[] | undefined) ?? []

export const accepts = (schema: JsonSchema, type: string): boolean =>
  schema.type === type || (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((branch) => accepts(branch, type)))

/** A JSON object for a field that takes no object; undefined for fields that take any JSON value. */
function wrongValue(schema: JsonSchema): unknown {
  const takesAnything = !('type' in schema) && !('anyOf' in schema) && !('enum' in schema) && !('const' in schema)
  return takesAnything || accepts(schema, 'object') ? undefined : { nested: true }
}

/** Matches text that holds every one of `parts`, in any order. */
const holdsAll = (parts: string[]) => new RegExp(parts.map((part) => `(?=[\\s\\S]*${part})`).join(''))

/**
 * An operation's first example with one thing wrong at a time: an unknown field, many, each field
 * of the wrong type, each required field missing, each bound passed, a lone surrogate in the input.
 */
export function invalidFieldInputs(operation: AnyOperation): HostileInput[] {
  const valid = operation.examples[0].input as Record<string, unknown>
  const refused = (name: string, body: Record<string, unknown>, expected: Pick<HostileInput, 'field' | 'message'>): HostileInput => ({
    name,
    operation: operation.name,
    body,
    status: 400,
    code: 'VALIDATION_ERROR',
    ...expected,
  })
  const inputs: HostileInput[] = [refused('an unknown field', { ...valid, definitelyNotAField: 1 }, { message: /definitelyNotAField is not a known field/ })]
  // With many extra keys TypeBox reports them under another keyword, and stops at eight: those are named.
  const extras = Array.from({ length: 10 }, (_, index) => `extra${index}`)
  inputs.push(
    refused(
      'ten unknown fields',
      { ...valid, ...Object.fromEntries(extras.map((field, index) => [field, index])) },
      {
        message: holdsAll(extras.slice(0, 8).map((field) => `${field} is not a known field`)),
      },
    ),
  )
  for (const [field, schema] of Object.entries(properties(operation))) {
    const value = wrongValue(schema)
    if (value !== undefined) inputs.push(refused(`${field} of the wrong type`, { ...valid, [field]: value }, { field }))
  }
  for (const field of required(operation)) {
    const { [field]: _omitted, ...rest } = valid
    inputs.push(refused(`without ${field}`, rest, { message: new RegExp(`${field} is required`) }))
  }
  for (const [field, schema] of Object.entries(properties(operation))) {
    const bounded: Array<[string, unknown]> = []
    if (typeof schema.maximum === 'number') bounded.push(['above its maximum', schema.maximum + 1])
    if (typeof schema.minimum === 'number') bounded.push(['below its minimum', schema.minimum - 1])
    if (typeof schema.maxLength === 'number' && schema.maxLength <= 20_000) bounded.push(['too long', 'a'.repeat(schema.maxLength + 1)])
    if (typeof schema.maxItems === 'number') {
      const item = Array.isArray(valid[field]) ? (valid[field] as unknown[])[0] : 'x'
      bounded.push(['with too many items', Array.from({ length: schema.maxItems + 1 }, () => item)])
    }
    for (const [what, value] of bounded) inputs.push(refused(`${field} ${what}`, { ...valid, [field]: value }, { field }))
  }
  // An operation that allows lone surrogates (unicode inspects them) tests them itself.
  const input = properties(operation).input
  if (!operation.allowLoneSurrogates && input && accepts(input, 'string')) {
    inputs.push({
      name: 'a lone surrogate in the input',
      operation: operation.name,
      body: { ...valid, input: 'ab\udc00cd' },
      status: 422,
      code: 'INVALID_INPUT',
      message: /lone surrogate/,
    })
  }
  return inputs
}

/** Every answer, whatever was sent, is an envelope; an error one has a known code with its status. */
export function assertEnvelope(response: SocketResponse, context: string): Envelope {
  assert.ok(response.statusCode < 500 || response.statusCode === 503, `${context}: ${response.statusCode} ${response.body.slice(0, 300)}`)
  const body = response.json() as Envelope
  assert.equal(typeof body.meta?.requestId, 'string', context)
  assert.equal(typeof body.meta?.processingTime, 'number', context)
  if (response.statusCode === 200) {
    assert.equal(body.success, true, context)
  } else {
    assert.equal(body.success, false, context)
    const code = body.error!.code as keyof typeof ERROR_STATUS
    assert.equal(ERROR_STATUS[code], response.statusCode, `${context}: ${code} goes with ${ERROR_STATUS[code]}`)
    assert.ok(body.error!.message.length > 0, context)
  }
  return body
}

export function expectError(response: SocketResponse, status: number, code: string, context: string): Envelope {
  const body = assertEnvelope(response, context)
  assert.equal(response.statusCode, status, `${context}: ${response.body.slice(0, 300)}`)
  assert.equal(body.error!.code, code, context)
  return body
}

/** The fields a validation error names: its details, or a pipeline step's `details.fields`. */
function namedFields(details: unknown): Array<{ field: string }> {
  if (Array.isArray(details)) return details
  return (details as { fields?: Array<{ field: string }> } | undefined)?.fields ?? []
}

/** Asserts that `response` is the answer `input` must get: its status, and for an error its code, message and field. */
export function expectAnswer(response: SocketResponse, input: HostileInput, context = `${input.operation}: ${input.name}`): Envelope {
  if (input.code === '') {
    const body = assertEnvelope(response, context)
    assert.equal(response.statusCode, input.status, `${context}: ${response.body.slice(0, 300)}`)
    return body
  }
  const body = expectError(response, input.status, input.code, context)
  if (input.message) assert.match(body.error!.message, input.message, context)
  if (input.field) {
    const { field } = input
    const named = namedFields(body.error!.details).map((detail) => detail.field)
    assert.ok(
      named.some((name) => name === field || name.startsWith(`${field}[`)),
      `${context}: the details name ${field}: ${JSON.stringify(body.error!.details)}`,
    )
  }
  return body
}
