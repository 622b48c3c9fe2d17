/** Helpers shared by the converters of structured data (csv-json, yaml-json): JSON text, nesting, keys, warnings. */

import { invalidInput } from '../../core/errors.ts'
import { assertSafeValue } from '../../core/inspect.ts'
import { showCharacterAt } from '../text/charsets.ts'

/**
 * Sets an own, enumerable property, even for `__proto__`, which plain assignment would take as the
 * prototype: data keys taken from CSV headers or YAML must stay ordinary keys.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
  else target[key] = value
}

/** The line and column (both 1-based) of a UTF-16 position in `text`. */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let at = text.indexOf('\n'); at !== -1 && at < position; at = text.indexOf('\n', at + 1)) {
    line++
    lineStart = at + 1
  }
  return { line, column: position - lineStart + 1 }
}

/**
 * Reads JSON text given in a string field. A syntax error is a 422 naming its position, line and
 * column; the text may nest at most MAX_NESTING_DEPTH levels and may not hold lone surrogates
 * (written as `\ud800` escapes), exactly like a JSON value sent directly in the body.
 */
export function parseJsonText(text: string, field = 'input'): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const problem = findJsonSyntaxError(text) ?? { position: 0, message: (error as Error).message }
    const { line, column } = lineAndColumn(text, problem.position)
    throw invalidInput(`${field} is not valid JSON text: ${problem.message} at line ${line}, column ${column} (position ${problem.position})`, {
      field,
      position: problem.position,
      line,
      column,
    })
  }
  assertSafeValue(value, field)
  return value
}

/**
 * Whether a string or JSON value is larger than `limit` (string characters, plus a few per node),
 * looking at no more than about `limit` of it: a cheap test of whether work is heavy.
 */
export function isLargerThan(root: unknown, limit: number): boolean {
  const sizeOf = (value: unknown) => (typeof value === 'string' ? value.length + 2 : 4)
  let size = sizeOf(root)
  const pending: object[] = root !== null && typeof root === 'object' ? [root] : []
  while (pending.length > 0 && size <= limit) {
    forEachChild(pending.pop()!, (child, key) => {
      size += sizeOf(child) + (typeof key === 'string' ? key.length + 2 : 0)
      if (child !== null && typeof child === 'object') pending.push(child)
      return size <= limit
    })
  }
  return size > limit
}

/**
 * Calls `visit` with each child of an array or object and its key (an index, in an array), in
 * order, until it returns `false`. Arrays are read by index and objects by their own keys, so nothing
 * is built per child: `Object.entries` of half a million elements makes as many pairs at once.
 */
export function forEachChild(container: object, visit: (child: unknown, key: string | number) => unknown): void {
  if (Array.isArray(container)) {
    for (let index = 0; index < container.length; index++) if (visit(container[index], index) === false) return
    return
  }
  for (const key of Object.keys(container)) if (visit((container as Record<string, unknown>)[key], key) === false) return
}

/** Where JSON text goes wrong, and what was expected there. */
interface JsonSyntaxProblem {
  position: number
  message: string
}

/**
 * Finds the first syntax error in JSON text (only called once JSON.parse has failed, whose messages
 * do not always give the position). Iterative, so any nesting is fine.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  return new JsonSyntaxChecker(text).check()
}

const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const FOUR_HEX_DIGITS = /^[0-9a-fA-F]{4}$/

/**
 * One pass over JSON text: where it is, and the brackets open around it. Each read moves past what it
 * reads and answers the problem it met, if any.
 */
class JsonSyntaxChecker {
  private at = 0
  /** The `{` and `[` open around the current place, innermost last. */
  private readonly open: string[] = []
  /** Whether a value comes next, rather than a `,`, a closing bracket or the end. */
  private expectingValue = true

  constructor(private readonly text: string) {}

  check(): JsonSyntaxProblem | undefined {
    for (;;) {
      this.skipSpace()
      if (!this.expectingValue && this.open.length === 0) return this.at < this.text.length ? this.fail('the end of the text') : undefined
      const problem = this.expectingValue ? this.readValue() : this.readAfterValue()
      if (problem) return problem
    }
  }

  private fail(expected: string): JsonSyntaxProblem {
    const { text, at } = this
    return {
      position: at,
      message: at >= text.length ? `the text ends where ${expected} was expected` : `${showCharacterAt(text, at)} where ${expected} was expected`,
    }
  }

  private skipSpace(): void {
    const { text } = this
    while (this.at < text.length && (text[this.at] === ' ' || text[this.at] === '\t' || text[this.at] === '\n' || text[this.at] === '\r')) this.at++
  }

  /** A value, or the opening of a container (and its first key, in an object). */
  private readValue(): JsonSyntaxProblem | undefined {
    const { text } = this
    const char = text[this.at]
    if (char === '{' || char === '[') return this.openContainer(char)
    if (char === '"') {
      const problem = this.readString()
      if (problem) return problem
    } else if (text.startsWith('true', this.at) || text.startsWith('null', this.at)) {
      this.at += 4
    } else if (text.startsWith('false', this.at)) {
      this.at += 5
    } else {
      JSON_NUMBER.lastIndex = this.at
      const number = JSON_NUMBER.exec(text)
      if (!number || number[0].length === 0) return this.fail('a value')
      this.at += number[0].length
    }
    this.expectingValue = false
    return undefined
  }

  /** An empty container is a whole value; any other is open, up to its closing bracket. */
  private openContainer(opener: '{' | '['): JsonSyntaxProblem | undefined {
    this.at++
    this.skipSpace()
    if (this.text[this.at] === (opener === '{' ? '}' : ']')) {
      this.at++
      this.expectingValue = false
      return undefined
    }
    this.open.push(opener)
    return opener === '{' ? this.readKey() : undefined
  }

  /** After a value inside a container: a `,` and the next item, or the container's closing bracket. */
  private readAfterValue(): JsonSyntaxProblem | undefined {
    const opener = this.open[this.open.length - 1]
    const close = opener === '{' ? '}' : ']'
    const char = this.text[this.at]
    if (char === ',') {
      this.at++
      if (opener === '{') {
        const problem = this.readKey()
        if (problem) return problem
      }
      this.expectingValue = true
    } else if (char === close) {
      this.at++
      this.open.pop()
    } else {
      return this.fail(`',' or '${close}'`)
    }
    return undefined
  }

  /** A property name and its `:`. */
  private readKey(): JsonSyntaxProblem | undefined {
    this.skipSpace()
    if (this.text[this.at] !== '"') return this.fail('a property name in double quotes')
    const problem = this.readString()
    if (problem) return problem
    this.skipSpace()
    if (this.text[this.at] !== ':') return this.fail("':' after the property name")
    this.at++
    return undefined
  }

  /** A string, from its opening quote to just after its closing one. */
  private readString(): JsonSyntaxProblem | undefined {
    const { text } = this
    this.at++
    while (this.at < text.length) {
      const code = text.charCodeAt(this.at)
      if (code === 0x22) {
        this.at++
        return undefined
      }
      if (code < 0x20) return this.fail('a character of the string (control characters must be escaped)')
      if (code === 0x5c) {
        const problem = this.readEscape()
        if (problem) return problem
        continue
      }
      this.at++
    }
    return this.fail('a closing "')
  }

  /** A backslash escape in a string. */
  private readEscape(): JsonSyntaxProblem | undefined {
    const { text } = this
    const next = text[this.at + 1]
    if (next === 'u') {
      if (!FOUR_HEX_DIGITS.test(text.slice(this.at + 2, this.at + 6))) {
        this.at++
        return this.fail('\\u and four hex digits')
      }
      this.at += 6
      return undefined
    }
    if (next === undefined || !'"\\/bfnrt'.includes(next)) {
      this.at++
      return this.fail('an escape (one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)')
    }
    this.at += 2
    return undefined
  }
}

/** Warnings for a response: the first twenty in full, then how many more there were. */
export class WarningList {
  private readonly shown: string[] = []
  private more = 0

  constructor(private readonly limit = 20) {}

  add(message: string): void {
    if (this.shown.length < this.limit) this.shown.push(message)
    else this.more++
  }

  list(): string[] {
    return this.more > 0 ? [...this.shown, `…and ${this.more} more warnings like these`] : [...this.shown]
  }
}

/** A decimal's value as sign, significant digits and exponent, so that two spellings can be compared. */
function decimalValue(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!
  const digits = match[2] + (match[3] ?? '')
  const exponent = BigInt(match[4] ?? 0) - BigInt((match[3] ?? '').length)
  const significant = digits.replace(/^0+/, '')
  if (significant === '') return '0'
  const trimmed = significant.replace(/0+$/, '')
  return `${match[1]}${trimmed}e${exponent + BigInt(significant.length - trimmed.length)}`
}

/** Whether a number literal means exactly the value a JSON reader's double gives it (`1.0` does; `12345678901234567890` does not). */
export function isExactNumber(text: string): boolean {
  const value = Number(text)
  return Number.isFinite(value) && decimalValue(text) === decimalValue(String(value))
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const SHORT_INTEGER = /^-?\d{1,15}$/

/**
 * Warns of each number literal in JSON text that a double cannot hold exactly (digits beyond 2^53,
 * more digits than a double keeps): the operation works on the values, as JavaScript reads them.
 * Runs over text JSON.parse has accepted, so that strings and numbers are all it has to tell apart.
 */
export function warnOfInexactNumbers(text: string, field: string, warnings: WarningList): void {
  let at = 0
  while (at < text.length) {
    const code = text.charCodeAt(at)
    if (code === 0x22) {
      let end = text.indexOf('"', at + 1)
      for (;;) {
        let backslashes = 0
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++
        if (backslashes % 2 === 0) break
        end = text.indexOf('"', end + 1)
      }
      at = end + 1
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = at
      const literal = NUMBER.exec(text)![0]
      if (!SHORT_INTEGER.test(literal) && !isExactNumber(literal)) {
        const shown = literal.length > 40 ? `${literal.slice(0, 37)}…` : literal
        warnings.add(`${field}: the number ${shown} has no exact double, so it is read as ${Number(literal)}`)
      }
      at += literal.length
    } else at++
  }
}

/** The size of a string's JSON text in UTF-8 bytes, quotes included, exactly, without writing it: a control character or a lone surrogate takes six bytes. */
export function jsonStringBytes(text: string): number {
  let bytes = 2
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x20) bytes += unit === 8 || unit === 9 || unit === 10 || unit === 12 || unit === 13 ? 2 : 6
    else if (unit === 0x22 || unit === 0x5c) bytes += 2
    else if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4
      i++
    } else if (unit >= 0xd800 && unit <= 0xdfff) bytes += 6
    else bytes += 3
  }
  return bytes
}
