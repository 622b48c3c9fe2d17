import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** random-string's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [hostile('random-string length × count over the cap', { length: 4096, count: 1000 }, 400, 'VALIDATION_ERROR')],
}
