import assert from 'node:assert/strict'
import { fill } from '../../../test/heavy-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** format's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('format of JavaScript nested 200,000 brackets deep', { input: '['.repeat(200_000), language: 'javascript' }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'format of JavaScript of 2,000 nested if statements without braces',
      { input: `${'if(a)'.repeat(2000)}b;`, language: 'javascript', indent: 8 },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('format of XML nested 100,000 elements deep', { input: '<a>'.repeat(100_000), language: 'xml' }, 422, 'LIMIT_EXCEEDED'),
    hostile('format minifying HTML nested 100,000 divs deep', { input: '<div>'.repeat(100_000), language: 'html', action: 'minify' }, 422, 'LIMIT_EXCEEDED'),
    hostile('format of Markdown nested 100,000 block quotes deep', { input: '>'.repeat(100_000), language: 'markdown' }, 422, 'LIMIT_EXCEEDED'),
    hostile('format of YAML nested 100,000 flow sequences deep', { input: '['.repeat(100_000), language: 'yaml' }, 422, 'LIMIT_EXCEEDED'),
    hostile('format of GraphQL nested 100,000 selections deep', { input: '{a'.repeat(100_000), language: 'graphql', action: 'minify' }, 422, 'LIMIT_EXCEEDED'),
    hostile('format of SQL nested 100,000 parentheses deep', { input: `SELECT ${'('.repeat(100_000)}`, language: 'sql' }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'format of SQL of 5,000 nested CASE expressions',
      { input: `SELECT ${'CASE WHEN a THEN '.repeat(5000)}1${' END'.repeat(5000)}`, language: 'sql' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'format of JavaScript whose every item would be indented 100 levels deep, past the output limit',
      { input: `x = ${'['.repeat(99)}${Array.from({ length: 30_000 }, () => '{a:1}').join(',')}${']'.repeat(99)}`, language: 'javascript', indent: 8 },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('format of 50,000 lines of one unclosed string in SQL', { input: `SELECT '${'x\n'.repeat(50_000)}`, language: 'sql' }, 422, 'INVALID_INPUT'),
    hostile(
      'format of XML with a billion laughs DOCTYPE: kept as written, never expanded',
      {
        input: `<!DOCTYPE l [${Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('')}<!ENTITY l0 "ha">]><a>&l10;</a>`,
        language: 'xml',
      },
      200,
    ),
    hostile(
      'format of YAML aliases nine levels deep: printed as aliases, never expanded',
      {
        input: `a: &a [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${`*${String.fromCharCode(97 + i)}, `.repeat(8)}*${String.fromCharCode(97 + i)}]`).join('\n')}\n`,
        language: 'yaml',
      },
      200,
    ),
    hostile(
      'format minifying 1,000 nested ternaries in 7 KB',
      { input: `x=${Array.from({ length: 1000 }, (_, i) => `a${i}?b:`).join('')}c`, language: 'javascript', action: 'minify' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'format of JSX nested 3,000 elements deep',
      { input: `x = ${'<a>'.repeat(3000)}${'</a>'.repeat(3000)}`, language: 'javascript' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'format of TypeScript type arguments nested 3,000 deep',
      { input: `let x: ${'A<'.repeat(3000)}B${'>'.repeat(3000)}`, language: 'typescript' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('format of YAML of 3,000 nested complex keys', { input: `${'? '.repeat(3000)}a`, language: 'yaml' }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'format of PostgreSQL hiding 5,000 parentheses behind a backslash it does not take as an escape',
      { input: `SELECT 'a\\' , ${'('.repeat(5000)}1${')'.repeat(5000)}`, language: 'sql', dialect: 'postgresql' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'format of SQL of 20,000 qualified names in a chain, which overflows the formatter',
      { input: `SELECT ${'a.'.repeat(20_000)}b`, language: 'sql', dialect: 'postgresql' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'format of GraphQL arguments without commas, each of which would be a line indented 90 levels deep',
      {
        input: `{${'a{'.repeat(90)}f(${Array.from({ length: 30_000 }, (_, i) => `b${i}:1`).join(' ')})${'}'.repeat(91)}`,
        language: 'graphql',
        indent: 8,
        printWidth: 20,
      },
      422,
      'LIMIT_EXCEEDED',
    ),
    {
      ...hostile('format with an option of another language', { input: 'a {}', language: 'css', quotes: 'single' }, 400, 'VALIDATION_ERROR'),
      field: 'quotes',
    },
    {
      ...hostile('format with an option of another action at its default value', { input: 'a', language: 'javascript', mangle: true }, 400, 'VALIDATION_ERROR'),
      field: 'mangle',
    },
    {
      ...hostile('format minifying a language it cannot minify', { input: 'a: 1', language: 'yaml', action: 'minify' }, 400, 'VALIDATION_ERROR'),
      field: 'action',
    },
  ],
  heavy: [
    {
      summary: 'JavaScript of one array of small integers, beautified 8 spaces deep',
      input: { input: `x = [${fill('0,')}0]`, language: 'javascript', indent: 8 },
      manySmallObjects: true,
    },
    { summary: 'SQL of one list of one-letter columns', input: { input: `SELECT ${fill('a,')}a`, language: 'sql' }, manySmallObjects: true },
    { summary: 'XML of empty elements', input: { input: `<r>${fill('<a/>')}</r>`, language: 'xml' } },
    { summary: 'HTML of short paragraphs, minified', input: { input: fill('<p>a</p>'), language: 'html', action: 'minify' } },
  ],
  mcpTasks: [
    {
      task: 'pretty print a minified sql query',
      arguments: { input: 'select a, b from t where a = 1', language: 'sql' },
      check: (data) => assert.equal(data.result, 'select\n  a,\n  b\nfrom\n  t\nwhere\n  a = 1'),
    },
  ],
}
