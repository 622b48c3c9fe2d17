import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** timestamp's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('timestamp beyond the representable range', { input: 9e15, unit: 'milliseconds' }, 422, 'INVALID_INPUT'),
    hostile('timestamp impossible date', { input: '2023-02-30' }, 422, 'INVALID_INPUT'),
  ],
  mcpTasks: [
    {
      task: 'epoch to date',
      arguments: { input: 1700000000 },
      check: (data) => assert.match(JSON.stringify(data), /2023-11-14T22:13:20/),
    },
  ],
  searchWords: ['epoch', 'time'],
}
