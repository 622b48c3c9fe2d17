import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** checksum's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    {
      ...hostile('checksum unknown CRC name of the longest length', { input: 'x', algorithm: 'Q'.repeat(64) }, 400, 'VALIDATION_ERROR'),
      field: 'algorithm',
    },
    {
      ...hostile(
        'checksum CRC parameters wider than 64 bits',
        { input: 'x', crc: { width: 82, poly: '1', refin: true, refout: true } },
        400,
        'VALIDATION_ERROR',
      ),
      field: 'crc.width',
    },
    {
      ...hostile(
        'checksum a polynomial wider than its width',
        { input: 'x', crc: { width: 3, poly: 'ffff', refin: false, refout: false } },
        400,
        'VALIDATION_ERROR',
      ),
      field: 'crc.poly',
    },
    {
      ...hostile(
        'checksum both a name and parameters',
        { input: 'x', algorithm: 'CRC-32', crc: { width: 8, poly: '7', refin: false, refout: false } },
        400,
        'VALIDATION_ERROR',
      ),
      field: 'crc',
    },
    hostile('checksum of 1 MiB through the 82-bit CRC', { input: 'a'.repeat(1_000_000), algorithm: 'CRC-82/DARC' }, 200),
    hostile('checksum of 64 KiB through every algorithm, identifying a value', { input: 'a'.repeat(64 * 1024), algorithm: 'all', expected: '0xcbf43926' }, 200),
    {
      ...hostile('checksum of 1 MiB through every algorithm', { input: 'a'.repeat(1_000_000), algorithm: 'all' }, 422, 'LIMIT_EXCEEDED'),
      message: /all reads at most 65,536 bytes/,
    },
  ],
  heavy: [
    { summary: 'the 82-bit CRC, in BigInts, of the longest input', input: { input: fill('a'), algorithm: 'CRC-82/DARC' } },
    { summary: 'every algorithm over the longest input all reads', input: { input: 'a'.repeat(64 * 1024), algorithm: 'all' } },
  ],
  mcpTasks: [
    {
      task: 'crc16 modbus checksum of a message',
      arguments: { input: '123456789', algorithm: 'CRC-16/MODBUS' },
      check: (data) => assert.equal(data.result, '4b37'),
    },
    {
      task: 'which crc algorithm gives this check value',
      arguments: { input: '123456789', algorithm: 'all', expected: '0xcbf43926' },
      check: (data) => assert.deepEqual(data.matching, ['CRC-32/ISO-HDLC']),
    },
  ],
}
