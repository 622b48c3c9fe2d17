import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** slug's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [hostile('slug of 1 MiB of separators', { input: ' -'.repeat(500_000) }, 200)],
}
