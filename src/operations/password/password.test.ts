import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { assertFits, countCharacters } from '../../../test/chi-square.ts'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { queryToInput } from '../../core/query.ts'
import { validate } from '../../core/validate.ts'
import { DIGITS, LOWERCASE, SIMILAR_CHARACTERS, UPPERCASE } from '../../lib/text/charsets.ts'
import { DEFAULT_SYMBOLS, OFFLOAD_CHARACTERS, password } from './index.ts'

interface Answer {
  result: string
  results: string[]
  entropyBits: number
  strength: string
}

const run = async (input: Record<string, unknown>) => (await execute(password, input)) as unknown as Answer
const refuses = (input: Record<string, unknown>, pattern: RegExp) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', message: pattern })

/** Runs the operation until `total` passwords are collected. */
async function many(input: Record<string, unknown>, total: number): Promise<string[]> {
  const passwords: string[] = []
  while (passwords.length < total) passwords.push(...(await run({ ...input, count: 100 })).results)
  return passwords
}

const DEFAULT_CLASSES = [UPPERCASE, LOWERCASE, DIGITS, DEFAULT_SYMBOLS]

/**
 * Expected count of each character in `passwords` passwords of `length`: one forced draw from its
 * own class (1/|class|) plus length − classes draws from the whole pool (1/|pool|).
 */
function expectedCounts(classes: string[], length: number, passwords: number): Map<string, number> {
  const poolSize = classes.reduce((sum, characters) => sum + [...characters].length, 0)
  const expected = new Map<string, number>()
  for (const characters of classes) {
    const size = [...characters].length
    for (const character of characters) expected.set(character, passwords * (1 / size + (length - classes.length) / poolSize))
  }
  return expected
}

describe('password', () => {
  test('defaults: one 16-character password from all four classes, 103.61 bits, very-strong', async () => {
    const data = await run({})
    assert.deepEqual(Object.keys(data), ['result', 'results', 'entropyBits', 'strength'])
    assert.equal(data.results.length, 1)
    assert.equal(data.result, data.results[0])
    assert.equal(data.result.length, 16)
    // 16 × log2(26 + 26 + 10 + 27)
    assert.equal(data.entropyBits, 103.61)
    assert.equal(data.strength, 'very-strong')
  })

  test('every enabled class appears in every password, even at the minimum length', async () => {
    for (const passwordText of await many({ length: 4 }, 2000)) {
      assert.equal(passwordText.length, 4)
      for (const characters of DEFAULT_CLASSES)
        assert.ok(
          [...passwordText].some((c) => characters.includes(c)),
          `${passwordText} has one of ${characters}`,
        )
    }
    for (const passwordText of await many({ length: 5, uppercase: false, symbols: false }, 1000)) {
      assert.match(passwordText, /^(?=.*[a-z])(?=.*[0-9])[a-z0-9]{5}$/)
    }
  })

  test('characters follow the model: one uniform draw per class, the rest uniform over the pool (chi-square)', async () => {
    const length = 8
    const passwords = await many({ length }, 25_000)
    assertFits(countCharacters(passwords), expectedCounts(DEFAULT_CLASSES, length, passwords.length))
  })

  test('the shuffle leaves every position with the same distribution (chi-square on the first character)', async () => {
    const length = 4
    const passwords = await many({ length }, 40_000)
    const perPosition = new Map([...expectedCounts(DEFAULT_CLASSES, length, passwords.length)].map(([c, n]) => [c, n / length]))
    assertFits(countCharacters(passwords.map((p) => p[0])), perPosition)
    assertFits(countCharacters(passwords.map((p) => p[length - 1])), perPosition)
  })

  test('exclusions and a custom symbol set keep the distribution uniform over what is left (chi-square)', async () => {
    const input = { length: 20, excludeSimilar: true, exclude: 'abcXYZ', symbolSet: '#$%|' }
    const classes = [UPPERCASE.replace(/[OIXYZ]/g, ''), LOWERCASE.replace(/[olabc]/g, ''), DIGITS.replace(/[01]/g, ''), '#$%']
    const passwords = await many(input, 10_000)
    assertFits(countCharacters(passwords), expectedCounts(classes, 20, passwords.length))
    for (const character of `${SIMILAR_CHARACTERS}abcXYZ`) assert.ok(!passwords.some((p) => p.includes(character)), `${character} is excluded`)
  })

  test('many passwords are all different', async () => {
    const passwords = await many({}, 5000)
    assert.equal(new Set(passwords).size, passwords.length)
  })

  test('count gives that many passwords, result is the first', async () => {
    const data = await run({ count: 100, length: 1024 })
    assert.equal(data.results.length, 100)
    assert.equal(data.result, data.results[0])
    assert.ok(data.results.every((p) => p.length === 1024))
  })

  test('entropyBits is length × log2(pool size) and strength reads it at 40, 64 and 100 bits', async () => {
    // A pool of 16: the ten digits and six symbols, 4 bits per character.
    const sixteen = { uppercase: false, lowercase: false, symbolSet: '!@#$%^' }
    const cases: Array<[length: number, bits: number, strength: string]> = [
      [9, 36, 'weak'],
      [10, 40, 'fair'],
      [15, 60, 'fair'],
      [16, 64, 'strong'],
      [24, 96, 'strong'],
      [25, 100, 'very-strong'],
    ]
    for (const [length, bits, strength] of cases) {
      const data = await run({ ...sixteen, length })
      assert.equal(data.entropyBits, bits, `length ${length}`)
      assert.equal(data.strength, strength, `length ${length}`)
    }
    // 12 × log2(36) = 62.039… → 62.04
    assert.deepEqual((({ entropyBits, strength }) => ({ entropyBits, strength }))(await run({ length: 12, uppercase: false, symbols: false })), {
      entropyBits: 62.04,
      strength: 'fair',
    })
    // Exclusions shrink the pool: 16 × log2(89 − 6), as '|' is not among the default symbols.
    assert.equal((await run({ excludeSimilar: true })).entropyBits, Math.round(16 * Math.log2(83) * 100) / 100)
  })

  test('symbols are code points: an astral symbol counts as one character', async () => {
    const data = await run({ length: 4, count: 50, symbolSet: '\u{1F511}' })
    for (const p of data.results) {
      assert.equal([...p].length, 4)
      assert.ok(p.includes('\u{1F511}'))
    }
  })

  test('no class enabled is a 400 naming the four fields', async () => {
    await assert.rejects(
      run({ uppercase: false, lowercase: false, numbers: false, symbols: false }),
      (error: Error & { code?: string; details?: Array<{ field: string }> }) => {
        assert.equal(error.code, 'VALIDATION_ERROR')
        assert.match(error.message, /No character class is enabled/)
        assert.deepEqual(
          error.details?.map((detail) => detail.field),
          ['uppercase', 'lowercase', 'numbers', 'symbols'],
        )
        return true
      },
    )
  })

  test('a class emptied by exclusions is a 400 naming the field that emptied it', async () => {
    await refuses({ exclude: DIGITS }, /^exclude leaves no characters in the numbers class/)
    await refuses({ exclude: UPPERCASE.replace('O', '').replace('I', ''), excludeSimilar: true }, /^exclude leaves no characters in the uppercase class/)
    await refuses({ symbolSet: '|', excludeSimilar: true }, /^excludeSimilar leaves no characters in the symbols class/)
    await refuses({ symbolSet: '#$', exclude: '$#' }, /^exclude leaves no characters in the symbols class/)
    // The same exclusions are fine once the class is off.
    assert.match((await run({ exclude: DIGITS, numbers: false })).result, /^[^0-9]{16}$/)
  })

  test('symbolSet: no letters, digits, controls or repeats, 1 to 256 characters', async () => {
    await refuses({ symbolSet: '!a' }, /^symbolSet does not have the expected form: .*none of them an ASCII letter, a digit or a control character/)
    await refuses({ symbolSet: '!7' }, /^symbolSet does not have the expected form: .*none of them an ASCII letter, a digit or a control character/)
    await refuses({ symbolSet: '!\n' }, /^symbolSet does not have the expected form: .*none of them an ASCII letter, a digit or a control character/)
    await refuses({ symbolSet: '!@!' }, /^symbolSet lists '!' more than once/)
    await refuses({ symbolSet: '' }, /^symbolSet must be at least 1 characters long/)
    await refuses({ symbolSet: '\u00a7'.repeat(257) }, /^symbolSet must be at most 256 characters long/)
  })

  test('bounds and types are 400s', async () => {
    await refuses({ length: 3 }, /^length must be >= 4/)
    await refuses({ length: 1025 }, /^length must be <= 1024/)
    await refuses({ length: 16.5 }, /^length must be an integer/)
    await refuses({ length: '16' }, /^length must be an integer/)
    await refuses({ count: 0 }, /^count must be >= 1/)
    await refuses({ count: 101 }, /^count must be <= 100/)
    await refuses({ symbols: 1 }, /^symbols must be a boolean/)
    await refuses({ exclude: 'x'.repeat(1025) }, /^exclude must be at most 1024/)
    await refuses({ lenght: 20 }, /^lenght is not a known field/)
    assert.equal((await run({ length: 4 })).result.length, 4)
    assert.equal((await run({ length: 1024 })).result.length, 1024)
  })

  test('the GET form: query text is parsed into numbers and booleans', async () => {
    const data = await run(queryToInput(password.input, { length: '20', count: '3', symbols: 'false' }))
    assert.equal(data.results.length, 3)
    assert.ok(data.results.every((p) => /^[A-Za-z0-9]{20}$/.test(p)))
  })
})

describe('password: where it runs', () => {
  test(`more than ${OFFLOAD_CHARACTERS} characters in all (length × count) are made on a worker thread`, () => {
    const offloads = (fields: Record<string, unknown>) => password.offload!(validate(password.input, fields))
    assert.equal(offloads({ length: 1024, count: OFFLOAD_CHARACTERS / 1024 }), false)
    assert.equal(offloads({ length: 1024, count: OFFLOAD_CHARACTERS / 1024 + 1 }), true)
  })
})
