import fc from 'fast-check'
import type { AnyOperation } from '../../src/core/operation.ts'
import { bodyText, JsonText } from '../helpers.ts'

type JsonSchema = Record<string, unknown>

/** The default body limit: the largest bodies are built to land just under it (and sometimes just over). */
export const BODY_LIMIT = 1_048_576

/** One request of the fuzz: the operation, how its body was made, and the body (JsonText where JSON.stringify cannot write it). */
export class FuzzCase {
  constructor(
    readonly operation: string,
    readonly how: string,
    readonly body: unknown,
  ) {}

  #text: string | undefined
  get text(): string {
    this.#text ??= bodyText(this.body)
    return this.#text
  }

  /** How fast-check prints a counterexample: a body can be a mebibyte, so only its start. */
  [fc.toStringMethod](): string {
    return `${this.operation} (${this.how}, ${Buffer.byteLength(this.text)} bytes): ${truncated(this.text)}`
  }
}

export const truncated = (text: string, length = 400) => (text.length <= length ? text : `${text.slice(0, length)}… (${text.length} characters)`)

/**
 * Text that parsers, escapers and patterns meet badly: characters that need escaping, odd Unicode
 * (combining marks, bidi controls, NUL, noncharacters, an emoji ZWJ sequence), and the openers of
 * every nested syntax.
 */
const ODD_UNITS = [
  'a',
  '0',
  '9',
  ' ',
  '\n',
  '\r\n',
  '\t',
  '\\',
  '"',
  "'",
  '`',
  '(',
  ')',
  '[',
  ']',
  '{',
  '{"a":',
  '<a>',
  '<!--',
  '&amp;',
  '&#',
  '%',
  '%41',
  '-',
  '.',
  '*',
  '+',
  '?',
  '|',
  '(a+)+',
  '\\u',
  '=',
  ':',
  '/',
  '#',
  '$',
  '\u0000',
  '\u0301',
  '\u202e',
  '\u200f',
  '\u200d',
  '\ufeff',
  '\uffff',
  '\ufdd0',
  '\u{10ffff}',
  '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}\u200d\u{1f466}',
  '\u00e9',
  'ß',
  'İ',
  '\u4e2d',
]
const LONE_SURROGATES = ['\ud800', '\udfff', '\udc00a']

const unitArbitrary = (operation: AnyOperation) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ODD_UNITS) },
    { weight: operation.allowLoneSurrogates ? 3 : 1, arbitrary: fc.constantFrom(...LONE_SURROGATES) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }) },
  )

const codePoints = (text: string) => [...text].length
const utf8InJson = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2

/**
 * How many copies of `unit` to make: small counts, around the field's bounds (one past its
 * maxLength, which must be refused), and, where the field allows it, enough to fill `room` bytes of
 * a body (and a little more, which the body limit must refuse).
 */
function repeatCounts(unit: string, schema: JsonSchema, room: number): number[] {
  const perUnit = Math.max(1, codePoints(unit))
  const fill = Math.floor(room / Math.max(1, utf8InJson(unit)))
  const most = typeof schema.maxLength === 'number' ? Math.min(Math.floor(schema.maxLength / perUnit) + 1, fill + 64) : fill + 64
  const counts = [1, 2, 17, 100, 1000, fill, Math.floor(fill / 2), fill + 64]
  for (const bound of [schema.maxLength, schema.minLength]) {
    if (typeof bound === 'number') counts.push(Math.floor(bound / perUnit), Math.floor(bound / perUnit) + 1)
  }
  return [...new Set(counts.filter((count) => count >= 0 && count <= most))]
}

/** `unit` repeated to one of the interesting lengths. */
const repeated = (unit: string, schema: JsonSchema, room: number) => fc.constantFrom(...repeatCounts(unit, schema, room)).map((count) => unit.repeat(count))

/** Strings for a string schema: its own examples and pattern, odd text within its length, and long repetitions. */
function stringArbitrary(operation: AnyOperation, schema: JsonSchema, room: number): fc.Arbitrary<string> {
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 64
  const choices: Array<fc.WeightedArbitrary<string>> = [
    { weight: 3, arbitrary: fc.array(unitArbitrary(operation), { maxLength: Math.min(maxLength, 24) }).map((units) => units.join('')) },
    { weight: 3, arbitrary: unitArbitrary(operation).chain((unit) => repeated(unit, schema, room)) },
  ]
  const known = [...((schema.examples as unknown[]) ?? []), schema.default].filter((value): value is string => typeof value === 'string')
  if (known.length > 0) {
    const knownText = fc.constantFrom(...known)
    choices.push({ weight: 2, arbitrary: knownText })
    choices.push({ weight: 1, arbitrary: knownText.chain((text) => repeated(text || ' ', schema, room)) })
  }
  if (typeof schema.pattern === 'string') {
    try {
      choices.push({ weight: 3, arbitrary: fc.stringMatching(new RegExp(schema.pattern, 'u')) })
    } catch {
      // A pattern fast-check cannot read leaves the other strings.
    }
  }
  return fc.oneof(...choices)
}

/**
 * Numbers at and around every bound, JavaScript's and the schema's, most of them within the
 * schema's range (so that they reach `run`), some past it; JsonText where JSON.stringify would
 * change them (-0, integers past 2^53, exponents past a double's).
 */
function numberArbitrary(schema: JsonSchema): fc.Arbitrary<unknown> {
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number }
  const low = typeof minimum === 'number' ? minimum : Number.NEGATIVE_INFINITY
  const high = typeof maximum === 'number' ? maximum : Number.POSITIVE_INFINITY
  const candidates: number[] = [0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 53 - 1, -(2 ** 53 - 1), 1e308, -1e308, 5e-324, 0.5, 1.5, -0.5]
  for (const bound of [minimum, maximum]) if (typeof bound === 'number') candidates.push(bound, bound - 1, bound + 1, bound + 0.5, bound - 0.5)
  const allowed = (value: number) => Number.isFinite(value) && value >= low && value <= high && (schema.type !== 'integer' || Number.isInteger(value))
  const texts: Array<[string, number]> = [
    ['-0', 0],
    ['0.1e1', 1],
    ['9007199254740992', 2 ** 53],
    ['9007199254740993', 2 ** 53],
    ['-9007199254740993', -(2 ** 53)],
    ['1e400', Number.POSITIVE_INFINITY],
    ['-1e400', Number.NEGATIVE_INFINITY],
    ['1E-400', 0],
  ]
  const edges = [...candidates.map((value) => [value, value] as const), ...texts.map(([text, value]) => [new JsonText(text), value] as const)]
  const within = edges.filter(([, value]) => allowed(value)).map(([edge]) => edge)
  const beyond = edges.filter(([, value]) => !allowed(value)).map(([edge]) => edge)
  const [from, to] = [Math.max(low, -(2 ** 31)), Math.min(high, 2 ** 31)]
  const inRange = schema.type === 'integer' ? fc.integer({ min: Math.ceil(from), max: Math.floor(to) }) : fc.double({ min: from, max: to, noNaN: true })
  return fc.oneof(
    { weight: 4, arbitrary: within.length > 0 ? fc.constantFrom(...within) : inRange },
    { weight: 2, arbitrary: inRange },
    { weight: 1, arbitrary: fc.constantFrom(...beyond) },
  )
}

/** Nesting as text: arrays or objects `depth` deep, around the limit of 100 and far past it. */
const deepValue = (room: number) =>
  fc.tuple(fc.constantFrom('array', 'object', 'mixed'), fc.constantFrom(99, 100, 101, 1000, 10_000, Math.floor(room / 6))).map(([shape, depth]) => {
    if (shape === 'array') return new JsonText('['.repeat(depth) + ']'.repeat(depth))
    if (shape === 'object') return new JsonText(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)
    return new JsonText(`${'{"a":['.repeat(depth >> 1)}0${']}'.repeat(depth >> 1)}`)
  })

/** Wide values: many items or many keys, to fill the room of a body. */
const wideValue = (room: number) =>
  fc
    .constantFrom(10, 1000, Math.floor(room / 4))
    .chain((count) =>
      fc.constantFrom(
        new JsonText(`[${'0,'.repeat(count)}0]`),
        new JsonText(`{${Array.from({ length: Math.floor(count / 4) }, (_, index) => `"k${index}":0`).join(',')}}`),
        new JsonText(`[${'"a",'.repeat(Math.floor(count / 2))}"a"]`),
      ),
    )

/** Any JSON value: small random ones, odd text, deep and wide ones. */
function anyValue(operation: AnyOperation, room: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 2, arbitrary: stringArbitrary(operation, {}, room) },
    { weight: 2, arbitrary: deepValue(room) },
    { weight: 1, arbitrary: wideValue(room) },
    { weight: 1, arbitrary: numberArbitrary({}) },
  )
}

/** Keys that objects meet badly: the prototype's names, empty, long, odd text. */
const KEYS = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '', '$ref', 'a'.repeat(1000), '\u0000', '\u{1f600}', '-1', '0', 'length']

/** A value of `schema`'s shape, with hostile contents; its arrays repeat one item where their items are many. */
export function valueArbitrary(operation: AnyOperation, schema: JsonSchema | boolean, room: number): fc.Arbitrary<unknown> {
  // `true` (and `{}`) take any value.
  if (typeof schema !== 'object') return anyValue(operation, room)
  if ('const' in schema) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]))
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as JsonSchema[]).map((branch) => valueArbitrary(operation, branch, room)))
  switch (schema.type) {
    case 'string':
      return stringArbitrary(operation, schema, room)
    case 'integer':
    case 'number':
      return numberArbitrary(schema)
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return arrayArbitrary(operation, schema, room)
    case 'object':
      return schema.properties
        ? objectArbitrary(operation, schema, Object.keys(schema.properties as object), room)
        : dictionaryArbitrary(operation, schema, room)
    default:
      return anyValue(operation, room)
  }
}

function arrayArbitrary(operation: AnyOperation, schema: JsonSchema, room: number): fc.Arbitrary<unknown> {
  const items = (schema.items as JsonSchema | undefined) ?? {}
  const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : undefined
  const few = fc.array(valueArbitrary(operation, items, room / 8), { minLength, maxLength: Math.max(minLength, Math.min(maxItems ?? 8, 8)) })
  const counts = [maxItems ?? 1000, (maxItems ?? 1000) + 1, 10_000].filter((count) => count >= minLength)
  // One item many times: duplicates for uniqueItems, and the most items a bound lets through.
  const many = fc.tuple(valueArbitrary(operation, items, Math.min(4096, room / 100)), fc.constantFrom(...counts)).map(([item, count]) => {
    const fits = Math.floor(room / (Buffer.byteLength(bodyText(item)) + 1)) + 1
    return Array(Math.min(count, fits)).fill(item)
  })
  return fc.oneof({ weight: 3, arbitrary: few }, { weight: 1, arbitrary: many })
}

function dictionaryArbitrary(operation: AnyOperation, schema: JsonSchema, room: number): fc.Arbitrary<unknown> {
  const values = typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as JsonSchema) : {}
  const key = fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 12 }))
  return fc.oneof(fc.dictionary(key, valueArbitrary(operation, values, room / 8), { maxKeys: 8 }), deepValue(room), wideValue(room))
}

/**
 * An object of `schema` with `fields` of its properties: the required ones always, the others now
 * and then, and where the object takes other keys, some of those.
 */
function objectArbitrary(operation: AnyOperation, schema: JsonSchema, fields: readonly string[], room: number, needed: readonly string[] = []) {
  const properties = schema.properties as Record<string, JsonSchema>
  const required = new Set([...((schema.required as string[] | undefined) ?? []), ...needed])
  const shape: Record<string, fc.Arbitrary<unknown>> = {}
  for (const field of fields) if (properties[field]) shape[field] = valueArbitrary(operation, properties[field], room)
  const known = fc.record(shape, { requiredKeys: fields.filter((field) => required.has(field) && properties[field]) })
  if (schema.additionalProperties === false || schema.additionalProperties === undefined) return known
  return fc
    .tuple(known, dictionaryArbitrary(operation, schema, room / 4))
    .map(([object, extra]) => (extra instanceof JsonText ? object : { ...(extra as object), ...object }))
}

/** Bodies from the input schema: one action's fields at a time where the operation has actions, with what that action requires. */
function schemaBodies(operation: AnyOperation, room: number): fc.Arbitrary<FuzzCase> {
  const schema = operation.input as unknown as JsonSchema
  const properties = schema.properties as Record<string, JsonSchema>
  if (operation.actions === undefined) {
    return objectArbitrary(operation, schema, Object.keys(properties), room).map((body) => new FuzzCase(operation.name, 'from the schema', body))
  }
  return fc.constantFrom(...Object.entries(operation.actions)).chain(([action, { fields, requires = [] }]) =>
    fc
      .tuple(
        objectArbitrary(
          operation,
          schema,
          fields,
          room,
          requires.filter((field): field is string => typeof field === 'string'),
        ),
        // Of a list of alternatives, one is enough: the others come and go at random.
        fc.tuple(...requires.filter((field) => typeof field !== 'string').map((choices) => fc.constantFrom(...choices))),
      )
      .chain(([body, chosen]) => {
        const missing = (chosen as string[]).filter((field) => !(field in (body as object)))
        const fill = fc.tuple(...missing.map((field) => valueArbitrary(operation, properties[field], room)))
        return fill.map((values) => {
          const full = { action, ...(body as object) } as Record<string, unknown>
          missing.forEach((field, index) => {
            full[field] = values[index]
          })
          return new FuzzCase(operation.name, `from the schema, ${action}`, full)
        })
      }),
  )
}

/** Every place in a value, as a list of keys and indexes, down to a few levels. */
function placesIn(value: unknown, depth = 0): Array<Array<string | number>> {
  if (depth > 4 || value === null || typeof value !== 'object' || value instanceof JsonText) return []
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value)
  return entries.flatMap(([key, item]) => [[key], ...placesIn(item, depth + 1).map((place) => [key, ...place])])
}

const at = (value: unknown, place: ReadonlyArray<string | number>) =>
  place.reduce<unknown>((inner, key) => (inner as Record<string | number, unknown>)[key], value)

function replaced(value: unknown, place: ReadonlyArray<string | number>, replacement: unknown): unknown {
  if (place.length === 0) return replacement
  const [key, ...rest] = place
  const copy = Array.isArray(value) ? [...value] : { ...(value as object) }
  ;(copy as Record<string | number, unknown>)[key] = replaced((value as Record<string | number, unknown>)[key], rest, replacement)
  return copy
}

/** Wraps a value `depth` times: text in the brackets it already opens with (or parentheses), anything else in arrays. */
function wrapped(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    const [open, close] = value.startsWith('{') ? ['{"a":', '}'] : value.startsWith('[') ? ['[', ']'] : value.startsWith('<') ? ['<a>', '</a>'] : ['(', ')']
    return open.repeat(depth) + value + close.repeat(depth)
  }
  return new JsonText('['.repeat(depth) + bodyText(value) + ']'.repeat(depth))
}

/** Text or items repeated until they fill about `size` bytes. */
function grown(value: unknown, size: number): unknown {
  if (typeof value === 'string') return value.length === 0 ? ' '.repeat(size) : value.repeat(Math.max(2, Math.ceil(size / Math.max(1, utf8InJson(value)))))
  if (Array.isArray(value)) {
    const itemSize = value.length === 0 ? 1 : Math.max(1, Buffer.byteLength(bodyText(value)) / value.length)
    const count = Math.max(2, Math.floor(size / itemSize))
    return value.length === 0 ? Array(count).fill(0) : Array.from({ length: count }, (_, index) => value[index % value.length])
  }
  return value
}

type Mutation = (value: unknown, random: number) => unknown

/** The ways an example's value is changed; `random` in [0, 1) picks a size or a place. */
function mutations(operation: AnyOperation, room: number): Record<string, fc.Arbitrary<Mutation>> {
  const sizes = [1024, 64 * 1024, room / 2, room - 256, room + 64].filter((size) => size <= room + 64)
  return {
    'replaced by a hostile value': anyValue(operation, room).map((hostile) => () => hostile),
    'repeated to a size': fc.constantFrom(...sizes).map((size) => (value: unknown) => grown(value, size)),
    wrapped: fc.constantFrom(1, 99, 100, 101, 1000, 100_000).map((depth) => (value: unknown) => wrapped(value, depth)),
    // Cut anywhere, through a surrogate pair too; a number cut to a fraction of itself.
    truncated: fc.constant((value: unknown, random: number) => {
      if (typeof value === 'string' || Array.isArray(value)) return value.slice(0, Math.floor(random * value.length))
      return typeof value === 'number' ? value * random : !value
    }),
    'items duplicated': fc.constant((value: unknown) => {
      if (Array.isArray(value)) return value.flatMap((item) => [item, item])
      return typeof value === 'string' ? value + value : [value, value]
    }),
  }
}

/** Each example, one of its values (a field, or anything inside one) changed. */
function exampleMutations(operation: AnyOperation, room: number): fc.Arbitrary<FuzzCase> {
  const properties = operation.input.properties as Record<string, JsonSchema>
  const ways = Object.entries(mutations(operation, room))
  return fc
    .tuple(
      fc.constantFrom(...operation.examples.map((example) => example.input as Record<string, unknown>)),
      fc.constantFrom(...ways),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    )
    .chain(([example, [how, mutation], random]) => {
      const places = placesIn(example)
      if (places.length === 0) return fc.constant(new FuzzCase(operation.name, 'an example as it is', example))
      return fc.tuple(fc.constantFrom(...places), mutation, fc.nat(3)).chain(([place, change, oneInFour]) => {
        const field = String(place[0])
        // A top-level field is now and then replaced by a value of its own schema's shape instead.
        const schemaShaped = oneInFour === 0 && place.length === 1 && properties[field] !== undefined
        const replacement = schemaShaped ? valueArbitrary(operation, properties[field], room) : fc.constant(change(at(example, place), random))
        const named = schemaShaped ? 'replaced by a value of its schema' : how
        return replacement.map((value) => new FuzzCase(operation.name, `example, ${place.join('.')} ${named}`, replaced(example, place, value)))
      })
    })
}

/**
 * For the pipeline and the batch: calls of other operations, each a body the fuzz would send to that
 * operation, sharing the room of one body.
 */
function workflowBodies(operation: AnyOperation, registry: readonly AnyOperation[], room: number): fc.Arbitrary<FuzzCase> {
  const schema = operation.input as unknown as JsonSchema
  const [listField, list] = Object.entries(schema.properties as Record<string, JsonSchema>).find(([, property]) => property.type === 'array')!
  const others = registry.filter((other) => !other.checksEachCall)
  const maxItems = (list.maxItems as number | undefined) ?? 20
  return fc.constantFrom(1, 2, Math.ceil(maxItems / 2), maxItems).chain((count) => {
    const call = fc
      .constantFrom(...others)
      .chain((other) => operationBodies(other, registry, room / count))
      .map((inner) => ({ operation: inner.operation, ...(inner.body as object) }))
    return fc
      .array(call, { minLength: count, maxLength: count })
      .map((calls) => new FuzzCase(operation.name, `${count} calls of other operations`, { [listField]: calls }))
  })
}

/** Everything the fuzz sends to one operation: bodies from its schema (and its actions) and changed examples. */
export function operationBodies(operation: AnyOperation, registry: readonly AnyOperation[], room = BODY_LIMIT - 512): fc.Arbitrary<FuzzCase> {
  const choices: Array<fc.WeightedArbitrary<FuzzCase>> = [
    { weight: 4, arbitrary: schemaBodies(operation, room) },
    { weight: 4, arbitrary: exampleMutations(operation, room) },
  ]
  if (operation.checksEachCall) choices.push({ weight: 3, arbitrary: workflowBodies(operation, registry, room) })
  return fc.oneof(...choices)
}
