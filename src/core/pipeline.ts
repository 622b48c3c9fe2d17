import { Type } from 'typebox'
import { DevutilsError, type ErrorDetails, INTERNAL_ERROR_MESSAGE, isDevutilsError, validationError } from './errors.ts'
import { execute } from './execute.ts'
import { assertOutputWithinLimit } from './limits.ts'
import { defineOperation, type RunContext } from './operation.ts'
import type { Registry } from './registry.ts'
import { type CallShape, callerOf, callSchema, deadlineOf, jsonLength, remaining, splitCall } from './workflow-call.ts'

export const PIPELINE_MAX_STEPS = 20

/** The pipeline over a registry: its operations in sequence, each result becoming the next input. */
export function definePipeline(registry: Registry) {
  return defineOperation({
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
        steps: Type.Array(callSchema(registry, 'One step: the operation and its fields, without `input`.'), {
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
    run: ({ input, steps }, context?: RunContext) => runPipeline(registry, input, steps, context),
  })
}

async function runPipeline(registry: Registry, input: unknown, steps: CallShape[], context: RunContext | undefined) {
  const deadline = deadlineOf(context)
  let current = input
  let outputLength = 0
  const results: Array<Record<string, unknown>> = []
  for (const [index, step] of steps.entries()) {
    const data = await runStep(registry, step, { index, current, deadline, context })
    outputLength += jsonLength(data)
    assertOutputWithinLimit(outputLength)
    results.push(data)
    current = data.result
  }
  return { result: current, steps: results }
}

interface StepPlace {
  index: number
  /** The previous step's result, or the pipeline's input. */
  current: unknown
  deadline: number
  context: RunContext | undefined
}

/** One step on the previous result, which goes to its `input` when its operation takes one; any error names the step. */
async function runStep(registry: Registry, step: CallShape, { index, current, deadline, context }: StepPlace): Promise<Record<string, unknown>> {
  let name = step.operation
  try {
    const { operation, fields } = await splitCall(registry, step, `steps[${index}]`)
    name = operation.name
    if ('input' in fields) throw validationError(`steps[${index}].input`, "is supplied by the pipeline; put the first input in the pipeline's own input field")
    const takesInput = 'input' in (operation.input.properties as object)
    const stepInput = takesInput && current !== undefined ? { ...fields, input: current } : fields
    return await execute(operation, stepInput, { ...callerOf(context), timeBudgetMs: remaining(deadline, 'The pipeline') })
  } catch (error) {
    throw stepError(error, index, name)
  }
}

/** The error of one step, naming the step; a validation error keeps its list of fields, a defect its cause. */
function stepError(error: unknown, step: number, operation: string): DevutilsError {
  if (!isDevutilsError(error)) return new DevutilsError('INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE, { step, operation }, { cause: error })
  const details: ErrorDetails = Array.isArray(error.details) ? { step, operation, fields: error.details } : { step, operation, ...error.details }
  return new DevutilsError(error.code, `Step ${step} (${operation}): ${error.message}`, details)
}
