import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** lorem-ipsum's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [hostile('lorem-ipsum paragraphs past the unit cap', { unit: 'paragraphs', count: 101 }, 400, 'VALIDATION_ERROR')],
}
