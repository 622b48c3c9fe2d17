import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** lookup's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('lookup of a port name of 1,000 letters', { table: 'port', input: 'a'.repeat(1000), limit: 500 }, 200),
    hostile('lookup of one letter over every port, 500 rows', { table: 'port', input: 'e', limit: 500 }, 200),
    hostile('lookup of a path of 498 segments', { table: 'mediaType', input: `${'a/'.repeat(497)}a.json` }, 200),
    {
      ...hostile('lookup of a status code of 1,000 digits', { table: 'httpStatus', input: '9'.repeat(1000) }, 400, 'VALIDATION_ERROR'),
      field: 'input',
    },
    { ...hostile('lookup of port 65536', { table: 'port', input: 65536 }, 400, 'VALIDATION_ERROR'), field: 'input' },
    { ...hostile('lookup of a port with an unknown protocol', { table: 'port', input: '22/icmp' }, 400, 'VALIDATION_ERROR'), field: 'input' },
    { ...hostile('lookup of status class 9xx', { table: 'httpStatus', input: '9xx' }, 400, 'VALIDATION_ERROR'), field: 'input' },
    hostile('lookup of an unassigned status code', { table: 'httpStatus', input: 599 }, 200),
  ],
  mcpTasks: [
    {
      task: 'what does http status code 422 mean',
      arguments: { table: 'httpStatus', input: 422 },
      check: (data) => assert.equal((data.result as { title: string }).title, 'Unprocessable Content'),
    },
  ],
}
