import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** markdown's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile(
      'markdown of one link reference of 400,000 characters used 100,000 times, past the output limit',
      { input: `[a]: /${'u'.repeat(400_000)}\n\n${'[a]'.repeat(100_000)}` },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('markdown toMarkdown of 5,000 nested lists', { input: '<ul><li>'.repeat(5000), action: 'toMarkdown' }, 422, 'LIMIT_EXCEEDED'),
    hostile('markdown toMarkdown of 20,000 nested divs', { input: '<div>'.repeat(20_000), action: 'toMarkdown' }, 422, 'LIMIT_EXCEEDED'),
    hostile('markdown sanitizing raw HTML of 200,000 nested divs', { input: '<div>'.repeat(200_000), html: 'sanitize' }, 422, 'LIMIT_EXCEEDED'),
    hostile('markdown of 800,000 < characters, each escaped', { input: '<'.repeat(800_000) }, 200),
    hostile('markdown of 50,000 nested block quotes', { input: `${'> '.repeat(50_000)}x` }, 200),
    hostile(
      'markdown sanitizing 20,000 scripts and event handlers',
      { input: '<script>x()</script><img src=x onerror=y()>'.repeat(20_000), html: 'sanitize' },
      200,
    ),
    {
      ...hostile('markdown toMarkdown with a field of toHtml', { input: '<p>x</p>', action: 'toMarkdown', flavor: 'commonmark' }, 400, 'VALIDATION_ERROR'),
      field: 'flavor',
    },
  ],
  mcpTasks: [
    {
      task: 'convert markdown to html',
      arguments: { input: '# Hi\n\n*there*' },
      check: (data) => assert.equal(data.result, '<h1>Hi</h1>\n<p><em>there</em></p>\n'),
    },
  ],
}
