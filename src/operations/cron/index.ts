import { Type } from 'typebox'
import { invalidInput } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { DAY, daysFromCivil, daysInMonth, HOUR, MINUTE, SECOND, wallTime, weekdayOf } from '../../lib/time/calendar.ts'
import { formatOffset, pad } from '../../lib/time/format.ts'
import { nextTransition, offsetAt, type Zone, zoneNamed } from '../../lib/time/zones.ts'

/** Runs are searched up to the end of this year; the impossible schedules are refused before any search. */
const LAST_YEAR = 9999

const FIELD_NAMES = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const
type FieldName = (typeof FIELD_NAMES)[number]

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC']
const WEEKDAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT']
const MONTH_WORDS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const WEEKDAY_WORDS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

interface FieldSpec {
  min: number
  max: number
  /** Three-letter names, for the value min + index. */
  names?: string[]
  /** What a value is called in messages and descriptions. */
  unit: string
}

const SPECS: Record<FieldName, FieldSpec> = {
  second: { min: 0, max: 59, unit: 'second' },
  minute: { min: 0, max: 59, unit: 'minute' },
  hour: { min: 0, max: 23, unit: 'hour' },
  dayOfMonth: { min: 1, max: 31, unit: 'day' },
  month: { min: 1, max: 12, names: MONTH_NAMES, unit: 'month' },
  // 7 is Sunday too, as in most crons.
  dayOfWeek: { min: 0, max: 7, names: WEEKDAY_NAMES, unit: 'weekday' },
}

/** The five macros of Vixie cron that name a time (`@reboot` names none). */
const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
}

// ---- Parsing ----

/** One comma-separated item of a field: `*`, a value or a range, with an optional step. */
interface Item {
  star: boolean
  start: number
  end: number
  step: number
  /** Written as a single value (no range, no step). */
  single: boolean
}

interface Field {
  items: Item[]
  values: number[]
  /** Begins with `*` (or `?`): what Vixie cron calls a star field, for the day rule and for DST. */
  star: boolean
}

export interface Schedule {
  fields: Record<FieldName, Field>
  hasSeconds: boolean
}

const at = (position: number, message: string) => invalidInput(`${message} (at position ${position})`, { position })

function parseNumber(text: string, position: number, spec: FieldSpec, name: FieldName): number {
  const upper = text.toUpperCase()
  const named = spec.names?.indexOf(upper) ?? -1
  let value: number
  if (named >= 0) value = named + (name === 'month' ? 1 : 0)
  else if (/^[0-9]{1,2}$/.test(text)) value = Number(text)
  else if (/^[LW#]|[LW#]$/i.test(text) || text.includes('#')) {
    throw at(position, `'${text}' uses L, W or #, extensions of Quartz and some crons that standard cron does not have`)
  } else {
    const allowed = spec.names ? `a number or a name (${spec.names[0]}–${spec.names[spec.names.length - 1]})` : 'a number'
    throw at(position, `'${text}' is not a valid ${spec.unit}: expected ${allowed}`)
  }
  if (value < spec.min || value > spec.max) throw at(position, `${spec.unit} ${value} is out of range ${spec.min}–${spec.max}`)
  return value
}

function parseItem(text: string, position: number, name: FieldName): Item {
  const spec = SPECS[name]
  if (text === '') throw at(position, `an empty ${spec.unit} list item`)
  const [rangeText, stepText, extra] = text.split('/')
  if (extra !== undefined) throw at(position + rangeText.length + stepText.length + 1, `a ${spec.unit} item may have only one '/'`)
  let step = 1
  if (stepText !== undefined) {
    const stepAt = position + rangeText.length + 1
    if (!/^[0-9]{1,2}$/.test(stepText)) throw at(stepAt, `the step '${stepText}' is not a number of 1 or 2 digits`)
    step = Number(stepText)
    if (step === 0) throw at(stepAt, 'a step of 0 never advances')
  }
  if (rangeText === '*' || (rangeText === '?' && (name === 'dayOfMonth' || name === 'dayOfWeek'))) {
    return { star: true, start: spec.min, end: name === 'dayOfWeek' ? 6 : spec.max, step, single: false }
  }
  const dash = rangeText.indexOf('-')
  if (dash < 0) {
    const start = parseNumber(rangeText, position, spec, name)
    // `5/15` counts from 5 to the end of the range, as most crons read it.
    return stepText === undefined ? { star: false, start, end: start, step, single: true } : { star: false, start, end: spec.max, step, single: false }
  }
  const start = parseNumber(rangeText.slice(0, dash), position, spec, name)
  const end = parseNumber(rangeText.slice(dash + 1), position + dash + 1, spec, name)
  if (start > end) {
    throw at(position, `the range ${rangeText} runs backwards; write a wrap-around as two ranges (${spec.min === 0 ? '22-23,0-2' : 'NOV-DEC,JAN-FEB'})`)
  }
  return { star: false, start, end, step, single: false }
}

function parseField(text: string, position: number, name: FieldName): Field {
  const items: Item[] = []
  let offset = 0
  for (const part of text.split(',')) {
    items.push(parseItem(part, position + offset, name))
    offset += part.length + 1
  }
  const values = new Set<number>()
  for (const item of items) for (let value = item.start; value <= item.end; value += item.step) values.add(name === 'dayOfWeek' && value === 7 ? 0 : value)
  return { items, values: [...values].sort((a, b) => a - b), star: text.startsWith('*') || text.startsWith('?') }
}

/** Reads a cron expression: 5 fields, 6 with seconds first, or a macro. Every refusal gives its position. */
export function parseCron(text: string): Schedule {
  const trimmed = text.trim()
  if (trimmed.startsWith('@')) {
    const expansion = MACROS[trimmed.toLowerCase()]
    if (expansion !== undefined) return parseCron(expansion)
    const position = text.indexOf('@')
    if (trimmed.toLowerCase() === '@reboot') throw at(position, '@reboot runs when the machine starts, not at a time, so it has no next run')
    throw at(position, `unknown macro '${trimmed}'; the macros are ${Object.keys(MACROS).join(', ')}`)
  }
  const parts = [...text.matchAll(/\S+/g)]
  if (parts.length !== 5 && parts.length !== 6) {
    throw invalidInput(`A cron expression has 5 fields (minute hour day-of-month month day-of-week) or 6 with seconds first; this one has ${parts.length}`, {
      fields: parts.length,
    })
  }
  const hasSeconds = parts.length === 6
  const texts: Array<[text: string, position: number]> = parts.map((part) => [part[0], part.index])
  // A 5-field expression runs at second 0; that field has no place in the text, so no error can point at it.
  if (!hasSeconds) texts.unshift(['0', 0])
  const fields = Object.fromEntries(FIELD_NAMES.map((name, index) => [name, parseField(texts[index][0], texts[index][1], name)])) as Record<FieldName, Field>
  assertPossible(fields)
  return { fields, hasSeconds }
}

/**
 * A schedule whose days of the month exist in none of its months (30 February, 31 April) never
 * runs: refused here rather than searched for. With a weekday restriction too, a day matching
 * either runs, so such a schedule always runs.
 */
function assertPossible({ dayOfMonth, dayOfWeek, month }: Record<FieldName, Field>): void {
  if (dayOfMonth.star || !dayOfWeek.star) return
  const possible = month.values.some((m) => dayOfMonth.values[0] <= daysInMonth(2000, m))
  if (!possible) {
    const days = dayOfMonth.values.length === 1 ? `day ${dayOfMonth.values[0]}` : `day ${joinOr(dayOfMonth.values.map(String))}`
    const months = month.values.map((m) => MONTH_WORDS[m - 1])
    const subject = months.length === 1 ? `${months[0]} has no` : `none of ${joinAnd(months)} has a`
    throw invalidInput(`This schedule never runs: ${subject} ${days}`, { field: 'dayOfMonth' })
  }
}

// ---- Describing ----

const joinOr = (words: string[]) => `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`
const joinAnd = (words: string[]) => (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`)
const plural = (count: number, word: string) => (count === 1 ? word : `${word}s`)
const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`

function valueWord(name: FieldName, value: number): string {
  if (name === 'month') return MONTH_WORDS[value - 1]
  if (name === 'dayOfWeek') return WEEKDAY_WORDS[value % 7]
  return String(value)
}

/** An item in words: `5`, `5 through 10`, `every 2nd from 5 through 10`. */
function itemWords(name: FieldName, item: Item): string {
  const range = item.start === item.end ? valueWord(name, item.start) : `${valueWord(name, item.start)} through ${valueWord(name, item.end)}`
  if (item.step === 1) return range
  return item.star ? `every ${ordinal(item.step)}` : `every ${ordinal(item.step)} from ${range}`
}

/** A field of several items or values, e.g. `minutes 0, 15 and 30`, `days 1 through 7 and 15`. */
function listWords(name: FieldName, field: Field): string {
  const unit = SPECS[name].unit
  const isPlural = field.items.length > 1 || !field.items[0].single
  const words = joinAnd(field.items.map((item) => itemWords(name, item)))
  return name === 'month' || name === 'dayOfWeek' ? words : `${plural(isPlural ? 2 : 1, unit)} ${words}`
}

const onlyStar = (field: Field) => field.items.length === 1 && field.items[0].star
const singles = (field: Field) => field.items.every((item) => item.single)

function timeWords({ fields, hasSeconds }: Schedule): string {
  const { second, minute, hour } = fields
  const showSeconds = hasSeconds && !(singles(second) && second.values.length === 1 && second.values[0] === 0)
  if (singles(minute) && singles(hour) && minute.values.length === 1 && (!showSeconds || (singles(second) && second.values.length === 1))) {
    const suffix = showSeconds ? `:${pad(second.values[0])}` : ''
    return `At ${joinAnd(hour.values.map((h) => `${pad(h)}:${pad(minute.values[0])}${suffix}`))}`
  }
  const parts: string[] = []
  if (showSeconds) parts.push(unitWords('second', second))
  const everySecond = showSeconds && onlyStar(second)
  // "every 20 seconds" already says every minute; "at second 30" does not.
  if (!(everySecond && onlyStar(minute) && minute.items[0].step === 1)) parts.push(unitWords('minute', minute))
  if (!onlyStar(hour) || hour.items[0].step !== 1) parts.push(hourWords(hour))
  else if (!onlyStar(minute)) parts[parts.length - 1] += ' past every hour'
  const text = parts.join(', ')
  return text[0].toUpperCase() + text.slice(1)
}

function unitWords(name: 'second' | 'minute', field: Field): string {
  const unit = SPECS[name].unit
  if (onlyStar(field)) return field.items[0].step === 1 ? `every ${unit}` : `every ${field.items[0].step} ${unit}s`
  if (field.items.length === 1 && !field.items[0].single) {
    const { start, end, step } = field.items[0]
    return `every ${step === 1 ? unit : `${step} ${unit}s`} from ${unit} ${start} through ${end}`
  }
  return `at ${listWords(name, field)}`
}

function hourWords(hour: Field): string {
  if (onlyStar(hour)) return `every ${hour.items[0].step} hours`
  if (hour.items.length === 1 && !hour.items[0].single && hour.items[0].step === 1)
    return `between ${pad(hour.items[0].start)}:00 and ${pad(hour.items[0].end)}:59`
  return `during ${listWords('hour', hour)}`
}

function dayWords({ dayOfMonth, dayOfWeek, month }: Record<FieldName, Field>): string[] {
  const parts: string[] = []
  const dom =
    onlyStar(dayOfMonth) && dayOfMonth.items[0].step === 1
      ? ''
      : onlyStar(dayOfMonth)
        ? `on every ${ordinal(dayOfMonth.items[0].step)} day of the month`
        : `on ${listWords('dayOfMonth', dayOfMonth)} of the month`
  const dow = onlyStar(dayOfWeek) && dayOfWeek.items[0].step === 1 ? '' : `on ${listWords('dayOfWeek', dayOfWeek)}`
  if (dom && dow) parts.push(dayOfMonth.star || dayOfWeek.star ? `${dom} if it is also ${dow.slice(3)}` : `${dom} or ${dow}`)
  else if (dom || dow) parts.push(dom || dow)
  if (!(onlyStar(month) && month.items[0].step === 1))
    parts.push(onlyStar(month) ? `every ${ordinal(month.items[0].step)} month` : `in ${listWords('month', month)}`)
  return parts
}

export function describe(schedule: Schedule): string {
  const days = dayWords(schedule.fields)
  const time = timeWords(schedule)
  const daily = days.length === 0 && time.startsWith('At ') && !time.includes('minute') ? ['every day'] : days
  return [time, ...daily].join(', ')
}

// ---- Finding the next runs ----

/** The zone's clock around one local day: one offset, or the one transition within the days around it. */
type DayClock = { offset: number } | { before: number; after: number; transition: number }

function clockAround(zone: Zone, dayStart: number): DayClock {
  const low = dayStart - 2 * DAY
  const before = offsetAt(zone, low)
  const after = offsetAt(zone, dayStart + 3 * DAY)
  if (before === after) return { offset: before }
  return { before, after, transition: nextTransition(zone, low)! }
}

/** A run: its instant and the zone's offset then. */
interface Run {
  instant: number
  offset: number
}

/**
 * The runs of a wall time W (ms on the local clock). Following Vixie cron: a job at fixed times (its
 * minute and hour fields not `*`) whose wall time is skipped runs at the first moment after the gap,
 * and one whose wall time repeats runs once, at the first; a job whose minute or hour field is `*`
 * follows elapsed time, so it does not run in a gap and runs in both passes of a repeated hour.
 */
function runsAt(wall: number, clock: DayClock, fixedTime: boolean): Run[] {
  if ('offset' in clock) return [{ instant: wall - clock.offset, offset: clock.offset }]
  const { before, after, transition } = clock
  const runs: Run[] = []
  if (wall - before < transition) runs.push({ instant: wall - before, offset: before })
  if (wall - after >= transition) runs.push({ instant: wall - after, offset: after })
  if (runs.length === 0) return fixedTime ? [{ instant: transition, offset: after }] : []
  return fixedTime ? runs.slice(0, 1) : runs
}

function dayMatches({ dayOfMonth, dayOfWeek }: Record<FieldName, Field>, day: number, weekday: number): boolean {
  const domMatch = dayOfMonth.values.includes(day)
  const dowMatch = dayOfWeek.values.includes(weekday)
  // Vixie cron: when both fields are restricted (neither begins with `*`), a day matching either runs.
  return dayOfMonth.star || dayOfWeek.star ? domMatch && dowMatch : domMatch || dowMatch
}

/**
 * The runs of one local day after `after`, in order, stopping once the first `needed` are certain:
 * near a clock change runs can come out of wall-time order, but never by more than the change. A wall
 * time W runs no later than W minus the smallest offset, so wall times that cannot pass `after` are
 * skipped without a look.
 */
function runsOfDay(schedule: Schedule, zone: Zone, dayStart: number, after: number, needed: number): Run[] {
  const { second, minute, hour } = schedule.fields
  const clock = clockAround(zone, dayStart)
  const smallestOffset = 'offset' in clock ? clock.offset : Math.min(clock.before, clock.after)
  const largestOffset = 'offset' in clock ? clock.offset : Math.max(clock.before, clock.after)
  const fixedTime = !minute.star && !hour.star
  const runs: Run[] = []
  // Once `needed` runs are in hand, a wall time whose earliest instant is past all of them adds nothing.
  let enoughBefore = Number.POSITIVE_INFINITY
  const seen = new Set<number>()
  collect: for (const h of hour.values) {
    for (const m of minute.values) {
      for (const s of second.values) {
        const wall = dayStart + h * HOUR + m * MINUTE + s * SECOND
        if (wall - smallestOffset <= after) continue
        if (wall - largestOffset > enoughBefore) break collect
        for (const run of runsAt(wall, clock, fixedTime)) {
          // Skipped times of a fixed-time job all run at the end of the gap: once.
          if (run.instant > after && !seen.has(run.instant)) runs.push(run)
          seen.add(run.instant)
        }
        if (runs.length >= needed && enoughBefore === Number.POSITIVE_INFINITY) enoughBefore = Math.max(...runs.map((run) => run.instant))
      }
    }
  }
  return 'offset' in clock ? runs : runs.sort((a, b) => a.instant - b.instant)
}

/** The first `count` runs strictly after `from`, searching day by day in the zone (and stopping after year 9999). */
export function nextRuns(schedule: Schedule, zone: Zone, from: number, count: number): Run[] {
  const { month } = schedule.fields
  const found: Run[] = []
  // A run's wall time can be up to a day from its instant, so the search starts the local day before.
  let { year, month: m, day } = wallTime(from + offsetAt(zone, from) - DAY)
  while (found.length < count && year <= LAST_YEAR) {
    if (!month.values.includes(m) || day > daysInMonth(year, m)) {
      ;[year, m, day] = m === 12 ? [year + 1, 1, 1] : [year, m + 1, 1]
      continue
    }
    const days = daysFromCivil(year, m, day)
    if (dayMatches(schedule.fields, day, weekdayOf(days))) {
      for (const run of runsOfDay(schedule, zone, days * DAY, from, count - found.length)) {
        if (run.instant > from && (found.length === 0 || run.instant > found[found.length - 1].instant)) found.push(run)
        if (found.length === count) break
      }
    }
    day++
  }
  return found
}

/** ISO 8601 with the offset, to the second: 2026-03-29T03:00:00+02:00. */
function isoWithOffset({ instant, offset }: Run): string {
  const t = wallTime(instant + offset)
  return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${formatOffset(offset, ':')}`
}

const FROM_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|([+-])(\d{2}):(\d{2}))$/

/** Reads `from`, an ISO 8601 date-time with its offset (the schema checks the shape). */
function instantOf(from: string): number {
  const match = FROM_PATTERN.exec(from)!
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0))
  const refuse = (position: number, message: string) => invalidInput(`from: ${message} (at position ${position})`, { field: 'from', position })
  if (year < 1970) throw refuse(0, 'dates before 1970 are not searched')
  if (month < 1 || month > 12) throw refuse(5, `month ${month} does not exist`)
  if (day < 1 || day > daysInMonth(year, month)) throw refuse(8, `${year}-${pad(month)} has no day ${day}`)
  if (hour > 23) throw refuse(11, `hour ${hour} does not exist`)
  if (minute > 59) throw refuse(14, `minute ${minute} does not exist`)
  if (second > 59) throw refuse(17, `second ${second} does not exist (leap seconds are not counted)`)
  const milliseconds = Number((match[7] ?? '0').padEnd(3, '0'))
  const offsetMinutes = match[8] === 'Z' ? 0 : (match[9] === '-' ? -1 : 1) * (Number(match[10]) * 60 + Number(match[11]))
  if (match[8] !== 'Z' && (Number(match[10]) > 23 || Number(match[11]) > 59)) throw refuse(from.length - 6, `the offset ${match[8]} does not exist`)
  return daysFromCivil(year, month, day) * DAY + hour * HOUR + minute * MINUTE + second * SECOND + milliseconds - offsetMinutes * MINUTE
}

const oneTo = (last: number) => Array.from({ length: last }, (_, index) => index + 1)

const fieldsSchema = Type.Object(
  Object.fromEntries(
    FIELD_NAMES.map((name) => [
      name,
      Type.Array(Type.Integer(), {
        description: `The ${name === 'dayOfWeek' ? 'weekdays (0 = Sunday … 6 = Saturday; 7 is read as 0)' : `${SPECS[name].unit}s`} it runs on, ascending.`,
      }),
    ]),
  ) as Record<FieldName, ReturnType<typeof Type.Array<ReturnType<typeof Type.Integer>>>>,
  { description: 'Each field expanded to its values (a 5-field expression has second [0]).' },
)

export const cron = defineOperation({
  name: 'cron',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Explain a cron expression in plain English and list its next run times in a time zone',
  title: 'Cron expression',
  aliases: ['crontab', 'schedule', 'next run', 'cron job', 'describe cron', 'when does it run'],
  description:
    'Reads a cron expression (5 fields: minute hour day-of-month month day-of-week; 6 with a seconds field first; or @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly) with lists, ranges, steps (`*/15`, `1-10/2`, `5/15` = from 5 to the end), ' +
    'month and weekday names (JAN, MON; any case) and 7 for Sunday, and answers a description in English, each field expanded, and the next `count` runs strictly after `from` in `timezone`, as ISO 8601 with their offsets. ' +
    'Standard (Vixie) cron semantics: when both day-of-month and day-of-week are restricted (neither begins with `*`), a day matching either runs. ' +
    'Daylight saving, as Vixie cron: a job at fixed times (minute and hour not `*`) whose wall time is skipped when clocks go forward runs at the first moment after the gap (02:30 on 2026-03-29 in Europe/Berlin runs at 03:00+02:00), ' +
    'and one whose wall time repeats when clocks go back runs once, at the first pass; a job whose minute or hour field begins with `*` (every hour, every 15 minutes) follows elapsed time: nothing runs in the gap, and the repeated hour runs twice. ' +
    'Rare schedules are found (0 0 29 2 * next runs in a leap year); one that can never run (0 0 30 2 *) is a 422. L, W and # (Quartz extensions) are refused; an error gives the position in the expression.',
  input: Type.Object(
    {
      input: Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'The cron expression: 5 fields, 6 with seconds first, or a macro such as @daily.',
        examples: ['*/15 9-17 * * MON-FRI'],
      }),
      count: withDefault(Type.Integer({ minimum: 1, maximum: 100, description: 'How many next runs to list, 1 to 100.' }), 5),
      from: Type.Optional(
        Type.String({
          pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,3})?)?(?:Z|[+-]\\d{2}:\\d{2})$',
          description: 'List runs strictly after this moment: ISO 8601 with seconds optional and its offset (Z or ±hh:mm), from 1970 on. Now by default.',
          examples: ['2026-03-28T12:00:00Z'],
        }),
      ),
      timezone: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'The IANA time zone the expression is read in and the runs are written in (UTC, Europe/Berlin, America/New_York).',
          examples: ['Europe/Berlin'],
          'x-suggestions': 'timeZones',
        }),
        'UTC',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The expression in plain English (the same as `description`).' }),
    description: Type.String({ description: 'The expression in plain English.' }),
    fields: fieldsSchema,
    next: Type.Array(Type.String({ format: 'date-time' }), {
      description: 'The next runs, ISO 8601 with the offset in `timezone`, in order; fewer than `count` only if the search reaches the end of year 9999.',
    }),
    timezone: Type.String({ description: 'The time zone used.' }),
  }),
  examples: [
    {
      summary: 'A daily job whose time is skipped by the change to summer time',
      input: { input: '30 2 * * *', timezone: 'Europe/Berlin', from: '2026-03-27T00:00:00Z', count: 4 },
      output: {
        result: 'At 02:30, every day',
        description: 'At 02:30, every day',
        fields: { second: [0], minute: [30], hour: [2], dayOfMonth: oneTo(31), month: oneTo(12), dayOfWeek: [0, 1, 2, 3, 4, 5, 6] },
        next: ['2026-03-27T02:30:00+01:00', '2026-03-28T02:30:00+01:00', '2026-03-29T03:00:00+02:00', '2026-03-30T02:30:00+02:00'],
        timezone: 'Europe/Berlin',
      },
    },
    {
      summary: 'Every 15 minutes in office hours on weekdays',
      input: { input: '*/15 9-17 * * MON-FRI', timezone: 'America/New_York', from: '2026-01-09T17:40:00-05:00', count: 3 },
      output: {
        result: 'Every 15 minutes, between 09:00 and 17:59, on Monday through Friday',
        description: 'Every 15 minutes, between 09:00 and 17:59, on Monday through Friday',
        fields: {
          second: [0],
          minute: [0, 15, 30, 45],
          hour: [9, 10, 11, 12, 13, 14, 15, 16, 17],
          dayOfMonth: oneTo(31),
          month: oneTo(12),
          dayOfWeek: [1, 2, 3, 4, 5],
        },
        next: ['2026-01-09T17:45:00-05:00', '2026-01-12T09:00:00-05:00', '2026-01-12T09:15:00-05:00'],
        timezone: 'America/New_York',
      },
    },
    {
      summary: 'A leap-day job',
      input: { input: '0 0 29 2 *', from: '2026-01-01T00:00:00Z', count: 2 },
      output: {
        result: 'At 00:00, on day 29 of the month, in February',
        description: 'At 00:00, on day 29 of the month, in February',
        fields: { second: [0], minute: [0], hour: [0], dayOfMonth: [29], month: [2], dayOfWeek: [0, 1, 2, 3, 4, 5, 6] },
        next: ['2028-02-29T00:00:00+00:00', '2032-02-29T00:00:00+00:00'],
        timezone: 'UTC',
      },
    },
    { summary: 'The next five midnights from now', input: { input: '@daily' } },
  ],
  run({ input, count, from, timezone }) {
    const zone = zoneNamed(timezone)
    const schedule = parseCron(input)
    const start = from === undefined ? Date.now() : instantOf(from)
    const runs = nextRuns(schedule, zone, start, count)
    const description = describe(schedule)
    const fields = Object.fromEntries(FIELD_NAMES.map((name) => [name, schedule.fields[name].values])) as Record<FieldName, number[]>
    return { result: description, description, fields, next: runs.map(isoWithOffset), timezone: zone.name }
  },
})
