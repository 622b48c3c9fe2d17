// The languages format takes, and their nesting, scanned in one pass before any engine parses:
// the engines all recurse into nested structures, and a deep enough input exhausts the stack.
import { type DevutilsError, isDevutilsError, limitExceeded } from '../core/errors.ts'
import { lineAndColumn } from '../core/json-value.ts'
import { MAX_NESTING_DEPTH } from '../core/limits.ts'
import { scanHtml } from './markdown.ts'

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

/** XML elements, each tag on a line of its own. */
function scanXml(input: string, indentWidth: number): Scan {
  let open = 0
  let depth = 0
  let predicted = input.length
  eachXmlTag(input, (lt, end) => {
    predicted += 1 + (open + 1) * indentWidth
    if (input.charCodeAt(lt + 1) === 0x2f) open = Math.max(0, open - 1)
    else if (input.charCodeAt(end - 1) !== 0x2f) {
      open++
      if (open > depth) depth = open
      if (open > MAX_NESTING_DEPTH) throw tooDeep(input, 'xml', lt, 'elements')
    }
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
