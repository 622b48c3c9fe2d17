import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** cipher's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile(
      'cipher decrypt of 700 KiB of CBC blocks under the wrong key',
      { action: 'decrypt', algorithm: 'aes-256-cbc', key: '00'.repeat(32), iv: '00'.repeat(16), input: Buffer.alloc(700 * 1024).toString('base64') },
      422,
      'INVALID_INPUT',
    ),
    hostile(
      'cipher decrypt of 700 KiB of GCM with a wrong tag',
      { action: 'decrypt', key: '00'.repeat(32), iv: '00'.repeat(12), tag: '00'.repeat(16), input: Buffer.alloc(700 * 1024).toString('base64') },
      422,
      'INVALID_INPUT',
    ),
    {
      ...hostile(
        'cipher decrypt with a GCM tag cut to 4 bytes',
        { action: 'decrypt', key: '00'.repeat(32), iv: '00'.repeat(12), tag: '58e2fcce', input: '' },
        422,
        'INVALID_INPUT',
      ),
      message: /tag is 4 bytes/,
    },
    {
      ...hostile('cipher with scrypt asking for 1 GiB', { input: 'x', passphrase: 'p', kdf: 'scrypt', logN: 20, blockSize: 32 }, 400, 'VALIDATION_ERROR'),
      field: 'logN',
    },
    {
      ...hostile('cipher with both a key and a passphrase', { input: 'x', key: '00'.repeat(32), passphrase: 'p' }, 400, 'VALIDATION_ERROR'),
      field: 'key',
    },
    { ...hostile('cipher with a key of 1,024 hex digits', { input: 'x', key: '0'.repeat(1024) }, 400, 'VALIDATION_ERROR'), field: 'key' },
    hostile(
      'cipher decrypt of openssl output without its header',
      { action: 'decrypt', format: 'openssl', input: 'AAAA', passphrase: 'p' },
      422,
      'INVALID_INPUT',
    ),
    hostile(
      'cipher decrypt of a combined value of 3 bytes',
      { action: 'decrypt', format: 'combined', input: 'AAAA', key: '00'.repeat(32) },
      422,
      'INVALID_INPUT',
    ),
    hostile('cipher encrypt of 700 KiB to hex', { input: 'a'.repeat(700 * 1024), key: '00'.repeat(32), outputEncoding: 'hex' }, 200),
  ],
  heavy: [
    {
      summary: 'the longest plaintext, encrypted into a combined value written as hex',
      input: { input: fill('\u00e9'), key: '00'.repeat(32), format: 'combined', outputEncoding: 'hex' },
    },
  ],
  mcpTasks: [
    {
      task: 'decrypt this openssl aes-256-cbc encrypted text with my passphrase',
      arguments: {
        action: 'decrypt',
        format: 'openssl',
        input: 'U2FsdGVkX18d5LqufG/1Q2plozpaoj2gwLEj+eDVMZg=',
        passphrase: 'correct-horse',
        iterations: 10_000,
      },
      check: (data) => assert.equal(data.result, 'hello devutils'),
    },
  ],
}
