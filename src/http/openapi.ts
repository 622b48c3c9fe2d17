import { type TObject, Type } from 'typebox'
import { ERROR_STATUS } from '../core/errors.ts'
import type { OperationInfo } from '../core/operation.ts'
import { CATEGORIES } from '../core/operation.ts'
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
  [431, 'HEADERS_TOO_LARGE: the request headers are larger than the server accepts.'],
  [415, 'UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json.'],
  [
    422,
    'INVALID_INPUT: the content cannot be processed; `details` says where. LIMIT_EXCEEDED: the content would exceed a processing limit, or (a pattern, program, schema or document whose cost the input alone decides) ran past its time budget while running, `details.reason` "timeout".',
  ],
  [429, 'RATE_LIMITED: too many requests from this client, or (regex, jq) too many of its calls in flight; see Retry-After.'],
  [500, 'INTERNAL_ERROR: a defect; the message never shows internals.'],
  [503, 'OVERLOADED or TIMEOUT: the service sheds load, or the work ran past its time budget; see Retry-After.'],
]

function errorResponses(responses = ERROR_RESPONSES) {
  return Object.fromEntries(responses.map(([status, description]) => [status, { description, $ref: `${ERROR_ENVELOPE_ID}#` }]))
}

/** Node's HTTP parser and Fastify refuse a malformed request or URL before any route runs. */
const MALFORMED_REQUEST: [number, string] = [400, 'BAD_REQUEST: the request is not well-formed HTTP, or its URL is malformed.']
const RATE_LIMITED = ERROR_RESPONSES.find(([status]) => status === 429)!

/**
 * The document's top level. The service has no authentication (`security: []` says so), and its
 * one server is wherever the document is served from, so the same document fits every instance.
 */
export function documentBase(version: string, license: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'devutils',
      version,
      description:
        'Developer utility operations (encoders, generators, converters) over HTTP and JSON. Every operation is `POST /api/v1/<name>` with a JSON body; ' +
        'every answer is an envelope: `{ success, data, meta }` or `{ success: false, error: { code, message, details }, meta }`. ' +
        'The service is open: no operation needs credentials.',
      license: { name: license, identifier: license },
      // Self-hosted: whoever runs an instance answers for it; there is no central operator.
      contact: { name: 'The operator of this instance' },
    },
    servers: [{ url: '/', description: 'The instance serving this document.' }],
    security: [],
    tags: [
      { name: 'encoders', description: 'Encode and decode text.' },
      { name: 'generators', description: 'Hashes, secrets, identifiers and placeholder data.' },
      { name: 'converters', description: 'Convert between representations.' },
      { name: 'workflows', description: 'Run several operations in one request: a pipeline of steps, or a batch of independent calls.' },
      { name: 'service', description: 'The catalogue, health, readiness and MCP.' },
    ] satisfies Array<{ name: (typeof CATEGORIES)[number] | 'workflows' | 'service'; description: string }>,
  }
}

/** The route schema of a GET of the service itself (catalogue, health, readiness). */
export function serviceRouteSchema({
  operationId,
  summary,
  description,
  data,
  unavailable,
  rateLimited,
}: {
  operationId: string
  summary: string
  description: string
  data: TObject
  /** What a 503 means here, where the route can answer one. */
  unavailable?: string
  rateLimited?: boolean
}) {
  const errors = [MALFORMED_REQUEST, ...(rateLimited ? [RATE_LIMITED] : []), ...(unavailable ? [[503, unavailable] as [number, string]] : [])]
  return {
    operationId,
    tags: ['service'],
    summary,
    description,
    response: { 200: { description: 'The answer.', content: { 'application/json': { schema: successEnvelopeSchema(data) } } }, ...errorResponses(errors) },
  }
}

export const HealthSchema = typeEnums(Type.Object({ status: Type.Literal('ok'), version: Type.String({ description: "The package's version." }) }))
export const ReadySchema = typeEnums(Type.Object({ ready: Type.Literal(true) }))
export const CatalogueSchema = typeEnums(
  Type.Object({
    operations: Type.Array(
      Type.Object({
        name: Type.String(),
        category: Type.Enum([...CATEGORIES]),
        path: Type.String(),
        methods: Type.Array(Type.Enum(['GET', 'POST'])),
        summary: Type.String(),
      }),
    ),
  }),
)

function exampleMap(operation: OperationInfo, pick: (example: OperationInfo['examples'][number]) => unknown) {
  return Object.fromEntries(
    operation.examples.filter((example) => pick(example) !== undefined).map((example) => [example.summary, { summary: example.summary, value: pick(example) }]),
  )
}

/** The route schema of an operation's POST: only read by the OpenAPI generator (validation is core's). */
export function postRouteSchema(operation: OperationInfo) {
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
export function getRouteSchema(operation: OperationInfo) {
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

type OpenApiParameter = { name: string; in: string; example?: unknown; examples?: Record<string, unknown> }
type OpenApiDocument = { paths?: Record<string, Record<string, { parameters?: OpenApiParameter[] }>> }

/** An example whose every field can be written in a query string (no arrays or objects). */
function fitsQueryString(input: Record<string, unknown>): boolean {
  return Object.values(input).every((value) => ['string', 'number', 'boolean'].includes(typeof value))
}

/**
 * The GET forms' query parameters carry the operation's examples, each under the example's name and
 * in the same order for every parameter: the example's own value, or the parameter's default where
 * the example leaves it out. A tool that takes the first named example of every parameter (as
 * Postman's converter does) thus builds the first documented request, and one that picks by name
 * builds the request of that name, never values of two examples at once. So a parameter that the
 * first example leaves out and that has no default gets no examples, and an example that sets other
 * parameters without a default than the first does is left to the POST form. The examples of the fields' own schemas are dropped there
 * for the same reason.
 */
export function withGetExamples<T>(document: T, operations: readonly OperationInfo[], prefix: string): T {
  const paths = (document as OpenApiDocument).paths ?? {}
  for (const operation of operations) {
    const parameters = paths[`${prefix}/${operation.name}`]?.get?.parameters
    if (!parameters) continue
    const properties = operation.input.properties as Record<string, { default?: unknown }>
    const fitting = operation.examples
      .map((example) => ({ summary: example.summary, input: example.input as Record<string, unknown> }))
      .filter((example) => fitsQueryString(example.input))
    // The fields without a default that an example sets: a by-name example must set the same as the first.
    const withoutDefault = (input: Record<string, unknown>) =>
      Object.keys(properties)
        .filter((field) => properties[field].default === undefined && Object.hasOwn(input, field))
        .join()
    const first = fitting[0]?.input ?? {}
    const unoffered = new Set(Object.keys(properties).filter((field) => !Object.hasOwn(first, field) && properties[field].default === undefined))
    const examples = fitting.filter((example) => withoutDefault(example.input) === withoutDefault(first))
    for (const parameter of parameters) {
      delete parameter.example
      delete parameter.examples
      if (unoffered.has(parameter.name) || examples.length === 0) continue
      const valueIn = (input: Record<string, unknown>) => (Object.hasOwn(input, parameter.name) ? input[parameter.name] : properties[parameter.name]?.default)
      parameter.examples = Object.fromEntries(examples.map((example) => [example.summary, { summary: example.summary, value: valueIn(example.input) }]))
    }
  }
  return document
}
