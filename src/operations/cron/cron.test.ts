import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOf, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { cron } from './index.ts'

interface Answer {
  result: string
  description: string
  fields: Record<string, number[]>
  next: string[]
  timezone: string
}

const run = async (input: Record<string, unknown>) => (await execute(cron, input)) as unknown as Answer
const next = async (input: string, from: string, count: number, timezone = 'UTC') => (await run({ input, from, count, timezone })).next
/** The zone's offset at an instant as ISO writes it (+01:00), from Intl rather than from the code under test. */
function offsetName(instant: number, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(instant)
    .find((part) => part.type === 'timeZoneName')!.value
  return name === 'GMT' ? '+00:00' : name.slice(3)
}

const refuses = (input: Record<string, unknown>, expected: Parameters<typeof expectRefusal>[1]) => expectRefusal(run(input), expected)

describe('cron: daylight saving time', () => {
  test('Europe/Berlin, 2026-03-29 (02:00 → 03:00): a job at 02:30 runs at 03:00+02:00, the first moment after the gap', async () => {
    assert.deepEqual(await next('30 2 * * *', '2026-03-28T12:00:00Z', 3, 'Europe/Berlin'), [
      '2026-03-29T03:00:00+02:00',
      '2026-03-30T02:30:00+02:00',
      '2026-03-31T02:30:00+02:00',
    ])
    // Several skipped times of one job run once; one that is also scheduled at 03:00 is not doubled.
    assert.deepEqual(await next('0,30 2,3 * * *', '2026-03-29T00:00:00Z', 3, 'Europe/Berlin'), [
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T03:30:00+02:00',
      '2026-03-30T02:00:00+02:00',
    ])
  })

  test('Europe/Berlin, 2026-10-25 (03:00 → 02:00): a job at 02:30 runs once, at the first 02:30', async () => {
    assert.deepEqual(await next('30 2 * * *', '2026-10-24T12:00:00Z', 2, 'Europe/Berlin'), ['2026-10-25T02:30:00+02:00', '2026-10-26T02:30:00+01:00'])
    // Starting between the two passes, the second pass is not a run either.
    assert.deepEqual(await next('30 2 * * *', '2026-10-25T00:45:00Z', 1, 'Europe/Berlin'), ['2026-10-26T02:30:00+01:00'])
  })

  test('America/New_York, 2026-11-01 (02:00 → 01:00): a job at 01:30 runs once', async () => {
    assert.deepEqual(await next('30 1 * * *', '2026-10-31T12:00:00Z', 2, 'America/New_York'), ['2026-11-01T01:30:00-04:00', '2026-11-02T01:30:00-05:00'])
  })

  test('a job whose minute or hour is * follows elapsed time: nothing in the gap, both passes of the repeated hour', async () => {
    assert.deepEqual(await next('*/30 * * * *', '2026-03-29T00:00:00Z', 4, 'Europe/Berlin'), [
      '2026-03-29T01:30:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T03:30:00+02:00',
      '2026-03-29T04:00:00+02:00',
    ])
    assert.deepEqual(await next('*/30 * * * *', '2026-11-01T04:00:00Z', 6, 'America/New_York'), [
      '2026-11-01T00:30:00-04:00',
      '2026-11-01T01:00:00-04:00',
      '2026-11-01T01:30:00-04:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-01T01:30:00-05:00',
      '2026-11-01T02:00:00-05:00',
    ])
    // @hourly keeps an hour between runs across both changes.
    const spring = (await next('@hourly', '2026-03-28T23:30:00Z', 4, 'Europe/Berlin')).map((text) => Date.parse(text))
    const autumn = (await next('@hourly', '2026-10-24T23:30:00Z', 4, 'Europe/Berlin')).map((text) => Date.parse(text))
    for (const times of [spring, autumn])
      assert.deepEqual(
        times.slice(1).map((time, index) => time - times[index]),
        [3_600_000, 3_600_000, 3_600_000],
      )
  })

  test('zones with other rules: half-hour shifts (Australia/Lord_Howe) and midnight changes (America/Santiago)', async () => {
    // Lord Howe goes from +10:30 to +11:00 at 02:00 on 2026-10-04: 02:15 does not exist.
    assert.deepEqual(await next('15 2 * * *', '2026-10-03T00:00:00Z', 2, 'Australia/Lord_Howe'), ['2026-10-04T02:30:00+11:00', '2026-10-05T02:15:00+11:00'])
    // Santiago moves its clocks at midnight: on 2026-09-06, 00:00–00:59 does not exist.
    assert.deepEqual(await next('30 0 * * *', '2026-09-05T12:00:00Z', 2, 'America/Santiago'), ['2026-09-06T01:00:00-03:00', '2026-09-07T00:30:00-03:00'])
  })
})

describe('cron: semantics', () => {
  test('day of month OR day of week when both are restricted, AND when either begins with *', async () => {
    assert.deepEqual(await next('0 12 1 * MON', '2026-01-01T00:00:00Z', 4), [
      '2026-01-01T12:00:00+00:00',
      '2026-01-05T12:00:00+00:00',
      '2026-01-12T12:00:00+00:00',
      '2026-01-19T12:00:00+00:00',
    ])
    // */2 begins with *, so it is a star field for this rule (as in Vixie cron): odd days that are Mondays.
    assert.deepEqual(await next('0 0 */2 * 1', '2026-01-01T00:00:00Z', 2), ['2026-01-05T00:00:00+00:00', '2026-01-19T00:00:00+00:00'])
  })

  test('rare schedules are found: 29 February, a Friday the 13th, the 31st in 31-day months only', async () => {
    assert.deepEqual(await next('0 0 29 2 *', '2026-01-01T00:00:00Z', 3), [
      '2028-02-29T00:00:00+00:00',
      '2032-02-29T00:00:00+00:00',
      '2036-02-29T00:00:00+00:00',
    ])
    // 2096 and 2104 are leap years; 2100 is not.
    assert.deepEqual(await next('0 0 29 2 *', '2096-03-01T00:00:00Z', 1), ['2104-02-29T00:00:00+00:00'])
    assert.deepEqual(await next('0 0 31 * *', '2026-04-01T00:00:00Z', 2), ['2026-05-31T00:00:00+00:00', '2026-07-31T00:00:00+00:00'])
    assert.deepEqual(await next('0 9 13 * *', '2026-01-01T00:00:00Z', 1), ['2026-01-13T09:00:00+00:00'])
  })

  test('runs are strictly after from, with seconds when the expression has six fields', async () => {
    assert.deepEqual(await next('0 12 * * *', '2026-01-01T12:00:00Z', 1), ['2026-01-02T12:00:00+00:00'])
    assert.deepEqual(await next('0 12 * * *', '2026-01-01T11:59:59.999Z', 1), ['2026-01-01T12:00:00+00:00'])
    assert.deepEqual(await next('*/20 * * * * *', '2026-01-01T00:00:00Z', 3), [
      '2026-01-01T00:00:20+00:00',
      '2026-01-01T00:00:40+00:00',
      '2026-01-01T00:01:00+00:00',
    ])
    assert.deepEqual(await next('0 0 12 * * *', '2026-01-01T00:00:00+05:30', 1, 'Asia/Kolkata'), ['2026-01-01T12:00:00+05:30'])
  })

  test('names, 7 for Sunday, steps, lists, ranges and macros expand as cron does', async () => {
    const { fields } = await run({ input: '5/20 1-10/3,22 ? jan,Jul-AUG SUN,7', from: '2026-01-01T00:00:00Z' })
    assert.deepEqual(fields, {
      second: [0],
      minute: [5, 25, 45],
      hour: [1, 4, 7, 10, 22],
      dayOfMonth: Array.from({ length: 31 }, (_, i) => i + 1),
      month: [1, 7, 8],
      dayOfWeek: [0],
    })
    const macros: Record<string, string> = {
      '@yearly': '0 0 1 1 *',
      '@annually': '0 0 1 1 *',
      '@monthly': '0 0 1 * *',
      '@weekly': '0 0 * * 0',
      '@daily': '0 0 * * *',
      '@midnight': '0 0 * * *',
      '@HOURLY': '0 * * * *',
    }
    for (const [macro, expression] of Object.entries(macros)) {
      const [byMacro, byFields] = await Promise.all([
        run({ input: macro, from: '2026-01-01T00:00:00Z' }),
        run({ input: expression, from: '2026-01-01T00:00:00Z' }),
      ])
      assert.deepEqual(byMacro, byFields, macro)
    }
  })

  test('descriptions in plain English', async () => {
    const cases: Record<string, string> = {
      '30 2 * * *': 'At 02:30, every day',
      '0 9,17 * * *': 'At 09:00 and 17:00, every day',
      '*/15 9-17 * * MON-FRI': 'Every 15 minutes, between 09:00 and 17:59, on Monday through Friday',
      '30 * * * *': 'At minute 30 past every hour',
      '* * * * *': 'Every minute',
      '*/20 * * * * *': 'Every 20 seconds',
      '30 * * * * *': 'At second 30, every minute',
      '0 0 29 2 *': 'At 00:00, on day 29 of the month, in February',
      '0 12 1 * MON': 'At 12:00, on day 1 of the month or on Monday',
      '0 0 */2 * 1': 'At 00:00, on every 2nd day of the month if it is also Monday',
      '0,30 * * * *': 'At minutes 0 and 30 past every hour',
      '0 0 1 */3 *': 'At 00:00, on day 1 of the month, every 3rd month',
      '15 10 * * 1-5': 'At 10:15, on Monday through Friday',
      '0 */2 * * *': 'At minute 0, every 2 hours',
      '15 30 4 * * *': 'At 04:30:15, every day',
    }
    for (const [input, description] of Object.entries(cases)) {
      const answer = await run({ input, from: '2026-01-01T00:00:00Z', count: 1 })
      assert.equal(answer.description, description, input)
      assert.equal(answer.result, description)
    }
  })

  test('property: every run matches the fields in the zone, and runs increase', async () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe']
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(1990, 0), max: Date.UTC(2090, 0) }),
        async (minute, hour, timezone, from) => {
          const expression = `${minute} ${hour} * * *`
          const runs = await next(expression, new Date(from).toISOString(), 5, timezone)
          assert.equal(runs.length, 5)
          const instants = runs.map((text) => Date.parse(text))
          const target = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
          for (let i = 0; i < instants.length; i++) {
            assert.ok(instants[i] > from && (i === 0 || instants[i] - instants[i - 1] >= 22 * 3_600_000), 'one run a day, in order')
            // A run at another wall time is a gap run: the clocks changed at that very instant.
            if (runs[i].slice(11, 16) !== target) assert.notEqual(offsetName(instants[i] - 1, timezone), offsetName(instants[i], timezone), runs[i])
            else assert.equal(runs[i].slice(19), offsetName(instants[i], timezone))
          }
        },
      ),
      { numRuns: 100 },
    )
  })

  test('property: away from clock changes, the runs are what a minute-by-minute scan of the wall clock finds', async () => {
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu']
    const list = (min: number, max: number) => fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: 4 })
    await fc.assert(
      fc.asyncProperty(
        list(0, 59),
        list(0, 23),
        fc.option(list(1, 31), { nil: undefined }),
        fc.option(list(0, 6), { nil: undefined }),
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(2000, 0), max: Date.UTC(2060, 0) }),
        async (minutes, hours, days, weekdays, timezone, from) => {
          const expression = `${minutes.join(',')} ${hours.join(',')} ${days?.join(',') ?? '*'} * ${weekdays?.join(',') ?? '*'}`
          const horizon = from + 40 * 86_400_000
          if (offsetName(from, timezone) !== offsetName(horizon, timezone)) return
          const expected: string[] = []
          const format = new Intl.DateTimeFormat('en-US', {
            timeZone: timezone,
            hourCycle: 'h23',
            weekday: 'short',
            day: 'numeric',
            hour: 'numeric',
            minute: 'numeric',
          })
          for (let instant = Math.floor(from / 60_000) * 60_000 + 60_000; instant < horizon && expected.length < 3; instant += 60_000) {
            const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]))
            const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday)
            const dayMatches =
              days && weekdays
                ? days.includes(Number(parts.day)) || weekdays.includes(weekday)
                : (days ?? [Number(parts.day)]).includes(Number(parts.day)) && (weekdays ?? [weekday]).includes(weekday)
            if (minutes.includes(Number(parts.minute)) && hours.includes(Number(parts.hour)) && dayMatches) expected.push(new Date(instant).toISOString())
          }
          const actual = (await next(expression, new Date(from).toISOString(), 3, timezone)).map((text) => new Date(text).toISOString())
          assert.deepEqual(actual.slice(0, expected.length), expected, `${expression} in ${timezone} after ${new Date(from).toISOString()}`)
        },
      ),
      { numRuns: 25 },
    )
  })

  test('the default from is now, and every second for 100 runs is cheap', async () => {
    const before = Date.now()
    const [first] = (await run({ input: '* * * * * *', count: 1 })).next
    assert.ok(Date.parse(first) > before - 1000 && Date.parse(first) <= Date.now() + 1000)
    const time = cpuTimeOf(() => {
      void run({ input: '* * * * * *', count: 100, timezone: 'Europe/Berlin', from: '2026-03-29T00:59:00Z' })
    })
    assert.ok(time < 500, `${time} ms`)
    assert.deepEqual(await next('* * * * * *', '2026-11-01T05:30:00Z', 2, 'America/New_York'), ['2026-11-01T01:30:01-04:00', '2026-11-01T01:30:02-04:00'])
    assert.deepEqual(await next('* * * * * *', '2026-11-01T05:59:58Z', 3, 'America/New_York'), [
      '2026-11-01T01:59:59-04:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-01T01:00:01-05:00',
    ])
    assert.equal(
      (await next('* * * * * *', '2026-03-29T00:59:58Z', 3, 'Europe/Berlin')).join(' '),
      '2026-03-29T01:59:59+01:00 2026-03-29T03:00:00+02:00 2026-03-29T03:00:01+02:00',
    )
  })
})

describe('cron: refusals', () => {
  test('impossible schedules are a clear 422, at once', async () => {
    const cases: Record<string, string> = {
      '0 0 30 2 *': 'This schedule never runs: February has no day 30',
      '0 0 31 4,6,9,11 *': 'This schedule never runs: none of April, June, September and November has a day 31',
      '0 0 30,31 FEB *': 'This schedule never runs: February has no day 30 or 31',
    }
    for (const [input, message] of Object.entries(cases)) {
      await refuses({ input }, { code: 'INVALID_INPUT', message: new RegExp(`^${message}$`), details: { field: 'dayOfMonth' } })
    }
    // With a weekday too, either matching runs, so this is possible.
    assert.equal((await next('0 0 30 2 MON', '2026-01-01T00:00:00Z', 1))[0], '2026-02-02T00:00:00+00:00')
  })

  test('malformed expressions are 422 with the position', async () => {
    const cases: Array<[input: string, position: number | undefined, message: RegExp]> = [
      ['60 * * * *', 0, /minute 60 is out of range 0–59/],
      ['0 24 * * *', 2, /hour 24/],
      ['0 0 0 * *', 4, /day 0/],
      ['0 0 * 13 *', 6, /month 13/],
      ['0 0 * * 8', 8, /weekday 8/],
      ['0 0 * * MOX', 8, /'MOX' is not a valid weekday/],
      ['0 0 * FOO *', 6, /not a valid month/],
      ['*/0 * * * *', 2, /step of 0/],
      ['1-2/x * * * *', 4, /step 'x'/],
      ['5-1 * * * *', 0, /runs backwards/],
      ['0 0 L * *', 4, /L, W or #/],
      ['0 0 * * 5#3', 8, /L, W or #/],
      ['0 0 15W * *', 4, /L, W or #/],
      ['1,,2 * * * *', 2, /empty/],
      ['  0 0 * * *  ,', 13, /an empty weekday list item/],
      ['? * * * *', 0, /not a valid minute/],
      ['@reboot', 0, /@reboot/],
      [' @often', 1, /unknown macro/],
      ['0 0 * *', undefined, /5 fields.*this one has 4/],
      ['0 0 * * * * *', undefined, /this one has 7/],
      ['1/2/3 * * * *', 3, /only one '\/'/],
    ]
    for (const [input, position, message] of cases) {
      await refuses({ input }, { code: 'INVALID_INPUT', message, ...(position === undefined ? {} : { position }) })
    }
  })

  test('from, time zone and bounds', async () => {
    await refuses({ input: '* * * * *', timezone: 'Mars/Olympus' }, { code: 'VALIDATION_ERROR', field: 'timezone' })
    await refuses({ input: '* * * * *', from: '2026-01-01' }, { code: 'VALIDATION_ERROR', field: 'from' })
    await refuses({ input: '* * * * *', from: '2026-01-01T00:00:00' }, { code: 'VALIDATION_ERROR', field: 'from' })
    await refuses({ input: '* * * * *', from: '2026-02-30T00:00:00Z' }, { code: 'INVALID_INPUT', position: 8 })
    await refuses({ input: '* * * * *', from: '2026-13-01T00:00:00Z' }, { code: 'INVALID_INPUT', position: 5 })
    await refuses({ input: '* * * * *', from: '2026-01-01T24:00:00Z' }, { code: 'INVALID_INPUT', position: 11 })
    await refuses({ input: '* * * * *', from: '1969-12-31T23:00:00Z' }, { code: 'INVALID_INPUT', position: 0 })
    await refuses({ input: '* * * * *', from: '2026-01-01T00:00:00+24:00' }, { code: 'INVALID_INPUT' })
    await refuses({ input: '* * * * *', count: 101 }, { code: 'VALIDATION_ERROR', field: 'count' })
    await refuses({ input: '* * * * *', count: 0 }, { code: 'VALIDATION_ERROR', field: 'count' })
    await refuses({ input: '' }, { code: 'VALIDATION_ERROR', field: 'input' })
    await refuses({ input: '*'.repeat(1025) }, { code: 'VALIDATION_ERROR', field: 'input' })
  })

  test('the search stops at the end of year 9999', async () => {
    assert.deepEqual(await next('0 0 29 2 *', '9996-03-01T00:00:00Z', 3), [])
    assert.deepEqual(await next('0 0 31 12 *', '9999-01-01T00:00:00Z', 3), ['9999-12-31T00:00:00+00:00'])
  })
})
