import type { Ajv as AjvInstance, ErrorObject } from 'ajv'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { type Draft, META_SCHEMAS } from '../../lib/json/schema-inference.ts'
import { forEachChild, parseJsonText, WarningList, warnOfInexactNumbers } from '../../lib/json/value.ts'
import { isObject, type JsonObject } from './json-object.ts'
import { schemaForAjv } from './schema-for-ajv.ts'
import { type FormatMode, validatorFor } from './validators.ts'

/** The drafts a call may ask for: `auto` reads the schema's own `$schema`. */
export const DRAFTS = ['auto', '2020-12', '2019-09', 'draft-07', 'draft-06', 'draft-04'] as const

/** The drafts by their `$schema` URI, read with or without the empty fragment and over http or https. */
const DRAFT_OF_URI = new Map<string, Draft>((Object.entries(META_SCHEMAS) as Array<[Draft, string]>).map(([draft, uri]) => [normalizedUri(uri), draft]))

function normalizedUri(uri: string): string {
  return uri.replace(/^https?:\/\//, '').replace(/#$/, '')
}

/** The most errors of a validation listed by default, and at most. */
export const DEFAULT_MAX_ERRORS = 100
export const MAX_ERRORS = 1_000

/** The first meta-schema complaints a refused schema's 422 lists. */
const MAX_SCHEMA_PROBLEMS = 20

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

export function readJson(value: unknown, field: string, warnings: WarningList): unknown {
  if (typeof value !== 'string') return value
  const parsed = parseJsonText(value, field)
  warnOfInexactNumbers(value, field, warnings)
  return parsed
}

export async function validate({ input, schema: schemaField, draft: askedDraft, formats, maxErrors }: ValidateFields) {
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
