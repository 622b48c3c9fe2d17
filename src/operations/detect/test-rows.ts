import assert from 'node:assert/strict'
import { BILLION_LAUGHS } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** detect's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    ...['a.', '@', '{', '%', '0', '[', '- ', 'a:\n  '].map((unit) =>
      hostile(`detect of 64 KiB of ${JSON.stringify(unit)}`, { input: unit.repeat(65_536 / unit.length), limit: 50, minConfidence: 0 }, 200),
    ),
    { ...hostile('detect of 65,537 characters', { input: 'a'.repeat(65_537) }, 400, 'VALIDATION_ERROR'), field: 'input' },
    { ...hostile('detect with a type it does not know', { input: 'x', types: ['sha256'] }, 400, 'VALIDATION_ERROR'), field: 'types[0]' },
    hostile('detect of a YAML alias bomb', { input: BILLION_LAUGHS }, 200),
    hostile('detect of 5,000 nested JSON arrays', { input: '['.repeat(5000) + ']'.repeat(5000) }, 200),
    hostile('detect of an XML document with a DOCTYPE (never expanded)', { input: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>' }, 200),
  ],
  heavy: [
    { summary: 'the longest YAML mapping, every reading tried', input: { input: 'a: b\n'.repeat(65_536 / 5), limit: 50, minConfidence: 0 } },
    { summary: 'the longest JSON array', input: { input: `[${'0,'.repeat(32_766)}0]`, limit: 50, minConfidence: 0 } },
  ],
  mcpTasks: [
    {
      task: 'what kind of string is this? identify it',
      arguments: { input: '507f1f77bcf86cd799439011' },
      check: (data) => assert.equal(data.result, 'objectId'),
    },
  ],
}
