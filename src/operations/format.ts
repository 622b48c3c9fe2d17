/// <reference path="../types/csso-dist.d.ts" />
import { Type } from 'typebox'
import { commonJsExports } from '../core/commonjs.ts'
import { type DevutilsError, invalidInput, isDevutilsError, limitExceeded, validationError } from '../core/errors.ts'
import { lineAndColumn } from '../core/json-value.ts'
import { lazily } from '../core/lazy.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH } from '../core/limits.ts'
import { defineOperation, withDefault } from '../core/operation.ts'
import { json } from './json.ts'
import { scanHtml } from './markdown.ts'

/** The longest `input`, in UTF-16 code units: a request body of the default limit holds no more. */
export const MAX_INPUT_LENGTH = 1024 * 1024

/**
 * Longer inputs go to a worker thread: the formatters parse the whole text into a tree and print it
 * again, which past this length holds the event loop far longer than a thread hop costs.
 */
export const OFFLOAD_LENGTH = 16 * 1024

export const LANGUAGES = ['javascript', 'typescript', 'json', 'css', 'scss', 'less', 'html', 'markdown', 'yaml', 'graphql', 'sql', 'xml'] as const
type Language = (typeof LANGUAGES)[number]
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

/** How each language is named in messages. */
const LANGUAGE_NAMES: Record<Language, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  json: 'JSON',
  css: 'CSS',
  scss: 'SCSS',
  less: 'Less',
  html: 'HTML',
  markdown: 'Markdown',
  yaml: 'YAML',
  graphql: 'GraphQL',
  sql: 'SQL',
  xml: 'XML',
}

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

/** A field set for another language or action would be silently ignored: a 400 naming it instead. */
function refuseMisplacedFields(options: Options): void {
  if (options.action === 'minify' && !MINIFIABLE.includes(options.language)) {
    throw validationError('action', `minify takes only ${MINIFIABLE.join(', ')}, not ${options.language}; beautify takes every language`)
  }
  for (const { field, fallback, applies, where } of FIELD_RULES) {
    if (options[field] !== fallback && !applies(options)) {
      throw validationError(field, `applies only to ${where}, not to ${options.action} of ${options.language}`)
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Nesting, scanned before any engine parses: they all recurse into nested structures, and a deep
// enough input exhausts the stack.

interface Scan {
  /** The deepest nesting seen. */
  depth: number
  /** About the longest text beautifying could write: each place a line may break, indented as deep as it lies. */
  predictedLength: number
}

function tooDeep(input: string, language: Language, position: number, what: string): DevutilsError {
  const { line, column } = lineAndColumn(input, position)
  return limitExceeded(
    `The ${LANGUAGE_NAMES[language]} nests ${what} deeper than ${MAX_NESTING_DEPTH} levels (at line ${line}, column ${column}); flatten it or format it in parts`,
    { field: 'input', position, line, column, limit: MAX_NESTING_DEPTH },
  )
}

interface BracketSyntax {
  lineComments: string[]
  blockComments: boolean
  quotes: string
  templates: boolean
  regexLiterals: boolean
  tripleQuotes: boolean
  /** SQL: `CASE` and `BEGIN` open a level that `END` closes, as a bracket would. */
  blockWords?: boolean
  /**
   * JavaScript: a statement without braces under `if`, `else`, `for`, `while`, `do` or `with` is one
   * level deeper (`if (a) if (b) c;`), up to the `;`, `{` or `}` that ends the chain.
   */
  statementWords?: boolean
}

const SCRIPT_SYNTAX: BracketSyntax = {
  lineComments: ['//'],
  blockComments: true,
  quotes: '\'"',
  templates: true,
  regexLiterals: true,
  tripleQuotes: false,
  statementWords: true,
}
const BRACKET_SYNTAX: Partial<Record<Language, BracketSyntax>> = {
  javascript: SCRIPT_SYNTAX,
  typescript: SCRIPT_SYNTAX,
  css: { lineComments: [], blockComments: true, quotes: '\'"', templates: false, regexLiterals: false, tripleQuotes: false },
  scss: { lineComments: ['//'], blockComments: true, quotes: '\'"', templates: false, regexLiterals: false, tripleQuotes: false },
  less: { lineComments: ['//'], blockComments: true, quotes: '\'"', templates: false, regexLiterals: false, tripleQuotes: false },
  graphql: { lineComments: ['#'], blockComments: false, quotes: '"', templates: false, regexLiterals: false, tripleQuotes: true },
  sql: { lineComments: ['--'], blockComments: true, quotes: '\'"`', templates: false, regexLiterals: false, tripleQuotes: false, blockWords: true },
}

const OPENERS = '([{'
const CLOSERS = ')]}'
/** A `${` of a template literal, on the stack of open brackets. */
const TEMPLATE_HOLE = 0
/** SQL's `CASE` or `BEGIN`, on the stack of open brackets. */
const BLOCK_WORD = 1
const OPENING_WORDS = new Set(['case', 'begin'])
const STATEMENT_WORDS = new Set(['if', 'else', 'for', 'while', 'do', 'with'])
/** After these a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set('(,=:[!&|?{};+-*%<>~^')
const KEYWORDS_BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof'])
const isWordCode = (code: number) =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x24

/**
 * Brackets outside strings and comments, in one pass with no recursion. A closing bracket closes the
 * innermost open one of its kind, dropping any left open inside it (a bracket in a regular
 * expression the scan took for a division), so one stray bracket does not add up.
 */
function scanBrackets(input: string, language: Language, syntax: BracketSyntax, indentWidth: number): Scan {
  const stack: number[] = []
  let depth = 0
  let predicted = input.length
  let lastSignificant = ''
  let lastWord = ''
  let inTemplate = false
  // The statement headers chained at each bracket level, and their sum.
  const chains: number[] = [0]
  let chained = 0
  const endChain = (level: number) => {
    chained -= chains[level] ?? 0
    chains[level] = 0
  }
  let i = 0
  const n = input.length
  const skipTemplate = () => {
    // Inside a template literal's text, up to its end or its next `${`.
    while (i < n) {
      const code = input.charCodeAt(i)
      if (code === 0x5c) i += 2
      else if (code === 0x60) {
        i++
        inTemplate = false
        lastSignificant = '`'
        return
      } else if (code === 0x24 && input.charCodeAt(i + 1) === 0x7b) {
        i += 2
        inTemplate = false
        open(TEMPLATE_HOLE, i - 2)
        lastSignificant = '{'
        return
      } else i++
    }
  }
  const what = syntax.blockWords ? 'parentheses and CASE or BEGIN … END blocks' : syntax.statementWords ? 'brackets and statements' : 'brackets'
  const deeper = (at: number) => {
    const level = stack.length + chained
    if (level > depth) depth = level
    if (level > MAX_NESTING_DEPTH) throw tooDeep(input, language, at, what)
    predicted += 1 + level * indentWidth
  }
  const open = (kind: number, at: number) => {
    stack.push(kind)
    chains[stack.length] = 0
    deeper(at)
  }
  /** Closes the brackets from `level` up, with the statement chains inside them. */
  const closeTo = (level: number) => {
    for (let k = level + 1; k < chains.length; k++) chained -= chains[k]
    chains.length = level + 1
    stack.length = level
  }
  while (i < n) {
    if (inTemplate) {
      skipTemplate()
      continue
    }
    const code = input.charCodeAt(i)
    const char = input[i]
    if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) {
      i++
      continue
    }
    if (syntax.lineComments.some((marker) => input.startsWith(marker, i))) {
      const end = input.indexOf('\n', i)
      i = end === -1 ? n : end + 1
      continue
    }
    if (syntax.blockComments && code === 0x2f && input.charCodeAt(i + 1) === 0x2a) {
      const end = input.indexOf('*/', i + 2)
      i = end === -1 ? n : end + 2
      continue
    }
    if (syntax.tripleQuotes && input.startsWith('"""', i)) {
      let end = i + 3
      for (;;) {
        end = input.indexOf('"""', end)
        if (end === -1 || input.charCodeAt(end - 1) !== 0x5c) break
        end += 3
      }
      i = end === -1 ? n : end + 3
      lastSignificant = '"'
      continue
    }
    if (syntax.quotes.includes(char)) {
      // A string ends at its closing quote, or at the end of its line where the language allows no line break in one.
      i++
      while (i < n) {
        const inside = input.charCodeAt(i)
        if (inside === 0x5c) i += 2
        else if (inside === code) {
          i++
          break
        } else if (inside === 0x0a && language !== 'sql') break
        else i++
      }
      lastSignificant = char
      continue
    }
    if (syntax.templates && code === 0x60) {
      i++
      inTemplate = true
      continue
    }
    if (syntax.regexLiterals && code === 0x2f && (lastSignificant === '' || BEFORE_REGEX.has(lastSignificant) || KEYWORDS_BEFORE_REGEX.has(lastWord))) {
      // A regular expression literal: to its closing slash outside a character class, on one line.
      let inClass = false
      i++
      while (i < n) {
        const inside = input.charCodeAt(i)
        if (inside === 0x5c) i += 2
        else if (inside === 0x0a) break
        else {
          i++
          if (inside === 0x5b) inClass = true
          else if (inside === 0x5d) inClass = false
          else if (inside === 0x2f && !inClass) break
        }
      }
      lastSignificant = '/re'
      lastWord = ''
      continue
    }
    if (isWordCode(code)) {
      const start = i
      while (i < n && isWordCode(input.charCodeAt(i))) i++
      lastWord = input.slice(start, i)
      if (syntax.statementWords && lastSignificant !== '.' && STATEMENT_WORDS.has(lastWord)) {
        chains[stack.length]++
        chained++
        deeper(start)
      }
      lastSignificant = 'w'
      if (syntax.blockWords && i - start <= 5) {
        const word = lastWord.toLowerCase()
        if (OPENING_WORDS.has(word)) open(BLOCK_WORD, start)
        else if (word === 'end') {
          const at = stack.lastIndexOf(BLOCK_WORD)
          if (at !== -1) closeTo(at)
        }
      }
      continue
    }
    lastWord = ''
    lastSignificant = char
    i++
    const opener = OPENERS.indexOf(char)
    if (opener !== -1) {
      // A block ends the chain of headers before it: its braces are the level they add.
      if (code === 0x7b) endChain(stack.length)
      open(code, i - 1)
      continue
    }
    const closer = CLOSERS.indexOf(char)
    if (closer !== -1) {
      const wanted = OPENERS.charCodeAt(closer)
      const at = stack.lastIndexOf(wanted)
      const hole = code === 0x7d ? stack.lastIndexOf(TEMPLATE_HOLE) : -1
      if (hole > at) {
        closeTo(hole)
        inTemplate = true
      } else if (at !== -1) {
        closeTo(at)
        if (code === 0x7d) endChain(at)
      }
      continue
    }
    if (char === ';') endChain(stack.length)
    if (char === ',' || char === ';') predicted += 1 + (stack.length + chained) * indentWidth
  }
  return { depth, predictedLength: predicted }
}

/** The end of a markup tag that starts at `from`, past quoted attribute values; -1 if it never ends. */
function tagEnd(text: string, from: number): number {
  let quote = 0
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (quote !== 0) {
      if (code === quote) quote = 0
    } else if (code === 0x22 || code === 0x27) quote = code
    else if (code === 0x3e) return i
  }
  return -1
}

/** XML elements, in one pass: comments, CDATA sections, processing instructions and the DOCTYPE hold none. */
function scanXml(input: string, indentWidth: number): Scan {
  let open = 0
  let depth = 0
  let predicted = input.length
  let i = 0
  for (;;) {
    const lt = input.indexOf('<', i)
    if (lt === -1) break
    const skipTo = (end: string, from: number) => {
      const at = input.indexOf(end, from)
      return at === -1 ? input.length : at + end.length
    }
    if (input.startsWith('<!--', lt)) i = skipTo('-->', lt + 4)
    else if (input.startsWith('<![CDATA[', lt)) i = skipTo(']]>', lt + 9)
    else if (input.startsWith('<?', lt)) i = skipTo('?>', lt + 2)
    else if (input.startsWith('<!', lt)) {
      // A DOCTYPE's internal subset holds declarations in brackets, each with its own `>`.
      const bracket = input.indexOf('[', lt)
      const close = input.indexOf('>', lt)
      i = bracket !== -1 && (close === -1 || bracket < close) ? skipTo(']', bracket) : skipTo('>', lt)
      i = skipTo('>', i - 1)
    } else {
      const end = tagEnd(input, lt + 1)
      if (end === -1) break
      i = end + 1
      predicted += 1 + (open + 1) * indentWidth
      if (input.charCodeAt(lt + 1) === 0x2f) open = Math.max(0, open - 1)
      else if (input.charCodeAt(end - 1) !== 0x2f) {
        open++
        if (open > depth) depth = open
        if (open > MAX_NESTING_DEPTH) throw tooDeep(input, 'xml', lt, 'elements')
      }
    }
  }
  return { depth, predictedLength: predicted }
}

/** HTML elements, with the HTML rules for void elements, raw text and end tags left out (markdown's scan). */
function scanHtmlNesting(input: string, indentWidth: number): Scan {
  let depth: number
  try {
    depth = scanHtml(input).depth
  } catch (error) {
    const position = isDevutilsError(error) ? (error.details as { position?: number } | undefined)?.position : undefined
    if (position === undefined) throw error
    throw tooDeep(input, 'html', position, 'elements')
  }
  let tags = 0
  for (let at = input.indexOf('<'); at !== -1; at = input.indexOf('<', at + 1)) tags++
  return { depth, predictedLength: input.length + tags * (1 + depth * indentWidth) }
}

const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
const FENCE = /^(`{3,}|~{3,})/

/**
 * Markdown's containers, line by line: block quote markers, list item markers, and the lines
 * indented under a list item, which belong to it. Fenced code is skipped.
 */
function scanMarkdown(input: string, indentWidth: number): Scan {
  const itemColumns: number[] = []
  let depth = 0
  let predicted = input.length
  let fence = ''
  let lineStart = 0
  while (lineStart <= input.length) {
    const newline = input.indexOf('\n', lineStart)
    const lineEnd = newline === -1 ? input.length : newline
    const line = input.slice(lineStart, lineEnd)
    let column = 0
    while (column < line.length && (line[column] === ' ' || line[column] === '\t')) column++
    if (column < line.length) {
      while (itemColumns.length > 0 && itemColumns[itemColumns.length - 1] > column) itemColumns.pop()
      let level = itemColumns.length
      let rest = line.slice(column)
      if (fence) {
        if (rest.startsWith(fence)) fence = ''
      } else {
        for (;;) {
          if (rest.startsWith('>')) {
            level++
            rest = rest.slice(1)
            column++
          } else {
            const marker = LIST_MARKER.exec(rest)
            if (!marker) break
            level++
            itemColumns.push(column + marker[0].length)
            rest = rest.slice(marker[0].length)
            column += marker[0].length
          }
          const spaces = rest.length - rest.trimStart().length
          rest = rest.slice(spaces)
          column += spaces
          if (level > MAX_NESTING_DEPTH) throw tooDeep(input, 'markdown', lineStart + Math.min(column, line.length), 'block quotes and lists')
        }
        const opening = FENCE.exec(rest)
        if (opening) fence = opening[1]
      }
      if (level > depth) depth = level
      predicted += 1 + level * Math.max(indentWidth, 4)
    }
    if (newline === -1) break
    lineStart = newline + 1
  }
  return { depth, predictedLength: predicted }
}

const BLOCK_SCALAR = /(?:^|[\s:-])[|>][-+1-9]*\s*(?:#.*)?$/

/**
 * YAML's block collections by indentation (a `- ` after another on one line is one more level),
 * and its flow collections by brackets outside quotes; block scalars' lines are text.
 */
function scanYaml(input: string, indentWidth: number): Scan {
  const indents: number[] = []
  let flow = 0
  let depth = 0
  let predicted = input.length
  let blockScalarIndent = -1
  let lineStart = 0
  while (lineStart <= input.length) {
    const newline = input.indexOf('\n', lineStart)
    const lineEnd = newline === -1 ? input.length : newline
    const line = input.slice(lineStart, lineEnd)
    let column = 0
    while (column < line.length && line[column] === ' ') column++
    const content = line.slice(column).trimEnd()
    const blank = content === '' || content.startsWith('#')
    if (blockScalarIndent !== -1 && (blank || column > blockScalarIndent)) {
      // A line of a block scalar's text.
    } else if (!blank) {
      blockScalarIndent = -1
      if (flow === 0) {
        while (indents.length > 0 && indents[indents.length - 1] > column) indents.pop()
        if (indents.length === 0 || indents[indents.length - 1] < column) indents.push(column)
      }
      let compact = 0
      let quote = ''
      for (let i = 0; i < content.length; i++) {
        const char = content[i]
        if (quote) {
          if (char === quote) quote = ''
        } else if (char === '"' || char === "'") quote = char
        else if (char === '#' && (i === 0 || content[i - 1] === ' ')) break
        else if (char === '[' || char === '{') {
          flow++
          const level = indents.length + compact + flow
          if (level > depth) depth = level
          if (level > MAX_NESTING_DEPTH) throw tooDeep(input, 'yaml', lineStart + column + i, 'collections')
        } else if (char === ']' || char === '}') flow = Math.max(0, flow - 1)
        else if (char === '-' && flow === 0 && content[i + 1] === ' ' && i > 0 && /^(?:- +)+$/.test(content.slice(0, i))) compact++
      }
      const level = indents.length + compact + flow
      if (level > depth) depth = level
      if (level > MAX_NESTING_DEPTH) throw tooDeep(input, 'yaml', lineStart + column, 'collections')
      predicted += 1 + level * indentWidth
      if (BLOCK_SCALAR.test(content)) blockScalarIndent = column
    }
    if (newline === -1) break
    lineStart = newline + 1
  }
  return { depth, predictedLength: predicted }
}

/** Refuses nesting past the limit before an engine recurses into it, and predicts the beautified length. */
export function scanNesting(input: string, language: Language, indentWidth: number): Scan {
  const brackets = BRACKET_SYNTAX[language]
  if (brackets) return scanBrackets(input, language, brackets, indentWidth)
  if (language === 'xml') return scanXml(input, indentWidth)
  if (language === 'html') return scanHtmlNesting(input, indentWidth)
  if (language === 'markdown') return scanMarkdown(input, indentWidth)
  if (language === 'yaml') return scanYaml(input, indentWidth)
  // JSON: the json operation's own reader counts its nesting.
  return { depth: 0, predictedLength: 0 }
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
  if (error instanceof RangeError) return tooDeepToFormat(language)
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
    const reason =
      error instanceof Error
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
  if (verdict !== true) throw syntaxError(input, 'xml', verdict.err.msg, verdict.err.line, verdict.err.col)
}

async function formatXml(input: string, options: Options): Promise<string> {
  await validXml(input)
  const formatter = await xmlFormatter()
  try {
    if (options.action === 'minify') return formatter.minify(input, { collapseContent: true })
    return formatter(input, { indentation: options.useTabs ? '\t' : ' '.repeat(options.indent), lineSeparator: '\n', collapseContent: true })
  } catch (error) {
    throw engineError(error, input, 'xml')
  }
}

/** JSON goes through the json operation's own writer, which keeps every literal (numbers' digits) as written. */
async function formatJson(input: string, options: Options): Promise<string> {
  const indent = options.useTabs ? '\t' : options.indent
  const answer = await json.run({ input, action: options.action === 'minify' ? 'minify' : 'format', indent, sortKeys: false, lenient: false })
  return answer.result as string
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
    'The output ends lines with LF. Every field but `input`, `language` and `action` applies to some languages or actions only: set to anything but its default elsewhere it is a 400 naming it, as is `minify` for typescript, scss, less, markdown, yaml or sql. ' +
    `A syntax error is a 422 INVALID_INPUT with the engine’s reason and its \`line\`, \`column\` (from 1) and \`position\` (from 0). Nesting deeper than ${MAX_NESTING_DEPTH} levels (brackets outside strings and comments, SQL's CASE and BEGIN … END, elements, block quotes and lists, YAML collections; scanned before any engine reads it) and an answer past the output limit are a 422 LIMIT_EXCEEDED. ` +
    `Inputs over ${OFFLOAD_LENGTH / 1024} KiB run on a worker thread within the time budget, and one still running when it ends is stopped and answered 422 LIMIT_EXCEEDED (\`details.reason: "timeout"\`): Prettier formats about half a megabyte of JavaScript a second, sql-formatter about 150 KB.`,
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
      indent: withDefault(
        Type.Integer({ minimum: 1, maximum: 8, description: 'beautify: spaces per indentation level (the width of a tab with `useTabs`).' }),
        2,
      ),
      useTabs: withDefault(Type.Boolean({ description: 'beautify: indent with tabs rather than spaces (not for YAML, which forbids them).' }), false),
      printWidth: withDefault(
        Type.Integer({
          minimum: 20,
          maximum: 320,
          description: 'beautify, Prettier’s languages (not json, sql, xml): the line length it tries to keep within.',
        }),
        80,
      ),
      quotes: withDefault(
        Type.Enum(['double', 'single'] as const, {
          description: 'beautify, javascript and typescript: the quotes strings get (where fewer escapes do not need the other).',
        }),
        'double',
      ),
      semicolons: withDefault(
        Type.Boolean({
          description: 'beautify, javascript and typescript: end statements with semicolons; false writes them only where a line would join the next.',
        }),
        true,
      ),
      trailingComma: withDefault(
        Type.Enum(['all', 'es5', 'none'] as const, {
          description:
            'beautify, javascript and typescript: a comma after the last item of a list broken over lines: everywhere, where ES5 allows it, or never.',
        }),
        'all',
      ),
      dialect: withDefault(
        Type.Enum(SQL_DIALECTS, { description: 'sql: the dialect of SQL (its keywords, quotes, operators); `sql` is standard SQL. `tsql` is `transactsql`.' }),
        'sql',
      ),
      keywordCase: withDefault(
        Type.Enum(['preserve', 'upper', 'lower'] as const, { description: 'sql: write keywords as written, in upper case or in lower case.' }),
        'preserve',
      ),
      mangle: withDefault(Type.Boolean({ description: 'minify, javascript: shorten the names of local variables and functions.' }), true),
      compress: withDefault(
        Type.Boolean({ description: 'minify, javascript: rewrite the code to be shorter (drop dead code, join declarations, fold constants).' }),
        true,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The formatted or minified code.' }),
    language: Type.Enum(LANGUAGES, { description: 'The language formatted.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  }),
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
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  overrun: { advice: 'send less code at once, or format it in parts' },
  async run(fields) {
    const options = fields as Options
    const { input, language, action } = fields
    refuseMisplacedFields(options)
    const indentWidth = options.useTabs ? 1 : options.indent
    const { predictedLength } = scanNesting(input, language, action === 'minify' ? 0 : indentWidth)
    assertOutputWithinLimit(predictedLength)
    const result = await formatText(input, options)
    assertOutputWithinLimit(Buffer.byteLength(result))
    return { result, language, action }
  },
})
