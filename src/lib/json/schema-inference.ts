/**
 * JSON Schema inference from samples, by genson's rules: the one answer to "JSON to JSON Schema",
 * whether asked of json-schema (`action: infer`) or of json-types (`language: jsonSchema`). A value
 * adds to the description of its place; the description is written as a schema once all samples are in.
 */
import { commonJsExports } from '../../core/commonjs.ts'
import { lazily } from '../../core/lazy.ts'
import { setOwn } from './value.ts'

/** The drafts a schema can be read as or written for. */
export type Draft = '2020-12' | '2019-09' | 'draft-07' | 'draft-06' | 'draft-04'

/** The meta-schema URI of each draft, as the draft itself spells it (and as inference writes it). */
export const META_SCHEMAS: Record<Draft, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-04': 'http://json-schema.org/draft-04/schema#',
}

/** The formats inference may write, each written only when every string sample at that place has it. */
export const INFERRED_FORMATS = ['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'ipv4', 'ipv6'] as const
export type InferredFormat = (typeof INFERRED_FORMATS)[number]

export interface InferenceOptions {
  /** The draft whose `$schema` the result names. */
  draft: Draft
  /** List as `required` the keys present in every sample (`all`), or none. */
  required: 'all' | 'none'
  /** false writes `"additionalProperties": false` on every object. */
  additionalProperties: boolean
  /** The formats to detect, of INFERRED_FORMATS; none when empty. */
  formats: readonly InferredFormat[]
}

type JsonObject = Record<string, unknown>
const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value)

// ajv-formats is loaded only by a call that detects formats.
const formatTests = lazily(
  async () => commonJsExports(await import('ajv-formats/dist/formats.js')).fullFormats as unknown as Record<InferredFormat, FormatCheck>,
)

/**
 * A schema that every sample validates against. Samples must be JSON values nested no deeper than
 * the service's limit (the recursion follows their depth).
 */
export async function inferSchema(samples: readonly unknown[], options: InferenceOptions): Promise<JsonObject> {
  const checks = options.formats.length > 0 ? { formats: options.formats, tests: await formatTests() } : undefined
  const root = newPlace()
  for (const sample of samples) describe(root, sample, checks)
  return { $schema: META_SCHEMAS[options.draft], ...schemaOf(root, options) }
}

interface FormatChecks {
  formats: readonly InferredFormat[]
  tests: Record<InferredFormat, FormatCheck>
}

const SCALAR_TYPES = ['null', 'boolean', 'integer', 'number', 'string'] as const

/** What the samples showed at one place of the document. */
interface Place {
  types: Set<string>
  /** Objects seen here, each key's place, and how many of those objects had the key. */
  objects: number
  properties: Map<string, Place>
  keyCounts: Map<string, number>
  /** Whether an array was seen, and the place of all their items together (undefined while every array was empty). */
  items: Place | undefined
  /** The formats every string seen here has; undefined until the first string. */
  formats: Set<InferredFormat> | undefined
}

const newPlace = (): Place => ({ types: new Set(), objects: 0, properties: new Map(), keyCounts: new Map(), items: undefined, formats: undefined })

type FormatCheck = RegExp | ((text: string) => boolean) | { validate: RegExp | ((text: string) => boolean) }

function hasFormat(check: FormatCheck, text: string): boolean {
  const test = typeof check === 'object' && 'validate' in check ? check.validate : check
  return test instanceof RegExp ? test.test(text) : test(text)
}

/** Depth is bounded by the input's own check (at most MAX_NESTING_DEPTH levels), so the recursion is too. */
function describe(place: Place, value: unknown, checks: FormatChecks | undefined): void {
  if (value === null) place.types.add('null')
  else if (typeof value === 'boolean') place.types.add('boolean')
  else if (typeof value === 'number') place.types.add(Number.isInteger(value) ? 'integer' : 'number')
  else if (typeof value === 'string') {
    place.types.add('string')
    if (checks) {
      const candidates = place.formats ?? new Set(checks.formats)
      for (const format of candidates) if (!hasFormat(checks.tests[format], value)) candidates.delete(format)
      place.formats = candidates
    }
  } else if (Array.isArray(value)) {
    place.types.add('array')
    for (const item of value) {
      place.items ??= newPlace()
      describe(place.items, item, checks)
    }
  } else if (isObject(value)) {
    place.types.add('object')
    place.objects++
    for (const key of Object.keys(value)) {
      let child = place.properties.get(key)
      if (child === undefined) {
        child = newPlace()
        place.properties.set(key, child)
      }
      place.keyCounts.set(key, (place.keyCounts.get(key) ?? 0) + 1)
      describe(child, value[key], checks)
    }
  }
}

function schemaOf(place: Place, options: InferenceOptions): JsonObject {
  const types = new Set(place.types)
  // An integer is a number: 1 and 2.5 at one place make a number, as genson says.
  if (types.has('number')) types.delete('integer')
  const simple: string[] = []
  const branches: JsonObject[] = []
  for (const type of [...SCALAR_TYPES, 'array', 'object']) {
    if (!types.has(type)) continue
    if (type === 'string' && place.formats !== undefined && place.formats.size > 0) {
      branches.push({ type, format: [...place.formats][0] })
    } else if (type === 'array' && place.items !== undefined) {
      branches.push({ type, items: schemaOf(place.items, options) })
    } else if (type === 'object') {
      branches.push(objectSchema(place, options))
    } else simple.push(type)
  }
  if (simple.length > 0) branches.unshift({ type: simple.length === 1 ? simple[0] : simple })
  if (branches.length === 0) return {}
  return branches.length === 1 ? branches[0] : { anyOf: branches }
}

function objectSchema(place: Place, options: InferenceOptions): JsonObject {
  const schema: JsonObject = { type: 'object' }
  if (place.properties.size > 0) {
    const properties: JsonObject = {}
    for (const [key, child] of place.properties) setOwn(properties, key, schemaOf(child, options))
    schema.properties = properties
    if (options.required === 'all') {
      const required = [...place.keyCounts].filter(([, count]) => count === place.objects).map(([key]) => key)
      if (required.length > 0) schema.required = required
    }
  }
  if (!options.additionalProperties) schema.additionalProperties = false
  return schema
}
