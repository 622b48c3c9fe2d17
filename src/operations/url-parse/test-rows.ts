import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** url-parse's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    ...['%', '\\', '@', '['].flatMap((char) => [
      {
        ...hostile(`url-parse of 256 KiB of ${char} in the authority`, { input: `https://${char.repeat(256 * 1024 - 8)}` }, 422, 'INVALID_INPUT'),
        message: /The (host|IPv6 address)/,
      },
      hostile(`url-parse of 256 KiB of ${char} in an opaque host's path`, { input: `sc://a/${char.repeat(256 * 1024 - 7)}` }, 200),
    ]),
    {
      ...hostile(
        'url-parse of a URL with credentials and a bad port: the message tells neither',
        { input: 'https://admin:hunter2@example.com:99999/' },
        422,
        'INVALID_INPUT',
      ),
      message: /The port is over 65535$/,
    },
    hostile('url-parse of a query of 10,001 pairs', { input: `https://a/?${'a&'.repeat(10_001)}` }, 422, 'LIMIT_EXCEEDED'),
    hostile('url-parse of a javascript: URL: parsed, never run', { input: 'javascript:fetch("http://169.254.169.254/")' }, 200),
    hostile(
      'url-parse building a path, a query and a fragment of 100,000 CJK characters each, every one percent-encoded to 9 characters',
      {
        action: 'build',
        input: 'https://a/',
        components: { pathname: '\u4e00'.repeat(100_000), hash: '\u4e00'.repeat(100_000), search: '\u4e00'.repeat(100_000) },
      },
      200,
    ),
    {
      ...hostile(
        'url-parse build with both search and query',
        { action: 'build', input: 'https://a/', components: { search: 'a', query: [] } },
        400,
        'VALIDATION_ERROR',
      ),
      field: 'components',
    },
  ],
  heavy: [
    {
      summary: 'a query of 10,000 pairs, each value percent-encoded to three times its length, past the longest URL',
      input: { action: 'build', input: 'https://a/', components: { query: Array.from({ length: 10_000 }, () => ({ name: 'n', value: 'é'.repeat(40) })) } },
    },
    { summary: 'the longest path, every character percent-encoded to 9', input: { input: `https://a/${'\u4e00'.repeat(262_000)}` } },
  ],
  mcpTasks: [
    {
      task: 'parse this url: hostname, port and query parameters',
      arguments: { input: 'https://example.com:8080/search?q=a+b' },
      check: (data) => assert.deepEqual([data.hostname, data.port, data.query], ['example.com', '8080', [{ name: 'q', value: 'a b' }]]),
    },
  ],
}
