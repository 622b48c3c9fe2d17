import assert from 'node:assert/strict'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** base64's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  mcpTasks: [{ task: 'base64 decode', arguments: { input: 'aGk=', action: 'decode' }, check: (data) => assert.equal(data.result, 'hi') }],
  // Said alone, "decode" and "encode" mean Base64 more than any other encoding; URL encoding is asked for as "url encode".
  searchWords: ['base64', 'decode', 'encode'],
}
