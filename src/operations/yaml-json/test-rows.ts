import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import { BILLION_LAUGHS, deepArray, deepObject } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** yaml-json's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('YAML alias bomb (billion laughs)', { input: BILLION_LAUGHS }, 422, 'LIMIT_EXCEEDED'),
    hostile('YAML nested 5,000 flow sequences', { input: '['.repeat(5000) + ']'.repeat(5000) }, 422, 'LIMIT_EXCEEDED'),
    hostile('YAML nested 5,000 flow maps', { input: `${'{a: '.repeat(5000)}1${'}'.repeat(5000)}` }, 422, 'LIMIT_EXCEEDED'),
    hostile('YAML nested 300 block maps', { input: `${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1` }, 422, 'LIMIT_EXCEEDED'),
    hostile('YAML undefined alias', { input: 'a: *nowhere' }, 422, 'INVALID_INPUT'),
    hostile('YAML duplicate keys', { input: 'a: 1\na: 2' }, 422, 'INVALID_INPUT'),
    hostile('YAML executable tag', { input: 'a: !!js/function "function(){ return process.exit(1) }"' }, 200),
    hostile('JSON nested 100,000 deep to jsonToYaml', { action: 'jsonToYaml', input: deepArray(100_000) }, 422, 'LIMIT_EXCEEDED'),
    hostile('JSON nested 101 deep to jsonToYaml', { action: 'jsonToYaml', input: deepObject(101) }, 422, 'LIMIT_EXCEEDED'),
  ],
  heavy: [
    { summary: 'a flow sequence of small integers', input: { input: `[${fill('0,')}0]` } },
    {
      summary: 'a block sequence of aliases',
      input: { input: `- &a [0, 0, 0, 0, 0, 0, 0, 0]\n${fill('- *a\n')}` },
      manySmallObjects: true,
    },
    {
      summary: 'jsonToYaml of one array of small integers',
      input: { action: 'jsonToYaml', input: `[${fill('0,')}0]` },
      // The yaml library writes it through a node object per element; with the whole registry loaded in
      // the worker, those fill the heap on Node 24, where they fit on Node 22.
      manySmallObjects: true,
    },
  ],
  mcpTasks: [{ task: 'convert yaml to json', arguments: { input: 'a: 1' }, check: (data) => assert.deepEqual(data.result, { a: 1 }) }],
  searchWords: ['yaml'],
}
