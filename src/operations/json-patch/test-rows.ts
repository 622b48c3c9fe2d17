import { fill, HALF } from '../../../test/heavy-builders.ts'
import { deepArray, deepObject } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** json-patch's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile(
      'JSON Patch copying the whole document into itself 40 times (doubling it each time)',
      { input: { text: 'x'.repeat(1000) }, patch: Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '', path: `/copy${i}` })) },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'JSON Patch of 10,001 operations',
      { input: {}, patch: Array.from({ length: 10_001 }, () => ({ op: 'test', path: '', value: {} })) },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('JSON nested 100,000 deep to json-patch', { input: deepArray(100_000), patch: [] }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'JSON Patch nesting past 100 levels by a copy',
      { input: deepObject(60), patch: [{ op: 'copy', from: '/a', path: `${'/a'.repeat(59)}/b` }] },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'JSON Patch writing __proto__ (in JSON text) as an ordinary key',
      { input: '{"__proto__":{}}', patch: '[{"op":"add","path":"/__proto__/polluted","value":1}]' },
      200,
    ),
    hostile('JSON Patch with a leading zero in an array index', { input: [1, 2], patch: [{ op: 'test', path: '/01', value: 2 }] }, 422, 'INVALID_INPUT'),
  ],
  heavy: [
    {
      summary: 'copies of a member of about a mebibyte, one after another',
      input: {
        input: { a: fill('0', 4096) },
        patch: Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: i === 0 ? '/a' : `/c${i - 1}`, path: `/c${i}` })),
      },
    },
    {
      summary: 'a diff of two long arrays, all changed',
      input: { action: 'diff', input: `[${fill('0,', HALF)}0]`, compareTo: `[${fill('1,', HALF)}1]` },
    },
  ],
}
