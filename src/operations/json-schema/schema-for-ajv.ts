import type { Draft } from '../../lib/json/schema-inference.ts'
import { isObject } from './json-object.ts'
import { REF_IGNORES_SIBLINGS } from './validators.ts'

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
export function schemaForAjv(schema: unknown, draft: Draft): unknown {
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
