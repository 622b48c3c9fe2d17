import { fill } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** lines's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('half a million empty lines in natural order', { input: '\n'.repeat(500_000), compare: 'natural' }, 200),
    hostile('100,000 distinct lines counted', { input: Array.from({ length: 100_000 }, (_, i) => `${i}`).join('\n'), action: 'count' }, 200),
    { ...hostile('an ill-formed locale tag', { input: 'a', locale: 'en_US' }, 400, 'VALIDATION_ERROR'), field: 'locale' },
    { ...hostile('a set action without compareTo', { input: 'a', action: 'union' }, 400, 'VALIDATION_ERROR'), field: 'compareTo' },
    { ...hostile('compareTo for an action that takes none', { input: 'a', compareTo: 'b' }, 400, 'VALIDATION_ERROR'), field: 'compareTo' },
  ],
  heavy: [
    { summary: 'one-letter lines sorted in natural order', input: { input: fill('a\n'), compare: 'natural' } },
    {
      summary: 'distinct short lines counted',
      input: { input: Array.from({ length: 170_000 }, (_, i) => i.toString(36)).join('\n'), action: 'count' },
    },
  ],
}
