import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuMsSince } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { MAX_FOUND, MAX_NUMBER_LENGTH, MAX_TEXT_LENGTH, PHONE_METADATA_VERSION, phone } from './index.ts'

type Answer = Record<string, unknown> & { formats?: Record<string, string>; possibleCountries?: string[] }
type Found = { number: string; country?: string; extension?: string; startsAt: number; endsAt: number }

const run = (input: Record<string, unknown>) => execute(phone, input) as Promise<Answer>
const find = async (input: string, country?: string) => (await run({ action: 'find', input, ...(country && { country }) })).result as Found[]

/** The per-region example mobile numbers of the metadata that answers (national significant numbers). */
const loadExamples = async () => (await import('libphonenumber-js/mobile/examples')).default as unknown as Record<string, string>
const loadEngine = () => import('libphonenumber-js/max')

/** Picks the fields of `answer` that `expected` names. */
const pick = (answer: Answer, expected: Record<string, unknown>) => Object.fromEntries(Object.keys(expected).map((key) => [key, answer[key]]))

/** keys.md-style vectors: the libphonenumber-js README and Google libphonenumber's README and PhoneNumberUtilTest. */
const PUBLISHED: Array<{ source: string; input: Record<string, unknown>; expected: Record<string, unknown> }> = [
  {
    source: 'libphonenumber-js README',
    input: { input: '+12133734253' },
    expected: {
      result: '+12133734253',
      country: 'US',
      valid: true,
      formats: { e164: '+12133734253', international: '+1 213 373 4253', national: '(213) 373-4253', rfc3966: 'tel:+12133734253' },
    },
  },
  {
    source: 'Google libphonenumber README (Swiss number)',
    input: { input: '044 668 18 00', country: 'CH' },
    expected: {
      result: '+41446681800',
      valid: true,
      type: 'FIXED_LINE',
      formats: { e164: '+41446681800', international: '+41 44 668 18 00', national: '044 668 18 00', rfc3966: 'tel:+41446681800' },
    },
  },
  { source: 'UK mobile', input: { input: '07400 123456', country: 'GB' }, expected: { result: '+447400123456', type: 'MOBILE', valid: true } },
  { source: 'NANP toll-free', input: { input: '+1 800 555 0199' }, expected: { result: '+18005550199', type: 'TOLL_FREE', valid: true } },
  {
    source: 'RFC 3966 tel: URI with an extension',
    input: { input: 'tel:+1-201-555-0123;ext=1234' },
    expected: {
      result: '+12015550123',
      extension: '1234',
      formats: {
        e164: '+12015550123',
        international: '+1 201 555 0123 ext. 1234',
        national: '(201) 555-0123 ext. 1234',
        rfc3966: 'tel:+12015550123;ext=1234',
      },
    },
  },
  {
    source: 'libphonenumber-js README (Russian toll-free, national prefix 8)',
    input: { input: '8 (800) 555-35-35', country: 'RU' },
    expected: { result: '+78005553535', type: 'TOLL_FREE', valid: true },
  },
  {
    source: 'too few digits for +1',
    input: { input: '+1 213 373 425' },
    expected: { result: '+1213373425', valid: false, possible: false, country: undefined },
  },
  { source: 'libphonenumber-js issue #385 (max metadata)', input: { input: '(340) 775-1', country: 'VI' }, expected: { valid: false } },
  { source: 'libphonenumber-js issue #284 (max metadata)', input: { input: '+841664223299' }, expected: { valid: false } },
  { source: 'example US number', input: { input: '+12015550123' }, expected: { result: '+12015550123', country: 'US', valid: true } },
  { source: 'example DE mobile', input: { input: '+49 1512 3456789' }, expected: { result: '+4915123456789', country: 'DE', type: 'MOBILE', valid: true } },
  // PhoneNumberUtilTest's numbers, answered by the real metadata (its own expectations use a test metadata set).
  {
    source: 'Google PhoneNumberUtilTest US_NUMBER',
    input: { input: '+1 650 253 0000' },
    expected: { result: '+16502530000', country: 'US', valid: true, nationalNumber: '6502530000' },
  },
  {
    source: 'Google PhoneNumberUtilTest GB_NUMBER',
    input: { input: '020 7031 3000', country: 'GB' },
    expected: {
      result: '+442070313000',
      valid: true,
      type: 'FIXED_LINE',
      formats: { e164: '+442070313000', international: '+44 20 7031 3000', national: '020 7031 3000', rfc3966: 'tel:+442070313000' },
    },
  },
  {
    source: 'Google PhoneNumberUtilTest IT_NUMBER (leading zero kept)',
    input: { input: '+39 02 3661 8300' },
    expected: { result: '+390236618300', country: 'IT', nationalNumber: '0236618300', valid: true },
  },
  {
    source: 'Google PhoneNumberUtilTest AU_NUMBER',
    input: { input: '+61 2 3661 8300' },
    expected: {
      result: '+61236618300',
      country: 'AU',
      valid: true,
      formats: { e164: '+61236618300', international: '+61 2 3661 8300', national: '(02) 3661 8300', rfc3966: 'tel:+61236618300' },
    },
  },
  {
    source: 'Google PhoneNumberUtilTest INTERNATIONAL_TOLL_FREE',
    input: { input: '+800 1234 5678' },
    expected: { result: '+80012345678', country: undefined, countryCallingCode: '800', type: 'TOLL_FREE', valid: true },
  },
  {
    source: 'Google PhoneNumberUtilTest: a + number read the same with any region',
    input: { input: '+41 44 668 18 00', country: 'US' },
    expected: { result: '+41446681800', country: 'CH' },
  },
]

/**
 * Known exceptions: regions whose example mobile number lies in a range they share with the main region of
 * their calling code. libphonenumber (Google's getRegionCodeForNumber, and libphonenumber-js after it) gives
 * such a number to the first region of the calling code that holds it, so it answers the main region.
 */
const SHARED_RANGES: Readonly<Record<string, string>> = {
  AX: 'FI',
  BL: 'GP',
  CC: 'AU',
  CX: 'AU',
  EH: 'MA',
  IM: 'GB',
  MF: 'GP',
  SJ: 'NO',
  VA: 'IT',
}

const SUITE_DIR = join(import.meta.dirname, '../../../test/fixtures/suites/libphonenumber-js')
const SUITE = JSON.parse(readFileSync(join(SUITE_DIR, 'cases.json'), 'utf8')) as {
  find: Array<{
    source: string
    text: string
    country?: string
    expected: Array<{ nationalNumber: string; country?: string; extension?: string; startsAt: number; endsAt: number }>
  }>
  parse: Array<{ source: string; input: string; country?: string; expected: Record<string, unknown> }>
}

describe('phone', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(phone).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/phone/index.ts')
  })

  test('answers the published vectors', async () => {
    for (const { source, input, expected } of PUBLISHED) {
      const answer = await run(input)
      const want = { ...expected }
      const formats = want.formats as Record<string, string> | undefined
      delete want.formats
      assert.deepEqual(pick(answer, want), want, source)
      if (formats) assert.deepEqual(answer.formats, formats, source)
      assert.equal(answer.metadataVersion, PHONE_METADATA_VERSION)
    }
  })

  test('its verdict field is valid (keys.md §10 "Verdict field `valid`"): the command line exits 1 for an invalid number', async () => {
    const field = phone.verdict?.field
    assert.equal(field, 'valid')
    assert.equal((await run({ input: '+1 213 373 425' }))[field], false)
    assert.equal((await run({ input: '+1 213 373 4253' }))[field], true)
  })

  test("answers libphonenumber-js's own test cases (vendored)", async () => {
    let passed = 0
    for (const { source, text, country, expected } of SUITE.find) {
      const found = text === '' ? [] : await find(text, country)
      const answered = []
      for (const { number, country, extension, startsAt, endsAt } of found) {
        const { nationalNumber } = await run({ input: number })
        answered.push({ nationalNumber, country, extension, startsAt, endsAt })
      }
      const want = expected.map(({ nationalNumber, country, extension, startsAt, endsAt }) => ({ nationalNumber, country, extension, startsAt, endsAt }))
      assert.deepEqual(answered, want, `${source}: ${text}`)
      passed++
    }
    for (const { source, input, country, expected } of SUITE.parse) {
      const answer = await run({ input, ...(country && { country }) })
      const { possibleCountriesLength, possibleCountriesFirst, formats, ...fields } = expected as Record<string, unknown>
      assert.deepEqual(pick(answer, fields), fields, `${source}: ${input}`)
      if (possibleCountriesLength !== undefined) assert.equal(answer.possibleCountries?.length, possibleCountriesLength, `${source}: ${input}`)
      if (possibleCountriesFirst !== undefined) assert.equal(answer.possibleCountries?.[0], possibleCountriesFirst, `${source}: ${input}`)
      for (const [name, value] of Object.entries((formats ?? {}) as Record<string, string>)) assert.equal(answer.formats?.[name], value, `${source}: ${input}`)
      passed++
    }
    assert.equal(passed, SUITE.find.length + SUITE.parse.length)
  })

  test('every region of the metadata: its example mobile number parses, is valid and formats to E.164 and back', async () => {
    const examples = await loadExamples()
    const { getCountries, getCountryCallingCode } = await loadEngine()
    const regions = getCountries()
    assert.ok(regions.length > 200)
    let checked = 0
    for (const region of regions) {
      const example = examples[region]
      assert.ok(example, `${region} has an example mobile number`)
      const e164 = `+${getCountryCallingCode(region)}${example}`
      const national = await run({ input: example, country: region })
      assert.equal(national.result, e164, region)
      assert.equal(national.valid, true, region)
      assert.equal(national.possible, true, region)
      assert.equal(national.country, SHARED_RANGES[region] ?? region, region)
      assert.ok(national.type === 'MOBILE' || national.type === 'FIXED_LINE_OR_MOBILE', `${region}: ${national.type}`)
      // And back: each written form reads as the same number.
      const { e164: written, international, national: nationalForm, rfc3966 } = national.formats!
      assert.equal(written, e164, region)
      for (const form of [e164, international, rfc3966]) {
        const again = await run({ input: form })
        assert.equal(again.result, e164, `${region}: ${form}`)
        assert.equal(again.country, SHARED_RANGES[region] ?? region, `${region}: ${form}`)
      }
      assert.equal((await run({ input: nationalForm, country: region })).result, e164, `${region}: ${nationalForm}`)
      checked++
    }
    assert.equal(checked, regions.length)
  })

  test('the metadata version it names is the one the installed libphonenumber-js carries', () => {
    const require = createRequire(import.meta.url)
    const root = dirname(require.resolve('libphonenumber-js/package.json'))
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8')
    const entry = changelog.slice(changelog.indexOf(`\n${version} /`))
    const named = /Updated metadata to version ([\d.]+)/.exec(entry)?.[1]
    assert.equal(named, PHONE_METADATA_VERSION, `libphonenumber-js ${version} carries metadata ${named}: update PHONE_METADATA_VERSION`)
    assert.match(phone.description, new RegExp(PHONE_METADATA_VERSION.replaceAll('.', '\\.')))
  })

  test('reads 00 as the international prefix when no country is given, and with one as that region dials', async () => {
    assert.equal((await run({ input: '0041 44 668 18 00' })).result, '+41446681800')
    assert.equal((await run({ input: '00 41 44 668 18 00' })).result, '+41446681800')
    assert.equal((await run({ input: '0041 44 668 18 00', country: 'DE' })).result, '+41446681800')
    assert.equal((await run({ input: '011 41 44 668 18 00', country: 'US' })).result, '+41446681800')
  })

  test('refuses what it cannot read, with the library code in details.reason', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ input: 'not a number' }, 'NOT_A_NUMBER'],
      [{ input: '+999 123' }, 'INVALID_COUNTRY'],
      [{ input: '(213) 373-4253' }, 'INVALID_COUNTRY'],
      [{ input: '+1' }, 'TOO_SHORT'],
      [{ input: '+1 234567890123456789' }, 'TOO_LONG'],
      [{ input: '1'.repeat(MAX_NUMBER_LENGTH + 1), country: 'US' }, 'TOO_LONG'],
    ]
    for (const [input, reason] of refused) {
      await assert.rejects(run(input), (error: { code: string; details: { reason: string; field: string }; message: string }) => {
        assert.equal(error.code, 'INVALID_INPUT', JSON.stringify(input))
        assert.equal(error.details.reason, reason, JSON.stringify(input))
        assert.equal(error.details.field, 'input')
        // The number is personal data: the message does not repeat it.
        assert.ok(!error.message.includes(String(input.input).slice(0, 12)), error.message)
        return true
      })
    }
  })

  test('refuses what the schema or the metadata forbids with 400', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ input: '+41446681800', country: 'XX' }, 'country'],
      [{ input: '+41446681800', country: 'ZZ' }, 'country'],
      [{ input: '+41446681800', country: 'us' }, 'country'],
      [{ input: '+41446681800', country: 'USA' }, 'country'],
      [{ input: '' }, 'input'],
      [{ input: 'x'.repeat(MAX_TEXT_LENGTH + 1), action: 'find' }, 'input'],
      [{ input: '+41446681800', action: 'format' }, 'action'],
      [{ input: '+41446681800', region: 'CH' }, 'region'],
      [{ input: 41446681800 }, 'input'],
    ]
    for (const [input, field] of refused) {
      await assert.rejects(run(input), (error: { code: string; details: Array<{ field: string }> }) => {
        assert.equal(error.code, 'VALIDATION_ERROR', JSON.stringify(input).slice(0, 80))
        assert.ok(JSON.stringify(error.details).includes(field), JSON.stringify(error.details))
        return true
      })
    }
  })

  test('find: positions are UTF-16 offsets that slice out the number as written', async () => {
    const text = '😀 Call +41 44 668 18 00 or 044 668 18 01 — café ☎ +1 (213) 373-4253 ext. 7.'
    const found = await find(text, 'CH')
    assert.deepEqual(
      found.map(({ number, country, extension }) => ({ number, country, extension })),
      [
        { number: '+41446681800', country: 'CH', extension: undefined },
        { number: '+41446681801', country: 'CH', extension: undefined },
        { number: '+12133734253', country: 'US', extension: '7' },
      ],
    )
    assert.deepEqual(
      found.map(({ startsAt, endsAt }) => text.slice(startsAt, endsAt)),
      ['+41 44 668 18 00', '044 668 18 01', '+1 (213) 373-4253 ext. 7'],
    )
    // Without a country, only numbers in international form are found.
    assert.deepEqual(
      (await find(text)).map(({ number }) => number),
      ['+41446681800', '+12133734253'],
    )
  })

  test(`find: answers at most ${MAX_FOUND} numbers, then says truncated`, async () => {
    const text = '+41 44 668 18 00, '.repeat(MAX_FOUND + 5)
    const answer = await run({ action: 'find', input: text })
    assert.equal(answer.count, MAX_FOUND)
    assert.equal((answer.result as Found[]).length, MAX_FOUND)
    assert.equal(answer.truncated, true)
  })

  test('find: offloads long texts only', () => {
    const offload = phone.offload!
    assert.equal(offload({ action: 'find', input: 'x'.repeat(100) }), false)
    assert.equal(offload({ action: 'find', input: 'x'.repeat(MAX_TEXT_LENGTH) }), true)
    assert.equal(offload({ action: 'parse', input: 'x'.repeat(200) }), false)
  })

  test('hostile texts of the longest length are searched in seconds, never minutes', async () => {
    const cases: Array<[string, string]> = [
      ['digits and separators', '12 34-56.'.repeat(Math.floor(MAX_TEXT_LENGTH / 9))],
      ['plus signs', '+'.repeat(MAX_TEXT_LENGTH)],
      ['plus and a digit', '+1'.repeat(MAX_TEXT_LENGTH / 2)],
    ]
    for (const [name, text] of cases) {
      assert.ok(text.length <= MAX_TEXT_LENGTH)
      // CPU time, which a busy machine stretches less than wall time, with the margin of a thread's
      // start and its collector; the roomy budget lets the call finish there.
      const started = process.cpuUsage()
      const answer = (await execute(phone, { action: 'find', input: text, country: 'US' }, { timeBudgetMs: 60_000 })) as Answer
      const cpu = cpuMsSince(started)
      assert.ok(cpu < 10_000, `${name}: ${cpu} ms of CPU`)
      assert.ok((answer.count as number) <= MAX_FOUND)
    }
    // Parse refuses a long input before reading it: at once, where reading it would take seconds.
    const started = performance.now()
    await assert.rejects(run({ input: '9'.repeat(MAX_TEXT_LENGTH) }), { code: 'INVALID_INPUT' })
    assert.ok(performance.now() - started < 1000)
  })

  test('property: any text up to the parse limit is answered or refused with a reason, never a defect', async () => {
    const char = fc.constantFrom(...'0123456789 +-().x#*/;=:tel ext'.split(''), 'a', '٣', '０', '😀')
    await fc.assert(
      fc.asyncProperty(
        fc.array(char, { maxLength: 40 }).map((chars) => chars.join('')),
        fc.constantFrom(undefined, 'US', 'DE', 'RU'),
        async (input, country) => {
          if (input.length === 0) return
          try {
            const answer = await run({ input, ...(country && { country }) })
            assert.match(answer.result as string, /^\+\d+$/)
            assert.equal(answer.formats?.e164, answer.result)
            assert.equal(answer.result, `+${answer.countryCallingCode}${answer.nationalNumber}`)
            if (answer.valid) assert.equal(answer.possible, true)
          } catch (error) {
            const { code, details } = error as { code: string; details: { reason: string } }
            assert.equal(code, 'INVALID_INPUT', String(error))
            assert.ok(['NOT_A_NUMBER', 'INVALID_COUNTRY', 'TOO_SHORT', 'TOO_LONG'].includes(details.reason))
          }
        },
      ),
      { numRuns: 300 },
    )
  })

  test('property: a valid number written among other words is found where it is written, and parses back to itself', async () => {
    const examples = await loadExamples()
    const { getCountries, getCountryCallingCode } = await loadEngine()
    const regions = getCountries()
    const words = fc.array(fc.constantFrom('call', 'me', 'on', 'or', 'at', 'tél.', 'Tel:', '☎', 'número', '😀'), { maxLength: 5 }).map((list) => list.join(' '))
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...regions), words, words, async (region, before, after) => {
        const e164 = `+${getCountryCallingCode(region)}${examples[region]}`
        const { formats } = await run({ input: e164 })
        const text = `${before} ${formats!.international} ${after}`
        const found = await find(text)
        assert.equal(found.length, 1, text)
        assert.equal(found[0]!.number, e164)
        assert.equal(text.slice(found[0]!.startsAt, found[0]!.endsAt), formats!.international)
        assert.equal((await run({ input: text.slice(found[0]!.startsAt, found[0]!.endsAt) })).result, e164)
      }),
      { numRuns: 150 },
    )
  })

  test('does not load libphonenumber until a number is asked for', async () => {
    const source = readFileSync(join(import.meta.dirname, 'index.ts'), 'utf8')
    assert.doesNotMatch(source, /^import .*libphonenumber-js/m)
    assert.match(source, /lazily\(\(\) => import\('libphonenumber-js\/max'\)\)/)
  })
})
