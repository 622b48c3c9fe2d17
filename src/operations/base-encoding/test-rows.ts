import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** base-encoding's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    {
      ...hostile(
        'base-encoding base58 decode of a mebibyte of text',
        { input: 'z'.repeat(1_000_000), action: 'decode', encoding: 'base58' },
        422,
        'LIMIT_EXCEEDED',
      ),
      message: /more than 4096 characters/,
    },
    hostile(
      'base-encoding base62 of 2,049 bytes, one past its bound',
      { input: 'ff'.repeat(2049), inputEncoding: 'hex', encoding: 'base62' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'base-encoding base36 decode at its bound of 4,096 characters',
      { input: 'z'.repeat(4096), action: 'decode', encoding: 'base36', outputEncoding: 'hex' },
      200,
    ),
    hostile(
      'base-encoding Ascii85 decode of 500,000 z, each four zero bytes',
      { input: 'z'.repeat(500_000), action: 'decode', encoding: 'ascii85', outputEncoding: 'base64' },
      200,
    ),
    hostile(
      'base-encoding bech32 decode of 100,000 characters',
      { input: `bc1${'q'.repeat(100_000)}`, action: 'decode', encoding: 'bech32' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('base-encoding base45 triple past two bytes', { input: 'GGW', action: 'decode', encoding: 'base45' }, 422, 'INVALID_INPUT'),
    hostile('base-encoding Z85 group past four bytes', { input: '#####', action: 'decode', encoding: 'z85' }, 422, 'INVALID_INPUT'),
    { ...hostile('base-encoding with an HRP for base58', { input: 'x', encoding: 'base58', hrp: 'bc' }, 400, 'VALIDATION_ERROR'), field: 'hrp' },
    { ...hostile('base-encoding bech32 encode without an HRP', { input: 'x', encoding: 'bech32' }, 400, 'VALIDATION_ERROR'), field: 'hrp' },
  ],
  heavy: [
    {
      summary: 'Ascii85 z, each four zero bytes, written as hex',
      input: { input: fill('z'), action: 'decode', encoding: 'ascii85', outputEncoding: 'hex' },
    },
    { summary: 'base45 of one-byte characters', input: { input: fill('a'), encoding: 'base45' } },
    { summary: 'base58 of text past its bound', input: { input: fill('a'), encoding: 'base58' } },
  ],
  mcpTasks: [
    {
      task: 'decode this base58check bitcoin address to hex',
      arguments: { input: '1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs', action: 'decode', encoding: 'base58check', outputEncoding: 'hex' },
      check: (data) => assert.equal(data.result, '00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31'),
    },
  ],
}
