import { DEFAULT_CONFIG } from './config.ts'
import { assertSafeValue } from './inspect.ts'
import type { AnyOperation } from './operation.ts'
import { runOperationInWorker } from './pool.ts'
import { validate } from './validate.ts'

export interface ExecuteOptions {
  /** How long heavy work (see `offload`) may take before it is stopped with 503 TIMEOUT. */
  timeBudgetMs?: number
}

/**
 * Runs one operation on a raw, untrusted input object: the one path every surface (HTTP, pipeline,
 * batch, MCP, CLI) goes through, so they all validate, default and fail the same way. Inputs the
 * operation calls heavy run on a worker thread within the time budget; the rest run in process.
 */
export async function execute(
  operation: AnyOperation,
  rawInput: unknown,
  { timeBudgetMs = DEFAULT_CONFIG.timeBudgetMs }: ExecuteOptions = {},
): Promise<Record<string, unknown>> {
  const input = validate<Record<string, unknown>>(operation.input, rawInput)
  if (!operation.checksEachCall) {
    const properties = operation.input.properties as Record<string, { writeOnly?: boolean }>
    for (const [field, value] of Object.entries(input)) {
      assertSafeValue(value, field, { checkText: !operation.allowLoneSurrogates, secret: properties[field]?.writeOnly === true })
    }
  }
  if (operation.offload?.(input)) return runOperationInWorker({ operation: operation.name, input }, timeBudgetMs)
  return (await operation.run(input, { timeBudgetMs })) as Record<string, unknown>
}
