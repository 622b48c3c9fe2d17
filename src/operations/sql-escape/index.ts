import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { codeUnitPattern, replaceCodeUnits } from '../../lib/text/escape.ts'

/**
 * Inputs longer than this run on a worker thread: escaping is linear, but a longer text full of
 * characters to escape would hold the event loop for tens of milliseconds (docs/PERFORMANCE.md,
 * "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

const DIALECTS = ['ansi', 'mysql', 'postgres', 'sqlite', 'mssql', 'oracle'] as const
const CONTEXTS = ['literal', 'identifier', 'like'] as const
type Dialect = (typeof DIALECTS)[number]
type Context = (typeof CONTEXTS)[number]

const code = (char: string) => char.charCodeAt(0)

/** Standard SQL: inside '…' only the quote itself needs escaping, by doubling it. */
const STANDARD_LITERAL = new Map([[code("'"), "''"]])

/** The MySQL manual's special character escape sequences (String Literals), by the character they stand for. */
const MYSQL_LITERAL = new Map([
  [0x00, '\\0'],
  [code("'"), "\\'"],
  [code('"'), '\\"'],
  [0x08, '\\b'],
  [0x0a, '\\n'],
  [0x0d, '\\r'],
  [0x09, '\\t'],
  [0x1a, '\\Z'],
  [code('\\'), '\\\\'],
])

const IDENTIFIER_DELIMITERS: Record<Dialect, [open: string, close: string]> = {
  ansi: ['"', '"'],
  mysql: ['`', '`'],
  postgres: ['"', '"'],
  sqlite: ['"', '"'],
  mssql: ['[', ']'],
  oracle: ['"', '"'],
}

/** What a LIKE pattern gives a meaning to, besides the escape character: SQL Server also reads `[` as a character set. */
function likeWildcards(dialect: Dialect): string {
  return dialect === 'mssql' ? '%_[' : '%_'
}
const LIKE_ESCAPE = '\\'

/** How each character that needs it is written, for one dialect and context; the others are written as they are. */
function replacementsFor(dialect: Dialect, context: Context): Map<number, string> {
  if (context === 'identifier') {
    const close = IDENTIFIER_DELIMITERS[dialect][1]
    return new Map([[code(close), close + close]])
  }
  const literal = dialect === 'mysql' ? MYSQL_LITERAL : STANDARD_LITERAL
  if (context === 'literal') return literal
  // A LIKE pattern is escaped for LIKE first, then the pattern is written as a literal.
  const inLiteral = (char: string) => literal.get(code(char)) ?? char
  const like = new Map(literal)
  for (const char of likeWildcards(dialect) + LIKE_ESCAPE) like.set(code(char), inLiteral(LIKE_ESCAPE) + inLiteral(char))
  return like
}

/** Why a code unit cannot be written in this dialect and context, or undefined if it can. */
function whyRefused(unit: number, dialect: Dialect, context: Context): string | undefined {
  if (unit === 0) {
    if (dialect === 'postgres') return 'PostgreSQL text cannot hold U+0000'
    if (dialect === 'sqlite') return 'SQLite stops reading a quoted string or name at U+0000; bind such a value as a parameter'
    if (context === 'identifier') return 'a name cannot contain U+0000'
  }
  if (context === 'identifier') {
    if (dialect === 'oracle' && unit === code('"')) return 'Oracle names cannot contain a double quote, even between quotes'
    if (dialect === 'mysql' && unit >= 0xd800 && unit <= 0xdfff) return 'MySQL names cannot contain characters above U+FFFF'
  }
  return undefined
}

/** Every code unit that `whyRefused` may refuse somewhere, so that only these need a closer look. */
const SOMETIMES_REFUSED = /[\u0000"\ud800-\udfff]/g

function assertWritable(text: string, dialect: Dialect, context: Context): void {
  for (const match of text.matchAll(SOMETIMES_REFUSED)) {
    const reason = whyRefused(match[0].charCodeAt(0), dialect, context)
    if (reason === undefined) continue
    const position = match.index
    const codePoint = text.codePointAt(position)!
    const char = codePoint < 0x20 || codePoint > 0xffff ? `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}` : `'${text[position]}'`
    throw invalidInput(`input has ${char} at position ${position}: ${reason}`, { position })
  }
}

export function escapeSql(text: string, dialect: Dialect, context: Context, wrapInQuotes: boolean): string {
  if (context === 'identifier' && text === '')
    throw validationError('input', 'must not be empty when context is identifier, since most databases refuse an empty name')
  assertWritable(text, dialect, context)
  const replacements = replacementsFor(dialect, context)
  const [open, close] = context === 'identifier' ? IDENTIFIER_DELIMITERS[dialect] : wrapInQuotes ? ["'", "'"] : ['', '']
  return replaceCodeUnits(text, codeUnitPattern(replacements.keys()), (unit) => replacements.get(unit)!, open, close)
}

export const sqlEscape = defineOperation({
  name: 'sql-escape',
  category: 'encoders',
  summary: 'Escape text as an SQL string literal, quoted identifier or LIKE pattern',
  title: 'SQL escape',
  aliases: ['sql string', 'sql injection', 'quote identifier', 'like pattern', 'escape quotes'],
  description:
    'Escaping is no substitute for parameterised queries: pass values to the database as bound parameters (`?`, `$1`, `@p`) wherever the driver allows it, ' +
    'and use this operation only where a value must be written into SQL text, such as a generated script or a name that cannot be a parameter. ' +
    '`literal` doubles single quotes; for `mysql` it uses the backslash escapes of the MySQL manual instead (`\\0 \\\' \\" \\b \\n \\r \\t \\Z \\\\`), which assumes the default sql_mode ' +
    '(not NO_BACKSLASH_ESCAPES) and a utf8mb4 connection; for `postgres` it assumes standard_conforming_strings = on (the default since 9.1), where a backslash is an ordinary character. ' +
    '`identifier` doubles the closing delimiter and always delimits the name, whatever `wrapInQuotes` says, because an escaped name is only safe between its delimiters: ' +
    '`"…"` (ansi, postgres, sqlite, oracle), `` `…` `` (mysql), `[…]` (mssql). ' +
    "`like` escapes `%`, `_` and the escape character `\\` with `\\` (for mssql also `[`), then writes the pattern as a literal; use it with `ESCAPE '\\'`, which ansi, sqlite, mssql and oracle need " +
    "because they have no default escape character; postgres and mysql use `\\` by default, so the clause is optional there (mysql writes it `ESCAPE '\\\\'`). " +
    'Refused with 422 and the position: U+0000 for postgres (text cannot hold it) and sqlite (it ends the SQL text), U+0000 in any name, a double quote in an oracle name, ' +
    'and a character above U+FFFF in a mysql name; an empty name is a 400. Identifier length limits are not checked.',
  input: Type.Object(
    {
      input: Type.String({
        description: 'The text to escape: a value for a string literal or LIKE pattern, or a name for an identifier. May be empty except as an identifier.',
        examples: ["O'Reilly"],
      }),
      dialect: withDefault(
        Type.Enum(DIALECTS, {
          description: 'The SQL dialect: `ansi` (standard SQL), `mysql` (also MariaDB), `postgres`, `sqlite`, `mssql` (SQL Server) or `oracle`.',
        }),
        'ansi',
      ),
      context: withDefault(
        Type.Enum(CONTEXTS, {
          description:
            "Where the text goes: `literal` (a string between single quotes), `identifier` (a table or column name), or `like` (a LIKE pattern that matches the text literally, for use with `ESCAPE '\\'`).",
        }),
        'literal',
      ),
      wrapInQuotes: withDefault(
        Type.Boolean({
          description:
            'For `literal` and `like`: put the single quotes around the result, giving a complete SQL literal. Identifiers are always delimited, so this field does not change them.',
        }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The escaped text: a literal body (or whole literal with wrapInQuotes), a delimited identifier, or a LIKE pattern.' }),
    dialect: Type.Enum(DIALECTS, { description: 'The dialect used.' }),
    context: Type.Enum(CONTEXTS, { description: 'The context used.' }),
  }),
  examples: [
    {
      summary: 'An injection attempt becomes a plain literal',
      input: { input: "' OR '1'='1", wrapInQuotes: true },
      output: { result: "''' OR ''1''=''1'", dialect: 'ansi', context: 'literal' },
    },
    {
      summary: 'MySQL backslash escapes',
      input: { input: 'It\'s "ok"\n', dialect: 'mysql' },
      output: { result: 'It\\\'s \\"ok\\"\\n', dialect: 'mysql', context: 'literal' },
    },
    {
      summary: 'A SQL Server identifier',
      input: { input: 'order]details', dialect: 'mssql', context: 'identifier' },
      output: { result: '[order]]details]', dialect: 'mssql', context: 'identifier' },
    },
    {
      summary: "A LIKE pattern for ESCAPE '\\'",
      input: { input: "50%_off 'now'", dialect: 'sqlite', context: 'like', wrapInQuotes: true },
      output: { result: "'50\\%\\_off ''now'''", dialect: 'sqlite', context: 'like' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  runsInBrowser: true,
  run({ input, dialect, context, wrapInQuotes }) {
    return { result: escapeSql(input, dialect, context, wrapInQuotes), dialect, context }
  },
})
