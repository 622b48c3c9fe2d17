import { invalidInput } from '../../core/errors.ts'

/** ECMAScript's time range: ±100,000,000 days around 1970, in milliseconds. */
export const MAX_INSTANT = 8.64e15

export function outOfRange(what: string) {
  return invalidInput(`${what} is outside the range of dates that can be converted: ±8.64e15 milliseconds around 1970 (-271821-04-20 to +275760-09-13)`, {
    min: -MAX_INSTANT,
    max: MAX_INSTANT,
  })
}
