import { fill } from '../../../test/heavy-builders.ts'
import { JsonText } from '../../../test/helpers.ts'
import { deepArray } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** csv-json's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('JSON nested 100,000 deep to jsonToCsv', { action: 'jsonToCsv', input: new JsonText(`[{"a":${deepArray(100_000).text}}]`) }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'CSV that amplifies into huge JSON',
      {
        input: `${Array.from({ length: 1000 }, (_, i) => `a_column_name_long_enough_to_be_repeated_in_every_row_${i}`).join(',')}\n${Array.from({ length: 600 }, () => ','.repeat(999)).join('\n')}`,
      },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('CSV unclosed quote', { input: 'a,b\n"1,2\n3,4' }, 422, 'INVALID_INPUT'),
    hostile('CSV __proto__ header is an ordinary key', { input: '__proto__,constructor\n1,2' }, 200),
  ],
  heavy: [
    { summary: 'one row of empty cells', input: { input: fill(','), header: false } },
    { summary: 'a header of empty names', input: { input: `${fill(',')}\n` } },
    { summary: 'empty lines, kept', input: { input: fill('\n'), header: false, skipEmptyLines: false }, manySmallObjects: true },
    { summary: 'jsonToCsv of empty rows', input: { action: 'jsonToCsv', input: `[${fill('[],')}[]]` } },
  ],
}
