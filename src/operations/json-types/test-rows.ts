import assert from 'node:assert/strict'
import { fill, HALF } from '../../../test/heavy-builders.ts'
import { deepArray } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** json-types's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('json-types with a sample nested 100,000 deep', { input: deepArray(100_000) }, 422, 'LIMIT_EXCEEDED'),
    hostile('json-types with JSON text nested 100,000 deep', { input: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'json-types of a sample whose $ref names the cloud metadata address: data, never fetched',
      { input: { $ref: 'http://169.254.169.254/latest/meta-data/', next: { $ref: 'file:///etc/passwd' } }, language: 'go' },
      200,
    ),
    hostile(
      'json-types of keys that are no identifier in any language',
      { input: { '': 1, '1': 2, 'a b': 3, class: 4, __proto__x: 5, 'é€😀': 6 }, language: 'csharp' },
      200,
    ),
    hostile(
      'json-types of 20,000 records as Swift with its helpers',
      { input: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `n${i}`, at: null })), language: 'swift', justTypes: false },
      200,
    ),
    hostile('json-types with multipleSamples and no samples', { input: [], multipleSamples: true }, 422, 'INVALID_INPUT'),
    {
      ...hostile('json-types with a root name that would inject code', { input: 1, rootName: 'Root{}; evil()' }, 400, 'VALIDATION_ERROR'),
      field: 'rootName',
    },
    {
      ...hostile('json-types with a package name that would inject code', { input: 1, language: 'go', packageName: 'x\nimport "os"' }, 400, 'VALIDATION_ERROR'),
      field: 'packageName',
    },
  ],
  heavy: [
    {
      summary: 'a key and a string as long as a body allows, in Java with its helpers, where the key is written most often',
      input: { input: { [fill('k', HALF)]: fill('v', HALF) }, language: 'java', justTypes: false },
    },
    { summary: 'one array of small integers', input: { input: `[${fill('0,')}0]` } },
    { summary: 'one array of empty objects', input: { input: `[${fill('{},')}{}]` } },
  ],
  mcpTasks: [
    {
      task: 'generate typescript interfaces from json',
      arguments: { input: { id: 1, name: 'Ada' } },
      check: (data) => assert.match(String(data.result), /^export interface Root \{/),
    },
  ],
}
