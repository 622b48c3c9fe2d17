import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** check-digit's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    {
      ...hostile(
        'check-digit of a letter inside a card number: its position, not a 500',
        { input: '4111 1111 a111 1111', scheme: 'card' },
        422,
        'INVALID_INPUT',
      ),
      message: /position 10/,
    },
    {
      ...hostile('check-digit of 64 nines as a card number', { input: '9'.repeat(64), scheme: 'card' }, 422, 'INVALID_INPUT'),
      message: /8 to 19 characters/,
    },
    hostile('check-digit of 64 digits under Verhoeff, Damm and MOD 97-10 (the longest input)', { input: '9'.repeat(64), scheme: 'verhoeff' }, 200),
    hostile('check-digit of 64 hyphens (nothing left to check)', { input: '-'.repeat(64), scheme: 'damm' }, 422, 'INVALID_INPUT'),
    hostile('check-digit of an emoji run', { input: '\u{1F4B3}'.repeat(32), scheme: 'isbn' }, 422, 'INVALID_INPUT'),
    { ...hostile('check-digit of 65 characters', { input: '1'.repeat(65) }, 400, 'VALIDATION_ERROR'), field: 'input' },
  ],
  mcpTasks: [
    {
      task: 'is this credit card number valid (luhn check)',
      arguments: { input: '4111 1111 1111 1111', scheme: 'card' },
      check: (data) => assert.deepEqual([data.valid, data.brand], [true, 'visa']),
    },
  ],
}
