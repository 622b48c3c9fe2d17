import { Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { inferSchema } from '../../lib/json/schema-inference.ts'
import { parseJsonText, WarningList, warnOfInexactNumbers } from '../../lib/json/value.ts'

const LANGUAGES = ['typescript', 'zod', 'go', 'rust', 'python', 'java', 'csharp', 'kotlin', 'swift', 'jsonSchema'] as const
type Language = (typeof LANGUAGES)[number]
type QuicktypeLanguage = Exclude<Language, 'jsonSchema'>

/** quicktype's name for each target it writes. */
const QUICKTYPE_NAMES = {
  typescript: 'typescript',
  zod: 'typescript-zod',
  go: 'go',
  rust: 'rust',
  python: 'python',
  java: 'java',
  csharp: 'csharp',
  kotlin: 'kotlin',
  swift: 'swift',
} as const satisfies Record<QuicktypeLanguage, string>

/** The renderer option `packageName` sets, for the languages that have one. */
const PACKAGE_OPTIONS: Partial<Record<Language, string>> = { java: 'package', kotlin: 'package', csharp: 'namespace', go: 'package' }

/** The languages whose types (and helpers) quicktype can give an integer read from a string of digits. */
const INTEGER_STRING_LANGUAGES: ReadonlySet<Language> = new Set(['csharp', 'python'])

/** A declaration of a type, as the ten languages begin one (`export interface`, `pub struct`, `public partial class`, `data class`…). */
const DECLARATION = /^\s*(?:(?:export|pub|public|partial|data|final) )*(?:interface|type|typealias|class|struct|enum|const) \w/m

const ROOT_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,63}$'
/** Identifiers joined by single dots, as Java and Kotlin packages and C# namespaces are: no empty segment, no trailing dot. */
const PACKAGE_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*$'
/** A Go package clause names one identifier, lower case by Go's convention. */
const GO_PACKAGE_NAME = /^[a-z_][a-z0-9_]*$/
const DEFAULT_ROOT_NAME = 'Root'

// quicktype-core is large and CommonJS at heart: only the worker thread that generates code loads it.
const quicktypeCore = lazily(async () => commonJsExports(await import('quicktype-core')))

interface Fields {
  input: unknown
  multipleSamples: boolean
  language: Language
  rootName: string
  justTypes: boolean
  allOptional: boolean
  inferEnums: boolean
  inferDateTimes: boolean
  inferIntegerStrings: boolean
  inferMaps: boolean
  packageName?: string
}

/** The samples `input` holds, each a JSON value, with a warning for each number that is not what its text said. */
function readSamples(input: unknown, multipleSamples: boolean, warnings: WarningList): unknown[] {
  let value = input
  if (typeof input === 'string') {
    value = parseJsonText(input, 'input')
    warnOfInexactNumbers(input, 'input', warnings)
  } else warnOfUnsafeIntegers(input, warnings)
  if (!multipleSamples) return [value]
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidInput('With multipleSamples, input must be a non-empty array whose items are the samples', { field: 'input', reason: 'notSamples' })
  }
  return value
}

/**
 * A JSON value sent in the body was read as JavaScript reads it, so an integer beyond 2^53 may
 * already have lost digits, and a number beyond a double's range became Infinity: the types are
 * right, but the caller should know.
 */
function warnOfUnsafeIntegers(root: unknown, warnings: WarningList): void {
  const pending: unknown[] = [root]
  while (pending.length > 0) {
    const value = pending.pop()
    if (typeof value === 'number') {
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        warnings.add(
          `input: the integer ${value} is beyond 2^53, where a double (as JSON is read here) holds only some integers: its digits may have been changed`,
        )
      } else if (!Number.isFinite(value)) {
        warnings.add(`input: a number beyond the range of a double was read as ${value}: it is typed as a number with a fraction`)
      }
    } else if (value !== null && typeof value === 'object') for (const child of Object.values(value)) pending.push(child)
  }
}

/** Options of the call that change nothing for its language, each with why. */
function unusedOptions(fields: Fields): string[] {
  const unused: string[] = []
  const { language } = fields
  if (fields.packageName !== undefined && PACKAGE_OPTIONS[language] === undefined) {
    unused.push(`packageName is for java, kotlin, csharp and go; ${language} has no package`)
  }
  if (fields.inferIntegerStrings && language !== 'jsonSchema' && !INTEGER_STRING_LANGUAGES.has(language)) {
    unused.push(`inferIntegerStrings: quicktype converts strings of digits in csharp and python only, not in ${language}`)
  }
  if (fields.inferDateTimes && language === 'rust') unused.push('inferDateTimes: quicktype keeps dates as String in rust')
  if (language === 'zod' && !fields.justTypes) unused.push('justTypes: a Zod schema is its own parser, with no helpers to add')
  if (language === 'jsonSchema') {
    if (fields.rootName !== DEFAULT_ROOT_NAME) unused.push('rootName names no type in a JSON Schema, which describes the root itself')
    if (!fields.justTypes) unused.push('justTypes: a JSON Schema has no (de)serialisation code to add')
    if (fields.inferEnums) unused.push('inferEnums: the schema inference lists types, not values')
    if (fields.inferIntegerStrings) unused.push('inferIntegerStrings: a string stays a string in the inferred schema')
    if (!fields.inferMaps) unused.push('inferMaps: the inferred schema lists the properties seen, with no maps to tell apart')
  }
  return unused.map((reason) => `${reason}: ignored`)
}

/** A number with a fraction, standing in for one that has a fraction or an exponent. */
const FRACTIONAL_STAND_IN = 0.5

/** A literal that JSON.parse reads as Infinity replaced by a finite number of the same kind, whole or not. */
function standInFor(literal: string | undefined, value: number): number {
  // The largest whole double is what quicktype itself would see for a long literal of digits: a whole
  // number, too large for any fixed-size integer type.
  return literal !== undefined && !/[.eE]/.test(literal) ? Math.sign(value) * Number.MAX_VALUE : FRACTIONAL_STAND_IN
}

/**
 * The samples as the text quicktype reads. A number beyond a double's range is Infinity here, which
 * JSON.stringify writes as null, so quicktype would type it as null: a finite stand-in of its kind
 * takes its place. The kind comes from the literal in JSON text; a value sent in the body has lost
 * its literal, and is typed as a number with a fraction, as most JSON readers read such a number.
 */
function samplesForQuicktype(input: unknown, multipleSamples: boolean, samples: unknown[]): string[] {
  let outOfRange = false
  const texts = samples.map((sample) =>
    JSON.stringify(sample, (_key, value: unknown) => {
      if (typeof value !== 'number' || Number.isFinite(value)) return value
      outOfRange = true
      return FRACTIONAL_STAND_IN
    }),
  )
  if (!outOfRange || typeof input !== 'string') return texts
  const reread: unknown = JSON.parse(input, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isFinite(value) ? standInFor(context?.source, value) : value,
  )
  return (multipleSamples ? (reread as unknown[]) : [reread]).map((sample) => JSON.stringify(sample))
}

async function generate(samples: unknown[], fields: Fields, language: QuicktypeLanguage): Promise<string> {
  const { InputData, jsonInputForTargetLanguage, quicktype } = await quicktypeCore()
  const lang = QUICKTYPE_NAMES[language]
  const jsonInput = jsonInputForTargetLanguage(lang)
  await jsonInput.addSource({ name: fields.rootName, samples: samplesForQuicktype(fields.input, fields.multipleSamples, samples) })
  const inputData = new InputData()
  inputData.addInput(jsonInput)
  // The boolean just-types is known to every renderer (an enum `features` is not); Rust writes its usage comment unless told not to.
  const rendererOptions: Record<string, string | boolean> = { 'just-types': fields.justTypes }
  if (language === 'rust') rendererOptions['leading-comments'] = !fields.justTypes
  const packageOption = PACKAGE_OPTIONS[language]
  if (fields.packageName !== undefined && packageOption !== undefined) {
    rendererOptions[packageOption] = fields.packageName
    // Go's just-types leaves out the package clause a package name is given for.
    if (language === 'go' && fields.justTypes) rendererOptions['just-types-and-package'] = true
  }
  let lines: string[]
  try {
    const rendered = await quicktype({
      inputData,
      lang,
      rendererOptions,
      allPropertiesOptional: fields.allOptional,
      inferMaps: fields.inferMaps,
      inferEnums: fields.inferEnums,
      inferDateTimes: fields.inferDateTimes,
      inferIntegerStrings: fields.inferIntegerStrings,
      inferUuids: false,
      inferBooleanStrings: false,
      combineClasses: true,
      // A `$ref` in a sample is data: read as a reference, quicktype would try to fetch it.
      ignoreJsonRefs: true,
    })
    lines = rendered.lines
  } catch (error) {
    if (error instanceof RangeError) {
      throw limitExceeded('The samples are too large or too varied for quicktype to generate types from: send fewer or smaller samples', {
        field: 'input',
        reason: 'engine',
      })
    }
    throw error
  }
  // Swift writes a usage comment whatever the options say (quicktype has no option that leaves it out), and
  // its example calls an initialiser that only the helpers define.
  if (language === 'swift' && fields.justTypes) lines = withoutLeadingComment(lines)
  return joinedWithinLimit(lines)
}

/** The lines after the comment block they begin with and the blank lines that follow it. */
function withoutLeadingComment(lines: readonly string[]): string[] {
  let start = 0
  while (start < lines.length && lines[start].startsWith('//')) start++
  if (start === 0) return [...lines]
  while (start < lines.length && lines[start].trim() === '') start++
  return lines.slice(start)
}

/**
 * The generated lines as one text, refused if it would pass the output limit. quicktype builds its
 * lines whole, so this is the first moment the size is known: until then the worker's heap limit and
 * the time budget bound what its rendering holds.
 */
export function joinedWithinLimit(lines: readonly string[], limit = OUTPUT_LIMIT_BYTES): string {
  let size = 0
  for (const line of lines) size += Buffer.byteLength(line) + 1
  assertOutputWithinLimit(size, limit)
  return lines.join('\n')
}

async function typesOf(fields: Fields) {
  if (fields.language === 'go' && fields.packageName !== undefined && !GO_PACKAGE_NAME.test(fields.packageName)) {
    throw validationError(
      'packageName',
      `must be one Go identifier for go: lower-case letters, digits and underscores, not starting with a digit (no dots: a Go package clause names one package); '${fields.packageName}' is not one`,
    )
  }
  const warnings = new WarningList()
  const samples = readSamples(fields.input, fields.multipleSamples, warnings)
  for (const unused of unusedOptions(fields)) warnings.add(unused)
  const { language, rootName } = fields
  let result: string
  if (language === 'jsonSchema') {
    const formats = fields.inferDateTimes ? (['date-time', 'date', 'time'] as const) : []
    const schema = await inferSchema(samples, { draft: '2020-12', required: fields.allOptional ? 'none' : 'all', additionalProperties: true, formats })
    result = `${JSON.stringify(schema, null, 2)}\n`
    assertOutputWithinLimit(Buffer.byteLength(result))
  } else {
    result = await generate(samples, fields, language)
    if (!DECLARATION.test(result)) {
      warnings.add(
        `the ${language} output declares no type: quicktype writes the type of a root that is a scalar, an array or a map of no object only where it is used; put the sample in an object to have its type declared`,
      )
    }
  }
  return { result, language, rootName, warnings: warnings.list() }
}

const USER_SAMPLES = [
  { id: 1, name: 'Ada', email: null, tags: ['x'] },
  { id: 2, name: 'Bob', email: 'b@x.org', tags: [], nick: 'b' },
]

export const jsonTypes = defineOperation({
  name: 'json-types',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Generate types from JSON samples: TypeScript, Zod, Go, Rust, Python, Java, C#, Kotlin, Swift or JSON Schema',
  title: 'JSON to types (quicktype)',
  aliases: [
    'quicktype',
    'typescript',
    'interface',
    'zod',
    'struct',
    'pojo',
    'dataclass',
    'serde',
    'codable',
    'json to typescript',
    'json to ts',
    'typescript interface',
    'json to zod',
    'json to go',
    'json to rust',
    'json to python',
    'json to java',
    'json to c#',
    'json to csharp',
    'json to kotlin',
    'json to swift',
    'json to json schema',
    'generate types',
    'type definitions',
    'infer types',
    'code generation',
  ],
  description:
    'Writes the types a JSON document has, in one of ten languages, with quicktype: TypeScript interfaces, a Zod schema, Go structs, Rust structs (serde), Python dataclasses (written in Python 3.10 syntax, `str | None` and `list[str]`, so the output needs Python 3.10 or newer), Java classes, C# classes, Kotlin data classes, Swift structs, or a JSON Schema. ' +
    '`input` is one sample, a JSON value or its text (a string is read as JSON text, so a string sample is sent as "\\"abc\\""); with `multipleSamples`, `input` is an array whose items are the samples, and every type fits them all: a key missing from some sample is optional, a value that is `null` in some sample is nullable, an integer and a number make a number. ' +
    '`rootName` names the top-level type, spelled as the language spells type names (`user_record` is `UserRecord`; other names come from the keys); a root that is an array or a map of objects names the type of its items, and a root that is a scalar, or an array or map of no object, is declared only where the language has type aliases (a TypeScript scalar, Go, Rust, Kotlin), with a warning when nothing is declared; `packageName` sets the Java or Kotlin package or the C# namespace (identifiers joined by single dots) or the Go package clause (one lower-case identifier, no dots: anything else is refused with 400). ' +
    '`justTypes` (the default) writes the types alone; false adds the helpers quicktype writes to parse and serialise them (a `Convert` class that checks types at run time in TypeScript, Jackson in Java and Kotlin, System.Text.Json in C#, Codable in Swift, `from_dict`/`to_dict` in Python, marshalling functions in Go, a usage comment in Rust); a Zod schema is its own parser, so `zod` changes nothing. ' +
    'Strings stay strings and every key is a property unless asked: `inferDateTimes` types ISO 8601 strings as dates (not in Rust), `inferIntegerStrings` types strings of digits as integers (C# and Python only), `inferEnums` turns a string property into an enum when its values repeat (at least ten values, fewer distinct ones than their square root), each off by default because code that reads the JSON with a plain parser gets strings; `inferMaps` (on) types an object whose keys look like data (ids, dates) as a map rather than a class of those keys. `allOptional` makes every property optional. ' +
    "`jsonSchema` is the same schema json-schema writes with `action: infer` (2020-12, genson's rules, `required` the keys in every sample): `allOptional` leaves `required` out, `inferDateTimes` writes the date-time, date and time formats, and the other options, which only quicktype's languages use, are ignored with a warning. " +
    'Numbers are typed as JavaScript reads JSON: an integer beyond 2^53 sent as a JSON value (which may have lost digits on the way in) is warned of, as is a number literal in JSON text that a double cannot hold exactly; a number beyond the range of a double (`1e400`, which JavaScript reads as Infinity) is still typed as a number: a floating-point one, or a Python `int` for a literal in JSON text of digits alone. A `$ref` in a sample is data, never a reference to fetch. ' +
    `Refused with 422 INVALID_INPUT: JSON text that does not parse (its position, line and column), and with \`multipleSamples\` an input that is not a non-empty array. Refused with 422 LIMIT_EXCEEDED: samples nested deeper than ${MAX_NESTING_DEPTH} levels (checked before quicktype sees them), generated code larger than the 16 MiB output limit, and samples quicktype cannot handle within its stack or the memory a task may use. ` +
    'Every call runs on a worker thread (quicktype is a large library, loaded there on the first call): one that runs past the time budget, which samples of thousands of distinct keys or shapes can (quicktype\'s cost grows faster than their number), is stopped and answered 422 LIMIT_EXCEEDED (`details.reason: "timeout"`), since the same samples would run out again.',
  input: Type.Object(
    {
      input: Type.Unknown({
        description: 'The sample, any JSON value (a string is read as JSON text); with multipleSamples, an array whose items are the samples.',
        examples: [USER_SAMPLES[0]],
      }),
      multipleSamples: withDefault(Type.Boolean({ description: '`input` is an array whose items are the samples, rather than one sample.' }), false),
      language: withDefault(
        Type.Enum(LANGUAGES, {
          description:
            'The language to write: typescript (interfaces), zod, go, rust (serde), python (dataclasses, for Python 3.10 or newer), java, csharp, kotlin, swift (structs) or jsonSchema (2020-12).',
        }),
        'typescript',
      ),
      rootName: withDefault(
        Type.String({ pattern: ROOT_NAME_PATTERN, description: 'The name of the top-level type: a letter, then letters, digits or underscores (at most 64).' }),
        DEFAULT_ROOT_NAME,
      ),
      justTypes: withDefault(
        Type.Boolean({ description: 'Write the types alone; false adds the (de)serialisation helpers quicktype writes for the language.' }),
        true,
      ),
      allOptional: withDefault(Type.Boolean({ description: 'Make every property optional, whatever the samples show.' }), false),
      inferEnums: withDefault(
        Type.Boolean({
          description: 'Turn a string property into an enum when its values repeat (at least ten values, fewer distinct ones than their square root).',
        }),
        false,
      ),
      inferDateTimes: withDefault(
        Type.Boolean({ description: 'Type ISO 8601 date and time strings as dates (not in Rust; date-time, date and time formats in a JSON Schema).' }),
        false,
      ),
      inferIntegerStrings: withDefault(
        Type.Boolean({ description: 'Type strings of digits ("123") as integers, converted by the helpers (C# and Python only).' }),
        false,
      ),
      inferMaps: withDefault(
        Type.Boolean({ description: 'Type an object whose keys look like data rather than names (ids, dates) as a map, rather than a class with those keys.' }),
        true,
      ),
      packageName: Type.Optional(
        Type.String({
          pattern: PACKAGE_NAME_PATTERN,
          maxLength: 128,
          description:
            "The Java or Kotlin package or C# namespace (identifiers joined by single dots: com.example), or the Go package (one lower-case identifier: models); the language's default when left out.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The source text of the types.' }),
    language: Type.Enum(LANGUAGES, { description: 'The language written.' }),
    rootName: Type.String({ description: 'The name of the top-level type.' }),
    warnings: Type.Array(Type.String(), {
      description: 'Integers beyond 2^53 and number literals a double cannot hold exactly, and options that do not apply to the language.',
    }),
  }),
  examples: [
    {
      summary: 'TypeScript from two samples: a key missing from one is optional, a null makes a union',
      input: { input: USER_SAMPLES, multipleSamples: true, rootName: 'User' },
      output: {
        result: 'export interface User {\n    id:    number;\n    name:  string;\n    email: null | string;\n    tags:  string[];\n    nick?: string;\n}\n',
        language: 'typescript',
        rootName: 'User',
        warnings: [],
      },
    },
    {
      summary: 'Go structs from JSON text, each field tagged with its JSON name',
      input: { input: '{"id": 7, "display name": "Ada", "scores": [9.5, 8]}', language: 'go', packageName: 'users' },
      output: {
        result:
          'package users\n\ntype Root struct {\n\tID          int64     `json:"id"`\n\tDisplayName string    `json:"display name"`\n\tScores      []float64 `json:"scores"`\n}\n',
        language: 'go',
        rootName: 'Root',
        warnings: [],
      },
    },
    {
      summary: 'Python dataclasses',
      input: { input: USER_SAMPLES, multipleSamples: true, language: 'python', rootName: 'User' },
      output: {
        result:
          'from dataclasses import dataclass\n\n\n@dataclass\nclass User:\n    id: int\n    name: str\n    tags: list[str]\n    email: str | None = None\n    nick: str | None = None\n',
        language: 'python',
        rootName: 'User',
        warnings: [],
      },
    },
  ],
  // quicktype's cost grows with the variety of the samples more than with their size, and the library is loaded only there.
  offload: () => true,
  overrun: {
    advice:
      'quicktype takes this long over samples of many distinct keys or shapes (an object of thousands of keys with inferMaps off); send fewer or more alike samples, or leave inferMaps on',
  },
  run: (fields) => typesOf(fields),
})
