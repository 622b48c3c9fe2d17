import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** password's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [hostile('password length too large', { length: 1_000_000 }, 400, 'VALIDATION_ERROR')],
  searchWords: ['password'],
}
