import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** units's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    { ...hostile('units of a number of 101 digits', { input: `${'7'.repeat(101)} m` }, 400, 'VALIDATION_ERROR'), field: 'input' },
    { ...hostile('units of 1e999999999 metres', { input: '1e999999999 m', to: 'all' }, 400, 'VALIDATION_ERROR'), field: 'input' },
    { ...hostile('units of 1e-999999999 metres', { input: '1e-999999999 m', to: 'nm' }, 400, 'VALIDATION_ERROR'), field: 'input' },
    hostile('units answering past the largest JSON number', { input: '1e300 QB', to: 'bit' }, 422, 'LIMIT_EXCEEDED'),
    hostile('units below absolute zero', { input: '-300 °C', to: 'K' }, 422, 'INVALID_INPUT'),
    hostile('units of two quantities', { input: '1 MB', to: 'kg' }, 422, 'INVALID_INPUT'),
    hostile('units of an ISO 8601 duration in years', { input: 'P1Y', to: 'd' }, 422, 'INVALID_INPUT'),
    hostile('units of a duration of 66 parts, all 50 digits', { input: '1h '.repeat(66).trim(), to: 'all', significantDigits: 50 }, 200),
    hostile('units with a unit name of 190 letters', { input: `1 ${'x'.repeat(190)}` }, 422, 'INVALID_INPUT'),
  ],
  mcpTasks: [
    {
      task: 'convert 5 miles to km',
      arguments: { input: '5 mi', to: 'km' },
      check: (data) => assert.equal(data.text, '8.04672'),
    },
  ],
}
