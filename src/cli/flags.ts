import { hasPrototypeKey } from '../core/inspect.ts'
import type { AnyOperation } from '../core/operation.ts'
import { type FieldKind, fieldKind, textToValue } from '../core/text-values.ts'
import { describe } from '../core/validate.ts'

type JsonSchema = Record<string, unknown>

/** Bad usage: an unknown command or flag, or a flag value that cannot be read for its type (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** Flags every operation takes besides its fields. */
export const GLOBAL_FLAGS = ['--json', '--raw-stdin', '--help'] as const

/** A boolean-only field: a switch (`--x`, `--no-x`, `--x=false`) rather than a flag with a value. */
export function isSwitch(kind: FieldKind): boolean {
  return kind.types.size === 1 && kind.types.has('boolean') && kind.choices.length === 0
}

/** A field that takes an object or an array and no text: its flag value is JSON text. */
export function takesJson(kind: FieldKind): boolean {
  return (kind.types.has('object') || kind.types.has('array')) && !kind.types.has('string')
}

/**
 * Reads a flag's text as the value its field's schema expects. Text that cannot be read as the
 * field's type at all (`--length abc`, malformed JSON) is a usage error; a value that can be read
 * is returned for the schema to judge, so `--length 5000` fails validation exactly as over HTTP.
 */
export function readFlagValue(field: string, schema: JsonSchema, text: string): unknown {
  const kind = fieldKind(schema)
  const value = textToValue(schema, text)
  // No type named: the schema takes anything (given as text), or only choices, which it will refuse by name.
  if (value !== text || kind.types.size === 0 || kind.types.has('string')) return value
  if (takesJson(kind)) return parseJsonFlag(field, schema, text)
  throw new UsageError(`--${field} takes ${describe(schema)}, not '${text}'`)
}

function parseJsonFlag(field: string, schema: JsonSchema, text: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new UsageError(`--${field} takes JSON text (${describe(schema)}), which this is not: ${reason}`)
  }
  if (hasPrototypeKey(value)) throw new UsageError(`--${field} takes JSON text (${describe(schema)}) without __proto__ or constructor.prototype keys`)
  return value
}

export interface OperationArgs {
  /** The fields given as flags, typed by the schema. */
  fields: Record<string, unknown>
  json: boolean
  rawStdin: boolean
  help: boolean
}

const kebabToCamel = (name: string) => name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())
/** An argument read as a flag; a value that looks like one is written `--field=value`. */
export const LOOKS_LIKE_FLAG = /^--[A-Za-z]/

/**
 * Parses `--field value`, `--field=value`, `--switch`, `--no-switch` and the global flags for one
 * operation. Field names are camelCase as in the schema, or kebab-case (`--from-base`).
 */
export function parseOperationArgs(operation: AnyOperation, args: readonly string[]): OperationArgs {
  const properties = operation.input.properties as Record<string, JsonSchema>
  const parsed: OperationArgs = { fields: {}, json: false, rawStdin: false, help: false }
  const fieldNamed = (name: string) => {
    if (Object.hasOwn(properties, name)) return name
    const camel = kebabToCamel(name)
    return Object.hasOwn(properties, camel) ? camel : undefined
  }
  const set = (field: string, value: unknown) => {
    if (Object.hasOwn(parsed.fields, field)) throw new UsageError(`--${field} is given more than once`)
    parsed.fields[field] = value
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--help' || arg === '-h') {
      parsed.help = true
      continue
    }
    if (arg === '--json') {
      parsed.json = true
      continue
    }
    if (arg === '--raw-stdin') {
      parsed.rawStdin = true
      continue
    }
    if (!LOOKS_LIKE_FLAG.test(arg)) {
      throw new UsageError(
        `unexpected argument '${arg}'; ${operation.name} takes only flags${'input' in properties ? ', and its input with --input or on standard input' : ''}`,
      )
    }
    const equals = arg.indexOf('=')
    const name = equals < 0 ? arg.slice(2) : arg.slice(2, equals)
    const inline = equals < 0 ? undefined : arg.slice(equals + 1)
    const field = fieldNamed(name)
    const negated = field === undefined && name.startsWith('no-') ? fieldNamed(name.slice(3)) : undefined
    if (negated !== undefined && isSwitch(fieldKind(properties[negated]))) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value; write --${negated}=${inline} instead`)
      set(negated, false)
      continue
    }
    if (field === undefined) throw unknownFlag(operation, arg.slice(0, equals < 0 ? undefined : equals))
    const schema = properties[field]
    if (isSwitch(fieldKind(schema))) {
      const next = args[i + 1]
      if (inline !== undefined) set(field, readFlagValue(field, schema, inline))
      else if (next === 'true' || next === 'false') set(field, readFlagValue(field, schema, args[++i]))
      else set(field, true)
      continue
    }
    let text = inline
    if (text === undefined) {
      const next = args[i + 1]
      if (next === undefined || LOOKS_LIKE_FLAG.test(next)) {
        throw new UsageError(`--${field} needs a value (${describe(schema)}); write --${field}=VALUE for a value that starts with --`)
      }
      text = next
      i++
    }
    set(field, readFlagValue(field, schema, text))
  }
  return parsed
}

function unknownFlag(operation: AnyOperation, flag: string): UsageError {
  const fields = Object.keys(operation.input.properties as object).map((field) => `--${field}`)
  return new UsageError(
    `unknown flag ${flag} for ${operation.name}; its flags are ${[...fields, ...GLOBAL_FLAGS].join(', ')} (see devutils ${operation.name} --help)`,
  )
}
