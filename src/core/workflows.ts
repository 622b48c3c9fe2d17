import { Type } from 'typebox'
import { DEFAULT_CONFIG } from './config.ts'
import { DevutilsError, type ErrorDetails, errorBody, INTERNAL_ERROR_MESSAGE, isDevutilsError, validationError } from './errors.ts'
import { execute } from './execute.ts'
import { assertOutputWithinLimit } from './limits.ts'
import { type AnyOperation, defineOperation, type RunContext } from './operation.ts'
import type { Registry } from './registry.ts'

export const PIPELINE_MAX_STEPS = 20
export const BATCH_MAX_REQUESTS = 100

interface CallShape {
  operation: string
  [field: string]: unknown
}

/** Time left before `deadline`; none left is 503 TIMEOUT. */
function remaining(deadline: number, what: string): number {
  const left = deadline - performance.now()
  if (left <= 0) throw new DevutilsError('TIMEOUT', `${what} ran past its time budget; split the work or retry`)
  return left
}

/** What a step's call keeps of the workflow's own: who calls, and the budgets of untrusted code. */
function callerOf(context: RunContext | undefined): Pick<RunContext, 'client' | 'codeBudgets'> {
  return { client: context?.client, codeBudgets: context?.codeBudgets }
}

/** The size a value will take in the response, counted against the output limit as the steps pile up. */
function jsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0
}

/** The error of one step, naming the step; a validation error keeps its list of fields, a defect its cause. */
function stepError(error: unknown, step: number, operation: string): DevutilsError {
  if (!isDevutilsError(error)) return new DevutilsError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE, { step, operation }, { cause: error })
  const details: ErrorDetails = Array.isArray(error.details) ? { step, operation, fields: error.details } : { step, operation, ...error.details }
  return new DevutilsError(error.code, `Step ${step} (${operation}): ${error.message}`, details)
}

/**
 * The workflows over a registry: the pipeline and the batch run its operations, by name, each
 * loaded with its first call. The registry is passed in, so that this module knows no operation of
 * its own. Their types keep their schemas, which the typed client reads.
 */
export function createWorkflows(registry: Registry) {
  const operationNames = registry.operations.map((operation) => operation.name)

  /**
   * `{ operation, …fields }`: one call, as a pipeline step or a batch request. The operation's name is
   * checked when the call runs, so that an unknown one fails only its own call and is named.
   */
  const Call = (description: string) =>
    Type.Unsafe<CallShape>(
      Type.Object(
        { operation: Type.String({ maxLength: 64, description: `The operation to run, by its name (the URL segment): one of ${operationNames.join(', ')}.` }) },
        { additionalProperties: true, description },
      ),
    )

  async function splitCall(call: CallShape, field: string): Promise<{ operation: AnyOperation; fields: Record<string, unknown> }> {
    const { operation: name, ...fields } = call
    const operation = registry.operation(name)
    if (!operation) throw validationError(`${field}.operation`, `must be one of: ${operationNames.join(', ')}`)
    return { operation: await operation, fields }
  }

  const pipeline = defineOperation({
    name: 'pipeline',
    category: 'workflows',
    summary: 'Run operations in sequence, each result becoming the next input',
    title: 'Pipeline',
    aliases: ['recipe', 'chain', 'sequence', 'steps', 'several operations', 'one after another', 'then'],
    description:
      `Runs up to ${PIPELINE_MAX_STEPS} steps in order, like a CyberChef recipe: the pipeline's \`input\` goes to the first step, and each step's \`result\` becomes the next step's \`input\`. ` +
      'A step is `{ "operation": name, …fields }` with the same fields as that operation, except `input`, which the pipeline supplies. ' +
      'A step whose operation takes no `input` (a generator such as uuid) starts afresh and ignores the previous result. ' +
      'An error stops the pipeline and names the failing step in `details.step` (counted from 0). One time budget covers the whole pipeline.',
    input: Type.Object(
      {
        input: Type.Optional(Type.Unknown({ description: "The first step's input, usually a string. Omit it when the first step takes no input." })),
        steps: Type.Array(Call('One step: the operation and its fields, without `input`.'), {
          minItems: 1,
          maxItems: PIPELINE_MAX_STEPS,
          description: `The steps, 1 to ${PIPELINE_MAX_STEPS}, run in order.`,
        }),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      result: Type.Unknown({ description: "The last step's result." }),
      steps: Type.Array(Type.Object({}, { additionalProperties: true }), { description: "Each step's `data`, in order." }),
    }),
    checksEachCall: true,
    examples: [
      {
        summary: 'ROT13, then Base64',
        input: { input: 'hello', steps: [{ operation: 'rot13' }, { operation: 'base64' }] },
        output: {
          result: 'dXJ5eWI=',
          steps: [
            { result: 'uryyb', action: 'encode' },
            { result: 'dXJ5eWI=', action: 'encode' },
          ],
        },
      },
      {
        summary: 'Decode Base64, then hash it',
        input: {
          input: 'aGVsbG8=',
          steps: [
            { operation: 'base64', action: 'decode' },
            { operation: 'hash', algorithm: 'md5' },
          ],
        },
        output: {
          result: '5d41402abc4b2a76b9719d911017c592',
          steps: [
            { result: 'hello', action: 'decode' },
            { result: '5d41402abc4b2a76b9719d911017c592', algorithm: 'md5', encoding: 'hex', bits: 128 },
          ],
        },
      },
    ],
    async run({ input, steps }, context?: RunContext) {
      const deadline = performance.now() + (context?.timeBudgetMs ?? DEFAULT_CONFIG.timeBudgetMs)
      let current = input
      let outputLength = 0
      const results: Array<Record<string, unknown>> = []
      for (const [index, step] of steps.entries()) {
        let data: Record<string, unknown>
        let name = step.operation
        try {
          const { operation, fields } = await splitCall(step, `steps[${index}]`)
          name = operation.name
          if ('input' in fields)
            throw validationError(`steps[${index}].input`, "is supplied by the pipeline; put the first input in the pipeline's own input field")
          const takesInput = 'input' in (operation.input.properties as object)
          const stepInput = takesInput && current !== undefined ? { ...fields, input: current } : fields
          data = await execute(operation, stepInput, { ...callerOf(context), timeBudgetMs: remaining(deadline, 'The pipeline') })
        } catch (error) {
          throw stepError(error, index, name)
        }
        outputLength += jsonLength(data)
        assertOutputWithinLimit(outputLength)
        results.push(data)
        current = data.result
      }
      return { result: current, steps: results }
    },
  })

  const batch = defineOperation({
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
        requests: Type.Array(Call('One request: the operation and its fields.'), {
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
    async run({ requests }, context?: RunContext) {
      const deadline = performance.now() + (context?.timeBudgetMs ?? DEFAULT_CONFIG.timeBudgetMs)
      let outputLength = 0
      const results = []
      for (const [index, request] of requests.entries()) {
        const started = performance.now()
        let entry: BatchEntry
        try {
          const { operation, fields } = await splitCall(request, `requests[${index}]`)
          const data = await execute(operation, fields, { ...callerOf(context), timeBudgetMs: remaining(deadline, 'The batch') })
          entry = { success: true, data, meta: { processingTime: elapsed(started) } }
        } catch (error) {
          const failure = isDevutilsError(error) ? error : new DevutilsError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE, undefined, { cause: error })
          if (failure.code === 'INTERNAL_ERROR') context?.reportDefect?.(failure)
          entry = { success: false, error: errorBody(failure), meta: { processingTime: elapsed(started) } }
        }
        outputLength += jsonLength(entry)
        assertOutputWithinLimit(outputLength)
        results.push(entry)
      }
      return { results }
    },
  })

  return { pipeline, batch }
}

/** One answer of a batch: the envelope the same request would get on its own, less its request id. */
type BatchEntry =
  | { success: true; data: object; meta: { processingTime: number } }
  | { success: false; error: ReturnType<typeof errorBody>; meta: { processingTime: number } }

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000
}
