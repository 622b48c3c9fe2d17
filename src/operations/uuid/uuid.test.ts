import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { inspectUuid, uuid } from './index.ts'

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

  describe('action inspect', () => {
    const inspect = (input: string, extra: Record<string, unknown> = {}) =>
      execute(uuid, { action: 'inspect', input, ...extra }) as Promise<Record<string, unknown>>

    test('RFC 9562 Appendix A.1 (version 1) and A.5 (version 6): the same instant, clock sequence and node', async () => {
      const fields = {
        variant: 'rfc9562',
        standard: true,
        time: '2022-02-22T19:22:22.000Z',
        unixMs: 1645557742000,
        timestamp: String(0x1ec9414c232ab00n),
        clockSequence: 0x33c8,
        node: '9f:6b:de:ce:d8:46',
        nodeIsRandom: true,
      }
      assert.equal(fields.timestamp, '138648505420000000')
      assert.deepEqual(await inspect('C232AB00-9414-11EC-B3C8-9F6BDECED846'), {
        result: 'c232ab00-9414-11ec-b3c8-9f6bdeced846',
        action: 'inspect',
        version: 1,
        description: 'time-based (Gregorian time, clock sequence and node)',
        ...fields,
      })
      const v6 = await inspect('1EC9414C-232A-6B00-B3C8-9F6BDECED846')
      assert.equal(v6.version, 6)
      for (const [key, value] of Object.entries(fields)) assert.deepEqual(v6[key], value, key)
    })

    test('RFC 9562 Appendix A.6 (version 7): its Unix milliseconds', async () => {
      const answer = await inspect('017F22E2-79B0-7CC3-98C4-DC0C0C07398F')
      assert.equal(answer.version, 7)
      assert.equal(answer.unixMs, 1645557742000)
      assert.equal(answer.time, '2022-02-22T19:22:22.000Z')
      assert.equal(answer.timestamp, undefined)
    })

    test('RFC 9562 Appendix A.2, A.3 and A.4 (versions 3, 4 and 5): no time; the hash of the name-based ones', async () => {
      for (const [value, version, hash] of [
        ['5df41881-3aed-3515-88a7-2f4a814cf09e', 3, 'md5'],
        ['919108f7-52d1-4320-9bac-f847db4148a8', 4, undefined],
        ['2ed6657d-e927-568b-95e1-2665a8aea6a2', 5, 'sha1'],
      ] as const) {
        const answer = await inspect(value)
        assert.equal(answer.version, version)
        assert.equal(answer.variant, 'rfc9562')
        assert.equal(answer.standard, true)
        assert.equal(answer.hash, hash)
        assert.equal(answer.time, undefined)
        assert.equal(answer.unixMs, undefined)
      }
    })

    test('RFC 9562 Appendix B.1 and B.2 (version 8): a custom layout, of which only version and variant are read', async () => {
      for (const value of ['2489E9AD-2EE2-8E00-8EC9-32D5F69181C0', '5c146b14-3c52-8afd-938a-375d0df1fbf6']) {
        assert.deepEqual(await inspect(value), {
          result: value.toLowerCase(),
          action: 'inspect',
          version: 8,
          variant: 'rfc9562',
          standard: true,
          description: 'custom layout (vendor-specific)',
        })
      }
    })

    test('nil and max; the forms the generator writes, any letter case, surrounding whitespace', async () => {
      assert.deepEqual(await inspect('00000000-0000-0000-0000-000000000000'), {
        result: '00000000-0000-0000-0000-000000000000',
        action: 'inspect',
        version: 'nil',
        variant: 'ncs',
        standard: true,
        description: 'the nil UUID (all zeros)',
      })
      const max = await inspect('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF')
      assert.equal(max.version, 'max')
      assert.equal(max.variant, 'reserved')
      assert.equal(max.standard, true)
      for (const form of [
        '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
        '017F22E279B07CC398C4DC0C0C07398F',
        '{017F22E2-79B0-7CC3-98C4-DC0C0C07398F}',
        '{017f22e279b07cc398c4dc0c0c07398f}',
        'urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
        'URN:UUID:017F22E2-79B0-7CC3-98C4-DC0C0C07398F',
        '  \n017f22e2-79b0-7cc3-98c4-dc0c0c07398f\t ',
      ]) {
        assert.equal((await inspect(form)).result, '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', form)
      }
      assert.equal(
        (await inspect('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', { format: 'urn', uppercase: true })).result,
        'urn:uuid:017F22E2-79B0-7CC3-98C4-DC0C0C07398F',
      )
      assert.equal((await inspect('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', { format: 'compact' })).result, '017f22e279b07cc398c4dc0c0c07398f')
    })

    test('other variants and undefined versions are read but not standard', async () => {
      const ncs = await inspect('c232ab00-9414-11ec-73c8-9f6bdeced846')
      assert.deepEqual([ncs.variant, ncs.standard, ncs.time], ['ncs', false, undefined])
      assert.equal((await inspect('c232ab00-9414-11ec-c3c8-9f6bdeced846')).variant, 'microsoft')
      assert.equal((await inspect('c232ab00-9414-11ec-e3c8-9f6bdeced846')).variant, 'reserved')
      const nine = await inspect('c232ab00-9414-91ec-b3c8-9f6bdeced846')
      assert.deepEqual([nine.version, nine.variant, nine.standard], [9, 'rfc9562', false])
      assert.equal((await inspect('c232ab00-9414-01ec-b3c8-9f6bdeced846')).version, 0)
    })

    test('anything but 32 hex digits in those forms is a 422 naming the position', async () => {
      const bad = (input: string, position: number) => expectRefusal(inspect(input), { code: 'INVALID_INPUT', position })
      await bad('017f22e2-79b0-7cc3-98c4-dc0c0c07398g', 35)
      await bad('017f22e2-79b0-7cc3-98c4_dc0c0c07398f', 23)
      await bad('017f22e2-79b0-7cc3-98c4-dc0c0c07398', 35)
      await bad('017f22e2-79b0-7cc3-98c4-dc0c0c07398ff', 36)
      await bad('{017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 37)
      await bad('{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}}', 38)
      await bad('  urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398z', 46)
      await bad('017f22e279b07cc398c4dc0c0c07398', 31)
      await bad('', 0)
      await bad('not a uuid', 0)
      await bad('017f22e2-79b0-7cc3-98c4-dc0c0c07398🙂', 35)
    })

    test('inspect needs input and refuses the generator fields; generate refuses input (400)', async () => {
      await refuses({ action: 'inspect' }, 'input')
      await refuses({ input: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f' }, 'input')
      await refuses({ action: 'inspect', input: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', version: 7 }, 'version')
      await refuses({ action: 'inspect', input: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', count: 2 }, 'count')
      await refuses({ action: 'inspect', input: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', namespace: 'dns' }, 'namespace')
      await refuses({ action: 'inspect', input: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', name: 'x' }, 'name')
      // A field of generate is refused even when it equals its default, which inspect cannot tell from its absence.
      for (const [field, value] of [
        ['version', 4],
        ['count', 1],
      ] as const) {
        await expectRefusal(run({ action: 'inspect', input: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', [field]: value }), {
          code: 'VALIDATION_ERROR',
          field,
          message: new RegExp(`^${field} is only used by action generate, not by inspect$`),
        })
      }
      // What both actions read is refused by neither.
      assert.equal(
        (await run({ action: 'inspect', input: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F', format: 'standard', uppercase: false })).result,
        '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
      )
      await refuses({ action: 'inspect', input: 'x'.repeat(257) }, 'input')
      await refuses({ action: 'decode', input: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f' }, 'action')
    })

    test('property: what generate makes, inspect reads back as its version and variant rfc9562, with the time for 1, 6 and 7', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(1, 3, 4, 5, 6, 7),
          fc.string({ maxLength: 20 }),
          fc.constantFrom('standard', 'compact', 'braces', 'urn'),
          async (version, name, format) => {
            const extra = version === 3 || version === 5 ? { namespace: 'url', name } : {}
            const before = Date.now()
            const { result } = await run({ version, format, ...extra })
            const after = Date.now()
            const found = inspectUuid(result)
            assert.equal(found.version, version)
            assert.equal(found.variant, 'rfc9562')
            assert.equal(found.standard, true)
            if (version === 1 || version === 6 || version === 7) {
              assert.ok(found.unixMs! >= before - 1 && found.unixMs! <= after + 1, `${result}: ${found.unixMs} not between ${before} and ${after}`)
              assert.equal(found.time, new Date(found.unixMs!).toISOString())
            }
          },
        ),
        { numRuns: 200 },
      )
    })

    test('property: any 128 bits in any form are read back as the same canonical UUID', () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 16, maxLength: 16 }),
          fc.constantFrom('standard', 'compact', 'braces', 'urn'),
          fc.boolean(),
          (bytes, format, upper) => {
            const hex = Buffer.from(bytes).toString('hex')
            const canonical = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
            const cased = upper ? canonical.toUpperCase() : canonical
            const text = { standard: cased, compact: cased.replaceAll('-', ''), braces: `{${cased}}`, urn: `urn:uuid:${cased}` }[format]
            assert.equal(inspectUuid(text).uuid, canonical)
          },
        ),
      )
    })

    test('property: any other text is a 422 with a position inside it, never another error', () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 60 }), (text) => {
          try {
            inspectUuid(text)
          } catch (error) {
            const { code, details } = error as { code: string; details: { position: number } }
            assert.equal(code, 'INVALID_INPUT')
            assert.ok(details.position >= 0 && details.position <= text.length)
          }
        }),
      )
    })
  })
})
