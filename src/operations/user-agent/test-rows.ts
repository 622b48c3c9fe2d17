import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** user-agent's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('user-agent of 8,192 characters, 630 nested Mozilla/5.0 (', { input: 'Mozilla/5.0 ('.repeat(630) }, 200),
    hostile('user-agent of 8,192 parentheses', { input: '('.repeat(8192) }, 200),
    hostile('user-agent of 8,000 spaces before curl', { input: `${' '.repeat(8000)}curl/8.5.0` }, 200),
    hostile('user-agent with no User-Agent and no headers', {}, 400, 'VALIDATION_ERROR'),
    hostile(
      'user-agent with three Client Hints lists of 93 brands each, near the 1,024-character limit',
      {
        input: 'x',
        headers: Object.fromEntries(
          ['sec-ch-ua', 'sec-ch-ua-full-version-list', 'sec-ch-ua-form-factors'].map((name) => [name, '"a";v="1", '.repeat(93).slice(0, -2)]),
        ),
      },
      200,
    ),
    {
      ...hostile('user-agent with a header it does not read', { headers: { cookie: 'session=1' } }, 400, 'VALIDATION_ERROR'),
      field: 'headers.cookie',
    },
    hostile(
      'user-agent with eleven headers',
      { headers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`sec-ch-ua-${i}`, '?1'])) },
      400,
      'VALIDATION_ERROR',
    ),
    hostile('user-agent with a header value of 1,025 characters', { headers: { 'sec-ch-ua-model': `"${'m'.repeat(1023)}"` } }, 400, 'VALIDATION_ERROR'),
    hostile('user-agent with an unterminated structured string', { headers: { 'sec-ch-ua-platform': `"${'w'.repeat(1000)}` } }, 422, 'INVALID_INPUT'),
    hostile('user-agent with a structured list of 500 empty members', { headers: { 'sec-ch-ua': ','.repeat(500) } }, 422, 'INVALID_INPUT'),
  ],
  mcpTasks: [
    {
      task: 'parse this user agent string: which browser and os, is it a bot?',
      arguments: { input: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      check: (data) => assert.deepEqual(data.bot, { isBot: true, name: 'Googlebot' }),
    },
  ],
}
