import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** random-number's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [hostile('random-number unique past the range', { min: 1, max: 10, count: 11, unique: true }, 400, 'VALIDATION_ERROR')],
}
