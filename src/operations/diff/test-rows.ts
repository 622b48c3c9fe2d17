import { fill, HALF } from '../../../test/heavy-builders.ts'
import type { OperationTestRows } from '../../../test/test-rows.ts'

/** diff's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  heavy: [
    { summary: 'characters of one text against nothing', input: { input: fill('é'), compareTo: '', mode: 'chars' } },
    { summary: 'two equal texts of one-letter words', input: { input: fill('a ', HALF), compareTo: fill('a ', HALF), mode: 'words' } },
    {
      summary: 'two texts of empty lines, all of them context',
      input: { input: fill('\n', HALF), compareTo: `x${fill('\n', HALF)}`, context: 10_000 },
    },
  ],
  searchWords: ['diff'],
}
