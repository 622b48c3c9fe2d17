import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { editDistance } from './edit-distance.ts'

/** Levenshtein's recurrence over the whole table, written as it is defined. */
function reference(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      table[i][j] = Math.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
  }
  return table[a.length][b.length]
}

describe('editDistance', () => {
  test('known distances, in UTF-16 code units', () => {
    const cases: Array<[string, string, number]> = [
      ['', '', 0],
      ['', 'abc', 3],
      ['kitten', 'sitting', 3],
      ['flaw', 'lawn', 2],
      ['base64', 'base46', 2],
      // An emoji is two code units, and its replacement by another changes only the low one.
      ['😀', '😁', 1],
      ['a😀', 'a', 2],
    ]
    for (const [a, b, distance] of cases) {
      assert.equal(editDistance(a, b), distance, `${a} → ${b}`)
      assert.equal(editDistance(b, a), distance, `${b} → ${a}`)
    }
  })

  test('property: agrees with the recurrence over the whole table', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '😀'), maxLength: 12 })
    fc.assert(fc.property(text, text, (a, b) => editDistance(a, b) === reference(a, b)))
  })
})
