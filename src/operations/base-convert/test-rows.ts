import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** base-convert's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [hostile('base-convert of 10,001 digits', { input: '9'.repeat(10_001) }, 422, 'LIMIT_EXCEEDED')],
}
