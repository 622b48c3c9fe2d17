import assert from 'node:assert/strict'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** url's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  mcpTasks: [{ task: 'url encode a string', arguments: { input: 'a b' }, check: (data) => assert.equal(data.result, 'a%20b') }],
  searchWords: ['url'],
}
