import { Type } from 'typebox'
import { invalidInput, isDevutilsError, limitExceeded, validationError } from '../../core/errors.ts'
import { assertSafeValue } from '../../core/inspect.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { isLargerThan, lineAndColumn, parseJsonText } from '../../lib/json/value.ts'

type FastXmlParser = typeof import('fast-xml-parser')
/** fast-xml-parser, loaded with the first conversion (see lazily). */
export const fastXmlParser = lazily(() => import('fast-xml-parser'))

/**
 * Inputs above this many characters (JSON values: string lengths plus a few per node) run on a
 * worker thread (the document is validated, then parsed): where the work costs more than a thread
 * hop, as for csv-json and yaml-json (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const XML_OFFLOAD_THRESHOLD = 4 * 1024

const ACTIONS = ['xmlToJson', 'jsonToXml'] as const

/** Where, in the service's terms, from a 1-based line and column. */
function placeAt(text: string, line: number, column: number) {
  let position = 0
  for (let at = 1; at < line && position >= 0; at++) position = text.indexOf('\n', position) + 1
  return { line, column, position: position + column - 1 }
}

/** The position of a DOCTYPE declaration outside comments and CDATA sections, or -1. */
function doctypePosition(text: string): number {
  for (const match of text.matchAll(/<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<!DOCTYPE/gi)) {
    if (match[0].length === 9) return match.index
  }
  return -1
}

const BARE_AMPERSAND = /&(?!(?:#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_:][\w.:-]*);)/
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' }

/** XML 1.0's Char production: what a character reference may name. */
const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff)

/**
 * Decodes the references of text and attribute values: the five predefined entities and character
 * references. There is no DTD, so any other entity is undefined and refused, as is a reference to a
 * character XML does not allow or a bare &. (fast-xml-parser's own decoder leaves `&#65;` as it is
 * and drops `&#0;`.)
 */
function decodeReferences(source: string) {
  return (text: string): string =>
    text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_:][\w.:-]*)?(;?)/g, (reference, body: string | undefined, semicolon: string) => {
      const where = (position: number): { line?: number; column?: number; position?: number } =>
        position < 0 ? {} : { ...lineAndColumn(source, position), position }
      if (!body || !semicolon) {
        const place = where(source.search(BARE_AMPERSAND))
        throw invalidInput(`The XML has a bare &${place.line ? ` at line ${place.line}, column ${place.column}` : ''}; write &amp; for a literal &`, place)
      }
      if (body.startsWith('#')) {
        const code = body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1))
        if (!isXmlChar(code)) throw invalidInput(`The character reference ${reference} names a character XML does not allow`, where(source.indexOf(reference)))
        return String.fromCodePoint(code)
      }
      const value = PREDEFINED[body]
      if (value === undefined) {
        throw invalidInput(
          `The entity ${reference} is not defined: without a DTD (which is never read) only &lt; &gt; &amp; &apos; &quot; and character references exist`,
          where(source.indexOf(reference)),
        )
      }
      return value
    })
}

interface NamingOptions {
  attributePrefix: string
  textKey: string
}

export function xmlToJson({ XMLValidator, XMLParser }: FastXmlParser, text: string, { attributePrefix, textKey }: NamingOptions, parseValues: boolean) {
  const doctype = doctypePosition(text)
  if (doctype >= 0) {
    const place = { ...lineAndColumn(text, doctype), position: doctype }
    throw invalidInput(
      `The XML has a DOCTYPE at line ${place.line}, column ${place.column}; documents with a DTD are refused, so that no external entity is fetched and no entity is expanded`,
      place,
    )
  }
  const verdict = XMLValidator.validate(text)
  if (verdict !== true) {
    const { line, col, msg } = verdict.err
    // One of the validator's messages lists every tag left open, however many.
    const reason = /^Invalid '\[/.test(msg) ? 'some elements are never closed' : msg.length > 200 ? `${msg.slice(0, 200)}…` : msg
    if (line !== undefined && col !== undefined) {
      throw invalidInput(`The XML is not well-formed at line ${line}, column ${col}: ${reason}`, placeAt(text, line, col))
    }
    throw invalidInput(`The XML is not well-formed: ${reason}`, {})
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: attributePrefix,
    textNodeName: textKey,
    parseTagValue: parseValues,
    parseAttributeValue: parseValues,
    numberParseOptions: { hex: false, leadingZeros: false, eNotation: true },
    ignoreDeclaration: true,
    ignorePiTags: true,
    maxNestedTags: MAX_NESTING_DEPTH,
    entityDecoder: {
      decode: decodeReferences(text),
      setExternalEntities: () => {},
      addInputEntities: () => {},
      reset: () => {},
      setXmlVersion: () => {},
    },
    onDangerousProperty: (name) => {
      throw invalidInput(
        `The XML uses the name '${name}', which is reserved in JavaScript objects, as an element or attribute; it cannot be converted safely`,
        { name },
      )
    },
  })
  let result: unknown
  try {
    result = parser.parse(text)
  } catch (error) {
    if (isDevutilsError(error)) throw error
    const message = error instanceof Error ? error.message : String(error)
    if (/nested tags/i.test(message)) throw limitExceeded(`The XML nests elements deeper than ${MAX_NESTING_DEPTH} levels`, { limit: MAX_NESTING_DEPTH })
    if (error instanceof RangeError) throw limitExceeded('The XML is too complex to convert', {})
    throw invalidInput(`The XML cannot be converted: ${message.replace(/^\[SECURITY\] /, '')}`, {})
  }
  assertSafeValue(result, 'result')
  return { result, action: 'xmlToJson' as const }
}

const XML_NAME = /^[A-Za-z_:\u00c0-\ud7ff\ue000-\ufffd][\w.:\-\u00b7\u00c0-\ud7ff\ue000-\ufffd]*$/
/** Characters XML 1.0 cannot carry at all, not even as a reference. */
const NOT_XML_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/

/**
 * Checks that a JSON value has an XML form under these names, before anything is written:
 * fast-xml-parser's builder writes `<0>`, `<bad name>` or an object attribute as an element, which
 * is not XML. Returns an upper bound of the XML text's size. The path of the value being checked is
 * kept as a stack of keys and indexes, and written out only for an error.
 */
function checkWritable(root: Record<string, unknown>, { attributePrefix, textKey }: NamingOptions, indent: number): number {
  let size = 0
  const steps: Array<string | number> = []
  const path = () => `$${steps.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('')}`
  const refuse = (message: string) => {
    const at = path()
    return invalidInput(`${at}${message}`, { path: at })
  }
  const text = (value: unknown) => {
    if (typeof value === 'string' && NOT_XML_TEXT.test(value)) throw refuse(' holds a control character that XML 1.0 cannot carry, even escaped')
    size += typeof value === 'string' ? 6 * value.length : 24
  }
  const member = (key: string, child: unknown, depth: number) => {
    if (key === textKey) {
      if (child !== null && typeof child === 'object') throw refuse(' is text, so it must be a string, number or boolean')
      text(child)
    } else if (key.startsWith(attributePrefix)) {
      const name = key.slice(attributePrefix.length)
      if (!XML_NAME.test(name)) throw refuse(`: '${name}' is not an XML attribute name`)
      if (child === null || typeof child === 'object') throw refuse(' is an attribute, so it must be a string, number or boolean')
      size += 3 * name.length + 4
      text(child)
    } else {
      if (!XML_NAME.test(key)) throw refuse(`: '${key}' is not an XML element name`)
      if (!Array.isArray(child)) {
        size += 6 * key.length + 5
        element(child, depth + 1)
        return
      }
      for (let index = 0; index < child.length; index++) {
        size += 6 * key.length + 5
        steps.push(index)
        element(child[index], depth + 1)
        steps.pop()
      }
    }
  }
  const element = (value: unknown, depth: number): void => {
    size += depth * indent + 4
    if (Array.isArray(value)) throw refuse(' is an array inside an array, which has no XML form; repeat the element instead')
    if (value === null || typeof value !== 'object') {
      text(value)
      return
    }
    for (const key of Object.keys(value)) {
      steps.push(key)
      member(key, (value as Record<string, unknown>)[key], depth)
      steps.pop()
    }
  }
  const roots = Object.keys(root).filter((key) => key !== textKey && !key.startsWith(attributePrefix))
  const single = roots.length === 1 && Object.keys(root).length === 1 && !Array.isArray(root[roots[0]])
  if (!single) throw invalidInput('input must have exactly one key, the root element (an XML document has one root), holding one element', { path: '$' })
  element(root, -1)
  return size
}

/**
 * null as the empty string, which the builder writes as an empty element in its place (it moves
 * nulls to the front of an array). Only what holds a null is copied: the caller's value is left as
 * it is, and a document without nulls is not built twice.
 */
function nullsAsEmpty(value: unknown): unknown {
  if (value === null) return ''
  if (typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let index = 0; index < value.length; index++) {
      const item = nullsAsEmpty(value[index])
      if (item === value[index]) continue
      copy ??= value.slice()
      copy[index] = item
    }
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  for (const key of Object.keys(value)) {
    const item = nullsAsEmpty((value as Record<string, unknown>)[key])
    if (item === (value as Record<string, unknown>)[key]) continue
    copy ??= { ...value }
    copy[key] = item
  }
  return copy ?? value
}

function jsonToXml({ XMLBuilder }: FastXmlParser, input: unknown, naming: NamingOptions, indent: number) {
  const value = typeof input === 'string' ? parseJsonText(input) : input
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('input must be a JSON object for jsonToXml, with one key: the root element', { field: 'input' })
  }
  assertOutputWithinLimit(checkWritable(value as Record<string, unknown>, naming, indent))
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: naming.attributePrefix,
    textNodeName: naming.textKey,
    format: indent > 0,
    indentBy: ' '.repeat(indent),
    suppressEmptyNode: true,
  })
  return { result: (builder.build(nullsAsEmpty(value)) as string).replace(/\n$/, ''), action: 'jsonToXml' as const }
}

/** Prefixes that cannot begin an XML name, so an attribute key or the text key never collides with an element's name. */
const NAMING_PATTERN = '^[@#$%&*+=~!^.-]'

export const xmlJson = defineOperation({
  name: 'xml-json',
  category: 'converters',
  summary: 'Convert XML to JSON and JSON to XML',
  title: 'XML and JSON',
  aliases: ['xml to json', 'json to xml', 'soap', 'rss'],
  description:
    'xmlToJson reads an XML document into JSON: each element becomes a key (repeated elements an array), attributes keys prefixed `@` and text the key `#text` (`attributePrefix` and `textKey` change them); ' +
    'an element with only text becomes that string. CDATA is read as text, namespace prefixes stay in names (`ns:item`, `@xmlns:ns`), the five predefined entities and character references are decoded. ' +
    'Values stay strings (`"12.50"` is not 12.5) unless `parseValues` is true. Text is trimmed; comments, processing instructions and the XML declaration are dropped; mixed content loses the order of its text and elements. ' +
    'Safe by construction: a document with a DOCTYPE is a 422, since no DTD is ever read, so no external entity (XXE) and no entity expansion ("billion laughs") can happen; other entities are undefined (422). ' +
    'Malformed XML is a 422 with its line and column; nesting deeper than 100 levels is a 422 LIMIT_EXCEEDED. ' +
    'jsonToXml writes a JSON object with one key, the root element, under the same naming; null becomes an empty element; a name that is not an XML name, a nested array or a control character XML cannot carry is a 422 naming its path. ' +
    `Inputs over ${XML_OFFLOAD_THRESHOLD / 1024} KiB run on a worker thread, within the time budget.`,
  input: Type.Object(
    {
      input: Type.Unknown({
        description: 'xmlToJson: the XML text (a string). jsonToXml: the JSON object to write, with one key (the root element); a string is read as JSON text.',
        examples: ['<order id="7"><item sku="A1">12.50</item></order>'],
      }),
      action: withDefault(Type.Enum(ACTIONS, { description: 'Read XML into JSON (`xmlToJson`), or write a JSON object as XML (`jsonToXml`).' }), 'xmlToJson'),
      attributePrefix: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 16,
          pattern: NAMING_PATTERN,
          description:
            'What marks an attribute key: 1 to 16 characters starting with one of @ # $ % & * + = ~ ! ^ . - (which cannot begin an XML name, so no element collides).',
        }),
        '@',
      ),
      textKey: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 16,
          pattern: NAMING_PATTERN,
          description:
            'The key of an element’s text when it also has attributes or children: 1 to 16 characters starting with one of @ # $ % & * + = ~ ! ^ . -',
        }),
        '#text',
      ),
      parseValues: withDefault(
        Type.Boolean({
          description:
            'xmlToJson: read text and attribute values that look like numbers or booleans as such (`"12.50"` → 12.5, `"007"` stays text). Off by default: values stay strings.',
        }),
        false,
      ),
      indent: withDefault(Type.Integer({ minimum: 0, maximum: 8, description: 'jsonToXml: spaces per level, 0 to 8; 0 writes the XML on one line.' }), 2),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({ description: 'xmlToJson: the JSON value. jsonToXml: the XML text.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  }),
  actions: {
    xmlToJson: { fields: ['input', 'attributePrefix', 'textKey', 'parseValues'] },
    jsonToXml: { fields: ['input', 'attributePrefix', 'textKey', 'indent'] },
  },
  examples: [
    {
      summary: 'Attributes, repeated elements, CDATA and a namespace; values stay strings',
      input: {
        input:
          '<?xml version="1.0"?>\n<order id="7" xmlns:x="urn:x">\n  <item sku="A1">12.50</item>\n  <item sku="B2">3</item>\n  <note><![CDATA[fragile & <heavy>]]></note>\n  <x:gift>yes</x:gift>\n</order>',
      },
      output: {
        result: {
          order: {
            item: [
              { '#text': '12.50', '@sku': 'A1' },
              { '#text': '3', '@sku': 'B2' },
            ],
            note: 'fragile & <heavy>',
            'x:gift': 'yes',
            '@id': '7',
            '@xmlns:x': 'urn:x',
          },
        },
        action: 'xmlToJson',
      },
    },
    {
      summary: 'JSON to XML',
      input: { input: { order: { '@id': '7', item: [{ '@sku': 'A1', '#text': '12.50' }, 'loose'], note: 'a & b' } }, action: 'jsonToXml' },
      output: {
        result: '<order id="7">\n  <item sku="A1">12.50</item>\n  <item>loose</item>\n  <note>a &amp; b</note>\n</order>',
        action: 'jsonToXml',
      },
    },
  ],
  offload: ({ input }) => isLargerThan(input, XML_OFFLOAD_THRESHOLD),
  runsInBrowser: true,
  async run({ input, action, attributePrefix, textKey, parseValues, indent }) {
    // '@text' under the prefix '@' would read as the attribute 'text'.
    if (textKey.startsWith(attributePrefix) || attributePrefix.startsWith(textKey))
      throw validationError('textKey', 'must not begin with attributePrefix, nor be its beginning')
    if (action === 'xmlToJson') {
      if (typeof input !== 'string') throw validationError('input', 'must be XML text (a string) for xmlToJson; JSON values are for jsonToXml')
      return xmlToJson(await fastXmlParser(), input, { attributePrefix, textKey }, parseValues)
    }
    return jsonToXml(await fastXmlParser(), input, { attributePrefix, textKey }, indent)
  },
})
