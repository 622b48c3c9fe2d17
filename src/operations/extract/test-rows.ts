import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** extract's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('extract over half a mebibyte of almost-domains (a.a.a…)', { input: 'a.'.repeat(262_144) }, 200),
    hostile('extract over a long run that is almost an e-mail local part, then @ and nothing', { input: `${'a.'.repeat(262_144)}@!` }, 200),
    hostile('extract of a URL whose authority is 100,000 characters', { input: `http://${'a'.repeat(100_000)}.com/`, types: ['url'] }, 200),
    hostile('extract of 60,000 defanged dots', { input: '[.]'.repeat(60_000), maxResults: 100_000 }, 200),
    hostile('extract of 100,000 IPv4 addresses, unique', { input: '1.1.1.1 '.repeat(100_000), unique: true }, 200),
    hostile('defang of 50,000 e-mail addresses', { input: 'a@b.co '.repeat(50_000), action: 'defang' }, 200),
    { ...hostile('extract with a type it does not know', { input: 'x', types: ['phone'] }, 400, 'VALIDATION_ERROR'), field: 'types[0]' },
    { ...hostile('extract with maxResults past 100,000', { input: 'x', maxResults: 100_001 }, 400, 'VALIDATION_ERROR'), field: 'maxResults' },
    {
      ...hostile('defang of hashes, which have no defanged form', { input: 'x', action: 'defang', types: ['hash'] }, 400, 'VALIDATION_ERROR'),
      field: 'types',
    },
  ],
  heavy: [
    { summary: 'the most IPv4 addresses, each with its details', input: { input: fill('1.1.1.1 '), maxResults: 100_000 } },
    { summary: 'short URLs, past the output limit', input: { input: fill('http://a.co/ '), maxResults: 100_000 } },
    { summary: 'dots defanged, three characters for one', input: { input: fill('1.1.1.1 '), action: 'defang' } },
  ],
  mcpTasks: [
    {
      task: 'pull the ioc urls and ip addresses out of this threat report',
      arguments: { input: 'C2 at hxxp://evil[.]example/gate.php and 203.0.113.7', types: ['url', 'ipv4'] },
      check: (data) =>
        assert.deepEqual(
          (data.result as Array<{ fanged: string }>).map((item) => item.fanged),
          ['http://evil.example/gate.php', '203.0.113.7'],
        ),
    },
  ],
}
