import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { isLargerThan } from '../../lib/json/value.ts'
import { YAML_OFFLOAD_THRESHOLD, yamlToJson } from '../../lib/yaml/yaml-to-json.ts'
import { jsonToYaml } from './json-to-yaml.ts'

export const yamlJson = defineOperation({
  name: 'yaml-json',
  category: 'converters',
  summary: 'Convert YAML to JSON and JSON to YAML',
  title: 'YAML and JSON',
  aliases: ['yaml to json', 'json to yaml', 'yml', 'kubernetes manifest', 'docker compose'],
  description:
    'yamlToJson reads YAML 1.2 (core schema, merge keys `<<` honoured) into JSON. Anchors and aliases are expanded; a document whose expansion would pass the 16 MiB output limit ' +
    '(a "billion laughs") or that nests deeper than 100 levels is a 422 LIMIT_EXCEEDED. Duplicate keys are a 422 with the line. Integers beyond 2^53 and .inf/.nan come back as strings, ' +
    'each with a warning. Tags are never executed: a tag outside the core schema (`!!js/function`, `!!binary`, `!custom`…) is ignored with a warning and the plain value kept. ' +
    'jsonToYaml writes a JSON value as YAML that reads back to the same JSON under YAML 1.2 and 1.1: strings such as yes, no, on, off, y, 012, 0x1F, 1e3, 1_000, null, ~, .inf, dates, << and = are quoted. ' +
    `Inputs over ${YAML_OFFLOAD_THRESHOLD / 1024} KiB run on a worker thread, off the event loop, within the time budget (503 TIMEOUT past it).`,
  input: Type.Object(
    {
      input: Type.Unknown({
        description:
          'yamlToJson: the YAML text (a string). jsonToYaml: the JSON value to write, an object, array or scalar; a string is read as JSON text (so the string "a" is sent as "\\"a\\"").',
        examples: ['name: devutils\ntags: [yaml, json]\n'],
      }),
      action: withDefault(
        Type.Enum(['yamlToJson', 'jsonToYaml'], { description: 'Read YAML into JSON (`yamlToJson`), or write JSON as YAML (`jsonToYaml`).' }),
        'yamlToJson',
      ),
      multiDocument: withDefault(
        Type.Boolean({
          description:
            'yamlToJson: return every document of the stream as an array (always an array, even for one document). When false, a stream of several documents is a 422.',
        }),
        false,
      ),
      indent: withDefault(Type.Integer({ minimum: 1, maximum: 8, description: 'jsonToYaml: spaces per indentation level, 1 to 8.' }), 2),
      sortKeys: withDefault(Type.Boolean({ description: 'jsonToYaml: write the keys of every mapping in sorted (UTF-16 code unit) order.' }), false),
      lineWidth: withDefault(
        Type.Integer({ minimum: 0, maximum: 10_000, description: 'jsonToYaml: fold long strings at about this many characters per line; 0 never folds.' }),
        80,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({ description: 'yamlToJson: the JSON value (an array of documents with multiDocument). jsonToYaml: the YAML text.' }),
    action: Type.Enum(['yamlToJson', 'jsonToYaml'], { description: 'The action performed.' }),
    documents: Type.Optional(Type.Integer({ description: 'yamlToJson: how many documents the YAML stream holds.' })),
    warnings: Type.Optional(
      Type.Array(Type.String(), { description: 'yamlToJson: what was changed on the way: ignored tags, big integers and .inf/.nan turned into strings.' }),
    ),
  }),
  actions: {
    yamlToJson: { fields: ['input', 'multiDocument'] },
    jsonToYaml: { fields: ['input', 'indent', 'sortKeys', 'lineWidth'] },
  },
  examples: [
    {
      summary: 'YAML with an anchor and a merge key',
      input: { input: 'base: &base\n  retries: 3\nservice:\n  <<: *base\n  name: api\n  ports: [80, 443]\n' },
      output: {
        result: { base: { retries: 3 }, service: { retries: 3, name: 'api', ports: [80, 443] } },
        action: 'yamlToJson',
        documents: 1,
        warnings: [],
      },
    },
    {
      summary: 'Several documents',
      input: { input: '--- 1\n---\nbig: 12345678901234567890\n', multiDocument: true },
      output: {
        result: [1, { big: '12345678901234567890' }],
        action: 'yamlToJson',
        documents: 2,
        warnings: ['line 3: the integer 12345678901234567890 is beyond 2^53, where JSON numbers lose digits, so it is returned as a string'],
      },
    },
    {
      summary: 'JSON to YAML, with strings YAML 1.1 would misread quoted',
      input: { input: { country: 'no', version: '1.10', enabled: true, tags: ['on', 'y'] }, action: 'jsonToYaml' },
      output: { result: 'country: "no"\nversion: "1.10"\nenabled: true\ntags:\n  - "on"\n  - "y"\n', action: 'jsonToYaml' },
    },
  ],
  offload: ({ input }) => isLargerThan(input, YAML_OFFLOAD_THRESHOLD),
  runsInBrowser: true,
  run({ input, action, multiDocument, indent, sortKeys, lineWidth }) {
    if (action === 'yamlToJson') {
      if (typeof input !== 'string') throw validationError('input', 'must be YAML text (a string) for yamlToJson; JSON values are for jsonToYaml')
      return yamlToJson(input, multiDocument)
    }
    return jsonToYaml(input, { indent, sortKeys, lineWidth })
  },
})
