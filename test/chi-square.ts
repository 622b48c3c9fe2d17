import assert from 'node:assert/strict'

/**
 * Chi-square goodness-of-fit for the generators' uniformity tests. The threshold is the 99.99th
 * percentile of the chi-square distribution for the degrees of freedom, from the Wilson–Hilferty
 * approximation, so a fair generator fails a given test about once in 10,000 runs while a real bias
 * (such as `random % n`) fails it every time.
 */

/** The standard normal quantile of 0.9999. */
const Z_99_99 = 3.719016

export function chiSquareCritical(degreesOfFreedom: number): number {
  const k = degreesOfFreedom
  return k * (1 - 2 / (9 * k) + Z_99_99 * Math.sqrt(2 / (9 * k))) ** 3
}

/** Counts how often each character occurs in the strings (characters are code points). */
export function countCharacters(strings: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>()
  for (const text of strings) for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1)
  return counts
}

export function chiSquare(observed: ReadonlyMap<string, number>, expected: ReadonlyMap<string, number>): number {
  let statistic = 0
  for (const [character, expectedCount] of expected) statistic += ((observed.get(character) ?? 0) - expectedCount) ** 2 / expectedCount
  return statistic
}

/** Asserts that only expected characters occur and that their counts fit the expected ones. */
export function assertFits(observed: ReadonlyMap<string, number>, expected: ReadonlyMap<string, number>): void {
  for (const character of observed.keys()) assert.ok(expected.has(character), `unexpected character ${JSON.stringify(character)}`)
  const statistic = chiSquare(observed, expected)
  const critical = chiSquareCritical(expected.size - 1)
  assert.ok(
    statistic < critical,
    `chi-square ${statistic.toFixed(1)} over ${expected.size - 1} degrees of freedom is above the 99.99th percentile ${critical.toFixed(1)}`,
  )
}

/** Expected counts when `total` characters are drawn uniformly from `alphabet`. */
export function uniformExpectation(alphabet: Iterable<string>, total: number): Map<string, number> {
  const characters = [...alphabet]
  return new Map(characters.map((character) => [character, total / characters.length]))
}
