import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** text-stats's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('text-stats of 1 MiB of sentence terminators, a boundary every two characters', { input: '. '.repeat(500_000), topWords: 100 }, 200),
    hostile('text-stats of 340,000 CJK characters, the slowest words to find', { input: '東京に住んでいます'.repeat(37_000), topWords: 100 }, 200),
    hostile('text-stats of one grapheme of 500,000 combining marks', { input: `a${'\u0301'.repeat(500_000)}` }, 200),
    hostile('text-stats with a locale that is no BCP 47 tag', { input: 'x', locale: 'not a locale' }, 400, 'VALIDATION_ERROR'),
  ],
  heavy: [{ summary: 'one-letter words, the most frequent asked for', input: { input: fill('a '), topWords: 100 } }],
  mcpTasks: [
    {
      task: 'count the words in a text',
      arguments: { input: 'One two three. Four!' },
      check: (data) => assert.equal((data.result as { words: number }).words, 4),
    },
  ],
}
