import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectRefusal } from '../../test/expect.ts'
import { execute } from '../core/execute.ts'
import { uuid } from './uuid.ts'

const run = (input: Record<string, unknown>) => execute(uuid, input) as Promise<{ result: string; results: string[]; version: unknown }>
const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })

const STANDARD = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The 100 ns intervals since 1582-10-15 that a version 1 or 6 timestamp counts, as Unix milliseconds. */
const GREGORIAN_OFFSET_MS = 12_219_292_800_000n
function timeOfV1(value: string): number {
  const [low, mid, high] = value.split('-')
  const ticks = BigInt(`0x${high.slice(1)}${mid}${low}`)
  return Number(ticks / 10_000n - GREGORIAN_OFFSET_MS)
}
function timeOfV6(value: string): number {
  const hex = value.replaceAll('-', '')
  const ticks = BigInt(`0x${hex.slice(0, 12)}${hex.slice(13, 16)}`)
  return Number(ticks / 10_000n - GREGORIAN_OFFSET_MS)
}
const timeOfV7 = (value: string) => Number.parseInt(value.replaceAll('-', '').slice(0, 12), 16)

describe('uuid', () => {
  test('RFC 9562 Appendix A name-based examples: version 3 and 5 of www.example.com in the DNS namespace', async () => {
    assert.equal((await run({ version: 3, namespace: 'dns', name: 'www.example.com' })).result, '5df41881-3aed-3515-88a7-2f4a814cf09e')
    assert.equal((await run({ version: 5, namespace: 'dns', name: 'www.example.com' })).result, '2ed6657d-e927-568b-95e1-2665a8aea6a2')
  })

  test('a namespace may be given as a UUID in any format, with the same answer as its name', async () => {
    const byName = (await run({ version: 5, namespace: 'url', name: 'https://example.com/' })).result
    for (const namespace of [
      '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
      '6BA7B8119DAD11D180B400C04FD430C8',
      '{6ba7b811-9dad-11d1-80b4-00c04fd430c8}',
      'urn:uuid:6ba7b811-9dad-11d1-80b4-00c04fd430c8',
    ]) {
      assert.equal((await run({ version: 5, namespace, name: 'https://example.com/' })).result, byName, namespace)
    }
    // Any 128-bit value is a namespace, even one whose version and variant bits are not RFC 9562's.
    const custom = await run({ version: 3, namespace: '12345678-1234-0234-1234-123456789abc', name: '' })
    assert.match(custom.result, STANDARD)
    assert.notEqual(custom.result, (await run({ version: 3, namespace: 'dns', name: '' })).result)
    // Names are hashed as UTF-8: a different name gives a different UUID, the same name the same one.
    const accented = await run({ version: 5, namespace: 'oid', name: 'café', count: 3 })
    assert.deepEqual(accented.results, [accented.result, accented.result, accented.result])
    assert.notEqual(accented.result, (await run({ version: 5, namespace: 'oid', name: 'cafe' })).result)
  })

  test('every version carries its version digit and the RFC 9562 variant bits', async () => {
    for (const version of [1, 3, 4, 5, 6, 7]) {
      const extra = version === 3 || version === 5 ? { namespace: 'x500', name: 'cn=test' } : {}
      const { result, results, version: echoed } = await run({ version, count: 50, ...extra })
      assert.equal(echoed, version)
      assert.equal(results.length, 50)
      assert.equal(result, results[0])
      for (const value of results) {
        assert.match(value, STANDARD)
        assert.equal(value[14], String(version), value)
        assert.match(value[19], /[89ab]/, value)
      }
    }
  })

  test('random versions do not repeat', async () => {
    for (const version of [1, 4, 6, 7]) {
      const { results } = await run({ version, count: 1000 })
      assert.equal(new Set(results).size, 1000, `version ${version}`)
    }
  })

  test('versions 1, 6 and 7 carry the current time', async () => {
    const before = Date.now()
    const [v1, v6, v7] = await Promise.all([1, 6, 7].map(async (version) => (await run({ version })).result))
    const after = Date.now()
    for (const [value, time] of [
      [v1, timeOfV1(v1)],
      [v6, timeOfV6(v6)],
      [v7, timeOfV7(v7)],
    ] as const) {
      assert.ok(time >= before - 1 && time <= after + 1, `${value} tells ${time}, not between ${before} and ${after}`)
    }
  })

  test('version 7 values of one response are strictly increasing, over 1000 values and across calls', async () => {
    let previous = ''
    for (let call = 0; call < 3; call++) {
      const { results } = await run({ version: 7, count: 1000 })
      for (const value of results) {
        assert.ok(value > previous, `${value} follows ${previous}`)
        previous = value
      }
    }
  })

  test('nil and max', async () => {
    assert.deepEqual(await run({ version: 'nil', count: 2 }), {
      result: '00000000-0000-0000-0000-000000000000',
      results: ['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000000'],
      version: 'nil',
    })
    assert.equal((await run({ version: 'max', uppercase: true })).result, 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF')
  })

  test('each format, in lower and upper case', async () => {
    const input = { version: 5, namespace: 'dns', name: 'www.example.com' }
    const expected = {
      standard: '2ed6657d-e927-568b-95e1-2665a8aea6a2',
      compact: '2ed6657de927568b95e12665a8aea6a2',
      braces: '{2ed6657d-e927-568b-95e1-2665a8aea6a2}',
      urn: 'urn:uuid:2ed6657d-e927-568b-95e1-2665a8aea6a2',
    }
    for (const [format, value] of Object.entries(expected)) {
      assert.equal((await run({ ...input, format })).result, value)
      assert.equal(
        (await run({ ...input, format, uppercase: true })).result,
        value.replace(/[0-9a-f]{4,}/g, (hex) => hex.toUpperCase()),
      )
    }
    assert.match((await run({ format: 'urn', uppercase: true })).result, /^urn:uuid:[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/)
    assert.match((await run({ format: 'compact' })).result, /^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/)
  })

  test('the default is one version 4 UUID; the response fields come in the documented order', async () => {
    const answer = await run({})
    assert.deepEqual(Object.keys(answer), ['result', 'results', 'version'])
    assert.equal(answer.version, 4)
    assert.equal(answer.results.length, 1)
    assert.equal(answer.result[14], '4')
  })

  test('namespace and name are required for versions 3 and 5, and refused for the others (400)', async () => {
    await refuses({ version: 3, name: 'x' }, 'namespace')
    await refuses({ version: 5, namespace: 'dns' }, 'name')
    for (const version of [1, 4, 6, 7, 'nil', 'max']) {
      await refuses({ version, namespace: 'dns', name: 'x' }, 'namespace')
      await refuses({ version, name: 'x' }, 'name')
    }
  })

  test('bounds, unknown values and malformed namespaces are 400s', async () => {
    await refuses({ count: 0 }, 'count')
    await refuses({ count: 1001 }, 'count')
    await refuses({ version: 2 }, 'version')
    await refuses({ version: 8 }, 'version')
    await refuses({ version: '4' }, 'version')
    await refuses({ format: 'hex' }, 'format')
    await refuses({ uppercase: 'true' }, 'uppercase')
    await refuses({ bogus: 1 }, 'bogus')
    for (const namespace of [
      'DNS',
      'example.com',
      '6ba7b811-9dad-11d1-80b4-00c04fd430c',
      '{6ba7b811-9dad-11d1-80b4-00c04fd430c8',
      'urn:uuid:6ba7b8119dad11d180b400c04fd430c8',
      'g'.repeat(32),
    ]) {
      await refuses({ version: 5, namespace, name: 'x' }, 'namespace')
    }
    assert.equal((await run({ count: 1000 })).results.length, 1000)
  })
})
