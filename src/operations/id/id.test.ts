import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { assertFits, countCharacters, uniformExpectation } from '../../../test/chi-square.ts'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { queryToInput } from '../../core/query.ts'
import { validate } from '../../core/validate.ts'
import { encodeUlid, id, OFFLOAD_CHARACTERS } from './index.ts'

interface Answer {
  result: string
  results: string[]
  action: string
  kind: string
  unixMs?: number
  payload?: string
  counter?: number
}

const run = async (input: Record<string, unknown>) => (await execute(id, input, { timeBudgetMs: 60_000 })) as unknown as Answer
const inspect = (input: string) => run({ action: 'inspect', input })

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const NANOID_DEFAULT = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'

/** Collects `total` values from calls of up to 1000. */
async function many(input: Record<string, unknown>, total: number): Promise<string[]> {
  const values: string[] = []
  while (values.length < total) values.push(...(await run({ ...input, count: Math.min(1000, total - values.length) })).results)
  return values
}

describe('id: published examples', () => {
  test('ULID specification (ulid/javascript README): 1469918176385 is 01ARYZ6S41, and the maximum is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ', async () => {
    assert.equal(encodeUlid(1469918176385, 0n).slice(0, 10), '01ARYZ6S41')
    const answer = await inspect('01ARYZ6S41TSV4RRFFQ69G5FAV')
    assert.equal(answer.kind, 'ulid')
    assert.equal(answer.unixMs, 1469918176385)
    assert.equal(answer.result, '2016-07-30T22:36:16.385Z')
    assert.equal(encodeUlid(2 ** 48 - 1, 2n ** 80n - 1n), '7ZZZZZZZZZZZZZZZZZZZZZZZZZ')
    assert.equal((await inspect('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')).unixMs, 2 ** 48 - 1)
    // Crockford base32 is read in any letter case.
    assert.equal((await inspect('01aryz6s41tsv4rrffq69g5fav')).unixMs, 1469918176385)
  })

  test('ULID specification, monotonicity: the randomness counts up with a carry (…YYYY, …YYYZ, …YYZ0, …YYZ1)', () => {
    const start = 0xf7bdef7bdef7bdef7bden // sixteen Y symbols (Y is 30)
    assert.equal(encodeUlid(1469918176385, start).slice(10), 'YYYYYYYYYYYYYYYY')
    assert.deepEqual(
      [1n, 2n, 3n].map((step) => encodeUlid(1469918176385, start + step).slice(10)),
      ['YYYYYYYYYYYYYYYZ', 'YYYYYYYYYYYYYYZ0', 'YYYYYYYYYYYYYYZ1'],
    )
  })

  test('KSUID README: 0ujtsYcgvSTl8PAuAdqWYSMnLOv is 2017-10-09 21:00:47 -0700 (timestamp 107608047) with payload B5A1…9735', async () => {
    const answer = await inspect('0ujtsYcgvSTl8PAuAdqWYSMnLOv')
    assert.deepEqual(answer, {
      result: '2017-10-10T04:00:47.000Z',
      action: 'inspect',
      kind: 'ksuid',
      unixMs: (107608047 + 1_400_000_000) * 1000,
      payload: 'b5a1cd34b5f99d1154fb6853345c9735',
    })
    // The smallest and the largest KSUID (segmentio/ksuid's Nil and Max).
    assert.equal((await inspect('000000000000000000000000000')).result, '2014-05-13T16:53:20.000Z')
    assert.equal((await inspect('aWgEPTl1tmebfsQzFP4bxwgy80V')).payload, 'f'.repeat(32))
  })

  test("MongoDB's ObjectId layout: 507f1f77bcf86cd799439011 has time 0x507f1f77 and counter 0x439011", async () => {
    assert.deepEqual(await inspect('507f1f77bcf86cd799439011'), {
      result: '2012-10-17T21:13:27.000Z',
      action: 'inspect',
      kind: 'objectid',
      unixMs: 0x507f1f77 * 1000,
      payload: 'bcf86cd799439011',
      counter: 0x439011,
    })
    assert.equal((await inspect('507F1F77BCF86CD799439011')).counter, 0x439011)
  })
})

describe('id: generating', () => {
  test('ULIDs: 26 Crockford symbols, the current time, strictly increasing within a call of 1000', async () => {
    const before = Date.now()
    const { result, results, kind } = await run({ count: 1000 })
    const after = Date.now()
    assert.equal(kind, 'ulid')
    assert.equal(result, results[0])
    assert.equal(results.length, 1000)
    for (const [index, value] of results.entries()) {
      assert.match(value, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/)
      if (index > 0) assert.ok(value > results[index - 1], `${value} follows ${results[index - 1]}`)
    }
    for (const value of [results[0], results[999]]) {
      const { unixMs } = await inspect(value)
      assert.ok(unixMs! >= before && unixMs! <= after, `${unixMs} is between ${before} and ${after}`)
    }
  })

  test("ObjectIds: 24 hex digits, the current second, this process's value, a counter that counts up by one", async () => {
    const before = Math.floor(Date.now() / 1000)
    const { results } = await run({ kind: 'objectid', count: 1000 })
    const after = Math.floor(Date.now() / 1000)
    const parts = await Promise.all(results.map(inspect))
    for (const [index, value] of results.entries()) {
      assert.match(value, /^[0-9a-f]{24}$/)
      const seconds = parts[index].unixMs! / 1000
      assert.ok(seconds >= before && seconds <= after)
      assert.equal(parts[index].payload!.slice(0, 10), parts[0].payload!.slice(0, 10), 'one process value')
      if (index > 0) assert.equal(parts[index].counter, (parts[index - 1].counter! + 1) % 0x100_0000)
    }
  })

  test('KSUIDs: 27 base62 characters, the current second, random payloads', async () => {
    const before = Math.floor(Date.now() / 1000)
    const { results } = await run({ kind: 'ksuid', count: 200 })
    const after = Math.floor(Date.now() / 1000)
    assert.equal(new Set(results).size, 200)
    for (const value of results) {
      assert.match(value, /^[0-9A-Za-z]{27}$/)
      const seconds = (await inspect(value)).unixMs! / 1000
      assert.ok(seconds >= before && seconds <= after)
    }
  })

  test('nanoids: 21 characters of A–Z a–z 0–9 _ - by default; size and alphabet as asked', async () => {
    const { results } = await run({ kind: 'nanoid', count: 100 })
    for (const value of results) assert.match(value, /^[A-Za-z0-9_-]{21}$/)
    for (const value of (await run({ kind: 'nanoid', size: 2, alphabet: 'ab' })).results) assert.match(value, /^[ab]{2}$/)
    const emoji = (await run({ kind: 'nanoid', size: 256, alphabet: '😀😁😂' })).result
    assert.equal([...emoji].length, 256)
    assert.match(emoji, /^[😀😁😂]+$/u)
  })

  test('GET: the query form works', async () => {
    const input = queryToInput(id.input, { kind: 'nanoid', size: '8', count: '2' })
    const { results } = await run(input)
    assert.equal(results.length, 2)
    assert.equal(results[0].length, 8)
  })
})

describe('id: uniformity (chi-square, p = 0.0001)', () => {
  test("nanoid's default alphabet", async () => {
    const values = await many({ kind: 'nanoid' }, 3000)
    assertFits(countCharacters(values), uniformExpectation(NANOID_DEFAULT, values.length * 21))
  })

  test('nanoid alphabets whose size is not a power of two: no modulo bias', async () => {
    for (const alphabet of ['abc', '0123456789', BASE62.slice(0, 37)]) {
      const values = await many({ kind: 'nanoid', alphabet, size: 50 }, 2000)
      assertFits(countCharacters(values), uniformExpectation(alphabet, values.length * 50))
    }
  })

  test("the random symbols of ULIDs (the first ULID of each call, so no increments) and KSUIDs' payload bytes", async () => {
    const randomParts: string[] = []
    for (let call = 0; call < 2000; call++) randomParts.push((await run({})).result.slice(10))
    assertFits(countCharacters(randomParts), uniformExpectation(CROCKFORD, randomParts.length * 16))
    const payloads = await Promise.all((await many({ kind: 'ksuid' }, 2000)).map(async (value) => (await inspect(value)).payload!))
    const byteCounts = new Map<string, number>()
    for (const byte of payloads.flatMap((hex) => hex.match(/../g)!)) byteCounts.set(byte, (byteCounts.get(byte) ?? 0) + 1)
    const byteValues = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))
    assertFits(byteCounts, uniformExpectation(byteValues, payloads.length * 16))
  })
})

describe('id: refusals', () => {
  test('malformed identifiers are 422 with the position of the first bad character', async () => {
    await expectRefusal(inspect('01ARYZ6S41TSV4RRFFQ69G5FAU'), { code: 'INVALID_INPUT', position: 25, message: /'U' at position 25 is not a ULID/ })
    await expectRefusal(inspect('01ARYZ6S41TSV4RRFFQ69G5FAI'), { code: 'INVALID_INPUT', position: 25 })
    await expectRefusal(inspect('8ZZZZZZZZZZZZZZZZZZZZZZZZZ'), { code: 'INVALID_INPUT', position: 0, message: /overflow/ })
    await expectRefusal(inspect('507f1f77bcf86cd79943901g'), { code: 'INVALID_INPUT', position: 23 })
    await expectRefusal(inspect('0ujtsYcgvSTl8PAuAdqWYSMnLO-'), { code: 'INVALID_INPUT', position: 26 })
    await expectRefusal(inspect('aWgEPTl1tmebfsQzFP4bxwgy80W'), { code: 'INVALID_INPUT', message: /160 bits/ })
    await expectRefusal(inspect('V1StGXR8_Z5jdHi6B-myT'), { code: 'INVALID_INPUT', message: /21 characters.*Nanoids carry no time/, details: { length: 21 } })
    await expectRefusal(inspect(''), { code: 'INVALID_INPUT', details: { length: 0 } })
  })

  test('fields that belong to another kind or action, and bounds, are 400', async () => {
    const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
    await refuses({ size: 10 }, 'size')
    await refuses({ kind: 'ksuid', alphabet: 'ab' }, 'alphabet')
    await refuses({ action: 'inspect' }, 'input')
    await refuses({ input: '01ARYZ6S41TSV4RRFFQ69G5FAV' }, 'input')
    await refuses({ count: 1001 }, 'count')
    await refuses({ count: 0 }, 'count')
    await refuses({ kind: 'nanoid', size: 1 }, 'size')
    await refuses({ kind: 'nanoid', size: 257 }, 'size')
    await refuses({ kind: 'nanoid', alphabet: 'a' }, 'alphabet')
    await refuses({ kind: 'nanoid', alphabet: 'abca' }, 'alphabet')
    await refuses({ kind: 'uuid' }, 'kind')
    await refuses({ action: 'inspect', input: 'x'.repeat(65) }, 'input')
  })
})

describe('id: where it runs', () => {
  test(`more than ${OFFLOAD_CHARACTERS} characters in all (count × size) are made on a worker thread`, () => {
    const offloads = (fields: Record<string, unknown>) => id.offload!(validate(id.input, fields))
    assert.equal(offloads({ kind: 'nanoid', size: 256, count: OFFLOAD_CHARACTERS / 256 }), false)
    assert.equal(offloads({ kind: 'nanoid', size: 256, count: OFFLOAD_CHARACTERS / 256 + 1 }), true)
    assert.equal(offloads({ kind: 'ulid', count: 1000 }), false)
  })
})
