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
/** The two characters before a quote, when they make it an `E'…'` string. */
const E_PREFIX = /(?:^|[^\w$])[Ee]$/

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

/** What a too-deep nesting is said to be made of, for the refusal. */
function nestedThings(syntax: BracketSyntax): string {
  if (syntax.blockWords) return 'parentheses and CASE or BEGIN … END blocks'
  if (syntax.script) return 'brackets, statements, ternaries, JSX elements and type arguments'
  return 'brackets'
}

/**
 * Brackets outside strings and comments, in one pass with no recursion. A closing bracket closes the
 * innermost open one of its kind, dropping any left open inside it (a bracket in a regular
 * expression the scan took for a division), so one stray bracket does not add up.
 */
export function scanBrackets(input: string, language: Language, syntax: BracketSyntax, indentWidth: number, dialect: string): Scan {
  return new BracketScanner(input, language, syntax, indentWidth, dialect).scan()
}

/**
 * The scan's state, with one method per kind of text it can be in (code, a string, a comment, a
 * template literal, JSX) and one per kind of level (brackets, statement chains, ternaries, angles).
 * Its methods move `at` forward; none allocates per character, as inputs run to megabytes.
 */
class BracketScanner {
  private at = 0
  private readonly end: number
  private mode: Mode = 'code'
  /** The kinds of the brackets open: a char code of `OPENERS`, or one of the kinds above. */
  private readonly stack: number[] = []
  private depth = 0
  private predicted: number
  /** The last token of code, as far as a `/`, `<` or new line needs it: its character, `w` for a word, `/re`, `++`. */
  private lastSignificant = ''
  private lastWord = ''
  /** The statement headers chained at each bracket level, and their sum. */
  private readonly chains: number[] = [0]
  private chained = 0
  /** The ternaries at each bracket level, open up to the `,` or `;` (or the end of the statement) after them. */
  private readonly ternaries: number[] = [0]
  private ternaried = 0
  /** Angles on the stack count only once a `>` closes them: a comparison `i<n` never does. */
  private angles = 0
  private newlineSeen = false
  private inSpace = false
  private closingNames: Set<string> | undefined
  private readonly backslashQuotes: string
  private readonly eStrings: boolean

  constructor(
    private readonly input: string,
    private readonly language: Language,
    private readonly syntax: BracketSyntax,
    private readonly indentWidth: number,
    dialect: string,
  ) {
    this.end = input.length
    this.predicted = input.length
    this.backslashQuotes = language === 'sql' ? (SQL_BACKSLASH_QUOTES[dialect] ?? '') : syntax.quotes
    this.eStrings = language === 'sql' && SQL_E_STRINGS.has(dialect)
  }

  scan(): Scan {
    while (this.at < this.end) {
      if (this.mode === 'template') this.skipTemplate()
      else if (this.mode === 'jsxChildren') this.skipJsxChildren()
      else if (this.mode === 'jsxTag') this.skipJsxTag()
      else this.scanCode()
    }
    return { depth: this.depth, predictedLength: this.predicted }
  }

  // The levels: what is open, how deep it lies, and the places a line may break.

  private level(): number {
    return this.stack.length - this.angles + this.chained + this.ternaried
  }

  /** A place a line may break, indented as deep as it lies (and a little deeper, as continuation lines are). */
  private mayBreak(): void {
    this.predicted += 2 + (this.level() + 2) * this.indentWidth
  }

  private deeper(at: number, nesting = this.level()): void {
    if (nesting > this.depth) this.depth = nesting
    if (nesting > MAX_NESTING_DEPTH) throw tooDeep(this.input, this.language, at, nestedThings(this.syntax))
    this.predicted += 1 + nesting * this.indentWidth
  }

  private open(kind: number, at: number): void {
    const { stack } = this
    stack.push(kind)
    this.chains[stack.length] = 0
    this.ternaries[stack.length] = 0
    if (kind === ANGLE) this.angles++
    else this.deeper(at)
  }

  /** Closes the brackets from `to` up, with the statement chains and ternaries inside them. */
  private closeTo(to: number): void {
    const { stack, chains, ternaries } = this
    for (let k = to + 1; k < chains.length; k++) {
      this.chained -= chains[k]
      this.ternaried -= ternaries[k] ?? 0
    }
    for (let k = to; k < stack.length; k++) if (stack[k] === ANGLE) this.angles--
    chains.length = to + 1
    ternaries.length = to + 1
    stack.length = to
  }

  private endChain(level: number): void {
    this.chained -= this.chains[level] ?? 0
    this.chains[level] = 0
  }

  private endTernaries(level: number): void {
    this.ternaried -= this.ternaries[level] ?? 0
    this.ternaries[level] = 0
  }

  private expressionPosition(): boolean {
    return this.lastSignificant === '' || BEFORE_REGEX.has(this.lastSignificant) || KEYWORDS_BEFORE_REGEX.has(this.lastWord)
  }

  // Code: one token at a time.

  private scanCode(): void {
    const { input, syntax } = this
    const code = input.charCodeAt(this.at)
    if (isSpaceCode(code)) {
      this.skipSpace(code)
      return
    }
    this.inSpace = false
    if (this.skipComment(code)) return
    const char = input[this.at]
    if (this.newlineSeen) {
      this.newlineSeen = false
      this.endTernariesAtNewLine(char)
    }
    if (syntax.tripleQuotes && input.startsWith('"""', this.at)) this.skipTripleQuoted()
    else if (syntax.quotes.includes(char)) this.skipString(code, char)
    else if (syntax.templates && code === 0x60) {
      this.at++
      this.mode = 'template'
      this.mayBreak()
    } else if (syntax.regexLiterals && code === 0x2f && this.expressionPosition()) this.skipRegex()
    else if (isWordCode(code)) this.readWord()
    else if (!(syntax.script && this.scanScriptOperator(code))) this.readPunctuation(code, char)
  }

  private skipSpace(code: number): void {
    if (code === 0x0a) this.newlineSeen = true
    if (!this.inSpace && this.syntax.whitespaceSeparates) this.mayBreak()
    this.inSpace = true
    this.at++
  }

  /** Skips a comment starting here, if one does. */
  private skipComment(code: number): boolean {
    const { input, syntax } = this
    const markers = syntax.lineComments
    for (let k = 0; k < markers.length; k++) {
      if (input.startsWith(markers[k], this.at)) {
        const end = input.indexOf('\n', this.at)
        this.at = end === -1 ? this.end : end + 1
        this.newlineSeen = true
        return true
      }
    }
    if (syntax.blockComments && code === 0x2f && input.charCodeAt(this.at + 1) === 0x2a) {
      const end = input.indexOf('*/', this.at + 2)
      this.at = end === -1 ? this.end : end + 2
      return true
    }
    return false
  }

  /** A new line ends the ternaries of a statement, unless the line before ends in an operator or this one starts with one. */
  private endTernariesAtNewLine(char: string): void {
    const { lastSignificant } = this
    const level = this.stack.length
    if (this.ternaries[level] > 0 && !(BEFORE_REGEX.has(lastSignificant) && lastSignificant !== ';' && lastSignificant !== '}') && !CONTINUING.has(char)) {
      CONTINUING_WORD.lastIndex = this.at
      if (!CONTINUING_WORD.test(this.input)) this.endTernaries(level)
    }
  }

  private skipTripleQuoted(): void {
    const { input } = this
    let end = this.at + 3
    for (;;) {
      end = input.indexOf('"""', end)
      if (end === -1 || input.charCodeAt(end - 1) !== 0x5c) break
      end += 3
    }
    this.at = end === -1 ? this.end : end + 3
    this.lastSignificant = '"'
    this.mayBreak()
  }

  /** A string ends at its closing quote, or at the end of its line where the language allows no line break in one. */
  private skipString(quote: number, char: string): void {
    const { input } = this
    let at = this.at
    const escapes = this.backslashQuotes.includes(char) || (this.eStrings && quote === 0x27 && E_PREFIX.test(input.slice(Math.max(0, at - 2), at)))
    const multiline = this.language === 'sql'
    at++
    while (at < this.end) {
      const inside = input.charCodeAt(at)
      if (inside === 0x5c && escapes) at += 2
      else if (inside === quote) {
        at++
        break
      } else if (inside === 0x0a && !multiline) break
      else at++
    }
    this.at = at
    this.lastSignificant = char
    this.mayBreak()
  }

  /** A regular expression literal: to its closing slash outside a character class, on one line. */
  private skipRegex(): void {
    const { input } = this
    let at = this.at + 1
    let inClass = false
    while (at < this.end) {
      const inside = input.charCodeAt(at)
      if (inside === 0x5c) at += 2
      else if (inside === 0x0a) break
      else {
        at++
        if (inside === 0x5b) inClass = true
        else if (inside === 0x5d) inClass = false
        else if (inside === 0x2f && !inClass) break
      }
    }
    this.at = at
    this.lastSignificant = '/re'
    this.lastWord = ''
  }

  /** A word: a statement header (`if`, `for`…) chains a level, and in SQL `CASE`, `BEGIN` and `END` open and close one. */
  private readWord(): void {
    const { input, syntax } = this
    const start = this.at
    let at = start
    while (at < this.end && isWordCode(input.charCodeAt(at))) at++
    this.at = at
    const word = input.slice(start, at)
    this.lastWord = word
    if (syntax.script && this.lastSignificant !== '.' && STATEMENT_WORDS.has(word)) {
      this.chains[this.stack.length]++
      this.chained++
      this.deeper(start)
    }
    this.lastSignificant = 'w'
    if (syntax.blockWords && at - start <= 5) {
      const lower = word.toLowerCase()
      if (OPENING_WORDS.has(lower)) this.open(BLOCK_WORD, start)
      else if (lower === 'end') {
        const opened = this.stack.lastIndexOf(BLOCK_WORD)
        if (opened !== -1) this.closeTo(opened)
      }
    }
  }

  /** JavaScript's `<`, `>` and `?`: whether the token was read whole, or is left to be read as punctuation. */
  private scanScriptOperator(code: number): boolean {
    if (code === 0x3c) return this.readLessThan()
    if (code === 0x3e) return this.readGreaterThan()
    if (code === 0x3f) return this.readQuestionMark()
    return false
  }

  /** A JSX element where an expression may start and its closing tag is somewhere; otherwise type arguments. */
  private readLessThan(): boolean {
    const { input } = this
    const next = input.charCodeAt(this.at + 1)
    if (this.expressionPosition() && (next === 0x3e || (isWordCode(next) && !(next >= 0x30 && next <= 0x39)))) {
      JSX_NAME.lastIndex = this.at + 1
      const name = next === 0x3e ? '' : (JSX_NAME.exec(input)?.[0] ?? '')
      this.closingNames ??= closingTagNames(input)
      if (this.closingNames.has(name)) {
        this.at++
        this.mode = 'jsxTag'
        this.mayBreak()
        return true
      }
    }
    if (this.lastSignificant === 'w' || this.expressionPosition()) {
      this.at++
      this.open(ANGLE, this.at - 1)
      this.lastSignificant = '<'
      this.lastWord = ''
      return true
    }
    return false
  }

  /** Type arguments closed: as deep as they lie, with every angle still open around them. */
  private readGreaterThan(): boolean {
    const { stack } = this
    if (stack[stack.length - 1] !== ANGLE || this.lastSignificant === '=') return false
    this.at++
    const nesting = stack.length + this.chained + this.ternaried
    this.closeTo(stack.length - 1)
    this.deeper(this.at - 1, nesting)
    this.lastSignificant = ')'
    this.lastWord = ''
    return true
  }

  /** `??` and `??=` are read whole; a ternary's `?` opens a level and is left to be read as punctuation, as is an optional chain's. */
  private readQuestionMark(): boolean {
    const { input, at } = this
    const next = input.charCodeAt(at + 1)
    if (next === 0x3f) {
      this.at += input.charCodeAt(at + 2) === 0x3d ? 3 : 2
      this.lastSignificant = '?'
      this.lastWord = ''
      this.mayBreak()
      return true
    }
    const optional =
      (next === 0x2e && !(input.charCodeAt(at + 2) >= 0x30 && input.charCodeAt(at + 2) <= 0x39)) || next === 0x3a || next === 0x2c || next === 0x29
    if (!optional) {
      // A ternary: its branches are one level deeper, up to the end of the expression.
      const level = this.stack.length
      this.ternaries[level] = (this.ternaries[level] ?? 0) + 1
      this.ternaried++
      this.deeper(at)
    }
    return false
  }

  /** Any other character of code: brackets open and close levels; `;` and `,` end statements and ternaries. */
  private readPunctuation(code: number, char: string): void {
    // `++` and `--` end an operand: a `/` after them divides.
    const doubled = (code === 0x2b || code === 0x2d) && this.input.charCodeAt(this.at - 1) === code && this.lastSignificant === char
    this.lastWord = ''
    this.lastSignificant = doubled ? '++' : char
    this.at++
    this.mayBreak()
    if (OPENERS.includes(char)) {
      // A block ends the chain of headers before it: its braces are the level they add.
      if (code === 0x7b) this.endChain(this.stack.length)
      this.open(code, this.at - 1)
      return
    }
    const closer = CLOSERS.indexOf(char)
    if (closer !== -1) {
      this.closeBracket(code, OPENERS.charCodeAt(closer))
      return
    }
    const { stack } = this
    if (char === ';') {
      this.endChain(stack.length)
      while (stack[stack.length - 1] === ANGLE) this.closeTo(stack.length - 1)
    }
    if (char === ',' || char === ';') this.endTernaries(stack.length)
  }

  /** Closes the innermost bracket of its kind, or the template or JSX hole a `}` ends inside it, and returns to the text around. */
  private closeBracket(code: number, opener: number): void {
    const { stack } = this
    const at = stack.lastIndexOf(opener)
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
      this.closeTo(hole)
      if (kind === TEMPLATE_HOLE) this.mode = 'template'
      else if (kind === JSX_TAG_HOLE) this.mode = 'jsxTag'
      else this.mode = 'jsxChildren'
    } else if (at !== -1) {
      this.closeTo(at)
      if (code === 0x7d) this.endChain(at)
    }
  }

  // Template literals and JSX: text that is not code, up to where code starts again.

  /** Inside a template literal's text, up to its end or its next `${`. */
  private skipTemplate(): void {
    const { input } = this
    let at = this.at
    while (at < this.end) {
      const code = input.charCodeAt(at)
      if (code === 0x5c) at += 2
      else if (code === 0x60) {
        this.at = at + 1
        this.mode = 'code'
        this.lastSignificant = '`'
        return
      } else if (code === 0x24 && input.charCodeAt(at + 1) === 0x7b) {
        this.at = at + 2
        this.mode = 'code'
        this.open(TEMPLATE_HOLE, at)
        this.lastSignificant = '{'
        return
      } else at++
    }
    this.at = at
  }

  /** Text between JSX tags, up to a tag or a `{`; each run of its white space may break a line. */
  private skipJsxChildren(): void {
    const { input } = this
    let inSpace = false
    while (this.at < this.end) {
      const code = input.charCodeAt(this.at)
      if (code === 0x7b) {
        this.at++
        this.mode = 'code'
        this.open(JSX_CHILD_HOLE, this.at - 1)
        this.lastSignificant = '{'
        return
      }
      if (code === 0x3c) {
        this.readJsxTagStart()
        this.mayBreak()
        return
      }
      const space = isSpaceCode(code)
      if (space && !inSpace) this.mayBreak()
      inSpace = space
      this.at++
    }
  }

  /** A `<` in JSX children: a closing tag closes its element; any other tag's name and attributes follow. */
  private readJsxTagStart(): void {
    const { input } = this
    if (input.charCodeAt(this.at + 1) === 0x2f) {
      const end = input.indexOf('>', this.at)
      this.at = end === -1 ? this.end : end + 1
      const element = this.stack.lastIndexOf(JSX_ELEMENT)
      if (element !== -1) this.closeTo(element)
      this.afterJsx()
    } else {
      this.at++
      this.mode = 'jsxTag'
    }
  }

  /** A JSX tag's name and attributes, to its `>` (an element opens) or `/>`. */
  private skipJsxTag(): void {
    const { input } = this
    while (this.at < this.end) {
      const code = input.charCodeAt(this.at)
      if (code === 0x22 || code === 0x27) {
        const end = input.indexOf(input[this.at], this.at + 1)
        this.at = end === -1 ? this.end : end + 1
      } else if (code === 0x7b) {
        this.at++
        this.mode = 'code'
        this.open(JSX_TAG_HOLE, this.at - 1)
        this.lastSignificant = '{'
        return
      } else if (code === 0x2f && input.charCodeAt(this.at + 1) === 0x3e) {
        this.at += 2
        this.afterJsx()
        return
      } else if (code === 0x3e) {
        this.at++
        this.open(JSX_ELEMENT, this.at - 1)
        this.mode = 'jsxChildren'
        return
      } else {
        if (isSpaceCode(code)) this.mayBreak()
        this.at++
      }
    }
  }

  /** After a closing tag or a hole's `}`: back in the children of the element around, or in code. */
  private afterJsx(): void {
    this.mode = this.stack[this.stack.length - 1] === JSX_ELEMENT ? 'jsxChildren' : 'code'
    this.lastSignificant = ')'
    this.lastWord = ''
  }
}
