import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** ip-address's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [hostile('ip-address unique past a /30', { cidr: '10.0.0.0/30', count: 5, unique: true }, 400, 'VALIDATION_ERROR')],
}
