import { zeros } from '../../../test/heavy-builders.ts'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** compress's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  heavy: [
    ...[9, 10.5, 11, 12, 13].map((mebibytes) => ({
      summary: `${mebibytes} MiB of zeros decompressed as text`,
      input: { action: 'decompress', input: zeros(mebibytes) },
    })),
    { summary: 'zeros decompressed as latin1', input: { action: 'decompress', input: zeros(8), outputEncoding: 'latin1' } },
  ],
}
