import { Type } from 'typebox'
import { DEFAULT_CONFIG } from '../../core/config.ts'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { isLargerThan, parseJsonText, WarningList, warnOfInexactNumbers } from '../../lib/json/value.ts'
import { applyJsonPatch, copiesIn, describeValue, MAX_OPERATIONS, PATCH_ERROR_REASONS, Sizes } from './apply.ts'
import { ARRAY_MODES, JsonPatchDiff, MAX_ARRAY_EDITS, Tokens } from './diff.ts'
import { applyMergePatch, mergePatchDiff, mergePatchOperations } from './json-merge-patch.ts'

const ACTIONS = ['apply', 'diff'] as const
const FORMATS = ['jsonPatch', 'mergePatch'] as const
type Format = (typeof FORMATS)[number]

/** Documents, patches and `compareTo` larger than this together (string characters, plus a few per node) run on a worker thread. */
export const OFFLOAD_THRESHOLD = 64 * 1024

/**
 * Whether applying a JSON Patch could build more than OFFLOAD_THRESHOLD: the document and the
 * patch's values are given, but each copy can double what they make, so a small patch of a few
 * copies can build a large document, which is built on a worker thread.
 */
function mayGrowPastOffloadThreshold({ input, action, format, patch }: Record<string, unknown>): boolean {
  if (action !== 'apply' || format !== 'jsonPatch') return false
  const operations = typeof patch === 'string' ? parsedOrUndefined(patch) : patch
  if (!Array.isArray(operations)) return false
  const copies = copiesIn(operations)
  const values = operations.map((operation) => (operation !== null && typeof operation === 'object' ? (operation as { value?: unknown }).value : undefined))
  return copies > 0 && isLargerThan([input, values], OFFLOAD_THRESHOLD / 2 ** copies)
}

/** JSON text's value, or undefined where it is no JSON (which `run` tells). */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A field that takes a JSON value or its text: the value, with a warning for each number its text loses digits of. */
function readJson(value: unknown, field: string, warnings: WarningList): unknown {
  if (typeof value !== 'string') return value
  const parsed = parseJsonText(value, field)
  warnOfInexactNumbers(value, field, warnings)
  return parsed
}

function readJsonPatch(patch: unknown, warnings: WarningList): unknown[] {
  const value = readJson(patch, 'patch', warnings)
  if (Array.isArray(value)) return value
  if (typeof patch !== 'string') throw validationError('patch', 'must be an array of operations (or its JSON text) for a jsonPatch')
  throw invalidInput(`patch is JSON text of ${describeValue(value)}, not of an array of operations`, { field: 'patch', reason: 'notAnOperation' })
}

interface Fields {
  input: unknown
  action: (typeof ACTIONS)[number]
  format: Format
  patch?: unknown
  compareTo?: unknown
  arrays: (typeof ARRAY_MODES)[number]
  invertible: boolean
}

function apply({ input, format, patch, compareTo }: Fields, warnings: WarningList) {
  if (compareTo !== undefined) throw validationError('compareTo', 'is for diff; apply takes patch')
  if (patch === undefined) throw validationError('patch', 'is required for apply')
  const document = readJson(input, 'input', warnings)
  if (format === 'mergePatch') {
    const mergePatch = readJson(patch, 'patch', warnings)
    const result = applyMergePatch(document, mergePatch)
    assertWithinLimit(result)
    return { result, operations: mergePatchOperations(mergePatch) }
  }
  const operations = readJsonPatch(patch, warnings)
  return { result: applyJsonPatch(document, operations), operations: operations.length }
}

function diff({ input, format, patch, compareTo, arrays, invertible }: Fields, warnings: WarningList, timeBudgetMs: number) {
  if (patch !== undefined) throw validationError('patch', 'is for apply; diff takes compareTo')
  if (compareTo === undefined) throw validationError('compareTo', 'is required for diff')
  if (invertible && format === 'mergePatch') throw validationError('invertible', 'is for a jsonPatch: a merge patch has no test operation')
  const before = readJson(input, 'input', warnings)
  const after = readJson(compareTo, 'compareTo', warnings)
  if (format === 'mergePatch') {
    const result = mergePatchDiff(before, after, '', warnings, new Tokens())
    assertWithinLimit(result)
    return { result, operations: mergePatchOperations(result) }
  }
  const differ = new JsonPatchDiff({ arrays, invertible, timeBudgetMs })
  differ.diff(before, after, '', 2)
  return { result: differ.operations, operations: differ.operations.length }
}

/** A merge patch's result shares its values with the inputs, so it costs no memory to build; its text may still be too large to send. */
function assertWithinLimit(result: unknown): void {
  if (isLargerThan(result, OUTPUT_LIMIT_BYTES / 6) && new Sizes().of(result) > OUTPUT_LIMIT_BYTES) {
    throw limitExceeded(`The result would be larger than the ${OUTPUT_LIMIT_BYTES}-byte output limit`, { limit: OUTPUT_LIMIT_BYTES })
  }
}

const OPERATION_EXAMPLE = [
  { op: 'replace', path: '/name', value: 'devutils-api' },
  { op: 'add', path: '/tags/-', value: 'patch' },
  { op: 'remove', path: '/draft' },
]

export const jsonPatch = defineOperation({
  name: 'json-patch',
  category: 'converters',
  summary: 'Apply or generate a JSON Patch (RFC 6902) or a JSON Merge Patch (RFC 7396)',
  title: 'JSON Patch and Merge Patch',
  labels: { choices: { format: { jsonPatch: 'JSON Patch', mergePatch: 'JSON Merge Patch' } } },
  aliases: [
    'rfc 6902',
    'rfc 7396',
    'rfc 7386',
    'merge patch',
    'json diff',
    'compare json',
    'json pointer',
    'rfc 6901',
    'patch json',
    'http patch',
    'application/json-patch+json',
    'application/merge-patch+json',
  ],
  description:
    '`apply` applies `patch` to the document `input`: a JSON Patch (RFC 6902), an array of operations `add`, `remove`, `replace`, `move`, `copy` and `test` whose `path` and `from` are JSON Pointers (RFC 6901: `~1` is `/`, `~0` is `~`, array indexes without leading zeros, `-` after the last element), ' +
    "or, with `format: mergePatch`, a JSON Merge Patch (RFC 7396: an object whose members replace, merge into or, when null, remove the document's members; any other value replaces the document). " +
    'The operations run on a copy: all of them apply or none does. Members an operation does not know are ignored, as RFC 6902 says; keys such as `__proto__` are ordinary members. ' +
    '`diff` generates the patch that turns `input` into `compareTo`: objects are compared member by member, arrays element by element with the Myers diff of jsdiff (`arrays: smart`, so an insertion is one `add`, and removed and added elements side by side are edited in place), ' +
    `or index by index (\`arrays: index\`, also used for an array whose diff would find more than ${MAX_ARRAY_EDITS} inserted and removed elements or run past its time); \`invertible\` puts a \`test\` of the old value before each \`remove\` and \`replace\`. ` +
    'A merge patch cannot set a member to null or edit an array in place: `diff` warns of each such member, which the patch replaces whole or leaves out. ' +
    '`input`, `patch` and `compareTo` take a JSON value or its text (a string is read as JSON text, so the string "a" is sent as "\\"a\\""). ' +
    'The operation works on the values as JavaScript reads them: a number literal in JSON text that a double cannot hold exactly (beyond 2^53, too many digits) is warned of. ' +
    'An operation that cannot be applied is a 422 INVALID_INPUT whose `details` name the operation (its index from 0), its `op`, `path` (and `from`), and the `reason`: ' +
    `${PATCH_ERROR_REASONS.map((reason) => `\`${reason}\``).join(', ')}. ` +
    `A patch of more than ${MAX_OPERATIONS} operations (applied or generated), a document nested deeper than ${MAX_NESTING_DEPTH} levels (given, or made by the patch), and a result over the 16 MiB output limit are a 422 LIMIT_EXCEEDED; ` +
    'what a JSON Patch writes is counted as its operations run (every value added, replaced or copied, whatever is removed later), so a patch that copies a large value again and again is stopped before it is built. ' +
    `Inputs over ${OFFLOAD_THRESHOLD / 1024} KiB, and patches whose copies could build a document that large, run on a worker thread, within the time budget.`,
  input: Type.Object(
    {
      input: Type.Unknown({
        description:
          'apply: the document to patch. diff: the old document. Any JSON value; a string is read as JSON text (so the string "a" is sent as "\\"a\\"").',
        examples: [{ name: 'devutils', tags: ['json'], draft: true }],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, { description: 'Apply `patch` to `input` (`apply`), or generate the patch that turns `input` into `compareTo` (`diff`).' }),
        'apply',
      ),
      format: withDefault(
        Type.Enum(FORMATS, {
          description: 'The kind of patch: `jsonPatch` (RFC 6902, an array of operations) or `mergePatch` (RFC 7396, a partial document).',
        }),
        'jsonPatch',
      ),
      patch: Type.Optional(
        Type.Unknown({
          description:
            'apply only (required there): the patch. jsonPatch: an array of operations such as `{"op":"add","path":"/a","value":1}`; mergePatch: any JSON value. A string is read as JSON text.',
          examples: [OPERATION_EXAMPLE],
        }),
      ),
      compareTo: Type.Optional(
        Type.Unknown({
          description: 'diff only (required there): the new document, which the patch turns `input` into. A string is read as JSON text.',
          examples: [{ name: 'devutils-api', tags: ['json', 'patch'] }],
        }),
      ),
      arrays: withDefault(
        Type.Enum(ARRAY_MODES, {
          description:
            'diff with jsonPatch: how arrays are compared: `smart` (Myers diff of the elements, so an insertion is one add) or `index` (element by element at the same index).',
        }),
        'smart',
      ),
      invertible: withDefault(
        Type.Boolean({
          description:
            'diff with jsonPatch: put a `test` of the old value before each `remove` and `replace`, so the patch fails on a document that has changed.',
        }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({
      description: 'apply: the patched document. diff: the patch (jsonPatch: an array of operations; mergePatch: the merge patch).',
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    format: Type.Enum(FORMATS, { description: 'The kind of patch applied or generated.' }),
    operations: Type.Integer({
      description:
        'jsonPatch: the operations applied or generated. mergePatch: the members the merge patch sets or removes, at every depth (1 for a patch that is no object and replaces the document).',
    }),
    warnings: Type.Array(Type.String(), {
      description: 'Number literals in JSON text that a double cannot hold exactly; for a merge patch diff, the members it replaces whole or leaves out.',
    }),
  }),
  actions: {
    apply: { fields: ['input', 'format', 'patch'], requires: ['patch'] },
    diff: { fields: ['input', 'format', 'compareTo', 'arrays', 'invertible'], requires: ['compareTo'] },
  },
  examples: [
    {
      summary: 'Apply a JSON Patch',
      input: { input: { name: 'devutils', tags: ['json'], draft: true }, patch: OPERATION_EXAMPLE },
      output: { result: { name: 'devutils-api', tags: ['json', 'patch'] }, action: 'apply', format: 'jsonPatch', operations: 3, warnings: [] },
    },
    {
      summary: 'Apply a merge patch (the example of RFC 7396)',
      input: {
        input: {
          title: 'Goodbye!',
          author: { givenName: 'John', familyName: 'Doe' },
          tags: ['example', 'sample'],
          content: 'This will be unchanged',
        },
        patch: { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] },
        format: 'mergePatch',
      },
      output: {
        result: {
          title: 'Hello!',
          author: { givenName: 'John' },
          tags: ['example'],
          content: 'This will be unchanged',
          phoneNumber: '+01-123-456-7890',
        },
        action: 'apply',
        format: 'mergePatch',
        operations: 4,
        warnings: [],
      },
    },
    {
      summary: 'The JSON Patch between two documents: an insertion in an array is one add',
      input: { input: { version: 1, list: ['a', 'b', 'c'] }, compareTo: { version: 2, list: ['a', 'x', 'b', 'c'] }, action: 'diff' },
      output: {
        result: [
          { op: 'replace', path: '/version', value: 2 },
          { op: 'add', path: '/list/1', value: 'x' },
        ],
        action: 'diff',
        format: 'jsonPatch',
        operations: 2,
        warnings: [],
      },
    },
    {
      summary: 'The merge patch between two documents, and what it cannot say',
      input: { input: { a: 1, b: [1, 2], c: 'kept' }, compareTo: { a: null, b: [1, 2, 3], c: 'kept', d: { e: 'new' } }, action: 'diff', format: 'mergePatch' },
      output: {
        result: { a: null, b: [1, 2, 3], d: { e: 'new' } },
        action: 'diff',
        format: 'mergePatch',
        operations: 3,
        warnings: [
          'compareTo\'s member "/a" is null, which a merge patch cannot set: the patch removes the member instead',
          'the array at "/b" is replaced whole: a merge patch cannot edit an array in place',
        ],
      },
    },
  ],
  offload: (fields) => isLargerThan([fields.input, fields.patch, fields.compareTo], OFFLOAD_THRESHOLD) || mayGrowPastOffloadThreshold(fields),
  runsInBrowser: true,
  run(fields, context) {
    const warnings = new WarningList()
    // A worker thread is not told the budget; there the default one applies (the pool stops the thread at the real one).
    const timeBudgetMs = context?.timeBudgetMs ?? DEFAULT_CONFIG.timeBudgetMs
    const { result, operations } = fields.action === 'apply' ? apply(fields, warnings) : diff(fields, warnings, timeBudgetMs)
    return { result, action: fields.action, format: fields.format, operations, warnings: warnings.list() }
  },
})
