import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { UNTRUSTED_CALLS_PER_CLIENT } from '../../core/overrun.ts'
import { ACTIONS, answerWith, MAX_SPLIT_PIECES } from './answers.ts'
import { ECMASCRIPT_ENGINE, ecmascriptMatcher } from './ecmascript.ts'
import { FLAVORS } from './matcher.ts'
import { loadedRe2js, loadRe2js, RE2_ENGINE, RE2_FLAGS, re2Matcher } from './re2.ts'

export const MAX_PATTERN_LENGTH = 10_000
export const MAX_REPLACEMENT_LENGTH = 10_000
export const MAX_MATCHES = 100_000

const groupInfoSchema = Type.Object({
  number: Type.Integer({ minimum: 1, description: 'The group number, as `$1` names it.' }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'The group name (`(?<name>…)`, or `(?P<name>…)` in RE2), or null.' }),
})

const matchSchema = Type.Object({
  match: Type.String({ description: 'The matched text.' }),
  index: Type.Integer({ description: 'Where the match starts, in UTF-16 code units from 0.' }),
  end: Type.Integer({ description: 'Where the match ends (exclusive), in UTF-16 code units.' }),
  groups: Type.Array(
    Type.Object({
      number: Type.Integer({ description: 'The group number.' }),
      name: Type.Union([Type.String(), Type.Null()], { description: 'The group name, or null.' }),
      value: Type.Union([Type.String(), Type.Null()], { description: 'The text the group captured, or null when it took no part in the match.' }),
      index: Type.Union([Type.Integer(), Type.Null()], { description: 'Where the capture starts, in UTF-16 code units, or null.' }),
      end: Type.Union([Type.Integer(), Type.Null()], { description: 'Where the capture ends (exclusive), or null.' }),
    }),
    { description: 'Every capture group of the pattern, in order.' },
  ),
})

const FLAGS_PATTERN = '^(?!.*(.).*\\1)(?!.*u.*v)(?!.*v.*u)[dgimsuvy]*$'

export const regex = defineOperation({
  name: 'regex',
  category: 'converters',
  summary: 'Test, match, replace or split text with a regular expression (JavaScript or RE2 syntax)',
  title: 'Regular expression tester',
  aliases: ['regexp', 'regular expression', 'pattern', 'match', 'find all', 'replace', 'search and replace', 'split', 'capture groups', 're2', 'regex101'],
  description:
    'Runs a regular expression over `input`. With `flavor: ecmascript` (the default) the pattern and `flags` are JavaScript’s (ECMA-262 RegExp, `dgimsuvy`), run by the JavaScript engine named in `engine`; ' +
    'syntax it lacks (duplicate group names or `(?i:…)` modifiers on older engines) is a 422. A backtracking pattern can take exponential time, so it always runs on a worker thread with a short time budget: ' +
    'a pattern stopped there (catastrophic backtracking, such as `(a+)+$`) is refused; `flavor: re2` runs in time linear in the input, on a worker thread too, within the same budget (its cost also grows with the pattern). ' +
    '`flavor: re2` takes RE2 (Go) syntax through re2js and the flags `g`, `i`, `m`, `s` (`d` is accepted and implied): no backreferences, lookarounds, `\\uXXXX` or `\\cX` escapes (use `\\x{…}`), ' +
    '`\\s` is ASCII whitespace only, `.` matches `\\r`, and set operations such as `[\\p{L}--[a-z]]` are not understood (they are read as another class). ' +
    'Actions follow JavaScript, on a fresh pattern: `test` is `RegExp.prototype.test` (with `y`, anchored at 0); `match` answers every match with `g`, else the first, at most `maxMatches` (`truncated` says more existed), each with its groups and positions; ' +
    '`replace` replaces every match with `g`, else the first, expanding `$$ $& $` + "`" + ` $\' $n $nn $<name>` as GetSubstitution does (for both flavors); ' +
    '`split` is `String.prototype.split` (ignores `g` and `y`, splices captures in, with null for a group that took no part, keeps trailing empty strings, `limit` keeps the first pieces). ' +
    '`replacement` is required for `replace` and `limit` belongs to `split`: either given to another action is a 400, as are flags RE2 does not take. ' +
    'Positions are UTF-16 code units from 0. An empty match steps on by one code unit, or by one code point with `u`, `v` and for RE2. A pattern without `u` or `v` can match half of a surrogate pair: such a result is listed in `warnings` (JSON writes it as a `\\uD83D` escape). ' +
    `A pattern that does not compile is a 422 INVALID_INPUT with the engine's message (\`details.field: "pattern"\`); a result over 16 MiB, or more than ${MAX_SPLIT_PIECES} split pieces, is a 422 LIMIT_EXCEEDED, refused while it is built; ` +
    `a pattern stopped at the time budget is a 422 LIMIT_EXCEEDED with \`details.reason: "timeout"\`, and one client may have only ${UNTRUSTED_CALLS_PER_CLIENT} calls of regex or jq running at once (429).`,
  input: Type.Object(
    {
      pattern: Type.String({
        minLength: 1,
        maxLength: MAX_PATTERN_LENGTH,
        description: 'The regular expression, without delimiters.',
        examples: ['(\\d+)-(\\d+)'],
      }),
      input: Type.String({ description: 'The text to search. May be empty.', examples: ['10-20, 30-40'] }),
      flags: withDefault(
        Type.String({
          pattern: FLAGS_PATTERN,
          maxLength: 8,
          description: 'Any of `dgimsuvy`, each at most once, not `u` with `v`. RE2 takes `g`, `i`, `m` and `s` (and `d`).',
        }),
        'g',
      ),
      flavor: withDefault(Type.Enum(FLAVORS, { description: 'The syntax and engine: `ecmascript` (JavaScript’s own) or `re2` (linear time).' }), 'ecmascript'),
      action: withDefault(
        Type.Enum(ACTIONS, { description: '`test` (whether it matches), `match` (the matches), `replace` (with `replacement`) or `split`.' }),
        'match',
      ),
      replacement: Type.Optional(
        Type.String({
          maxLength: MAX_REPLACEMENT_LENGTH,
          description: 'replace only, required there: the replacement, with `$$ $& $` + "`" + ` $\' $n $nn $<name>` as in JavaScript.',
        }),
      ),
      maxMatches: withDefault(Type.Integer({ minimum: 1, maximum: MAX_MATCHES, description: 'match: the most matches to answer.' }), 1000),
      limit: Type.Optional(
        Type.Integer({ minimum: 0, maximum: MAX_SPLIT_PIECES, description: 'split only: the most pieces to answer, as `String.prototype.split`’s limit.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.Boolean(), Type.String(), Type.Array(matchSchema), Type.Array(Type.Union([Type.String(), Type.Null()]))], {
      description:
        'test: whether it matches; match: the matches; replace: the new text; split: the pieces (a capture group that took no part in a separator’s match gives null, where JavaScript gives undefined).',
      // Where each match stands in the text, for a reader to see them marked in it.
      'x-spans': { text: 'input', start: 'index', end: 'end' },
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    flavor: Type.Enum(FLAVORS, { description: 'The flavor used.' }),
    count: Type.Integer({ description: 'test: 1 or 0; match: the matches answered; replace: the replacements made; split: the pieces.' }),
    truncated: Type.Boolean({ description: 'match: more than `maxMatches` matches existed.' }),
    groups: Type.Array(groupInfoSchema, { description: 'The capture groups of the pattern, in order.' }),
    engine: Type.String({ description: 'The engine that ran the pattern and its version (for ecmascript, V8’s and Node’s).' }),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'What to know about the result, such as lone surrogates in it.' })),
  }),
  actions: {
    test: { fields: ['pattern', 'input', 'flags', 'flavor'] },
    match: { fields: ['pattern', 'input', 'flags', 'flavor', 'maxMatches'] },
    replace: { fields: ['pattern', 'input', 'flags', 'flavor', 'replacement'], requires: ['replacement'] },
    split: { fields: ['pattern', 'input', 'flags', 'flavor', 'limit'] },
  },
  examples: [
    {
      summary: 'Every match with its groups, in RE2 syntax (linear time)',
      input: { pattern: '(?P<key>\\w+)=(?P<value>\\d+)', input: 'a=1, b=22', flavor: 're2' },
      output: {
        result: [
          {
            match: 'a=1',
            index: 0,
            end: 3,
            groups: [
              { number: 1, name: 'key', value: 'a', index: 0, end: 1 },
              { number: 2, name: 'value', value: '1', index: 2, end: 3 },
            ],
          },
          {
            match: 'b=22',
            index: 5,
            end: 9,
            groups: [
              { number: 1, name: 'key', value: 'b', index: 5, end: 6 },
              { number: 2, name: 'value', value: '22', index: 7, end: 9 },
            ],
          },
        ],
        action: 'match',
        flavor: 're2',
        count: 2,
        truncated: false,
        groups: [
          { number: 1, name: 'key' },
          { number: 2, name: 'value' },
        ],
        engine: RE2_ENGINE,
      },
    },
    {
      summary: 'Replace with named groups (JavaScript)',
      input: { pattern: '(?<first>\\w+) (?<last>\\w+)', input: 'John Smith', action: 'replace', replacement: '$<last>, $<first>' },
      output: {
        result: 'Smith, John',
        action: 'replace',
        flavor: 'ecmascript',
        count: 1,
        truncated: false,
        groups: [
          { number: 1, name: 'first' },
          { number: 2, name: 'last' },
        ],
        engine: ECMASCRIPT_ENGINE,
      },
    },
    {
      summary: 'Split, keeping the separators captured',
      input: { pattern: '\\s*([,;])\\s*', input: 'a, b;c', action: 'split' },
      output: {
        result: ['a', ',', 'b', ';', 'c'],
        action: 'split',
        flavor: 'ecmascript',
        count: 5,
        truncated: false,
        groups: [{ number: 1, name: null }],
        engine: ECMASCRIPT_ENGINE,
      },
    },
    {
      summary: 'Test, case-insensitive',
      input: { pattern: '^hello', input: 'Hello, world', flags: 'i', action: 'test' },
      output: { result: true, action: 'test', flavor: 'ecmascript', count: 1, truncated: false, groups: [], engine: ECMASCRIPT_ENGINE },
    },
  ],
  // A backtracking pattern a few characters long can run for ever, so ECMAScript patterns always run where they can be stopped.
  // re2js is linear in the input, but its cost grows with the pattern's groups and size too: a short
  // input under a pattern of hundreds of groups still takes seconds. Both flavors run where a budget
  // can stop them.
  offload: () => true,
  overrun: {
    advice:
      'a pattern that backtracks catastrophically (nested quantifiers such as (a+)+$ take exponential time) runs this long; simplify it, or use flavor re2, which runs in linear time',
    budget: 'regexTimeBudgetMs',
    interruptible: true,
  },
  run(fields) {
    const { pattern, input, flags, flavor, action, replacement, limit } = fields
    if (flavor === 're2') {
      const refused = [...flags].filter((flag) => !RE2_FLAGS.has(flag))
      if (refused.length > 0) throw validationError('flags', `takes only g, i, m and s (and d, implied) with flavor re2, not ${refused.join(', ')}`)
    }
    if (action === 'replace' && replacement === undefined) throw validationError('replacement', 'is required for action replace')
    if (action !== 'replace' && replacement !== undefined) throw validationError('replacement', `is only for action replace, not ${action}`)
    if (action !== 'split' && limit !== undefined) throw validationError('limit', `is only for action split, not ${action}`)
    // Once re2js is loaded, a pattern runs in the same turn, where a worker can stop it past its budget.
    if (flavor === 're2' && loadedRe2js !== undefined) return answerWith(re2Matcher(loadedRe2js, pattern, flags, input), fields)
    if (flavor === 're2') return loadRe2js().then((re2js) => answerWith(re2Matcher(re2js, pattern, flags, input), fields))
    // ECMAScript patterns are answered in the same turn: nothing to load.
    return answerWith(ecmascriptMatcher(pattern, flags, input), fields)
  },
})
