import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { format, MINIFIABLE } from './index.ts'
import { LANGUAGES } from './languages.ts'
import { MAX_XML_NODES } from './markup-scan.ts'
import { scanNesting } from './nesting-scan.ts'

const run = (input: Record<string, unknown>) => execute(format, input, { timeBudgetMs: 60_000 })
const formatted = async (input: string, language: string, fields: Record<string, unknown> = {}) => (await run({ input, language, ...fields })).result as string
const minified = (input: string, language: string, fields: Record<string, unknown> = {}) => formatted(input, language, { action: 'minify', ...fields })

after(() => closeWorkerPool())

const SUITES = new URL('../../../test/fixtures/suites/', import.meta.url)

/** Inputs and the answers a reference gives to them: the published vectors, and the engines' own outputs with options. */
const KNOWN_ANSWERS: Array<{ input: Record<string, unknown>; output: Record<string, unknown> }> = [
  // sql-formatter's own tests (behavesLikeSqlFormatter.ts).
  {
    input: { input: 'SELECT tbl.*, count(*), col1 * col2 FROM tbl;', language: 'sql' },
    output: { result: 'SELECT\n  tbl.*,\n  count(*),\n  col1 * col2\nFROM\n  tbl;', language: 'sql', action: 'beautify' },
  },
  { input: { input: "((foo = 'bar'))", language: 'sql' }, output: { result: "((foo = 'bar'))", language: 'sql', action: 'beautify' } },
  {
    input: { input: 'SELECT id AS set FROM tbl AS set;', language: 'sql' },
    output: { result: 'SELECT\n  id AS set\nFROM\n  tbl AS set;', language: 'sql', action: 'beautify' },
  },
  // Prettier (babel, html, yaml).
  {
    input: { input: 'const a={b:1,c:[1,2,3]};function f(x){return x*2}', language: 'javascript' },
    output: { result: 'const a = { b: 1, c: [1, 2, 3] };\nfunction f(x) {\n  return x * 2;\n}\n', language: 'javascript', action: 'beautify' },
  },
  {
    input: { input: '<ul><li>1<li>2</ul>', language: 'html' },
    output: { result: '<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>\n', language: 'html', action: 'beautify' },
  },
  {
    input: { input: 'a:   1\nb:\n    - x\n    -   y\n', language: 'yaml' },
    output: { result: 'a: 1\nb:\n  - x\n  - y\n', language: 'yaml', action: 'beautify' },
  },
  // graphql-js stripIgnoredCharacters (the GraphQL spec's ignored tokens: white space, commas, comments).
  {
    input: { input: 'query Q($id: ID!) { user(id: $id) { name } }', language: 'graphql', action: 'minify' },
    output: { result: 'query Q($id:ID!){user(id:$id){name}}', language: 'graphql', action: 'minify' },
  },
  { input: { input: '{ a , b }', language: 'graphql', action: 'minify' }, output: { result: '{a b}', language: 'graphql', action: 'minify' } },
  {
    input: { input: '# who\nquery {\n  me { id, name } # mine\n}', language: 'graphql', action: 'minify' },
    output: { result: 'query{me{id name}}', language: 'graphql', action: 'minify' },
  },
  // xml-formatter.
  {
    input: { input: '<a><b x="1">t</b><c/></a>', language: 'xml' },
    output: { result: '<a>\n  <b x="1">t</b>\n  <c/>\n</a>', language: 'xml', action: 'beautify' },
  },
  {
    input: { input: '<a>\n  <b x="1">t</b>\n  <c/>\n</a>', language: 'xml', action: 'minify' },
    output: { result: '<a><b x="1">t</b><c/></a>', language: 'xml', action: 'minify' },
  },
  {
    input: { input: '<a><b>t</b></a>', language: 'xml', useTabs: true },
    output: { result: '<a>\n\t<b>t</b>\n</a>', language: 'xml', action: 'beautify' },
  },
  // terser and csso.
  {
    input: { input: 'function add(first, second) { return first + second }; console.log(add(1, 2))', language: 'javascript', action: 'minify' },
    output: { result: 'function add(d,n){return d+n}console.log(add(1,2));', language: 'javascript', action: 'minify' },
  },
  {
    input: {
      input: 'function add(first, second) { return first + second }; console.log(add(1, 2))',
      language: 'javascript',
      action: 'minify',
      mangle: false,
      compress: false,
    },
    output: { result: 'function add(first,second){return first+second}console.log(add(1,2));', language: 'javascript', action: 'minify' },
  },
  {
    input: { input: 'a { color: #ff0000; margin: 0px 0px 0px 0px } a { padding: 0 }', language: 'css', action: 'minify' },
    output: { result: 'a{color:red;margin:0;padding:0}', language: 'css', action: 'minify' },
  },
  // html-minifier-terser, with the inline script through terser and the style through clean-css.
  {
    input: { input: '<div>\n  <p class="a" >hi  <!-- c --> there</p>\n  <script> let a = 1 </script>\n</div>', language: 'html', action: 'minify' },
    output: { result: '<div><p class="a">hi there</p><script>let a=1</script></div>', language: 'html', action: 'minify' },
  },
  // The json operation's writer: literals as written.
  {
    input: { input: '{"id":12345678901234567890,"price":1.0}', language: 'json' },
    output: { result: '{\n  "id": 12345678901234567890,\n  "price": 1.0\n}', language: 'json', action: 'beautify' },
  },
  {
    input: { input: '{ "a": [1.50, 2e3] }', language: 'json', action: 'minify' },
    output: { result: '{"a":[1.50,2e3]}', language: 'json', action: 'minify' },
  },
  { input: { input: '{"a":[1]}', language: 'json', useTabs: true }, output: { result: '{\n\t"a": [\n\t\t1\n\t]\n}', language: 'json', action: 'beautify' } },
  // Options of Prettier and sql-formatter.
  {
    input: { input: 'const s = "x", t = [1,2]', language: 'javascript', quotes: 'single', semicolons: false, indent: 4 },
    output: { result: "const s = 'x',\n    t = [1, 2]\n", language: 'javascript', action: 'beautify' },
  },
  {
    input: { input: 'f(aaaaaaaaaa, bbbbbbbbbb, cccccccccc)', language: 'javascript', printWidth: 20, trailingComma: 'none' },
    output: { result: 'f(\n  aaaaaaaaaa,\n  bbbbbbbbbb,\n  cccccccccc\n);\n', language: 'javascript', action: 'beautify' },
  },
  {
    input: { input: 'f(aaaaaaaaaa, bbbbbbbbbb, cccccccccc)', language: 'javascript', printWidth: 20 },
    output: { result: 'f(\n  aaaaaaaaaa,\n  bbbbbbbbbb,\n  cccccccccc,\n);\n', language: 'javascript', action: 'beautify' },
  },
  {
    input: { input: 'let a:number=1;interface I{x:string}', language: 'typescript', useTabs: true },
    output: { result: 'let a: number = 1;\ninterface I {\n\tx: string;\n}\n', language: 'typescript', action: 'beautify' },
  },
  { input: { input: 'a{color:red}', language: 'css' }, output: { result: 'a {\n  color: red;\n}\n', language: 'css', action: 'beautify' } },
  {
    input: { input: '$c: red; a{ b{color:$c} }', language: 'scss' },
    output: { result: '$c: red;\na {\n  b {\n    color: $c;\n  }\n}\n', language: 'scss', action: 'beautify' },
  },
  {
    input: { input: '@c: red; a{ .m(); color:@c }', language: 'less' },
    output: { result: '@c: red;\na {\n  .m();\n  color: @c;\n}\n', language: 'less', action: 'beautify' },
  },
  { input: { input: '#  Title\n*  a\n*  b', language: 'markdown' }, output: { result: '# Title\n\n- a\n- b\n', language: 'markdown', action: 'beautify' } },
  { input: { input: 'query{a{b}}', language: 'graphql' }, output: { result: 'query {\n  a {\n    b\n  }\n}\n', language: 'graphql', action: 'beautify' } },
  {
    input: { input: 'SELECT a FROM t', language: 'sql', keywordCase: 'lower', indent: 4 },
    output: { result: 'select\n    a\nfrom\n    t', language: 'sql', action: 'beautify' },
  },
  {
    input: { input: 'select [a b] from t', language: 'sql', dialect: 'tsql', useTabs: true },
    output: { result: 'select\n\t[a b]\nfrom\n\tt', language: 'sql', action: 'beautify' },
  },
  // Anchors and aliases are printed as written, never expanded.
  {
    input: { input: 'a: &x [1, 2]\nb:   *x\n', language: 'yaml' },
    output: { result: 'a: &x [1, 2]\nb: *x\n', language: 'yaml', action: 'beautify' },
  },
]

const nested = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth)

/** Inputs it must refuse, each with the code of its error and the field or the place it names. */
const REFUSED: Array<{ input: Record<string, unknown>; code: string; field?: string; line?: number; column?: number }> = [
  // A field for another language or action.
  { input: { input: 'a{}', language: 'css', quotes: 'single' }, code: 'VALIDATION_ERROR', field: 'quotes' },
  { input: { input: 'a{}', language: 'css', semicolons: false }, code: 'VALIDATION_ERROR', field: 'semicolons' },
  { input: { input: 'a{}', language: 'css', trailingComma: 'none' }, code: 'VALIDATION_ERROR', field: 'trailingComma' },
  { input: { input: 'a', language: 'javascript', dialect: 'mysql' }, code: 'VALIDATION_ERROR', field: 'dialect' },
  { input: { input: 'a', language: 'javascript', keywordCase: 'upper' }, code: 'VALIDATION_ERROR', field: 'keywordCase' },
  { input: { input: 'a', language: 'javascript', mangle: false }, code: 'VALIDATION_ERROR', field: 'mangle' },
  { input: { input: 'a{}', language: 'css', action: 'minify', compress: false }, code: 'VALIDATION_ERROR', field: 'compress' },
  { input: { input: 'a', language: 'javascript', action: 'minify', indent: 4 }, code: 'VALIDATION_ERROR', field: 'indent' },
  { input: { input: 'a', language: 'javascript', action: 'minify', useTabs: true }, code: 'VALIDATION_ERROR', field: 'useTabs' },
  { input: { input: 'a', language: 'javascript', action: 'minify', quotes: 'single' }, code: 'VALIDATION_ERROR', field: 'quotes' },
  { input: { input: 'select 1', language: 'sql', printWidth: 100 }, code: 'VALIDATION_ERROR', field: 'printWidth' },
  { input: { input: '{}', language: 'json', printWidth: 100 }, code: 'VALIDATION_ERROR', field: 'printWidth' },
  { input: { input: '<a/>', language: 'xml', printWidth: 100 }, code: 'VALIDATION_ERROR', field: 'printWidth' },
  { input: { input: 'a: 1', language: 'yaml', useTabs: true }, code: 'VALIDATION_ERROR', field: 'useTabs' },
  // Sent at its default value, a field of another language or action is still refused.
  { input: { input: 'a', language: 'javascript', mangle: true }, code: 'VALIDATION_ERROR', field: 'mangle' },
  { input: { input: 'a', language: 'javascript', dialect: 'sql' }, code: 'VALIDATION_ERROR', field: 'dialect' },
  { input: { input: 'a{}', language: 'css', quotes: 'double' }, code: 'VALIDATION_ERROR', field: 'quotes' },
  { input: { input: '[1]', language: 'json', action: 'minify', indent: 2 }, code: 'VALIDATION_ERROR', field: 'indent' },
  { input: { input: 'a: 1', language: 'yaml', useTabs: false }, code: 'VALIDATION_ERROR', field: 'useTabs' },
  ...(['typescript', 'scss', 'less', 'markdown', 'yaml', 'sql'] as const).map((language) => ({
    input: { input: 'a', language, action: 'minify' },
    code: 'VALIDATION_ERROR',
    field: 'action',
  })),
  // Out of the schema's bounds.
  { input: { input: 'a', language: 'javascript', indent: 0 }, code: 'VALIDATION_ERROR', field: 'indent' },
  { input: { input: 'a', language: 'javascript', printWidth: 19 }, code: 'VALIDATION_ERROR', field: 'printWidth' },
  { input: { input: 'a', language: 'cobol' }, code: 'VALIDATION_ERROR', field: 'language' },
  { input: { input: 'a' }, code: 'VALIDATION_ERROR', field: 'language' },
  // Syntax errors, with the engine's place.
  { input: { input: 'const a = {b:1;', language: 'javascript' }, code: 'INVALID_INPUT', line: 1, column: 15 },
  { input: { input: 'let a = (;\n', language: 'javascript', action: 'minify' }, code: 'INVALID_INPUT', line: 1, column: 10 },
  { input: { input: 'let a: number =', language: 'typescript' }, code: 'INVALID_INPUT', line: 1, column: 16 },
  { input: { input: 'a {{ color: red', language: 'css' }, code: 'INVALID_INPUT', line: 1, column: 4 },
  { input: { input: 'a { color: red }}\nb { x }', language: 'css', action: 'minify' }, code: 'INVALID_INPUT', line: 1, column: 17 },
  { input: { input: 'a {\n  b { color: red;\n', language: 'scss' }, code: 'INVALID_INPUT' },
  { input: { input: '.m( {', language: 'less' }, code: 'INVALID_INPUT' },
  { input: { input: '<div></span>', language: 'html' }, code: 'INVALID_INPUT', line: 1, column: 6 },
  { input: { input: '<div><p <<<', language: 'html', action: 'minify' }, code: 'INVALID_INPUT', line: 1, column: 6 },
  { input: { input: 'a: [1\nb: 2', language: 'yaml' }, code: 'INVALID_INPUT', line: 2, column: 1 },
  { input: { input: 'query { a ', language: 'graphql' }, code: 'INVALID_INPUT', line: 1, column: 11 },
  { input: { input: '{ a ', language: 'graphql', action: 'minify' }, code: 'INVALID_INPUT', line: 1, column: 5 },
  { input: { input: "SELECT * FROM t WHERE a = 'x", language: 'sql' }, code: 'INVALID_INPUT', line: 1, column: 27 },
  { input: { input: '<a><b></a>', language: 'xml' }, code: 'INVALID_INPUT', line: 1, column: 7 },
  { input: { input: '<a>\n<b x=1></b></a>', language: 'xml', action: 'minify' }, code: 'INVALID_INPUT', line: 2, column: 4 },
  { input: { input: '{"a":1', language: 'json' }, code: 'INVALID_INPUT', line: 1, column: 7 },
  // XML without one root element: the place of the second root, or the end of the input.
  { input: { input: '<a/><b/>', language: 'xml' }, code: 'INVALID_INPUT', line: 1, column: 5 },
  { input: { input: '<a>t</a>\n  <!-- c -->\n  <b/>', language: 'xml', action: 'minify' }, code: 'INVALID_INPUT', line: 3, column: 3 },
  { input: { input: '', language: 'xml' }, code: 'INVALID_INPUT', line: 1, column: 1 },
  { input: { input: '<?xml version="1.0"?>\n', language: 'xml' }, code: 'INVALID_INPUT', line: 2, column: 1 },
  // Nesting past the limit, each language's way.
  { input: { input: '['.repeat(101), language: 'javascript' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `${'if (a) '.repeat(101)}b();`, language: 'javascript' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: 'a{'.repeat(101), language: 'scss' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: '<a>'.repeat(101), language: 'xml' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: '<div>'.repeat(101), language: 'html' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `${'> '.repeat(101)}x`, language: 'markdown' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `${'- '.repeat(101)}x`, language: 'yaml' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `{${'a{'.repeat(101)}`, language: 'graphql' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `SELECT ${'('.repeat(101)}1`, language: 'sql' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `SELECT ${'CASE WHEN a THEN '.repeat(101)}1`, language: 'sql' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: '['.repeat(101), language: 'json' }, code: 'LIMIT_EXCEEDED' },
  // Ternaries, JSX elements, type arguments and YAML complex keys nest without brackets.
  { input: { input: `x=${Array.from({ length: 101 }, (_, i) => `a${i}?b:`).join('')}c`, language: 'javascript', action: 'minify' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `x = ${'a ? '.repeat(101)}b${' : c'.repeat(101)}`, language: 'typescript' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `x = ${nested(101, '<a>', '</a>', '')}`, language: 'javascript' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `x = ${nested(101, '<>', '</>', '')}`, language: 'javascript' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `let x: ${nested(101, 'A<', '>', 'B')}`, language: 'typescript' }, code: 'LIMIT_EXCEEDED' },
  { input: { input: `${'? '.repeat(101)}a`, language: 'yaml' }, code: 'LIMIT_EXCEEDED' },
  // A `/` after `++` divides: the brackets after it are counted.
  { input: { input: `a++ / 1; x = ${nested(101, '[', ']')}`, language: 'javascript' }, code: 'LIMIT_EXCEEDED' },
  // Nesting no scan counts (a long chain of qualified names) overflows sql-formatter's stack: the same limit, not a syntax error.
  { input: { input: `SELECT ${'a.'.repeat(20_000)}b`, language: 'sql', dialect: 'postgresql' }, code: 'LIMIT_EXCEEDED' },
  // In PostgreSQL a backslash does not escape a quote: the parentheses after the string are counted.
  { input: { input: `SELECT 'a\\' , ${nested(101, '(', ')')}`, language: 'sql', dialect: 'postgresql' }, code: 'LIMIT_EXCEEDED' },
]

describe('format', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(format).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/format/index.ts')
  })

  test('answers known inputs as a reference does', async () => {
    for (const { input, output } of KNOWN_ANSWERS) assert.deepEqual(await run(input), output, JSON.stringify(input))
  })

  test('refuses what it cannot process, saying why and where', async () => {
    for (const { input, code, field, line, column } of REFUSED) {
      await expectRefusal(run(input), {
        code,
        check: (error) => {
          const about = JSON.stringify(input)
          if (field !== undefined) assert.equal((error.details as unknown as Array<{ field: string }>)[0].field, field, about)
          if (line !== undefined) assert.deepEqual([error.details?.line, error.details?.column], [line, column], about)
          if (code === 'INVALID_INPUT') assert.match(error.message, /^input is not valid [A-Za-z]+: /, about)
        },
      })
    }
  })

  test('the position of a syntax error is its line and column counted from 0', async () => {
    const input = 'let a = 1\nlet b = (;\n'
    const error = await expectRefusal(run({ input, language: 'javascript' }), { code: 'INVALID_INPUT' })
    const { line, column, position } = error.details as { line: number; column: number; position: number }
    assert.equal(input.split('\n')[line - 1][column - 1], input[position])
    assert.equal(input[position], ';')
  })

  test('the generic sql dialect refuses what a named one reads, and says so', async () => {
    await expectRefusal(run({ input: 'SELECT $$a$$', language: 'sql' }), { code: 'INVALID_INPUT', message: /naming the database's dialect/ })
    assert.equal(await formatted('SELECT $$a$$', 'sql', { dialect: 'postgresql' }), 'SELECT\n  $$a$$')
  })

  test('every language beautifies, the minifiable ones minify, and an empty input is answered', async () => {
    const samples: Record<string, string> = {
      javascript: 'f( 1 )',
      typescript: 'let a : T',
      json: '[ 1 ]',
      css: 'a{b:c}',
      scss: 'a{b:c}',
      less: 'a{b:c}',
      html: '<p>a</p>',
      markdown: '*  a',
      yaml: 'a:  1',
      graphql: '{ a }',
      sql: 'select 1',
      xml: '<a> <b/> </a>',
    }
    for (const language of LANGUAGES) {
      assert.ok((await formatted(samples[language], language)).length > 0, language)
      if (MINIFIABLE.includes(language)) assert.ok((await minified(samples[language], language)).length > 0, language)
    }
    for (const language of ['javascript', 'typescript', 'css', 'scss', 'less', 'html', 'markdown', 'yaml', 'graphql', 'sql']) {
      assert.equal(await formatted('', language), '', language)
    }
  })

  test('nesting up to the limit is formatted; one more level is refused before any engine reads it', async () => {
    const atLimit: Array<[string, string]> = [
      ['javascript', `x = ${nested(MAX_NESTING_DEPTH, '[', ']')}`],
      ['css', `${'a{'.repeat(MAX_NESTING_DEPTH)}${'}'.repeat(MAX_NESTING_DEPTH)}`],
      ['xml', nested(MAX_NESTING_DEPTH, '<a>', '</a>', 't')],
      ['html', nested(MAX_NESTING_DEPTH - 2, '<div>', '</div>', 't')],
      ['yaml', `${Array.from({ length: MAX_NESTING_DEPTH }, (_, depth) => `${'  '.repeat(depth)}k:`).join('\n')} 1\n`],
    ]
    for (const [language, input] of atLimit) assert.ok((await formatted(input, language)).length > 0, language)
    assert.equal(scanNesting(`x = ${nested(MAX_NESTING_DEPTH, '[', ']')}`, 'javascript', 2).depth, MAX_NESTING_DEPTH)
    await expectRefusal(run({ input: `x = ${nested(MAX_NESTING_DEPTH + 1, '[', ']')}`, language: 'javascript' }), {
      code: 'LIMIT_EXCEEDED',
      details: { limit: MAX_NESTING_DEPTH, line: 1, column: 5 + MAX_NESTING_DEPTH },
    })
  })

  test('the nesting scan skips brackets in strings, comments, template text and regular expressions', () => {
    const many = (text: string) => text.repeat(150)
    assert.equal(scanNesting(`a = "${many('(')}"; b = '${many('[')}' // ${many('{')}\n/* ${many('(')} */`, 'javascript', 2).depth, 0)
    // The template's hole is a level, and its array one more.
    assert.equal(scanNesting(`t = \`${many('(')}\${ [1] }${many('{')}\``, 'javascript', 2).depth, 2)
    assert.equal(scanNesting(many('x = /[(]/; '), 'javascript', 2).depth, 0)
    assert.equal(scanNesting(many('x = /\\(/.test(y); '), 'javascript', 2).depth, 1)
    // Statements under if, else, for, while, do and with nest without braces; a semicolon or a block ends the chain.
    assert.equal(scanNesting(many('if (a) b(); else if (c) d(); else { e() }\n'), 'javascript', 2).depth, 3)
    assert.equal(scanNesting(`${'if (a) '.repeat(50)}for (;;) while (b) c();`, 'javascript', 2).depth, 53)
    assert.equal(scanNesting(many('a.if(b); a.for(c);'), 'javascript', 2).depth, 1)
    assert.equal(scanNesting(`# ${many('{')}\n{ a(b: """${many('(')}""") }`, 'graphql', 2).depth, 2)
    assert.equal(scanNesting(`SELECT '${many('(')}' -- ${many('(')}\n FROM t`, 'sql', 2).depth, 0)
    assert.equal(scanNesting(many('SELECT CASE WHEN (a) THEN 1 ELSE CASE b WHEN (1) THEN 2 END END; '), 'sql', 2).depth, 3)
    assert.equal(scanNesting(`<a><!-- ${many('<b>')} --><![CDATA[${many('<c>')}]]><b/></a>`, 'xml', 2).depth, 1)
    assert.equal(scanNesting(`\`\`\`\n${many('> ')}\n\`\`\`\n- a\n  - b\n    - c`, 'markdown', 2).depth, 3)
    assert.equal(scanNesting(`a: |\n${many('  - x\n')}b:\n  - [1, {c: 2}]\n`, 'yaml', 2).depth, 4)
  })

  test('the nesting scan counts ternaries, JSX elements and type arguments, and only where they nest', async () => {
    const many = (text: string) => text.repeat(150)
    // A ternary ends with its statement, a semicolon or not; a chain over lines is one expression.
    assert.equal(scanNesting(many('x = a ? b : c\n'), 'javascript', 2).depth, 1)
    assert.equal(scanNesting(many('f(a ? b : c, d ? e : f); '), 'javascript', 2).depth, 2)
    assert.equal(scanNesting(`x = a\n${'  ? b\n  : c\n'.repeat(5)}`, 'javascript', 2).depth, 5)
    assert.equal(scanNesting(many('a?.b ?? c?.[0] ?? d; '), 'javascript', 2).depth, 1)
    assert.equal(scanNesting(many('function f(a?: T, b?) {}\n'), 'typescript', 2).depth, 1)
    // Comparisons are not type arguments, however many; JSX text is not code.
    assert.equal(scanNesting(`if (${many('a < b && ')}c) d()`, 'javascript', 2).depth, 2)
    assert.equal(scanNesting(many('x = i<n; '), 'javascript', 2).depth, 0)
    assert.equal(scanNesting("x = <p>don't ( [ stop</p>", 'javascript', 2).depth, 1)
    assert.equal(scanNesting('x = <a b={<c d="e" />}>{f ? <g /> : h}</a>', 'javascript', 2).depth, 4)
    assert.equal(scanNesting(many('let m: Map<K, Array<V>> = new Map<K, V>(); '), 'typescript', 2).depth, 2)
    assert.equal(scanNesting(many('x = <T,>(a: T) => a; '), 'typescript', 2).depth, 1)
    assert.equal(scanNesting(`${'? '.repeat(50)}a`, 'yaml', 2).depth, 50)
    // A backslash escapes a quote only where the dialect says so.
    const hidden = `SELECT 'a\\' , ${nested(50, '(', ')')}`
    assert.equal(scanNesting(hidden, 'sql', 2, 'postgresql').depth, 50)
    assert.equal(scanNesting(hidden, 'sql', 2, 'mysql').depth, 0)
    assert.equal(scanNesting(`SELECT E'a\\' ${nested(50, '(', ')')}'`, 'sql', 2, 'postgresql').depth, 0)
    assert.ok((await formatted(`x = ${'a ? '.repeat(MAX_NESTING_DEPTH)}b${' : c'.repeat(MAX_NESTING_DEPTH)}`, 'javascript')).length > 0)
  })

  test('the predicted length is no less than the answer, wherever lines break', async () => {
    const items = (count: number, item: (i: number) => string, separator: string) => Array.from({ length: count }, (_, i) => item(i)).join(separator)
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['graphql', `{${'a{'.repeat(40)}f(${items(100, (i) => `b${i}:1`, ' ')})${'}'.repeat(41)}`, { printWidth: 20 }],
      [
        'yaml',
        `a: ${nested(
          40,
          '[',
          ']',
          items(100, () => 'x', ', '),
        )}`,
        { printWidth: 20 },
      ],
      [
        'sql',
        `SELECT * FROM t WHERE ${nested(
          40,
          '(',
          ')',
          items(100, (i) => `a${i} = 1`, ' AND '),
        )}`,
        {},
      ],
      ['html', `${'<div>'.repeat(40)}<a ${items(100, (i) => `b${i}`, ' ')}></a>${'</div>'.repeat(40)}`, { printWidth: 20 }],
      [
        'javascript',
        `x=${nested(
          40,
          '[',
          ']',
          items(100, (i) => `a${i}`, '+'),
        )}`,
        { printWidth: 20 },
      ],
      ['scss', `${'.a{'.repeat(40)}${items(100, (i) => `b${i}:c`, ';')}${'}'.repeat(40)}`, {}],
    ]
    for (const [language, input, fields] of cases) {
      const answer = await formatted(input, language, { indent: 8, ...fields })
      const { predictedLength } = scanNesting(input, language as never, 8)
      assert.ok(predictedLength >= answer.length, `${language}: predicted ${predictedLength}, answered ${answer.length}`)
    }
  })

  test('hostile inputs are answered quickly, within bounds', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['200,000 nested brackets', { input: '['.repeat(200_000), language: 'javascript' }, 'LIMIT_EXCEEDED'],
      ['200,000 nested braces in TypeScript', { input: '{'.repeat(200_000), language: 'typescript' }, 'LIMIT_EXCEEDED'],
      ['100,000 nested elements', { input: '<a>'.repeat(100_000), language: 'xml' }, 'LIMIT_EXCEEDED'],
      ['100,000 nested divs', { input: '<div>'.repeat(100_000), language: 'html', action: 'minify' }, 'LIMIT_EXCEEDED'],
      ['100,000 nested block quotes', { input: '>'.repeat(100_000), language: 'markdown' }, 'LIMIT_EXCEEDED'],
      [
        '1,000 nested lists',
        { input: Array.from({ length: 1000 }, (_, depth) => `${' '.repeat(2 * depth)}- x`).join('\n'), language: 'markdown' },
        'LIMIT_EXCEEDED',
      ],
      ['100,000 nested flow sequences', { input: '['.repeat(100_000), language: 'yaml' }, 'LIMIT_EXCEEDED'],
      ['100,000 nested selections', { input: '{a'.repeat(100_000), language: 'graphql', action: 'minify' }, 'LIMIT_EXCEEDED'],
      ['100,000 nested parentheses', { input: `SELECT ${'('.repeat(100_000)}`, language: 'sql' }, 'LIMIT_EXCEEDED'],
      ['100,000 nested calls to minify', { input: 'f('.repeat(100_000), language: 'javascript', action: 'minify' }, 'LIMIT_EXCEEDED'],
    ]
    // The worker thread these large inputs go to is started first: its start is not the scan's cost.
    await expectRefusal(run({ input: '[x', language: 'javascript' }), { code: 'INVALID_INPUT' })
    for (const [name, input, code] of cases) {
      const cpu = await cpuTimeOfAsync(() => expectRefusal(run(input), { code }))
      assert.ok(cpu < 1000, `${name}: ${cpu} ms`)
    }
  })

  test('XML of more elements, attributes and texts than the engine can hold in memory is refused where the count passes the limit', async () => {
    const elements = (count: number, element: string) => `<r>${element.repeat(count - 1)}</r>`
    // The root and 99,999 empty elements; then one more.
    assert.equal((await formatted(elements(MAX_XML_NODES, '<a/>'), 'xml', {})).split('\n').length, MAX_XML_NODES + 1)
    await expectRefusal(run({ input: elements(MAX_XML_NODES + 1, '<a/>'), language: 'xml' }), {
      code: 'LIMIT_EXCEEDED',
      details: { field: 'input', limit: MAX_XML_NODES, position: 4 * MAX_XML_NODES - 1, line: 1, column: 4 * MAX_XML_NODES },
    })
    // Each element of three: itself, an attribute, a text; comments and CDATA are texts, white space between tags is not.
    const three = `<a b="=x'='"> t </a>`
    assert.equal((await formatted(`<r>${three.repeat(33_333)}</r>`, 'xml', {})).length > 0, true)
    await expectRefusal(run({ input: `<r>${three.repeat(33_334)}</r>`, language: 'xml' }), { code: 'LIMIT_EXCEEDED' })
    await expectRefusal(run({ input: `<r>${'<a/><!--c-->'.repeat(50_000)}</r>`, language: 'xml', action: 'minify' }), { code: 'LIMIT_EXCEEDED' })
    assert.ok((await run({ input: `<r>${'<a/>\n  '.repeat(99_999)}</r>`, language: 'xml', action: 'minify' })).result)
    // White space inside an attribute's value is neither an attribute nor a text: an SVG path of 100,000 spaces.
    assert.ok((await run({ input: `<svg><path d="${'M 1 1 '.repeat(100_000)}"/></svg>`, language: 'xml' })).result)
  })

  test('an answer that would pass the output limit is refused before it is built', async () => {
    // 100 levels deep, every item on a line of its own indented 8 × 100: far past 16 MiB.
    const inner = Array.from({ length: 30_000 }, () => '{a:1}').join(',')
    const input = `x = ${'['.repeat(MAX_NESTING_DEPTH - 1)}${inner}${']'.repeat(MAX_NESTING_DEPTH - 1)}`
    const cpu = await cpuTimeOfAsync(() =>
      expectRefusal(run({ input, language: 'javascript', indent: 8 }), { code: 'LIMIT_EXCEEDED', details: { limit: 16 * 1024 * 1024 } }),
    )
    assert.ok(cpu < 1000, `${cpu} ms`)
  })

  test('a large input still being formatted when its time budget ends is stopped: 422, not 503', async () => {
    // Near the input limit, so that even a thread the earlier tests left warm runs well past the budget.
    const input = 'SELECT a, b, c FROM t WHERE a = 1 AND (b = 2 OR c = 3);\n'.repeat(17_000)
    await expectRefusal(execute(format, { input, language: 'sql' }, { timeBudgetMs: 300 }), {
      code: 'LIMIT_EXCEEDED',
      message: /ran past its 300 ms time budget and was stopped: send less code at once/,
      details: { reason: 'timeout', limitMs: 300 },
    })
  })

  test('every input, however small, runs on a worker thread and is formatted there', async () => {
    // A small input can hold an engine past any budget (nested ternaries): only a worker can be stopped.
    assert.ok(format.offload!({ input: 'a', language: 'javascript' } as never))
    const input = Array.from({ length: 800 }, (_, i) => `function f${i}(a,b){return a+b*${i}}`).join('\n')
    const result = await formatted(input, 'javascript')
    assert.ok(result.startsWith('function f0(a, b) {\n  return a + b * 0;\n}\n'))
    assert.ok((await minified(input, 'javascript', { compress: false })).startsWith('function f0(n,f){return n+f*0}function f1('))
  })
})

// ---------------------------------------------------------------------------------------------
// Prettier's own snapshots

interface Snapshot {
  name: string
  parsers: string[]
  /** Whether the case was formatted with Prettier's defaults (only `parsers` and the default width among its options). */
  defaults: boolean
  input: string
  output: string
}

/** The cases of a Jest snapshot file of Prettier's tests: options, input and output between rulers. */
function readSnapshots(text: string): Snapshot[] {
  const cases: Snapshot[] = []
  for (const match of text.matchAll(/^exports\[`(.*?)`\] = `\n([\s\S]*?)\n`;$/gm)) {
    // Jest escapes backticks, backslashes and `${` in its template literals.
    const body = match[2].replace(/\\(\\|`|\$(?=\{))/g, '$1')
    const parts = /^=+options=+\n([\s\S]*?)\n=+input=+\n([\s\S]*?)\n=+output=+\n([\s\S]*?)\n=+$/.exec(body)
    if (!parts) continue
    const options = parts[1].split('\n')
    cases.push({
      name: match[1],
      parsers: JSON.parse(/^parsers: (.*)$/m.exec(parts[1])?.[1] ?? '[]'),
      defaults: options.every((line) => /^parsers: /.test(line) || /^\s*printWidth: 80 \(default\) \|$/.test(line)),
      input: parts[2],
      output: parts[3],
    })
  }
  return cases
}

const SNAPSHOT_LANGUAGES: Record<string, { language: string; parser: string }> = {
  js: { language: 'javascript', parser: 'babel' },
  typescript: { language: 'typescript', parser: 'typescript' },
  css: { language: 'css', parser: 'css' },
  scss: { language: 'scss', parser: 'scss' },
  less: { language: 'less', parser: 'less' },
  html: { language: 'html', parser: 'html' },
  markdown: { language: 'markdown', parser: 'markdown' },
  yaml: { language: 'yaml', parser: 'yaml' },
  graphql: { language: 'graphql', parser: 'graphql' },
}

/** Cases whose answer differs from the snapshot, and why. */
const SNAPSHOT_EXCEPTIONS: Record<string, string> = {
  'html_js.snap typescript.html format 1':
    'TypeScript in a <script type="application/x-typescript"> element: Prettier formats it with its typescript plugin, which the operation loads for typescript only, not for HTML, so the script is kept as written',
  'typescript_decorators-ts.snap angular.ts format 1':
    'the template of an Angular @Component: Prettier formats it with its angular plugin, which the operation does not load, so the template string is kept as written',
  'markdown_math.snap math-like.md format 1':
    "the snapshot's commit (main, 3.10.0-dev) reads `$14 million.    But if more $` as inline math and keeps its spaces; 3.10.1 reads it as text and joins them",
}

describe('format: Prettier 3 snapshots (tests/format/**/__snapshots__/format.test.js.snap, default options)', () => {
  const directory = new URL('prettier/', SUITES)
  const files = readdirSync(directory).filter((name) => name.endsWith('.snap'))
  for (const file of files) {
    const { language, parser } = SNAPSHOT_LANGUAGES[file.split('_')[0]]
    test(file, async () => {
      const cases = readSnapshots(readFileSync(new URL(file, directory), 'utf8')).filter((snapshot) => snapshot.defaults && snapshot.parsers[0] === parser)
      assert.ok(cases.length >= 2, `${file} holds default-option cases`)
      for (const snapshot of cases) {
        const key = `${file} ${snapshot.name}`
        const result = await formatted(snapshot.input, language)
        if (key in SNAPSHOT_EXCEPTIONS) assert.notEqual(result, snapshot.output, `${key} is listed as an exception but passes`)
        else assert.equal(result, snapshot.output, key)
      }
    })
  }

  test('the exceptions name cases that exist, and are few', () => {
    const names = new Set(files.flatMap((file) => readSnapshots(readFileSync(new URL(file, directory), 'utf8')).map((snapshot) => `${file} ${snapshot.name}`)))
    for (const key of Object.keys(SNAPSHOT_EXCEPTIONS)) assert.ok(names.has(key), key)
    assert.ok(Object.keys(SNAPSHOT_EXCEPTIONS).length <= 3)
  })
})

describe('format: sql-formatter (behavesLikeSqlFormatter.ts)', () => {
  const cases: Array<{ name: string; input: string; output: string }> = JSON.parse(
    readFileSync(new URL('sql-formatter/behaves-like-sql-formatter.json', SUITES), 'utf8'),
  )
  test(`all ${cases.length} cases`, async () => {
    assert.equal(cases.length, 15)
    for (const { name, input, output } of cases) assert.equal(await formatted(input, 'sql'), output, name)
  })
})

// ---------------------------------------------------------------------------------------------
// Properties

describe('format: properties (fast-check)', () => {
  test('minified JavaScript computes what the original computes (terser)', async () => {
    const variable = fc.constantFrom('a', 'b', 'c')
    const expression = fc.letrec<{ expression: string }>((tie) => ({
      expression: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.integer({ min: -20, max: 20 }).map(String),
        variable,
        fc
          .tuple(tie('expression'), fc.constantFrom('+', '-', '*', '%', '<', '===', '&&', '||', '??', '&', '<<'), tie('expression'))
          .map(([l, op, r]) => `(${l} ${op} ${r})`),
        fc.tuple(tie('expression'), tie('expression'), tie('expression')).map(([c, t, e]) => `(${c} ? ${t} : ${e})`),
        tie('expression').map((e) => `helper(${e})`),
        tie('expression').map((e) => `[${e}, 1].length`),
      ),
    })).expression
    const statement = fc.oneof(
      fc.tuple(variable, expression).map(([v, e]) => `${v} = ${e};`),
      fc.tuple(expression, variable, expression).map(([c, v, e]) => `if (${c}) { ${v} = ${e}; } else { ${v} = -${v}; }`),
      fc.tuple(variable, expression).map(([v, e]) => `for (let i = 0; i < 3; i++) { ${v} = ${v} + (${e}); }`),
      expression.map((e) => `out.push(${e});`),
    )
    const program = fc
      .array(statement, { minLength: 1, maxLength: 6 })
      .map(
        (statements) =>
          `function helper(value) { const doubled = value * 2; return typeof value === "number" ? doubled : String(value); }\n` +
          `function main(a, b, c) {\n  const out = [];\n  ${statements.join('\n  ')}\n  return JSON.stringify([a, b, c, out]);\n}\nresult = main(1, 2, 3);`,
      )
    const evaluate = (code: string) => {
      const scope: { result?: unknown } = {}
      new Function('scope', `with (scope) { ${code} }`)(scope)
      return scope.result
    }
    await fc.assert(
      fc.asyncProperty(program, fc.boolean(), fc.boolean(), async (code, mangle, compress) => {
        const output = await minified(code, 'javascript', { mangle, compress })
        assert.equal(evaluate(output), evaluate(code), output)
      }),
      { numRuns: 60 },
    )
  })

  test('minify(beautify(x)) is minify(x): CSS, GraphQL, XML, JSON', async () => {
    const name = fc.constantFrom('a', 'b', 'c', 'item', 'x1')
    const css = fc
      .array(
        fc.tuple(
          fc.constantFrom('a', '.b', '#c', 'ul > li', 'a:hover', 'p + p', '[data-x="1"]'),
          fc.array(fc.tuple(fc.constantFrom('color', 'margin', 'padding', 'width'), fc.constantFrom('red', '0', '1px 2px', '#ff0000', 'calc(1px + 2%)')), {
            maxLength: 4,
          }),
        ),
        { maxLength: 5 },
      )
      .map((rules) => rules.map(([selector, declarations]) => `${selector}{${declarations.map(([p, v]) => `${p}:${v}`).join(';')}}`).join('\n'))
    const selection = fc.letrec<{ selection: string }>((tie) => ({
      selection: fc
        .array(
          fc.oneof(
            { depthSize: 'small' },
            name,
            fc.tuple(name, tie('selection')).map(([field, inner]) => `${field} ${inner}`),
          ),
          {
            minLength: 1,
            maxLength: 3,
          },
        )
        .map((fields) => `{ ${fields.join(', ')} }`),
    })).selection
    const graphqlDocument = fc.tuple(fc.constantFrom('query', 'query Q', 'query Q($id: ID!)', ''), selection).map(([head, body]) => `${head} ${body}`.trim())
    const element = fc.letrec<{ element: string }>((tie) => ({
      element: fc.oneof(
        { depthSize: 'small' },
        fc.tuple(name, fc.stringMatching(/^[a-z ]{1,8}$/)).map(([tag, text]) => `<${tag}>${text.trim() || 'x'}</${tag}>`),
        name.map((tag) => `<${tag}/>`),
        fc.tuple(name, fc.array(tie('element'), { minLength: 1, maxLength: 3 })).map(([tag, children]) => `<${tag} k="v">${children.join('')}</${tag}>`),
      ),
    })).element
    const inputs = fc.oneof(
      css.map((input) => ({ input, language: 'css' })),
      graphqlDocument.map((input) => ({ input, language: 'graphql' })),
      element.map((input) => ({ input, language: 'xml' })),
      fc.jsonValue({ maxDepth: 4 }).map((value) => ({ input: JSON.stringify(value), language: 'json' })),
    )
    await fc.assert(
      fc.asyncProperty(inputs, fc.integer({ min: 1, max: 8 }), async ({ input, language }, indent) => {
        const beautified = await formatted(input, language, { indent })
        assert.equal(await minified(beautified, language), await minified(input, language), JSON.stringify({ input, beautified }))
      }),
      { numRuns: 120 },
    )
  })

  test('beautify is idempotent for Prettier’s languages', async () => {
    const samples = fc.constantFrom(
      ['javascript', 'const a={b:1,c:[1,2,3]};function f(x){return x*2}'],
      ['typescript', 'type T={a:string,b?:number};const f=(x:T):number=>x.b??0'],
      ['css', 'a{color:red;margin:0 auto}b,i{padding:0}'],
      ['html', '<div><p>a<b>b</b></p><ul><li>1<li>2</ul></div>'],
      ['markdown', '#  T\n*  a\n*  b\n\n|a|b|\n|-|-|\n|1|2|'],
      ['yaml', 'a:   1\nb:\n    - x\n    -   y\n'],
      ['graphql', 'query{a{b c(d:1){e}}}'],
    )
    await fc.assert(
      fc.asyncProperty(samples, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 20, max: 120 }), async ([language, input], indent, printWidth) => {
        const once = await formatted(input, language, { indent, printWidth })
        assert.equal(await formatted(once, language, { indent, printWidth }), once)
      }),
      { numRuns: 40 },
    )
  })
})
