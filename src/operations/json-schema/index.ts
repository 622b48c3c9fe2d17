import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { type Draft, INFERRED_FORMATS, type InferenceOptions, inferSchema } from '../../lib/json/schema-inference.ts'
import { WarningList } from '../../lib/json/value.ts'
import { DEFAULT_MAX_ERRORS, DRAFTS, MAX_ERRORS, readJson, validate } from './validate.ts'
import { FORMAT_MODES } from './validators.ts'

const ACTIONS = ['validate', 'infer'] as const
const REQUIRED_MODES = ['all', 'none'] as const

interface InferFields {
  required: InferenceOptions['required']
  additionalProperties: boolean
  input: unknown
  schema?: unknown
  draft: (typeof DRAFTS)[number]
  multipleSamples: boolean
  detectFormats: boolean
}

async function infer({ input, schema, draft: askedDraft, multipleSamples, detectFormats, required, additionalProperties }: InferFields) {
  if (schema !== undefined) throw validationError('schema', 'is for validate; infer reads samples from input')
  const warnings = new WarningList()
  const value = readJson(input, 'input', warnings)
  let samples: unknown[] = [value]
  if (multipleSamples) {
    if (!Array.isArray(value) || value.length === 0) {
      throw invalidInput('With multipleSamples, input must be a non-empty array whose items are the samples', { field: 'input', reason: 'notSamples' })
    }
    samples = value
  }
  const draft: Draft = askedDraft === 'auto' ? '2020-12' : askedDraft
  const result = await inferSchema(samples, { draft, required, additionalProperties, formats: detectFormats ? INFERRED_FORMATS : [] })
  return { result, action: 'infer' as const, draft, warnings: warnings.list() }
}

const ERROR_EXAMPLE = {
  instancePath: '/id',
  schemaPath: '#/properties/id/minimum',
  keyword: 'minimum',
  message: 'must be >= 1',
  params: { comparison: '>=', limit: 1 },
}

const USER_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 }, email: { type: 'string', format: 'email' } },
  required: ['id', 'email'],
}

export const jsonSchema = defineOperation({
  name: 'json-schema',
  category: 'converters',
  summary: 'Validate JSON against a JSON Schema (2020-12, 2019-09, draft-07, -06, -04), or infer a schema from samples',
  title: 'JSON Schema validator and generator',
  aliases: [
    'json schema',
    'validate',
    'validation',
    'validate json',
    'json validator',
    'schema validation',
    'ajv',
    'infer schema',
    'generate schema',
    'json to schema',
    'schema from json',
    'genson',
    'draft 2020-12',
    'draft-07',
    '$ref',
  ],
  description:
    "`validate` checks the instance `input` against `schema` with ajv: `draft` is taken from the schema's `$schema` (2020-12 when it has none) unless given; the answer is `result` (true when valid) and every error ajv finds, as `{ instancePath, schemaPath, keyword, message, params }` with JSON Pointers, " +
    `the first \`maxErrors\` of them (default ${DEFAULT_MAX_ERRORS}, at most ${MAX_ERRORS}) listed, \`errorCount\` all of them and \`truncated\` whether some were left out. An invalid instance is a 200 with \`result: false\`, not an error (the command line exits 1). ` +
    '`formats: assert` (the default) checks `format` with the full set of ajv-formats (date-time, email, uri, uuid, ipv4, ipv6, regex and more), in every draft: 2019-09 and 2020-12 make `format` an annotation only, but `"format": "email"` is written to be checked; `ignore` does not check it. Formats apply to strings only; an unknown format is ignored, as are unknown keywords. ' +
    "`infer` writes a schema that every sample validates against, by genson's rules: one type per place (an integer and a number make a number; several types make a list of types, or `anyOf` where objects or arrays are among them), objects with their `properties` and (`required: all`) the keys present in every sample, arrays with the schema of all their items together; " +
    '`multipleSamples` reads `input` as an array of samples, `additionalProperties: false` closes every object, `detectFormats` writes a `format` (date-time, date, time, email, uri, uuid, ipv4, ipv6) where every string at that place has it. ' +
    '`input` and `schema` take a JSON value or its text (a string is read as JSON text, so the string "abc" is sent as "\\"abc\\""); numbers are read as JavaScript reads them, and a number literal in JSON text that a double cannot hold exactly is warned of. ' +
    'In draft-07, -06 and -04 `$ref` stands alone, as those drafts say: the keywords beside it (and an `$id` that would change its base URI) are ignored; from 2019-09 they apply. ' +
    "A property named `__proto__` is checked as any other (ajv skips that name in `properties`, so it is checked through the `patternProperties` entry `^__proto__$`, which its errors' `schemaPath` names). " +
    'Known gaps of ajv 8, the engine: `$dynamicRef`, some `unevaluatedProperties`/`unevaluatedItems` cases (with `contains`, `if`, nested `items`), and relative-URI and URN `$ref` between embedded resources (refused, 422 LIMIT_EXCEEDED). `const`, `enum` and `uniqueItems` compare JSON values by their own members (the comparison ajv ships is replaced: it failed on a member named `valueOf` or `toString`), and `uniqueItems` in linear time. ' +
    'Refused with 422 INVALID_INPUT: JSON text that does not parse (its position), a schema its meta-schema refuses (`details` lists each `{ schemaPath, message }`), an unknown `$schema` URI (the message lists those supported), and a `$ref` to anything outside the schema: remote references are never fetched (no network, no file), so put the schema under `$defs`. ' +
    `Refused with 422 LIMIT_EXCEEDED: schema or instance nested deeper than ${MAX_NESTING_DEPTH} levels, checked before compiling, and references ajv cannot compile without overflowing its stack. ` +
    'The schema is compiled to code, so every call runs on a worker thread: one that runs past the time budget (a `pattern` with catastrophic backtracking, `uniqueItems` over many large objects) is stopped and answered 422 LIMIT_EXCEEDED (`details.reason: "timeout"`), since it would run out again (503 TIMEOUT only when it waited for a free thread past the budget); one whose errors outgrow the memory a task may use (about a million of them, every error is kept until the validation ends) is stopped and answered 422 LIMIT_EXCEEDED.',
  input: Type.Object(
    {
      input: Type.Unknown({
        description:
          'validate: the instance to check. infer: the sample (or, with multipleSamples, an array of samples). Any JSON value; a string is read as JSON text.',
        examples: [{ id: 7, email: 'ada@example.org' }],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, { description: 'Check `input` against `schema` (`validate`), or write a schema from samples (`infer`).' }),
        'validate',
      ),
      schema: Type.Optional(
        Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Boolean(), Type.String()], {
          description: 'validate only (required there): the JSON Schema, an object or a boolean, or its JSON text.',
          examples: [USER_SCHEMA],
        }),
      ),
      draft: withDefault(
        Type.Enum(DRAFTS, {
          description:
            'validate: the draft to read the schema as; `auto` takes it from `$schema`, else 2020-12. infer: the draft whose `$schema` the result names (`auto` is 2020-12).',
        }),
        'auto',
      ),
      formats: withDefault(Type.Enum(FORMAT_MODES, { description: 'validate: check `format` keywords (`assert`) or not (`ignore`).' }), 'assert'),
      maxErrors: withDefault(
        Type.Integer({ minimum: 1, maximum: MAX_ERRORS, description: 'validate: the most errors listed; `errorCount` counts them all.' }),
        DEFAULT_MAX_ERRORS,
      ),
      multipleSamples: withDefault(Type.Boolean({ description: 'infer: `input` is an array whose items are the samples.' }), false),
      required: withDefault(
        Type.Enum(REQUIRED_MODES, { description: 'infer: list as `required` the keys present in every sample (`all`), or none (`none`).' }),
        'all',
      ),
      additionalProperties: withDefault(
        Type.Boolean({ description: 'infer: false writes `"additionalProperties": false` on every object, refusing keys the samples did not have.' }),
        true,
      ),
      detectFormats: withDefault(
        Type.Boolean({ description: 'infer: write a `format` where every string at that place is a date-time, date, time, email, uri, uuid, ipv4 or ipv6.' }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({ description: 'validate: true when the instance is valid (a boolean). infer: the schema.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    draft: Type.Enum(
      DRAFTS.filter((draft) => draft !== 'auto'),
      { description: 'The draft the schema was read as, or written for.' },
    ),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          instancePath: Type.String({ description: 'A JSON Pointer to the failing value of the instance ("" is the whole).' }),
          schemaPath: Type.String({ description: 'A JSON Pointer fragment to the failing keyword of the schema.' }),
          keyword: Type.String({ description: 'The keyword that failed.' }),
          message: Type.String({ description: "What was wrong, in ajv's words." }),
          params: Type.Record(Type.String(), Type.Unknown(), { description: "The keyword's figures (a limit, the missing property…)." }),
        }),
        { description: 'validate: the errors found, the first `maxErrors` of them; empty when valid.' },
      ),
    ),
    errorCount: Type.Optional(Type.Integer({ description: 'validate: how many errors were found.' })),
    truncated: Type.Optional(Type.Boolean({ description: 'validate: whether errors were left out of the list.' })),
    warnings: Type.Array(Type.String(), {
      description: 'Number literals in JSON text that a double cannot hold exactly, a `$schema` overridden by `draft`, errors left out for the output limit.',
    }),
  }),
  verdict: { field: 'result', failure: 'The instance does not validate against the schema' },
  actions: {
    validate: { fields: ['input', 'schema', 'draft', 'formats', 'maxErrors'], requires: ['schema'] },
    infer: { fields: ['input', 'draft', 'multipleSamples', 'required', 'additionalProperties', 'detectFormats'] },
  },
  examples: [
    {
      summary: 'Validate an object against a schema',
      input: { input: { id: 7, email: 'ada@example.org' }, schema: USER_SCHEMA },
      output: { result: true, action: 'validate', draft: '2020-12', errors: [], errorCount: 0, truncated: false, warnings: [] },
    },
    {
      summary: 'An invalid instance: every error, with where it is',
      input: { input: { id: 0, email: 'not an address' }, schema: USER_SCHEMA },
      output: {
        result: false,
        action: 'validate',
        draft: '2020-12',
        errors: [
          ERROR_EXAMPLE,
          {
            instancePath: '/email',
            schemaPath: '#/properties/email/format',
            keyword: 'format',
            message: 'must match format "email"',
            params: { format: 'email' },
          },
        ],
        errorCount: 2,
        truncated: false,
        warnings: [],
      },
    },
    {
      summary: 'Infer a schema from two samples',
      input: {
        input: [
          { id: 1, name: 'Ada', tags: ['x'] },
          { id: 2.5, name: 'Bob', tags: [], email: null },
        ],
        action: 'infer',
        multipleSamples: true,
      },
      output: {
        result: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { id: { type: 'number' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, email: { type: 'null' } },
          required: ['id', 'name', 'tags'],
        },
        action: 'infer',
        draft: '2020-12',
        warnings: [],
      },
    },
  ],
  // The schema is compiled to JavaScript and may hold a pattern that backtracks for ever: only a thread that can be stopped runs it.
  offload: () => true,
  overrun: {
    advice: 'a pattern that backtracks catastrophically or uniqueItems over many large items costs this much; simplify the schema or send a smaller instance',
  },
  run(fields) {
    return fields.action === 'infer' ? infer(fields) : validate(fields)
  },
})
