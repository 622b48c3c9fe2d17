import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Type } from 'typebox'
import { withDefault } from '../src/core/operation.ts'
import { validate } from '../src/core/validate.ts'

describe('validate fills in defaults', () => {
  const schema = Type.Object({ input: Type.String(), mode: withDefault(Type.String(), 'encode'), tags: withDefault(Type.Array(Type.String()), []) })

  test('into a new object, leaving the caller’s as it was sent', () => {
    const sent = { input: 'x' }
    const checked = validate<Record<string, unknown>>(schema, sent)
    assert.deepEqual(checked, { input: 'x', mode: 'encode', tags: [] })
    assert.deepEqual(sent, { input: 'x' })
    assert.equal(validate<Record<string, unknown>>(schema, { input: 'x', mode: 'decode' }).mode, 'decode', 'a field sent wins over its default')
  })

  test('copying an object default for each call, so that no call changes what the next one gets', () => {
    const first = validate<{ tags: string[] }>(schema, { input: 'x' })
    first.tags.push('changed')
    assert.deepEqual(validate<{ tags: string[] }>(schema, { input: 'x' }).tags, [])
  })

  test('keeping an own __proto__ key of an open schema as data, never as the prototype', () => {
    const open = Type.Object({ input: Type.String(), mode: withDefault(Type.String(), 'encode') }, { additionalProperties: true })
    const sent = JSON.parse('{"input": "x", "__proto__": {"mode": "injected", "polluted": true}}')
    const checked = validate<Record<string, unknown>>(open, sent)
    assert.equal(Object.getPrototypeOf(checked), Object.prototype)
    assert.equal(checked.mode, 'encode')
    assert.equal(checked.polluted, undefined)
    assert.ok(Object.hasOwn(checked, '__proto__'))
  })
})
