import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** hash's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('hash unknown algorithm', { input: 'x', algorithm: 'sha257' }, 400, 'VALIDATION_ERROR'),
    hostile('hash shake128 without a length', { input: 'x', algorithm: 'shake128' }, 400, 'VALIDATION_ERROR'),
    {
      ...hostile('hash a length with a fixed-size algorithm', { input: 'x', algorithm: 'sha256', length: 256 }, 400, 'VALIDATION_ERROR'),
      field: 'length',
    },
    hostile('hash 1 MiB through SHAKE256 with the longest output', { input: 'a'.repeat(1_000_000), algorithm: 'shake256', length: 16_384 }, 200),
  ],
  mcpTasks: [
    {
      task: 'keccak-256 hash as ethereum computes it',
      arguments: { input: '', algorithm: 'keccak-256' },
      check: (data) => assert.match(String(data.result), /^c5d2460186f7233c/),
    },
    {
      task: 'sha256 of a text',
      arguments: { input: 'abc', algorithm: 'sha256' },
      check: (data) => assert.match(String(data.result), /^ba7816bf/),
    },
  ],
  searchWords: ['sha256', 'sha', 'md5'],
}
