import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { commonJsExports } from '../../core/commonjs.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { idn, OFFLOAD_LENGTH, punycodeFault } from './index.ts'

after(closeWorkerPool)

const run = (input: Record<string, unknown>) => execute(idn, input)
const SUITES = new URL('../../../test/fixtures/suites/idna/', import.meta.url)

interface Label {
  input: string
  ascii: string | null
  unicode: string
}
interface Answer {
  result: string
  action: string
  labels?: Label[]
  errors?: Array<{ code: string; label: number | null; position: number; message: string }>
  valid: boolean
}
const answer = async (input: Record<string, unknown>) => (await run(input)) as unknown as Answer
const codesOf = (found: { errors?: Answer['errors']; details?: Record<string, unknown> }) =>
  (found.errors ?? (found.details?.errors as Answer['errors']))?.map((error) => error.code) ?? []

/**
 * Inputs and the answers a reference gives to them: the rows of IdnaTestV2.txt (Unicode 17.0.0)
 * that the UTS #46 section of our design names, and RFC 3492 section 7.1's sample strings.
 */
const KNOWN_ANSWERS: Array<{ input: Record<string, unknown>; output: Record<string, unknown> }> = [
  {
    input: { input: 'faß.de' },
    output: {
      result: 'xn--fa-hia.de',
      action: 'toAscii',
      labels: [
        { input: 'faß', ascii: 'xn--fa-hia', unicode: 'faß' },
        { input: 'de', ascii: 'de', unicode: 'de' },
      ],
      valid: true,
    },
  },
  {
    input: { input: 'xn--fa-hia.de', transitional: true },
    output: {
      result: 'xn--fa-hia.de',
      action: 'toAscii',
      labels: [
        { input: 'xn--fa-hia', ascii: 'xn--fa-hia', unicode: 'faß' },
        { input: 'de', ascii: 'de', unicode: 'de' },
      ],
      valid: true,
    },
  },
  {
    input: { input: 'a\u200Cb', transitional: true },
    output: { result: 'ab', action: 'toAscii', labels: [{ input: 'a\u200Cb', ascii: 'ab', unicode: 'ab' }], valid: true },
  },
  {
    input: { input: 'a.b.c。d。', action: 'toUnicode' },
    output: {
      result: 'a.b.c.d.',
      action: 'toUnicode',
      labels: ['a', 'b', 'c', 'd', ''].map((label) => ({ input: label, ascii: label, unicode: label })),
      errors: [],
      valid: true,
    },
  },
  // RFC 3492 section 7.1, samples (B) Chinese (simplified), (I) Russian (Cyrillic), (L) 3年B組金八先生, and (S), ASCII only.
  { input: { input: 'b\u00FCcher', action: 'encode' }, output: { result: 'bcher-kva', action: 'encode', valid: true } },
  { input: { input: 'bcher-kva', action: 'decode' }, output: { result: 'b\u00FCcher', action: 'decode', valid: true } },
  {
    input: { input: '\u4ED6\u4EEC\u4E3A\u4EC0\u4E48\u4E0D\u8BF4\u4E2D\u6587', action: 'encode' },
    output: { result: 'ihqwcrb4cv8a8dqg056pqjye', action: 'encode', valid: true },
  },
  {
    input: { input: 'ihqwcrb4cv8a8dqg056pqjye', action: 'decode' },
    output: { result: '\u4ED6\u4EEC\u4E3A\u4EC0\u4E48\u4E0D\u8BF4\u4E2D\u6587', action: 'decode', valid: true },
  },
  {
    input: { input: 'почемужеонинеговорятпорусски', action: 'encode' },
    output: { result: 'b1abfaaepdrnnbgefbadotcwatmq2g4l', action: 'encode', valid: true },
  },
  {
    input: { input: 'b1abfaaepdrnnbgefbadotcwatmq2g4l', action: 'decode' },
    output: { result: 'почемужеонинеговорятпорусски', action: 'decode', valid: true },
  },
  {
    input: { input: '3\u5E74B\u7D44\u91D1\u516B\u5148\u751F', action: 'encode' },
    output: { result: '3B-ww4c5e180e575a65lsy2b', action: 'encode', valid: true },
  },
  { input: { input: '-> $1.00 <-', action: 'encode' }, output: { result: '-> $1.00 <--', action: 'encode', valid: true } },
  { input: { input: '-> $1.00 <--', action: 'decode' }, output: { result: '-> $1.00 <-', action: 'decode', valid: true } },
]

/** Inputs it must refuse, each with the code of its error. */
const REFUSED: Array<{ input: Record<string, unknown>; code: string }> = [
  { input: { input: '' }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a'.repeat(1025) }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', action: 'toASCII' }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', transitional: 'true' }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a', verifyDNSLength: false }, code: 'VALIDATION_ERROR' },
  { input: { input: 'a\uD800b', action: 'encode' }, code: 'INVALID_INPUT' },
  { input: { input: 'a\u200Cb' }, code: 'INVALID_INPUT' },
  { input: { input: 'à\u05D0' }, code: 'INVALID_INPUT' },
  { input: { input: 'a.b.c。d。' }, code: 'INVALID_INPUT' },
  { input: { input: 'a⒈com' }, code: 'INVALID_INPUT' },
  { input: { input: 'bc9-!', action: 'decode' }, code: 'INVALID_INPUT' },
]

/** A column of IdnaTestV2.txt: blank takes `fallback`, `""` is the empty string, \uXXXX and \x{X…} are escapes. */
const column = (text: string, fallback: string) =>
  text === ''
    ? fallback
    : text === '""'
      ? ''
      : text.replace(/\\u([0-9A-Fa-f]{4})|\\x\{([0-9A-Fa-f]+)\}/g, (_, four, any) => String.fromCodePoint(Number.parseInt(four ?? any, 16)))
const statuses = (text: string, fallback: string[]) =>
  text === ''
    ? fallback
    : text
        .replace(/[[\]]/g, '')
        .split(',')
        .map((status) => status.trim())
        .filter(Boolean)

interface ConformanceRow {
  line: number
  source: string
  toUnicode: string
  toUnicodeStatus: string[]
  toAsciiN: string
  toAsciiNStatus: string[]
  toAsciiT: string
  toAsciiTStatus: string[]
}

function readIdnaTest(): ConformanceRow[] {
  const rows: ConformanceRow[] = []
  readFileSync(new URL('IdnaTestV2.txt', SUITES), 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const text = raw.replace(/#.*/, '').trim()
      if (text === '') return
      const [c1, c2, c3, c4, c5, c6, c7] = text.split(';').map((part) => part.trim())
      const source = column(c1, '')
      const toUnicode = column(c2, source)
      const toUnicodeStatus = statuses(c3, [])
      const toAsciiN = column(c4, toUnicode)
      const toAsciiNStatus = statuses(c5, toUnicodeStatus)
      rows.push({
        line: index + 1,
        source,
        toUnicode,
        toUnicodeStatus,
        toAsciiN,
        toAsciiNStatus,
        toAsciiT: column(c6, toAsciiN),
        toAsciiTStatus: statuses(c7, toAsciiNStatus),
      })
    })
  return rows
}

/**
 * Code points the file (Unicode 17.0.0, the newest published copy) expects disallowed ([V7]) as
 * unassigned, which Unicode 18.0.0, the version of tr46 7.0.0's table, assigned as valid.
 */
const ASSIGNED_IN_UNICODE_18 = ['\u{3E8AC}', '\u{3F8CD}']
const hasLoneSurrogate = (text: string) => /\p{Cs}/u.test(text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))

describe('idn', () => {
  test("tr46's own property tables, which the operation reads, still have the shape it expects", async () => {
    const regexes = commonJsExports(await import('tr46/lib/regexes.js'))
    assert.ok(regexes.bidiDomain instanceof RegExp && regexes.combiningMarks instanceof RegExp)
    assert.deepEqual(
      ['\u05D0', '\u0661', 'a'].map((text) => regexes.bidiDomain.test(text)),
      [true, true, false],
      'Hebrew (R) and Arabic-Indic digits (AN) make a Bidi domain name',
    )
    assert.deepEqual(
      ['\u0308', 'a'].map((text) => regexes.combiningMarks.test(text)),
      [true, false],
    )
  })

  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(idn).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/idn/index.ts')
  })

  test('answers known inputs as a reference does', async () => {
    for (const { input, output } of KNOWN_ANSWERS) assert.deepEqual(await run(input), output, JSON.stringify(input))
  })

  test('refuses what it cannot process, saying why', async () => {
    for (const { input, code } of REFUSED) await assert.rejects(run(input), { code }, JSON.stringify(input))
  })

  test('tr46 is the Unicode version the known differences are written against', () => {
    const tr46 = JSON.parse(readFileSync(new URL('../../../node_modules/tr46/package.json', import.meta.url), 'utf8'))
    assert.equal(tr46.version, '7.0.0')
    assert.equal(tr46.unicodeVersion, '18.0.0')
    assert.match(readFileSync(new URL('IdnaTestV2.txt', SUITES), 'utf8').slice(0, 400), /# Version: 17\.0\.0/)
  })

  test('IdnaTestV2.txt: every row, toUnicode, toAsciiN and toAsciiT with every check on', async () => {
    // In process: the schema and the worker pool are not what this file tests, and 19,000 calls through them are slow.
    const rows = readIdnaTest()
    assert.equal(rows.length, 6391)
    const misses: string[] = []
    const known: number[] = []
    let passed = 0
    for (const row of rows) {
      const { source } = row
      if (source === '') {
        await expectRefusal(run({ input: source }), { code: 'VALIDATION_ERROR' })
        passed++
        continue
      }
      if (hasLoneSurrogate(source)) {
        // Every surface refuses a lone surrogate before UTS #46 sees it (the file's A3, an error too).
        await expectRefusal(run({ input: source }), { code: 'INVALID_INPUT' })
        passed++
        continue
      }
      const failures: string[] = []
      const unicode = await direct({ input: source, action: 'toUnicode' })
      if (unicode.result !== row.toUnicode || unicode.valid !== (row.toUnicodeStatus.length === 0)) {
        failures.push(
          `toUnicode gave ${JSON.stringify(unicode.result)} ${JSON.stringify(codesOf(unicode))}, not ${JSON.stringify(row.toUnicode)} [${row.toUnicodeStatus}]`,
        )
      }
      assert.equal(unicode.valid, unicode.errors?.length === 0, `line ${row.line}: valid is "no errors"`)
      for (const [transitional, expected, expectedStatus] of [
        [false, row.toAsciiN, row.toAsciiNStatus],
        [true, row.toAsciiT, row.toAsciiTStatus],
      ] as const) {
        const got = await direct({ input: source, transitional }).then(
          (data) => data.result,
          (error) => `${error.code} ${JSON.stringify(codesOf(error))}`,
        )
        const ok = expectedStatus.length === 0 ? got === expected : got.startsWith('INVALID_INPUT ["')
        if (!ok) failures.push(`toAscii${transitional ? 'T' : 'N'} gave ${got}, not ${JSON.stringify(expected)} [${expectedStatus}]`)
      }
      if (failures.length === 0) passed++
      else if (ASSIGNED_IN_UNICODE_18.some((character) => source.includes(character) || row.toUnicode.includes(character))) known.push(row.line)
      else misses.push(`line ${row.line} ${JSON.stringify(source)}: ${failures.join('; ')}`)
    }
    assert.deepEqual(misses, [])
    assert.equal(known.length, 6, `the rows of the code points Unicode 18 assigned: lines ${known}`)
    assert.equal(passed, rows.length - known.length)
  })

  test('punycode_tests.json (punycode.js, as rust-url carries it): every case encodes and decodes', async () => {
    const cases: Array<{ decoded: string; encoded: string; description?: string }> = JSON.parse(readFileSync(new URL('punycode_tests.json', SUITES), 'utf8'))
    assert.equal(cases.length, 25)
    let checked = 0
    for (const { decoded, encoded, description } of cases) {
      if (decoded === '') {
        // The empty string is below the input's minimum length.
        await expectRefusal(run({ input: decoded, action: 'encode' }), { code: 'VALIDATION_ERROR' })
        continue
      }
      assert.equal((await answer({ input: decoded, action: 'encode' })).result, encoded, description)
      assert.equal((await answer({ input: encoded, action: 'decode' })).result, decoded, description)
      checked++
    }
    assert.equal(checked, 24)
  })

  test('bad_punycode_tests.json: the string Punycode cannot encode is refused (here by the input length, before the engine sees it)', async () => {
    const [{ decoded }]: Array<{ decoded: string }> = JSON.parse(readFileSync(new URL('bad_punycode_tests.json', SUITES), 'utf8'))
    assert.ok(decoded.length > 1024)
    await expectRefusal(run({ input: decoded, action: 'encode' }), { code: 'VALIDATION_ERROR' })
  })

  test('toAscii refusals say which check failed, in which label and where', async () => {
    const cases: Array<[Record<string, unknown>, string, number | null, number, RegExp]> = [
      [{ input: 'a\u200Cb' }, 'joiners', 0, 0, /ContextJ/],
      [{ input: 'example.à\u05D0' }, 'bidi', 1, 8, /Bidi rule/],
      [{ input: 'a.b.c。d。' }, 'dnsLength', 4, 8, /trailing dot; drop the dot, or turn verifyDnsLength off/],
      [{ input: 'a⒈com' }, 'disallowed', 0, 1, /'⒈' at position 1/],
      [{ input: 'ok.a_b.c' }, 'std3', 1, 4, /'_' at position 4.*useStd3AsciiRules/],
      [{ input: 'x.-ab' }, 'hyphens', 1, 2, /hyphen/],
      [{ input: 'ab--c.de' }, 'hyphens', 0, 0, /third and fourth/],
      [{ input: 'xn--abc-.com' }, 'punycode', 0, 0, /ASCII only/],
      [{ input: 'a.xn--ab!c-.com' }, 'punycode', 1, 2, /xn--/],
      [{ input: 'a.xn--9999999999a' }, 'punycode', 1, 6, /not valid Punycode.*overflows/],
      [{ input: '\u0308a' }, 'combiningMark', 0, 0, /combining mark, U\+0308/],
      [{ input: `${'x'.repeat(64)}.com` }, 'dnsLength', 0, 0, /64 characters long in ASCII, over the 63/],
      [{ input: `${'abc.'.repeat(63)}abcd` }, 'dnsLength', null, 0, /256 characters long in ASCII, over the 253/],
    ]
    for (const [input, code, label, position, message] of cases) {
      await expectRefusal(run(input), {
        code: 'INVALID_INPUT',
        message,
        check: (error) => {
          const errors = error.details?.errors as NonNullable<Answer['errors']>
          const found = errors.find((entry) => entry.code === code)
          assert.ok(found, `${JSON.stringify(input)}: ${JSON.stringify(errors)}`)
          assert.equal(found.label, label, JSON.stringify(input))
          assert.equal(found.position, position, JSON.stringify(input))
          assert.equal(error.details?.field, 'input')
        },
      })
    }
  })

  test('toUnicode answers a name that fails, with valid false and the errors beside the result', async () => {
    const data = await answer({ input: 'A\u200CB.xn--ssa', action: 'toUnicode' })
    assert.equal(data.result, 'a\u200Cb.\u0308')
    assert.equal(data.valid, false)
    assert.deepEqual(codesOf(data), ['joiners', 'combiningMark'])
    assert.deepEqual(data.labels?.[1], { input: 'xn--ssa', ascii: 'xn--ssa', unicode: '\u0308' })
  })

  test('the flags: the URL host profile allows what the DNS profile refuses', async () => {
    const host = { useStd3AsciiRules: false, checkHyphens: false, verifyDnsLength: false }
    assert.equal((await answer({ input: 'My_Host.example.', ...host })).result, 'my_host.example.')
    assert.equal((await answer({ input: '-ab.c', ...host })).result, '-ab.c')
    assert.equal((await answer({ input: 'a\u200Cb', checkJoiners: false })).result, 'xn--ab-j1t')
    assert.equal((await answer({ input: 'à\u05D0', checkBidi: false })).result, 'xn--0ca24w')
    assert.equal((await answer({ input: 'xn--abc-.com', action: 'toUnicode', ignoreInvalidPunycode: true })).valid, false)
    const kept = await answer({ input: 'xn--ab!c.com', action: 'toUnicode', ignoreInvalidPunycode: true, useStd3AsciiRules: false })
    assert.equal(kept.result, 'xn--ab!c.com')
  })

  test('decode refuses invalid Punycode with the position of the fault', async () => {
    await expectRefusal(run({ input: 'bc9-!', action: 'decode' }), { code: 'INVALID_INPUT', position: 4, message: /'!' is not a Punycode digit/ })
    await expectRefusal(run({ input: 'abc-kv', action: 'decode' }), { code: 'INVALID_INPUT', position: 6, message: /ends in the middle/ })
    await expectRefusal(run({ input: 'bü-kva', action: 'decode' }), { code: 'INVALID_INPUT', position: 1, message: /'ü' is not ASCII/ })
    await expectRefusal(run({ input: '9'.repeat(1024), action: 'decode' }), { code: 'INVALID_INPUT', position: 0, message: /overflows/ })
    // punycode.js decodes these digits to U+D800, a lone surrogate, which is not text.
    const punycode = commonJsExports(await import('punycode/punycode.js')) as unknown as { encode(text: string): string }
    await expectRefusal(run({ input: punycode.encode('\uD800'), action: 'decode' }), { code: 'INVALID_INPUT', position: 0, message: /U\+D800, a surrogate/ })
    assert.equal(punycodeFault('bcher-kva'), undefined)
  })

  test('properties: raw Punycode round-trips any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), async (text) => {
        const encoded = (await answer({ input: text, action: 'encode' })).result
        assert.ok(/^[\x00-\x7F]*$/.test(encoded))
        if (encoded.length <= 1024) assert.equal((await answer({ input: encoded, action: 'decode' })).result, text)
      }),
      { numRuns: 150 },
    )
  })

  const labelText = fc
    .array(fc.constantFrom('a', 'z', '0', '-', 'ü', 'ß', 'Ä', 'ж', 'Ж', '中', 'ς', '\u200C', '\u05D0', '_', 'é', 'e\u0301', '😀', 'ﬀ', '①', 'Ａ'), {
      minLength: 1,
      maxLength: 8,
    })
    .map((parts) => parts.join(''))
  const nameText = fc.array(labelText, { minLength: 1, maxLength: 4 }).chain((labels) => fc.constantFrom('.', '。').map((dot) => labels.join(dot)))

  test('properties: toUnicode always answers, and is valid exactly when toAscii succeeds', async () => {
    await fc.assert(
      fc.asyncProperty(nameText, fc.boolean(), async (name, transitional) => {
        const unicode = await answer({ input: name, action: 'toUnicode', transitional, verifyDnsLength: false })
        assert.equal(unicode.valid, unicode.errors?.length === 0)
        for (const error of unicode.errors ?? []) assert.notEqual(error.label, null, `${JSON.stringify(name)}: ${error.message}`)
        const ascii = await run({ input: name, transitional, verifyDnsLength: false }).then(
          (data) => data as unknown as Answer,
          (error) => error,
        )
        if (unicode.valid) {
          assert.equal(ascii.valid, true, JSON.stringify(name))
          // toAscii is idempotent, and its result reads back to the same Unicode name (when not empty: ZWNJ alone maps to nothing).
          if (ascii.result === '') return
          assert.equal((await answer({ input: ascii.result, transitional, verifyDnsLength: false })).result, ascii.result)
          if (!transitional) assert.equal((await answer({ input: ascii.result, action: 'toUnicode' })).result, unicode.result)
        } else {
          assert.equal(ascii.code, 'INVALID_INPUT', JSON.stringify(name))
          assert.deepEqual(codesOf(ascii).sort(), codesOf(unicode).sort(), JSON.stringify(name))
        }
      }),
      { numRuns: 300 },
    )
  })

  test('hostile inputs: long names of troublesome characters are answered quickly; past the threshold they go to the worker pool', async () => {
    assert.equal(idn.offload?.({ ...idnDefaults, input: 'a'.repeat(OFFLOAD_LENGTH + 1) }), true)
    assert.equal(idn.offload?.({ ...idnDefaults, input: 'a'.repeat(OFFLOAD_LENGTH) }), false)
    assert.equal(idn.offload?.({ ...idnDefaults, input: 'a'.repeat(1024), action: 'encode' }), false)
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ input: '\u200C'.repeat(1024) }, 'INVALID_INPUT'],
      [{ input: 'a\u200C'.repeat(512), action: 'toUnicode' }, ''],
      [{ input: '\uFDFA'.repeat(1024), action: 'toUnicode' }, ''],
      [{ input: '.'.repeat(1024) }, 'INVALID_INPUT'],
      [{ input: '\u05D01.a'.repeat(256), action: 'toUnicode' }, ''],
      [{ input: 'xn--'.repeat(256), action: 'toUnicode' }, ''],
      [{ input: '\u0308'.repeat(1024), action: 'toUnicode' }, ''],
      [{ input: 'a.'.repeat(512) }, 'INVALID_INPUT'],
    ]
    for (const [input, code] of cases) {
      const started = performance.now()
      if (code === '') assert.equal(typeof (await direct(input)).valid, 'boolean')
      else await expectRefusal(direct(input), { code })
      assert.ok(performance.now() - started < 2000, JSON.stringify(input).slice(0, 60))
    }
  })

  test('a label Punycode cannot encode (its mapping grows it past 32-bit numbers) is an error, not a crash', async () => {
    const input = `${'\uFDFA'.repeat(900)}\u{3134A}`
    const unicode = await direct({ input, action: 'toUnicode', checkBidi: false, useStd3AsciiRules: false })
    assert.equal(unicode.labels?.[0].ascii, null)
    await expectRefusal(direct({ input, checkBidi: false, useStd3AsciiRules: false }), {
      code: 'INVALID_INPUT',
      check: (error) => assert.ok(codesOf(error).includes('punycode'), JSON.stringify(codesOf(error))),
    })
  })
})

const idnDefaults = {
  action: 'toAscii' as const,
  transitional: false,
  useStd3AsciiRules: true,
  checkHyphens: true,
  checkBidi: true,
  checkJoiners: true,
  verifyDnsLength: true,
  ignoreInvalidPunycode: false,
}

/** The operation's own run, in process with its defaults, where the time is the work's own (the pool's thread hop is tested by every surface's hostile inputs). */
const direct = (input: Record<string, unknown>) =>
  Promise.resolve(idn.run({ ...idnDefaults, ...input } as Parameters<typeof idn.run>[0])) as unknown as Promise<Answer>
