import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** morse's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile(
      'morse of 1 MiB of zeros amplifies past the output limit',
      { input: '0'.repeat(1_000_000), letterSeparator: '        ', dot: '........', dash: '--------' },
      422,
      'LIMIT_EXCEEDED',
    ),
  ],
}
