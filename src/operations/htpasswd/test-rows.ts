import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** htpasswd's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    { ...hostile('htpasswd user name with a colon', { username: 'a:b', password: 'x' }, 400, 'VALIDATION_ERROR'), field: 'username' },
    { ...hostile('htpasswd user name with a newline', { username: 'a\nb:$apr1$', password: 'x' }, 400, 'VALIDATION_ERROR'), field: 'username' },
    hostile('htpasswd verify of a bcrypt line of cost 31', { action: 'verify', password: 'x', input: `u:$2y$31$${'C'.repeat(53)}` }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'htpasswd verify of a bcrypt line one character short',
      { action: 'verify', password: 'x', input: `u:$2y$05$${'C'.repeat(52)}` },
      422,
      'INVALID_INPUT',
    ),
    hostile('htpasswd verify of a DES crypt line', { action: 'verify', password: 'x', input: 'u:rOVMBaE2bF5ec' }, 422, 'INVALID_INPUT'),
    hostile(
      'htpasswd verify of a file of 87,000 empty users, the one asked for last',
      { action: 'verify', username: 'last', password: 'myPassword', input: `${':\n'.repeat(87_000)}last:{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE=` },
      200,
    ),
    hostile(
      'htpasswd sha256-crypt at 1,000,000 rounds of a 4,096-byte password',
      { username: 'u', password: 'x'.repeat(4096), algorithm: 'sha256-crypt', rounds: 1_000_000 },
      422,
      'LIMIT_EXCEEDED',
    ),
  ],
  heavy: [
    {
      summary: 'verify against the last of 87,000 lines of a file at the longest input',
      input: { action: 'verify', username: 'last', password: 'myPassword', input: `${'a:\n'.repeat(87_000)}last:{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE=` },
    },
    {
      summary: 'sha512-crypt at 1,000,000 rounds with the longest password the work bound allows',
      input: { username: 'u', password: 'p'.repeat(200), algorithm: 'sha512-crypt', rounds: 1_000_000 },
    },
  ],
  mcpTasks: [
    {
      task: 'htpasswd line for basic auth',
      arguments: { username: 'alice', password: 'secret', algorithm: 'sha1' },
      check: (data) => assert.equal(data.result, 'alice:{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ='),
    },
  ],
}
