import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** chmod's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('chmod of 250 clauses, the last with a bad letter', { input: `${'u+x,'.repeat(249)}u+q`, base: '644' }, 422, 'INVALID_INPUT'),
    hostile('chmod of 999 characters of clauses', { input: `${'a+X,'.repeat(249)}u+x`, base: '644' }, 200),
    hostile('chmod of an octal mode of 1,000 digits', { input: '7'.repeat(1000) }, 422, 'INVALID_INPUT'),
    { ...hostile('chmod of a relative change without base', { input: 'u+x' }, 422, 'INVALID_INPUT'), message: /base is required/ },
    { ...hostile('chmod umask with a special bit', { input: '4022', action: 'umask' }, 422, 'INVALID_INPUT'), message: /special bits/ },
    { ...hostile('chmod umask given a base', { input: '022', action: 'umask', base: '644' }, 400, 'VALIDATION_ERROR'), field: 'base' },
  ],
  mcpTasks: [
    {
      task: 'what are rwxr-xr-x file permissions in octal',
      arguments: { input: 'rwxr-xr-x' },
      check: (data) => assert.equal(data.result, '0755'),
    },
  ],
}
