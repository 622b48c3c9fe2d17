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

/**
 * Finds the first syntax error in JSON text (only called once JSON.parse has failed, whose messages
 * do not always give the position). Iterative, so any nesting is fine.
 */
export function findJsonSyntaxError(text: string): { position: number; message: string } | undefined {
  let i = 0
  const stack: string[] = []
  const fail = (expected: string) => ({
    position: i,
    message: i >= text.length ? `the text ends where ${expected} was expected` : `${showCharacterAt(text, i)} where ${expected} was expected`,
  })
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const readString = () => {
    i++
    while (i < text.length) {
      const code = text.charCodeAt(i)
      if (code === 0x22) {
        i++
        return undefined
      }
      if (code < 0x20) return fail('a character of the string (control characters must be escaped)')
      if (code === 0x5c) {
        const next = text[i + 1]
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i++
            return fail('\\u and four hex digits')
          }
          i += 6
          continue
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) {
          i++
          return fail('an escape (one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)')
        }
        i += 2
        continue
      }
      i++
    }
    return fail('a closing "')
  }
  const readKey = () => {
    skipSpace()
    if (text[i] !== '"') return fail('a property name in double quotes')
    const error = readString()
    if (error) return error
    skipSpace()
    if (text[i] !== ':') return fail("':' after the property name")
    i++
    return undefined
  }
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
  let expectValue = true
  for (;;) {
    skipSpace()
    if (expectValue) {
      const char = text[i]
      if (char === '{' || char === '[') {
        i++
        skipSpace()
        if (text[i] === (char === '{' ? '}' : ']')) {
          i++
          expectValue = false
          continue
        }
        stack.push(char)
        if (char === '{') {
          const error = readKey()
          if (error) return error
        }
        continue
      }
      if (char === '"') {
        const error = readString()
        if (error) return error
      } else if (text.startsWith('true', i) || text.startsWith('null', i)) {
        i += 4
      } else if (text.startsWith('false', i)) {
        i += 5
      } else {
        NUMBER.lastIndex = i
        const number = NUMBER.exec(text)
        if (!number || number[0].length === 0) return fail('a value')
        i += number[0].length
      }
      expectValue = false
      continue
    }
    const open = stack.at(-1)
    if (open === undefined) return i < text.length ? fail('the end of the text') : undefined
    const close = open === '{' ? '}' : ']'
    if (text[i] === ',') {
      i++
      if (open === '{') {
        const error = readKey()
        if (error) return error
      }
      expectValue = true
    } else if (text[i] === close) {
      i++
      stack.pop()
    } else {
      return fail(`',' or '${close}'`)
    }
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
