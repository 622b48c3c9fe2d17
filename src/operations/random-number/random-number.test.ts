import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { describe, test } from 'node:test'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { queryToInput } from '../../core/query.ts'
import { randomOffsets } from '../../lib/random/offsets.ts'
import { randomNumber } from './index.ts'

const run = (input: Record<string, unknown>) => execute(randomNumber, input) as Promise<{ result: number; results: number[] }>
const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })

const MAX = Number.MAX_SAFE_INTEGER

/**
 * The 99.99th percentile of the chi-square distribution with `df` degrees of freedom, by the
 * Wilson–Hilferty approximation (accurate to about 1% at these df). A fair generator fails a test
 * against it once in 10,000 runs.
 */
function chiSquareCritical(df: number): number {
  const z = 3.719 // standard normal quantile at 0.9999
  const a = 2 / (9 * df)
  return df * (1 - a + z * Math.sqrt(a)) ** 3
}

function chiSquare(counts: Map<number, number>, categories: number[], total: number): number {
  const expected = total / categories.length
  return categories.reduce((sum, value) => sum + ((counts.get(value) ?? 0) - expected) ** 2 / expected, 0)
}

async function tally(input: Record<string, unknown>, calls: number) {
  const counts = new Map<number, number>()
  let total = 0
  for (let call = 0; call < calls; call++) {
    for (const value of (await run(input)).results) {
      counts.set(value, (counts.get(value) ?? 0) + 1)
      total++
    }
  }
  return { counts, total }
}

describe('random-number', () => {
  test('the Wilson–Hilferty threshold matches tabulated chi-square quantiles', () => {
    // Tabulated 99.99th percentiles: df 9 → 33.72, df 10 → 35.56.
    assert.ok(Math.abs(chiSquareCritical(9) - 33.72) < 0.6)
    assert.ok(Math.abs(chiSquareCritical(10) - 35.56) < 0.6)
  })

  test('integers are uniform over a small range (chi-square, 100,000 draws, p = 0.0001)', async () => {
    const categories = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    const { counts, total } = await tally({ min: 1, max: 10, count: 10000 }, 10)
    assert.deepEqual(
      [...counts.keys()].sort((a, b) => a - b),
      categories,
    )
    const statistic = chiSquare(counts, categories, total)
    assert.ok(statistic < chiSquareCritical(9), `chi-square ${statistic} >= ${chiSquareCritical(9)}`)
  })

  test('decimals: every grid value, both ends included, is equally likely (chi-square)', async () => {
    const categories = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]
    const { counts, total } = await tally({ min: 0, max: 1, decimals: 1, count: 10000 }, 5)
    assert.deepEqual(
      [...counts.keys()].sort((a, b) => a - b),
      categories,
    )
    const statistic = chiSquare(counts, categories, total)
    assert.ok(statistic < chiSquareCritical(10), `chi-square ${statistic} >= ${chiSquareCritical(10)}`)
  })

  test('the whole safe-integer range: both signs and magnitudes near 2^52', async () => {
    const { results } = await run({ min: -MAX, max: MAX, count: 10000 })
    assert.ok(results.every(Number.isSafeInteger))
    assert.ok(results.some((value) => value < 0) && results.some((value) => value > 0))
    // Half of the draws should lie beyond ±2^52; seeing none of 10,000 would be a broken generator.
    assert.ok(results.some((value) => value > 2 ** 52) && results.some((value) => value < -(2 ** 52)))
    assert.deepEqual(new Set((await run({ min: -MAX, max: -MAX + 1, count: 200 })).results), new Set([-MAX, -MAX + 1]))
    assert.deepEqual((await run({ min: MAX, max: MAX, count: 3 })).results, [MAX, MAX, MAX])
  })

  test('defaults: one integer from 0 to 100, result first', async () => {
    const answer = await run({})
    assert.deepEqual(Object.keys(answer), ['result', 'results'])
    assert.equal(answer.results.length, 1)
    assert.equal(answer.result, answer.results[0])
    assert.ok(Number.isInteger(answer.result) && answer.result >= 0 && answer.result <= 100)
  })

  test('decimal values keep their decimals and stay inside [min, max]', async () => {
    for (const [min, max, decimals] of [
      [-3, 3, 14],
      [0, 1, 15],
      [-1, 0, 15],
      [10, 11, 2],
      [-1e12, 1e12, 3],
    ]) {
      const { results } = await run({ min, max, decimals, count: 2000 })
      for (const value of results) {
        assert.ok(value >= min && value <= max, `${value} in [${min}, ${max}]`)
        assert.equal(Number(value.toFixed(decimals)), value, `${value} has at most ${decimals} decimals`)
      }
      assert.ok(results.some((value) => !Number.isInteger(value)))
    }
  })

  test('the whole 0–15 range of decimals works for any range, beyond the 15 digits a double holds', async () => {
    for (const [min, max, decimals] of [
      [0, 100, 15],
      [0, 100, 14],
      [-MAX, MAX, 1],
      [-MAX, MAX, 15],
    ]) {
      const { results } = await run({ min, max, decimals, count: 500, unique: true })
      assert.equal(new Set(results).size, 500, 'unique values stay distinct numbers')
      for (const value of results) assert.ok(value >= min && value <= max, `${value} in [${min}, ${max}]`)
    }
    const { results } = await run({ min: 0, max: 100, decimals: 15, count: 2000 })
    assert.ok(
      results.some((value) => !Number.isInteger(value) && value > 1),
      'fractions above 1 too',
    )
  })

  test('unique: a full small range comes out exactly once, in any size', async () => {
    const { results } = await run({ min: 1, max: 100, count: 100, unique: true })
    assert.deepEqual(
      [...results].sort((a, b) => a - b),
      Array.from({ length: 100 }, (_, i) => i + 1),
    )
    assert.notDeepEqual(
      results,
      [...results].sort((a, b) => a - b),
      'an unsorted unique draw is shuffled',
    )
    const tenths = await run({ min: 0, max: 1, decimals: 1, count: 11, unique: true, sort: 'asc' })
    assert.deepEqual(tenths.results, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1])
    const negative = await run({ min: -5, max: -1, count: 5, unique: true, sort: 'desc' })
    assert.deepEqual(negative.results, [-1, -2, -3, -4, -5])
  })

  test('unique is quick for a huge range and for one barely larger than count', async () => {
    const started = performance.now()
    for (const [min, max] of [
      [-MAX, MAX],
      [0, 10000],
      [0, 39999],
      [0, 40000],
    ]) {
      const { results } = await run({ min, max, count: 10000, unique: true })
      assert.equal(new Set(results).size, 10000)
      assert.ok(results.every((value) => Number.isSafeInteger(value) && value >= min && value <= max))
    }
    assert.ok(performance.now() - started < 2000)
  })

  test('randomOffsets: distinct samples cover small spaces exactly and draw through a custom draw for large ones', () => {
    assert.deepEqual(randomOffsets(7n, 7, true).sort(), [0n, 1n, 2n, 3n, 4n, 5n, 6n])
    let draws = 0
    const evens = randomOffsets(1000n, 100, true, () => {
      draws++
      return BigInt(2 * randomInt(500))
    })
    assert.equal(new Set(evens).size, 100)
    assert.ok(evens.every((offset) => offset % 2n === 0n) && draws >= 100)
    assert.equal(randomOffsets(1n, 5, false).length, 5)
  })

  test('sort orders', async () => {
    const ascending = (await run({ min: -1000, max: 1000, count: 500, sort: 'asc' })).results
    const descending = (await run({ min: -1000, max: 1000, count: 500, sort: 'desc', decimals: 2 })).results
    for (let i = 1; i < 500; i++) {
      assert.ok(ascending[i - 1] <= ascending[i])
      assert.ok(descending[i - 1] >= descending[i])
    }
    const asDrawn = (await run({ min: 0, max: 1e9, count: 500 })).results
    assert.notDeepEqual(
      asDrawn,
      [...asDrawn].sort((a, b) => a - b),
    )
    const sorted = await run({ min: 0, max: 1e9, count: 20, sort: 'desc' })
    assert.equal(sorted.result, Math.max(...sorted.results))
  })

  test('cross-field rules are 400s naming the field', async () => {
    await refuses({ min: 5, max: 4 }, 'min')
    await refuses({ min: 1, max: 100, count: 101, unique: true }, 'count')
    await refuses({ min: 0, max: 1, decimals: 1, count: 12, unique: true }, 'count')
    assert.equal((await run({ min: 0, max: 100, decimals: 13 })).results.length, 1)
    assert.equal((await run({ min: 0, max: 1, decimals: 1, count: 11, unique: true })).results.length, 11)
  })

  test('unique numbers from a grid finer than doubles, where too few doubles lie: 400 naming count, never an endless draw', async () => {
    const nearTheTop = { min: -9007199254740991, max: -9007199254740990, decimals: 13, unique: true }
    await refuses({ ...nearTheTop, count: 5 }, 'count')
    const two = (await run({ ...nearTheTop, count: 2 })).results
    assert.deepEqual(
      [...two].sort((a, b) => a - b),
      [-9007199254740991, -9007199254740990],
    )
  })

  test('schema bounds are 400s', async () => {
    await refuses({ min: -(2 ** 53) }, 'min')
    await refuses({ max: 2 ** 53 }, 'max')
    await refuses({ min: 1.5 }, 'min')
    await refuses({ max: '10' }, 'max')
    await refuses({ count: 0 }, 'count')
    await refuses({ count: 10001 }, 'count')
    await refuses({ decimals: 16 }, 'decimals')
    await refuses({ decimals: -1 }, 'decimals')
    await refuses({ unique: 1 }, 'unique')
    await refuses({ sort: 'random' }, 'sort')
    await refuses({ seed: 1 }, 'seed')
  })

  test('query-string text becomes numbers and booleans (the GET form)', async () => {
    const input = queryToInput(randomNumber.input, { min: '-5', max: '5', count: '11', unique: 'true', sort: 'asc' })
    assert.deepEqual((await run(input)).results, [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5])
  })
})
