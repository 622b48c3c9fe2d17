import { Type } from 'typebox'
import { DEFAULT_CONFIG } from './config.ts'
import { DevutilsError, validationError } from './errors.ts'
import type { AnyOperation, RunContext } from './operation.ts'
import type { Registry } from './registry.ts'

/** One call, as a pipeline step or a batch request: the operation's name and its fields. */
export interface CallShape {
  operation: string
  [field: string]: unknown
}

function operationNames(registry: Registry): string {
  return registry.operations.map((operation) => operation.name).join(', ')
}

/**
 * `{ operation, …fields }`: the schema of one call. The operation's name is checked when the call
 * runs, so that an unknown one fails only its own call and is named.
 */
export function callSchema(registry: Registry, description: string) {
  return Type.Unsafe<CallShape>(
    Type.Object(
      { operation: Type.String({ maxLength: 64, description: `The operation to run, by its name (the URL segment): one of ${operationNames(registry)}.` }) },
      { additionalProperties: true, description },
    ),
  )
}

/** The call's operation, loaded, and its fields; an unknown name is a validation error of `field`. */
export async function splitCall(registry: Registry, call: CallShape, field: string): Promise<{ operation: AnyOperation; fields: Record<string, unknown> }> {
  const { operation: name, ...fields } = call
  const operation = registry.operation(name)
  if (!operation) throw validationError(`${field}.operation`, `must be one of: ${operationNames(registry)}`)
  return { operation: await operation, fields }
}

/** When a workflow's one time budget, covering all its calls, runs out. */
export function deadlineOf(context: RunContext | undefined): number {
  return performance.now() + (context?.timeBudgetMs ?? DEFAULT_CONFIG.timeBudgetMs)
}

/** Time left before `deadline`; none left is 503 TIMEOUT. */
export function remaining(deadline: number, what: string): number {
  const left = deadline - performance.now()
  if (left <= 0) throw new DevutilsError('TIMEOUT', `${what} ran past its time budget; split the work or retry`)
  return left
}

/** What a call keeps of the workflow's own context: who calls, and the budgets of untrusted code. */
export function callerOf(context: RunContext | undefined): Pick<RunContext, 'client' | 'codeBudgets'> {
  return { client: context?.client, codeBudgets: context?.codeBudgets }
}

/** The size a value will take in the response, counted against the output limit as the calls pile up. */
export function jsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0
}
