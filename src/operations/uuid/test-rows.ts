import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** uuid's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('uuid count too large', { count: 1_000_000 }, 400, 'VALIDATION_ERROR'),
    hostile('uuid inspect of 256 characters of almost a UUID', { action: 'inspect', input: `{${'0'.repeat(255)}` }, 422, 'INVALID_INPUT'),
  ],
  mcpTasks: [
    { task: 'generate a uuid', arguments: {}, check: (data) => assert.match(String(data.result), /^[0-9a-f-]{36}$/) },
    {
      task: 'which uuid version is this and when was it created',
      arguments: { action: 'inspect', input: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F' },
      check: (data) => assert.deepEqual([data.version, data.time], [7, '2022-02-22T19:22:22.000Z']),
    },
  ],
  searchWords: ['uuid'],
}
