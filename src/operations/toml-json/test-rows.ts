import { fill } from '../../../test/heavy-builders.ts'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** toml-json's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  heavy: [
    { summary: 'one array of small integers', input: { input: `a=[${fill('0,')}0]` } },
    { summary: 'one array of empty inline tables', input: { input: `a=[${fill('{},')}{}]` }, manySmallObjects: true },
    { summary: 'jsonToToml of one array of small integers', input: { action: 'jsonToToml', input: `{"a":[${fill('0,')}0]}` } },
  ],
}
