import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { OFFLOAD_LENGTH, sqlEscape } from './index.ts'

const DIALECTS = ['ansi', 'mysql', 'postgres', 'sqlite', 'mssql', 'oracle'] as const
type Dialect = (typeof DIALECTS)[number]
type Context = 'literal' | 'identifier' | 'like'

const run = (input: Record<string, unknown>) => execute(sqlEscape, input, { timeBudgetMs: 60_000 })
const escaped = async (input: string, dialect: Dialect, context: Context, wrapInQuotes = false) =>
  (await run({ input, dialect, context, wrapInQuotes })).result as string
const refuses = (input: string, dialect: Dialect, context: Context, position: number, pattern: RegExp) =>
  expectRefusal(run({ input, dialect, context }), { code: 'INVALID_INPUT', position, message: pattern })

/** MySQL's escape sequences as its parser reads them; `\%` and `\_` keep their backslash for LIKE. */
const MYSQL_SEQUENCES: Record<string, string> = {
  '0': '\0',
  "'": "'",
  '"': '"',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
  '\\': '\\',
  '%': '\\%',
  _: '\\_',
}

/** Reads a quoted token at the start of `sql` as a parser would; `end` says where the token stops. */
function readQuoted(sql: string, open: string, close: string, backslashEscapes = false): { value: string; end: number } {
  assert.equal(sql[0], open, `${sql} starts with ${open}`)
  let value = ''
  for (let i = 1; i < sql.length; i++) {
    if (sql[i] === close) {
      if (sql[i + 1] !== close) return { value, end: i + 1 }
      value += close
      i++
    } else if (backslashEscapes && sql[i] === '\\') {
      value += MYSQL_SEQUENCES[sql[i + 1]] ?? sql[i + 1]
      i++
    } else {
      value += sql[i]
    }
  }
  throw new Error(`${sql} is not terminated`)
}

const readLiteral = (sql: string, dialect: Dialect) => readQuoted(sql, "'", "'", dialect === 'mysql')

/** The text a LIKE pattern with ESCAPE '\' matches literally; an unescaped wildcard fails the test. */
function likeText(pattern: string, dialect: Dialect): string {
  const wildcards = dialect === 'mssql' ? '%_[' : '%_'
  let text = ''
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') text += pattern[++i]
    else if (wildcards.includes(pattern[i])) assert.fail(`unescaped wildcard ${pattern[i]} at ${i} in ${pattern}`)
    else text += pattern[i]
  }
  return text
}

const DELIMITERS: Record<Dialect, [string, string]> = {
  ansi: ['"', '"'],
  mysql: ['`', '`'],
  postgres: ['"', '"'],
  sqlite: ['"', '"'],
  mssql: ['[', ']'],
  oracle: ['"', '"'],
}

/** Reads the output back as the dialect would and checks it is one whole token standing for `original`. */
function assertReadsBack(output: string, original: string, dialect: Dialect, context: Context): void {
  const token = context === 'identifier' ? readQuoted(output, ...DELIMITERS[dialect]) : readLiteral(output, dialect)
  assert.equal(token.end, output.length, `${output} is one token`)
  assert.equal(context === 'like' ? likeText(token.value, dialect) : token.value, original)
}

const SAMPLE = 'O\'Re"il\\ly 5%_[x]\n'
const STANDARD_LITERAL = "O''Re\"il\\ly 5%_[x]\n"
const STANDARD_LIKE = "O''Re\"il\\\\ly 5\\%\\_[x]\n"
const EXPECTED: Record<Dialect, Record<Context, string | null>> = {
  ansi: { literal: STANDARD_LITERAL, like: STANDARD_LIKE, identifier: '"O\'Re""il\\ly 5%_[x]\n"' },
  postgres: { literal: STANDARD_LITERAL, like: STANDARD_LIKE, identifier: '"O\'Re""il\\ly 5%_[x]\n"' },
  sqlite: { literal: STANDARD_LITERAL, like: STANDARD_LIKE, identifier: '"O\'Re""il\\ly 5%_[x]\n"' },
  oracle: { literal: STANDARD_LITERAL, like: STANDARD_LIKE, identifier: null },
  mssql: { literal: STANDARD_LITERAL, like: "O''Re\"il\\\\ly 5\\%\\_\\[x]\n", identifier: '[O\'Re"il\\ly 5%_[x]]\n]' },
  mysql: { literal: String.raw`O\'Re\"il\\ly 5%_[x]\n`, like: String.raw`O\'Re\"il\\\\ly 5\\%\\_[x]\n`, identifier: '`O\'Re"il\\ly 5%_[x]\n`' },
}

const INJECTION = "' OR '1'='1"

describe('sql-escape', () => {
  test('answers result, dialect, context with the defaults ansi and literal', async () => {
    const data = await run({ input: "it's" })
    assert.deepEqual(Object.keys(data), ['result', 'dialect', 'context'])
    assert.deepEqual(data, { result: "it''s", dialect: 'ansi', context: 'literal' })
  })

  for (const dialect of DIALECTS) {
    for (const context of ['literal', 'like', 'identifier'] as const) {
      const expected = EXPECTED[dialect][context]
      if (expected === null) continue
      test(`${dialect} ${context}: quotes, backslashes, wildcards and a line break`, async () => {
        assert.equal(await escaped(SAMPLE, dialect, context), expected)
        const wrapped = await escaped(SAMPLE, dialect, context, true)
        assert.equal(wrapped, context === 'identifier' ? expected : `'${expected}'`)
        assertReadsBack(wrapped, SAMPLE, dialect, context)
      })
    }

    test(`${dialect}: the classic injection string stays inside one literal`, async () => {
      for (const context of ['literal', 'like'] as const) {
        const wrapped = await escaped(INJECTION, dialect, context, true)
        assertReadsBack(wrapped, INJECTION, dialect, context)
      }
      const name = `x${DELIMITERS[dialect][1]}; DROP TABLE t; --`
      // Oracle refuses a double quote in a name outright (tested below).
      if (dialect !== 'oracle') assertReadsBack(await escaped(name, dialect, 'identifier'), name, dialect, 'identifier')
    })
  }

  test('oracle names refuse a double quote, which no Oracle name can hold', async () => {
    assert.equal(await escaped("O'Re il", 'oracle', 'identifier'), '"O\'Re il"')
    await refuses('a"b', 'oracle', 'identifier', 1, /Oracle names cannot contain a double quote/)
  })

  test('mysql: every escape sequence of the manual, and control characters it does not list stay raw', async () => {
    assert.equal(await escaped('\0\'"\b\n\r\t\x1a\\', 'mysql', 'literal'), String.raw`\0\'\"\b\n\r\t\Z\\`)
    assert.equal(await escaped('\x01\f\x7f%_', 'mysql', 'literal'), '\x01\f\x7f%_')
    assert.equal(await escaped('a\0b', 'mysql', 'like', true), String.raw`'a\0b'`)
  })

  test('NUL: refused with its position for postgres and sqlite, and in every name', async () => {
    for (const context of ['literal', 'like', 'identifier'] as const) {
      await refuses('ab\0c', 'postgres', context, 2, /U\+0000 at position 2.*PostgreSQL text cannot hold/)
      await refuses('ab\0c', 'sqlite', context, 2, /U\+0000 at position 2.*SQLite/)
    }
    for (const dialect of ['ansi', 'mysql', 'mssql', 'oracle'] as const) await refuses('\0', dialect, 'identifier', 0, /name cannot contain U\+0000/)
    for (const dialect of ['ansi', 'mssql', 'oracle'] as const) assert.equal(await escaped("a\0'", dialect, 'literal'), "a\0''")
  })

  test('mysql names refuse characters above U+FFFF; literals keep them', async () => {
    await refuses('ab😀', 'mysql', 'identifier', 2, /U\+1F600 at position 2.*above U\+FFFF/)
    assert.equal(await escaped('ab😀', 'mysql', 'literal'), 'ab😀')
    assert.equal(await escaped('ab😀', 'postgres', 'identifier'), '"ab😀"')
  })

  test('an empty name is a 400; an empty literal is fine', async () => {
    await assert.rejects(run({ input: '', context: 'identifier' }), { code: 'VALIDATION_ERROR' })
    assert.equal(await escaped('', 'postgres', 'literal', true), "''")
    assert.equal(await escaped('', 'mysql', 'like'), '')
  })

  test('schema: unknown dialects, contexts and fields are 400s', async () => {
    await assert.rejects(run({ input: 'x', dialect: 'mariadb' }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: 'x', context: 'value' }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: 'x', quote: true }), { code: 'VALIDATION_ERROR' })
    await assert.rejects(run({ input: 1 }), { code: 'VALIDATION_ERROR' })
  })

  test('the description says escaping is no substitute for parameterised queries', () => {
    assert.match(sqlEscape.description, /no substitute for parameterised queries/)
  })

  const sqlish = fc.string({
    unit: fc.oneof(
      fc.constantFrom("'", "''", '"', '\\', '%', '_', '[', ']', '`', '\0', '\n', '\r', '\x1a', ' OR ', '--'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 40,
  })

  test('property: ansi/postgres/sqlite literals in quotes read back to the original by un-doubling quotes', async () => {
    await fc.assert(
      fc.asyncProperty(sqlish, fc.constantFrom('ansi', 'postgres', 'sqlite'), async (text, dialect) => {
        if (dialect !== 'ansi' && text.includes('\0')) return
        const output = await escaped(text, dialect, 'literal', true)
        assert.ok(output.startsWith("'") && output.endsWith("'"))
        const body = output.slice(1, -1)
        assert.doesNotMatch(body.replaceAll("''", ''), /'/, 'every quote inside is doubled')
        assert.equal(body.replaceAll("''", "'"), text)
      }),
      { numRuns: 300 },
    )
  })

  test('property: every dialect and context reads back as one token of the original, or refuses with a reason', async () => {
    await fc.assert(
      fc.asyncProperty(sqlish, fc.constantFrom(...DIALECTS), fc.constantFrom('literal', 'like', 'identifier' as const), async (text, dialect, context) => {
        const refused =
          (text.includes('\0') && (dialect === 'postgres' || dialect === 'sqlite' || context === 'identifier')) ||
          (context === 'identifier' &&
            ((dialect === 'oracle' && text.includes('"')) || (dialect === 'mysql' && /[\u{10000}-\u{10ffff}]/u.test(text)) || text === ''))
        const answer = await run({ input: text, dialect, context, wrapInQuotes: true }).catch((error: { code: string }) => error)
        if (refused) {
          assert.ok(['INVALID_INPUT', 'VALIDATION_ERROR'].includes((answer as { code: string }).code))
        } else {
          assertReadsBack((answer as { result: string }).result, text, dialect, context)
        }
      }),
      { numRuns: 1000 },
    )
  })

  test('output beyond the 16 MiB limit is refused, counting its UTF-8 size exactly', async () => {
    const limit = 16 * 1024 * 1024
    // é takes two bytes in UTF-8, the doubled quote and the wrapping quotes four: exactly the limit.
    const atLimit = `${'é'.repeat(limit / 2 - 2)}'`
    assert.equal((await escaped(atLimit, 'ansi', 'literal', true)).length, limit / 2 + 2)
    await assert.rejects(run({ input: `${atLimit}x`, wrapInQuotes: true }), { code: 'LIMIT_EXCEEDED' })
  })
})

describe('sql-escape: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => sqlEscape.offload!(validate(sqlEscape.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
