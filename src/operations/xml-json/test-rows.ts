import { fill } from '../../../test/heavy-builders.ts'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** xml-json's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  heavy: [
    { summary: 'one element of empty elements', input: { input: `<r>${fill('<a/>')}</r>` } },
    { summary: 'jsonToXml of empty elements', input: { action: 'jsonToXml', input: `{"r":{"a":[${fill('{},')}{}]}}` } },
  ],
}
