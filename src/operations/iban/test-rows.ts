import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** iban's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    { ...hostile('iban of a country without IBANs: a 200 that says so', { input: 'US64SVBKUS6S3300958879' }, 200) },
    { ...hostile('iban of 64 characters of punctuation', { input: '.'.repeat(64) }, 422, 'INVALID_INPUT'), message: /position 0/ },
    hostile('iban of 60 digits after GB82 (far past any length)', { input: 'GB82'.padEnd(64, '9') }, 200),
    {
      ...hostile('iban compose for a country without IBANs', { action: 'compose', country: 'US', bban: '123' }, 422, 'INVALID_INPUT'),
      message: /country has no IBAN/,
    },
    { ...hostile('iban compose without a bban', { action: 'compose', country: 'DE' }, 400, 'VALIDATION_ERROR'), field: 'bban' },
    { ...hostile('iban with a __proto__ country code', { input: 'PR00__proto__' }, 422, 'INVALID_INPUT') },
  ],
  mcpTasks: [
    {
      task: 'validate an IBAN bank account number',
      arguments: { input: 'GB82 WEST 1234 5698 7654 32' },
      check: (data) => assert.deepEqual([data.valid, data.country, data.bankCode], [true, 'GB', 'WEST']),
    },
  ],
}
