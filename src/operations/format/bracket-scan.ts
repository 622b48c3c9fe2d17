import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { type Language, type Scan, tooDeep } from './languages.ts'

export interface BracketSyntax {
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
export const BRACKET_SYNTAX: Partial<Record<Language, BracketSyntax>> = {
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
export function scanBrackets(input: string, language: Language, syntax: BracketSyntax, indentWidth: number, dialect: string): Scan {
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
