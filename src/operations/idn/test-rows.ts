import assert from 'node:assert/strict'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** idn's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile('idn toAscii of 1,024 ZERO WIDTH NON-JOINERs', { input: '\u200C'.repeat(1024) }, 422, 'INVALID_INPUT'),
    hostile('idn toUnicode of 1,024 empty labels', { input: '.'.repeat(1024), action: 'toUnicode' }, 200),
    hostile('idn toUnicode of 1,024 characters that each map to 18', { input: '\uFDFA'.repeat(1024), action: 'toUnicode' }, 200),
    hostile('idn toUnicode of 1,024 combining marks', { input: '\u0308'.repeat(1024), action: 'toUnicode' }, 200),
    hostile('idn toUnicode of 256 right-to-left labels breaking the Bidi rule', { input: '\u05D01.a'.repeat(256), action: 'toUnicode' }, 200),
    {
      ...hostile('idn toAscii of a label Punycode cannot encode', { input: `${'\uFDFA'.repeat(900)}\u{3134A}`, checkBidi: false }, 422, 'INVALID_INPUT'),
      message: /Punycode/,
    },
    { ...hostile('idn decode of 1,024 digits, overflowing', { input: '9'.repeat(1024), action: 'decode' }, 422, 'INVALID_INPUT'), message: /overflows/ },
    { ...hostile('idn of 1,025 characters', { input: 'a'.repeat(1025) }, 400, 'VALIDATION_ERROR'), field: 'input' },
    { ...hostile('idn encode of a lone surrogate', { input: 'a\uD800', action: 'encode' }, 422, 'INVALID_INPUT') },
  ],
  heavy: [
    { summary: 'toUnicode of 1,024 empty labels, each an error', input: { input: '.'.repeat(1024), action: 'toUnicode' } },
    { summary: 'toUnicode of 1,024 characters that each map to 18', input: { input: '\uFDFA'.repeat(1024), action: 'toUnicode' } },
  ],
  mcpTasks: [
    {
      task: 'convert an internationalized domain name with umlauts to punycode xn--',
      arguments: { input: 'bücher.example' },
      check: (data) => assert.equal(data.result, 'xn--bcher-kva.example'),
    },
  ],
}
