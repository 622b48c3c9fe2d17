import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** datetime's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('datetime adding 10^9 years', { input: '2024-01-01', action: 'add', duration: '1000000000 years' }, 422, 'INVALID_INPUT'),
    {
      ...hostile('datetime adding a duration of 20 digits', { input: '2024-01-01', action: 'add', duration: 'P99999999999999999999Y' }, 422, 'INVALID_INPUT'),
      message: /duration 'P9+Y' is not a valid duration/,
    },
    hostile('datetime of a Unix timestamp', { input: '1700000000' }, 422, 'INVALID_INPUT'),
    hostile('datetime with a critical unknown annotation', { input: '1970-01-01T00:00[UTC][!foo=bar]' }, 422, 'INVALID_INPUT'),
    {
      ...hostile('datetime in an unknown time zone', { input: '2024-01-01T00:00', timezone: 'Mars/Olympus_Mons' }, 400, 'VALIDATION_ERROR'),
      field: 'timezone',
    },
    hostile('datetime businessDays over 1,000,000 days', { input: '-271821-04-19', action: 'businessDays', end: '+275760-09-13' }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'datetime adding 10,000 working days of one a week, past 1,000 holidays',
      {
        input: '2024-01-01',
        action: 'businessDays',
        days: 10_000,
        weekend: [1, 2, 3, 4, 5, 6],
        holidays: Array.from({ length: 1000 }, (_, index) => `${2100 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`),
      },
      200,
    ),
  ],
  mcpTasks: [
    {
      task: 'how many days between two dates',
      arguments: { input: '2024-01-01', action: 'difference', end: '2024-03-01', largestUnit: 'days' },
      check: (data) => assert.equal(data.result, 'P60D'),
    },
  ],
  // "date" begins this tool's name and title, and a name being typed ranks first; timestamp comes next.
  searchWords: ['date'],
}
