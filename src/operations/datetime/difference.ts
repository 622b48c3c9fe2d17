import type { Temporal } from 'temporal-polyfill'
import { validationError } from '../../core/errors.ts'
import { humanDuration, NS_PER, ratio } from './duration.ts'
import { type Value, zonedValue } from './read.ts'
import { type Fields, SMALLEST_UNITS } from './schema.ts'
import { tzdata } from './write.ts'

type Unit = Exclude<(typeof SMALLEST_UNITS)[number], 'auto'>
/** Units from the largest to the smallest, to compare them. */
const UNIT_ORDER: readonly Unit[] = SMALLEST_UNITS.filter((unit): unit is Unit => unit !== 'auto')
const TIME_UNITS = new Set<Unit>(['hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'])

const unitIndex = (unit: Unit) => UNIT_ORDER.indexOf(unit)

/** difference: the duration from input to end, in words too, and its totals computed exactly from nanoseconds. */
export function difference(start: Value, end: Value, fields: Fields, timezone: string) {
  const { largestUnit: largest, smallestUnit: smallest, roundingMode } = fields
  const plain = start.kind === 'date' && end.kind === 'date' && !TIME_UNITS.has(largest as Unit) && !TIME_UNITS.has(smallest as Unit)
  const offsetsOnly =
    start.kind === 'zoned' && end.kind === 'zoned' && start.form !== 'zone' && start.form !== 'wall' && end.form !== 'zone' && end.form !== 'wall'
  const largestUnit: Unit = largest !== 'auto' ? largest : offsetsOnly ? 'hours' : 'years'
  const smallestUnit: Unit = smallest !== 'auto' ? smallest : plain ? 'days' : 'milliseconds'
  if (unitIndex(smallestUnit) < unitIndex(largestUnit)) {
    if (largest === 'auto')
      throw validationError('smallestUnit', `${smallestUnit} is larger than the automatic largestUnit (${largestUnit}); give largestUnit too`)
    throw validationError('smallestUnit', `must not be larger than largestUnit (${largestUnit})`)
  }
  let duration: Temporal.Duration
  let days: number
  let nanoseconds: bigint
  let zone: string | undefined
  if (plain && start.kind === 'date' && end.kind === 'date') {
    duration = start.date.until(end.date, { largestUnit: largestUnit as 'years', smallestUnit: smallestUnit as 'days', roundingMode })
    const whole = start.date.until(end.date, { largestUnit: 'days' }).days
    days = whole
    nanoseconds = BigInt(whole) * 86_400_000_000_000n
  } else {
    const from = zonedValue(start, timezone).zoned
    const to = zonedValue(end, timezone).zoned.withTimeZone(from.timeZoneId)
    zone = from.timeZoneId
    duration = from.until(to, { largestUnit, smallestUnit, roundingMode })
    nanoseconds = to.epochNanoseconds - from.epochNanoseconds
    const whole = from.until(to, { largestUnit: 'days', smallestUnit: 'days', roundingMode: 'trunc' }).days
    const dayStart = from.add({ days: whole })
    const rest = to.epochNanoseconds - dayStart.epochNanoseconds
    if (rest === 0n) days = whole
    else {
      const length = from.add({ days: whole + (rest < 0n ? -1 : 1) }).epochNanoseconds - dayStart.epochNanoseconds
      const magnitude = length < 0n ? -length : length
      days = ratio(BigInt(whole) * magnitude + rest, magnitude)
    }
  }
  return {
    result: duration.toString(),
    action: 'difference' as const,
    human: humanDuration(duration, plain ? 'days' : 'seconds'),
    sign: duration.sign,
    totals: {
      days,
      hours: ratio(nanoseconds, NS_PER.hours),
      minutes: ratio(nanoseconds, NS_PER.minutes),
      seconds: ratio(nanoseconds, NS_PER.seconds),
      milliseconds: ratio(nanoseconds, NS_PER.milliseconds),
    },
    ...(zone === undefined ? {} : tzdata(zone)),
  }
}
