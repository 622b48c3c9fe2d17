import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** json's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  heavy: [
    { summary: 'formatting many small values', input: { input: `[${fill('0,')}0]`, indent: 8 } },
    { summary: 'a query matching every value', input: { input: `[${fill('0,')}0]`, action: 'query', path: '$[*]' } },
    {
      summary: 'a query matching every value many times over',
      input: { input: `[${Array(1000).fill(0).join(',')}]`, action: 'query', path: `$[${Array(2000).fill('*').join(',')}]` },
    },
  ],
  mcpTasks: [{ task: 'prettify json', arguments: { input: '{"a":1}' }, check: (data) => assert.equal(data.result, '{\n  "a": 1\n}') }],
  searchWords: ['json'],
}
