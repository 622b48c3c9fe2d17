import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { Temporal } from 'temporal-polyfill'
import { execute } from '../../core/execute.ts'
import { datetime } from './index.ts'

const run = (input: Record<string, unknown>) => execute(datetime, input) as Promise<Record<string, unknown>>

/**
 * Cases transcribed from tc39/test262 (BSD licence), each naming its file under test/; the zones
 * used (America/New_York, America/Los_Angeles, America/Sao_Paulo before 2019's abolition of its
 * daylight-saving time) have had the same rules for these dates in every tz database release since.
 */
const TEST262: Array<{ source: string; input: Record<string, unknown>; expect: Record<string, unknown> }> = [
  {
    source: 'built-ins/Temporal/PlainDate/prototype/add/constrain-days.js',
    input: { input: '2019-01-31', action: 'add', duration: 'P1M' },
    expect: { result: '2019-02-28', adjusted: { reason: 'constrained' } },
  },
  {
    source: 'built-ins/Temporal/PlainDate/prototype/until/basic.js',
    input: { input: '2000-12-01', action: 'difference', end: '2001-06-01', largestUnit: 'months' },
    expect: { result: 'P6M' },
  },
  { source: 'built-ins/Temporal/PlainDate/prototype/weekOfYear/basic.js', input: { input: '1975-12-29' }, expect: { isoWeek: { yearOfWeek: 1976, week: 1 } } },
  { source: 'built-ins/Temporal/PlainDate/prototype/weekOfYear/basic.js', input: { input: '1976-12-27' }, expect: { isoWeek: { yearOfWeek: 1976, week: 53 } } },
  { source: 'built-ins/Temporal/PlainDate/prototype/weekOfYear/basic.js', input: { input: '1977-01-02' }, expect: { isoWeek: { yearOfWeek: 1976, week: 53 } } },
  { source: 'built-ins/Temporal/PlainDate/prototype/dayOfYear/basic.js', input: { input: '2020-03-15' }, expect: { dayOfYear: 75 } },
  { source: 'built-ins/Temporal/PlainDate/prototype/dayOfYear/basic.js', input: { input: '2001-03-15' }, expect: { dayOfYear: 74 } },
  ...(
    [
      ['2020-03-08T02:30[America/Los_Angeles]', 'compatible', '2020-03-08T03:30:00-07:00[America/Los_Angeles]'],
      ['2020-03-08T02:30[America/Los_Angeles]', 'earlier', '2020-03-08T01:30:00-08:00[America/Los_Angeles]'],
      ['2020-03-08T02:30[America/Los_Angeles]', 'later', '2020-03-08T03:30:00-07:00[America/Los_Angeles]'],
      ['2019-02-16T23:45[America/Sao_Paulo]', 'compatible', '2019-02-16T23:45:00-02:00[America/Sao_Paulo]'],
      ['2019-02-16T23:45[America/Sao_Paulo]', 'earlier', '2019-02-16T23:45:00-02:00[America/Sao_Paulo]'],
      ['2019-02-16T23:45[America/Sao_Paulo]', 'later', '2019-02-16T23:45:00-03:00[America/Sao_Paulo]'],
    ] as const
  ).map(([input, disambiguation, result]) => ({
    source: 'intl402/Temporal/ZonedDateTime/from/argument-string-dst-option-disambiguation.js',
    input: { input, disambiguation },
    expect: { result },
  })),
  {
    source: 'built-ins/Temporal/ZonedDateTime/from/argument-string-critical-unknown-annotation.js',
    input: { input: '1970-01-01T00:00[UTC][foo=bar]', action: 'convert', toTimezone: 'UTC' },
    expect: { instant: '1970-01-01T00:00:00Z' },
  },
]

/** Refused by test262's cases: each throws a RangeError there, a 422 here. */
const TEST262_REFUSED: Array<{ source: string; input: Record<string, unknown> }> = [
  {
    source: 'intl402/Temporal/ZonedDateTime/from/argument-string-dst-option-disambiguation.js',
    input: { input: '2020-03-08T02:30[America/Los_Angeles]', disambiguation: 'reject' },
  },
  {
    source: 'intl402/Temporal/ZonedDateTime/from/argument-string-dst-option-disambiguation.js',
    input: { input: '2019-02-16T23:45[America/Sao_Paulo]', disambiguation: 'reject' },
  },
  { source: 'built-ins/Temporal/ZonedDateTime/from/argument-string-critical-unknown-annotation.js', input: { input: '1970-01-01T00:00[UTC][!foo=bar]' } },
  { source: 'built-ins/Temporal/ZonedDateTime/from/offset-does-not-match-iana-time-zone.js', input: { input: '2020-03-08T01:00-04:00[UTC]' } },
]

/** Wall-clock rules around daylight-saving changes, and other answers checked by hand against the tz database. */
const KNOWN_ANSWERS: Array<{ input: Record<string, unknown>; expect: Record<string, unknown> }> = [
  { input: { input: '2024-01-31', action: 'add', duration: 'P1M' }, expect: { result: '2024-02-29', adjusted: { reason: 'constrained' } } },
  {
    input: { input: '2024-03-10T02:30[America/New_York]', action: 'add', duration: 'PT0S' },
    expect: { result: '2024-03-10T03:30:00-04:00[America/New_York]', adjusted: { reason: 'gap' } },
  },
  { input: { input: '2024-03-10T02:30[America/New_York]', disambiguation: 'earlier' }, expect: { result: '2024-03-10T01:30:00-05:00[America/New_York]' } },
  {
    input: { input: '2024-03-09T12:00[America/New_York]', action: 'add', duration: 'P1D' },
    expect: { result: '2024-03-10T12:00:00-04:00[America/New_York]', instant: '2024-03-10T16:00:00Z', offset: '-04:00', adjusted: null },
  },
  {
    input: { input: '2024-03-09T12:00[America/New_York]', action: 'add', duration: 'PT24H' },
    expect: { result: '2024-03-10T13:00:00-04:00[America/New_York]' },
  },
  {
    input: { input: '2024-03-09T12:00[America/New_York]', action: 'add', duration: '1 day 2h 30m' },
    expect: { result: '2024-03-10T14:30:00-04:00[America/New_York]' },
  },
  {
    input: { input: '2024-11-02T01:30[America/New_York]', action: 'add', duration: 'P1D' },
    expect: { result: '2024-11-03T01:30:00-04:00[America/New_York]', adjusted: { reason: 'overlap' } },
  },
  {
    input: { input: '2024-11-02T01:30[America/New_York]', action: 'add', duration: 'P1D', disambiguation: 'later' },
    expect: { result: '2024-11-03T01:30:00-05:00[America/New_York]' },
  },
  { input: { input: '2024-03-31', action: 'subtract', duration: '1 mo' }, expect: { result: '2024-02-29' } },
  { input: { input: '2024-03-10', action: 'add', duration: '-P1D' }, expect: { result: '2024-03-09' } },
  { input: { input: '2024-03-10', action: 'add', duration: '2h', timezone: 'Europe/Berlin' }, expect: { result: '2024-03-10T02:00:00+01:00[Europe/Berlin]' } },
  { input: { input: '2024-03-10T10:00-05:00', action: 'add', duration: 'P1M' }, expect: { result: '2024-04-10T10:00:00-05:00', timezone: '-05:00' } },
  { input: { input: '2024-03-10T10:00Z', action: 'add', duration: 'PT1.5H' }, expect: { result: '2024-03-10T11:30:00Z', offset: '+00:00' } },
  {
    input: { input: '2024-03-10 10:00', action: 'add', duration: 'PT1H', timezone: 'Asia/Kolkata' },
    expect: { result: '2024-03-10T11:00:00+05:30[Asia/Kolkata]' },
  },
  { input: { input: '2024-03-10T12:00[Asia/Calcutta]' }, expect: { timezone: 'Asia/Calcutta' } },
  {
    input: { input: '2024-03-10T10:00Z', action: 'difference', end: '2024-03-11T12:30:00.5Z' },
    expect: { result: 'PT26H30M0.5S', human: '26 hours, 30 minutes, 500 milliseconds', sign: 1 },
  },
  {
    input: { input: '2024-03-09T12:00[America/New_York]', action: 'difference', end: '2024-03-11T00:00[America/New_York]' },
    expect: { result: 'P1DT12H', totals: { days: 1.5, hours: 35, minutes: 2100, seconds: 126000, milliseconds: 126000000 } },
  },
  { input: { input: '2024-03-10', action: 'difference', end: '2024-03-09' }, expect: { result: '-P1D', sign: -1, human: '1 day' } },
  { input: { input: '2024-03-10', action: 'difference', end: '2024-03-10' }, expect: { result: 'PT0S', sign: 0, human: '0 days' } },
  { input: { input: '2024-01-01', action: 'difference', end: '2024-01-02', largestUnit: 'hours' }, expect: { result: 'PT24H' } },
  {
    input: { input: '2024-01-01T00:00Z', action: 'difference', end: '2024-01-01T00:00:10.6Z', smallestUnit: 'seconds', roundingMode: 'halfExpand' },
    expect: { result: 'PT11S' },
  },
  { input: { input: '2024-01-01', action: 'difference', end: '2025-03-15' }, expect: { result: 'P1Y2M14D', human: '1 year, 2 months, 14 days' } },
  {
    input: { input: '2024-03-10T12:00Z', action: 'convert', toTimezones: ['America/New_York', 'Asia/Kolkata'] },
    expect: {
      result: '2024-03-10T08:00:00-04:00[America/New_York]',
      conversions: [
        { timezone: 'America/New_York', dateTime: '2024-03-10T08:00:00-04:00[America/New_York]', offset: '-04:00', abbreviation: 'EDT', isDst: true },
        { timezone: 'Asia/Kolkata', dateTime: '2024-03-10T17:30:00+05:30[Asia/Kolkata]', offset: '+05:30', abbreviation: 'GMT+5:30', isDst: false },
      ],
    },
  },
  {
    input: { input: '2024-03-10T02:30[America/New_York]' },
    expect: {
      startOfDay: '2024-03-10T00:00:00-05:00[America/New_York]',
      hoursInDay: 23,
      isDst: true,
      nextTransition: '2024-11-03T01:00:00-05:00[America/New_York]',
    },
  },
  {
    input: { input: '2024-11-03T12:00[America/New_York]' },
    expect: { hoursInDay: 25, isDst: false, previousTransition: '2024-11-03T01:00:00-05:00[America/New_York]' },
  },
  {
    input: { input: '2024-02-29T10:00Z' },
    expect: { date: '2024-02-29', time: '10:00:00', inLeapYear: true, daysInYear: 366, quarter: 1, previousTransition: null },
  },
  { input: { input: '20240310' }, expect: { date: '2024-03-10', weekday: 7 } },
  {
    input: { input: '2024-12-20', action: 'businessDays', days: 5, holidays: ['2024-12-25', '2024-12-26'] },
    expect: { result: '2024-12-31', calendarDays: 11 },
  },
  {
    input: { input: '2024-12-31', action: 'businessDays', days: -5, holidays: ['2024-12-25', '2024-12-26'] },
    expect: { result: '2024-12-20', calendarDays: -11 },
  },
  { input: { input: '2024-06-07', action: 'businessDays', end: '2024-06-01', weekend: [5, 6] }, expect: { result: -5, calendarDays: -6, weekendDays: 1 } },
]

/** Inputs it must refuse, each with the code of its error. */
const REFUSED: Array<{ input: Record<string, unknown>; code: string; field?: string; message?: RegExp }> = [
  { input: { input: '1700000000' }, code: 'INVALID_INPUT', message: /Unix timestamp/ },
  { input: { input: 'next tuesday' }, code: 'INVALID_INPUT', message: /not a valid date/ },
  { input: { input: '2023-02-30' }, code: 'INVALID_INPUT' },
  { input: { input: '2024-01-01[u-ca=japanese]' }, code: 'INVALID_INPUT', message: /calendar/ },
  { input: { input: '2024-01-01T00:00[Mars/Base]' }, code: 'INVALID_INPUT', message: /position 16/ },
  { input: { input: '2024-01-31', action: 'add', duration: 'P1M', overflow: 'reject' }, code: 'INVALID_INPUT', message: /overflow/ },
  {
    input: { input: '2024-03-09T02:30[America/New_York]', action: 'add', duration: 'P1D', disambiguation: 'reject' },
    code: 'INVALID_INPUT',
    message: /skipped/,
  },
  { input: { input: '2024-01-01', action: 'add', duration: 'P1000000000Y' }, code: 'INVALID_INPUT', message: /range/ },
  { input: { input: '+275760-09-13', action: 'add', duration: 'P1D' }, code: 'INVALID_INPUT', message: /range/ },
  { input: { input: '2024-01-01', action: 'add', duration: 'P99999999999999999999Y' }, code: 'INVALID_INPUT', field: 'duration' },
  { input: { input: '2024-01-01', action: 'add', duration: '1 fortnight' }, code: 'INVALID_INPUT', message: /unknown unit/ },
  { input: { input: '2024-01-01', action: 'add', duration: '1.5h' }, code: 'INVALID_INPUT', message: /fraction/ },
  { input: { input: '2024-01-01', action: 'add', duration: 'soon' }, code: 'INVALID_INPUT' },
  { input: { input: '2024-01-01', action: 'add' }, code: 'VALIDATION_ERROR', field: 'duration' },
  { input: { action: 'add', duration: 'P1D' }, code: 'VALIDATION_ERROR', field: 'input' },
  { input: { input: '2024-01-01', duration: 'P1D' }, code: 'VALIDATION_ERROR', field: 'duration' },
  { input: { input: '2024-01-01', timezone: 'Mars/Base' }, code: 'VALIDATION_ERROR', field: 'timezone' },
  { input: { input: '2024-01-01T00:00Z', action: 'convert', toTimezone: 'Mars/Base' }, code: 'VALIDATION_ERROR', field: 'toTimezone' },
  { input: { input: '2024-01-01T00:00Z', action: 'convert' }, code: 'VALIDATION_ERROR', field: 'toTimezone' },
  { input: { input: '2024-01-01T00:00Z', action: 'convert', toTimezone: 'UTC', toTimezones: ['UTC'] }, code: 'VALIDATION_ERROR' },
  {
    input: { input: '2024-01-01', action: 'difference', end: '2024-02-01', largestUnit: 'days', smallestUnit: 'months' },
    code: 'VALIDATION_ERROR',
    field: 'smallestUnit',
  },
  { input: { input: '2024-01-01', action: 'businessDays' }, code: 'VALIDATION_ERROR' },
  { input: { input: '2024-01-01', action: 'businessDays', end: '2024-02-01', days: 3 }, code: 'VALIDATION_ERROR' },
  { input: { input: '2024-01-01', action: 'businessDays', days: 3, weekend: [1, 2, 3, 4, 5, 6, 7] }, code: 'VALIDATION_ERROR', field: 'weekend' },
  { input: { input: '2024-01-01', action: 'businessDays', days: 3, holidays: ['someday'] }, code: 'INVALID_INPUT' },
  { input: { input: '2024-01-01', action: 'businessDays', end: '5000-01-01' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: '2024-01-01', action: 'businessDays', days: 10_001 }, code: 'VALIDATION_ERROR' },
]

/** Whether an error names `field` in its details. */
const names = (error: { details?: unknown }, field: string) => JSON.stringify(error.details ?? null).includes(`"${field}"`)

/** test262's Temporal files vendored for the engine this operation bundles, run with their own harness. */
const SUITE = new URL('../../../test/fixtures/suites/test262-temporal/', import.meta.url).pathname
const HARNESS = ['sta.js', 'assert.js'].map((file) => readFileSync(join(SUITE, 'harness', file), 'utf8')).join('\n')
const suiteFiles = (readdirSync(join(SUITE, 'test'), { recursive: true }) as string[]).filter((file) => file.endsWith('.js')).sort()

/** The one helper of test262's temporalHelpers.js that the vendored files use. */
const TemporalHelpers = {
  assertPlainDate(date: InstanceType<typeof Temporal.PlainDate>, year: number, month: number, monthCode: string, day: number, description: string) {
    assert.deepEqual([date.year, date.month, date.monthCode, date.day], [year, month, monthCode, day], description)
  },
}

const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10))

describe('datetime', () => {
  test('the vendored test262 Temporal files pass on the bundled engine, every case', () => {
    assert.equal(suiteFiles.length, 4)
    for (const file of suiteFiles) {
      const code = readFileSync(join(SUITE, 'test', file), 'utf8')
      assert.doesNotThrow(() => new Function('Temporal', 'TemporalHelpers', `${HARNESS}\n${code}`)(Temporal, TemporalHelpers), file)
    }
  })

  test('test262 Temporal cases: the same answers', async () => {
    for (const { source, input, expect } of TEST262) {
      const data = await run(input)
      for (const [key, value] of Object.entries(expect)) assert.deepEqual(data[key], value, `${source}: ${JSON.stringify(input)} ${key}`)
    }
  })

  test('test262 Temporal cases refused there are refused here with 422', async () => {
    for (const { source, input } of TEST262_REFUSED) await assert.rejects(run(input), { code: 'INVALID_INPUT' }, `${source}: ${JSON.stringify(input)}`)
  })

  test('answers wall-clock arithmetic, differences, conversions, facts and business days as checked by hand', async () => {
    for (const { input, expect } of KNOWN_ANSWERS) {
      const data = await run(input)
      for (const [key, value] of Object.entries(expect)) assert.deepEqual(data[key], value, `${JSON.stringify(input)} ${key}: ${JSON.stringify(data)}`)
    }
  })

  test('refuses what it cannot process, saying why', async () => {
    for (const { input, code, field, message } of REFUSED) {
      await assert.rejects(
        run(input),
        (error: { code: string; message: string; details?: unknown }) => {
          assert.equal(error.code, code, `${JSON.stringify(input)}: ${error.message}`)
          if (field) assert.ok(names(error, field), `${JSON.stringify(input)} names ${field}: ${JSON.stringify(error.details)}`)
          if (message) assert.match(error.message, message, JSON.stringify(input))
          return true
        },
        JSON.stringify(input),
      )
    }
  })

  test('gives the tz database version only where a zone rules the answer', async () => {
    assert.equal((await run({ input: '2024-03-10T12:00[Europe/Berlin]' })).tzdataVersion, process.versions.tz)
    assert.equal((await run({ input: '2024-03-10T12:00Z' })).tzdataVersion, undefined)
    assert.equal((await run({ input: '2024-03-10' })).tzdataVersion, undefined)
  })

  test('now, for info and convert without input', async () => {
    const data = await run({ timezone: 'Europe/Berlin' })
    assert.equal(data.timezone, 'Europe/Berlin')
    const converted = await run({ action: 'convert', toTimezone: 'UTC' })
    assert.ok(Math.abs(Date.parse(String(converted.instant)) - Date.now()) < 60_000)
  })

  test('a date plus the difference to another date is that date (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(isoDate, isoDate, async (start, end) => {
        const { result } = await run({ input: start, action: 'difference', end })
        assert.equal((await run({ input: start, action: 'add', duration: result })).result, end)
      }),
      { numRuns: 60 },
    )
  })

  test('adding then subtracting days gives the date back; totals agree with each other (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(isoDate, fc.integer({ min: -5000, max: 5000 }), async (start, days) => {
        const { result: later } = await run({ input: start, action: 'add', duration: `${days < 0 ? '-' : ''}P${Math.abs(days)}D` })
        assert.equal((await run({ input: later, action: 'subtract', duration: `${days} d` })).result, start)
        const { totals } = (await run({ input: start, action: 'difference', end: later })) as { totals: Record<string, number> }
        assert.equal(totals.days, days)
        assert.equal(totals.hours, days * 24)
      }),
      { numRuns: 60 },
    )
  })

  test('counting the working days up to the date found by adding n of them gives n (fast-check)', async () => {
    const weekend = fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { maxLength: 5 })
    await fc.assert(
      fc.asyncProperty(isoDate, fc.integer({ min: 0, max: 400 }), weekend, fc.array(isoDate, { maxLength: 20 }), async (start, days, weekendDays, holidays) => {
        const info = await run({ input: start })
        fc.pre(!weekendDays.includes(info.weekday as number) && !holidays.includes(start))
        const { result: end } = await run({ input: start, action: 'businessDays', days, weekend: weekendDays, holidays })
        const counted = await run({ input: start, action: 'businessDays', end, weekend: weekendDays, holidays })
        assert.equal(counted.result, days)
      }),
      { numRuns: 60 },
    )
  })

  test('hostile inputs are answered quickly', async () => {
    const started = performance.now()
    await assert.rejects(run({ input: '2024-01-01', action: 'add', duration: '1000000000 years' }), { code: 'INVALID_INPUT' })
    await assert.rejects(run({ input: '9'.repeat(100) }), { code: 'INVALID_INPUT' })
    // Unknown annotations that are not critical are ignored, as RFC 9557 asks.
    assert.equal((await run({ input: `2024-01-01${'[a=b]'.repeat(18)}` })).result, '2024-01-01')
    await assert.rejects(run({ input: `2024-01-01${'[!a=b]'.repeat(15)}` }), { code: 'INVALID_INPUT' })
    const far = await run({ input: '2024-01-01', action: 'businessDays', days: 10_000, weekend: [1, 2, 3, 4, 5, 6], holidays: [] })
    assert.equal(far.calendarDays, 70_000 - 1)
    await run({ input: '2024-01-01', action: 'businessDays', end: '4700-01-01' })
    await run({ input: '-271821-04-19', action: 'difference', end: '+275760-09-13', largestUnit: 'days' })
    assert.ok(performance.now() - started < 2000)
  })
})
