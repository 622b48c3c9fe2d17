import assert from 'node:assert/strict'
import { test } from 'node:test'
import { wallTime, weekdayOf } from './calendar.ts'
import { instantOfWallTime, nextTransition, offsetAt, zoneNamed } from './zones.ts'

const wall = (text: string) => wallTime(Date.parse(`${text}Z`))

test('a wall time in a gap moves forward by the gap, one in an overlap takes the earlier instant, one beyond the range is undefined', () => {
  const newYork = zoneNamed('America/New_York')
  const rows: Array<[string, number | undefined]> = [
    ['2024-03-10T01:59:59.999', Date.parse('2024-03-10T06:59:59.999Z')],
    ['2024-03-10T02:30:00.000', Date.parse('2024-03-10T07:30:00Z')],
    ['2024-03-10T03:00:00.000', Date.parse('2024-03-10T07:00:00Z')],
    ['2024-11-03T01:30:00.000', Date.parse('2024-11-03T05:30:00Z')],
    ['2024-11-03T02:00:00.000', Date.parse('2024-11-03T07:00:00Z')],
    ['+275760-09-13T00:00:00.000', undefined],
  ]
  for (const [text, expected] of rows) assert.equal(instantOfWallTime(newYork, wall(text)), expected, text)
})

test('the next transition is the first instant of the new offset; a zone without one has none', () => {
  const berlin = zoneNamed('Europe/Berlin')
  const transition = nextTransition(berlin, Date.parse('2026-03-27T00:00:00Z'))
  assert.equal(transition, Date.parse('2026-03-29T01:00:00Z'))
  assert.equal(offsetAt(berlin, transition! - 1), 3_600_000)
  assert.equal(offsetAt(berlin, transition!), 7_200_000)
  assert.equal(nextTransition(zoneNamed('UTC'), 0), undefined)
})

test('weekdays of day counts either side of 1970, 0 being Sunday', () => {
  const rows: Array<[number, number]> = [
    [0, 4],
    [3, 0],
    [-1, 3],
    [-4, 0],
    [-7, 4],
  ]
  for (const [days, weekday] of rows) assert.equal(weekdayOf(days), weekday, String(days))
})
