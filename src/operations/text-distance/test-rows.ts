import { fill, HALF } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** text-distance's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile(
      'text-distance of two texts of 20,000 units each, past the cell limit',
      { input: 'a'.repeat(20_000), compareTo: 'b'.repeat(20_000) },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('text-distance of a text of 400,000 characters', { input: 'ab'.repeat(200_000), compareTo: '', metric: 'hamming' }, 422, 'LIMIT_EXCEEDED'),
    hostile('text-distance hamming of unequal lengths', { input: 'abc', compareTo: 'ab', metric: 'hamming' }, 422, 'INVALID_INPUT'),
    hostile('text-distance of 200,000 combining marks in a row', { input: `a${'\u0301\u0316'.repeat(100_000)}`, compareTo: 'a' }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'text-distance of one grapheme of 500,000 code units, not normalized',
      { input: `a${'\u0301'.repeat(499_999)}`, compareTo: 'a', normalize: 'none' },
      200,
    ),
  ],
  heavy: [{ summary: 'two long texts, by code unit', input: { input: fill('a', HALF), compareTo: fill('b', HALF), unit: 'codeUnit' } }],
}
