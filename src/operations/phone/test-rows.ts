import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** phone's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('phone find in 64 KiB of digits and separators', { action: 'find', input: '12 34-56.'.repeat(7281), country: 'US' }, 200),
    hostile('phone find in 64 KiB of plus signs', { action: 'find', input: '+'.repeat(64 * 1024) }, 200),
    hostile('phone find in 64 KiB of plus signs and digits', { action: 'find', input: '+1'.repeat(32 * 1024), country: 'US' }, 200),
    hostile('phone find of 4,000 numbers, past the 1,000 answered', { action: 'find', input: '+41446681800 '.repeat(4000) }, 200),
    { ...hostile('phone parse of 64 KiB of digits', { input: '9'.repeat(64 * 1024) }, 422, 'INVALID_INPUT'), message: /more than the 250/ },
    { ...hostile('phone parse of a national number without a country', { input: '(213) 373-4253' }, 422, 'INVALID_INPUT'), message: /give `country`/ },
    {
      ...hostile('phone parse with a region libphonenumber does not know', { input: '+41446681800', country: 'ZZ' }, 400, 'VALIDATION_ERROR'),
      field: 'country',
    },
    { ...hostile('phone text past 64 KiB', { action: 'find', input: '1'.repeat(64 * 1024 + 1) }, 400, 'VALIDATION_ERROR'), field: 'input' },
  ],
  heavy: [
    {
      summary: 'find in the longest text of numbers, more than the 1,000 answered',
      input: { action: 'find', input: '+41446681800 '.repeat(Math.floor((64 * 1024) / 13)) },
    },
    {
      summary: 'find in the longest text of digits and separators',
      input: { action: 'find', input: '12 34-56.'.repeat(7281), country: 'US' },
    },
  ],
  mcpTasks: [
    {
      task: 'is this phone number valid and what is it in e164 format',
      arguments: { input: '044 668 18 00', country: 'CH' },
      check: (data) => assert.deepEqual([data.result, data.valid], ['+41446681800', true]),
    },
  ],
}
