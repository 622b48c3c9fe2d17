import { MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { setOwn } from '../json/value.ts'

/**
 * A single-pass reader for the common subset of YAML that most documents are written in: one
 * document of block mappings and sequences, one-line plain and quoted scalars, and one-line flow
 * collections. It never refuses a document: whatever it does not read with certainty (anchors,
 * aliases, tags, block scalars, multi-line scalars, directives, several documents, duplicate keys,
 * merge keys, tabs, numbers JSON cannot hold…) makes it answer NOT_IN_SUBSET, and the caller then
 * reads the document with the spec-complete `yaml` library. So every error, warning and limit
 * comes from one place, and this reader only has to agree with the library on what it accepts,
 * which the differential test (test/suites/yaml-differential.test.ts) checks.
 *
 * The library is slow for a reason that does not apply here: it builds a concrete syntax tree
 * and a document model first. This reader goes straight from characters to JSON values.
 */
export const NOT_IN_SUBSET: unique symbol = Symbol('not in the YAML subset')

/** Thrown inside the reader, caught at its entry: one exit for every "not with certainty". */
class OutsideSubset {}
const OUTSIDE = new OutsideSubset()

/** Bailing out of nesting this deep leaves a margin below the limit the library path enforces. */
const MAX_DEPTH = MAX_NESTING_DEPTH - 10
/**
 * JSON from this subset is at most about 5 bytes per input character (an empty value `a:` becomes
 * `"a":null,`), so inputs below this size cannot reach the output limit.
 */
const MAX_INPUT_LENGTH = OUTPUT_LIMIT_BYTES / 8
/** YAML caps implicit keys at 1024 characters. */
const MAX_KEY_LENGTH = 1024
/** Integers of up to 15 digits are exact in a double; longer ones go to the library, which warns past 2^53. */
const MAX_EXACT_DIGITS = 15

/**
 * Characters that send a document to the library: tabs and carriage returns (whose rules about
 * indentation and line breaks are subtle), controls and non-characters YAML forbids, the byte
 * order mark, NEL and the Unicode line and paragraph separators.
 */
const OUTSIDE_CHARACTERS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/

const SPACE = 0x20
const NEWLINE = 0x0a
const HASH = 0x23
const COLON = 0x3a
const DASH = 0x2d
const COMMA = 0x2c
const SINGLE_QUOTE = 0x27
const DOUBLE_QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

const isFlowIndicator = (code: number) => code === COMMA || code === OPEN_BRACKET || code === CLOSE_BRACKET || code === OPEN_BRACE || code === CLOSE_BRACE

/** Characters that cannot start a plain scalar here: YAML's indicators (`-` is handled apart). */
const isIndicator = (code: number) =>
  isFlowIndicator(code) ||
  code === HASH ||
  code === 0x26 /* & */ ||
  code === 0x2a /* * */ ||
  code === 0x21 /* ! */ ||
  code === 0x7c /* | */ ||
  code === 0x3e /* > */ ||
  code === SINGLE_QUOTE ||
  code === DOUBLE_QUOTE ||
  code === 0x25 /* % */ ||
  code === 0x40 /* @ */ ||
  code === 0x60 /* ` */ ||
  code === 0x3f /* ? */ ||
  code === COLON

const DECIMAL_INTEGER = /^[-+]?[0-9]+$/
const OCTAL_INTEGER = /^0o[0-7]{1,15}$/
const HEX_INTEGER = /^0x[0-9a-fA-F]{1,12}$/
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/

/**
 * A plain scalar's value under the YAML 1.2 core schema, or OUTSIDE for what JSON cannot hold
 * exactly (the library path turns those into strings with a warning).
 */
function resolvePlain(text: string): unknown {
  if (text.length === 0) return null
  const first = text.charCodeAt(0)
  if ((first >= 0x30 && first <= 0x39) || first === 0x2b || first === DASH || first === 0x2e) {
    if (DECIMAL_INTEGER.test(text)) {
      const digits = first === 0x2b || first === DASH ? text.length - 1 : text.length
      if (digits > MAX_EXACT_DIGITS) throw OUTSIDE
      return Number(text)
    }
    if (OCTAL_INTEGER.test(text)) return Number.parseInt(text.slice(2), 8)
    if (HEX_INTEGER.test(text)) return Number.parseInt(text.slice(2), 16)
    if (FLOAT.test(text)) {
      const value = Number(text)
      if (!Number.isFinite(value)) throw OUTSIDE
      return value
    }
    // .inf, .nan and their kin become strings with a warning on the library path.
    if (/^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/.test(text)) throw OUTSIDE
    return text
  }
  switch (text) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null
    case 'true':
    case 'True':
    case 'TRUE':
      return true
    case 'false':
    case 'False':
    case 'FALSE':
      return false
    default:
      return text
  }
}

/** A JSON object key from a scalar key, as the library path writes it: the text of its value. */
function keyOf(value: unknown): string {
  const key = typeof value === 'string' ? value : String(value)
  // Merge keys are the library path's to honour.
  if (key === '<<') throw OUTSIDE
  return key
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
}

class SubsetReader {
  private pos = 0
  /** The indentation of the line `pos` is on, once `pos` is at that line's first character of content; -1 at the end. */
  private indent = -1
  private depth = 0
  /** Where the last scalar read started: an implicit key may not be longer than MAX_KEY_LENGTH. */
  private scalarStart = 0

  constructor(private readonly text: string) {}

  read(): unknown {
    this.skipToContent(0)
    if (this.indent < 0) throw OUTSIDE
    const value = this.blockNode(-1)
    if (this.indent >= 0) throw OUTSIDE
    return value
  }

  /**
   * Moves to the first character of the next line holding content, from the start of a line,
   * passing blank lines and comment lines; sets `indent`.
   */
  private skipToContent(lineStart: number): void {
    const { text } = this
    let at = lineStart
    for (;;) {
      const start = at
      while (at < text.length && text.charCodeAt(at) === SPACE) at++
      if (at >= text.length) {
        this.reachEnd()
        return
      }
      const code = text.charCodeAt(at)
      if (code === NEWLINE) {
        at++
        continue
      }
      if (code === HASH) {
        const end = text.indexOf('\n', at)
        if (end < 0) {
          this.reachEnd()
          return
        }
        at = end + 1
        continue
      }
      if (at === start && (code === 0x25 /* % */ || this.startsMarker(at))) throw OUTSIDE
      this.pos = at
      this.indent = at - start
      return
    }
  }

  /** At the end of the text: no line with content is left. */
  private reachEnd(): void {
    this.pos = this.text.length
    this.indent = -1
  }

  /** `---` or `...` at the start of a line, followed by a space, a line break or the end. */
  private startsMarker(at: number): boolean {
    const { text } = this
    const code = text.charCodeAt(at)
    if ((code !== DASH && code !== 0x2e) || text.charCodeAt(at + 1) !== code || text.charCodeAt(at + 2) !== code) return false
    const after = text.charCodeAt(at + 3)
    return Number.isNaN(after) || after === SPACE || after === NEWLINE
  }

  /** After a value: spaces, perhaps a comment, then the end of the line; then the next line with content. */
  private endLine(): void {
    const { text } = this
    let at = this.pos
    while (at < text.length && text.charCodeAt(at) === SPACE) at++
    if (at >= text.length) {
      this.reachEnd()
      return
    }
    const code = text.charCodeAt(at)
    if (code === HASH) {
      if (text.charCodeAt(at - 1) !== SPACE) throw OUTSIDE
      const end = text.indexOf('\n', at)
      if (end < 0) {
        this.reachEnd()
        return
      }
      at = end
    } else if (code !== NEWLINE) throw OUTSIDE
    this.skipToContent(at + 1)
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw OUTSIDE
  }

  /** Is `pos` at a block sequence entry's `-`? */
  private atSequenceEntry(): boolean {
    const { text, pos } = this
    if (text.charCodeAt(pos) !== DASH) return false
    const after = text.charCodeAt(pos + 1)
    return Number.isNaN(after) || after === SPACE || after === NEWLINE
  }

  /**
   * The node that starts at `pos` (the first content of its line or after `- `), inside a
   * collection indented by `parentIndent`: a line more indented than that after a scalar would
   * continue it over several lines, which this reader leaves to the library.
   */
  private blockNode(parentIndent: number): unknown {
    const column = this.column()
    if (this.atSequenceEntry()) return this.blockSequence(column)
    const code = this.text.charCodeAt(this.pos)
    if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      const value = this.flowCollection()
      this.endLine()
      if (this.indent > parentIndent) throw OUTSIDE
      return value
    }
    const token = this.scalar(false)
    if (this.isKeyIndicator()) return this.blockMapping(column, token)
    this.endLine()
    if (this.indent > parentIndent) throw OUTSIDE
    return token
  }

  /** The column of `pos` on its line. */
  private column(): number {
    const lineStart = this.text.lastIndexOf('\n', this.pos - 1) + 1
    return this.pos - lineStart
  }

  /** After a scalar: `:` then a space, the end of the line or of the text. */
  private isKeyIndicator(): boolean {
    const { text } = this
    let at = this.pos
    while (text.charCodeAt(at) === SPACE) at++
    if (text.charCodeAt(at) !== COLON) return false
    const after = text.charCodeAt(at + 1)
    if (!(Number.isNaN(after) || after === SPACE || after === NEWLINE)) throw OUTSIDE
    this.assertKeyLength()
    this.pos = at + 1
    return true
  }

  private assertKeyLength(): void {
    if (this.pos - this.scalarStart > MAX_KEY_LENGTH) throw OUTSIDE
  }

  private blockSequence(indent: number): unknown[] {
    this.enter()
    const items: unknown[] = []
    const { text } = this
    for (;;) {
      // At the entry's `-`.
      this.pos++
      while (text.charCodeAt(this.pos) === SPACE) this.pos++
      const code = text.charCodeAt(this.pos)
      if (Number.isNaN(code) || code === NEWLINE || code === HASH) {
        this.endLine()
        items.push(this.indent > indent ? this.blockNode(indent) : null)
      } else {
        items.push(this.blockNode(indent))
      }
      if (this.indent < indent) break
      if (this.indent > indent || !this.atSequenceEntry()) {
        // A line at this indentation that is no entry ends the sequence only where a mapping
        // holds it at the mapping's own indentation; the caller checks.
        if (this.indent === indent) break
        throw OUTSIDE
      }
    }
    this.depth--
    return items
  }

  /** A block mapping at `indent` whose first key has been read, with `pos` just after its `:`. */
  private blockMapping(indent: number, firstKey: unknown): Record<string, unknown> {
    this.enter()
    const mapping: Record<string, unknown> = {}
    const { text } = this
    let key = firstKey
    for (;;) {
      const name = keyOf(key)
      if (Object.hasOwn(mapping, name)) throw OUTSIDE
      while (text.charCodeAt(this.pos) === SPACE) this.pos++
      const code = text.charCodeAt(this.pos)
      let value: unknown
      if (Number.isNaN(code) || code === NEWLINE || code === HASH) {
        this.endLine()
        if (this.indent > indent) value = this.blockNode(indent)
        else if (this.indent === indent && this.atSequenceEntry()) value = this.blockSequence(indent)
        else value = null
      } else {
        value = this.inlineValue(indent)
      }
      setOwn(mapping, name, value)
      if (this.indent < indent) break
      if (this.indent > indent) throw OUTSIDE
      key = this.scalar(false)
      if (!this.isKeyIndicator()) throw OUTSIDE
    }
    this.depth--
    return mapping
  }

  /** A value on its key's line: a flow collection or a scalar, then the end of the line. */
  private inlineValue(indent: number): unknown {
    const code = this.text.charCodeAt(this.pos)
    let value: unknown
    if (code === OPEN_BRACKET || code === OPEN_BRACE) value = this.flowCollection()
    else {
      if (code === DASH && this.atSequenceEntry()) throw OUTSIDE
      value = this.scalar(false)
    }
    this.endLine()
    if (this.indent > indent) throw OUTSIDE
    return value
  }

  /** A plain or quoted scalar on one line, at `pos`. */
  private scalar(inFlow: boolean): unknown {
    this.scalarStart = this.pos
    const code = this.text.charCodeAt(this.pos)
    if (code === DOUBLE_QUOTE) return this.doubleQuoted()
    if (code === SINGLE_QUOTE) return this.singleQuoted()
    return resolvePlain(this.plain(inFlow))
  }

  private plain(inFlow: boolean): string {
    const { text } = this
    const start = this.pos
    const first = text.charCodeAt(start)
    if (Number.isNaN(first) || first === NEWLINE || first === SPACE) throw OUTSIDE
    if (first === DASH) {
      const after = text.charCodeAt(start + 1)
      if (Number.isNaN(after) || after === SPACE || after === NEWLINE || (inFlow && isFlowIndicator(after))) throw OUTSIDE
    } else if (isIndicator(first)) throw OUTSIDE
    let at = start + 1
    let end = at
    for (; at < text.length; at++) {
      const code = text.charCodeAt(at)
      if (code === SPACE) continue
      if (code === NEWLINE) break
      if (code === COLON) {
        const after = text.charCodeAt(at + 1)
        if (Number.isNaN(after) || after === SPACE || after === NEWLINE) break
        if (inFlow) throw OUTSIDE
      } else if (code === HASH) {
        if (text.charCodeAt(at - 1) === SPACE) break
      } else if (inFlow && isFlowIndicator(code)) {
        if (code === OPEN_BRACKET || code === OPEN_BRACE) throw OUTSIDE
        break
      }
      end = at + 1
    }
    this.pos = end
    return text.slice(start, end)
  }

  private singleQuoted(): string {
    const { text } = this
    let at = this.pos + 1
    let value = ''
    for (;;) {
      const close = text.indexOf("'", at)
      if (close < 0) throw OUTSIDE
      const line = text.indexOf('\n', at)
      if (line >= 0 && line < close) throw OUTSIDE
      value += text.slice(at, close)
      if (text.charCodeAt(close + 1) === SINGLE_QUOTE) {
        value += "'"
        at = close + 2
        continue
      }
      this.pos = close + 1
      this.afterQuoted()
      return value
    }
  }

  private doubleQuoted(): string {
    const { text } = this
    const start = this.pos
    let at = start + 1
    let value = ''
    let from = at
    for (; at < text.length; at++) {
      const code = text.charCodeAt(at)
      if (code === DOUBLE_QUOTE) break
      if (code === NEWLINE) throw OUTSIDE
      if (code !== BACKSLASH) continue
      value += text.slice(from, at)
      const letter = text[at + 1]
      const simple = SIMPLE_ESCAPES[letter]
      if (simple !== undefined && Object.hasOwn(SIMPLE_ESCAPES, letter)) {
        value += simple
        at++
      } else {
        const digits = letter === 'x' ? 2 : letter === 'u' ? 4 : letter === 'U' ? 8 : 0
        const hex = digits > 0 ? text.slice(at + 2, at + 2 + digits) : ''
        if (digits === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) throw OUTSIDE
        const codePoint = Number.parseInt(hex, 16)
        // Lone surrogates are refused by the library path; code points past Unicode too.
        if ((codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) throw OUTSIDE
        value += String.fromCodePoint(codePoint)
        at += 1 + digits
      }
      from = at + 1
    }
    if (at >= text.length) throw OUTSIDE
    value += text.slice(from, at)
    this.pos = at + 1
    this.afterQuoted()
    return value
  }

  /** A quoted scalar is followed by a space, `:`, a flow indicator or the end of its line, never by more text. */
  private afterQuoted(): void {
    const code = this.text.charCodeAt(this.pos)
    if (Number.isNaN(code) || code === SPACE || code === NEWLINE || code === COLON || code === COMMA || code === CLOSE_BRACKET || code === CLOSE_BRACE) return
    throw OUTSIDE
  }

  /** `[…]` or `{…}` closed on the same line, at `pos`. */
  private flowCollection(): unknown {
    this.enter()
    const { text } = this
    const isSequence = text.charCodeAt(this.pos) === OPEN_BRACKET
    const close = isSequence ? CLOSE_BRACKET : CLOSE_BRACE
    this.pos++
    this.skipSpaces()
    const sequence: unknown[] = []
    const mapping: Record<string, unknown> = {}
    if (text.charCodeAt(this.pos) === close) {
      this.pos++
      this.depth--
      return isSequence ? sequence : mapping
    }
    for (;;) {
      if (isSequence) {
        const value = this.flowNode()
        if (this.flowKeyFollows()) throw OUTSIDE
        sequence.push(value)
      } else {
        const code = text.charCodeAt(this.pos)
        if (code === OPEN_BRACKET || code === OPEN_BRACE) throw OUTSIDE
        const key = this.scalar(true)
        this.assertKeyLength()
        this.skipSpaces()
        if (text.charCodeAt(this.pos) !== COLON) throw OUTSIDE
        this.pos++
        if (text.charCodeAt(this.pos) !== SPACE) throw OUTSIDE
        this.skipSpaces()
        const after = text.charCodeAt(this.pos)
        if (after === COMMA || after === close || after === CLOSE_BRACKET || after === CLOSE_BRACE) throw OUTSIDE
        const name = keyOf(key)
        if (Object.hasOwn(mapping, name)) throw OUTSIDE
        setOwn(mapping, name, this.flowNode())
      }
      this.skipSpaces()
      const code = text.charCodeAt(this.pos)
      if (code === close) {
        this.pos++
        break
      }
      if (code !== COMMA) throw OUTSIDE
      this.pos++
      this.skipSpaces()
      // A trailing comma, an empty entry: left to the library.
      const next = text.charCodeAt(this.pos)
      if (next === COMMA || next === close) throw OUTSIDE
    }
    this.depth--
    return isSequence ? sequence : mapping
  }

  /** A node inside a flow collection: a nested one-line collection or a scalar. */
  private flowNode(): unknown {
    const code = this.text.charCodeAt(this.pos)
    if (code === OPEN_BRACKET || code === OPEN_BRACE) return this.flowCollection()
    if (Number.isNaN(code) || code === NEWLINE || code === HASH) throw OUTSIDE
    return this.scalar(true)
  }

  /** A `:` after an entry of a flow sequence makes it a one-pair mapping: left to the library. */
  private flowKeyFollows(): boolean {
    let at = this.pos
    while (this.text.charCodeAt(at) === SPACE) at++
    return this.text.charCodeAt(at) === COLON
  }

  private skipSpaces(): void {
    const { text } = this
    while (text.charCodeAt(this.pos) === SPACE) this.pos++
    if (text.charCodeAt(this.pos) === NEWLINE || this.pos >= text.length) throw OUTSIDE
    if (text.charCodeAt(this.pos) === HASH) throw OUTSIDE
  }
}

/**
 * The JSON value of a one-document YAML text in the common subset, or NOT_IN_SUBSET for any other
 * text, valid or not, which the caller then reads with the spec-complete path.
 */
export function readYamlSubset(text: string): unknown {
  if (text.length > MAX_INPUT_LENGTH || OUTSIDE_CHARACTERS.test(text) || !text.isWellFormed()) return NOT_IN_SUBSET
  try {
    return new SubsetReader(text).read()
  } catch (error) {
    if (error === OUTSIDE) return NOT_IN_SUBSET
    throw error
  }
}
