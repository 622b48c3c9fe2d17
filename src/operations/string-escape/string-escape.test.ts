import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { promisify } from 'node:util'
import fc from 'fast-check'
import { cpuMsSince, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { escapeJson } from '../../lib/json/string-literal.ts'
import { type Language, OFFLOAD_LENGTH, type Quote, stringEscape } from './index.ts'
import { NOTATIONS, type Notation } from './writers.ts'

const run = (input: Record<string, unknown>) => execute(stringEscape, input, { timeBudgetMs: 60_000 })
const escaped = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result as string
const unescaped = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, action: 'unescape', ...options })).result as string

after(() => closeWorkerPool())

const refuses = (input: string, options: Record<string, unknown>, code: string, position?: number) =>
  expectRefusal(run({ input, ...options }), { code, position })

/** The text the escapes were checked with by compiling them: every kind of character that needs care. */
const TRICKY = 'Tab\t "q" \'s\' \\ ?? é 😀 \u0000\u0001 1\u2028x\r\n$HOME `id` \x24{x} \u007f\u001b ??= 日本語'

/** Each language with the quotes it takes. */
const FORMS: Array<{ language: Language; quote?: Quote }> = [
  { language: 'javascript', quote: 'double' },
  { language: 'javascript', quote: 'single' },
  { language: 'javascript', quote: 'backtick' },
  { language: 'json' },
  { language: 'java' },
  { language: 'c' },
  { language: 'cpp' },
  { language: 'csharp' },
  { language: 'python', quote: 'single' },
  { language: 'python', quote: 'double' },
  { language: 'go', quote: 'double' },
  { language: 'go', quote: 'backtick' },
  { language: 'rust' },
  { language: 'php', quote: 'double' },
  { language: 'php', quote: 'single' },
  { language: 'shell' },
  { language: 'csv' },
  { language: 'regex' },
  { language: 'unicode' },
]

const QUOTELESS: Language[] = ['regex', 'unicode']

/** Whether a form can write `text` at all (refusals are tested on their own). */
function canWrite(form: { language: Language; quote?: Quote }, text: string): boolean {
  if (form.language === 'shell') return !text.includes('\u0000')
  if (form.language === 'go' && form.quote === 'backtick') return !/[`\r]/.test(text)
  return true
}

describe('string-escape', () => {
  test('the published vectors', async () => {
    // RFC 8259 §7
    assert.equal(await escaped('\u{1d11e}', { language: 'json', asciiOnly: true, wrapInQuotes: true }), '"\\ud834\\udd1e"')
    assert.equal(await unescaped('"\\uD834\\uDD1E"', { language: 'json' }), '\u{1d11e}')
    // Go spec, "String literals": four spellings of the same text
    for (const literal of ['"日本語"', '"\\u65e5\\u672c\\u8a9e"', '"\\U000065e5\\U0000672c\\U00008a9e"', '"\\xe6\\x97\\xa5\\xe6\\x9c\\xac\\xe8\\xaa\\x9e"']) {
      assert.equal(await unescaped(literal, { language: 'go' }), '日本語', literal)
    }
    assert.equal(await escaped('日本語', { language: 'go', asciiOnly: true }), '\\u65e5\\u672c\\u8a9e')
    // RFC 4180
    assert.equal(await escaped('a "b"', { language: 'csv' }), '"a ""b"""')
    assert.equal(await unescaped('"a ""b"""', { language: 'csv' }), 'a "b"')
    // POSIX
    assert.equal(await escaped("it's", { language: 'shell', wrapInQuotes: true }), "'it'\\''s'")
    assert.equal(await unescaped("'it'\\''s'", { language: 'shell' }), "it's")
    // Rust: \x80 is out of range, \u{80} is right
    await refuses('"\\x80"', { action: 'unescape', language: 'rust' }, 'INVALID_INPUT', 1)
    assert.equal(await unescaped('"\\u{80}"', { language: 'rust' }), '\u0080')
    // C: a hex escape is greedy; C#: \x takes up to four digits
    await refuses('"\\x41BC"', { action: 'unescape', language: 'c' }, 'INVALID_INPUT', 1)
    assert.equal(await unescaped('"\\x41BC"', { language: 'csharp' }), '䆼')
    // TC39 proposal-regex-escaping README
    assert.equal(await escaped('The Quick Brown Fox', { language: 'regex', mode: 'escapeFunction' }), '\\x54he\\x20Quick\\x20Brown\\x20Fox')
    assert.equal(await escaped('(*)', { language: 'regex', mode: 'escapeFunction' }), '\\(\\*\\)')
    assert.equal(await escaped('(*)', { language: 'regex' }), '\\(\\*\\)')
    // Unicode notations
    const notations: Record<Notation, string> = {
      uBraces: '\\u{1F600}',
      utf16: '\\uD83D\\uDE00',
      u8: '\\U0001F600',
      uPlus: 'U+1F600',
      htmlHex: '&#x1F600;',
      htmlDecimal: '&#128512;',
      xBraces: '\\x{1F600}',
    }
    for (const [notation, expected] of Object.entries(notations)) {
      assert.equal(await escaped('😀', { language: 'unicode', notation }), expected, notation)
      assert.equal(await unescaped(expected, { language: 'unicode', notation }), '😀', notation)
    }
  })

  test('each language writes its own escapes', async () => {
    const text = 'a"\'\\\n\t\u0000\u0007\u007fé😀'
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ language: 'javascript' }, 'a\\"\'\\\\\\n\\t\\x00\\x07\\x7fé😀'],
      [{ language: 'javascript', quote: 'single', asciiOnly: true }, 'a"\\\'\\\\\\n\\t\\x00\\x07\\x7f\\u00e9\\u{1f600}'],
      [{ language: 'java', asciiOnly: true }, 'a\\"\'\\\\\\n\\t\\u0000\\u0007\\u007f\\u00e9\\ud83d\\ude00'],
      [{ language: 'c', asciiOnly: true }, 'a\\"\'\\\\\\n\\t\\000\\a\\177\\303\\251\\360\\237\\230\\200'],
      [{ language: 'csharp', asciiOnly: true }, 'a\\"\'\\\\\\n\\t\\0\\a\\u007f\\u00e9\\U0001f600'],
      [{ language: 'python', asciiOnly: true }, 'a"\\\'\\\\\\n\\t\\x00\\a\\x7f\\xe9\\U0001f600'],
      [{ language: 'go', asciiOnly: true }, 'a\\"\'\\\\\\n\\t\\x00\\a\\x7f\\u00e9\\U0001f600'],
      [{ language: 'rust', asciiOnly: true }, 'a\\"\'\\\\\\n\\t\\0\\x07\\x7f\\u{e9}\\u{1f600}'],
      [{ language: 'php', asciiOnly: true }, 'a\\"\'\\\\\\n\\t\\x00\\x07\\x7f\\u{e9}\\u{1f600}'],
      [{ language: 'php', quote: 'single' }, 'a"\\\'\\\\\n\t\u0000\u0007\u007fé😀'],
      [{ language: 'json', asciiOnly: true }, escapeJson(text, true, false)],
    ]
    for (const [options, expected] of cases) assert.equal(await escaped(text, options), expected, JSON.stringify(options))
    assert.equal(await escaped('a??=b?', { language: 'c' }), 'a?\\?=b?')
    assert.equal(await escaped('`\x24{x}` $y', { language: 'javascript', quote: 'backtick', wrapInQuotes: true }), '`\\`\\\x24{x}\\` $y`')
    assert.equal(await escaped('$x "y"', { language: 'php', wrapInQuotes: true }), '"\\$x \\"y\\""')
    assert.equal(await escaped('a,b', { language: 'csv' }), '"a,b"')
    assert.equal(await escaped('ab', { language: 'csv' }), 'ab')
    assert.equal(await escaped('ab', { language: 'csv', wrapInQuotes: true }), '"ab"')
    assert.equal(await escaped('a.b/c|d', { language: 'regex' }), 'a\\.b\\/c\\|d')
    assert.equal(await escaped('aé', { language: 'unicode', scope: 'all', notation: 'htmlDecimal' }), '&#97;&#233;')
    assert.equal(await escaped('\\u{41}', { language: 'unicode' }), '\\u{5C}u{41}')
  })

  test('json answers exactly what json-escape answers', async () => {
    fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme' }), fc.boolean(), fc.boolean(), async (text, asciiOnly, wrapInQuotes) => {
        assert.equal(await escaped(text, { language: 'json', asciiOnly, wrapInQuotes }), escapeJson(text, asciiOnly, wrapInQuotes))
      }),
      { numRuns: 200 },
    )
  })

  test('RegExp.escape: the ES2025 algorithm, as Node 24 has it natively', async () => {
    const cases: Record<string, string> = {
      '': '',
      '1a': '\\x31a',
      _x: '_x',
      'a-b,c=d': '\\x61\\x2db\\x2cc\\x3dd',
      '-a': '\\x2da',
      '\t\n\v\f\r': '\\t\\n\\v\\f\\r',
      '\u00a0\u2028\ufeff\u3000': '\\xa0\\u2028\\ufeff\\u3000',
      'é😀': 'é😀',
      '^$\\.*+?()[]{}|/': '\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/',
      '#&!%:;@~\'`"<>': '\\x23\\x26\\x21\\x25\\x3a\\x3b\\x40\\x7e\\x27\\x60\\x22\\x3c\\x3e',
    }
    const native = (RegExp as unknown as { escape?: (text: string) => string }).escape
    for (const [text, expected] of Object.entries(cases)) {
      assert.equal(await escaped(text, { language: 'regex', mode: 'escapeFunction' }), expected, text)
      if (native) assert.equal(native(text), expected, `native: ${text}`)
      // The escaped pattern matches exactly the text.
      assert.ok(new RegExp(`^${expected}$`, 'u').test(text), text)
      assert.equal(await unescaped(expected, { language: 'regex' }), text)
    }
  })

  test('round trip: unescape(escape(s)) is s for every language and quote that can write s', async () => {
    const forms = FORMS.flatMap((form) => [
      ...(QUOTELESS.includes(form.language) ? [] : [{ ...form, wrapInQuotes: true, asciiOnly: false }]),
      ...(form.language === 'shell' ? [] : [{ ...form, wrapInQuotes: false, asciiOnly: false }]),
      ...(['shell', 'csv', 'regex', 'unicode'].includes(form.language) || form.quote === 'backtick' || (form.language === 'php' && form.quote === 'single')
        ? []
        : [{ ...form, wrapInQuotes: true, asciiOnly: true }]),
    ])
    const units = fc.oneof(
      fc.constantFrom('\\', '"', "'", '`', '$', '{', '?', '0', '7', 'x', 'u', 'U', '+', '&', '#', ';', '\n', '\r', '\t', '\u0000', '\u007f', '\u2028', '@'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    )
    for (const form of [...forms, ...NOTATIONS.filter((n) => n !== 'uPlus').map((notation) => ({ language: 'unicode' as const, notation }))]) {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: units, maxLength: 20 }), async (text) => {
          fc.pre(canWrite(form, text))
          const { wrapInQuotes, asciiOnly, ...rest } = form as Record<string, unknown>
          const literal = await escaped(text, { ...rest, ...(wrapInQuotes ? { wrapInQuotes } : {}), ...(asciiOnly ? { asciiOnly } : {}) })
          assert.equal(await unescaped(literal, rest), text, `${JSON.stringify(form)}: ${JSON.stringify(literal)}`)
        }),
        { numRuns: 150 },
      )
    }
    for (const notation of NOTATIONS) {
      for (const scope of ['nonAscii', 'all'])
        assert.equal(await unescaped(await escaped(TRICKY, { language: 'unicode', notation, scope }), { language: 'unicode', notation }), TRICKY)
    }
  })

  test('answers result, action and language', async () => {
    assert.deepEqual(await run({ input: 'x' }), { result: 'x', action: 'escape', language: 'javascript' })
    assert.deepEqual(await run({ input: '\\n', action: 'unescape', language: 'rust' }), { result: '\n', action: 'unescape', language: 'rust' })
    assert.equal(await escaped(''), '')
    assert.equal(await escaped('', { language: 'python', wrapInQuotes: true }), "''")
  })

  test('unescape reads what each language reads', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['\\x41\\u0042\\u{43}\\0\\a\\\nz', { language: 'javascript' }, 'ABC\0az'],
      ['\\uuu0041\\101\\s\\0', { language: 'java' }, 'AA \0'],
      ["\\101\\x41\\u00e9\\?\\'", { language: 'c' }, "AAé?'"],
      ['\\303\\251', { language: 'cpp' }, 'é'],
      ['@"say ""hi"" \\n"', { language: 'csharp' }, 'say "hi" \\n'],
      ["\\x41\\101\\u00e9\\U0001F600\\'", { language: 'python' }, "AAé😀'"],
      ['\\u{1_F6_00}\\x7F\\\n   x', { language: 'rust' }, '😀\u007fx'],
      ['\\q \\$ \\e\\101\\x41\\u{e9} \\u00e9', { language: 'php' }, '\\q $ \u001bAAé \\u00e9'],
      ["'a\\'b\\\\c\\d'", { language: 'php', quote: 'single' }, "a'b\\c\\d"],
      ['`a\r\nb`', { language: 'go', quote: 'backtick' }, 'a\nb'],
      ['`a\r\nb\rc\\r`', { language: 'javascript', quote: 'backtick' }, 'a\nb\nc\r'],
      ['"a\r\nb\\r"', { language: 'rust' }, 'a\nb\r'],
      ["'a b'\\''c'\\ d\"", { language: 'shell' }, ''],
      ["a b'\\''c", { language: 'shell' }, "a b'c"],
      ['U+00E9U+1F600', { language: 'unicode', notation: 'uPlus' }, 'é😀'],
    ]
    for (const [input, options, expected] of cases) {
      if (expected === '') {
        await refuses(input, { action: 'unescape', ...options }, 'INVALID_INPUT')
        continue
      }
      assert.equal(await unescaped(input, options), expected, `${JSON.stringify(options)}: ${input}`)
    }
  })

  test('unescape refuses invalid escapes, bare quotes, out-of-range values and lone surrogates, naming position, line and column', async () => {
    const refused: Array<[string, Record<string, unknown>, number]> = [
      ['ab\\x4g', { language: 'javascript' }, 2],
      ['ab\\8', { language: 'javascript' }, 2],
      ['a\\1', { language: 'javascript' }, 1],
      ['a"b', { language: 'javascript' }, 1],
      ['"a"b"', { language: 'javascript' }, 2],
      ['"abc', { language: 'javascript' }, 4],
      ['a\nb', { language: 'javascript' }, 1],
      ['`\x24{x}`', { language: 'javascript', quote: 'backtick' }, 1],
      ['\\uD800', { language: 'javascript' }, 0],
      ['x\\u{110000}', { language: 'javascript' }, 1],
      ['\\u000a', { language: 'java' }, 0],
      ['\\u0022', { language: 'java' }, 0],
      ['\\v', { language: 'java' }, 0],
      ['\\777', { language: 'c' }, 0],
      ['\\xff', { language: 'c' }, 0],
      ['\\u0041', { language: 'c' }, 0],
      ['\\e', { language: 'c' }, 0],
      ['\\q', { language: 'csharp' }, 0],
      ['\\U00110000', { language: 'csharp' }, 0],
      ['\\N{DASH}', { language: 'python' }, 0],
      ['\\ud83d\\ude00', { language: 'python' }, 0],
      ['\\q', { language: 'python' }, 0],
      ["\\'", { language: 'go' }, 0],
      ['\\12', { language: 'go' }, 0],
      ['\\xff', { language: 'go' }, 0],
      ['`a`b`', { language: 'go', quote: 'backtick' }, 2],
      ['\\u{d800}', { language: 'rust' }, 0],
      ['\\a', { language: 'rust' }, 0],
      ['ab\rc', { language: 'rust' }, 2],
      ['$name', { language: 'php' }, 0],
      ['\\777', { language: 'php' }, 0],
      ["it's", { language: 'php', quote: 'single' }, 2],
      ["a'b", { language: 'shell' }, 1],
      ["'a;b'c;d", { language: 'shell' }, 6],
      ["'abc", { language: 'shell' }, 0],
      ['a"b', { language: 'csv' }, 1],
      ['"a"b"', { language: 'csv' }, 2],
      ['a.b', { language: 'regex' }, 1],
      ['\\d', { language: 'regex' }, 0],
      ['\\uDE00', { language: 'unicode', notation: 'utf16' }, 0],
      ['&#1114112;', { language: 'unicode', notation: 'htmlDecimal' }, 0],
    ]
    for (const [input, options, position] of refused) {
      await expectRefusal(run({ input, action: 'unescape', ...options }), {
        code: 'INVALID_INPUT',
        position,
        check: (error) => typeof error.details?.line === 'number' && typeof error.details?.column === 'number',
      }).catch((error) => assert.fail(`${JSON.stringify(options)} ${JSON.stringify(input)}: ${error}`))
    }
    await expectRefusal(run({ input: 'ab\n\ncd\\q', action: 'unescape', language: 'rust' }), {
      code: 'INVALID_INPUT',
      details: { position: 6, line: 3, column: 3 },
    })
    await refuses('\\xc3(', { action: 'unescape', language: 'c' }, 'INVALID_INPUT', 0)
  })

  test('escape refuses what a literal cannot hold: NUL in a shell argument, a backtick or CR in a Go raw string', async () => {
    await refuses('a\u0000', { language: 'shell' }, 'INVALID_INPUT', 1)
    await refuses('a`b', { language: 'go', quote: 'backtick' }, 'INVALID_INPUT', 1)
    await refuses('a\rb', { language: 'go', quote: 'backtick' }, 'INVALID_INPUT', 1)
    assert.equal(await escaped('a\nb', { language: 'go', quote: 'backtick', wrapInQuotes: true }), '`a\nb`')
  })

  test('a field the language does not take is a 400 naming it', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ language: 'json', quote: 'single' }, 'quote'],
      [{ language: 'java', quote: 'backtick' }, 'quote'],
      [{ language: 'regex', quote: 'double' }, 'quote'],
      [{ language: 'unicode', wrapInQuotes: true }, 'wrapInQuotes'],
      [{ language: 'csv', asciiOnly: true }, 'asciiOnly'],
      [{ language: 'shell', asciiOnly: true }, 'asciiOnly'],
      [{ language: 'php', quote: 'single', asciiOnly: true }, 'asciiOnly'],
      [{ language: 'go', quote: 'backtick', asciiOnly: true }, 'asciiOnly'],
      [{ language: 'javascript', notation: 'utf16' }, 'notation'],
      [{ language: 'python', scope: 'all' }, 'scope'],
      [{ language: 'unicode', mode: 'pattern' }, 'mode'],
      [{ language: 'cobol' }, 'language'],
      [{ language: 'unicode', notation: '\\u' }, 'notation'],
    ]
    for (const [options, field] of refused) {
      for (const action of ['escape', 'unescape']) await expectRefusal(run({ input: 'x', action, ...options }), { code: 'VALIDATION_ERROR', field })
    }
  })

  test('hostile inputs: the output limit refuses before building, long inputs answer quickly', async () => {
    // These run on a worker thread: one is started first, as a server has one ready.
    await escaped('x'.repeat(OFFLOAD_LENGTH + 1))
    const started = process.cpuUsage()
    // NULs in C take four characters each; astral characters in C with asciiOnly take sixteen, one past a mebibyte of them passes the limit
    assert.equal((await escaped('\u0000'.repeat(1 << 20), { language: 'c' })).length, 4 << 20)
    await expectRefusal(run({ input: '😀'.repeat((1 << 20) + 1), language: 'c', asciiOnly: true }), {
      code: 'LIMIT_EXCEEDED',
      details: { limit: 16 * 1024 * 1024 },
    })
    await expectRefusal(run({ input: 'é'.repeat(1 << 21), language: 'unicode', notation: 'u8' }), { code: 'LIMIT_EXCEEDED' })
    assert.equal((await unescaped('\\x41'.repeat(1 << 18), { language: 'go' })).length, 1 << 18)
    assert.equal((await unescaped(`'${"'\\''".repeat(1 << 16)}'`, { language: 'shell' })).length, 1 << 16)
    assert.equal((await unescaped('"'.repeat(1 << 19), { language: 'csv' })).length, (1 << 18) - 1)
    // Seconds of CPU in all, linear in the input: a quadratic path would take minutes.
    const cpu = cpuMsSince(started)
    assert.ok(cpu < 10_000, `${cpu} ms of CPU`)
  })

  test('unescape then escape is stable for valid literals (fuzzed, never a 5xx)', async () => {
    const literalish = fc.string({
      unit: fc.constantFrom('\\', '"', "'", 'u', 'x', '{', '}', '0', '1', '7', 'e', 'D', '8', 'n', '$', 'a', '\n'),
      maxLength: 16,
    })
    for (const language of ['javascript', 'java', 'c', 'csharp', 'python', 'go', 'rust', 'php', 'shell', 'csv', 'regex', 'unicode']) {
      await fc.assert(
        fc.asyncProperty(literalish, async (literal) => {
          try {
            const text = await unescaped(literal, { language })
            if (language === 'shell' && text.includes('\u0000')) return
            assert.equal(await unescaped(await escaped(text, { language }), { language }), text)
          } catch (error) {
            assert.equal((error as { code?: string }).code, 'INVALID_INPUT', `${language} ${JSON.stringify(literal)}: ${error}`)
          }
        }),
        { numRuns: 200 },
      )
    }
  })
})

// ---------------------------------------------------------------------------------------------------
// The literals compiled and run by each language's own tool, many strings to one program.

const exec = promisify(execFile)
const SAMPLES = [
  TRICKY,
  '',
  'a"b\'c',
  '\u0000' + '7\u00012',
  '\\x41BC',
  "??=??/??'",
  'é😀\u{10ffff}\u0080\u00ff\uffff',
  '\u007f\u001f\b\u000b\f',
  'ab'.repeat(50),
]

async function tool(name: string): Promise<string | false> {
  try {
    await exec('sh', ['-c', `command -v ${name}`])
    return false
  } catch {
    const reason = `${name} is not installed`
    if (process.env.CI) throw new Error(`the round trip through ${name} cannot run in CI: ${reason}`)
    return reason
  }
}

/** The texts as quoted literals, each checked to read back as itself. */
async function literals(texts: string[], options: Record<string, unknown>): Promise<string[]> {
  const { asciiOnly: _, ...reading } = options
  return Promise.all(
    texts.map(async (text) => {
      const literal = await escaped(text, { wrapInQuotes: true, ...options })
      assert.equal(await unescaped(literal, reading), text, literal)
      return literal
    }),
  )
}

const hexOf = (text: string) => Buffer.from(text, 'utf8').toString('hex')

async function inDirectory<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'string-escape-'))
  try {
    return await work(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function checkProgram(texts: string[], output: string, context: string) {
  assert.deepEqual(
    output
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.trim()),
    texts.map(hexOf),
    context,
  )
}

describe('string-escape literals compiled by the real tools', { concurrency: true }, () => {
  for (const asciiOnly of [false, true]) {
    for (const quote of ['double', 'single', 'backtick'] as const) {
      test(`node runs javascript, ${quote} quotes${asciiOnly ? ', ASCII only' : ''}`, async () => {
        const lits = await literals(SAMPLES, { language: 'javascript', quote, asciiOnly })
        const program = `for (const x of [${lits.join(',\n')}]) console.log(Buffer.from(x).toString('hex'))`
        await inDirectory(async (dir) => {
          await writeFile(join(dir, 'a.js'), program)
          await checkProgram(SAMPLES, (await exec(process.execPath, [join(dir, 'a.js')])).stdout, program)
        })
      })
    }

    for (const quote of ['single', 'double'] as const) {
      test(`python3 runs python, ${quote} quotes${asciiOnly ? ', ASCII only' : ''}`, async (t) => {
        const missing = await tool('python3')
        if (missing) return t.skip(missing)
        const lits = await literals(SAMPLES, { language: 'python', quote, asciiOnly })
        const program = `for x in [${lits.join(',\n')}]:\n    print(x.encode('utf-8').hex())\n`
        await inDirectory(async (dir) => {
          await writeFile(join(dir, 'a.py'), program)
          await checkProgram(SAMPLES, (await exec('python3', ['-W', 'error', join(dir, 'a.py')])).stdout, program)
        })
      })
    }

    for (const [compiler, language, flags] of [
      ['gcc', 'c', ['-std=c11', '-x', 'c']],
      ['g++', 'cpp', ['-std=c++17', '-x', 'c++']],
    ] as const) {
      test(`${compiler} compiles ${language}${asciiOnly ? ', ASCII only' : ''}`, async (t) => {
        const missing = await tool(compiler)
        if (missing) return t.skip(missing)
        const lits = await literals(SAMPLES, { language, asciiOnly })
        const program = [
          '#include <stdio.h>',
          ...lits.map((lit, i) => `static const char s${i}[] = ${lit};`),
          'int main(void) {',
          `  const char *all[] = {${lits.map((_, i) => `s${i}`).join(', ')}};`,
          `  const unsigned long sizes[] = {${lits.map((_, i) => `sizeof s${i} - 1`).join(', ')}};`,
          `  for (int i = 0; i < ${lits.length}; i++) { for (unsigned long j = 0; j < sizes[i]; j++) printf("%02x", (unsigned char)all[i][j]); printf("\\n"); }`,
          '  return 0;',
          '}',
        ].join('\n')
        await inDirectory(async (dir) => {
          await writeFile(join(dir, 'a.src'), program)
          await exec(compiler, [...flags, '-Wall', '-Werror', '-o', join(dir, 'a'), join(dir, 'a.src')])
          await checkProgram(SAMPLES, (await exec(join(dir, 'a'))).stdout, program)
        })
      })
    }

    test(`java runs java${asciiOnly ? ', ASCII only' : ''}`, async (t) => {
      const missing = (await tool('javac')) || (await tool('java'))
      if (missing) return t.skip(missing)
      const lits = await literals(SAMPLES, { language: 'java', asciiOnly })
      const program = `public class A { public static void main(String[] args) throws Exception {
  String[] all = {${lits.join(',\n')}};
  for (String x : all) { StringBuilder b = new StringBuilder(); for (byte c : x.getBytes("UTF-8")) b.append(String.format("%02x", c & 0xff)); System.out.println(b); }
} }`
      await inDirectory(async (dir) => {
        await writeFile(join(dir, 'A.java'), program)
        await checkProgram(SAMPLES, (await exec('java', [join(dir, 'A.java')], { timeout: 60_000 })).stdout, program)
      })
    })

    test(`rustc compiles rust${asciiOnly ? ', ASCII only' : ''}`, async (t) => {
      const missing = await tool('rustc')
      if (missing) return t.skip(missing)
      const lits = await literals(SAMPLES, { language: 'rust', asciiOnly })
      const program = `fn main() {
  let all: [&str; ${lits.length}] = [${lits.join(',\n')}];
  for x in all.iter() { let h: String = x.bytes().map(|b| format!("{:02x}", b)).collect(); println!("{}", h); }
}`
      await inDirectory(async (dir) => {
        await writeFile(join(dir, 'a.rs'), program)
        await exec('rustc', ['-o', join(dir, 'a'), join(dir, 'a.rs')], { timeout: 60_000 })
        await checkProgram(SAMPLES, (await exec(join(dir, 'a'))).stdout, program)
      })
    })
  }

  for (const shell of ['bash', 'dash']) {
    test(`${shell} reads shell single quotes`, async (t) => {
      const missing = await tool(shell)
      if (missing) return t.skip(missing)
      const texts = SAMPLES.filter((text) => !text.includes('\u0000'))
      const lits = await literals(texts, { language: 'shell' })
      const program = lits.map((lit) => `printf '%s' ${lit} | od -An -v -tx1 | tr -d ' \\n'; echo`).join('\n')
      await inDirectory(async (dir) => {
        await writeFile(join(dir, 'a.sh'), program)
        await checkProgram(texts, (await exec(shell, [join(dir, 'a.sh')])).stdout, program)
      })
    })
  }
})

describe('string-escape: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => stringEscape.offload!(validate(stringEscape.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })
})
