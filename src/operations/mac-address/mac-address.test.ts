import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { queryToInput } from '../../core/query.ts'
import { macAddress } from './index.ts'

const run = (input: Record<string, unknown>) => execute(macAddress, input) as Promise<{ result: string; results: string[] }>
const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })

const FORMATS = {
  colon: /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/,
  hyphen: /^[0-9a-f]{2}(?:-[0-9a-f]{2}){5}$/,
  dot: /^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$/,
  none: /^[0-9a-f]{12}$/,
}

const bytesOf = (mac: string) => Buffer.from(mac.replace(/[:.-]/g, ''), 'hex')

describe('mac-address', () => {
  test('without a prefix every address is unicast and locally administered; the other bits of the first octet vary', async () => {
    const { result, results } = await run({ count: 1000 })
    assert.equal(result, results[0])
    assert.equal(results.length, 1000)
    const seenHighBits = new Set<number>()
    for (const mac of results) {
      const first = bytesOf(mac)[0]
      assert.equal(first & 0x01, 0, `${mac}: I/G bit clear`)
      assert.equal(first & 0x02, 0x02, `${mac}: U/L bit set`)
      seenHighBits.add(first >> 2)
    }
    assert.equal(seenHighBits.size, 64)
    assert.ok(new Set(results).size > 990)
  })

  test('multicast sets the I/G bit and keeps the U/L bit', async () => {
    for (const mac of (await run({ count: 500, multicast: true })).results) {
      assert.equal(bytesOf(mac)[0] & 0x03, 0x03, mac)
    }
  })

  test('each format, in lower and upper case', async () => {
    for (const [format, pattern] of Object.entries(FORMATS)) {
      for (const mac of (await run({ count: 50, format })).results) assert.match(mac, pattern)
      const upper = (await run({ count: 50, format, uppercase: true })).results
      for (const mac of upper) assert.match(mac.toLowerCase(), pattern)
      assert.ok(upper.some((mac) => /[A-F]/.test(mac)) && upper.every((mac) => !/[a-f]/.test(mac)))
    }
    assert.match((await run({})).result, FORMATS.colon)
  })

  test('a prefix is kept in any of its spellings, and the rest is random', async () => {
    const spellings = ['00:1A:2B', '00-1a-2b', '001a2b', '001a.2b']
    for (const prefix of spellings) {
      const { results } = await run({ prefix, count: 200 })
      for (const mac of results) assert.match(mac, /^00:1a:2b:[0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}$/)
      assert.ok(new Set(results).size > 190)
    }
    // A prefix decides the first octet: here a universally administered one, kept as it is.
    assert.match((await run({ prefix: 'ac:de:48:00:11', format: 'dot' })).result, /^acde\.4800\.11[0-9a-f]{2}$/)
    assert.match((await run({ prefix: 'ACDE.4800', format: 'none', uppercase: true })).result, /^ACDE4800[0-9A-F]{4}$/)
    assert.match((await run({ prefix: 'fe' })).result, /^fe:/)
    // An empty prefix is no prefix.
    for (const mac of (await run({ prefix: '', count: 100 })).results) assert.equal(bytesOf(mac)[0] & 0x03, 0x02)
  })

  test('multicast with a prefix sets the I/G bit of its first octet, and keeps the rest of the prefix', async () => {
    for (const mac of (await run({ prefix: '01:00:5E', multicast: true, count: 50 })).results) assert.match(mac, /^01:00:5e:/)
    for (const mac of (await run({ prefix: '00:1A:2B', multicast: true, count: 50 })).results) assert.match(mac, /^01:1a:2b:/)
    for (const mac of (await run({ prefix: '00:1A:2B', count: 50 })).results) assert.match(mac, /^00:1a:2b:/)
  })

  test('malformed prefixes are 400s', async () => {
    for (const prefix of ['00:1A:2B:3C:4D:5E', '0:1A', '00:1A-2B', '001', 'zz', '00:1A:', ':00', '001a.2b3', '001a2b3c4d5e', '00 1a']) {
      await refuses({ prefix }, 'prefix')
    }
  })

  test('bounds and unknown values are 400s', async () => {
    await refuses({ count: 0 }, 'count')
    await refuses({ count: 1001 }, 'count')
    await refuses({ format: 'cisco' }, 'format')
    await refuses({ uppercase: 'yes' }, 'uppercase')
    await refuses({ multicast: 1 }, 'multicast')
    await refuses({ oui: '00:1A:2B' }, 'oui')
    assert.equal((await run({ count: 1000 })).results.length, 1000)
  })

  test('the response fields come in the documented order, and query text becomes numbers and booleans', async () => {
    const answer = await run(queryToInput(macAddress.input, { count: '3', uppercase: 'true', format: 'none' }))
    assert.deepEqual(Object.keys(answer), ['result', 'results'])
    assert.equal(answer.results.length, 3)
    for (const mac of answer.results) assert.match(mac, /^[0-9A-F]{12}$/)
  })
})
