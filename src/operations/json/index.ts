import type { JSONPathEnvironment, JSONPathQuery } from 'json-p3'
import { type ParseErrorCode, printParseErrorCode, visit } from 'jsonc-parser'
import { Type } from 'typebox'
import { invalidInput, isDevutilsError, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { findJsonSyntaxError, isExactNumber, lineAndColumn, setOwn, WarningList } from '../../lib/json/value.ts'

/**
 * Inputs longer than this run on a worker thread: the line falls where csv-json's and yaml-json's
 * do (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const JSON_OFFLOAD_THRESHOLD = 16 * 1024

const ACTIONS = ['format', 'minify', 'validate', 'query', 'pointer'] as const

/**
 * Inputs longer than this, queried with a wildcard, slice or descendant segment, run on a worker
 * thread: such a query answers each match with its path, so what it writes can grow with the
 * input's size times its depth, and its paths with the square of the input's size.
 */
export const QUERY_OFFLOAD_THRESHOLD = 1024

/**
 * Whether a JSONPath query, read from its text, may write much more than its input: a filter, a
 * second descendant segment or a segment of several selectors (each a multiplier of what the
 * segments after it match) always; a wildcard, slice or descendant segment past a small input.
 * Characters inside quoted names count too, which only sends a few more queries to a worker.
 */
function queryMayOutgrow(input: string, path: string): boolean {
  if (path.includes('?') || path.includes(',') || path.indexOf('..') !== path.lastIndexOf('..')) return true
  return input.length > QUERY_OFFLOAD_THRESHOLD && /\.\.|\*|:/.test(path)
}

/**
 * The most values a query may gather: the values it matches, and the members of one array or object
 * that a wildcard, a slice or a filter selects from, which the query engine gathers all at once,
 * each with its path. They come beside the document read twice (as written and as values): a query
 * selecting every value of a large input outgrew a worker thread's heap.
 */
export const MAX_QUERY_VALUES = 100_000

/** A JSON value as written: literals keep their text, objects keep their members in order, duplicates included. */
type JsonNode = ObjectNode | ArrayNode | LiteralNode
interface ObjectNode {
  kind: 'object'
  start: number
  end: number
  members: Member[]
  /** The member each key names (the last, where a key repeats), built on first look-up. */
  byKey?: Map<string, Member>
}
interface ArrayNode {
  kind: 'array'
  start: number
  end: number
  items: JsonNode[]
}
interface LiteralNode {
  kind: 'literal'
  start: number
  end: number
  /** The literal exactly as written: a number's digits, a string's quotes and escapes. */
  text: string
  value: string | number | boolean | null
}
interface Member {
  key: string
  keyText: string
  value: JsonNode
}

interface ParsedJson {
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

/** Where and what the first syntax error is, in the service's terms. */
function syntaxErrorOf(text: string, stop: SyntaxStop, lenient: boolean) {
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
  const place = (offset: number) => {
    const { line, column } = lineAndColumn(text, offset)
    return `line ${line}, column ${column}`
  }
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
    if (containers.length + 1 > MAX_NESTING_DEPTH) {
      const { line, column } = lineAndColumn(text, offset)
      throw limitExceeded(`The JSON nests arrays and objects deeper than ${MAX_NESTING_DEPTH} levels (at line ${line}, column ${column})`, {
        field: 'input',
        position: offset,
        line,
        column,
        limit: MAX_NESTING_DEPTH,
      })
    }
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
            `${place(offset)}: the key ${JSON.stringify(key)} repeats the key at ${place(first)}; where the JSON is read into an object, the last one wins`,
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

/** Parses, turning a syntax error into a 422 with its place. */
export function parseOrRefuse(text: string, lenient: boolean): ParsedJson {
  try {
    return parseJson(text, lenient)
  } catch (error) {
    if (!(error instanceof SyntaxStop)) throw error
    const problem = syntaxErrorOf(text, error, lenient)
    throw invalidInput(`input is not valid ${lenient ? 'JSON (even leniently)' : 'JSON'}: ${problem.message}`, {
      field: 'input',
      position: problem.position,
      line: problem.line,
      column: problem.column,
    })
  }
}

/**
 * How many pieces of text `writeJson` gathers before joining them into a chunk: a document is written
 * in a few pieces per value, and one array of them all, with the copy each of its growths makes, was
 * the largest thing a large document of small values made the operation build.
 */
const PIECES_PER_CHUNK = 64 * 1024

/** The JSON text of a tree, every literal exactly as written. `indent` '' writes it on one line with no spaces. */
function writeJson(root: JsonNode, indent: string, sortKeys: boolean): string {
  const chunks: string[] = []
  let parts: string[] = []
  const write = (node: JsonNode, depth: number) => {
    if (parts.length >= PIECES_PER_CHUNK) {
      chunks.push(parts.join(''))
      parts = []
    }
    if (node.kind === 'literal') {
      parts.push(node.text)
      return
    }
    const entries = node.kind === 'array' ? node.items : sortKeys ? sortedMembers(node.members) : node.members
    const [openBracket, closeBracket] = node.kind === 'array' ? ['[', ']'] : ['{', '}']
    if (entries.length === 0) {
      parts.push(openBracket, closeBracket)
      return
    }
    const inner = indent ? `\n${indent.repeat(depth + 1)}` : ''
    parts.push(openBracket)
    entries.forEach((entry, index) => {
      if (index > 0) parts.push(',')
      parts.push(inner)
      if ('key' in entry) {
        parts.push(entry.keyText, indent ? ': ' : ':')
        write(entry.value, depth + 1)
      } else write(entry, depth + 1)
    })
    parts.push(indent ? `\n${indent.repeat(depth)}` : '', closeBracket)
  }
  write(root, 0)
  chunks.push(parts.join(''))
  return chunks.join('')
}

/** Members in UTF-16 code unit order of their keys; a stable sort, so repeated keys keep their order. */
function sortedMembers(members: Member[]): Member[] {
  return [...members].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/**
 * A tree as a JSON value. Numbers a double cannot hold exactly (beyond 2^53, more digits than a
 * double keeps, beyond its range) are given as their text, with a warning, when `warnings` is given;
 * otherwise (the copy a JSONPath filter reads) as the nearest double.
 */
function toValue(node: JsonNode, text: string, warnings?: WarningList): unknown {
  if (node.kind === 'array') return node.items.map((item) => toValue(item, text, warnings))
  if (node.kind === 'object') {
    const value: Record<string, unknown> = {}
    for (const member of node.members) setOwn(value, member.key, toValue(member.value, text, warnings))
    return value
  }
  if (typeof node.value === 'string') {
    if (!node.value.isWellFormed()) {
      const { line, column } = lineAndColumn(text, node.start)
      throw invalidInput(
        `The string at line ${line}, column ${column} escapes a lone surrogate, which is not Unicode text; it cannot be given as a value (format and minify keep it as written)`,
        { field: 'input', position: node.start, line, column },
      )
    }
    return node.value
  }
  if (typeof node.value === 'number' && warnings && !isExactNumber(node.text)) {
    const { line } = lineAndColumn(text, node.start)
    warnings.add(`line ${line}: the number ${node.text} has no exact JSON double (it would be read as ${Number(node.text)}), so it is given as a string`)
    return node.text
  }
  return node.value
}

/** The node a JSONPath location names; with repeated keys, the last member (as in the value the query saw). */
function nodeAt(root: JsonNode, location: ReadonlyArray<string | number>): JsonNode {
  let node = root
  for (const step of location) {
    if (node.kind === 'array') node = node.items[step as number]
    else if (node.kind === 'object') {
      node.byKey ??= new Map(node.members.map((member) => [member.key, member]))
      node = node.byKey.get(String(step))!.value
    }
  }
  return node
}

/**
 * About the UTF-8 size of a node's JSON: values are never longer than their text (escapes only get
 * shorter), but a UTF-16 unit may take three bytes, and a number given as a string gains quotes.
 */
const sizeOf = (node: JsonNode, ascii: boolean) => (ascii ? 1 : 3) * (node.end - node.start) + 2

/**
 * json-p3 and its query environment, made with the first query (see lazily). The recursive descent
 * selector may walk every level the input may have.
 */
const jsonPath = lazily(async () => {
  const { JSONPathEnvironment, JSONPathError, jsonpath } = await import('json-p3')
  const { NameSelector, IndexSelector } = jsonpath.selectors
  /** Whether a query selects every member of an array or object it meets, or some of them (a wildcard, a slice, a filter), rather than one by name or index. */
  const selectsMembers = (query: JSONPathQuery) =>
    query.segments.some((segment) => segment.selectors.some((selector) => !(selector instanceof NameSelector || selector instanceof IndexSelector)))
  return { environment: new JSONPathEnvironment({ maxRecursionDepth: MAX_NESTING_DEPTH + 1 }), JSONPathError, selectsMembers }
})

async function query(text: string, parsed: ParsedJson, path: string) {
  const { environment, JSONPathError, selectsMembers } = await jsonPath()
  let compiled: ReturnType<JSONPathEnvironment['compile']>
  try {
    compiled = environment.compile(path)
  } catch (error) {
    if (!(error instanceof JSONPathError)) throw error
    const position = error.token?.index
    throw invalidInput(
      `path is not a valid JSONPath query (RFC 9535): ${error.message.replace(/ \(.*:\d+\)$/, '')}${position === undefined ? '' : ` at position ${position}`}`,
      {
        field: 'path',
        ...(position === undefined ? {} : { position }),
      },
    )
  }
  if (parsed.widest > MAX_QUERY_VALUES && selectsMembers(compiled)) {
    throw limitExceeded(
      `The document holds an array or object of ${parsed.widest} members, more than the ${MAX_QUERY_VALUES} a query with a wildcard, slice or filter may run over; query it by names and indexes only, or send a smaller part of it`,
      { field: 'path', limit: MAX_QUERY_VALUES, members: parsed.widest },
    )
  }
  const document = toValue(parsed.root, text)
  const ascii = Buffer.byteLength(text) === text.length
  const values: unknown[] = []
  const paths: string[] = []
  let size = 0
  try {
    // Lazily, so that a query matching far too much is stopped at the output limit, not after building every match.
    for (const match of compiled.lazyQuery(document as never)) {
      const node = nodeAt(parsed.root, match.location)
      const normalized = match.getPath({ form: 'canonical' })
      size += sizeOf(node, ascii) + Buffer.byteLength(normalized) + 4
      assertOutputWithinLimit(size)
      if (values.length === MAX_QUERY_VALUES) {
        throw limitExceeded(`The query matches more than ${MAX_QUERY_VALUES} values, the most one query may return; narrow the path`, {
          field: 'path',
          limit: MAX_QUERY_VALUES,
        })
      }
      values.push(toValue(node, text, parsed.warnings))
      paths.push(normalized)
    }
  } catch (error) {
    if (isDevutilsError(error)) throw error
    if (error instanceof JSONPathError || error instanceof RangeError) {
      throw limitExceeded(`The query could not be evaluated within the service's limits: ${error.message.replace(/ \(.*:\d+\)$/, '')}`, { field: 'path' })
    }
    throw error
  }
  return { values, paths }
}

/**
 * The reference tokens of a JSON Pointer (RFC 6901), in either representation: the string itself
 * (`/a~1b`) or a URI fragment (`#/a~1b`, percent-encoded, §6). A `~` not followed by 0 or 1 is refused.
 */
function pointerTokens(pointer: string): string[] {
  let text = pointer
  if (pointer.startsWith('#')) {
    try {
      text = decodeURIComponent(pointer.slice(1))
    } catch {
      throw invalidInput('pointer is a URI fragment (it starts with #) whose percent-encoding is not valid UTF-8', { field: 'pointer' })
    }
  }
  if (text === '') return []
  if (!text.startsWith('/'))
    throw invalidInput('pointer must be empty (the whole document) or start with / (or be a URI fragment #/…)', { field: 'pointer', position: 0 })
  const badTilde = /~(?![01])/.exec(text)
  if (badTilde) {
    throw invalidInput(`pointer has a ~ at position ${badTilde.index} not followed by 0 or 1; write ~0 for ~ and ~1 for /`, {
      field: 'pointer',
      position: badTilde.index,
    })
  }
  return text
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function resolvePointer(root: JsonNode, pointer: string): JsonNode {
  const tokens = pointerTokens(pointer)
  let node = root
  let at = ''
  const missing = (why: string) => invalidInput(`pointer does not resolve: ${why}`, { field: 'pointer', path: at || '/' })
  for (const token of tokens) {
    const shown = JSON.stringify(token)
    if (node.kind === 'object') {
      node.byKey ??= new Map(node.members.map((member) => [member.key, member]))
      const member = node.byKey.get(token)
      if (!member) throw missing(`the object at '${at}' has no member ${shown}`)
      node = member.value
    } else if (node.kind === 'array') {
      if (token === '-') throw missing(`'-' names the element after the last of the array at '${at}', which does not exist`)
      if (!/^(?:0|[1-9]\d*)$/.test(token)) throw missing(`${shown} is not an array index (digits, no leading zero) for the array at '${at}'`)
      const item = node.items[Number(token)]
      if (!item) throw missing(`the array at '${at}' has ${node.items.length} elements, so no index ${token}`)
      node = item
    } else throw missing(`the value at '${at}' is ${node.text.length > 20 ? 'a scalar' : node.text}, not an object or array`)
    at += `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`
  }
  return node
}

function validateJson(text: string, lenient: boolean) {
  try {
    const parsed = parseJson(text, lenient)
    return { result: true, action: 'validate' as const, valid: true, warnings: warningsOf(parsed) }
  } catch (error) {
    if (!(error instanceof SyntaxStop)) throw error
    return { result: false, action: 'validate' as const, valid: false, error: syntaxErrorOf(text, error, lenient), warnings: [] }
  }
}

function warningsOf(parsed: ParsedJson): string[] {
  if (parsed.comments > 0) parsed.warnings.add(`${parsed.comments} comment${parsed.comments === 1 ? ' was' : 's were'} dropped: JSON has no comments`)
  return parsed.warnings.list()
}

const INDENT = Type.Union([Type.Integer({ minimum: 0, maximum: 8 }), Type.Literal('\t')], {
  description: 'format: spaces per level, 0 to 8, or "\\t" for a tab. 0 writes everything on one line, as JSON.stringify does (the same text as minify).',
})

export const json = defineOperation({
  name: 'json',
  category: 'converters',
  summary: 'Format, minify, validate or query JSON (JSONPath RFC 9535, JSON Pointer RFC 6901)',
  title: 'JSON formatter',
  aliases: ['prettify', 'pretty print', 'beautify', 'format json', 'minify', 'validate json', 'jsonpath', 'json pointer', 'query json', 'lint'],
  description:
    '`format` pretty-prints JSON text exactly as JSON.stringify would lay it out, and `minify` removes all whitespace, but neither ever changes a literal: ' +
    'numbers keep their digits (12345678901234567890 and 1.0 stay as written), strings keep their escapes, and keys stay in their order (integer-like keys too) unless `sortKeys` sorts them at every depth. ' +
    '`validate` says whether the text is JSON (RFC 8259) and, when not, where the first error is: `line` and `column` from 1, `position` from 0. ' +
    `\`query\` evaluates a JSONPath query (RFC 9535) and answers the matched values with their normalized paths, at most ${MAX_QUERY_VALUES.toLocaleString('en')} of them; a query with a wildcard, slice or filter runs over documents whose arrays and objects have at most as many members (more is a 422 LIMIT_EXCEEDED either way); \`pointer\` answers the value a JSON Pointer (RFC 6901) names. ` +
    'In values (query, pointer), a number no double holds exactly is given as its text, with a warning. ' +
    '`lenient` accepts comments and trailing commas (JSONC); comments are dropped from the output with a warning. Repeated keys are reported in `warnings`. ' +
    `Text that is not JSON is a 422 with its line and column (validate answers it with valid: false); nesting deeper than ${MAX_NESTING_DEPTH} levels is a 422 LIMIT_EXCEEDED. ` +
    `Inputs over ${JSON_OFFLOAD_THRESHOLD / 1024} KiB, queries with a filter, more than one descendant segment or a segment of several selectors, and queries with a wildcard, slice or descendant segment over inputs of more than ${QUERY_OFFLOAD_THRESHOLD} characters, run on a worker thread within the time budget.`,
  input: Type.Object(
    {
      input: Type.String({
        description: 'The JSON text (a string; with `lenient`, JSONC: comments and trailing commas allowed).',
        examples: ['{"b":1,"a":[true,null]}'],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, {
          description:
            'What to do: `format` (pretty-print), `minify`, `validate`, `query` (JSONPath, needs `path`) or `pointer` (JSON Pointer, needs `pointer`).',
        }),
        'format',
      ),
      indent: withDefault(INDENT, 2),
      sortKeys: withDefault(
        Type.Boolean({
          description: 'format and minify: sort the keys of every object, at every depth, in UTF-16 code unit order (repeated keys keep their order).',
        }),
        false,
      ),
      lenient: withDefault(Type.Boolean({ description: 'Accept JSONC: // and /* */ comments and trailing commas. The output is always strict JSON.' }), false),
      path: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 4096,
          description: 'query: the JSONPath query (RFC 9535), e.g. `$.store.book[?@.price < 10].title`; required for query.',
        }),
      ),
      pointer: Type.Optional(
        Type.String({
          maxLength: 4096,
          description:
            'pointer: the JSON Pointer (RFC 6901), e.g. `/store/book/0` (`~1` for /, `~0` for ~), or its URI fragment form `#/store/book/0`; "" is the whole document. Required for pointer.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({
      description: 'format and minify: the JSON text. validate: whether it is valid (as `valid`). query: the matched values, in order. pointer: the value.',
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    valid: Type.Optional(Type.Boolean({ description: 'validate: whether the input is JSON (JSONC with `lenient`).' })),
    error: Type.Optional(
      Type.Object(
        {
          message: Type.String({ description: 'What is wrong and where.' }),
          position: Type.Integer({ description: 'Where, in UTF-16 code units from 0.' }),
          line: Type.Integer({ description: 'The line, from 1.' }),
          column: Type.Integer({ description: 'The column, from 1.' }),
        },
        { description: 'validate: the first error, when the input is not valid.' },
      ),
    ),
    paths: Type.Optional(Type.Array(Type.String(), { description: "query: the normalized path (RFC 9535 §2.7) of each match, e.g. $['store']['book'][0]." })),
    warnings: Type.Array(Type.String(), {
      description: 'Repeated keys, dropped comments, and numbers given as strings because no double holds them exactly.',
    }),
  }),
  actions: {
    format: { fields: ['input', 'indent', 'sortKeys', 'lenient'] },
    minify: { fields: ['input', 'sortKeys', 'lenient'] },
    validate: { fields: ['input', 'lenient'] },
    query: { fields: ['input', 'path', 'lenient'], requires: ['path'] },
    pointer: { fields: ['input', 'pointer', 'lenient'], requires: ['pointer'] },
  },
  examples: [
    {
      summary: 'Pretty-print, numbers and key order kept as written',
      input: { input: '{"id":12345678901234567890,"price":1.0,"2":"b","1":"a"}' },
      output: { result: '{\n  "id": 12345678901234567890,\n  "price": 1.0,\n  "2": "b",\n  "1": "a"\n}', action: 'format', warnings: [] },
    },
    {
      summary: 'Minify JSONC, keys sorted',
      input: { input: '{\n  // retries\n  "b": 3,\n  "a": [1, 2,],\n}', action: 'minify', sortKeys: true, lenient: true },
      output: { result: '{"a":[1,2],"b":3}', action: 'minify', warnings: ['1 comment was dropped: JSON has no comments'] },
    },
    {
      summary: 'Validate: where the first error is',
      input: { input: '{\n  "a": 1,\n  "b": 2,\n}', action: 'validate' },
      output: {
        result: false,
        action: 'validate',
        valid: false,
        error: { message: "'}' where a property name in double quotes was expected at line 4, column 1 (position 22)", position: 22, line: 4, column: 1 },
        warnings: [],
      },
    },
    {
      summary: 'JSONPath: titles of books under 10 (RFC 9535)',
      input: {
        input:
          '{"store":{"book":[{"title":"Sayings of the Century","price":8.95},{"title":"Sword of Honour","price":12.99},{"title":"Moby Dick","price":8.99}]}}',
        action: 'query',
        path: '$.store.book[?@.price < 10].title',
      },
      output: {
        result: ['Sayings of the Century', 'Moby Dick'],
        action: 'query',
        paths: ["$['store']['book'][0]['title']", "$['store']['book'][2]['title']"],
        warnings: [],
      },
    },
    {
      summary: 'JSON Pointer (RFC 6901 §5)',
      input: { input: '{"foo":["bar","baz"],"a/b":1,"m~n":8}', action: 'pointer', pointer: '/m~0n' },
      output: { result: 8, action: 'pointer', warnings: [] },
    },
  ],
  offload: ({ input, action, path }) => input.length > JSON_OFFLOAD_THRESHOLD || (action === 'query' && path !== undefined && queryMayOutgrow(input, path)),
  async run({ input, action, indent, sortKeys, lenient, path, pointer }) {
    if (action === 'validate') return validateJson(input, lenient)
    if (action === 'query' && path === undefined) throw validationError('path', 'is required for query (a JSONPath query such as $.a[0])')
    if (action === 'pointer' && pointer === undefined) throw validationError('pointer', 'is required for pointer (a JSON Pointer such as /a/0)')
    const parsed = parseOrRefuse(input, lenient)
    if (action === 'format' || action === 'minify') {
      const unit = action === 'minify' || indent === 0 ? '' : indent === '\t' ? '\t' : ' '.repeat(indent)
      assertOutputWithinLimit(Buffer.byteLength(input) + 4 * parsed.lines + unit.length * parsed.indentUnits)
      return { result: writeJson(parsed.root, unit, sortKeys), action, warnings: warningsOf(parsed) }
    }
    if (action === 'query') {
      const { values, paths } = await query(input, parsed, path!)
      return { result: values, action, paths, warnings: warningsOf(parsed) }
    }
    const node = resolvePointer(parsed.root, pointer!)
    assertOutputWithinLimit(sizeOf(node, Buffer.byteLength(input) === input.length))
    return { result: toValue(node, input, parsed.warnings), action, warnings: warningsOf(parsed) }
  },
})
