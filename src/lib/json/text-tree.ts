import { type ParseErrorCode, printParseErrorCode, visit } from 'jsonc-parser'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { findJsonSyntaxError, lineAndColumn, WarningList } from './value.ts'

/** A JSON value as written: literals keep their text, objects keep their members in order, duplicates included. */
export type JsonNode = ObjectNode | ArrayNode | LiteralNode
export interface ObjectNode {
  kind: 'object'
  start: number
  end: number
  members: Member[]
  /** The member each key names (the last, where a key repeats), built on first look-up. */
  byKey?: Map<string, Member>
}
export interface ArrayNode {
  kind: 'array'
  start: number
  end: number
  items: JsonNode[]
}
export interface LiteralNode {
  kind: 'literal'
  start: number
  end: number
  /** The literal exactly as written: a number's digits, a string's quotes and escapes. */
  text: string
  value: string | number | boolean | null
}
export interface Member {
  key: string
  keyText: string
  value: JsonNode
}

export interface ParsedJson {
  root: JsonNode
  /** How many lines a pretty-printed copy has at each indentation, summed as indentation units: for the output's size. */
  indentUnits: number
  lines: number
  /** The most members of one array or object. */
  widest: number
  comments: number
  warnings: WarningList
}

/** Thrown from the visitor to stop at the first syntax error (jsonc-parser would carry on). */
class SyntaxStop {
  constructor(
    readonly code: ParseErrorCode,
    readonly offset: number,
  ) {}
}

const ERROR_PHRASES: Record<string, string> = {
  InvalidSymbol: 'a character that cannot start a value',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "':' was expected after the property name",
  CommaExpected: "',' was expected",
  CloseBraceExpected: "'}' was expected",
  CloseBracketExpected: "']' was expected",
  EndOfFileExpected: 'the end of the text was expected',
  InvalidCommentToken: 'a comment (allowed only with lenient)',
  UnexpectedEndOfComment: 'a comment that is never closed',
  UnexpectedEndOfString: 'a string that is never closed',
  UnexpectedEndOfNumber: 'a number that ends too early',
  InvalidUnicode: 'a \\u escape without four hex digits',
  InvalidEscapeCharacter: 'an escape that is not one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
  InvalidCharacter: 'a control character inside a string (it must be escaped)',
}

/** The first syntax error of a JSON text: what, and where (`line` and `column` from 1, `position` from 0). */
export interface JsonSyntaxError {
  message: string
  position: number
  line: number
  column: number
}

/** Where and what the first syntax error is, in the service's terms. */
function syntaxErrorOf(text: string, stop: SyntaxStop, lenient: boolean): JsonSyntaxError {
  // The strict reader of the service names the exact character (jsonc-parser gives a token's start).
  const strict = lenient ? undefined : findJsonSyntaxError(text)
  const position = strict?.position ?? stop.offset
  const reason = strict?.message ?? ERROR_PHRASES[printParseErrorCode(stop.code)] ?? printParseErrorCode(stop.code)
  const { line, column } = lineAndColumn(text, position)
  return { message: `${reason} at line ${line}, column ${column} (position ${position})`, position, line, column }
}

/**
 * Reads JSON text into a tree that keeps every literal's text and every member in order. Stops at
 * the first syntax error, and at a container that would nest deeper than MAX_NESTING_DEPTH (so the
 * recursion of jsonc-parser stays shallow however deep the text goes).
 */

function placeText(text: string, offset: number): string {
  const { line, column } = lineAndColumn(text, offset)
  return `line ${line}, column ${column}`
}

function tooDeep(text: string, offset: number) {
  const { line, column } = lineAndColumn(text, offset)
  return limitExceeded(`The JSON nests arrays and objects deeper than ${MAX_NESTING_DEPTH} levels (at line ${line}, column ${column})`, {
    field: 'input',
    position: offset,
    line,
    column,
    limit: MAX_NESTING_DEPTH,
  })
}

function parseJson(text: string, lenient: boolean): ParsedJson {
  const warnings = new WarningList()
  const containers: Array<ObjectNode | ArrayNode> = []
  const pendingKeys: Array<{ key: string; keyText: string; offset: number }> = []
  const firstOffsets: Array<Map<string, number>> = []
  let root: JsonNode | undefined
  let indentUnits = 0
  let widest = 0
  let lines = 0
  let comments = 0
  const attach = (node: JsonNode) => {
    const parent = containers.at(-1)
    if (!parent) {
      root = node
      return
    }
    lines++
    indentUnits += containers.length
    if (parent.kind === 'array') parent.items.push(node)
    else {
      const { key, keyText } = pendingKeys.pop()!
      parent.members.push({ key, keyText, value: node })
    }
  }
  const open = (node: ObjectNode | ArrayNode, offset: number) => {
    if (containers.length + 1 > MAX_NESTING_DEPTH) throw tooDeep(text, offset)
    attach(node)
    containers.push(node)
    firstOffsets.push(new Map())
  }
  const close = (offset: number, length: number) => {
    const node = containers.pop()!
    firstOffsets.pop()
    node.end = offset + length
    const members = node.kind === 'object' ? node.members.length : node.items.length
    widest = Math.max(widest, members)
    if (members > 0) {
      lines++
      indentUnits += containers.length
    }
  }
  visit(
    text,
    {
      onObjectBegin: (offset) => open({ kind: 'object', start: offset, end: offset, members: [] }, offset),
      onObjectEnd: close,
      onArrayBegin: (offset) => open({ kind: 'array', start: offset, end: offset, items: [] }, offset),
      onArrayEnd: close,
      onObjectProperty: (key, offset, length) => {
        const seen = firstOffsets[firstOffsets.length - 1]
        const first = seen.get(key)
        if (first === undefined) seen.set(key, offset)
        else
          warnings.add(
            `${placeText(text, offset)}: the key ${JSON.stringify(key)} repeats the key at ${placeText(text, first)}; where the JSON is read into an object, the last one wins`,
          )
        pendingKeys.push({ key, keyText: text.slice(offset, offset + length), offset })
      },
      onLiteralValue: (value, offset, length) =>
        attach({ kind: 'literal', start: offset, end: offset + length, text: text.slice(offset, offset + length), value }),
      onComment: () => {
        comments++
      },
      onError: (code, offset) => {
        throw new SyntaxStop(code, offset)
      },
    },
    { disallowComments: !lenient, allowTrailingComma: lenient, allowEmptyContent: false },
  )
  return { root: root!, indentUnits, lines, widest, comments, warnings }
}

/** The tree of a JSON text, or its first syntax error; nesting past the limit is still thrown (a 422 LIMIT_EXCEEDED). */
export function readJsonTree(text: string, lenient: boolean): { tree: ParsedJson; error?: undefined } | { tree?: undefined; error: JsonSyntaxError } {
  try {
    return { tree: parseJson(text, lenient) }
  } catch (error) {
    if (!(error instanceof SyntaxStop)) throw error
    return { error: syntaxErrorOf(text, error, lenient) }
  }
}

/** Parses, turning a syntax error into a 422 with its place. */
export function parseOrRefuse(text: string, lenient: boolean): ParsedJson {
  const { tree, error } = readJsonTree(text, lenient)
  if (tree) return tree
  throw invalidInput(`input is not valid ${lenient ? 'JSON (even leniently)' : 'JSON'}: ${error.message}`, {
    field: 'input',
    position: error.position,
    line: error.line,
    column: error.column,
  })
}

/** The tree's warnings, with one for the comments a lenient read dropped. */
export function warningsOf(parsed: ParsedJson): string[] {
  if (parsed.comments > 0) parsed.warnings.add(`${parsed.comments} comment${parsed.comments === 1 ? ' was' : 's were'} dropped: JSON has no comments`)
  return parsed.warnings.list()
}
