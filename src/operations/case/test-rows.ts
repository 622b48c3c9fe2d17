import { fill } from '../../../test/heavy-builders.ts'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** case's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  heavy: [
    { summary: 'one-letter words to camelCase', input: { input: fill('a '), to: 'camel' } },
    { summary: 'the character whose upper case is longest, upper-cased', input: { input: fill('\u0390'), to: 'upper' } },
  ],
}
