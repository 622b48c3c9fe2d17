import { Type } from 'typebox'
import { processingTimeSince } from './envelope.ts'
import { DevutilsError, errorBody, INTERNAL_ERROR_MESSAGE, isDevutilsError } from './errors.ts'
import { execute } from './execute.ts'
import { assertOutputWithinLimit } from './limits.ts'
import { defineOperation, type RunContext } from './operation.ts'
import type { Registry } from './registry.ts'
import { type CallShape, callerOf, callSchema, deadlineOf, jsonLength, remaining, splitCall } from './workflow-call.ts'

export const BATCH_MAX_REQUESTS = 100

/** The batch over a registry: independent requests to its operations, one envelope each. */
export function defineBatch(registry: Registry) {
  return defineOperation({
    name: 'batch',
    category: 'workflows',
    summary: 'Run up to 100 independent operations in one request',
    title: 'Batch',
    aliases: ['bulk', 'many requests', 'several requests', 'at once', 'independent'],
    description:
      `Runs 1 to ${BATCH_MAX_REQUESTS} independent requests, each \`{ "operation": name, …fields }\` with that operation's fields, and answers one envelope per request, in order. ` +
      "One request's failure does not fail the others: its envelope has `success: false` and the same error the operation would give on its own. " +
      'One time budget covers the whole batch; requests not started within it answer 503 TIMEOUT.',
    input: Type.Object(
      {
        requests: Type.Array(callSchema(registry, 'One request: the operation and its fields.'), {
          minItems: 1,
          maxItems: BATCH_MAX_REQUESTS,
          description: `The requests, 1 to ${BATCH_MAX_REQUESTS}.`,
        }),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      results: Type.Array(
        Type.Object({
          success: Type.Boolean(),
          data: Type.Optional(Type.Object({}, { additionalProperties: true })),
          error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String(), details: Type.Optional(Type.Unknown()) })),
          meta: Type.Object({ processingTime: Type.Number() }),
        }),
        { description: 'One envelope per request, in order: `data` on success, `error` on failure, and its own processingTime.' },
      ),
    }),
    checksEachCall: true,
    examples: [
      {
        summary: 'Two requests, one of which fails',
        input: {
          requests: [
            { operation: 'base64', input: 'hi' },
            { operation: 'base-convert', input: '12', fromBase: 2 },
          ],
        },
      },
      {
        summary: 'Encode the same text three ways',
        input: {
          requests: [
            { operation: 'base64', input: 'hi' },
            { operation: 'hex-text', input: 'hi' },
            { operation: 'url', input: 'h i' },
          ],
        },
      },
    ],
    run: ({ requests }, context?: RunContext) => runBatch(registry, requests, context),
  })
}

/** One answer of a batch: the envelope the same request would get on its own, less its request id. */
type BatchEntry =
  | { success: true; data: object; meta: { processingTime: number } }
  | { success: false; error: ReturnType<typeof errorBody>; meta: { processingTime: number } }

async function runBatch(registry: Registry, requests: CallShape[], context: RunContext | undefined) {
  const deadline = deadlineOf(context)
  let outputLength = 0
  const results: BatchEntry[] = []
  for (const [index, request] of requests.entries()) {
    const entry = await runRequest(registry, request, { index, deadline, context })
    outputLength += jsonLength(entry)
    assertOutputWithinLimit(outputLength)
    results.push(entry)
  }
  return { results }
}

/** One request's envelope: its failure, a defect reported as such, is its own and stops nothing. */
async function runRequest(
  registry: Registry,
  request: CallShape,
  { index, deadline, context }: { index: number; deadline: number; context: RunContext | undefined },
): Promise<BatchEntry> {
  const started = performance.now()
  try {
    const { operation, fields } = await splitCall(registry, request, `requests[${index}]`)
    const data = await execute(operation, fields, { ...callerOf(context), timeBudgetMs: remaining(deadline, 'The batch') })
    return { success: true, data, meta: { processingTime: processingTimeSince(started) } }
  } catch (error) {
    const failure = isDevutilsError(error) ? error : new DevutilsError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE, undefined, { cause: error })
    if (failure.code === 'INTERNAL_ERROR') context?.reportDefect?.(failure)
    return { success: false, error: errorBody(failure), meta: { processingTime: processingTimeSince(started) } }
  }
}
