import type { Ajv as AjvInstance, Options as AjvOptions, ErrorObject } from 'ajv'
import { commonJsExports } from '../../core/commonjs.ts'
import { lazily } from '../../core/lazy.ts'
import { type Draft, META_SCHEMAS } from '../../lib/json/schema-inference.ts'
import { isObject, type JsonObject } from './json-object.ts'

export const FORMAT_MODES = ['assert', 'ignore'] as const
export type FormatMode = (typeof FORMAT_MODES)[number]

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
export const REF_IGNORES_SIBLINGS: ReadonlySet<Draft> = new Set(['draft-07', 'draft-06', 'draft-04'])

const validators = new Map<string, AjvInstance>()

/**
 * One ajv per draft and format mode for the life of the thread: creating one and compiling its
 * meta-schema costs more than most validations. Every schema a call adds is removed when it ends.
 */
export async function validatorFor(draft: Draft, formats: FormatMode): Promise<AjvInstance> {
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
