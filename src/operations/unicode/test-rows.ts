import type { OperationTestRows } from '../../../test/test-rows.ts'

/** unicode's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  heavy: [
    { summary: 'inspecting the longest input', input: { input: '\u00e9'.repeat(256 * 1024) } },
    {
      summary: 'NFKD of the character that decomposes furthest',
      input: { input: '\ufdfa'.repeat(256 * 1024), action: 'normalize', form: 'NFKD' },
    },
  ],
}
