import { invalidInput, validationError } from '../../core/errors.ts'

/** The User-Agent Client Hints request headers read, in lower case, each with the structured-field type it holds. */
export const CLIENT_HINT_HEADERS = {
  'sec-ch-ua': 'list',
  'sec-ch-ua-full-version-list': 'list',
  'sec-ch-ua-mobile': 'boolean',
  'sec-ch-ua-platform': 'string',
  'sec-ch-ua-platform-version': 'string',
  'sec-ch-ua-model': 'string',
  'sec-ch-ua-arch': 'string',
  'sec-ch-ua-bitness': 'string',
  'sec-ch-ua-wow64': 'boolean',
  'sec-ch-ua-form-factors': 'list',
} as const

export type ClientHintHeader = keyof typeof CLIENT_HINT_HEADERS

export interface Brand {
  brand: string
  version: string
}

/** What the Client Hints headers say, each null when its header was not sent. */
export interface ClientHints {
  brands: Brand[] | null
  fullVersionList: Brand[] | null
  mobile: boolean | null
  platform: string | null
  platformVersion: string | null
  model: string | null
  architecture: string | null
  bitness: string | null
  wow64: boolean | null
  formFactors: string[] | null
}

/** A structured-field bare item (RFC 8941 §3.3); a byte sequence is kept as its base64 text. */
type BareItem = { type: 'string' | 'token' | 'bytes'; value: string } | { type: 'integer' | 'decimal'; value: number } | { type: 'boolean'; value: boolean }

interface Item {
  bare: BareItem
  parameters: Map<string, BareItem>
  /** Where the item starts in the field value. */
  position: number
}

/** A list member: an item, or an inner list of items. */
type Member = Item | { inner: Item[]; parameters: Map<string, BareItem>; position: number }

class SyntaxFault extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message)
  }
}

const isDigit = (character: string | undefined) => character !== undefined && character >= '0' && character <= '9'
const isAlpha = (character: string | undefined) => character !== undefined && /^[A-Za-z]$/.test(character)
const isLcAlpha = (character: string | undefined) => character !== undefined && character >= 'a' && character <= 'z'
/** tchar of RFC 9110, and ':' and '/' which an sf-token also allows. */
const isTokenCharacter = (character: string | undefined) => character !== undefined && /^[!#$%&'*+\-.^_`|~0-9A-Za-z:/]$/.test(character)
const isKeyCharacter = (character: string | undefined) => character !== undefined && /^[a-z0-9_\-.*]$/.test(character)
const BASE64 = /^[A-Za-z0-9+/=]$/

/** A character for a message: printable ASCII quoted, anything else as its code point. */
function shown(character: string | undefined): string {
  if (character === undefined) return 'the end'
  const code = character.codePointAt(0)!
  return code >= 0x21 && code <= 0x7e ? `'${character}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
}

/** The parsing algorithms of RFC 8941 §4.2, for lists and items; dictionaries are not needed here. */
class FieldParser {
  position = 0
  constructor(readonly text: string) {}

  /** The character at the current position; a method, so that TypeScript does not keep a comparison's narrowing past a move. */
  private peek(): string | undefined {
    return this.text[this.position]
  }

  private fail(what: string): never {
    throw new SyntaxFault(`${what}, found ${shown(this.peek())}`, this.position)
  }

  private skipSpaces() {
    while (this.peek() === ' ') this.position++
  }

  private skipWhitespace() {
    while (this.peek() === ' ' || this.peek() === '\t') this.position++
  }

  parseList(): Member[] {
    const members: Member[] = []
    this.skipSpaces()
    while (this.position < this.text.length) {
      members.push(this.peek() === '(' ? this.parseInnerList() : this.parseItem())
      this.skipWhitespace()
      if (this.position === this.text.length) return members
      if (this.peek() !== ',') this.fail('expected a comma between list members')
      this.position++
      this.skipWhitespace()
      if (this.position === this.text.length) this.fail('expected a list member after the comma')
    }
    return members
  }

  parseSingleItem(): Item {
    this.skipSpaces()
    const item = this.parseItem()
    this.skipSpaces()
    if (this.position < this.text.length) this.fail('expected the end of the value after one item')
    return item
  }

  private parseInnerList(): Member {
    const position = this.position++
    const inner: Item[] = []
    for (;;) {
      this.skipSpaces()
      if (this.peek() === ')') {
        this.position++
        return { inner, parameters: this.parseParameters(), position }
      }
      inner.push(this.parseItem())
      if (this.peek() !== ' ' && this.peek() !== ')') this.fail("expected a space or ')' in an inner list")
    }
  }

  private parseItem(): Item {
    const position = this.position
    const bare = this.parseBareItem()
    return { bare, parameters: this.parseParameters(), position }
  }

  private parseParameters(): Map<string, BareItem> {
    const parameters = new Map<string, BareItem>()
    while (this.peek() === ';') {
      this.position++
      this.skipSpaces()
      const key = this.parseKey()
      let value: BareItem = { type: 'boolean', value: true }
      if (this.peek() === '=') {
        this.position++
        value = this.parseBareItem()
      }
      parameters.set(key, value)
    }
    return parameters
  }

  private parseKey(): string {
    if (!isLcAlpha(this.peek()) && this.peek() !== '*') this.fail("expected a parameter name (a lower-case letter or '*' first)")
    const start = this.position
    while (isKeyCharacter(this.peek())) this.position++
    return this.text.slice(start, this.position)
  }

  private parseBareItem(): BareItem {
    const character = this.peek()
    if (character === '-' || isDigit(character)) return this.parseNumber()
    if (character === '"') return this.parseString()
    if (character === '*' || isAlpha(character)) return this.parseToken()
    if (character === ':') return this.parseBytes()
    if (character === '?') return this.parseBoolean()
    this.fail('expected a string, a token, a number, a boolean or a byte sequence')
  }

  private parseNumber(): BareItem {
    const start = this.position
    if (this.peek() === '-') this.position++
    if (!isDigit(this.peek())) this.fail("expected a digit after '-'")
    let digits = 0
    while (isDigit(this.peek())) {
      if (digits === 15) this.fail('an integer has at most 15 digits')
      digits++
      this.position++
    }
    if (this.peek() !== '.') return { type: 'integer', value: Number(this.text.slice(start, this.position)) }
    if (digits > 12) this.fail('a decimal has at most 12 digits before its point')
    this.position++
    let fraction = 0
    while (isDigit(this.peek())) {
      if (fraction === 3) this.fail('a decimal has 1 to 3 digits after its point')
      fraction++
      this.position++
    }
    if (fraction === 0) this.fail('a decimal has 1 to 3 digits after its point')
    return { type: 'decimal', value: Number(this.text.slice(start, this.position)) }
  }

  private parseString(): BareItem {
    this.position++
    let value = ''
    for (;;) {
      const character = this.peek()
      if (character === undefined) this.fail('expected the closing quote of the string')
      if (character === '"') {
        this.position++
        return { type: 'string', value }
      }
      if (character === '\\') {
        this.position++
        if (this.peek() !== '"' && this.peek() !== '\\') this.fail('expected \\" or \\\\ in a string (the only escapes allowed)')
        value += this.peek()
      } else {
        const code = character.charCodeAt(0)
        if (code < 0x20 || code > 0x7e) this.fail('expected printable ASCII in a string')
        value += character
      }
      this.position++
    }
  }

  private parseToken(): BareItem {
    const start = this.position
    while (isTokenCharacter(this.peek())) this.position++
    return { type: 'token', value: this.text.slice(start, this.position) }
  }

  private parseBytes(): BareItem {
    const start = ++this.position
    for (let character = this.peek(); character !== undefined && character !== ':'; character = this.peek()) {
      if (!BASE64.test(character)) this.fail('expected base64 in a byte sequence')
      this.position++
    }
    if (this.peek() !== ':') this.fail("expected the closing ':' of the byte sequence")
    this.position++
    return { type: 'bytes', value: this.text.slice(start, this.position - 1) }
  }

  private parseBoolean(): BareItem {
    this.position++
    if (this.peek() !== '0' && this.peek() !== '1') this.fail('expected ?0 or ?1 for a boolean')
    return { type: 'boolean', value: this.text[this.position++] === '1' }
  }
}

const article = (type: BareItem['type']) =>
  ({ string: 'a string', token: 'a token', bytes: 'a byte sequence', integer: 'an integer', decimal: 'a decimal', boolean: 'a boolean' })[type]

/** A header's value that does not hold what its header must: 422 naming the header and where. */
function malformed(header: string, message: string, position: number) {
  return invalidInput(`${header} is not a valid structured header at position ${position}: ${message}`, {
    field: `headers.${header}`,
    header,
    position,
  })
}

function parse<T>(header: string, value: string, read: (parser: FieldParser) => T): T {
  const parser = new FieldParser(value)
  try {
    return read(parser)
  } catch (error) {
    if (error instanceof SyntaxFault) throw malformed(header, error.message, error.position)
    throw error
  }
}

function stringItem(header: string, value: string): string {
  const item = parse(header, value, (parser) => parser.parseSingleItem())
  if (item.bare.type !== 'string') throw malformed(header, `expected a quoted string, as in "Windows", found ${article(item.bare.type)}`, item.position)
  return item.bare.value
}

function booleanItem(header: string, value: string): boolean {
  const item = parse(header, value, (parser) => parser.parseSingleItem())
  if (item.bare.type !== 'boolean') throw malformed(header, `expected ?1 or ?0, found ${article(item.bare.type)}`, item.position)
  return item.bare.value
}

function stringList(header: string, value: string): Item[] {
  const members = parse(header, value, (parser) => parser.parseList())
  return members.map((member) => {
    if ('inner' in member) throw malformed(header, 'expected a string, found an inner list', member.position)
    if (member.bare.type !== 'string') throw malformed(header, `expected a quoted string, found ${article(member.bare.type)}`, member.position)
    return member
  })
}

function brandList(header: string, value: string): Brand[] {
  return stringList(header, value).map((item) => {
    const version = item.parameters.get('v')
    if (version?.type !== 'string') {
      throw malformed(header, `expected each brand with a version parameter, as in "Chromium";v="124"`, item.position)
    }
    return { brand: item.bare.value as string, version: version.value }
  })
}

/**
 * Reads the Client Hints headers given: names in any case, each at most once. An unknown or repeated
 * name is a 400, as a schema error would be; a value that is not the structured field its header
 * holds is a 422 naming the header and the position.
 */
export function readClientHints(headers: Record<string, string>): ClientHints {
  const values = new Map<ClientHintHeader, string>()
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (!Object.hasOwn(CLIENT_HINT_HEADERS, lower)) {
      throw validationError(
        `headers.${name}`,
        `is not a User-Agent Client Hints header read here; the names are ${Object.keys(CLIENT_HINT_HEADERS).join(', ')} (in any case)`,
      )
    }
    if (values.has(lower as ClientHintHeader)) throw validationError(`headers.${name}`, `repeats ${lower}, given once already in another case`)
    values.set(lower as ClientHintHeader, value)
  }
  const read = <T>(header: ClientHintHeader, reader: (header: string, value: string) => T): T | null => {
    const value = values.get(header)
    return value === undefined ? null : reader(header, value)
  }
  return {
    brands: read('sec-ch-ua', brandList),
    fullVersionList: read('sec-ch-ua-full-version-list', brandList),
    mobile: read('sec-ch-ua-mobile', booleanItem),
    platform: read('sec-ch-ua-platform', stringItem),
    platformVersion: read('sec-ch-ua-platform-version', stringItem),
    model: read('sec-ch-ua-model', stringItem),
    architecture: read('sec-ch-ua-arch', stringItem),
    bitness: read('sec-ch-ua-bitness', stringItem),
    wow64: read('sec-ch-ua-wow64', booleanItem),
    formFactors: read('sec-ch-ua-form-factors', (header, value) => stringList(header, value).map((item) => item.bare.value as string)),
  }
}
