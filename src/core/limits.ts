import { limitExceeded } from './errors.ts'

/** The largest `data` the service will build: 16 MiB. */
export const OUTPUT_LIMIT_BYTES = 16 * 1024 * 1024

/** Nesting deeper than this in structured input (JSON, YAML, CSV) is refused. */
export const MAX_NESTING_DEPTH = 100

/**
 * Refuses output that would exceed the limit; operations call it with a size they can predict
 * (or bound) before they build the output, so the memory is never spent.
 */
export function assertOutputWithinLimit(predictedLength: number, limit = OUTPUT_LIMIT_BYTES): void {
  if (predictedLength > limit) {
    throw limitExceeded(`The result would be about ${predictedLength} bytes, more than the ${limit}-byte output limit`, {
      limit,
      predicted: predictedLength,
    })
  }
}
