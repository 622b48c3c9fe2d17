import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** regex's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    // A catastrophic ECMAScript pattern is tested in src/operations/regex.test.ts, on a worker: these run in process too, where nothing could stop it.
    hostile(
      'regex re2 with a nested quantifier over 1,000,000 characters, linear',
      { pattern: '(a+)+$', input: `${'a'.repeat(1_000_000)}!`, flavor: 're2', action: 'test' },
      200,
    ),
    hostile('regex empty pattern over 1,000,000 characters, stopped at maxMatches', { pattern: '(?:)', input: 'a'.repeat(1_000_000) }, 200),
    hostile(
      'regex replacement of $` at every position of 1,000,000 characters, refused before it is built',
      { pattern: '(?:)', input: 'a'.repeat(1_000_000), action: 'replace', replacement: '$`' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('regex split into 1,000,001 pieces', { pattern: '(?:)', input: 'a'.repeat(1_000_000), action: 'split' }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'regex split capturing the rest of the text at every position',
      { pattern: '(?=([^]*))', input: 'a'.repeat(100_000), action: 'split' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('regex of groups nested 4,999 deep', { pattern: `${'('.repeat(4999)}a${')'.repeat(4999)}`, input: 'a' }, 200),
    hostile('regex re2 of groups nested 4,999 deep', { pattern: `${'('.repeat(4999)}a${')'.repeat(4999)}`, input: 'a', flavor: 're2' }, 422, 'INVALID_INPUT'),
    hostile('regex of 10,000 unclosed groups', { pattern: '('.repeat(10_000), input: 'a' }, 422, 'INVALID_INPUT'),
    hostile('regex re2 with a lookahead', { pattern: '(?=a)', input: 'a', flavor: 're2' }, 422, 'INVALID_INPUT'),
    { ...hostile('regex re2 with the sticky flag', { pattern: 'a', input: 'a', flavor: 're2', flags: 'y' }, 400, 'VALIDATION_ERROR'), field: 'flags' },
    { ...hostile('regex replacement for match', { pattern: 'a', input: 'a', replacement: 'b' }, 400, 'VALIDATION_ERROR'), field: 'replacement' },
  ],
  heavy: [
    {
      summary: 'an empty match at every position, as many as may be asked',
      input: { pattern: '(?:)', input: fill('a'), maxMatches: 100_000 },
    },
    { summary: 'a group at every character', input: { pattern: '(.)', input: fill('a'), maxMatches: 100_000 } },
    { summary: 'the rest of the text captured at every match', input: { pattern: '(?=([^]*))', input: fill('a'), maxMatches: 100_000 } },
    {
      summary: 'replacing every position with all that comes before it',
      input: { pattern: '(?:)', input: fill('a'), action: 'replace', replacement: '$`' },
    },
    { summary: 'split at every character', input: { pattern: '(?:)', input: fill('a'), action: 'split', limit: 100_000 } },
    { summary: 're2, an empty match at every position', input: { pattern: '(?:)', input: fill('a'), flavor: 're2', maxMatches: 100_000 } },
  ],
  mcpTasks: [
    {
      task: 'find all matches of a regular expression',
      arguments: { pattern: '\\d+', input: 'a1b22' },
      check: (data) =>
        assert.deepEqual(
          (data.result as Array<{ match: string }>).map((match) => match.match),
          ['1', '22'],
        ),
    },
  ],
  searchWords: ['regex'],
}
