import { type DevutilsError, invalidInput } from '../../core/errors.ts'

/** Temporal's limits: what lies beyond them is refused with our message rather than the polyfill's. */
const RANGE_HINT = 'Temporal dates run from -271821-04-19 to +275760-09-13'

export function temporalRangeError(error: unknown): error is RangeError {
  return error instanceof RangeError
}

export function outOfRange(what: string): DevutilsError {
  return invalidInput(`${what} is beyond the range of dates: ${RANGE_HINT}`)
}

/** Runs date arithmetic, turning the polyfill's range errors into ours. */
export function safely<T>(work: () => T): T {
  try {
    return work()
  } catch (error) {
    if (temporalRangeError(error)) throw outOfRange('The result')
    throw error
  }
}
