/**
 * A direct writer of JSON values as block YAML, laid out exactly as the `yaml` library lays them
 * out in jsonToYaml (same indentation, same quoting, same number forms), about three times faster.
 * How each string is quoted is still the library's decision: the writer asks it (through the
 * caller's `renderAlone`) how it writes the string alone on a line, and caches the answer. Where
 * the library's layout depends on more than that (a string it would fold over several lines or
 * write as a block scalar, an implicit key too long to be one, nesting too deep), the writer gives
 * up and answers undefined, and the caller lets the library write the whole value. A property
 * test checks the writer's output against the library's on generated values and options.
 */

export interface WriterOptions {
  indent: number
  sortKeys: boolean
  lineWidth: number
}

/** Where a string stands: a mapping's key, or a value (in a mapping or a sequence). */
export type Role = 'key' | 'value'
/** How the library writes one string in that role: `text` (plain), `"text"`, `'text'`, or over several lines. */
export type RenderAlone = (text: string, role: Role) => string

/** The library's minimum content width of a folded line, which it drops for line widths below it. */
const MIN_CONTENT_WIDTH = 20
/** YAML caps implicit keys at 1024 characters; longer ones the library writes as explicit `? ` keys. */
const MAX_KEY_LENGTH = 1000
const MAX_DEPTH = 100

/** Characters that need no escape in any quoting style, and never make a plain scalar's syntax ambiguous by themselves. */
const SIMPLE_CHARACTERS = /^[0-9A-Za-z ._/@+-]*$/
/**
 * Within SIMPLE_CHARACTERS, whether a string must be quoted depends on its letters and on which
 * class each digit falls in (binary 0-1, octal 0-7, sexagesimal 0-5, non-zero leading digit),
 * never on the digit itself: strings of one shape are quoted alike, so one answer serves them all.
 */
const ALL_DIGITS = /^[0-9]+$/
const LETTER_FIRST = /^[A-Za-z]/
/** The longest word the core schema or YAML 1.1 reads as other than a string: false, FALSE, False. */
const LONGEST_WORD = 5
const DIGIT_CLASS = '0122226688'
const shapeOf = (text: string) => text.replace(/[2-9]/g, (digit) => DIGIT_CLASS[digit.charCodeAt(0) - 0x30])

/** The library's answers, shared by every call in this thread; cleared when full. */
const CACHE_LIMIT = 50_000
const simpleQuoted = { key: new Map<string, boolean>(), value: new Map<string, boolean>() }
const rendered = { key: new Map<string, string>(), value: new Map<string, string>() }

class GiveUp {}
const GIVE_UP = new GiveUp()

/** Numbers as jsonToYaml writes them: see numberText in yaml-json.ts, which the library path uses. */
function numberText(value: number): string {
  const text = Number.isInteger(value) && !Number.isSafeInteger(value) ? value.toExponential() : JSON.stringify(value)
  return text.includes('e') && !text.includes('.') ? text.replace('e', '.0e') : text
}

class YamlWriter {
  private out = ''
  private readonly pads: string[] = []

  constructor(
    private readonly options: WriterOptions,
    private readonly renderAlone: RenderAlone,
  ) {}

  write(value: unknown): string {
    this.node(value, 0, 0)
    return `${this.out}\n`
  }

  private pad(column: number): string {
    let pad = this.pads[column]
    if (pad === undefined) {
      pad = ' '.repeat(column)
      this.pads[column] = pad
    }
    return pad
  }

  /** A string as the library writes it alone, when the library would write it the same way here. */
  private string(text: string, column: number, role: Role): string {
    // Like a document marker: the library quotes it at the start of a line only.
    if (text.startsWith('---') || text.startsWith('...')) throw GIVE_UP
    let result: string | undefined
    if (SIMPLE_CHARACTERS.test(text)) {
      result = this.simpleString(text, role)
    } else {
      const cache = rendered[role]
      result = cache.get(text)
      if (result === undefined) {
        if (cache.size >= CACHE_LIMIT) cache.clear()
        result = this.renderAlone(text, role)
        cache.set(text, result)
      }
      // A block scalar, or a string the library already folded: left to the library.
      if (result.includes('\n')) throw GIVE_UP
    }
    const { lineWidth } = this.options
    if (lineWidth > 0) {
      // The library folds no scalar shorter than the line width less its indentation (at most the
      // column of the line's node plus an indentation step and a sequence's "- "), or than its
      // minimum content width.
      const indentation = column + Math.max(this.options.indent, 2) + 2
      const minContentWidth = lineWidth < MIN_CONTENT_WIDTH ? 0 : MIN_CONTENT_WIDTH
      if (result.length > Math.max(1 + minContentWidth, 1 + lineWidth - indentation)) throw GIVE_UP
    }
    return result
  }

  /**
   * A string of SIMPLE_CHARACTERS, written plain or in double quotes. Two kinds are settled by the
   * core schema itself: digits alone read as an integer, so they are quoted; a string that starts
   * with a letter, is longer than the longest YAML 1.1 or 1.2 word (`false`) and ends with no
   * space reads as itself, so it stays plain. The library decides the rest, once per shape.
   */
  private simpleString(text: string, role: Role): string {
    if (ALL_DIGITS.test(text)) return `"${text}"`
    if (text.length > LONGEST_WORD && LETTER_FIRST.test(text) && text.charCodeAt(text.length - 1) !== 0x20) return text
    const shape = shapeOf(text)
    const cache = simpleQuoted[role]
    let quoted = cache.get(shape)
    if (quoted === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear()
      quoted = this.renderAlone(shape, role) !== shape
      cache.set(shape, quoted)
    }
    return quoted ? `"${text}"` : text
  }

  private scalar(value: unknown, column: number): string {
    if (typeof value === 'string') return this.string(value, column, 'value')
    if (typeof value === 'number') return numberText(value)
    if (value === null) return 'null'
    if (typeof value === 'boolean') return value ? 'true' : 'false'
    throw GIVE_UP
  }

  private isNonEmptyCollection(value: unknown): boolean {
    if (value === null || typeof value !== 'object') return false
    if (Array.isArray(value)) return value.length > 0
    for (const key in value) if (Object.hasOwn(value, key)) return true
    return false
  }

  /** A value whose first line starts where `out` ends; further lines of a collection start at `column`. */
  private node(value: unknown, column: number, depth: number): void {
    if (depth > MAX_DEPTH) throw GIVE_UP
    if (Array.isArray(value)) {
      if (value.length === 0) {
        this.out += '[]'
        return
      }
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.out += `\n${this.pad(column)}`
        this.out += '- '
        const item = value[i]
        if (this.isNonEmptyCollection(item)) this.node(item, column + 2, depth + 1)
        else this.out += this.emptyOrScalar(item, column)
      }
      return
    }
    // A scalar document: the library writes some (a leading "---", a block scalar) as it writes no value inside a collection.
    if (depth === 0 && typeof value === 'string') throw GIVE_UP
    if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value)
      if (keys.length === 0) {
        this.out += '{}'
        return
      }
      if (this.options.sortKeys) keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      const record = value as Record<string, unknown>
      const childColumn = column + this.options.indent
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) this.out += `\n${this.pad(column)}`
        const key = this.string(keys[i], column, 'key')
        if (key.length > MAX_KEY_LENGTH) throw GIVE_UP
        const child = record[keys[i]]
        if (this.isNonEmptyCollection(child)) {
          this.out += `${key}:\n${this.pad(childColumn)}`
          this.node(child, childColumn, depth + 1)
        } else {
          this.out += `${key}: ${this.emptyOrScalar(child, column)}`
        }
      }
      return
    }
    this.out += this.scalar(value, column)
  }

  private emptyOrScalar(value: unknown, column: number): string {
    if (Array.isArray(value)) return '[]'
    if (value !== null && typeof value === 'object') return '{}'
    return this.scalar(value, column)
  }
}

/** The YAML text of a JSON value as jsonToYaml's library path writes it, or undefined where only the library knows. */
export function writeYaml(value: unknown, options: WriterOptions, renderAlone: RenderAlone): string | undefined {
  try {
    return new YamlWriter(options, renderAlone).write(value)
  } catch (error) {
    if (error === GIVE_UP) return undefined
    throw error
  }
}
