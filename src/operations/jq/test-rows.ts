import assert from 'node:assert/strict'
import { fill, HALF } from '../../../test/heavy-builders.ts'
import { deepArray } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** jq's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('jq on JSON text nested 100,000 deep', { filter: '.', input: '['.repeat(100_000) }, 422, 'LIMIT_EXCEEDED'),
    hostile('jq on a JSON value nested 100,000 deep', { filter: '.', input: deepArray(100_000) }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'jq building a value 9,999 deep, which breaks its instance',
      { filter: 'reduce range(9999) as $_ ([]; [.]) | tojson', nullInput: true },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('jq giving a billion outputs', { filter: 'range(1e9)', nullInput: true }, 422, 'LIMIT_EXCEEDED'),
    hostile('jq writing a string of 1 MiB a hundred times', { filter: '("x" * 1048576) as $s | range(100) | $s', nullInput: true }, 422, 'LIMIT_EXCEEDED'),
    hostile('jq asking for 300 MB at once', { filter: '"x" * 300000000 | length', nullInput: true }, 422, 'LIMIT_EXCEEDED'),
    hostile('jq importing a file of the host', { filter: 'import "/etc/passwd" as $p; $p', nullInput: true }, 422, 'INVALID_INPUT'),
    hostile(
      'jq with a catastrophic regular expression, stopped by its retry limit',
      { filter: 'test("^(a+)+$")', input: JSON.stringify(`${'a'.repeat(20_000)}!`) },
      422,
      'INVALID_INPUT',
    ),
    hostile(
      'jq with a string variable of 900,000 characters, past what its argument stack holds',
      { filter: '$a | length', args: { a: 'x'.repeat(900_000) } },
      200,
    ),
    hostile(
      'jq with 100 JSON variables of 1 KiB each',
      { filter: '$ARGS.named | length', jsonArgs: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`v${i}`, JSON.stringify('x'.repeat(1024))])) },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('jq over 90,000 small values, one output each', { filter: '.[]', input: `[${'1,'.repeat(90_000)}1]` }, 200),
  ],
  heavy: [
    { summary: 'a stream of small integers, each an output', input: { filter: '.', input: fill('0 ') } },
    { summary: 'one array of small integers, answered as values', input: { filter: '.', input: `[${fill('0,')}0]` } },
    { summary: 'one array of small integers, raw', input: { filter: '.[]', input: `[${fill('0,', HALF)}0]`, output: 'raw' } },
    { summary: 'a generated array of a million integers', input: { filter: '[range(1000000)]', nullInput: true } },
    {
      summary: 'a string of 1 MiB written until the output limit',
      input: { filter: '("x" * 1048576) as $s | range(100) | $s', nullInput: true },
    },
    { summary: 'debug output without end', input: { filter: 'repeat(debug) | empty', nullInput: true } },
  ],
  mcpTasks: [
    {
      task: 'reshape json with a jq filter',
      arguments: { filter: '.users | map(.name)', input: '{"users":[{"name":"Ada"},{"name":"Linus"}]}' },
      check: (data) => assert.deepEqual(data.result, [['Ada', 'Linus']]),
    },
  ],
}
