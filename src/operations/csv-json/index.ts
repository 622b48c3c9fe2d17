import { Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { jsonStringSize } from '../../lib/json/string-literal.ts'
import { isLargerThan, lineAndColumn, parseJsonText, setOwn, WarningList } from '../../lib/json/value.ts'
import { utf8Length } from '../../lib/text/utf8-length.ts'

/**
 * Inputs above this many characters (JSON values: string lengths plus a few per node) run on a
 * worker thread; below the line a thread hop would cost more than it saves (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const CSV_OFFLOAD_THRESHOLD = 64 * 1024
/**
 * csvToJson with relaxColumnCount pads every short row to the header's width, so its output grows
 * with the header's length times the rows' count, the square of a short input's: such inputs run on
 * a worker thread from this many characters.
 */
export const RELAXED_CSV_OFFLOAD_THRESHOLD = 1024
/**
 * jsonToCsv writes a field for every column in every row of objects, so sparse rows make an output
 * that grows with the square of the input's size: such inputs (with `columns`) run on a worker thread
 * from this size, measured as CSV_OFFLOAD_THRESHOLD is.
 */
export const JSON_TO_CSV_OFFLOAD_THRESHOLD = 2 * 1024

const DELIMITERS = [',', ';', '\t', '|'] as const
type Delimiter = (typeof DELIMITERS)[number]
/** jsonToCsv's line endings, by the names the schema publishes. */
const LINE_ENDINGS = { crlf: '\r\n', lf: '\n' } as const
type LineEndingName = keyof typeof LINE_ENDINGS
type LineEnding = (typeof LINE_ENDINGS)[LineEndingName]
/**
 * The most fields one record may have: far past any spreadsheet's columns (16,384), while a header
 * of a mebibyte of commas, a million names each made unique, would fill a worker thread's heap.
 */
export const MAX_FIELDS_PER_RECORD = 100_000
/** The key that holds a row's fields beyond the header's (relaxColumnCount). */
const EXTRA_KEY = '_extra'

interface Records {
  records: string[][]
  /** The line (1-based) on which each record starts. */
  lines: number[]
}

/**
 * Reads RFC 4180 CSV: quoted fields may hold the delimiter, doubled quotes and line breaks; records
 * end with CRLF, LF or a lone CR (each record may use its own); a final line break is optional. A
 * quote inside an unquoted field is kept as a character. A quoted field must be closed and followed
 * by the delimiter or the end of its line; otherwise the answer is a 422 with the line and column.
 * Linear in the input. `maxRecords` stops early (used to guess the delimiter).
 */
function readRecords(text: string, delimiter: Delimiter, skipEmptyLines: boolean, maxRecords = Infinity): Records {
  const records: string[][] = []
  const lines: number[] = []
  const delimiterCode = delimiter.charCodeAt(0)
  const length = text.length
  let i = 0
  let line = 1
  while (i < length && records.length < maxRecords) {
    const recordLine = line
    const fields: string[] = []
    let firstQuoted = false
    for (;;) {
      let value: string
      if (text.charCodeAt(i) === 0x22) {
        if (fields.length === 0) firstQuoted = true
        const open = i
        value = ''
        let from = i + 1
        for (;;) {
          const quote = text.indexOf('"', from)
          if (quote === -1) {
            const { line: openLine, column } = lineAndColumn(text, open)
            throw invalidInput(
              `The quoted field that starts at line ${openLine}, column ${column} is never closed; a quote inside a quoted field is written as two quotes ("")`,
              {
                line: openLine,
                column,
              },
            )
          }
          value += text.slice(from, quote)
          if (text.charCodeAt(quote + 1) === 0x22) {
            value += '"'
            from = quote + 2
            continue
          }
          line += countLineBreaks(text, open, quote)
          i = quote + 1
          break
        }
        const next = text.charCodeAt(i)
        if (i < length && next !== delimiterCode && next !== 0x0d && next !== 0x0a) {
          const { line: atLine, column } = lineAndColumn(text, i)
          throw invalidInput(
            `A quoted field is followed by '${text[i]}' at line ${atLine}, column ${column}; after its closing quote only the delimiter or the end of the line may come (a quote inside a field is written as two quotes, "")`,
            { line: atLine, column },
          )
        }
      } else {
        const start = i
        for (let code = text.charCodeAt(i); i < length && code !== delimiterCode && code !== 0x0d && code !== 0x0a; code = text.charCodeAt(++i));
        value = text.slice(start, i)
      }
      fields.push(value)
      if (fields.length > MAX_FIELDS_PER_RECORD) {
        throw limitExceeded(`The record at line ${recordLine} has more than ${MAX_FIELDS_PER_RECORD.toLocaleString('en-US')} fields`, {
          line: recordLine,
          limit: MAX_FIELDS_PER_RECORD,
        })
      }
      if (i < length && text.charCodeAt(i) === delimiterCode) {
        i++
        continue
      }
      if (text.charCodeAt(i) === 0x0d) i++
      if (text.charCodeAt(i) === 0x0a) i++
      line++
      break
    }
    const blank = fields.length === 1 && !firstQuoted && /^[ \t]*$/.test(fields[0])
    if (blank && skipEmptyLines) continue
    records.push(fields)
    lines.push(recordLine)
  }
  return { records, lines }
}

function countLineBreaks(text: string, from: number, to: number): number {
  let count = 0
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) count++
  }
  return count
}

/**
 * Picks the candidate that splits the first ten records into the same number of fields, more than
 * one; among several, the one giving the most fields, then the first in `, ; \t |` order. Quotes are
 * respected, so a delimiter inside a quoted field does not count. Without a clear winner: a comma.
 */
function guessDelimiter(text: string): Delimiter {
  let best: { delimiter: Delimiter; consistent: boolean; fields: number } | undefined
  for (const delimiter of DELIMITERS) {
    let sample: string[][]
    try {
      sample = readRecords(text, delimiter, true, 10).records
    } catch {
      continue
    }
    if (sample.length === 0 || sample[0].length < 2) continue
    const fields = sample[0].length
    const consistent = sample.every((record) => record.length === fields)
    if (!best || (consistent && !best.consistent) || (consistent === best.consistent && fields > best.fields)) best = { delimiter, consistent, fields }
  }
  return best?.delimiter ?? ','
}

/** Renames repeated header names to name_2, name_3… without taking a name that appears later. */
function uniqueNames(header: string[], reserved: string[], warnings: WarningList): string[] {
  const taken = new Set<string>(reserved)
  const original = new Set(header)
  const nextSuffix = new Map<string, number>()
  const names = header.map((name, index) => {
    if (!taken.has(name)) {
      taken.add(name)
      return name
    }
    let suffix = nextSuffix.get(name) ?? 2
    while (taken.has(`${name}_${suffix}`) || original.has(`${name}_${suffix}`)) suffix++
    nextSuffix.set(name, suffix + 1)
    const unique = `${name}_${suffix}`
    taken.add(unique)
    warnings.add(`Column ${index + 1} repeats the name '${name}' and was renamed '${unique}'`)
    return unique
  })
  return names
}

const NUMBER = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/
const BOOLEANS: Record<string, boolean> = { true: true, True: true, TRUE: true, false: false, False: false, FALSE: false }

/**
 * dynamicTyping: empty → null, true/false (any of three casings) → booleans, and numbers written as
 * JSON writes them that a double holds exactly enough: integers within ±(2^53−1), and decimals
 * with at most 15 significant digits. Leading zeros (007), `0x…`, `+1`, `-0`, `1_000`, integers
 * beyond 2^53 and anything else stay strings, so no value is silently changed.
 */
function typedValue(cell: string): unknown {
  if (cell === '') return null
  const boolean = BOOLEANS[cell]
  if (boolean !== undefined) return boolean
  const number = NUMBER.exec(cell)
  if (!number) return cell
  const value = Number(cell)
  if (value === 0 && cell.startsWith('-')) return cell
  if (number[1] === undefined && number[2] === undefined) return Number.isSafeInteger(value) ? value : cell
  const significant = cell
    .replace(/[eE].*$/, '')
    .replace(/[-.]/g, '')
    .replace(/^0+/, '')
    .replace(/0+$/, '')
  return Number.isFinite(value) && significant.length <= 15 ? value : cell
}

/** Predicts the JSON size of the rows before they are built: keys repeat on every row. */
function predictJsonSize(text: string, records: string[][], firstRow: number, names: string[] | undefined, columns: number): number {
  const keysSize = names ? names.reduce((sum, name) => sum + jsonStringSize(name) + 1, 0) + EXTRA_KEY.length + 5 : 0
  let size = utf8Length(text) - text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x22 || code === 0x5c) size += 5
  }
  for (let r = firstRow; r < records.length; r++) {
    const record = records[r]
    size += 3 + keysSize + 5 * Math.max(0, columns - record.length)
    for (const cell of record) size += cell.length === 0 ? 5 : cell.length + 3
    if (size > OUTPUT_LIMIT_BYTES) break
  }
  return size
}

interface CsvToJsonOptions {
  delimiter: Delimiter | 'auto'
  header: boolean
  dynamicTyping: boolean
  skipEmptyLines: boolean
  relaxColumnCount: boolean
}

function csvToJson(input: string, options: CsvToJsonOptions) {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  const delimiter = options.delimiter === 'auto' ? guessDelimiter(text) : options.delimiter
  const { records, lines } = readRecords(text, delimiter, options.skipEmptyLines)
  const warnings = new WarningList()
  const names = options.header && records.length > 0 ? uniqueNames(records[0], options.relaxColumnCount ? [EXTRA_KEY] : [], warnings) : undefined
  const firstRow = options.header ? 1 : 0
  const columns = names?.length ?? records[0]?.length ?? 0
  assertOutputWithinLimit(predictJsonSize(text, records, firstRow, names, columns))

  const convert = options.dynamicTyping ? typedValue : (cell: string) => cell
  const result: unknown[] = []
  for (let r = firstRow; r < records.length; r++) {
    const record = records[r]
    if (record.length !== columns && !options.relaxColumnCount) {
      const row = r - firstRow + 1
      throw invalidInput(
        `Row ${row} (line ${lines[r]}) has ${record.length} field${record.length === 1 ? '' : 's'} but ${names ? 'the header has' : 'the first row has'} ${columns}; set relaxColumnCount to accept rows of other lengths`,
        { row, line: lines[r], fields: record.length, expected: columns },
      )
    }
    if (!names) {
      const values = record.map(convert)
      while (values.length < columns) values.push(null)
      result.push(values)
      continue
    }
    const object: Record<string, unknown> = {}
    for (let c = 0; c < columns; c++) setOwn(object, names[c], c < record.length ? convert(record[c]) : null)
    if (record.length > columns) object[EXTRA_KEY] = record.slice(columns).map(convert)
    result.push(object)
  }
  return { result, action: 'csvToJson' as const, rows: result.length, columns: names ?? [], delimiter, warnings: warnings.list() }
}

interface JsonToCsvOptions {
  delimiter: Delimiter
  header: boolean
  columns: string[] | undefined
  newline: LineEnding
  quoteAll: boolean
  escapeFormulae: boolean
}

/** A row's field, or a header name, as CSV text: nested values as JSON text, null as nothing. */
function cellText(value: unknown): { text: string; isString: boolean } {
  if (value === null || value === undefined) return { text: '', isString: false }
  if (typeof value === 'string') return { text: value, isString: true }
  if (typeof value === 'object') return { text: JSON.stringify(value), isString: false }
  return { text: String(value), isString: false }
}

const FORMULA_START = /^[=+\-@\t\r]/

/**
 * Fields are quoted when they hold the delimiter, a quote or a line break, as RFC 4180 requires, and
 * also when they hold any other delimiter that csvToJson's `auto` could pick (`, ; \t |`), start with
 * a byte-order mark, or begin or end with a space, so that any reader gets them back unchanged. A
 * lone empty field on its line is written `""`, since an empty line would be skipped on reading.
 */
function writeField(value: unknown, options: JsonToCsvOptions, aloneOnLine: boolean): string {
  let { text, isString } = cellText(value)
  if (options.escapeFormulae && isString && FORMULA_START.test(text)) text = `'${text}`
  const quote =
    options.quoteAll ||
    (aloneOnLine && text === '') ||
    /[",;\t|\r\n]/.test(text) ||
    text.includes(options.delimiter) ||
    text.charCodeAt(0) === 0xfeff ||
    text.startsWith(' ') ||
    text.endsWith(' ')
  return quote ? `"${text.replaceAll('"', '""')}"` : text
}

function jsonToCsv(input: unknown, options: JsonToCsvOptions) {
  const rows = typeof input === 'string' ? parseJsonText(input) : input
  if (!Array.isArray(rows)) throw invalidInput('input must hold a JSON array of rows (objects or arrays)', { field: 'input' })
  let kind: 'object' | 'array' | undefined
  for (let index = 0; index < rows.length; index++) {
    const row: unknown = rows[index]
    const rowKind = Array.isArray(row) ? 'array' : row !== null && typeof row === 'object' ? 'object' : undefined
    if (rowKind === undefined || (kind !== undefined && rowKind !== kind)) {
      throw invalidInput(
        `Row ${index + 1} is ${describeJson(row)}, but every row must be ${kind === undefined ? 'an object or an array' : kind === 'object' ? 'an object like the first row' : 'an array like the first row'}`,
        { row: index + 1 },
      )
    }
    kind = rowKind
  }

  let columns = options.columns
  if (columns === undefined && kind === 'object') {
    const seen = new Set<string>()
    for (const row of rows as Array<Record<string, unknown>>) for (const key of Object.keys(row)) seen.add(key)
    columns = [...seen]
  }
  columns ??= []

  const lines: string[] = []
  let size = 0
  const addLine = (fields: unknown[]) => {
    const line = fields.map((field) => writeField(field, options, fields.length === 1)).join(options.delimiter)
    size += line.length + options.newline.length
    if (size > OUTPUT_LIMIT_BYTES) {
      throw limitExceeded(`The CSV would be more than the ${OUTPUT_LIMIT_BYTES}-byte output limit`, { limit: OUTPUT_LIMIT_BYTES })
    }
    lines.push(line)
  }
  // Every row writes a field per column: refuse a sparse input whose columns alone pass the limit.
  assertOutputWithinLimit((rows.length + 1) * columns.length)
  if (options.header && columns.length > 0) addLine(columns)
  for (const row of rows as unknown[]) {
    addLine(Array.isArray(row) ? row : columns.map((column) => (Object.hasOwn(row as object, column) ? (row as Record<string, unknown>)[column] : null)))
  }
  const result = lines.length > 0 ? lines.join(options.newline) + options.newline : ''
  return { result, action: 'jsonToCsv' as const, rows: rows.length, columns }
}

function describeJson(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return 'a string'
  if (typeof value === 'number') return 'a number'
  if (typeof value === 'boolean') return 'a boolean'
  return Array.isArray(value) ? 'an array' : 'an object'
}

export const csvJson = defineOperation({
  name: 'csv-json',
  category: 'converters',
  summary: 'Convert CSV to JSON and JSON to CSV',
  title: 'CSV and JSON',
  aliases: ['csv to json', 'json to csv', 'spreadsheet', 'comma separated', 'tsv', 'table'],
  description:
    'csvToJson reads RFC 4180 CSV (quoted fields with delimiters, doubled quotes and line breaks; CRLF, LF or CR line ends; a byte-order mark is dropped) into an array of objects keyed by the header row, or of arrays. ' +
    'The delimiter is detected from the first rows unless given. Repeated header names become name_2, name_3… with a warning; `__proto__` and `constructor` are ordinary keys. ' +
    'A row with a different number of fields than the header is a 422 naming the row and line unless `relaxColumnCount` is set; an unclosed quote is a 422 with its line. ' +
    `A record of more than ${MAX_FIELDS_PER_RECORD.toLocaleString('en-US')} fields is a 422 LIMIT_EXCEEDED with its line. ` +
    'jsonToCsv writes an array of objects (columns: every key, in first-seen order across all rows, or `columns`) or of arrays as CSV, nested values as JSON text and null as an empty field. ' +
    'csvToJson(jsonToCsv(x)) gives back x for rows of string values. Results over 16 MiB are refused (422 LIMIT_EXCEEDED) before they are built. ' +
    `Inputs over ${CSV_OFFLOAD_THRESHOLD / 1024} KiB, csvToJson with \`relaxColumnCount\` over ${RELAXED_CSV_OFFLOAD_THRESHOLD / 1024} KiB and jsonToCsv over ${JSON_TO_CSV_OFFLOAD_THRESHOLD / 1024} KiB (whose outputs can grow with the square of the input) run on a worker thread, off the event loop, within the time budget (503 TIMEOUT past it).`,
  input: Type.Object(
    {
      // Plain JSON Schema rather than Type.Union and Type.Object: TypeBox's defaulting rebuilds such
      // values and drops their `prototype`, `constructor` and `__proto__` keys, which are data here.
      input: Type.Unsafe<string | Array<Record<string, unknown> | unknown[]>>({
        anyOf: [
          { type: 'string' },
          {
            type: 'array',
            items: {
              anyOf: [
                { type: 'object', additionalProperties: true },
                { type: 'array', items: true },
              ],
            },
          },
        ],
        description: 'csvToJson: the CSV text. jsonToCsv: an array of rows, all objects or all arrays, or JSON text holding such an array.',
        examples: ['name,age\nAda,36'],
      }),
      action: withDefault(
        Type.Enum(['csvToJson', 'jsonToCsv'], { description: 'Read CSV into JSON (`csvToJson`), or write JSON rows as CSV (`jsonToCsv`).' }),
        'csvToJson',
      ),
      delimiter: Type.Optional(
        Type.Enum(['auto', ...DELIMITERS], {
          description:
            'The field delimiter. csvToJson: `auto` (the default) detects `,` `;` tab or `|` from the first rows. jsonToCsv: one of `,` (the default) `;` tab `|`.',
        }),
      ),
      header: withDefault(
        Type.Boolean({
          description:
            'csvToJson: the first row names the columns and rows become objects (false: rows become arrays). jsonToCsv: write the column names as the first line.',
        }),
        true,
      ),
      dynamicTyping: withDefault(
        Type.Boolean({
          description:
            'csvToJson: turn empty fields into null, true/false into booleans and plain numbers into numbers; leading zeros, 0x…, +1, -0 and integers beyond 2^53 stay strings.',
        }),
        false,
      ),
      skipEmptyLines: withDefault(Type.Boolean({ description: 'csvToJson: skip lines that are empty or hold only spaces and tabs.' }), true),
      relaxColumnCount: withDefault(
        Type.Boolean({
          description: `csvToJson: accept rows with fewer fields than the header (the missing ones are null) or more (the extra ones go, as an array, to \`${EXTRA_KEY}\`; with header false they stay at the end of the row).`,
        }),
        false,
      ),
      columns: Type.Optional(
        Type.Array(Type.String(), {
          uniqueItems: true,
          description:
            'jsonToCsv: the columns to write, in this order (keys missing from a row give empty fields). Default: every key, in first-seen order across all rows. For rows that are arrays, the names of the header line.',
        }),
      ),
      newline: withDefault(
        Type.Union(
          [
            Type.Enum(Object.keys(LINE_ENDINGS) as LineEndingName[]),
            // The characters themselves are taken too, published as a pattern rather than as enum
            // values: code generators make names of enum values, and a raw line break breaks their output.
            Type.Unsafe<LineEnding>(Type.String({ pattern: '^\\r?\\n$', description: 'the line ending itself ("\\r\\n" or "\\n")' })),
          ],
          {
            description: 'jsonToCsv: the line ending, `crlf` (CR LF, as RFC 4180 says) or `lf`. The characters themselves, "\\r\\n" or "\\n", are taken too.',
          },
        ),
        'crlf',
      ),
      quoteAll: withDefault(Type.Boolean({ description: 'jsonToCsv: quote every field, not only those that need it.' }), false),
      escapeFormulae: withDefault(
        Type.Boolean({
          description:
            "jsonToCsv: prefix string fields that start with = + - @ tab or CR with ' so that spreadsheets do not run them as formulas (CSV injection).",
        }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.Array(Type.Unknown()), Type.String()], { description: 'csvToJson: the rows (objects or arrays). jsonToCsv: the CSV text.' }),
    action: Type.Enum(['csvToJson', 'jsonToCsv'], { description: 'The action performed.' }),
    rows: Type.Integer({ description: 'The number of data rows (the header line not counted).' }),
    columns: Type.Array(Type.String(), { description: 'The column names, in order (empty when rows are arrays without names).' }),
    delimiter: Type.Optional(Type.String({ description: 'csvToJson: the delimiter used (detected or given).' })),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'csvToJson: what was changed on the way, such as renamed repeated column names.' })),
  }),
  actions: {
    csvToJson: { fields: ['input', 'delimiter', 'header', 'dynamicTyping', 'skipEmptyLines', 'relaxColumnCount'] },
    jsonToCsv: { fields: ['input', 'delimiter', 'header', 'columns', 'newline', 'quoteAll', 'escapeFormulae'] },
  },
  examples: [
    {
      summary: 'CSV with a header to objects',
      input: { input: 'name,age\r\nAda,36\r\n"Hopper, Grace",85\r\n' },
      output: {
        result: [
          { name: 'Ada', age: '36' },
          { name: 'Hopper, Grace', age: '85' },
        ],
        action: 'csvToJson',
        rows: 2,
        columns: ['name', 'age'],
        delimiter: ',',
        warnings: [],
      },
    },
    {
      summary: 'Semicolons detected, with typed values',
      input: { input: 'id;zip;active\n1;007;true\n2;;false', dynamicTyping: true },
      output: {
        result: [
          { id: 1, zip: '007', active: true },
          { id: 2, zip: null, active: false },
        ],
        action: 'csvToJson',
        rows: 2,
        columns: ['id', 'zip', 'active'],
        delimiter: ';',
        warnings: [],
      },
    },
    {
      summary: 'Objects to CSV',
      input: {
        input: [
          { name: 'Ada', langs: ['en', 'fr'] },
          { name: 'Grace', note: 'said "hi"' },
        ],
        action: 'jsonToCsv',
      },
      output: {
        result: 'name,langs,note\r\nAda,"[""en"",""fr""]",\r\nGrace,,"said ""hi"""\r\n',
        action: 'jsonToCsv',
        rows: 2,
        columns: ['name', 'langs', 'note'],
      },
    },
    {
      summary: 'Arrays to CSV with a header line and LF line ends',
      input: {
        input: [
          ['Ada', 36],
          ['Grace', 85],
        ],
        action: 'jsonToCsv',
        columns: ['name', 'age'],
        newline: 'lf',
      },
      output: { result: 'name,age\nAda,36\nGrace,85\n', action: 'jsonToCsv', rows: 2, columns: ['name', 'age'] },
    },
  ],
  offload: ({ input, action, relaxColumnCount, columns }) =>
    action === 'csvToJson'
      ? isLargerThan(input, relaxColumnCount ? RELAXED_CSV_OFFLOAD_THRESHOLD : CSV_OFFLOAD_THRESHOLD)
      : isLargerThan([input, columns], JSON_TO_CSV_OFFLOAD_THRESHOLD),
  runsInBrowser: true,
  run({ input, action, delimiter, header, dynamicTyping, skipEmptyLines, relaxColumnCount, columns, newline, quoteAll, escapeFormulae }) {
    if (action === 'csvToJson') {
      if (typeof input !== 'string') throw validationError('input', 'must be CSV text (a string) for csvToJson; arrays are for jsonToCsv')
      return csvToJson(input, { delimiter: delimiter ?? 'auto', header, dynamicTyping, skipEmptyLines, relaxColumnCount })
    }
    if (delimiter === 'auto') throw validationError('delimiter', 'auto only applies to csvToJson; jsonToCsv writes , ; tab or |')
    const lineEnding = Object.hasOwn(LINE_ENDINGS, newline) ? LINE_ENDINGS[newline as LineEndingName] : (newline as LineEnding)
    return jsonToCsv(input, { delimiter: delimiter ?? ',', header, columns, newline: lineEnding, quoteAll, escapeFormulae })
  },
})
