import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Type } from 'typebox'
import { withDefault } from '../../src/core/operation.ts'
import { validate } from '../../src/core/validate.ts'

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

describe('validate never repeats a secret', () => {
  test('a writeOnly field of the wrong type is refused by its type alone, the value left out', () => {
    const schema = Type.Object({
      passphrase: Type.Optional(Type.String({ writeOnly: true })),
      key: Type.Optional(Type.Union([Type.String(), Type.Integer()], { writeOnly: true })),
      mode: Type.Optional(Type.String()),
    })
    const refusal = (value: Record<string, unknown>) => {
      try {
        validate(schema, value)
      } catch (error) {
        return JSON.stringify({ message: (error as Error).message, details: (error as { details?: unknown }).details })
      }
      assert.fail('accepted')
    }
    assert.match(refusal({ passphrase: 987654321 }), /passphrase must be a string \(received a number\)/)
    assert.doesNotMatch(refusal({ passphrase: 987654321 }), /987654321/)
    assert.doesNotMatch(refusal({ key: true }), /true\)/)
    assert.match(refusal({ key: 1.5 }), /\(received a number\)/)
    // Other fields still show what was received.
    assert.match(refusal({ mode: 7 }), /\(received the number 7\)/)
  })

  test('no operation repeats a wrong-typed value of any of its writeOnly fields', async () => {
    const { operations } = await import('../../src/operations/index.ts')
    let checked = 0
    for (const operation of operations) {
      const properties = (operation.input as { properties: Record<string, { writeOnly?: boolean }> }).properties
      for (const [field, schema] of Object.entries(properties)) {
        if (schema.writeOnly !== true) continue
        for (const value of [987654321, true, { secret: 'hunter2' }]) {
          try {
            validate(operation.input, { [field]: value })
          } catch (error) {
            const said = JSON.stringify({ message: (error as Error).message, details: (error as { details?: unknown }).details })
            assert.doesNotMatch(said, /987654321|hunter2|received true/, `${operation.name}.${field}`)
            checked++
          }
        }
      }
    }
    assert.ok(checked > 20, `${checked} refusals checked`)
  })
})

describe('validate refuses a count past its bound at once', () => {
  const schema = Type.Object({
    steps: Type.Array(Type.Object({ operation: Type.String() }, { additionalProperties: false }), { maxItems: 20 }),
    headers: Type.Optional(Type.Record(Type.String(), Type.String(), { maxProperties: 3 })),
  })
  const refusal = (value: unknown) => {
    try {
      validate(schema, value)
    } catch (error) {
      return { message: (error as Error).message, details: (error as { details?: unknown }).details }
    }
    assert.fail('accepted')
  }

  test('tens of thousands of items, each wrong too, are one problem: the count, named as the full check names it', () => {
    const steps = Array.from({ length: 40_000 }, () => ({ operation: 1, extra: true }))
    assert.deepEqual(refusal({ steps }), { message: 'steps must have at most 20 items', details: [{ field: 'steps', message: 'must have at most 20 items' }] })
    assert.deepEqual(refusal({ steps: [], headers: Object.fromEntries(Array.from({ length: 45_000 }, (_, i) => [`h${i}`, 1])) }).details, [
      { field: 'headers', message: 'must have at most 3 properties' },
    ])
  })

  test('within its bound, the full check runs as before', () => {
    assert.deepEqual(refusal({ steps: [{ operation: 1 }] }).details, [{ field: 'steps[0].operation', message: 'must be a string (received the number 1)' }])
  })
})
