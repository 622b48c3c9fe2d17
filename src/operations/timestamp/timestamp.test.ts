import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { relativeTime, timestamp } from './index.ts'

const run = (input: Record<string, unknown>) => execute(timestamp, input)
const toDate = async (input: Record<string, unknown>) => (await run({ ...input, action: 'timestampToDate' })) as Record<string, unknown>
/** Unix milliseconds of a date text. */
const msOf = async (input: string, timezone?: string) => (await run({ input, action: 'dateToTimestamp', ...(timezone ? { timezone } : {}) })).unixMs
const fails = (input: Record<string, unknown>, code: string, pattern: RegExp) => expectRefusal(run(input), { code, message: pattern })

const DAY = 86_400_000
const MAX = 8.64e15

describe('timestamp: timestamps to dates', () => {
  test('the documented example: 1700000000 is 2023-11-14T22:13:20.000Z, fields in the documented order', async () => {
    const data = await run({ input: 1700000000 })
    assert.deepEqual(Object.keys(data), ['result', 'action', 'unit', 'unix', 'unixMs', 'iso', 'rfc2822', 'local', 'timezone', 'relative'])
    const { relative, ...fixed } = data
    assert.deepEqual(fixed, {
      result: '2023-11-14T22:13:20.000Z',
      action: 'timestampToDate',
      unit: 'seconds',
      unix: 1700000000,
      unixMs: 1700000000000,
      iso: '2023-11-14T22:13:20.000Z',
      rfc2822: 'Tue, 14 Nov 2023 22:13:20 +0000',
      local: '2023-11-14T22:13:20.000+00:00',
      timezone: 'UTC',
    })
    assert.match(String(relative), /^\d+ years ago$|^last year$/)
  })

  test('a string of digits reads the same as the number, with sign and fraction', async () => {
    assert.equal((await run({ input: '1700000000' })).result, '2023-11-14T22:13:20.000Z')
    assert.equal((await run({ input: ' +1700000000 ' })).result, '2023-11-14T22:13:20.000Z')
    assert.equal((await run({ input: '-1.5' })).result, '1969-12-31T23:59:58.500Z')
    assert.equal((await run({ input: '.5' })).unixMs, 500)
  })

  test('auto unit by magnitude, at each boundary and for negative values', async () => {
    const cases: Array<[string, string, number]> = [
      ['99999999999', 'seconds', 99999999999000],
      ['99999999999.9', 'seconds', 99999999999900],
      ['100000000000', 'milliseconds', 100000000000],
      ['-99999999999', 'seconds', -99999999999000],
      ['-100000000000', 'milliseconds', -100000000000],
      ['99999999999999', 'milliseconds', 99999999999999],
      ['100000000000000', 'microseconds', 100000000000],
      ['99999999999999999', 'microseconds', 99999999999999],
      ['100000000000000000', 'nanoseconds', 100000000000],
      ['1700000000000000000', 'nanoseconds', 1700000000000],
    ]
    for (const [input, unit, unixMs] of cases) {
      const data = await run({ input })
      assert.equal(data.unit, unit, input)
      assert.equal(data.unixMs, unixMs, input)
    }
    assert.equal((await run({ input: 1e11 })).unit, 'milliseconds')
    assert.equal((await run({ input: 1e17 })).unit, 'nanoseconds')
  })

  test('an explicit unit overrides the magnitude', async () => {
    assert.equal((await run({ input: 1700000000, unit: 'milliseconds' })).iso, '1970-01-20T16:13:20.000Z')
    assert.equal((await run({ input: 1700000000000, unit: 'seconds' })).unixMs, 1.7e15)
    assert.equal((await run({ input: '1700000000123456', unit: 'microseconds' })).unixMs, 1700000000123)
    assert.equal((await run({ input: '1700000000123456789', unit: 'nanoseconds' })).unixMs, 1700000000123)
  })

  test('negative and fractional timestamps; sub-millisecond fractions are floored', async () => {
    assert.deepEqual(
      { ...(await run({ input: -1.5 })), relative: undefined },
      {
        result: '1969-12-31T23:59:58.500Z',
        action: 'timestampToDate',
        unit: 'seconds',
        unix: -1.5,
        unixMs: -1500,
        iso: '1969-12-31T23:59:58.500Z',
        rfc2822: 'Wed, 31 Dec 1969 23:59:58 +0000',
        local: '1969-12-31T23:59:58.500+00:00',
        timezone: 'UTC',
        relative: undefined,
      },
    )
    const exact = await run({ input: 1700000000.123 })
    assert.equal(exact.unixMs, 1700000000123)
    assert.equal(exact.unix, 1700000000.123)
    assert.equal((await run({ input: '1700000000.1239' })).unixMs, 1700000000123)
    assert.equal((await run({ input: '-0.0005' })).iso, '1969-12-31T23:59:59.999Z')
    assert.equal((await run({ input: '-0.0010' })).unixMs, -1)
    assert.equal((await run({ input: -0 })).unixMs, 0)
    assert.equal(Object.is((await run({ input: '-0' })).unixMs, 0), true)
  })

  test('time zones: wall time, offset and RFC 2822 in the zone, across DST', async () => {
    const cases: Array<[number, string, string, string]> = [
      [1700000000, 'Europe/Berlin', '2023-11-14T23:13:20.000+01:00', 'Tue, 14 Nov 2023 23:13:20 +0100'],
      [1690000000, 'Europe/Berlin', '2023-07-22T06:26:40.000+02:00', 'Sat, 22 Jul 2023 06:26:40 +0200'],
      [1700000000, 'America/New_York', '2023-11-14T17:13:20.000-05:00', 'Tue, 14 Nov 2023 17:13:20 -0500'],
      [1690000000, 'America/New_York', '2023-07-22T00:26:40.000-04:00', 'Sat, 22 Jul 2023 00:26:40 -0400'],
      [1700000000, 'Asia/Kolkata', '2023-11-15T03:43:20.000+05:30', 'Wed, 15 Nov 2023 03:43:20 +0530'],
      [1700000000, 'Pacific/Chatham', '2023-11-15T11:58:20.000+13:45', 'Wed, 15 Nov 2023 11:58:20 +1345'],
      [1690000000, 'Pacific/Chatham', '2023-07-22T17:11:40.000+12:45', 'Sat, 22 Jul 2023 17:11:40 +1245'],
    ]
    for (const [input, timezone, local, rfc2822] of cases) {
      const data = await run({ input, timezone })
      assert.equal(data.local, local, `${input} in ${timezone}`)
      assert.equal(data.rfc2822, rfc2822, `${input} in ${timezone}`)
      assert.equal(data.timezone, timezone)
      assert.equal(data.result, new Date(input * 1000).toISOString())
    }
  })

  test('local mean time offsets with seconds: local shows them, rfc2822 falls back to UTC', async () => {
    const data = await run({ input: -3000000000, timezone: 'America/New_York' })
    assert.equal(data.local, '1874-12-07T13:43:58.000-04:56:02')
    assert.equal(data.rfc2822, 'Mon, 07 Dec 1874 18:40:00 +0000')
  })

  test('time zone names: letter case is corrected, unknown names are a 400', async () => {
    assert.equal((await run({ input: 0, timezone: 'europe/berlin' })).timezone, 'Europe/Berlin')
    assert.equal((await run({ input: 0, timezone: 'utc' })).timezone, 'UTC')
    await fails({ input: 0, timezone: 'Mars/Olympus_Mons' }, 'VALIDATION_ERROR', /timezone 'Mars\/Olympus_Mons' is not a known IANA time zone/)
    await fails({ input: 0, timezone: '' }, 'VALIDATION_ERROR', /timezone/)
    await fails({ input: 0, timezone: 'x'.repeat(65) }, 'VALIDATION_ERROR', /timezone/)
  })

  test('without input: now', async () => {
    const before = Date.now()
    const data = await run({})
    assert.equal(data.action, 'timestampToDate')
    assert.equal(data.unit, 'milliseconds')
    assert.ok((data.unixMs as number) >= before && (data.unixMs as number) <= Date.now())
    assert.equal(data.relative, 'just now')
    const stamp = await run({ action: 'dateToTimestamp' })
    assert.deepEqual(Object.keys(stamp), ['result', 'action', 'unix', 'unixMs', 'iso'])
    assert.ok((stamp.unixMs as number) >= before)
  })

  test('instants beyond ±8.64e15 ms are a 422; the bounds themselves convert', async () => {
    assert.equal((await run({ input: MAX, unit: 'milliseconds' })).iso, '+275760-09-13T00:00:00.000Z')
    assert.equal((await run({ input: -MAX, unit: 'milliseconds' })).iso, '-271821-04-20T00:00:00.000Z')
    // The floored millisecond must lie in the range.
    assert.equal((await run({ input: '8640000000000000.5', unit: 'milliseconds' })).unixMs, MAX)
    await fails({ input: '-8640000000000000.5', unit: 'milliseconds' }, 'INVALID_INPUT', /outside the range/)
    await fails({ input: MAX + 1, unit: 'milliseconds' }, 'INVALID_INPUT', /outside the range/)
    await fails({ input: '8640000000000001', unit: 'milliseconds' }, 'INVALID_INPUT', /outside the range/)
    await fails({ input: 1e300 }, 'INVALID_INPUT', /outside the range/)
    await fails({ input: 8640000000001, unit: 'seconds' }, 'INVALID_INPUT', /outside the range/)
  })

  test('a text that is not a timestamp is a 422 with explicit timestampToDate; a number cannot be a date (400)', async () => {
    await fails({ input: '2023-11-14', action: 'timestampToDate' }, 'INVALID_INPUT', /'2023-11-14' is not a timestamp/)
    await fails({ input: '1e5', action: 'timestampToDate' }, 'INVALID_INPUT', /not a timestamp/)
    await fails({ input: 1700000000, action: 'dateToTimestamp' }, 'VALIDATION_ERROR', /input must be a date text/)
    await fails({ input: 1, unit: 'days' }, 'VALIDATION_ERROR', /unit must be one of/)
    await fails({ input: true }, 'VALIDATION_ERROR', /input/)
    await fails({ input: 1, zone: 'UTC' }, 'VALIDATION_ERROR', /zone is not a known field/)
  })
})

describe('timestamp: relative wording', () => {
  const now = Date.UTC(2025, 5, 15, 12)
  test('just now, then the largest whole unit, rounded toward zero', () => {
    const cases: Array<[number, string]> = [
      [0, 'just now'],
      [-9_999, 'just now'],
      [9_999, 'just now'],
      [-10_000, '10 seconds ago'],
      [59_999, 'in 59 seconds'],
      [-60_000, '1 minute ago'],
      [-3_599_999, '59 minutes ago'],
      [2 * 3_600_000 + 1, 'in 2 hours'],
      [-DAY, 'yesterday'],
      [DAY, 'tomorrow'],
      [3 * DAY, 'in 3 days'],
      [-6.9 * DAY, '6 days ago'],
      [-7 * DAY, 'last week'],
      [-29 * DAY, '4 weeks ago'],
      [-31 * DAY, 'last month'],
      [5 * 31 * DAY, 'in 5 months'],
      [-364 * DAY, '11 months ago'],
      [-366 * DAY, 'last year'],
      [-2.9 * 365.2425 * DAY, '2 years ago'],
      [1000 * 365.2425 * DAY, 'in 1,000 years'],
    ]
    for (const [difference, words] of cases) assert.equal(relativeTime(now + difference, now), words, String(difference))
  })

  test('through the operation, relative to the current time', async () => {
    const seconds = Date.now() / 1000
    assert.equal((await run({ input: seconds - 3 * 86400 - 60 })).relative, '3 days ago')
    assert.equal((await run({ input: seconds + 2 * 3600 + 60 })).relative, 'in 2 hours')
  })
})

describe('timestamp: dates to timestamps', () => {
  test('the action is inferred from a date text, and the answer has the documented fields', async () => {
    assert.deepEqual(await run({ input: '2023-11-14T22:13:20Z' }), {
      result: 1700000000,
      action: 'dateToTimestamp',
      unix: 1700000000,
      unixMs: 1700000000000,
      iso: '2023-11-14T22:13:20.000Z',
    })
    assert.deepEqual(await run({ input: '2023-11-14T22:13:20.5Z' }), {
      result: 1700000000.5,
      action: 'dateToTimestamp',
      unix: 1700000000.5,
      unixMs: 1700000000500,
      iso: '2023-11-14T22:13:20.500Z',
    })
  })

  test('ISO 8601 / RFC 3339 forms', async () => {
    const expected = 1700000000000
    for (const text of [
      '2023-11-14T22:13:20Z',
      '2023-11-14T22:13:20.000Z',
      '2023-11-14t22:13:20z',
      '2023-11-14 22:13:20Z',
      '2023-11-14T23:13:20+01:00',
      '2023-11-14T23:13:20+0100',
      '2023-11-14T23:13:20+01',
      '2023-11-14T17:13:20-05:00',
      '2023-11-15T03:43:20+05:30',
      '2023-11-14T22:13:20-00:00',
      '2023-11-14T22:13:20,000Z',
      '+002023-11-14T22:13:20Z',
      '20231114T221320Z',
      '20231115T034320+0530',
      '  2023-11-14T22:13:20Z\n',
    ]) {
      assert.equal(await msOf(text), expected, text)
    }
    assert.equal(await msOf('2023-11-14T22:13Z'), expected - 20_000)
    assert.equal(await msOf('2023-11-14T22:13:20.123456789Z'), expected + 123)
    assert.equal(await msOf('2023-11-14'), Date.UTC(2023, 10, 14))
    assert.equal(await msOf('20231114'), Date.UTC(2023, 10, 14))
    assert.equal(await msOf('-000001-01-01T00:00:00Z'), Date.parse('-000001-01-01T00:00:00Z'))
    assert.equal(await msOf('0000-01-01T00:00:00Z'), Date.parse('0000-01-01T00:00:00Z'))
    assert.equal(await msOf('1969-12-31T23:59:59.999Z'), -1)
  })

  test('a date or date-time without an offset is a wall time of the timezone', async () => {
    assert.equal(await msOf('2023-11-14T23:13:20', 'Europe/Berlin'), 1700000000000)
    assert.equal(await msOf('2023-11-14', 'Asia/Kolkata'), Date.UTC(2023, 10, 13, 18, 30))
    assert.equal(await msOf('2023-11-15T11:58:20', 'Pacific/Chatham'), 1700000000000)
    assert.equal(await msOf('2023-07-22T17:11:40', 'Pacific/Chatham'), 1690000000000)
    assert.equal(await msOf('2023-11-14T22:13:20'), 1700000000000)
    // An explicit offset wins over the timezone.
    assert.equal(await msOf('2023-11-14T22:13:20Z', 'Asia/Kolkata'), 1700000000000)
  })

  test('DST gaps move forward by the gap; overlaps take the earlier instant', async () => {
    // New York springs forward at 2023-03-12 02:00 EST (07:00Z) and falls back at 2023-11-05 02:00 EDT (06:00Z).
    assert.equal(await msOf('2023-03-12T02:30', 'America/New_York'), Date.UTC(2023, 2, 12, 7, 30))
    assert.equal(await msOf('2023-03-12T01:59', 'America/New_York'), Date.UTC(2023, 2, 12, 6, 59))
    assert.equal(await msOf('2023-03-12T03:00', 'America/New_York'), Date.UTC(2023, 2, 12, 7, 0))
    assert.equal(await msOf('2023-11-05T01:30', 'America/New_York'), Date.UTC(2023, 10, 5, 5, 30))
    assert.equal(await msOf('2023-11-05T02:30', 'America/New_York'), Date.UTC(2023, 10, 5, 7, 30))
    // Berlin: gap 2024-03-31 02:00-03:00 CET, overlap 2024-10-27 02:00-03:00.
    assert.equal(await msOf('2024-03-31T02:15', 'Europe/Berlin'), Date.UTC(2024, 2, 31, 1, 15))
    assert.equal(await msOf('2024-10-27T02:15', 'Europe/Berlin'), Date.UTC(2024, 9, 27, 0, 15))
    // Chatham's 45-minute zone changes at 02:45 local.
    assert.equal(await msOf('2023-09-24T03:00', 'Pacific/Chatham'), Date.UTC(2023, 8, 23, 14, 15))
  })

  test('RFC 2822 dates, with and without weekday, seconds, obsolete zones and years, comments', async () => {
    const expected = 1700000000000
    for (const text of [
      'Tue, 14 Nov 2023 22:13:20 +0000',
      '14 Nov 2023 22:13:20 +0000',
      'tue, 14 nov 2023 22:13:20 +0000',
      'Tue,  14  Nov  2023  22:13:20  +0000',
      'Tue, 14 Nov 2023 23:13:20 +0100',
      'Tue, 14 Nov 2023 17:13:20 -0500',
      'Tue, 14 Nov 2023 17:13:20 EST',
      'Tue, 14 Nov 2023 14:13:20 PST',
      'Tue, 14 Nov 2023 22:13:20 UT',
      'Tue, 14 Nov 2023 22:13:20 Z',
      'Tue, 14 Nov 2023 22:13:20 +0000 (UTC)',
      'Tue, 14 Nov 23 22:13:20 GMT',
    ]) {
      assert.equal(await msOf(text), expected, text)
    }
    assert.equal(await msOf('Tue, 14 Nov 2023 22:13 +0000'), expected - 20_000)
    assert.equal(await msOf('1 Jan 70 00:00:00 GMT'), 0)
    assert.equal(await msOf('Sat, 01 Jan 100 00:00:00 GMT'), Date.UTC(2000, 0, 1))
  })

  test('the three HTTP date formats of RFC 7231', async () => {
    const expected = 784111777000
    assert.equal(await msOf('Sun, 06 Nov 1994 08:49:37 GMT'), expected)
    assert.equal(await msOf('Sunday, 06-Nov-94 08:49:37 GMT'), expected)
    assert.equal(await msOf('Sun Nov  6 08:49:37 1994'), expected)
    // RFC 850 two-digit years more than 50 years ahead are in the past century.
    const thisYear = new Date().getUTCFullYear()
    const ahead = (thisYear + 51) % 100
    const weekday = new Date(Date.UTC(thisYear + 51 - 100, 0, 1)).toUTCString().slice(0, 3)
    const full = { Sun: 'Sunday', Mon: 'Monday', Tue: 'Tuesday', Wed: 'Wednesday', Thu: 'Thursday', Fri: 'Friday', Sat: 'Saturday' }[weekday]
    assert.equal(await msOf(`${full}, 01-Jan-${String(ahead).padStart(2, '0')} 00:00:00 GMT`), Date.UTC(thisYear + 51 - 100, 0, 1))
  })

  test('dates that do not exist are 422s pointing at the part that is wrong', async () => {
    const cases: Array<[string, RegExp, number]> = [
      ['2023-02-30', /2023-02-30 is not a valid date: February 2023 has 28 days \(position 8\)/, 8],
      ['2023-02-29', /February 2023 has 28 days/, 8],
      ['1900-02-29', /February 1900 has 28 days/, 8],
      ['2023-04-31', /April 2023 has 30 days/, 8],
      ['2023-11-00', /November 2023 has 30 days/, 8],
      ['2023-13-01', /there is no month 13/, 5],
      ['  2023-13-01', /there is no month 13 \(position 7\)/, 7],
      ['2023-11-14T25:00:00Z', /hours go from 00 to 23/, 11],
      ['2023-11-14T24:00:00Z', /hours go from 00 to 23/, 11],
      ['20231114T240000Z', /hours go from 00 to 23/, 9],
      ['2023-11-14T12:60:00Z', /minutes go from 00 to 59/, 14],
      ['2016-12-31T23:59:60Z', /leap second/, 17],
      ['2023-11-14T12:00:61Z', /seconds go from 00 to 59/, 17],
      ['2023-11-14T12:00:00+24:00', /offset \+24:00 does not exist/, 19],
      ['Tue, 14 Nov 2023 12:00:00 +0060', /offset \+0060 does not exist/, 26],
      ['31 Feb 2023 10:00:00 GMT', /February 2023 has 28 days/, 0],
      ['Wed, 14 Nov 2023 22:13:20 +0000', /wrong weekday: 2023-11-14 is a Tuesday/, 0],
      ['Sun Nov 31 08:49:37 1994', /November 1994 has 30 days/, 8],
      ['-000000-01-01T00:00:00Z', /-000000/, 0],
    ]
    for (const [input, pattern, position] of cases) {
      await assert.rejects(run({ input }), (error: Error & { code?: string; details?: { position?: number } }) => {
        assert.equal(error.code, 'INVALID_INPUT', input)
        assert.match(error.message, pattern)
        assert.equal(error.details?.position, position, input)
        return true
      })
    }
    assert.equal(await msOf('2024-02-29'), Date.UTC(2024, 1, 29))
    assert.equal(await msOf('2000-02-29'), Date.UTC(2000, 1, 29))
  })

  test('texts that are no date in a known format are 422s; Date.parse guesses are not followed', async () => {
    for (const text of ['yesterday', '2023/11/14', '11/14/2023', '2023-11-14T22:13:20+01:00:00x', '2023-1-4', 'Nov 14 2023', '2023-11-14Z', '']) {
      await fails({ input: text }, 'INVALID_INPUT', /not a date in a known format/)
    }
    await fails({ input: '1700000000', action: 'dateToTimestamp' }, 'INVALID_INPUT', /looks like a timestamp/)
  })

  test('instants beyond ±8.64e15 ms are a 422; the bounds themselves convert', async () => {
    assert.equal(await msOf('+275760-09-13T00:00:00Z'), MAX)
    assert.equal(await msOf('-271821-04-20T00:00:00Z'), -MAX)
    assert.equal(await msOf('+275760-09-13T00:00:00', 'Europe/Berlin'), MAX - 2 * 3_600_000)
    await fails({ input: '+275760-09-13T00:00:00.001Z' }, 'INVALID_INPUT', /outside the range/)
    await fails({ input: '-271821-04-19T23:59:59.999Z' }, 'INVALID_INPUT', /outside the range/)
    await fails({ input: '+275760-09-13T00:00:00', timezone: 'America/New_York' }, 'INVALID_INPUT', /outside the range/)
    await fails({ input: '+999999-12-31T23:59:59Z' }, 'INVALID_INPUT', /outside the range/)
  })
})

describe('timestamp: round trips', () => {
  const instants = fc.integer({ min: -MAX, max: MAX })
  const zones = fc.constantFrom(
    'UTC',
    'Europe/Berlin',
    'America/New_York',
    'Asia/Kolkata',
    'Pacific/Chatham',
    'Australia/Lord_Howe',
    'Europe/Amsterdam',
    'America/St_Johns',
  )

  test('timestampToDate then dateToTimestamp gives back every millisecond of the range, through iso and local', async () => {
    await fc.assert(
      fc.asyncProperty(instants, zones, async (ms, timezone) => {
        const date = await toDate({ input: ms, unit: 'milliseconds', timezone })
        assert.equal(date.unixMs, ms)
        assert.equal(date.iso, new Date(ms).toISOString())
        assert.equal(await msOf(date.iso as string), ms)
        assert.equal(await msOf(date.local as string), ms)
      }),
      { numRuns: 300 },
    )
  })

  test('rfc2822 reads back to the second, from year 0 on', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: Date.parse('0000-01-01T00:00:00Z'), max: MAX }), zones, async (ms, timezone) => {
        const date = await toDate({ input: ms, unit: 'milliseconds', timezone })
        assert.equal(await msOf(date.rfc2822 as string), Math.floor(ms / 1000) * 1000)
      }),
    )
  })

  test('seconds with a fraction read back exactly in unix', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -MAX, max: MAX }), async (ms) => {
        const date = await toDate({ input: ms / 1000, unit: 'seconds' })
        assert.equal(date.unixMs, ms)
        assert.equal(date.unix, ms / 1000)
      }),
    )
  })
})
