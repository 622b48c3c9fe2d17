import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import type { TLocalizedValidationError } from 'typebox/error'
import { Check, Errors } from 'typebox/value'
import { DevutilsError } from './errors.ts'

interface Validator {
  Check(value: unknown): boolean
  Errors(value: unknown): TLocalizedValidationError[]
}
type JsonSchema = Record<string, unknown>

/**
 * How a schema becomes its check: compiled into code, or (in a web page, whose policy forbids
 * evaluating code) interpreted. Both give the same verdicts and the same errors.
 */
let validatorOf: (schema: TSchema) => Validator = Compile

/**
 * Checks schemas by interpreting them from now on, never by compiling code: for a web page that
 * runs operations under a Content-Security-Policy without 'unsafe-eval', where TypeBox's attempt to
 * compile would be reported as a violation.
 */
export function interpretSchemas(): void {
  validatorOf = (schema) => ({ Check: (value: unknown) => Check(schema, value), Errors: (value: unknown) => Errors(schema, value) })
}

/** A schema's compiled check and its top-level defaults, prepared once per schema. */
interface Prepared {
  validator: Validator
  defaults: Record<string, unknown> | undefined
  /** Fields whose default is an object or array, copied for each call. */
  objectDefaults: string[]
}

const prepared = new WeakMap<TSchema, Prepared>()

function prepare(schema: TSchema): Prepared {
  let entry = prepared.get(schema)
  if (!entry) {
    const properties = ((schema as JsonSchema).properties ?? {}) as Record<string, JsonSchema>
    const withDefault = Object.entries(properties).filter(([, property]) => property.default !== undefined)
    entry = {
      validator: validatorOf(schema),
      defaults: withDefault.length === 0 ? undefined : Object.fromEntries(withDefault.map(([field, property]) => [field, property.default])),
      objectDefaults: withDefault.filter(([, property]) => typeof property.default === 'object').map(([field]) => field),
    }
    prepared.set(schema, entry)
  }
  return entry
}

export interface FieldProblem {
  field: string
  message: string
}

/**
 * Checks `value` against `schema` without coercing anything or dropping unknown fields, fills in
 * defaults, and returns it; a value that breaks the schema is a 400 VALIDATION_ERROR whose details
 * name every bad field and what it allows.
 */
export function validate<T>(schema: TSchema, value: unknown, rootName = 'body'): T {
  const prepared = prepare(schema)
  const tooMany = fieldsPastTheirCount(schema, value)
  if (tooMany.length > 0) throw validationFailure(tooMany)
  if (!prepared.validator.Check(value)) {
    throw validationFailure(describeErrors(schema, value, prepared.validator.Errors(value), rootName))
  }
  return withDefaults(prepared, value) as T
}

/**
 * The object with the defaults of its own properties filled in. Only the top level has defaults in our
 * schemas, and this never descends into values: TypeBox's Value.Default walks (recursively) into
 * every nested object and drops keys such as `constructor` and `prototype` from data.
 */
function withDefaults({ defaults, objectDefaults }: Prepared, value: unknown): unknown {
  if (defaults === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return value
  // A new object, so the caller's is left as it was sent. Object.assign is several times faster than
  // an object spread here, but it assigns, and assigning an own `__proto__` key would set the new
  // object's prototype: such a value is spread instead, which defines the key as data.
  const target: Record<string, unknown> = Object.hasOwn(value, '__proto__') ? { ...defaults, ...value } : Object.assign({}, defaults, value)
  // An object default is copied, so that no call can change what the next one gets.
  for (const field of objectDefaults) if (!Object.hasOwn(value, field)) target[field] = structuredClone(defaults[field])
  return target
}

/**
 * The fields of an object that hold more items or properties than their schema allows. Checked
 * before anything else: the full check and its errors look at every item, which for tens of
 * thousands of them (a body's worth) would hold the event loop for most of a second, to refuse a
 * count that was known at once.
 */
function fieldsPastTheirCount(schema: TSchema, value: unknown): FieldProblem[] {
  const properties = (schema as JsonSchema).properties as Record<string, JsonSchema> | undefined
  if (properties === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return []
  const problems: FieldProblem[] = []
  for (const [field, property] of Object.entries(properties)) {
    if (!Object.hasOwn(value, field)) continue
    const item = (value as Record<string, unknown>)[field]
    if (Array.isArray(item) && typeof property.maxItems === 'number' && item.length > property.maxItems) {
      problems.push({ field, message: countMessage('maxItems', property.maxItems) })
    } else if (isPlainObject(item) && typeof property.maxProperties === 'number' && Object.keys(item).length > property.maxProperties) {
      problems.push({ field, message: countMessage('maxProperties', property.maxProperties) })
    }
  }
  return problems
}

const isPlainObject = (value: unknown): value is object => value !== null && typeof value === 'object' && !Array.isArray(value)

function countMessage(keyword: 'maxItems' | 'maxProperties', limit: unknown): string {
  return keyword === 'maxItems' ? `must have at most ${limit} items` : `must have at most ${limit} properties`
}

export function validationFailure(problems: FieldProblem[]): DevutilsError {
  const message = problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')
  return new DevutilsError('VALIDATION_ERROR', message, problems)
}

function describeErrors(root: TSchema, value: unknown, errors: TLocalizedValidationError[], rootName: string): FieldProblem[] {
  const problems = new Map<string, string>()
  const add = (field: string, message: string) => {
    if (!problems.has(field)) problems.set(field, message)
  }
  for (const error of errors) {
    const anyOfAt = error.schemaPath.lastIndexOf('/anyOf/')
    const field = fieldName(error.instancePath, rootName)
    if (anyOfAt >= 0) {
      // A union reports one error per branch; the useful message is what the union allows.
      const union = resolvePointer(root, error.schemaPath.slice(0, anyOfAt))
      add(field, `must be ${describe(union)} ${received(valueAt(value, error.instancePath), isSecret(union))}`)
      continue
    }
    switch (error.keyword) {
      case 'additionalProperties': {
        for (const extra of error.params.additionalProperties) {
          add(joinField(error.instancePath, extra, rootName), unknownFieldMessage(resolvePointer(root, error.schemaPath)))
        }
        break
      }
      case 'required':
        for (const missing of error.params.requiredProperties) add(joinField(error.instancePath, missing, rootName), 'is required')
        break
      case 'boolean': {
        // `additionalProperties: false` reports each extra key twice, here and with the keyword above;
        // with eight or more extra keys TypeBox reports them only here, so they are named from here too.
        const suffix = '/additionalProperties'
        if (!error.schemaPath.endsWith(suffix)) break
        const slash = error.instancePath.lastIndexOf('/')
        const extra = error.instancePath
          .slice(slash + 1)
          .replace(/~1/g, '/')
          .replace(/~0/g, '~')
        add(
          joinField(error.instancePath.slice(0, slash), extra, rootName),
          unknownFieldMessage(resolvePointer(root, error.schemaPath.slice(0, -suffix.length))),
        )
        break
      }
      default:
        add(field, keywordMessage(error, resolvePointer(root, error.schemaPath), valueAt(value, error.instancePath)))
    }
  }
  return [...problems].map(([field, message]) => ({ field, message }))
}

function unknownFieldMessage(objectSchema: JsonSchema): string {
  const allowed = Object.keys((objectSchema.properties as JsonSchema) ?? {})
  return `is not a known field${allowed.length ? `; allowed fields: ${allowed.join(', ')}` : ''}`
}

function keywordMessage(error: TLocalizedValidationError, schema: JsonSchema, value: unknown): string {
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'type':
    case 'enum':
    case 'const':
      return `must be ${describe(schema)} ${received(value, isSecret(schema))}`
    case 'minimum':
      return `must be >= ${params.limit}`
    case 'maximum':
      return `must be <= ${params.limit}`
    case 'exclusiveMinimum':
      return `must be > ${params.limit}`
    case 'exclusiveMaximum':
      return `must be < ${params.limit}`
    case 'multipleOf':
      return `must be a multiple of ${params.multipleOf}`
    case 'minLength':
      return `must be at least ${params.limit} characters long`
    case 'maxLength':
      return `must be at most ${params.limit} characters long`
    case 'minItems':
      return `must have at least ${params.limit} items`
    case 'maxItems':
    case 'maxProperties':
      return countMessage(error.keyword, params.limit)
    case 'pattern':
      // The description says in words what the pattern allows; the regular expression would not.
      return typeof schema.description === 'string' ? `does not have the expected form: ${schema.description}` : `must match the pattern ${params.pattern}`
    default:
      return error.message
  }
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
}

/** What a schema allows, in words: `one of: encode, decode`, `an integer from 2 to 36`… */
export function describe(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map(formatValue).join(', ')}`
  if ('const' in schema) return formatValue(schema.const)
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as JsonSchema[]
    if (branches.every((branch) => 'const' in branch || Array.isArray(branch.enum))) {
      return `one of: ${branches
        .flatMap((branch) => (Array.isArray(branch.enum) ? branch.enum : [branch.const]))
        .map(formatValue)
        .join(', ')}`
    }
    // A pattern says nothing to a reader: a branch with one is told by its description, as a pattern error is.
    return branches
      .map((branch) => (typeof branch.pattern === 'string' && typeof branch.description === 'string' ? branch.description : describe(branch)))
      .join(' or ')
  }
  const type = schema.type as string | undefined
  let words = (type && ARTICLE[type]) ?? 'a valid value'
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number') words += ` from ${schema.minimum} to ${schema.maximum}`
  else if (typeof schema.minimum === 'number') words += ` >= ${schema.minimum}`
  else if (typeof schema.maximum === 'number') words += ` <= ${schema.maximum}`
  if (typeof schema.maxLength === 'number') words += ` of at most ${schema.maxLength} characters`
  return words
}

/** A field that carries a secret (a key, a passphrase, a password): `writeOnly` in its schema or in a branch of it. */
function isSecret(schema: JsonSchema): boolean {
  return schema.writeOnly === true || ((schema.anyOf as JsonSchema[] | undefined) ?? []).some((branch) => branch.writeOnly === true)
}

/**
 * `(received the string "7")`: a client that sent the right value as the wrong type (a form's text
 * for a number) sees why `7` was refused where 7 is allowed. Of a secret, only the type is said.
 */
function received(value: unknown, secret = false): string {
  if (value === null) return '(received null)'
  if (Array.isArray(value)) return '(received an array)'
  if (secret) return typeof value === 'object' ? '(received a JSON object)' : `(received a ${typeof value})`
  switch (typeof value) {
    case 'string':
      return `(received the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`
    case 'number':
      return `(received the number ${value})`
    case 'boolean':
      return `(received ${value})`
    case 'object':
      return '(received a JSON object)'
    default:
      return '(received nothing)'
  }
}

function valueAt(root: unknown, instancePath: string): unknown {
  let node = root
  for (const segment of instancePath.split('/').slice(1)) {
    node = (node as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return node
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function resolvePointer(root: TSchema, pointer: string): JsonSchema {
  let node: unknown = root
  for (const segment of pointer.replace(/^#/, '').split('/').filter(Boolean)) {
    node = (node as Record<string, unknown>)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return (node ?? {}) as JsonSchema
}

/** `/steps/0/operation` → `steps[0].operation`; the root itself is called `rootName`. */
function fieldName(instancePath: string, rootName: string): string {
  if (instancePath === '') return rootName
  let name = ''
  for (const raw of instancePath.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    name += /^\d+$/.test(segment) ? `[${segment}]` : name === '' ? segment : `.${segment}`
  }
  return name
}

function joinField(instancePath: string, property: string, rootName: string): string {
  return instancePath === '' ? property : `${fieldName(instancePath, rootName)}.${property}`
}
