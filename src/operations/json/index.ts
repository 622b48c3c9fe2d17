import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { layOutJson } from '../../lib/json/lay-out.ts'
import { parseOrRefuse, readJsonTree, warningsOf } from '../../lib/json/text-tree.ts'
import { utf8Length } from '../../lib/text/utf8-length.ts'
import { resolvePointer } from './pointer.ts'
import { MAX_QUERY_VALUES, QUERY_OFFLOAD_THRESHOLD, query, queryMayOutgrow } from './query.ts'
import { sizeOf, toValue } from './tree-values.ts'

/**
 * Inputs longer than this run on a worker thread: the line falls where csv-json's and yaml-json's
 * do (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const JSON_OFFLOAD_THRESHOLD = 16 * 1024

const ACTIONS = ['format', 'minify', 'validate', 'query', 'pointer'] as const

function validateJson(text: string, lenient: boolean) {
  const { tree, error } = readJsonTree(text, lenient)
  if (error) return { result: false, action: 'validate' as const, valid: false, error, warnings: [] }
  return { result: true, action: 'validate' as const, valid: true, warnings: warningsOf(tree) }
}

const INDENT = Type.Union([Type.Integer({ minimum: 0, maximum: 8 }), Type.Literal('\t')], {
  description: 'format: spaces per level, 0 to 8, or "\\t" for a tab. 0 writes everything on one line, as JSON.stringify does (the same text as minify).',
})

export const json = defineOperation({
  name: 'json',
  category: 'converters',
  summary: 'Format, minify, validate or query JSON (JSONPath RFC 9535, JSON Pointer RFC 6901)',
  title: 'JSON formatter',
  aliases: ['prettify', 'pretty print', 'beautify', 'format json', 'minify', 'validate json', 'jsonpath', 'json pointer', 'query json', 'lint'],
  description:
    '`format` pretty-prints JSON text exactly as JSON.stringify would lay it out, and `minify` removes all whitespace, but neither ever changes a literal: ' +
    'numbers keep their digits (12345678901234567890 and 1.0 stay as written), strings keep their escapes, and keys stay in their order (integer-like keys too) unless `sortKeys` sorts them at every depth. ' +
    '`validate` says whether the text is JSON (RFC 8259) and, when not, where the first error is: `line` and `column` from 1, `position` from 0. ' +
    `\`query\` evaluates a JSONPath query (RFC 9535) and answers the matched values with their normalized paths, at most ${MAX_QUERY_VALUES.toLocaleString('en')} of them; a query with a wildcard, slice or filter runs over documents whose arrays and objects have at most as many members (more is a 422 LIMIT_EXCEEDED either way); \`pointer\` answers the value a JSON Pointer (RFC 6901) names. ` +
    'In values (query, pointer), a number no double holds exactly is given as its text, with a warning. ' +
    '`lenient` accepts comments and trailing commas (JSONC); comments are dropped from the output with a warning. Repeated keys are reported in `warnings`. ' +
    `Text that is not JSON is a 422 with its line and column (validate answers it with valid: false); nesting deeper than ${MAX_NESTING_DEPTH} levels is a 422 LIMIT_EXCEEDED. ` +
    `Inputs over ${JSON_OFFLOAD_THRESHOLD / 1024} KiB, queries with a filter, more than one descendant segment or a segment of several selectors, and queries with a wildcard, slice or descendant segment over inputs of more than ${QUERY_OFFLOAD_THRESHOLD} characters, run on a worker thread within the time budget.`,
  input: Type.Object(
    {
      input: Type.String({
        description: 'The JSON text (a string; with `lenient`, JSONC: comments and trailing commas allowed).',
        examples: ['{"b":1,"a":[true,null]}'],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, {
          description:
            'What to do: `format` (pretty-print), `minify`, `validate`, `query` (JSONPath, needs `path`) or `pointer` (JSON Pointer, needs `pointer`).',
        }),
        'format',
      ),
      indent: withDefault(INDENT, 2),
      sortKeys: withDefault(
        Type.Boolean({
          description: 'format and minify: sort the keys of every object, at every depth, in UTF-16 code unit order (repeated keys keep their order).',
        }),
        false,
      ),
      lenient: withDefault(Type.Boolean({ description: 'Accept JSONC: // and /* */ comments and trailing commas. The output is always strict JSON.' }), false),
      path: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 4096,
          description: 'query: the JSONPath query (RFC 9535), e.g. `$.store.book[?@.price < 10].title`; required for query.',
        }),
      ),
      pointer: Type.Optional(
        Type.String({
          maxLength: 4096,
          description:
            'pointer: the JSON Pointer (RFC 6901), e.g. `/store/book/0` (`~1` for /, `~0` for ~), or its URI fragment form `#/store/book/0`; "" is the whole document. Required for pointer.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({
      description: 'format and minify: the JSON text. validate: whether it is valid (as `valid`). query: the matched values, in order. pointer: the value.',
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    valid: Type.Optional(Type.Boolean({ description: 'validate: whether the input is JSON (JSONC with `lenient`).' })),
    error: Type.Optional(
      Type.Object(
        {
          message: Type.String({ description: 'What is wrong and where.' }),
          position: Type.Integer({ description: 'Where, in UTF-16 code units from 0.' }),
          line: Type.Integer({ description: 'The line, from 1.' }),
          column: Type.Integer({ description: 'The column, from 1.' }),
        },
        { description: 'validate: the first error, when the input is not valid.' },
      ),
    ),
    paths: Type.Optional(Type.Array(Type.String(), { description: "query: the normalized path (RFC 9535 §2.7) of each match, e.g. $['store']['book'][0]." })),
    warnings: Type.Array(Type.String(), {
      description: 'Repeated keys, dropped comments, and numbers given as strings because no double holds them exactly.',
    }),
  }),
  actions: {
    format: { fields: ['input', 'indent', 'sortKeys', 'lenient'] },
    minify: { fields: ['input', 'sortKeys', 'lenient'] },
    validate: { fields: ['input', 'lenient'] },
    query: { fields: ['input', 'path', 'lenient'], requires: ['path'] },
    pointer: { fields: ['input', 'pointer', 'lenient'], requires: ['pointer'] },
  },
  examples: [
    {
      summary: 'Pretty-print, numbers and key order kept as written',
      input: { input: '{"id":12345678901234567890,"price":1.0,"2":"b","1":"a"}' },
      output: { result: '{\n  "id": 12345678901234567890,\n  "price": 1.0,\n  "2": "b",\n  "1": "a"\n}', action: 'format', warnings: [] },
    },
    {
      summary: 'Minify JSONC, keys sorted',
      input: { input: '{\n  // retries\n  "b": 3,\n  "a": [1, 2,],\n}', action: 'minify', sortKeys: true, lenient: true },
      output: { result: '{"a":[1,2],"b":3}', action: 'minify', warnings: ['1 comment was dropped: JSON has no comments'] },
    },
    {
      summary: 'Validate: where the first error is',
      input: { input: '{\n  "a": 1,\n  "b": 2,\n}', action: 'validate' },
      output: {
        result: false,
        action: 'validate',
        valid: false,
        error: { message: "'}' where a property name in double quotes was expected at line 4, column 1 (position 22)", position: 22, line: 4, column: 1 },
        warnings: [],
      },
    },
    {
      summary: 'JSONPath: titles of books under 10 (RFC 9535)',
      input: {
        input:
          '{"store":{"book":[{"title":"Sayings of the Century","price":8.95},{"title":"Sword of Honour","price":12.99},{"title":"Moby Dick","price":8.99}]}}',
        action: 'query',
        path: '$.store.book[?@.price < 10].title',
      },
      output: {
        result: ['Sayings of the Century', 'Moby Dick'],
        action: 'query',
        paths: ["$['store']['book'][0]['title']", "$['store']['book'][2]['title']"],
        warnings: [],
      },
    },
    {
      summary: 'JSON Pointer (RFC 6901 §5)',
      input: { input: '{"foo":["bar","baz"],"a/b":1,"m~n":8}', action: 'pointer', pointer: '/m~0n' },
      output: { result: 8, action: 'pointer', warnings: [] },
    },
  ],
  offload: ({ input, action, path }) => input.length > JSON_OFFLOAD_THRESHOLD || (action === 'query' && path !== undefined && queryMayOutgrow(input, path)),
  runsInBrowser: true,
  async run({ input, action, indent, sortKeys, lenient, path, pointer }) {
    if (action === 'validate') return validateJson(input, lenient)
    if (action === 'query' && path === undefined) throw validationError('path', 'is required for query (a JSONPath query such as $.a[0])')
    if (action === 'pointer' && pointer === undefined) throw validationError('pointer', 'is required for pointer (a JSON Pointer such as /a/0)')
    if (action === 'format' || action === 'minify') {
      const unit = action === 'minify' || indent === 0 ? '' : indent === '\t' ? '\t' : ' '.repeat(indent)
      const { text, warnings } = layOutJson(input, { indent: unit, sortKeys, lenient })
      return { result: text, action, warnings }
    }
    const parsed = parseOrRefuse(input, lenient)
    if (action === 'query') {
      const { values, paths } = await query(input, parsed, path!)
      return { result: values, action, paths, warnings: warningsOf(parsed) }
    }
    const node = resolvePointer(parsed.root, pointer!)
    assertOutputWithinLimit(sizeOf(node, utf8Length(input) === input.length))
    return { result: toValue(node, input, parsed.warnings), action, warnings: warningsOf(parsed) }
  },
})
