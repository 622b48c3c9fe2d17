import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { NOT_IN_SUBSET, readYamlSubset } from './yaml-subset.ts'

describe('readYamlSubset', () => {
  test('reads block collections, one-line scalars and flow collections', () => {
    const text = [
      '# records',
      '- id: 1',
      '  name: "Ann \\u00e9"',
      "  note: 'it''s'",
      '  tags: [a, "b c", {d: 1.5}]',
      '  address:',
      '    city: x:y # comment',
      '  list:',
      '  - true',
      '  - ~',
      '  -',
      '- - 0x1F',
      '  - 0o17',
      '',
    ].join('\n')
    assert.deepEqual(readYamlSubset(text), [
      { id: 1, name: 'Ann é', note: "it's", tags: ['a', 'b c', { d: 1.5 }], address: { city: 'x:y' }, list: [true, null, null] },
      [31, 15],
    ])
  })

  test('declines, rather than refuses, what it does not read with certainty', () => {
    for (const text of [
      '',
      '# only a comment',
      'a: 1\na: 2',
      'a: &x 1\nb: *x',
      'a: !!str 1',
      'a: |\n  text',
      'a: plain\n  continued',
      '--- 1\n--- 2',
      '%YAML 1.2\n---\na: 1',
      'a:\tb',
      'a: 1\r\nb: 2',
      'big: 12345678901234567890',
      'x: .inf',
      '<<: {a: 1}',
      '[a, b,]',
      '[a\n]',
      'a: [1, 2',
      '? a\n: b',
      'a: "\\ud800"',
      `${'k'.repeat(1025)}: v`,
      `${'['.repeat(95)}${']'.repeat(95)}`,
    ]) {
      assert.equal(readYamlSubset(text), NOT_IN_SUBSET, JSON.stringify(text))
    }
  })
})
