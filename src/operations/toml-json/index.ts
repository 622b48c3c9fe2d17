import type { TomlDate } from 'smol-toml'
import { Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { assertSafeValue } from '../../core/inspect.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { forEachChild, isLargerThan, lineAndColumn, parseJsonText, setOwn, WarningList } from '../../lib/json/value.ts'

/** smol-toml, loaded with the first conversion (see lazily). */
const smolToml = lazily(() => import('smol-toml'))

/** A date of smol-toml's, told without its class, which is loaded only when needed. */
function isTomlDate(value: unknown): value is TomlDate {
  return value instanceof Date && typeof (value as TomlDate).isDate === 'function'
}

/**
 * Inputs above this many characters (JSON values: string lengths plus a few per node) run on a
 * worker thread: where the conversion costs more than a thread hop, as for csv-json and yaml-json
 * (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const TOML_OFFLOAD_THRESHOLD = 16 * 1024

const ACTIONS = ['tomlToJson', 'jsonToToml'] as const

/** Where, in the service's terms: 1-based line and column, and the UTF-16 position from 0. */
function placeOf(text: string, line: number, column: number) {
  let position = 0
  for (let at = 1; at < line; at++) position = text.indexOf('\n', position) + 1
  return { line, column, position: position + column - 1 }
}

/** A date or time as RFC 3339 text: offset date-times keep their offset, local forms stay local; no `.000` is added. */
function dateText(date: TomlDate): string {
  return date.toISOString().replace(/\.000(?=$|Z|[+-])/, '')
}

/** A parsed TOML value as JSON: dates as text, integers beyond 2^53 and inf/nan as strings with a warning. */
function toJson(value: unknown, path: string, warnings: WarningList): unknown {
  if (isTomlDate(value)) return dateText(value)
  if (typeof value === 'bigint') {
    warnings.add(`${path}: the integer ${value} is beyond 2^53, where JSON numbers lose digits, so it is given as a string`)
    return String(value)
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    const text = Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf'
    warnings.add(`${path}: ${text} has no JSON number, so it is given as the string "${text}"`)
    return text
  }
  if (Array.isArray(value)) return value.map((item, index) => toJson(item, `${path}[${index}]`, warnings))
  if (value !== null && typeof value === 'object') {
    const object: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) setOwn(object, key, toJson(item, `${path}.${key}`, warnings))
    return object
  }
  return value
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const daysIn = (year: number, month: number) => (month === 2 && (year % 4 !== 0 || (year % 100 === 0 && year % 400 !== 0)) ? 28 : DAYS_IN_MONTH[month - 1])
/** A date literal where a value starts: after =, [ or , (a string value would start with a quote). */
const DATE_LITERAL = /(?:^|[=[,])[ \t]*(\d{4})-(\d{2})-(\d{2})/gm

/**
 * smol-toml reads a day its month does not have (2100-02-29) as the next month's (2100-03-01), as
 * JavaScript's Date does: such a document is refused rather than quietly moved. Only looked for when
 * a date early in a month came out, the only dates such a rollover can give.
 */
function assertRealDates(text: string, table: unknown): void {
  if (!hasEarlyDayOfMonth(table)) return
  for (const match of text.matchAll(DATE_LITERAL)) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
    if (month >= 1 && month <= 12 && day > daysIn(year, month)) {
      const position = match.index + match[0].length - 10
      const place = { ...lineAndColumn(text, position), position }
      throw invalidInput(
        `The TOML is not valid at line ${place.line}, column ${place.column}: ${match[0].slice(-10)} is not a date (that month has ${daysIn(year, month)} days)`,
        place,
      )
    }
  }
}

function hasEarlyDayOfMonth(value: unknown): boolean {
  // The day as written (an offset date-time's instant may fall on another day in UTC).
  if (isTomlDate(value)) return (value.isDate() || value.isDateTime()) && Number(dateText(value).slice(8, 10)) <= 3
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasEarlyDayOfMonth)
  return false
}

async function tomlToJson(text: string) {
  const { parse, TomlError } = await smolToml()
  let table: Record<string, unknown>
  try {
    // Inline nesting is bounded while parsing (the parser recurses); table paths are checked below.
    table = parse(text, { integersAsBigInt: 'asNeeded', maxDepth: MAX_NESTING_DEPTH, unsafeKeyBehaviour: 'keep' })
  } catch (error) {
    if (!(error instanceof TomlError)) throw error
    const place = placeOf(text, error.line, error.column)
    const reason = error.message.split('\n')[0].replace(/^Invalid TOML document: /, '')
    if (/excessively nested/.test(reason)) {
      throw limitExceeded(`The TOML nests arrays and inline tables deeper than ${MAX_NESTING_DEPTH} levels (at line ${place.line}, column ${place.column})`, {
        ...place,
        limit: MAX_NESTING_DEPTH,
      })
    }
    throw invalidInput(`The TOML is not valid at line ${place.line}, column ${place.column}: ${reason}`, place)
  }
  assertSafeValue(table, 'input', { checkText: false })
  assertRealDates(text, table)
  const warnings = new WarningList()
  return { result: toJson(table, '$', warnings), action: 'tomlToJson' as const, warnings: warnings.list() }
}

/** TOML has no null: a null anywhere is refused with its path (it cannot be written, and dropping it would lose data). */
function assertNoNull(value: unknown, path: string): void {
  if (value === null) throw invalidInput(`${path} is null, which TOML cannot express; remove it or give it a value`, { path })
  if (typeof value !== 'object') return
  // A path is spelled out only for a null or a container: not for each of many scalars.
  forEachChild(value, (item, key) => {
    if (item === null || typeof item === 'object') assertNoNull(item, typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`)
  })
}

/**
 * An upper bound of the TOML text's length: every table header repeats the whole dotted path of
 * its table, so deep tables under long keys write far more than they read.
 */
function predictTomlSize(root: object): number {
  let size = 0
  // Only tables and arrays wait on the stack: an array of half a million numbers is measured
  // without building anything per element.
  const pending: Array<[container: object, pathLength: number]> = [[root, 0]]
  while (pending.length > 0) {
    const [container, pathLength] = pending.pop()!
    size += 3 * pathLength + 8
    forEachChild(container, (child, key) => {
      size += typeof key === 'number' ? 2 : 6 * key.length + 6
      if (child === null || typeof child !== 'object') size += scalarSize(child)
      else pending.push([child, typeof key === 'number' ? pathLength : pathLength + key.length + 1])
    })
  }
  return size
}

/** The longest a JSON scalar is written in TOML: a string escaped, a number in its shortest form. */
function scalarSize(value: unknown): number {
  if (typeof value === 'string') return 6 * value.length + 2
  if (typeof value === 'number' && Number.isSafeInteger(value)) return `${value}`.length
  return 25
}

async function jsonToToml(input: unknown) {
  const { stringify } = await smolToml()
  const value = typeof input === 'string' ? parseJsonText(input) : input
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('input must be a JSON object for jsonToToml: a TOML document is a table of keys', { field: 'input' })
  }
  assertNoNull(value, '$')
  assertOutputWithinLimit(predictTomlSize(value))
  return { result: stringify(value, { maxDepth: MAX_NESTING_DEPTH + 1 }), action: 'jsonToToml' as const }
}

export const tomlJson = defineOperation({
  name: 'toml-json',
  category: 'converters',
  summary: 'Convert TOML to JSON and JSON to TOML',
  title: 'TOML and JSON',
  aliases: ['toml to json', 'json to toml', 'cargo toml', 'pyproject'],
  description:
    'tomlToJson reads TOML 1.0. Offset date-times, local date-times, local dates and local times come out as RFC 3339 text (`1979-05-27T07:32:00-08:00`, `1979-05-27`, `07:32:00`), ' +
    'fractions of a second truncated to milliseconds as TOML allows. Integers beyond 2^53 come back as strings of their digits, and inf and nan as strings, each with a warning, so no number is quietly rounded. ' +
    'A document that is not TOML is a 422 with its line and column; nesting deeper than 100 levels is a 422 LIMIT_EXCEEDED. ' +
    'jsonToToml writes a JSON object as TOML: nested objects become [tables], arrays of objects [[arrays of tables]]; null, which TOML lacks, is a 422 naming where it is. ' +
    `Inputs over ${TOML_OFFLOAD_THRESHOLD / 1024} KiB run on a worker thread, within the time budget.`,
  input: Type.Object(
    {
      input: Type.Unknown({
        description:
          'tomlToJson: the TOML text (a string). jsonToToml: the JSON object to write; a string is read as JSON text (so {"a":1} may also be sent as "{\\"a\\":1}").',
        examples: ['title = "TOML"\n[owner]\nname = "Tom"\n'],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, { description: 'Read TOML into JSON (`tomlToJson`), or write a JSON object as TOML (`jsonToToml`).' }),
        'tomlToJson',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({ description: 'tomlToJson: the JSON object. jsonToToml: the TOML text.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    warnings: Type.Optional(
      Type.Array(Type.String(), { description: 'tomlToJson: values given as strings because JSON has no number for them (integers beyond 2^53, inf, nan).' }),
    ),
  }),
  actions: {
    tomlToJson: { fields: ['input'] },
    jsonToToml: { fields: ['input'] },
  },
  examples: [
    {
      summary: 'TOML with a table, an offset date-time and an array of tables',
      input: {
        input:
          'title = "TOML Example"\n\n[owner]\nname = "Tom Preston-Werner"\ndob = 1979-05-27T07:32:00-08:00\n\n[[products]]\nname = "Hammer"\nsku = 738594937\n\n[[products]]\nname = "Nail"\nsku = 284758393\n',
      },
      output: {
        result: {
          title: 'TOML Example',
          owner: { name: 'Tom Preston-Werner', dob: '1979-05-27T07:32:00-08:00' },
          products: [
            { name: 'Hammer', sku: 738594937 },
            { name: 'Nail', sku: 284758393 },
          ],
        },
        action: 'tomlToJson',
        warnings: [],
      },
    },
    {
      summary: 'A 64-bit integer is kept as a string, not rounded',
      input: { input: 'max = 9223372036854775807\nsafe = 9007199254740991\n' },
      output: {
        result: { max: '9223372036854775807', safe: 9007199254740991 },
        action: 'tomlToJson',
        warnings: ['$.max: the integer 9223372036854775807 is beyond 2^53, where JSON numbers lose digits, so it is given as a string'],
      },
    },
    {
      summary: 'JSON to TOML',
      input: { input: { title: 'devutils', server: { port: 8080, hosts: ['a', 'b'] }, users: [{ name: 'ada' }, { name: 'grace' }] }, action: 'jsonToToml' },
      output: {
        result: 'title = "devutils"\n\n[server]\nport = 8080\nhosts = [ "a", "b" ]\n\n[[users]]\nname = "ada"\n\n[[users]]\nname = "grace"\n',
        action: 'jsonToToml',
      },
    },
  ],
  offload: ({ input }) => isLargerThan(input, TOML_OFFLOAD_THRESHOLD),
  runsInBrowser: true,
  run({ input, action }) {
    if (action === 'tomlToJson') {
      if (typeof input !== 'string') throw validationError('input', 'must be TOML text (a string) for tomlToJson; JSON values are for jsonToToml')
      return tomlToJson(input)
    }
    return jsonToToml(input)
  },
})
