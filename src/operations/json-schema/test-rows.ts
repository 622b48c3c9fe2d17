import assert from 'node:assert/strict'
import { deepArray, deepObject } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** json-schema's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('json-schema with a schema nested 100,000 deep', { input: 1, schema: deepObject(100_000) }, 422, 'LIMIT_EXCEEDED'),
    hostile('json-schema with an instance nested 100,000 deep', { input: deepArray(100_000), schema: {} }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'json-schema $ref to the cloud metadata address: refused, never fetched',
      { input: 1, schema: { $ref: 'http://169.254.169.254/latest/meta-data/' } },
      422,
      'INVALID_INPUT',
    ),
    hostile('json-schema $ref to a file: refused, never read', { input: 1, schema: { $ref: 'file:///etc/passwd' } }, 422, 'INVALID_INPUT'),
    hostile('json-schema $ref to itself, recursing without end', { input: 1, schema: { $ref: '#' } }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'json-schema uniqueItems over 20,000 objects',
      { input: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}` })), schema: { uniqueItems: true } },
      200,
    ),
    hostile('json-schema const of an object with a valueOf member', { input: { valueOf: null }, schema: { const: { valueOf: null } } }, 200),
  ],
  mcpTasks: [
    {
      task: 'validate json against a schema',
      arguments: { input: { id: 0 }, schema: { properties: { id: { minimum: 1 } } } },
      check: (data) => assert.equal(data.result, false),
    },
  ],
}
