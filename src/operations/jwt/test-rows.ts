import assert from 'node:assert/strict'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** jwt's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  mcpTasks: [
    {
      task: 'decode this JWT',
      arguments: { action: 'decode', input: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig' },
      check: (data) => assert.match(JSON.stringify(data), /"sub":"123"/),
    },
  ],
  searchWords: ['jwt'],
}
