import type { Ajv as AjvInstance, Options as AjvOptions, ErrorObject } from 'ajv'
import { Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { type Draft, INFERRED_FORMATS, type InferenceOptions, inferSchema, META_SCHEMAS } from '../../lib/json/schema-inference.ts'
import { forEachChild, parseJsonText, WarningList, warnOfInexactNumbers } from '../../lib/json/value.ts'

const ACTIONS = ['validate', 'infer'] as const
const DRAFTS = ['auto', '2020-12', '2019-09', 'draft-07', 'draft-06', 'draft-04'] as const
const FORMAT_MODES = ['assert', 'ignore'] as const
const REQUIRED_MODES = ['all', 'none'] as const
type FormatMode = (typeof FORMAT_MODES)[number]

/** The drafts by their `$schema` URI, read with or without the empty fragment and over http or https. */
const DRAFT_OF_URI = new Map<string, Draft>((Object.entries(META_SCHEMAS) as Array<[Draft, string]>).map(([draft, uri]) => [normalizedUri(uri), draft]))

function normalizedUri(uri: string): string {
  return uri.replace(/^https?:\/\//, '').replace(/#$/, '')
}

/** The most errors of a validation listed by default, and at most. */
const DEFAULT_MAX_ERRORS = 100
const MAX_ERRORS = 1_000

/** The first meta-schema complaints a refused schema's 422 lists. */
const MAX_SCHEMA_PROBLEMS = 20

type JsonObject = Record<string, unknown>
const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * The main export of a CommonJS module that sets `module.exports` to it and `exports.default` to it
 * again (ajv, ajv-draft-04, ajv-formats): whichever way the loader presents the namespace, one of
 * these reaches it.
 */
function mainExport<T>(namespace: unknown): T {
  const module = namespace as { default?: { default?: T } & T } & T
  return module.default?.default ?? module.default ?? module
}

// ajv and ajv-formats are CommonJS; each draft has its own class, loaded on the first call that needs it.
const ajvModules = lazily(async () => {
  const [ajv, ajv2019, ajv2020, draft04, formats, draft06Meta] = await Promise.all([
    import('ajv'),
    import('ajv/dist/2019.js'),
    import('ajv/dist/2020.js'),
    import('ajv-draft-04'),
    import('ajv-formats'),
    import('ajv/dist/refs/json-schema-draft-06.json', { with: { type: 'json' } }),
  ])
  return {
    Ajv: commonJsExports(ajv).Ajv,
    Ajv2019: commonJsExports(ajv2019).Ajv2019,
    Ajv2020: commonJsExports(ajv2020).Ajv2020,
    AjvDraft04: mainExport<typeof draft04.default.default>(draft04),
    addFormats: mainExport<typeof formats.default.default>(formats),
    draft06Meta: draft06Meta.default,
  }
})

/**
 * Options that make ajv fit schemas from strangers: every error, own properties only (so `required:
 * ["toString"]` is not met by `{}`), no `$data` (a ReDoS through it was CVE-2025-69873), no
 * `loadSchema` (so nothing is ever fetched), unknown keywords ignored as the drafts say, and no
 * console output.
 */
const AJV_OPTIONS: AjvOptions = { strict: false, allErrors: true, ownProperties: true, $data: false, logger: false }

/**
 * The drafts in which `$ref` stands alone: "all other properties in a $ref object MUST be ignored"
 * (draft-07 §8.3, and draft-06 and -04 before it); 2019-09 made `$ref` a keyword like the others.
 */
const REF_IGNORES_SIBLINGS: ReadonlySet<Draft> = new Set(['draft-07', 'draft-06', 'draft-04'])

const validators = new Map<string, AjvInstance>()

/**
 * One ajv per draft and format mode for the life of the thread: creating one and compiling its
 * meta-schema costs more than most validations. Every schema a call adds is removed when it ends.
 */
async function validatorFor(draft: Draft, formats: FormatMode): Promise<AjvInstance> {
  const key = `${draft} ${formats}`
  let ajv = validators.get(key)
  if (ajv !== undefined) return ajv
  const modules = await ajvModules()
  // ajv 8 marks ignoreKeywordsWithRef deprecated, yet it is its only way to keep the older drafts' rule for $ref.
  const options: AjvOptions = { ...AJV_OPTIONS, validateFormats: formats === 'assert', ignoreKeywordsWithRef: REF_IGNORES_SIBLINGS.has(draft) }
  if (draft === '2020-12') ajv = new modules.Ajv2020(options)
  else if (draft === '2019-09') ajv = new modules.Ajv2019(options)
  else if (draft === 'draft-04') ajv = new modules.AjvDraft04(options) as unknown as AjvInstance
  else if (draft === 'draft-06') {
    ajv = new modules.Ajv({ ...options, defaultMeta: META_SCHEMAS['draft-06'] })
    ajv.addMetaSchema(modules.draft06Meta)
  } else ajv = new modules.Ajv(options)
  modules.addFormats(ajv)
  replaceEqualityKeywords(ajv)
  validators.set(key, ajv)
  return ajv
}

/**
 * Whether two JSON values are equal, as the drafts define it: numbers by value, objects by their own
 * members in any order. The comparison ajv uses (fast-deep-equal) calls an object's `valueOf` and
 * `toString`, so that an instance such as `{"valueOf": null}` made `const`, `enum` and `uniqueItems`
 * throw. Depth is bounded by the inputs' own check, so the recursion is too.
 */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !jsonEqual((a as JsonObject)[key], (b as JsonObject)[key])) return false
  }
  return true
}

/** A text equal for equal JSON values, whatever the order of their members. */
function canonicalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`
  if (isObject(value)) {
    const keys = Object.keys(value).sort()
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalText(value[key])}`).join(',')}}`
  }
  return JSON.stringify(value)
}

type KeywordCheck = ((schema: unknown, data: unknown) => boolean) & { errors?: Array<Partial<ErrorObject>> }

/**
 * `const`, `enum` and `uniqueItems` checked with `jsonEqual`, with ajv's own messages and params.
 * `uniqueItems` compares each item's canonical text through a map, in time linear in the array's size
 * where ajv's pairwise comparison of objects was quadratic; it reports the last item that repeats an
 * earlier one, and the nearest such earlier one, as ajv does.
 */
function replaceEqualityKeywords(ajv: AjvInstance): void {
  const constCheck: KeywordCheck = (schema, data) => {
    if (jsonEqual(data, schema)) return true
    constCheck.errors = [{ keyword: 'const', message: 'must be equal to constant', params: { allowedValue: schema } }]
    return false
  }
  const enumCheck: KeywordCheck = (schema, data) => {
    if (Array.isArray(schema) && schema.some((allowed) => jsonEqual(data, allowed))) return true
    enumCheck.errors = [{ keyword: 'enum', message: 'must be equal to one of the allowed values', params: { allowedValues: schema } }]
    return false
  }
  const uniqueCheck: KeywordCheck = (schema, data) => {
    if (schema !== true || !Array.isArray(data)) return true
    const lastSeen = new Map<string, number>()
    let pair: { i: number; j: number } | undefined
    for (let index = 0; index < data.length; index++) {
      const text = canonicalText(data[index])
      const earlier = lastSeen.get(text)
      if (earlier !== undefined) pair = { i: index, j: earlier }
      lastSeen.set(text, index)
    }
    if (pair === undefined) return true
    uniqueCheck.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${pair.j} and ${pair.i} are identical)`, params: pair }]
    return false
  }
  for (const [keyword, validate] of [
    ['const', constCheck],
    ['enum', enumCheck],
    ['uniqueItems', uniqueCheck],
  ] as const) {
    ajv.removeKeyword(keyword)
    ajv.addKeyword({ keyword, errors: true, validate })
  }
}

/** The keywords whose value is a subschema, one or a list (`items`), in any draft. */
const SUBSCHEMA_KEYWORDS = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
])
const SUBSCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems'])
/** The keywords whose value maps names to subschemas (`dependencies` also to lists of names, left as they are). */
const SUBSCHEMA_MAP_KEYWORDS = new Set(['$defs', 'definitions', 'dependencies', 'dependentSchemas', 'patternProperties', 'properties'])

/** The property name ajv leaves out of `properties`, and a pattern only it matches, to stand in for it. */
const PROTO = '__proto__'
const PROTO_PATTERN = '^__proto__$'

/**
 * The schema as ajv must be given it to apply the draft's own rules, copied where it changes (the
 * caller's value is left as it was):
 * - A property named `__proto__` in `properties` is skipped by the code ajv generates (on purpose,
 *   against prototype pollution), so it is added as the `patternProperties` entry `^__proto__$`, which
 *   matches that name alone and checks the own member as any other: the same verdict, with
 *   `additionalProperties` and `unevaluatedProperties` counting it as evaluated.
 * - In the drafts where `$ref` stands alone, an `$id` (`id` in draft-04) beside it does not change
 *   the base URI, which ajv would let it do, so it is dropped. The keywords beside `$ref` stay in the
 *   document, where a JSON Pointer may still reach them; ajv is told not to apply them.
 * Only the places that hold subschemas are read: `const`, `enum` and `default` are data.
 */
function schemaForAjv(schema: unknown, draft: Draft): unknown {
  if (!isObject(schema)) return schema
  let changed = false
  const entries = Object.entries(schema).map(([keyword, value]): [string, unknown] => {
    const read = subschemasForAjv(keyword, value, draft)
    changed ||= read !== value
    return [keyword, read]
  })
  // fromEntries defines each member, so a `__proto__` key stays an own member and never sets a prototype.
  let result = changed ? Object.fromEntries(entries) : schema
  const properties = result.properties
  if (isObject(properties) && Object.hasOwn(properties, PROTO)) {
    const patterns = isObject(result.patternProperties) ? result.patternProperties : {}
    const protoSchema = Object.hasOwn(patterns, PROTO_PATTERN) ? { allOf: [patterns[PROTO_PATTERN], properties[PROTO]] } : properties[PROTO]
    result = { ...result, patternProperties: { ...patterns, [PROTO_PATTERN]: protoSchema } }
  }
  const idKeyword = draft === 'draft-04' ? 'id' : '$id'
  if (REF_IGNORES_SIBLINGS.has(draft) && Object.hasOwn(result, '$ref') && Object.hasOwn(result, idKeyword)) {
    const { [idKeyword]: _ignored, ...rest } = result
    result = rest
  }
  return result
}

function subschemasForAjv(keyword: string, value: unknown, draft: Draft): unknown {
  const each = (list: unknown[]) => {
    const read = list.map((item) => schemaForAjv(item, draft))
    return read.some((item, index) => item !== list[index]) ? read : list
  }
  if (SUBSCHEMA_KEYWORDS.has(keyword)) return Array.isArray(value) ? each(value) : schemaForAjv(value, draft)
  if (SUBSCHEMA_LIST_KEYWORDS.has(keyword)) return Array.isArray(value) ? each(value) : value
  if (SUBSCHEMA_MAP_KEYWORDS.has(keyword) && isObject(value)) {
    const members = Object.values(value)
    const read = each(members)
    if (read === members) return value
    const names = Object.keys(value)
    return Object.fromEntries(names.map((name, index) => [name, read[index]]))
  }
  return value
}

/** The draft a schema declares in its root `$schema`, if any; an unknown URI is a 422 naming those known. */
function declaredDraft(schema: unknown): Draft | undefined {
  if (!isObject(schema) || !Object.hasOwn(schema, '$schema')) return undefined
  const uri = schema.$schema
  const draft = typeof uri === 'string' ? DRAFT_OF_URI.get(normalizedUri(uri)) : undefined
  if (draft === undefined) {
    throw invalidInput(
      `schema's $schema ${JSON.stringify(uri)} names no draft this service knows; use one of ${Object.values(META_SCHEMAS).join(', ')}, or leave it out and set draft`,
      { field: 'schema', path: '/$schema' },
    )
  }
  return draft
}

/** An ajv error as the answer lists it: where in the instance, where in the schema, which keyword, and why. */
interface ValidationError {
  instancePath: string
  schemaPath: string
  keyword: string
  message: string
  params: Record<string, unknown>
}

/**
 * The size of a value's JSON text, counted only up to `limit` (past it, some number above it): an
 * error's `params` may hold a large part of the schema (an `enum`'s values), once per error.
 */
function jsonSizeUpTo(root: unknown, limit: number): number {
  const scalarSize = (value: unknown) => (typeof value === 'string' ? value.length + 2 : String(value).length)
  if (root === null || typeof root !== 'object') return scalarSize(root)
  let size = 0
  const pending: object[] = [root]
  while (pending.length > 0 && size <= limit) {
    size += 2
    forEachChild(pending.pop()!, (child, key) => {
      size += typeof key === 'string' ? key.length + 4 : 1
      if (child !== null && typeof child === 'object') pending.push(child)
      else size += scalarSize(child)
      return size <= limit
    })
  }
  return size
}

interface ValidateFields {
  input: unknown
  schema?: unknown
  draft: (typeof DRAFTS)[number]
  formats: FormatMode
  maxErrors: number
}

function readJson(value: unknown, field: string, warnings: WarningList): unknown {
  if (typeof value !== 'string') return value
  const parsed = parseJsonText(value, field)
  warnOfInexactNumbers(value, field, warnings)
  return parsed
}

async function validate({ input, schema: schemaField, draft: askedDraft, formats, maxErrors }: ValidateFields) {
  if (schemaField === undefined) throw validationError('schema', 'is required for validate')
  const warnings = new WarningList()
  const schema = readJson(schemaField, 'schema', warnings)
  if (!isObject(schema) && typeof schema !== 'boolean') {
    throw invalidInput('schema is JSON text of neither an object nor a boolean, which is what a JSON Schema is', { field: 'schema' })
  }
  const instance = readJson(input, 'input', warnings)
  const declared = declaredDraft(schema)
  let draft: Draft = declared ?? '2020-12'
  let compiled: unknown = schema
  if (askedDraft !== 'auto') {
    draft = askedDraft
    if (declared !== undefined && declared !== askedDraft) {
      warnings.add(`schema's $schema names ${declared}, but draft ${askedDraft} was asked for: the schema is read as ${askedDraft}`)
      const { $schema: _ignored, ...rest } = schema as JsonObject
      compiled = rest
    }
  }
  const ajv = await validatorFor(draft, formats)
  try {
    const check = compile(ajv, compiled, draft)
    let valid: boolean
    try {
      valid = check(instance) as boolean
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      throw limitExceeded('The schema could not be applied: its references recurse without end (a $ref or $dynamicRef that leads back to itself)', {
        field: 'schema',
      })
    }
    const { errors, errorCount, truncated } = listErrors(check.errors ?? [], maxErrors, warnings)
    return { result: valid, action: 'validate' as const, draft, errors, errorCount, truncated, warnings: warnings.list() }
  } finally {
    ajv.removeSchema()
  }
}

/** The schema checked against its draft's meta-schema and compiled, every failure a 422 that says why. */
function compile(ajv: AjvInstance, schema: unknown, draft: Draft) {
  if (!ajv.validateSchema(schema as object)) {
    const problems = (ajv.errors ?? []).slice(0, MAX_SCHEMA_PROBLEMS).map((error) => ({
      field: 'schema',
      schemaPath: error.instancePath,
      message: error.message ?? 'is invalid',
    }))
    const first = problems[0]
    throw invalidInput(
      `schema is not a valid ${draft} JSON Schema: ${first ? `${first.schemaPath === '' ? 'the root' : first.schemaPath} ${first.message}` : 'its meta-schema refuses it'}`,
      problems,
    )
  }
  try {
    return ajv.compile(schemaForAjv(schema, draft) as object)
  } catch (error) {
    throw compileError(error)
  }
}

function compileError(error: unknown) {
  if (error instanceof RangeError) {
    return limitExceeded(
      'schema could not be compiled: its references lead through too many levels (a cycle of $ref or relative references ajv cannot follow)',
      {
        field: 'schema',
      },
    )
  }
  const { missingRef, missingSchema, message } = error as Error & { missingRef?: string; missingSchema?: string }
  if (missingRef !== undefined) {
    if (missingSchema) {
      return invalidInput(
        `schema refers to ${JSON.stringify(missingRef)}, outside the schema: remote references are not fetched; put the schema it names under $defs (definitions before 2019-09) and refer to it there`,
        { field: 'schema', ref: missingRef, reason: 'remoteReference' },
      )
    }
    return invalidInput(`schema refers to ${JSON.stringify(missingRef)}, which names nothing in the schema`, {
      field: 'schema',
      ref: missingRef,
      reason: 'unresolvedReference',
    })
  }
  return invalidInput(`schema cannot be compiled: ${(error as Error).message ?? message}`, { field: 'schema' })
}

/** The errors ajv found, as many as asked and as fit in the output limit. */
function listErrors(found: ErrorObject[], maxErrors: number, warnings: WarningList) {
  const errors: ValidationError[] = []
  let size = 0
  let cutBySize = false
  for (const error of found) {
    if (errors.length === maxErrors) break
    const params = error.params as Record<string, unknown>
    const cost = error.instancePath.length + error.schemaPath.length + 80 + jsonSizeUpTo(params, OUTPUT_LIMIT_BYTES)
    if (size + cost > OUTPUT_LIMIT_BYTES / 2) {
      cutBySize = true
      break
    }
    size += cost
    errors.push({ instancePath: error.instancePath, schemaPath: error.schemaPath, keyword: error.keyword, message: error.message ?? '', params })
  }
  if (cutBySize) warnings.add(`only the first ${errors.length} errors are listed: the rest would make the answer larger than the output limit`)
  return { errors, errorCount: found.length, truncated: errors.length < found.length }
}

interface InferFields {
  required: InferenceOptions['required']
  additionalProperties: boolean
  input: unknown
  schema?: unknown
  draft: (typeof DRAFTS)[number]
  multipleSamples: boolean
  detectFormats: boolean
}

async function infer({ input, schema, draft: askedDraft, multipleSamples, detectFormats, required, additionalProperties }: InferFields) {
  if (schema !== undefined) throw validationError('schema', 'is for validate; infer reads samples from input')
  const warnings = new WarningList()
  const value = readJson(input, 'input', warnings)
  let samples: unknown[] = [value]
  if (multipleSamples) {
    if (!Array.isArray(value) || value.length === 0) {
      throw invalidInput('With multipleSamples, input must be a non-empty array whose items are the samples', { field: 'input', reason: 'notSamples' })
    }
    samples = value
  }
  const draft: Draft = askedDraft === 'auto' ? '2020-12' : askedDraft
  const result = await inferSchema(samples, { draft, required, additionalProperties, formats: detectFormats ? INFERRED_FORMATS : [] })
  return { result, action: 'infer' as const, draft, warnings: warnings.list() }
}

const ERROR_EXAMPLE = {
  instancePath: '/id',
  schemaPath: '#/properties/id/minimum',
  keyword: 'minimum',
  message: 'must be >= 1',
  params: { comparison: '>=', limit: 1 },
}

const USER_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 }, email: { type: 'string', format: 'email' } },
  required: ['id', 'email'],
}

export const jsonSchema = defineOperation({
  name: 'json-schema',
  category: 'converters',
  summary: 'Validate JSON against a JSON Schema (2020-12, 2019-09, draft-07, -06, -04), or infer a schema from samples',
  title: 'JSON Schema validator and generator',
  aliases: [
    'json schema',
    'validate',
    'validation',
    'validate json',
    'json validator',
    'schema validation',
    'ajv',
    'infer schema',
    'generate schema',
    'json to schema',
    'schema from json',
    'genson',
    'draft 2020-12',
    'draft-07',
    '$ref',
  ],
  description:
    "`validate` checks the instance `input` against `schema` with ajv: `draft` is taken from the schema's `$schema` (2020-12 when it has none) unless given; the answer is `result` (true when valid) and every error ajv finds, as `{ instancePath, schemaPath, keyword, message, params }` with JSON Pointers, " +
    `the first \`maxErrors\` of them (default ${DEFAULT_MAX_ERRORS}, at most ${MAX_ERRORS}) listed, \`errorCount\` all of them and \`truncated\` whether some were left out. An invalid instance is a 200 with \`result: false\`, not an error (the command line exits 1). ` +
    '`formats: assert` (the default) checks `format` with the full set of ajv-formats (date-time, email, uri, uuid, ipv4, ipv6, regex and more), in every draft: 2019-09 and 2020-12 make `format` an annotation only, but `"format": "email"` is written to be checked; `ignore` does not check it. Formats apply to strings only; an unknown format is ignored, as are unknown keywords. ' +
    "`infer` writes a schema that every sample validates against, by genson's rules: one type per place (an integer and a number make a number; several types make a list of types, or `anyOf` where objects or arrays are among them), objects with their `properties` and (`required: all`) the keys present in every sample, arrays with the schema of all their items together; " +
    '`multipleSamples` reads `input` as an array of samples, `additionalProperties: false` closes every object, `detectFormats` writes a `format` (date-time, date, time, email, uri, uuid, ipv4, ipv6) where every string at that place has it. ' +
    '`input` and `schema` take a JSON value or its text (a string is read as JSON text, so the string "abc" is sent as "\\"abc\\""); numbers are read as JavaScript reads them, and a number literal in JSON text that a double cannot hold exactly is warned of. ' +
    'In draft-07, -06 and -04 `$ref` stands alone, as those drafts say: the keywords beside it (and an `$id` that would change its base URI) are ignored; from 2019-09 they apply. ' +
    "A property named `__proto__` is checked as any other (ajv skips that name in `properties`, so it is checked through the `patternProperties` entry `^__proto__$`, which its errors' `schemaPath` names). " +
    'Known gaps of ajv 8, the engine: `$dynamicRef`, some `unevaluatedProperties`/`unevaluatedItems` cases (with `contains`, `if`, nested `items`), and relative-URI and URN `$ref` between embedded resources (refused, 422 LIMIT_EXCEEDED). `const`, `enum` and `uniqueItems` compare JSON values by their own members (the comparison ajv ships is replaced: it failed on a member named `valueOf` or `toString`), and `uniqueItems` in linear time. ' +
    'Refused with 422 INVALID_INPUT: JSON text that does not parse (its position), a schema its meta-schema refuses (`details` lists each `{ schemaPath, message }`), an unknown `$schema` URI (the message lists those supported), and a `$ref` to anything outside the schema: remote references are never fetched (no network, no file), so put the schema under `$defs`. ' +
    `Refused with 422 LIMIT_EXCEEDED: schema or instance nested deeper than ${MAX_NESTING_DEPTH} levels, checked before compiling, and references ajv cannot compile without overflowing its stack. ` +
    'The schema is compiled to code, so every call runs on a worker thread: one that runs past the time budget (a `pattern` with catastrophic backtracking, `uniqueItems` over many large objects) is stopped and answered 422 LIMIT_EXCEEDED (`details.reason: "timeout"`), since it would run out again (503 TIMEOUT only when it waited for a free thread past the budget); one whose errors outgrow the memory a task may use (about a million of them, every error is kept until the validation ends) is stopped and answered 422 LIMIT_EXCEEDED.',
  input: Type.Object(
    {
      input: Type.Unknown({
        description:
          'validate: the instance to check. infer: the sample (or, with multipleSamples, an array of samples). Any JSON value; a string is read as JSON text.',
        examples: [{ id: 7, email: 'ada@example.org' }],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, { description: 'Check `input` against `schema` (`validate`), or write a schema from samples (`infer`).' }),
        'validate',
      ),
      schema: Type.Optional(
        Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Boolean(), Type.String()], {
          description: 'validate only (required there): the JSON Schema, an object or a boolean, or its JSON text.',
          examples: [USER_SCHEMA],
        }),
      ),
      draft: withDefault(
        Type.Enum(DRAFTS, {
          description:
            'validate: the draft to read the schema as; `auto` takes it from `$schema`, else 2020-12. infer: the draft whose `$schema` the result names (`auto` is 2020-12).',
        }),
        'auto',
      ),
      formats: withDefault(Type.Enum(FORMAT_MODES, { description: 'validate: check `format` keywords (`assert`) or not (`ignore`).' }), 'assert'),
      maxErrors: withDefault(
        Type.Integer({ minimum: 1, maximum: MAX_ERRORS, description: 'validate: the most errors listed; `errorCount` counts them all.' }),
        DEFAULT_MAX_ERRORS,
      ),
      multipleSamples: withDefault(Type.Boolean({ description: 'infer: `input` is an array whose items are the samples.' }), false),
      required: withDefault(
        Type.Enum(REQUIRED_MODES, { description: 'infer: list as `required` the keys present in every sample (`all`), or none (`none`).' }),
        'all',
      ),
      additionalProperties: withDefault(
        Type.Boolean({ description: 'infer: false writes `"additionalProperties": false` on every object, refusing keys the samples did not have.' }),
        true,
      ),
      detectFormats: withDefault(
        Type.Boolean({ description: 'infer: write a `format` where every string at that place is a date-time, date, time, email, uri, uuid, ipv4 or ipv6.' }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({ description: 'validate: true when the instance is valid (a boolean). infer: the schema.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    draft: Type.Enum(
      DRAFTS.filter((draft) => draft !== 'auto'),
      { description: 'The draft the schema was read as, or written for.' },
    ),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          instancePath: Type.String({ description: 'A JSON Pointer to the failing value of the instance ("" is the whole).' }),
          schemaPath: Type.String({ description: 'A JSON Pointer fragment to the failing keyword of the schema.' }),
          keyword: Type.String({ description: 'The keyword that failed.' }),
          message: Type.String({ description: "What was wrong, in ajv's words." }),
          params: Type.Record(Type.String(), Type.Unknown(), { description: "The keyword's figures (a limit, the missing property…)." }),
        }),
        { description: 'validate: the errors found, the first `maxErrors` of them; empty when valid.' },
      ),
    ),
    errorCount: Type.Optional(Type.Integer({ description: 'validate: how many errors were found.' })),
    truncated: Type.Optional(Type.Boolean({ description: 'validate: whether errors were left out of the list.' })),
    warnings: Type.Array(Type.String(), {
      description: 'Number literals in JSON text that a double cannot hold exactly, a `$schema` overridden by `draft`, errors left out for the output limit.',
    }),
  }),
  verdict: { field: 'result', failure: 'The instance does not validate against the schema' },
  actions: {
    validate: { fields: ['input', 'schema', 'draft', 'formats', 'maxErrors'], requires: ['schema'] },
    infer: { fields: ['input', 'draft', 'multipleSamples', 'required', 'additionalProperties', 'detectFormats'] },
  },
  examples: [
    {
      summary: 'Validate an object against a schema',
      input: { input: { id: 7, email: 'ada@example.org' }, schema: USER_SCHEMA },
      output: { result: true, action: 'validate', draft: '2020-12', errors: [], errorCount: 0, truncated: false, warnings: [] },
    },
    {
      summary: 'An invalid instance: every error, with where it is',
      input: { input: { id: 0, email: 'not an address' }, schema: USER_SCHEMA },
      output: {
        result: false,
        action: 'validate',
        draft: '2020-12',
        errors: [
          ERROR_EXAMPLE,
          {
            instancePath: '/email',
            schemaPath: '#/properties/email/format',
            keyword: 'format',
            message: 'must match format "email"',
            params: { format: 'email' },
          },
        ],
        errorCount: 2,
        truncated: false,
        warnings: [],
      },
    },
    {
      summary: 'Infer a schema from two samples',
      input: {
        input: [
          { id: 1, name: 'Ada', tags: ['x'] },
          { id: 2.5, name: 'Bob', tags: [], email: null },
        ],
        action: 'infer',
        multipleSamples: true,
      },
      output: {
        result: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { id: { type: 'number' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, email: { type: 'null' } },
          required: ['id', 'name', 'tags'],
        },
        action: 'infer',
        draft: '2020-12',
        warnings: [],
      },
    },
  ],
  // The schema is compiled to JavaScript and may hold a pattern that backtracks for ever: only a thread that can be stopped runs it.
  offload: () => true,
  overrun: {
    advice: 'a pattern that backtracks catastrophically or uniqueItems over many large items costs this much; simplify the schema or send a smaller instance',
  },
  run(fields) {
    return fields.action === 'infer' ? infer(fields) : validate(fields)
  },
})
