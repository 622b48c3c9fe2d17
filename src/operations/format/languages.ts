// The languages format takes, and their nesting, scanned in one pass before any engine parses:
// the engines all recurse into nested structures, and a deep enough input exhausts the stack.
import { type DevutilsError, isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { lineAndColumn } from '../../lib/json/value.ts'
import { scanHtml, tagEnd } from '../markdown/index.ts'

export const LANGUAGES = ['javascript', 'typescript', 'json', 'css', 'scss', 'less', 'html', 'markdown', 'yaml', 'graphql', 'sql', 'xml'] as const
export type Language = (typeof LANGUAGES)[number]

/** How each language is named in messages. */
export const LANGUAGE_NAMES: Record<Language, string> = {
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

export interface Scan {
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
   * level deeper (`if (a) if (b) c;`), up to the `;`, `{` or `}` that ends the chain. Its ternaries,
   * JSX elements and type arguments nest as well.
   */
  script?: boolean
  /** Whether whitespace alone separates items (GraphQL's arguments and fields): each run a place a line may break. */
  whitespaceSeparates?: boolean
}

const SCRIPT_SYNTAX: BracketSyntax = {
  lineComments: ['//'],
  blockComments: true,
  quotes: '\'"',
  templates: true,
  regexLiterals: true,
  tripleQuotes: false,
  script: true,
}
const BRACKET_SYNTAX: Partial<Record<Language, BracketSyntax>> = {
  javascript: SCRIPT_SYNTAX,
  typescript: SCRIPT_SYNTAX,
  css: { lineComments: [], blockComments: true, quotes: '\'"', templates: false, regexLiterals: false, tripleQuotes: false },
  scss: { lineComments: ['//'], blockComments: true, quotes: '\'"', templates: false, regexLiterals: false, tripleQuotes: false },
  less: { lineComments: ['//'], blockComments: true, quotes: '\'"', templates: false, regexLiterals: false, tripleQuotes: false },
  graphql: { lineComments: ['#'], blockComments: false, quotes: '"', templates: false, regexLiterals: false, tripleQuotes: true, whitespaceSeparates: true },
  sql: {
    lineComments: ['--'],
    blockComments: true,
    quotes: '\'"`',
    templates: false,
    regexLiterals: false,
    tripleQuotes: false,
    blockWords: true,
    whitespaceSeparates: true,
  },
}

/**
 * The quotes in whose strings a backslash escapes the next character, by SQL dialect, as sql-formatter
 * reads them; elsewhere a backslash is text (`'a\'` is a whole string in PostgreSQL).
 */
const SQL_BACKSLASH_QUOTES: Record<string, string> = {
  sql: "'",
  bigquery: '\'"',
  clickhouse: '\'"',
  hive: '\'"',
  mariadb: '\'"',
  mysql: '\'"',
  n1ql: '\'"',
  singlestoredb: '\'"',
  snowflake: "'",
  spark: '\'"',
  tidb: '\'"',
}
/** Dialects where only a string with the `E` prefix (`E'a\'b'`) takes backslash escapes. */
const SQL_E_STRINGS = new Set(['postgresql', 'duckdb'])

const OPENERS = '([{'
const CLOSERS = ')]}'
/** A `${` of a template literal, on the stack of open brackets. */
const TEMPLATE_HOLE = 0
/** SQL's `CASE` or `BEGIN`, on the stack of open brackets. */
const BLOCK_WORD = 1
/** A JSX element open between its tags, on the stack. */
const JSX_ELEMENT = 2
/** A `{` in a JSX element's children, or in its tag's attributes. */
const JSX_CHILD_HOLE = 3
const JSX_TAG_HOLE = 4
/** A `<` of type arguments (or a comparison the scan cannot tell from one), closed by a `>`. */
const ANGLE = 5
const OPENING_WORDS = new Set(['case', 'begin'])
const STATEMENT_WORDS = new Set(['if', 'else', 'for', 'while', 'do', 'with'])
/** After these a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set('(,=:[!&|?{};+-*%<>~^')
const KEYWORDS_BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof'])
/** At the start of a line these continue the expression of the line before (no semicolon is inserted). */
const CONTINUING = new Set('?:+-*/%&|^<>=.,([`')
const CONTINUING_WORD = /(?:in|instanceof)(?![\w$])/y
const JSX_NAME = /[A-Za-z_$][\w$.:-]*/y
const isWordCode = (code: number) =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x24
const isSpaceCode = (code: number) => code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d

/** The names of the JSX closing tags in a text (`''` for a fragment's `</>`): a `<name` without one is not JSX. */
function closingTagNames(input: string): Set<string> {
  const names = new Set<string>()
  for (const match of input.matchAll(/<\/\s*([A-Za-z_$][\w$.:-]*)?\s*>/g)) names.add(match[1] ?? '')
  return names
}

type Mode = 'code' | 'template' | 'jsxTag' | 'jsxChildren'

/**
 * Brackets outside strings and comments, in one pass with no recursion. A closing bracket closes the
 * innermost open one of its kind, dropping any left open inside it (a bracket in a regular
 * expression the scan took for a division), so one stray bracket does not add up.
 */
function scanBrackets(input: string, language: Language, syntax: BracketSyntax, indentWidth: number, dialect: string): Scan {
  const stack: number[] = []
  let depth = 0
  let predicted = input.length
  let lastSignificant = ''
  let lastWord = ''
  let mode: Mode = 'code'
  // The statement headers chained at each bracket level, and their sum.
  const chains: number[] = [0]
  let chained = 0
  // The ternaries at each bracket level, open up to the `,` or `;` (or the end of the statement) after them.
  const ternaries: number[] = [0]
  let ternaried = 0
  // Angles on the stack count only once a `>` closes them: a comparison `i<n` never does.
  let angles = 0
  let newlineSeen = false
  let closingNames: Set<string> | undefined
  const backslashQuotes = language === 'sql' ? (SQL_BACKSLASH_QUOTES[dialect] ?? '') : syntax.quotes
  const eStrings = language === 'sql' && SQL_E_STRINGS.has(dialect)
  const endChain = (level: number) => {
    chained -= chains[level] ?? 0
    chains[level] = 0
  }
  const endTernaries = (level: number) => {
    ternaried -= ternaries[level] ?? 0
    ternaries[level] = 0
  }
  let i = 0
  const n = input.length
  const level = () => stack.length - angles + chained + ternaried
  /** A place a line may break, indented as deep as it lies (and a little deeper, as continuation lines are). */
  const mayBreak = () => {
    predicted += 2 + (level() + 2) * indentWidth
  }
  const what = syntax.blockWords
    ? 'parentheses and CASE or BEGIN … END blocks'
    : syntax.script
      ? 'brackets, statements, ternaries, JSX elements and type arguments'
      : 'brackets'
  const deeper = (at: number, nesting = level()) => {
    if (nesting > depth) depth = nesting
    if (nesting > MAX_NESTING_DEPTH) throw tooDeep(input, language, at, what)
    predicted += 1 + nesting * indentWidth
  }
  const open = (kind: number, at: number) => {
    stack.push(kind)
    chains[stack.length] = 0
    ternaries[stack.length] = 0
    if (kind === ANGLE) angles++
    else deeper(at)
  }
  /** Closes the brackets from `level` up, with the statement chains and ternaries inside them. */
  const closeTo = (to: number) => {
    for (let k = to + 1; k < chains.length; k++) {
      chained -= chains[k]
      ternaried -= ternaries[k] ?? 0
    }
    for (let k = to; k < stack.length; k++) if (stack[k] === ANGLE) angles--
    chains.length = to + 1
    ternaries.length = to + 1
    stack.length = to
  }
  /** After a closing tag or a hole's `}`: back in the children of the element around, or in code. */
  const afterJsx = () => {
    mode = stack[stack.length - 1] === JSX_ELEMENT ? 'jsxChildren' : 'code'
    lastSignificant = ')'
    lastWord = ''
  }
  const skipTemplate = () => {
    // Inside a template literal's text, up to its end or its next `${`.
    while (i < n) {
      const code = input.charCodeAt(i)
      if (code === 0x5c) i += 2
      else if (code === 0x60) {
        i++
        mode = 'code'
        lastSignificant = '`'
        return
      } else if (code === 0x24 && input.charCodeAt(i + 1) === 0x7b) {
        i += 2
        mode = 'code'
        open(TEMPLATE_HOLE, i - 2)
        lastSignificant = '{'
        return
      } else i++
    }
  }
  const skipJsxChildren = () => {
    // Text between JSX tags, up to a tag or a `{`; each run of its white space may break a line.
    let inSpace = false
    while (i < n) {
      const code = input.charCodeAt(i)
      if (code === 0x7b) {
        i++
        mode = 'code'
        open(JSX_CHILD_HOLE, i - 1)
        lastSignificant = '{'
        return
      }
      if (code === 0x3c) {
        if (input.charCodeAt(i + 1) === 0x2f) {
          const end = input.indexOf('>', i)
          i = end === -1 ? n : end + 1
          const element = stack.lastIndexOf(JSX_ELEMENT)
          if (element !== -1) closeTo(element)
          afterJsx()
        } else {
          i++
          mode = 'jsxTag'
        }
        mayBreak()
        return
      }
      const space = isSpaceCode(code)
      if (space && !inSpace) mayBreak()
      inSpace = space
      i++
    }
  }
  const skipJsxTag = () => {
    // A JSX tag's name and attributes, to its `>` (an element opens) or `/>`.
    while (i < n) {
      const code = input.charCodeAt(i)
      if (code === 0x22 || code === 0x27) {
        const end = input.indexOf(input[i], i + 1)
        i = end === -1 ? n : end + 1
      } else if (code === 0x7b) {
        i++
        mode = 'code'
        open(JSX_TAG_HOLE, i - 1)
        lastSignificant = '{'
        return
      } else if (code === 0x2f && input.charCodeAt(i + 1) === 0x3e) {
        i += 2
        afterJsx()
        return
      } else if (code === 0x3e) {
        i++
        open(JSX_ELEMENT, i - 1)
        mode = 'jsxChildren'
        return
      } else {
        if (isSpaceCode(code)) mayBreak()
        i++
      }
    }
  }
  const expressionPosition = () => lastSignificant === '' || BEFORE_REGEX.has(lastSignificant) || KEYWORDS_BEFORE_REGEX.has(lastWord)
  let inSpace = false
  while (i < n) {
    if (mode === 'template') {
      skipTemplate()
      continue
    }
    if (mode === 'jsxChildren') {
      skipJsxChildren()
      continue
    }
    if (mode === 'jsxTag') {
      skipJsxTag()
      continue
    }
    const code = input.charCodeAt(i)
    const char = input[i]
    if (isSpaceCode(code)) {
      if (code === 0x0a) newlineSeen = true
      if (!inSpace && syntax.whitespaceSeparates) mayBreak()
      inSpace = true
      i++
      continue
    }
    inSpace = false
    if (syntax.lineComments.some((marker) => input.startsWith(marker, i))) {
      const end = input.indexOf('\n', i)
      i = end === -1 ? n : end + 1
      newlineSeen = true
      continue
    }
    if (syntax.blockComments && code === 0x2f && input.charCodeAt(i + 1) === 0x2a) {
      const end = input.indexOf('*/', i + 2)
      i = end === -1 ? n : end + 2
      continue
    }
    if (newlineSeen) {
      // A new line ends the ternaries of a statement, unless the line before ends in an operator or this one starts with one.
      newlineSeen = false
      if (ternaries[stack.length] > 0 && !(BEFORE_REGEX.has(lastSignificant) && lastSignificant !== ';' && lastSignificant !== '}') && !CONTINUING.has(char)) {
        CONTINUING_WORD.lastIndex = i
        if (!CONTINUING_WORD.test(input)) endTernaries(stack.length)
      }
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
      mayBreak()
      continue
    }
    if (syntax.quotes.includes(char)) {
      // A string ends at its closing quote, or at the end of its line where the language allows no line break in one.
      const escapes = backslashQuotes.includes(char) || (eStrings && code === 0x27 && /(?:^|[^\w$])[Ee]$/.test(input.slice(Math.max(0, i - 2), i)))
      i++
      while (i < n) {
        const inside = input.charCodeAt(i)
        if (inside === 0x5c && escapes) i += 2
        else if (inside === code) {
          i++
          break
        } else if (inside === 0x0a && language !== 'sql') break
        else i++
      }
      lastSignificant = char
      mayBreak()
      continue
    }
    if (syntax.templates && code === 0x60) {
      i++
      mode = 'template'
      mayBreak()
      continue
    }
    if (syntax.regexLiterals && code === 0x2f && expressionPosition()) {
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
      if (syntax.script && lastSignificant !== '.' && STATEMENT_WORDS.has(lastWord)) {
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
    if (syntax.script && code === 0x3c) {
      // A JSX element where an expression may start and its closing tag is somewhere; otherwise type arguments.
      const next = input.charCodeAt(i + 1)
      if (expressionPosition() && (next === 0x3e || (isWordCode(next) && !(next >= 0x30 && next <= 0x39)))) {
        JSX_NAME.lastIndex = i + 1
        const name = next === 0x3e ? '' : (JSX_NAME.exec(input)?.[0] ?? '')
        closingNames ??= closingTagNames(input)
        if (closingNames.has(name)) {
          i++
          mode = 'jsxTag'
          mayBreak()
          continue
        }
      }
      if (lastSignificant === 'w' || expressionPosition()) {
        i++
        open(ANGLE, i - 1)
        lastSignificant = '<'
        lastWord = ''
        continue
      }
    }
    if (syntax.script && code === 0x3e && stack[stack.length - 1] === ANGLE && lastSignificant !== '=') {
      // Type arguments closed: as deep as they lie, with every angle still open around them.
      i++
      const nesting = stack.length + chained + ternaried
      closeTo(stack.length - 1)
      deeper(i - 1, nesting)
      lastSignificant = ')'
      lastWord = ''
      continue
    }
    if (syntax.script && code === 0x3f) {
      const next = input.charCodeAt(i + 1)
      if (next === 0x3f) {
        // `??` and `??=`.
        i += input.charCodeAt(i + 2) === 0x3d ? 3 : 2
        lastSignificant = '?'
        lastWord = ''
        mayBreak()
        continue
      }
      const optional =
        (next === 0x2e && !(input.charCodeAt(i + 2) >= 0x30 && input.charCodeAt(i + 2) <= 0x39)) || next === 0x3a || next === 0x2c || next === 0x29
      if (!optional) {
        // A ternary: its branches are one level deeper, up to the end of the expression.
        ternaries[stack.length] = (ternaries[stack.length] ?? 0) + 1
        ternaried++
        deeper(i)
      }
    }
    // `++` and `--` end an operand: a `/` after them divides.
    const doubled = (code === 0x2b || code === 0x2d) && input.charCodeAt(i - 1) === code && lastSignificant === char
    lastWord = ''
    lastSignificant = doubled ? '++' : char
    i++
    mayBreak()
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
      let hole = -1
      if (code === 0x7d) {
        for (let k = stack.length - 1; k > at; k--) {
          const kind = stack[k]
          if (kind === TEMPLATE_HOLE || kind === JSX_CHILD_HOLE || kind === JSX_TAG_HOLE) {
            hole = k
            break
          }
        }
      }
      if (hole > at) {
        const kind = stack[hole]
        closeTo(hole)
        if (kind === TEMPLATE_HOLE) mode = 'template'
        else if (kind === JSX_TAG_HOLE) mode = 'jsxTag'
        else mode = 'jsxChildren'
      } else if (at !== -1) {
        closeTo(at)
        if (code === 0x7d) endChain(at)
      }
      continue
    }
    if (char === ';') {
      endChain(stack.length)
      while (stack[stack.length - 1] === ANGLE) closeTo(stack.length - 1)
    }
    if (char === ',' || char === ';') endTernaries(stack.length)
  }
  return { depth, predictedLength: predicted }
}

/**
 * Each tag of an XML text, in one pass: comments, CDATA sections, processing instructions and the
 * DOCTYPE are skipped, as they hold none.
 */
function eachXmlTag(input: string, visit: (start: number, end: number) => boolean | undefined): void {
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
      if (visit(lt, end) === false) return
    }
  }
}

/**
 * The most elements, attributes and texts an XML text may hold: xml-formatter builds an object for
 * each and writes its answer a piece at a time, a few hundred bytes of memory each, so a mebibyte of
 * `<a/>` would need more memory than a worker thread has.
 */
export const MAX_XML_NODES = 100_000

function tooManyXmlNodes(input: string, position: number): DevutilsError {
  const { line, column } = lineAndColumn(input, position)
  return limitExceeded(
    `The XML holds more than ${MAX_XML_NODES.toLocaleString('en-US')} elements, attributes and texts (at line ${line}, column ${column}); format it in parts`,
    { field: 'input', limit: MAX_XML_NODES, position, line, column },
  )
}

/** Whether `text` holds anything but white space from `from` to `to`. */
function holdsText(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i)
    if (code !== 0x20 && code !== 0x0a && code !== 0x09 && code !== 0x0d) return true
  }
  return false
}

/** An attribute's `=` and its quoted value. */
const ATTRIBUTE_VALUE = /=\s*(?:"[^"]*"|'[^']*')/g

/** The attributes of a well-formed tag from `from` to `to`. */
function attributesIn(text: string, from: number, to: number): number {
  const tag = text.slice(from, to)
  return tag.includes('=') ? (tag.match(ATTRIBUTE_VALUE)?.length ?? 0) : 0
}

/**
 * XML elements, and each tag and attribute on a line of its own; elements, attributes and the texts
 * between tags (comments and CDATA sections among them) are counted against MAX_XML_NODES.
 */
function scanXml(input: string, indentWidth: number): Scan {
  let open = 0
  let depth = 0
  let predicted = input.length
  let nodes = 0
  let previousEnd = -1
  eachXmlTag(input, (lt, end) => {
    predicted += (1 + (open + 1) * indentWidth) * (1 + whitespaceRuns(input, lt, end))
    if (holdsText(input, previousEnd + 1, lt)) nodes++
    previousEnd = end
    if (input.charCodeAt(lt + 1) === 0x2f) open = Math.max(0, open - 1)
    else {
      nodes += 1 + attributesIn(input, lt, end)
      if (input.charCodeAt(end - 1) !== 0x2f) {
        open++
        if (open > depth) depth = open
        if (open > MAX_NESTING_DEPTH) throw tooDeep(input, 'xml', lt, 'elements')
      }
    }
    if (nodes > MAX_XML_NODES) throw tooManyXmlNodes(input, lt)
    return true
  })
  return { depth, predictedLength: predicted }
}

/** Where the second root element of an XML text starts, or -1 if there is none. */
export function secondXmlRoot(input: string): number {
  let open = 0
  let roots = 0
  let second = -1
  eachXmlTag(input, (lt, end) => {
    if (input.charCodeAt(lt + 1) === 0x2f) open = Math.max(0, open - 1)
    else {
      if (open === 0 && ++roots === 2) {
        second = lt
        return false
      }
      if (input.charCodeAt(end - 1) !== 0x2f) open++
    }
    return true
  })
  return second
}

/** The runs of white space from `from` to `to`: each is a place a line may break. */
function whitespaceRuns(text: string, from: number, to: number): number {
  let runs = 0
  let inRun = false
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i)
    const space = code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d
    if (space && !inRun) runs++
    inRun = space
  }
  return runs
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
  // Each tag and each run of white space (between attributes, between words) may break a line, and an
  // end tag left out is written: no longer than the start tag it closes.
  let tags = 0
  for (let at = input.indexOf('<'); at !== -1; at = input.indexOf('<', at + 1)) tags++
  const breaks = tags + whitespaceRuns(input, 0, input.length)
  return { depth, predictedLength: 2 * input.length + breaks * (2 + (depth + 1) * indentWidth) }
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
        else if (
          (char === '-' || char === '?' || char === ':') &&
          flow === 0 &&
          (content[i + 1] === ' ' || i + 1 === content.length) &&
          i > 0 &&
          /^(?:[-?:] +)+$/.test(content.slice(0, i))
        ) {
          // A sequence item, complex key or value on the line of another is one more level.
          compact++
          const level = indents.length + compact
          if (level > MAX_NESTING_DEPTH) throw tooDeep(input, 'yaml', lineStart + column + i, 'collections')
        }
        // In a flow collection each item, bracket and space may break a line, as deep as it lies.
        if (flow > 0 || char === ']' || char === '}') predicted += 2 + (indents.length + compact + flow + 1) * indentWidth
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
export function scanNesting(input: string, language: Language, indentWidth: number, dialect = 'sql'): Scan {
  const brackets = BRACKET_SYNTAX[language]
  if (brackets) return scanBrackets(input, language, brackets, indentWidth, dialect)
  if (language === 'xml') return scanXml(input, indentWidth)
  if (language === 'html') return scanHtmlNesting(input, indentWidth)
  if (language === 'markdown') return scanMarkdown(input, indentWidth)
  if (language === 'yaml') return scanYaml(input, indentWidth)
  // JSON: the json operation's own reader counts its nesting.
  return { depth: 0, predictedLength: 0 }
}
