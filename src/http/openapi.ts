import { type TObject, Type } from 'typebox'
import { ERROR_STATUS } from '../core/errors.ts'
import type { AnyOperation } from '../core/operation.ts'
import { typeEnums } from '../core/schema-types.ts'

export const ERROR_ENVELOPE_ID = 'ErrorEnvelope'

const MetaSchema = Type.Object({
  processingTime: Type.Number({ description: 'Milliseconds spent handling the request in the service (up to 3 decimals).' }),
  requestId: Type.String({ description: 'The request id, also sent as the X-Request-Id header.' }),
})

export const ErrorEnvelopeSchema = typeEnums(
  Type.Object(
    {
      success: Type.Literal(false),
      error: Type.Object({
        code: Type.Enum(Object.keys(ERROR_STATUS), { description: 'A stable, machine-readable code.' }),
        message: Type.String({ description: 'One plain sentence: what was wrong and, where it helps, what is allowed.' }),
        details: Type.Optional(Type.Unknown({ description: 'Where the problem lies: a list of bad fields, or a position, line, row or path.' })),
      }),
      meta: MetaSchema,
    },
    { $id: ERROR_ENVELOPE_ID, description: 'Every error leaves the service in this envelope.' },
  ),
)

export function successEnvelopeSchema(output: TObject) {
  return Type.Object({ success: Type.Literal(true), data: output, meta: MetaSchema })
}

const ERROR_RESPONSES: Array<[status: number, description: string]> = [
  [
    400,
    'INVALID_JSON: the body is not JSON, not UTF-8, is empty or holds a prototype key. VALIDATION_ERROR: a field is missing, unknown, of the wrong type or out of range; `details` lists each field.',
  ],
  [413, 'PAYLOAD_TOO_LARGE: the body exceeds the body limit; `details.limit` gives it in bytes.'],
  [415, 'UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json.'],
  [422, 'INVALID_INPUT: the content cannot be processed; `details` says where. LIMIT_EXCEEDED: the content would exceed a processing limit.'],
  [429, 'RATE_LIMITED: too many requests from this client; see Retry-After.'],
  [500, 'INTERNAL_ERROR: a defect; the message never shows internals.'],
  [503, 'OVERLOADED or TIMEOUT: the service sheds load, or the work ran past its time budget; see Retry-After.'],
]

function errorResponses() {
  return Object.fromEntries(ERROR_RESPONSES.map(([status, description]) => [status, { description, $ref: `${ERROR_ENVELOPE_ID}#` }]))
}

function exampleMap(operation: AnyOperation, pick: (example: AnyOperation['examples'][number]) => unknown) {
  return Object.fromEntries(
    operation.examples.filter((example) => pick(example) !== undefined).map((example) => [example.summary, { summary: example.summary, value: pick(example) }]),
  )
}

/** The route schema of an operation's POST: only read by the OpenAPI generator (validation is core's). */
export function postRouteSchema(operation: AnyOperation) {
  return {
    operationId: operation.name,
    tags: [operation.category],
    summary: operation.summary,
    description: operation.description,
    body: { ...operation.input, 'x-examples': exampleMap(operation, (example) => example.input) },
    response: {
      200: {
        description: 'The operation succeeded.',
        content: {
          'application/json': {
            schema: successEnvelopeSchema(operation.output),
            examples: exampleMap(operation, (example) =>
              example.output === undefined
                ? undefined
                : { success: true, data: example.output, meta: { processingTime: 0.042, requestId: '3f1c9a2e-5b7d-4e8a-9c0f-1a2b3c4d5e6f' } },
            ),
          },
        },
      },
      ...errorResponses(),
    },
  }
}

/** The route schema of an operation's GET form: the same fields as query parameters. */
export function getRouteSchema(operation: AnyOperation) {
  const { response } = postRouteSchema(operation)
  return {
    operationId: `${operation.name}-get`,
    tags: [operation.category],
    summary: `${operation.summary} (query-string form)`,
    description: `${operation.description}\n\nThe same fields as the POST body, as query parameters; numbers and booleans are read from their text. Responses carry Cache-Control: no-store.`,
    querystring: operation.input,
    response,
  }
}
