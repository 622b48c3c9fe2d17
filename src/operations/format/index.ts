/// <reference path="../../types/csso-dist.d.ts" />
import { Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { type DevutilsError, invalidInput, isDevutilsError, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { layOutJson } from '../../lib/json/lay-out.ts'
import { lineAndColumn } from '../../lib/json/value.ts'
import { LANGUAGE_NAMES, LANGUAGES, type Language } from './languages.ts'
import { MAX_XML_NODES, secondXmlRoot } from './markup-scan.ts'
import { scanNesting } from './nesting-scan.ts'

/** The longest `input`, in UTF-16 code units: a request body of the default limit holds no more. */
export const MAX_INPUT_LENGTH = 1024 * 1024

const ACTIONS = ['beautify', 'minify'] as const
type Action = (typeof ACTIONS)[number]
/** The languages `minify` takes: the others have no minifier that keeps their meaning (YAML, Markdown) or none among the engines. */
export const MINIFIABLE: readonly Language[] = ['javascript', 'css', 'html', 'xml', 'json', 'graphql']
/** sql-formatter's dialects; `tsql` is its other name for `transactsql`. */
export const SQL_DIALECTS = [
  'sql',
  'bigquery',
  'clickhouse',
  'db2',
  'db2i',
  'duckdb',
  'hive',
  'mariadb',
  'mysql',
  'n1ql',
  'plsql',
  'postgresql',
  'redshift',
  'singlestoredb',
  'snowflake',
  'spark',
  'sqlite',
  'tidb',
  'transactsql',
  'tsql',
  'trino',
] as const

type PrettierLanguage = Exclude<Language, 'json' | 'sql' | 'xml'>
const PRETTIER_PARSERS: Record<PrettierLanguage, string> = {
  javascript: 'babel',
  typescript: 'typescript',
  css: 'css',
  scss: 'scss',
  less: 'less',
  html: 'html',
  markdown: 'markdown',
  yaml: 'yaml',
  graphql: 'graphql',
}

// ---------------------------------------------------------------------------------------------
// The engines, each loaded with its first use (see lazily): together they are larger than the rest
// of the service, and a start or a call of another operation loads none of them.

type Plugin = import('prettier').Plugin
const prettierCore = lazily(() => import('prettier/standalone'))
const estreePlugin = lazily(async () => (await import('prettier/plugins/estree')) as Plugin)
const babelPlugin = lazily(async () => (await import('prettier/plugins/babel')) as Plugin)
const typescriptPlugin = lazily(async () => (await import('prettier/plugins/typescript')) as Plugin)
const postcssPlugin = lazily(async () => (await import('prettier/plugins/postcss')) as Plugin)
const htmlPlugin = lazily(async () => (await import('prettier/plugins/html')) as Plugin)
const markdownPlugin = lazily(async () => (await import('prettier/plugins/markdown')) as Plugin)
const yamlPlugin = lazily(async () => (await import('prettier/plugins/yaml')) as Plugin)
const graphqlPlugin = lazily(async () => (await import('prettier/plugins/graphql')) as Plugin)

/**
 * The plugins each language needs. HTML's scripts and styles are formatted by the JavaScript and CSS
 * printers; Markdown's code blocks are kept as written, so it needs only its own.
 */
const PRETTIER_PLUGINS: Record<PrettierLanguage, Array<() => Promise<Plugin>>> = {
  javascript: [babelPlugin, estreePlugin],
  typescript: [typescriptPlugin, estreePlugin],
  css: [postcssPlugin],
  scss: [postcssPlugin],
  less: [postcssPlugin],
  html: [htmlPlugin, babelPlugin, estreePlugin, postcssPlugin],
  markdown: [markdownPlugin],
  yaml: [yamlPlugin],
  graphql: [graphqlPlugin],
}

const sqlFormatter = lazily(() => import('sql-formatter'))
const xmlFormatter = lazily(async () => commonJsExports(await import('xml-formatter')) as unknown as typeof import('xml-formatter').default)
const xmlValidator = lazily(async () => (await import('fast-xml-parser')).XMLValidator)
const terser = lazily(() => import('terser'))
/**
 * csso's prebuilt bundle (with css-tree and its data inside) rather than its modules, which read
 * their JSON data with a `require` relative to their own files, files a bundle does not carry.
 */
const csso = lazily(() => import('csso/dist/csso.esm'))
const htmlMinifier = lazily(() => import('html-minifier-terser'))
const graphql = lazily(() => import('graphql'))

// ---------------------------------------------------------------------------------------------
// Fields that apply to some languages or actions only

interface Options {
  language: Language
  action: Action
  indent: number
  useTabs: boolean
  printWidth: number
  quotes: 'double' | 'single'
  semicolons: boolean
  trailingComma: 'all' | 'es5' | 'none'
  dialect: (typeof SQL_DIALECTS)[number]
  keywordCase: 'preserve' | 'upper' | 'lower'
  mangle: boolean
  compress: boolean
}

const isScript = (language: Language) => language === 'javascript' || language === 'typescript'
const takesPrintWidth = (language: Language) => language !== 'json' && language !== 'sql' && language !== 'xml'

/** Each optional field: its default, where it applies, and how to say so. */
const FIELD_RULES: Array<{ field: keyof Options; fallback: unknown; applies: (o: Options) => boolean; where: string }> = [
  { field: 'indent', fallback: 2, applies: (o) => o.action === 'beautify', where: 'beautify' },
  {
    field: 'useTabs',
    fallback: false,
    applies: (o) => o.action === 'beautify' && o.language !== 'yaml',
    where: 'beautify of languages other than YAML (YAML forbids tabs in indentation)',
  },
  {
    field: 'printWidth',
    fallback: 80,
    applies: (o) => o.action === 'beautify' && takesPrintWidth(o.language),
    where: 'beautify of javascript, typescript, css, scss, less, html, markdown, yaml and graphql',
  },
  { field: 'quotes', fallback: 'double', applies: (o) => o.action === 'beautify' && isScript(o.language), where: 'beautify of javascript and typescript' },
  { field: 'semicolons', fallback: true, applies: (o) => o.action === 'beautify' && isScript(o.language), where: 'beautify of javascript and typescript' },
  { field: 'trailingComma', fallback: 'all', applies: (o) => o.action === 'beautify' && isScript(o.language), where: 'beautify of javascript and typescript' },
  { field: 'dialect', fallback: 'sql', applies: (o) => o.language === 'sql', where: 'sql' },
  { field: 'keywordCase', fallback: 'preserve', applies: (o) => o.language === 'sql', where: 'sql' },
  { field: 'mangle', fallback: true, applies: (o) => o.action === 'minify' && o.language === 'javascript', where: 'minify of javascript' },
  { field: 'compress', fallback: true, applies: (o) => o.action === 'minify' && o.language === 'javascript', where: 'minify of javascript' },
]

/**
 * A field sent for another language or action would be silently ignored, even at its default value:
 * a 400 naming it instead. These fields carry no schema default, so that a sent field can be told
 * from an omitted one; the defaults are filled in here.
 */
function optionsOf(fields: Partial<Options> & Pick<Options, 'language' | 'action'>): Options {
  if (fields.action === 'minify' && !MINIFIABLE.includes(fields.language)) {
    throw validationError('action', `minify takes only ${MINIFIABLE.join(', ')}, not ${fields.language}; beautify takes every language`)
  }
  const options = { ...fields } as Record<string, unknown>
  for (const { field, fallback, applies, where } of FIELD_RULES) {
    if (fields[field] === undefined) options[field] = fallback
    else if (!applies(fields as Options)) {
      throw validationError(field, `applies only to ${where}, not to ${fields.action} of ${fields.language}`)
    }
  }
  return options as unknown as Options
}

// ---------------------------------------------------------------------------------------------
// Errors from the engines, in the service's terms

/** The offset of a line and column (both from 1), for `details.position`. */
function positionOf(input: string, line: number, column: number): number {
  let start = 0
  for (let at = 1; at < line; at++) {
    const newline = input.indexOf('\n', start)
    if (newline === -1) break
    start = newline + 1
  }
  return Math.min(input.length, start + column - 1)
}

function syntaxError(input: string, language: Language, reason: string, line?: number, column?: number): DevutilsError {
  const cleaned = reason.replace(/\s*\(\d+:\d+\)\.?$/, '').replace(/\.$/, '')
  if (line === undefined || column === undefined || !Number.isFinite(line) || !Number.isFinite(column)) {
    return invalidInput(`input is not valid ${LANGUAGE_NAMES[language]}: ${cleaned}`, { field: 'input' })
  }
  const position = positionOf(input, line, column)
  return invalidInput(`input is not valid ${LANGUAGE_NAMES[language]}: ${cleaned} at line ${line}, column ${column}`, {
    field: 'input',
    position,
    line,
    column,
  })
}

const firstLine = (message: string) => message.split('\n')[0].trim()

/** A stack overflow in an engine, past what the scan could see (nesting the scan does not count): the same limit. */
function tooDeepToFormat(language: Language): DevutilsError {
  return limitExceeded(`The ${LANGUAGE_NAMES[language]} nests too deeply to format; keep it within ${MAX_NESTING_DEPTH} levels`, {
    field: 'input',
    limit: MAX_NESTING_DEPTH,
  })
}

/** What an engine threw, answered: its own place where it gives one. */
function engineError(error: unknown, input: string, language: Language, where?: { line?: number; column?: number }): DevutilsError {
  if (isDevutilsError(error)) return error
  // Prettier's YAML printer wraps the RangeError of an overflow in an error of its own: its message still says so.
  if (error instanceof RangeError || (error instanceof Error && /Maximum call stack size exceeded/.test(error.message))) return tooDeepToFormat(language)
  const message = error instanceof Error ? firstLine(error.message) : String(error)
  return syntaxError(input, language, message, where?.line, where?.column)
}

// ---------------------------------------------------------------------------------------------
// Beautify

async function beautifyWithPrettier(input: string, language: PrettierLanguage, options: Options): Promise<string> {
  const [prettier, ...plugins] = await Promise.all([prettierCore(), ...PRETTIER_PLUGINS[language].map((load) => load())])
  try {
    return await prettier.format(input, {
      parser: PRETTIER_PARSERS[language],
      // As the prettier command formats an .html file: its HTML5 doctype in lower case.
      ...(language === 'html' ? { filepath: 'index.html' } : {}),
      plugins,
      tabWidth: options.indent,
      useTabs: options.useTabs,
      printWidth: options.printWidth,
      singleQuote: options.quotes === 'single',
      semi: options.semicolons,
      trailingComma: options.trailingComma,
      endOfLine: 'lf',
    })
  } catch (error) {
    const loc = (error as { loc?: { start?: { line?: number; column?: number } } }).loc?.start
    throw engineError(error, input, language, loc)
  }
}

async function formatSql(input: string, options: Options): Promise<string> {
  const { format } = await sqlFormatter()
  try {
    return format(input, { language: options.dialect, tabWidth: options.indent, useTabs: options.useTabs, keywordCase: options.keywordCase })
  } catch (error) {
    const place = error instanceof Error ? / at line (\d+) column (\d+)/.exec(error.message) : null
    // A stack overflow passes as it is, so that it is answered as one and not as a syntax error.
    const reason =
      error instanceof Error && !(error instanceof RangeError)
        ? new Error(
            firstLine(error.message)
              .replace(/ at line \d+ column \d+\.?$/, '')
              .replace(/^Parse error: /, ''),
          )
        : error
    const cause = engineError(reason, input, 'sql', place ? { line: Number(place[1]), column: Number(place[2]) } : undefined)
    if (cause.code === 'INVALID_INPUT' && options.dialect === 'sql') {
      throw invalidInput(`${cause.message} (the generic sql dialect; naming the database's dialect may accept it)`, cause.details)
    }
    throw cause
  }
}

/** XML is checked by fast-xml-parser's validator first: xml-formatter repairs mismatched and unclosed tags silently. */
async function validXml(input: string): Promise<void> {
  const validator = await xmlValidator()
  const verdict = validator.validate(input, { allowBooleanAttributes: false })
  if (verdict === true) return
  const { msg, line, col } = verdict.err
  if (col === undefined) {
    // A missing root element is missed at the end of the input: its place is there.
    const end = lineAndColumn(input, input.length)
    throw syntaxError(input, 'xml', msg, end.line, end.column)
  }
  throw syntaxError(input, 'xml', msg, line, col)
}

async function formatXml(input: string, options: Options): Promise<string> {
  await validXml(input)
  const formatter = await xmlFormatter()
  try {
    if (options.action === 'minify') return formatter.minify(input, { collapseContent: true })
    return formatter(input, { indentation: options.useTabs ? '\t' : ' '.repeat(options.indent), lineSeparator: '\n', collapseContent: true })
  } catch (error) {
    const second = error instanceof Error && /multiple root/i.test(error.message) ? secondXmlRoot(input) : -1
    if (second !== -1) {
      const { line, column } = lineAndColumn(input, second)
      throw syntaxError(input, 'xml', 'more than one root element', line, column)
    }
    throw engineError(error, input, 'xml')
  }
}

/** JSON goes through the json operation's writer, which keeps every literal (numbers' digits) as written. */
function formatJson(input: string, options: Options): string {
  const indent = options.action === 'minify' ? '' : options.useTabs ? '\t' : ' '.repeat(options.indent)
  return layOutJson(input, { indent, sortKeys: false, lenient: false }).text
}

// ---------------------------------------------------------------------------------------------
// Minify

async function minifyJavaScript(input: string, options: Options): Promise<string> {
  const { minify } = await terser()
  try {
    const { code } = await minify(input, { mangle: options.mangle, compress: options.compress })
    return code ?? ''
  } catch (error) {
    const place = error as { line?: number; col?: number }
    throw engineError(error, input, 'javascript', place.line === undefined || place.col === undefined ? undefined : { line: place.line, column: place.col + 1 })
  }
}

async function minifyCss(input: string): Promise<string> {
  const { minify, syntax } = await csso()
  try {
    // csso reads past errors; the parser's error callback stops at the first instead.
    syntax.parse(input, {
      positions: true,
      onParseError: (error: unknown) => {
        throw error
      },
    } as Parameters<typeof syntax.parse>[1])
    return minify(input).css
  } catch (error) {
    const place = error as { line?: number; column?: number }
    throw engineError(error, input, 'css', place)
  }
}

async function minifyHtml(input: string): Promise<string> {
  const { minify } = await htmlMinifier()
  try {
    return await minify(input, {
      collapseWhitespace: true,
      removeComments: true,
      collapseBooleanAttributes: true,
      minifyCSS: true,
      minifyJS: true,
    })
  } catch (error) {
    // Its parser names the text it stopped at, which runs to the end of the input.
    const rest = error instanceof Error ? /^Parse Error: ([\s\S]*)$/.exec(error.message)?.[1] : undefined
    if (rest !== undefined && input.endsWith(rest)) {
      const { line, column } = lineAndColumn(input, input.length - rest.length)
      throw syntaxError(input, 'html', `cannot read the markup from ${JSON.stringify(firstLine(rest).slice(0, 40))}`, line, column)
    }
    throw engineError(error, input, 'html')
  }
}

async function minifyGraphql(input: string): Promise<string> {
  const { parse, stripIgnoredCharacters, GraphQLError } = await graphql()
  try {
    // stripIgnoredCharacters only reads tokens: parsing first refuses what is not a document.
    parse(input, { noLocation: true })
    return stripIgnoredCharacters(input)
  } catch (error) {
    const place = error instanceof GraphQLError ? error.locations?.[0] : undefined
    throw engineError(error, input, 'graphql', place)
  }
}

async function formatText(input: string, options: Options): Promise<string> {
  const { language, action } = options
  if (language === 'json') return formatJson(input, options)
  if (language === 'xml') return formatXml(input, options)
  if (action === 'beautify') return language === 'sql' ? formatSql(input, options) : beautifyWithPrettier(input, language, options)
  if (language === 'javascript') return minifyJavaScript(input, options)
  if (language === 'css') return minifyCss(input)
  if (language === 'html') return minifyHtml(input)
  return minifyGraphql(input)
}

// ---------------------------------------------------------------------------------------------

export const format = defineOperation({
  name: 'format',
  category: 'converters',
  summary: 'Beautify or minify code: JavaScript, TypeScript, JSON, CSS, SCSS, Less, HTML, Markdown, YAML, GraphQL, SQL, XML',
  title: 'Code formatter and minifier',
  aliases: [
    'beautify',
    'prettify',
    'pretty print',
    'minify',
    'uglify',
    'prettier',
    'format code',
    'code formatter',
    'format sql',
    'sql formatter',
    'format xml',
    'format html',
    'format css',
    'format yaml',
    'format javascript',
    'minify javascript',
    'minify css',
    'minify html',
    'compress code',
    'terser',
    'csso',
    'indent',
  ],
  description:
    '`beautify` (the default) lays code out again: JavaScript, TypeScript, CSS, SCSS, Less, HTML, Markdown, YAML and GraphQL with Prettier 3 (its defaults, so the answer is what `prettier` writes with `indent`, `useTabs`, `printWidth` and, for JavaScript and TypeScript, `quotes`, `semicolons` and `trailingComma`); ' +
    "SQL with sql-formatter in one of its dialects (`dialect`, and `keywordCase`); it lays out any text and does not check the SQL's grammar, so a typo in a keyword comes back as written, but an unclosed string or quote is refused; " +
    'XML with xml-formatter, after a check that it is well formed (mismatched or unclosed tags are refused, not repaired; text and mixed content are kept on their lines; a DOCTYPE is kept as written and its entities are never expanded); ' +
    'JSON with the json operation’s writer, which keeps every literal as written (12345678901234567890 and 1.0 stay). Markdown’s code blocks are kept as written, and YAML’s aliases are printed as aliases, never expanded. ' +
    '`minify` takes javascript (terser: `compress` rewrites for size, `mangle` shortens local names; top-level names are kept, as a script needs), css (csso, which also merges rules), html (html-minifier-terser: whitespace between block elements removed and elsewhere collapsed, comments removed, inline scripts and styles minified), xml (whitespace between tags removed), json and graphql (graphql-js `stripIgnoredCharacters`, after checking the document parses). ' +
    'The output ends lines with LF. Every field but `input`, `language` and `action` applies to some languages or actions only: sent elsewhere, even at its default, it is a 400 naming it, as is `minify` for typescript, scss, less, markdown, yaml or sql. ' +
    `A syntax error is a 422 INVALID_INPUT with the engine’s reason and its \`line\`, \`column\` (from 1) and \`position\` (from 0). Nesting deeper than ${MAX_NESTING_DEPTH} levels (brackets outside strings and comments; JavaScript's and TypeScript's ternaries, JSX elements and type arguments; SQL's CASE and BEGIN … END; elements, block quotes and lists; YAML collections and complex keys; scanned before any engine reads it), XML of more than ${MAX_XML_NODES.toLocaleString('en-US')} elements, attributes and texts (comments and CDATA sections among them; white space between tags is not counted) and an answer past the output limit (predicted before any engine runs from every place a line may break, indented as deep as it lies, and measured again after) are a 422 LIMIT_EXCEEDED. ` +
    'Every call runs on a worker thread within the time budget, and one still running when it ends is stopped and answered 422 LIMIT_EXCEEDED (`details.reason: "timeout"`): Prettier formats about half a megabyte of JavaScript a second, sql-formatter about 150 KB.',
  input: Type.Object(
    {
      input: Type.String({
        maxLength: MAX_INPUT_LENGTH,
        description: 'The code to format, in `language`. May be empty.',
        examples: ['const a={b:1,c:[1,2,3]};function f(x){return x*2}'],
      }),
      language: Type.Enum(LANGUAGES, { description: 'The language of `input`.' }),
      action: withDefault(
        Type.Enum(ACTIONS, {
          description: `\`beautify\`: indent and lay out; \`minify\`: remove what the language does not need (${MINIFIABLE.join(', ')} only).`,
        }),
        'beautify',
      ),
      indent: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 8, description: 'beautify: spaces per indentation level (the width of a tab with `useTabs`). Default 2.' }),
      ),
      useTabs: Type.Optional(Type.Boolean({ description: 'beautify: indent with tabs rather than spaces (not for YAML, which forbids them). Default false.' })),
      printWidth: Type.Optional(
        Type.Integer({
          minimum: 20,
          maximum: 320,
          description: 'beautify, Prettier’s languages (not json, sql, xml): the line length it tries to keep within. Default 80.',
        }),
      ),
      quotes: Type.Optional(
        Type.Enum(['double', 'single'] as const, {
          description: 'beautify, javascript and typescript: the quotes strings get (where fewer escapes do not need the other). Default `double`.',
        }),
      ),
      semicolons: Type.Optional(
        Type.Boolean({
          description:
            'beautify, javascript and typescript: end statements with semicolons; false writes them only where a line would join the next. Default true.',
        }),
      ),
      trailingComma: Type.Optional(
        Type.Enum(['all', 'es5', 'none'] as const, {
          description:
            'beautify, javascript and typescript: a comma after the last item of a list broken over lines: everywhere, where ES5 allows it, or never. Default `all`.',
        }),
      ),
      dialect: Type.Optional(
        Type.Enum(SQL_DIALECTS, {
          description: 'sql: the dialect of SQL (its keywords, quotes, operators); `sql` is standard SQL. `tsql` is `transactsql`. Default `sql`.',
        }),
      ),
      keywordCase: Type.Optional(
        Type.Enum(['preserve', 'upper', 'lower'] as const, {
          description: 'sql: write keywords as written, in upper case or in lower case. Default `preserve`.',
        }),
      ),
      mangle: Type.Optional(Type.Boolean({ description: 'minify, javascript: shorten the names of local variables and functions. Default true.' })),
      compress: Type.Optional(
        Type.Boolean({ description: 'minify, javascript: rewrite the code to be shorter (drop dead code, join declarations, fold constants). Default true.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The formatted or minified code.' }),
    language: Type.Enum(LANGUAGES, { description: 'The language formatted.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  }),
  actions: {
    beautify: { fields: ['input', 'language', 'indent', 'useTabs', 'printWidth', 'quotes', 'semicolons', 'trailingComma', 'dialect', 'keywordCase'] },
    minify: { fields: ['input', 'language', 'dialect', 'mangle', 'compress'] },
  },
  examples: [
    {
      summary: 'Beautify JavaScript (Prettier)',
      input: { input: 'const a={b:1,c:[1,2,3]};function f(x){return x*2}', language: 'javascript' },
      output: { result: 'const a = { b: 1, c: [1, 2, 3] };\nfunction f(x) {\n  return x * 2;\n}\n', language: 'javascript', action: 'beautify' },
    },
    {
      summary: 'Beautify SQL, keywords in upper case',
      input: { input: 'select tbl.*, count(*), col1 * col2 from tbl;', language: 'sql', keywordCase: 'upper' },
      output: { result: 'SELECT\n  tbl.*,\n  count(*),\n  col1 * col2\nFROM\n  tbl;', language: 'sql', action: 'beautify' },
    },
    {
      summary: 'Minify JavaScript (terser)',
      input: { input: 'function add(first, second) { return first + second }; console.log(add(1, 2))', language: 'javascript', action: 'minify' },
      output: { result: 'function add(d,n){return d+n}console.log(add(1,2));', language: 'javascript', action: 'minify' },
    },
    {
      summary: 'Minify CSS (csso merges the rules)',
      input: { input: 'a { color: #ff0000; margin: 0px 0px 0px 0px } a { padding: 0 }', language: 'css', action: 'minify' },
      output: { result: 'a{color:red;margin:0;padding:0}', language: 'css', action: 'minify' },
    },
  ],
  // Every call: a small input can still hold an engine for seconds (nested ternaries, long chains), and
  // only a worker thread can be stopped when the time budget ends.
  offload: () => true,
  overrun: { advice: 'send less code at once, or format it in parts' },
  async run(fields) {
    const options = optionsOf(fields)
    const { input, language, action } = fields
    const indentWidth = options.useTabs ? 1 : options.indent
    const { predictedLength } = scanNesting(input, language, action === 'minify' ? 0 : indentWidth, options.dialect)
    assertOutputWithinLimit(predictedLength)
    const result = await formatText(input, options)
    assertOutputWithinLimit(Buffer.byteLength(result))
    return { result, language, action }
  },
})
