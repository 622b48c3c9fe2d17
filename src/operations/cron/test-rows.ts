import assert from 'node:assert/strict'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** cron's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  mcpTasks: [{ task: 'next cron run', arguments: { input: '0 9 * * 1' }, check: (data) => assert.ok(data.description) }],
  searchWords: ['cron'],
}
