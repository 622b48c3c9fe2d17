import type { OperationTestRows } from '../../../test/test-rows.ts'

/** color's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  searchWords: ['color'],
}
