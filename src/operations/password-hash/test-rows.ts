import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** password-hash's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile(
      'password-hash verify of sha512-crypt naming the specification’s 999,999,999 rounds',
      { action: 'verify', input: 'x', hash: `$6$rounds=999999999$salt$${'a'.repeat(86)}` },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'password-hash sha512-crypt of 4,096 bytes at 1,000,000 rounds',
      { input: 'x'.repeat(4096), algorithm: 'sha512-crypt', rounds: 1_000_000 },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'password-hash verify of a $6$ hash one character short',
      { action: 'verify', input: 'x', hash: `$6$salt$${'a'.repeat(85)}` },
      422,
      'INVALID_INPUT',
    ),
  ],
  heavy: [
    {
      summary: 'argon2id with its most memory and threads',
      input: { input: 'p'.repeat(4096), memoryKiB: 65_536, parallelism: 16 },
    },
  ],
}
