import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** string-escape's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('string-escape of 250,000 emoji as C octal escapes, 16 characters each', { input: '😀'.repeat(250_000), language: 'c', asciiOnly: true }, 200),
    hostile('string-escape unescape of one C hex escape of 200,000 digits', { input: `\\x${'0'.repeat(200_000)}41`, language: 'c', action: 'unescape' }, 200),
    hostile('string-escape unescape of 100,000 escaped lone surrogates', { input: '\\ud800'.repeat(100_000), action: 'unescape' }, 422, 'INVALID_INPUT'),
    hostile('string-escape of NUL as a shell argument', { input: 'a\u0000b', language: 'shell' }, 422, 'INVALID_INPUT'),
    {
      ...hostile('string-escape with a quote the language has not', { input: 'x', language: 'json', quote: 'single' }, 400, 'VALIDATION_ERROR'),
      field: 'quote',
    },
  ],
  mcpTasks: [
    {
      task: 'escape a string for a python literal',
      arguments: { input: "it's\n", language: 'python' },
      check: (data) => assert.equal(data.result, "it\\'s\\n"),
    },
  ],
}
