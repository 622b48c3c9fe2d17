import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { choiceLabels, fieldLabel } from './labels.ts'

describe('labels', () => {
  test('a field is labelled by its name in words, in sentence case, unless its operation says otherwise', () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['input', undefined, 'Input'],
      ['inputEncoding', undefined, 'Input encoding'],
      ['clockToleranceSeconds', undefined, 'Clock tolerance seconds'],
      ['useStd3AsciiRules', undefined, 'Use STD3 ASCII rules'],
      ['jsonArgs', undefined, 'JSON args'],
      ['isCa', undefined, 'Is CA'],
      ['memoryKiB', 'Memory (KiB)', 'Memory (KiB)'],
    ]
    for (const [name, override, label] of cases) assert.equal(fieldLabel(name, override), label, name)
  })

  test('choices: compound names in words, "to" between two formats an arrow, bare words and technical names as they are', () => {
    const cases: Array<[Array<string | number | boolean>, Record<string, string>, Record<string, string>]> = [
      [['timestampToDate', 'dateToTimestamp'], {}, { timestampToDate: 'Timestamp to date', dateToTimestamp: 'Date to timestamp' }],
      [['yamlToJson', 'jsonToYaml'], {}, { yamlToJson: 'YAML → JSON', jsonToYaml: 'JSON → YAML' }],
      // A list of bare lower-case words keeps its phrases in lower case.
      [['sort', 'union', 'symmetricDifference'], {}, { symmetricDifference: 'symmetric difference' }],
      [['toAscii', 'toUnicode', 'encode'], {}, { toAscii: 'to ASCII', toUnicode: 'to Unicode' }],
      [['minimal', 'nonAscii', 'all'], {}, { nonAscii: 'non-ASCII' }],
      [['hex', 'utf8', 'aes-256-gcm', 'EdDSA', 'P-256', 4, true], {}, {}],
      [['gzip', 'deflate-raw'], {}, { 'deflate-raw': 'deflate raw' }],
      [[',', '\t', ''], {}, { '\t': 'tab', '': '(empty)' }],
      [['runToCompose', 'composeToRun'], { runToCompose: 'docker run → Compose' }, { runToCompose: 'docker run → Compose', composeToRun: 'Compose to run' }],
    ]
    for (const [values, overrides, labels] of cases) assert.deepEqual(choiceLabels(values, overrides), labels, values.join(', '))
  })
})
