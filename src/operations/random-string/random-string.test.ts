import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import { assertFits, chiSquare, chiSquareCritical, countCharacters, uniformExpectation } from '../../../test/chi-square.ts'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { queryToInput } from '../../core/query.ts'
import { validate } from '../../core/validate.ts'
import { SIMILAR_CHARACTERS } from '../../lib/text/charsets.ts'
import { CHARSETS, MAX_TOTAL_CHARACTERS, OFFLOAD_CHARACTERS, randomString } from './index.ts'

interface Answer {
  result: string
  results: string[]
  entropyBits: number
}

const run = async (input: Record<string, unknown>) => (await execute(randomString, input)) as unknown as Answer
const refuses = (input: Record<string, unknown>, pattern: RegExp) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', message: pattern })

const SAMPLE = 200_000

/** 200,000 characters drawn with the given options, as 200 strings of 1000. */
async function sample(input: Record<string, unknown>): Promise<string[]> {
  return (await run({ ...input, length: 1000, count: SAMPLE / 1000 })).results
}

describe('random-string', () => {
  test('defaults: one 16-character alphanumeric string, 95.27 bits', async () => {
    const data = await run({})
    assert.deepEqual(Object.keys(data), ['result', 'results', 'entropyBits'])
    assert.match(data.result, /^[A-Za-z0-9]{16}$/)
    assert.deepEqual(data.results, [data.result])
    // 16 × log2(62)
    assert.equal(data.entropyBits, 95.27)
  })

  test('the chi-square check is sharp enough to catch modulo bias', () => {
    // bytes % 62 favours the first 8 symbols by 25%: the flaw rejection sampling avoids.
    const alphabet = [...CHARSETS.alphanumeric]
    const biased = Array.from(randomBytes(SAMPLE), (byte) => alphabet[byte % 62])
    const statistic = chiSquare(countCharacters(biased), uniformExpectation(alphabet, SAMPLE))
    assert.ok(statistic > chiSquareCritical(61), `modulo bias gives chi-square ${statistic}, above ${chiSquareCritical(61)}`)
  })

  for (const charset of Object.keys(CHARSETS) as Array<keyof typeof CHARSETS>) {
    test(`${charset}: only its characters, every one equally likely (chi-square over 200,000)`, async () => {
      const strings = await sample({ charset })
      assertFits(countCharacters(strings), uniformExpectation(CHARSETS[charset], SAMPLE))
    })
  }

  test('the charsets are what the description says', () => {
    assert.equal(CHARSETS.hex, '0123456789abcdef')
    assert.equal(CHARSETS.ascii.length, 94)
    assert.ok(!CHARSETS.ascii.includes(' '))
    assert.equal(CHARSETS.ascii[0], '!')
    assert.equal(CHARSETS.ascii.at(-1), '~')
    assert.equal(CHARSETS.base64url.length, 64)
    assert.match(CHARSETS.base64url, /-_$/)
  })

  test('custom characters are code points, astral ones included, drawn uniformly (chi-square)', async () => {
    const characters = 'ab\u{1F600}\u00e9\u{10348}'
    const strings = await sample({ characters })
    assert.ok(strings.every((text) => [...text].length === 1000))
    assertFits(countCharacters(strings), uniformExpectation([...characters], SAMPLE))
    assert.equal((await run({ characters, length: 10 })).entropyBits, Math.round(10 * Math.log2(5) * 100) / 100)
  })

  test('exclusions leave a uniform draw over what is left (chi-square)', async () => {
    const strings = await sample({ excludeSimilar: true, exclude: 'xyzXYZ' })
    const left = [...CHARSETS.alphanumeric].filter((c) => !SIMILAR_CHARACTERS.includes(c) && !'xyzXYZ'.includes(c))
    assert.equal(left.length, 62 - 6 - 6)
    assertFits(countCharacters(strings), uniformExpectation(left, SAMPLE))
    assert.equal((await run({ excludeSimilar: true, exclude: 'xyzXYZ' })).entropyBits, Math.round(16 * Math.log2(50) * 100) / 100)
  })

  test('excludeSimilar drops 0 O o 1 l I | from custom characters too', async () => {
    const { results } = await run({ characters: '0Oo1lI|ab', excludeSimilar: true, length: 100, count: 20 })
    assert.ok(results.every((text) => /^[ab]{100}$/.test(text)))
  })

  test('many strings are all different', async () => {
    const { results } = await run({ count: 1000 })
    assert.equal(new Set(results).size, 1000)
  })

  test('a single-character set is allowed and has no entropy', async () => {
    assert.deepEqual(await run({ characters: 'x', length: 3 }), { result: 'xxx', results: ['xxx'], entropyBits: 0 })
  })

  test('length × count may reach 1,048,576 characters, not more', async () => {
    const { results } = await run({ length: 4096, count: 256, charset: 'hex' })
    assert.equal(results.length * results[0].length, MAX_TOTAL_CHARACTERS)
    await refuses({ length: 4096, count: 257 }, /^count × length must be at most 1048576 characters in all, and 257 strings of 4096 make 1052672/)
    await refuses({ length: 1049, count: 1000 }, /^count × length/)
  })

  test('bounds and types are 400s', async () => {
    await refuses({ length: 0 }, /^length must be >= 1/)
    await refuses({ length: 4097 }, /^length must be <= 4096/)
    await refuses({ count: 0 }, /^count must be >= 1/)
    await refuses({ count: 1001 }, /^count must be <= 1000/)
    await refuses({ count: '2' }, /^count must be an integer/)
    await refuses({ charset: 'binary' }, /^charset must be one of: alphanumeric, alpha, numeric, lowercase, uppercase, hex, base64url, ascii/)
    await refuses({ excludeSimilar: 'yes' }, /^excludeSimilar must be a boolean/)
    await refuses({ chars: 'abc' }, /^chars is not a known field/)
    assert.equal((await run({ length: 1 })).result.length, 1)
    assert.equal((await run({ length: 4096 })).result.length, 4096)
  })

  test('characters: 1 to 256 distinct code points, not together with charset', async () => {
    await refuses({ characters: '' }, /^characters must be at least 1 characters long/)
    const astral256 = Array.from({ length: 256 }, (_, i) => String.fromCodePoint(0x1f300 + i)).join('')
    assert.equal([...(await run({ characters: astral256, length: 50 })).result].length, 50)
    await refuses({ characters: `${astral256}a` }, /^characters must be at most 256 characters long/)
    await refuses({ characters: 'abca' }, /^characters lists 'a' more than once/)
    await refuses({ characters: '\u{1F600}b\u{1F600}' }, /^characters lists '\u{1F600}' more than once/u)
    await refuses({ characters: 'ab', charset: 'hex' }, /^characters cannot be combined with charset/)
    await refuses({ characters: 'ab', charset: 'alphanumeric' }, /^characters cannot be combined with charset/)
  })

  test('a set emptied by exclusions is a 400 naming the field that emptied it', async () => {
    await refuses({ charset: 'numeric', exclude: '0123456789' }, /^exclude leaves no characters in the numeric charset/)
    await refuses({ characters: '01lI', excludeSimilar: true }, /^excludeSimilar leaves no characters in characters/)
    await refuses({ characters: 'ab', exclude: 'ba' }, /^exclude leaves no characters in characters/)
  })

  test('the GET form: query text is parsed into numbers and booleans', async () => {
    const data = await run(queryToInput(randomString.input, { length: '8', count: '4', charset: 'numeric', excludeSimilar: 'true' }))
    assert.equal(data.results.length, 4)
    assert.ok(data.results.every((text) => /^[2-9]{8}$/.test(text)))
  })
})

describe('random-string: where it runs', () => {
  test(`more than ${OFFLOAD_CHARACTERS} characters in all (length × count) are made on a worker thread`, () => {
    const offloads = (fields: Record<string, unknown>) => randomString.offload!(validate(randomString.input, fields))
    assert.equal(offloads({ length: 4096, count: OFFLOAD_CHARACTERS / 4096 }), false)
    assert.equal(offloads({ length: 4096, count: OFFLOAD_CHARACTERS / 4096 + 1 }), true)
  })
})
