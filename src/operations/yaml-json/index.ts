import { Type } from 'typebox'
import {
  Composer,
  type CST,
  Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  Parser,
  Scalar,
  type Tags,
  visit,
  YAMLError,
  type Node as YamlNode,
} from 'yaml'
import { invalidInput, isDevutilsError, limitExceeded, validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { forEachChild, isLargerThan, parseJsonText, setOwn, WarningList } from '../../lib/json/value.ts'
import { NOT_IN_SUBSET, readYamlSubset } from './yaml-subset.ts'
import { type Role, writeYaml } from './yaml-writer.ts'

/**
 * Inputs above this many characters (JSON values: string lengths plus a few per node) run on a
 * worker thread. yaml is slow per byte, so the line falls low; below it a thread hop would cost more
 * than it saves (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const YAML_OFFLOAD_THRESHOLD = 1024

/** Where a YAML node starts: 1-based line and column. */
type Place = { line: number; column: number }

function placeOf(lines: LineCounter, offset: number): Place {
  const { line, col } = lines.linePos(Math.max(0, offset))
  return line === 0 ? { line: 1, column: col + 1 } : { line, column: col }
}

/**
 * Refuses a document nested deeper than MAX_NESTING_DEPTH from the parser's concrete syntax tree,
 * without recursion and before anything is composed: composing a deeply nested document (about
 * 1,200 levels, 2.4 KB of `[`) can abort the whole process on Node 20 with a fatal, uncatchable
 * "RegExpCompiler Allocation failed", even inside a worker thread.
 */
function assertDepthWithinLimit(token: CST.Token, lines: LineCounter): void {
  const pending: Array<[token: CST.Token, depth: number]> = [[token, 0]]
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (node.type === 'document') {
      if (node.value) pending.push([node.value, depth])
    } else if (node.type === 'block-map' || node.type === 'block-seq' || node.type === 'flow-collection') {
      if (depth + 1 > MAX_NESTING_DEPTH) {
        const place = placeOf(lines, node.offset)
        throw limitExceeded(`The YAML nests collections deeper than ${MAX_NESTING_DEPTH} levels (at line ${place.line}, column ${place.column})`, {
          ...place,
          limit: MAX_NESTING_DEPTH,
        })
      }
      for (const item of node.items) {
        if (item.key) pending.push([item.key, depth + 1])
        if (item.value) pending.push([item.value, depth + 1])
      }
    }
  }
}

/**
 * Passes the parser's tokens on to the composer once each is known to be safe to compose (see
 * assertDepthWithinLimit). On the way it corrects what yaml gets wrong about the stream: it
 * refuses a directive that no document follows and a second %YAML directive for one document, and
 * drops the empty "document" the parser reports before a `...` that ends no document (a stream of
 * `...` alone holds no document at all, YAML 1.2 §9.2).
 */
function* checkedTokens(tokens: Iterable<CST.Token>, lines: LineCounter): Generator<CST.Token> {
  let pending: CST.Directive | undefined
  let yamlDirectives = 0
  let droppedDocument = false
  for (const token of tokens) {
    assertDepthWithinLimit(token, lines)
    if (token.type === 'document' && token.start.length === 0 && token.value === undefined && !token.end?.length) {
      droppedDocument = true
      continue
    }
    if (token.type === 'doc-end' && droppedDocument) {
      droppedDocument = false
      continue
    }
    droppedDocument = false
    if (token.type === 'directive') {
      pending = token
      if (/^%YAML(\s|$)/.test(token.source) && ++yamlDirectives > 1) {
        const place = placeOf(lines, token.offset)
        throw invalidInput(`The YAML is not valid at line ${place.line}: a document may have only one %YAML directive`, place)
      }
    } else if (token.type === 'document') {
      pending = undefined
      yamlDirectives = 0
    }
    yield token
  }
  if (pending) {
    const place = placeOf(lines, pending.offset)
    throw invalidInput(`The YAML is not valid at line ${place.line}: the directive ${pending.source.trim()} is not followed by a document`, place)
  }
}

/** A node turned into JSON, with its nesting depth and the predicted size of its JSON text. */
interface Converted {
  value: unknown
  depth: number
  size: number
}

const NULL: Converted = { value: null, depth: 0, size: 4 }

/**
 * Turns a composed YAML document into a JSON value. Aliases reuse the value of their anchor (shared,
 * not copied), so the work stays linear while the predicted JSON size follows the expansion: a
 * "billion laughs" document is refused as soon as its expansion passes the output limit. The
 * recursion follows the document's own structure, whose depth the CST check has bounded.
 */
class JsonBuilder {
  /** The latest node defining each anchor, in document order. */
  private readonly anchors = new Map<string, YamlNode>()
  /** Converted anchored nodes; an anchor being converted is absent (an alias to it is a cycle). */
  private readonly anchored = new Map<YamlNode, Converted>()

  constructor(
    private readonly lines: LineCounter,
    private readonly warnings: WarningList,
  ) {}

  private place(node: YamlNode | null | undefined): Place {
    return placeOf(this.lines, node?.range?.[0] ?? 0)
  }

  convert(node: YamlNode | null | undefined): Converted {
    if (node === null || node === undefined) return NULL
    if (isAlias(node)) return this.resolveAlias(node.source, node)
    const anchor = (node as { anchor?: string }).anchor
    if (anchor) this.anchors.set(anchor, node)
    const converted = isMap(node) ? this.convertMap(node) : isSeq(node) ? this.convertSeq(node) : isScalar(node) ? this.convertScalar(node) : NULL
    if (converted.depth > MAX_NESTING_DEPTH) {
      const place = this.place(node)
      throw limitExceeded(`Through its aliases the YAML nests collections deeper than ${MAX_NESTING_DEPTH} levels (at line ${place.line})`, {
        ...place,
        limit: MAX_NESTING_DEPTH,
      })
    }
    if (converted.size > OUTPUT_LIMIT_BYTES) {
      const place = this.place(node)
      throw limitExceeded(
        `The YAML would expand (through its aliases, at line ${place.line}) to more than the ${OUTPUT_LIMIT_BYTES}-byte output limit of JSON`,
        { ...place, limit: OUTPUT_LIMIT_BYTES },
      )
    }
    if (anchor) this.anchored.set(node, converted)
    return converted
  }

  private resolveAlias(name: string, alias: YamlNode): Converted {
    const target = this.anchors.get(name)
    const place = this.place(alias)
    if (!target) {
      throw invalidInput(`The alias *${name} at line ${place.line}, column ${place.column} refers to no anchor &${name} defined before it`, place)
    }
    const converted = this.anchored.get(target)
    if (!converted) {
      throw invalidInput(
        `The alias *${name} at line ${place.line}, column ${place.column} refers to a node that contains it; JSON cannot hold such a cycle`,
        place,
      )
    }
    return converted
  }

  private convertScalar(node: Scalar): Converted {
    const value: unknown = node.value
    if (typeof value === 'string') {
      if (!value.isWellFormed()) {
        const place = this.place(node)
        throw invalidInput(`The string at line ${place.line}, column ${place.column} contains a lone surrogate, which is not Unicode text`, place)
      }
      return { value, depth: 0, size: jsonStringSize(value) }
    }
    if (typeof value === 'bigint') {
      if (value >= -Number.MAX_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) return scalar(Number(value))
      this.warnings.add(`line ${this.place(node).line}: the integer ${value} is beyond 2^53, where JSON numbers lose digits, so it is returned as a string`)
      return scalar(String(value))
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      const text = Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf'
      this.warnings.add(`line ${this.place(node).line}: ${text} has no JSON number, so it is returned as the string "${text}"`)
      return scalar(text)
    }
    if (typeof value === 'symbol') return scalar(value.description ?? '')
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return scalar(value)
    return scalar(String(value))
  }

  private convertSeq(node: { items: unknown[] }): Converted {
    const value: unknown[] = []
    let depth = 0
    let size = 2
    for (const item of node.items) {
      const converted = this.convert(item as YamlNode | null)
      value.push(converted.value)
      depth = Math.max(depth, converted.depth)
      size += converted.size + 1
    }
    return { value, depth: depth + 1, size }
  }

  private convertMap(node: { items: Array<{ key: unknown; value: unknown }> }): Converted {
    const value: Record<string, unknown> = {}
    /** Keys written in this mapping (not merged), with the node that first wrote them. */
    const written = new Map<string, YamlNode | null>()
    let depth = 0
    let size = 2
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null
      if (isScalar(keyNode) && typeof keyNode.value === 'symbol') {
        const merged = this.merge(pair.value as YamlNode | null, value, written)
        depth = Math.max(depth, merged.depth - 1)
        size += merged.size
        continue
      }
      const key = this.keyText(keyNode)
      const where = keyNode ?? (pair.value as YamlNode | null)
      if (written.has(key)) {
        const place = this.place(where)
        const firstLine = this.place(written.get(key)).line
        throw invalidInput(`The key '${key}' at line ${place.line}, column ${place.column} repeats the key of line ${firstLine}; keys must be unique`, {
          ...place,
          key,
          firstLine,
        })
      }
      written.set(key, where)
      const converted = this.convert(pair.value as YamlNode | null)
      setOwn(value, key, converted.value)
      depth = Math.max(depth, converted.depth)
      size += jsonStringSize(key) + converted.size + 2
    }
    return { value, depth: depth + 1, size }
  }

  /** `<<: *base` or `<<: [*a, *b]`: keys written in the mapping win, then earlier sources. */
  private merge(sourceNode: YamlNode | null, target: Record<string, unknown>, written: Map<string, unknown>): Converted {
    const sources = isSeq(sourceNode) ? (sourceNode.items as Array<YamlNode | null>) : [sourceNode]
    let depth = 0
    let size = 0
    for (const source of sources) {
      const converted = this.convert(source)
      if (converted.value === null || typeof converted.value !== 'object' || Array.isArray(converted.value)) {
        const place = this.place(source ?? sourceNode)
        throw invalidInput(`The merge key << at line ${place.line} needs a mapping, an alias of one, or a list of them`, place)
      }
      for (const [key, item] of Object.entries(converted.value)) {
        if (!written.has(key) && !Object.hasOwn(target, key)) setOwn(target, key, item)
      }
      depth = Math.max(depth, converted.depth)
      size += converted.size
    }
    return { value: target, depth, size }
  }

  /** JSON keys are strings: scalars give their text (null gives "null"), collections their JSON text. */
  private keyText(node: YamlNode | null): string {
    const { value } = this.convert(node)
    if (typeof value === 'string') return value
    if (value !== null && typeof value === 'object') {
      const text = JSON.stringify(value)
      this.warnings.add(`line ${this.place(node).line}: a collection used as a key became the key ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`)
      return text
    }
    return String(value)
  }
}

const PLAIN_JSON_STRING = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/

/** The UTF-8 size of a string's JSON text, without writing it in the common case. */
function jsonStringSize(text: string): number {
  return PLAIN_JSON_STRING.test(text) ? text.length + 2 : Buffer.byteLength(JSON.stringify(text))
}

function scalar(value: unknown): Converted {
  return { value, depth: 0, size: typeof value === 'string' ? jsonStringSize(value) : String(value).length }
}

/** Any error yaml throws (it throws plain ReferenceErrors too) becomes a 422, never a 500. */
function asInputError(error: unknown, lines: LineCounter): never {
  if (isDevutilsError(error)) throw error
  if (error instanceof YAMLError) {
    const place = placeOf(lines, error.pos[0])
    throw invalidInput(`The YAML is not valid at line ${place.line}, column ${place.column}: ${firstLine(error.message)}`, { ...place, reason: error.code })
  }
  if (error instanceof RangeError) throw limitExceeded('The YAML is too complex to read', {})
  throw invalidInput(`The YAML could not be read: ${firstLine(error instanceof Error ? error.message : String(error))}`, {})
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
}

/** The spec-complete path: the `yaml` library's parser and composer, then JsonBuilder. */
export function yamlToJsonByLibrary(text: string, multiDocument: boolean) {
  const lines = new LineCounter()
  const warnings = new WarningList()
  const composer = new Composer({
    schema: 'core',
    version: '1.2',
    merge: true,
    intAsBigInt: true,
    resolveKnownTags: false,
    // Checked below with a Set per mapping: yaml's own check is quadratic in the number of keys.
    uniqueKeys: false,
    logLevel: 'silent',
  })
  const values: unknown[] = []
  try {
    const builder = new JsonBuilder(lines, warnings)
    let size = 2
    for (const doc of composer.compose(checkedTokens(new Parser(lines.addNewLine).parse(text), lines))) {
      const [error] = doc.errors
      if (error) asInputError(error, lines)
      for (const warning of doc.warnings) {
        const place = placeOf(lines, warning.pos[0])
        warnings.add(
          `line ${place.line}, column ${place.column}: ${firstLine(warning.message)}${warning.code === 'TAG_RESOLVE_FAILED' ? '; the tag was ignored and the plain value kept' : ''}`,
        )
      }
      const converted = builder.convert(doc.contents as YamlNode | null)
      size += converted.size + 1
      assertOutputWithinLimit(size)
      values.push(converted.value)
    }
    // Errors outside any document (stray tokens after the last one) stay with the composer.
    const [streamError] = composer.streamInfo().errors
    if (streamError) asInputError(streamError, lines)
  } catch (error) {
    asInputError(error, lines)
  }
  if (values.length > 1 && !multiDocument) {
    throw invalidInput(`The input holds ${values.length} YAML documents; set multiDocument to true to get them all as an array`, { documents: values.length })
  }
  const result = multiDocument ? values : (values[0] ?? null)
  return { result, action: 'yamlToJson' as const, documents: values.length, warnings: warnings.list() }
}

/**
 * The common subset of YAML (see yaml-subset.ts) is read straight into JSON values, about ten
 * times faster than the library; any other text, and every error, takes the library's path.
 */
export function yamlToJson(text: string, multiDocument: boolean) {
  const value = readYamlSubset(text)
  if (value === NOT_IN_SUBSET) return yamlToJsonByLibrary(text, multiDocument)
  return { result: multiDocument ? [value] : value, action: 'yamlToJson' as const, documents: 1, warnings: [] as string[] }
}

/**
 * Plain strings that a YAML 1.1 reader (PyYAML and others) would take for something else, beyond
 * those the `yaml-1.1` compatibility schema already quotes: the 1.1 "value" key `=`, and a leading
 * byte-order mark, which a reader drops at the start of a document.
 */
function needsExtraQuotes(text: string): boolean {
  return text === '=' || text.charCodeAt(0) === 0xfeff
}

/**
 * Numbers as YAML 1.1 and 1.2 read them back, and as yamlToJson gives them back as numbers: an
 * integer beyond 2^53 is written in exponent form (a YAML integer that large would come back as a
 * string), and 1.1 floats need a '.', so 1e+21 is written 1.0e+21.
 */
function numberText(node: Scalar): string {
  const value = node.value as number
  const text = Number.isInteger(value) && !Number.isSafeInteger(value) ? value.toExponential() : JSON.stringify(value)
  return text.includes('e') && !text.includes('.') ? text.replace('e', '.0e') : text
}

const NUMBER_TAGS = new Set(['tag:yaml.org,2002:int', 'tag:yaml.org,2002:float'])
const numberTags = (tags: Tags): Tags =>
  tags.map((tag) => (typeof tag === 'object' && NUMBER_TAGS.has(tag.tag) ? { ...tag, stringify: numberText } : tag)) as Tags

/**
 * An upper bound of the YAML text's length, before it is written: indentation repeats on every
 * line and long strings fold into many lines, so the output can be far larger than the input.
 */
function predictYamlSize(root: unknown, indent: number, lineWidth: number): number {
  const step = indent + 2
  let size = 0
  const text = (value: string, depth: number) => {
    const margin = depth * step
    let lines = 1
    for (let at = value.indexOf('\n'); at !== -1; at = value.indexOf('\n', at + 1)) lines++
    if (lineWidth > 0) lines += Math.ceil((2 * value.length) / Math.max(20, lineWidth - margin))
    return 6 * value.length + 4 + lines * (margin + step + 2)
  }
  const scalar = (value: unknown, depth: number) => depth * step + 4 + (typeof value === 'string' ? text(value, depth) : 24)
  if (root === null || typeof root !== 'object') return scalar(root, 0)
  // Only mappings and sequences wait on the stack: a sequence of half a million numbers is
  // measured without building anything per element.
  const pending: Array<[container: object, depth: number]> = [[root, 0]]
  while (pending.length > 0 && size <= OUTPUT_LIMIT_BYTES) {
    const [container, depth] = pending.pop()!
    size += depth * step + 4
    forEachChild(container, (child, key) => {
      if (typeof key === 'string') size += text(key, depth + 1)
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1])
      else size += scalar(child, depth + 1)
      return size <= OUTPUT_LIMIT_BYTES
    })
  }
  return size
}

interface JsonToYamlOptions {
  indent: number
  sortKeys: boolean
  lineWidth: number
}

/** The library's path: a Document with the 1.1-compatible quoting, written by the library. */
export function jsonToYamlByLibrary(value: unknown, { indent, sortKeys, lineWidth }: JsonToYamlOptions): string {
  const doc = new Document(value, {
    version: '1.2',
    schema: 'core',
    compat: 'yaml-1.1',
    customTags: numberTags,
    sortMapEntries: sortKeys,
    aliasDuplicateObjects: false,
  })
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && needsExtraQuotes(node.value)) node.type = Scalar.QUOTE_DOUBLE
    },
  })
  return doc.toString({ indent, lineWidth })
}

/** How the library writes one string as a key or as a value, on one line if it can. */
function renderAlone(text: string, role: Role): string {
  const options = { indent: 2, sortKeys: false, lineWidth: 0 }
  if (role === 'key') return jsonToYamlByLibrary({ [text]: null }, options).slice(0, -': null\n'.length)
  return jsonToYamlByLibrary({ k: text }, options).slice('k: '.length, -1)
}

/** The direct writer's text (see yaml-writer.ts), or undefined where only the library's path knows the layout. */
export const jsonToYamlDirectly = (value: unknown, options: JsonToYamlOptions) => writeYaml(value, options, renderAlone)

function jsonToYaml(input: unknown, options: JsonToYamlOptions) {
  const value = typeof input === 'string' ? parseJsonText(input) : input
  assertOutputWithinLimit(predictYamlSize(value, options.indent, options.lineWidth))
  const result = jsonToYamlDirectly(value, options) ?? jsonToYamlByLibrary(value, options)
  return { result, action: 'jsonToYaml' as const }
}

export const yamlJson = defineOperation({
  name: 'yaml-json',
  category: 'converters',
  summary: 'Convert YAML to JSON and JSON to YAML',
  title: 'YAML and JSON',
  aliases: ['yaml to json', 'json to yaml', 'yml', 'kubernetes manifest', 'docker compose'],
  description:
    'yamlToJson reads YAML 1.2 (core schema, merge keys `<<` honoured) into JSON. Anchors and aliases are expanded; a document whose expansion would pass the 16 MiB output limit ' +
    '(a "billion laughs") or that nests deeper than 100 levels is a 422 LIMIT_EXCEEDED. Duplicate keys are a 422 with the line. Integers beyond 2^53 and .inf/.nan come back as strings, ' +
    'each with a warning. Tags are never executed: a tag outside the core schema (`!!js/function`, `!!binary`, `!custom`…) is ignored with a warning and the plain value kept. ' +
    'jsonToYaml writes a JSON value as YAML that reads back to the same JSON under YAML 1.2 and 1.1: strings such as yes, no, on, off, y, 012, 0x1F, 1e3, 1_000, null, ~, .inf, dates, << and = are quoted. ' +
    `Inputs over ${YAML_OFFLOAD_THRESHOLD / 1024} KiB run on a worker thread, off the event loop, within the time budget (503 TIMEOUT past it).`,
  input: Type.Object(
    {
      input: Type.Unknown({
        description:
          'yamlToJson: the YAML text (a string). jsonToYaml: the JSON value to write, an object, array or scalar; a string is read as JSON text (so the string "a" is sent as "\\"a\\"").',
        examples: ['name: devutils\ntags: [yaml, json]\n'],
      }),
      action: withDefault(
        Type.Enum(['yamlToJson', 'jsonToYaml'], { description: 'Read YAML into JSON (`yamlToJson`), or write JSON as YAML (`jsonToYaml`).' }),
        'yamlToJson',
      ),
      multiDocument: withDefault(
        Type.Boolean({
          description:
            'yamlToJson: return every document of the stream as an array (always an array, even for one document). When false, a stream of several documents is a 422.',
        }),
        false,
      ),
      indent: withDefault(Type.Integer({ minimum: 1, maximum: 8, description: 'jsonToYaml: spaces per indentation level, 1 to 8.' }), 2),
      sortKeys: withDefault(Type.Boolean({ description: 'jsonToYaml: write the keys of every mapping in sorted (UTF-16 code unit) order.' }), false),
      lineWidth: withDefault(
        Type.Integer({ minimum: 0, maximum: 10_000, description: 'jsonToYaml: fold long strings at about this many characters per line; 0 never folds.' }),
        80,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({ description: 'yamlToJson: the JSON value (an array of documents with multiDocument). jsonToYaml: the YAML text.' }),
    action: Type.Enum(['yamlToJson', 'jsonToYaml'], { description: 'The action performed.' }),
    documents: Type.Optional(Type.Integer({ description: 'yamlToJson: how many documents the YAML stream holds.' })),
    warnings: Type.Optional(
      Type.Array(Type.String(), { description: 'yamlToJson: what was changed on the way: ignored tags, big integers and .inf/.nan turned into strings.' }),
    ),
  }),
  actions: {
    yamlToJson: { fields: ['input', 'multiDocument'] },
    jsonToYaml: { fields: ['input', 'indent', 'sortKeys', 'lineWidth'] },
  },
  examples: [
    {
      summary: 'YAML with an anchor and a merge key',
      input: { input: 'base: &base\n  retries: 3\nservice:\n  <<: *base\n  name: api\n  ports: [80, 443]\n' },
      output: {
        result: { base: { retries: 3 }, service: { retries: 3, name: 'api', ports: [80, 443] } },
        action: 'yamlToJson',
        documents: 1,
        warnings: [],
      },
    },
    {
      summary: 'Several documents',
      input: { input: '--- 1\n---\nbig: 12345678901234567890\n', multiDocument: true },
      output: {
        result: [1, { big: '12345678901234567890' }],
        action: 'yamlToJson',
        documents: 2,
        warnings: ['line 3: the integer 12345678901234567890 is beyond 2^53, where JSON numbers lose digits, so it is returned as a string'],
      },
    },
    {
      summary: 'JSON to YAML, with strings YAML 1.1 would misread quoted',
      input: { input: { country: 'no', version: '1.10', enabled: true, tags: ['on', 'y'] }, action: 'jsonToYaml' },
      output: { result: 'country: "no"\nversion: "1.10"\nenabled: true\ntags:\n  - "on"\n  - "y"\n', action: 'jsonToYaml' },
    },
  ],
  offload: ({ input }) => isLargerThan(input, YAML_OFFLOAD_THRESHOLD),
  run({ input, action, multiDocument, indent, sortKeys, lineWidth }) {
    if (action === 'yamlToJson') {
      if (typeof input !== 'string') throw validationError('input', 'must be YAML text (a string) for yamlToJson; JSON values are for jsonToYaml')
      return yamlToJson(input, multiDocument)
    }
    return jsonToYaml(input, { indent, sortKeys, lineWidth })
  },
})
