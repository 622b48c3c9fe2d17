import assert from 'node:assert/strict'
import { isIP } from 'node:net'
import { describe, test } from 'node:test'
import ipaddr from 'ipaddr.js'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { queryToInput } from '../../core/query.ts'
import { ipAddress } from './index.ts'

type Answer = { result: string; results: string[]; version: number }
const run = (input: Record<string, unknown>) => execute(ipAddress, input) as Promise<Answer>
const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
const unprocessable = (input: Record<string, unknown>, pattern: RegExp) => expectRefusal(run(input), { code: 'INVALID_INPUT', message: pattern })

const inAny = (address: string, blocks: string[]) => {
  const parsed = ipaddr.parse(address)
  return blocks.some((cidr) => {
    const block = ipaddr.parseCIDR(cidr)
    return block[0].kind() === parsed.kind() && parsed.match(block)
  })
}

const blockSize = (cidr: string) => {
  const [address, prefixLength] = ipaddr.parseCIDR(cidr)
  return 2 ** ((address.kind() === 'ipv4' ? 32 : 128) - prefixLength)
}
/** How many different values `draws` uniform draws from `size` values show on average. */
const expectedDistinct = (size: number, draws: number) => size * -Math.expm1(draws * Math.log1p(-1 / size))

/** Every IPv4 range that is not globally routable unicast (IANA special-purpose registry and more). */
const SPECIAL_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '255.255.255.255/32',
]
const SPECIAL_V6 = [
  '::/128',
  '::1/128',
  '::ffff:0:0/96',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:2::/48',
  '2001:10::/28',
  '2001:20::/28',
  '2001:db8::/32',
  '2002::/16',
  '3fff::/20',
  '5f00::/16',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
]

/** What each type must give, in ipaddr.js's names and as explicit blocks. */
const TYPES = {
  4: {
    public: { range: 'unicast', within: ['0.0.0.0/0'] },
    private: { range: 'private', within: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] },
    loopback: { range: 'loopback', within: ['127.0.0.0/8'] },
    linkLocal: { range: 'linkLocal', within: ['169.254.0.0/16'] },
    multicast: { range: 'multicast', within: ['224.0.0.0/4'] },
    documentation: { range: 'reserved', within: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'] },
  },
  6: {
    public: { range: 'unicast', within: ['2000::/3'] },
    private: { range: 'uniqueLocal', within: ['fd00::/8'] },
    loopback: { range: 'loopback', within: ['::1/128'] },
    linkLocal: { range: 'linkLocal', within: ['fe80::/64'] },
    multicast: { range: 'multicast', within: ['ff00::/8'] },
    documentation: { range: 'reserved', within: ['2001:db8::/32'] },
  },
} as const

describe('ip-address', () => {
  test('every type gives what ipaddr.js calls that range, within its blocks', async () => {
    for (const version of [4, 6] as const) {
      for (const [type, { range, within }] of Object.entries(TYPES[version])) {
        const answer = await run({ version, type, count: 1000 })
        assert.equal(answer.version, version)
        assert.equal(answer.result, answer.results[0])
        for (const address of answer.results) {
          assert.equal(isIP(address), version, address)
          assert.equal(ipaddr.parse(address).range(), range, `${type} ${address}`)
          assert.ok(inAny(address, [...within]), `${type} ${address} in ${within.join(', ')}`)
        }
        const size = (within as readonly string[]).reduce((total, cidr) => total + blockSize(cidr), 0)
        assert.ok(new Set(answer.results).size >= 0.9 * expectedDistinct(size, 1000), `${type} v${version} varies`)
      }
    }
  })

  test('every block of a multi-block type is reached', async () => {
    const { results } = await run({ type: 'documentation', count: 500 })
    for (const cidr of TYPES[4].documentation.within)
      assert.ok(
        results.some((address) => inAny(address, [cidr])),
        cidr,
      )
    const privates = (await run({ type: 'private', count: 1000 })).results
    // 10/8 is 16 times 172.16/12 and 256 times 192.168/16: each is drawn in proportion to its size.
    assert.ok(privates.filter((address) => address.startsWith('10.')).length > 880)
    assert.ok(privates.some((address) => inAny(address, ['172.16.0.0/12'])))
  })

  test('public addresses are never in a special range (names and explicit lists)', async () => {
    for (const version of [4, 6] as const) {
      const { results } = await run({ version, count: 1000 })
      for (const address of (await run({ version, count: 1000 })).results.concat(results)) {
        assert.equal(ipaddr.parse(address).range(), 'unicast', address)
        assert.ok(!inAny(address, version === 4 ? SPECIAL_V4 : SPECIAL_V6), `${address} is special`)
      }
      // Public IPv4 is drawn from the whole space: all first octets of public /8s appear over many draws.
      if (version === 4) assert.ok(new Set(results.map((address) => address.split('.')[0])).size > 150)
    }
  })

  test('any: the whole space, special ranges included', async () => {
    const { results } = await run({ type: 'any', count: 1000 })
    assert.ok(results.some((address) => ipaddr.parse(address).range() !== 'unicast'))
    assert.ok(results.some((address) => Number(address.split('.')[0]) >= 224))
    const v6 = (await run({ type: 'any', version: 6, count: 1000 })).results
    assert.ok(v6.some((address) => !inAny(address, ['2000::/3'])))
  })

  test('cidr: addresses stay inside the block, for IPv4 and IPv6, and the version comes from it', async () => {
    for (const cidr of [
      '10.0.0.0/8',
      '192.168.1.0/24',
      '100.64.0.0/10',
      '203.0.113.128/25',
      '0.0.0.0/0',
      '2001:db8::/32',
      'fe80::/10',
      '2001:db8:abcd:12::/64',
      '::/0',
      '2001:DB8::/48',
    ]) {
      const answer = await run({ cidr, count: 500 })
      const block = ipaddr.parseCIDR(cidr)
      assert.equal(answer.version, block[0].kind() === 'ipv4' ? 4 : 6)
      for (const address of answer.results) assert.ok(ipaddr.parse(address).match(block), `${address} in ${cidr}`)
      assert.ok(new Set(answer.results).size >= 0.9 * expectedDistinct(blockSize(cidr), 500), cidr)
    }
    // cidr overrides type, and a version that agrees is accepted.
    assert.equal((await run({ cidr: '127.0.0.0/30', type: 'multicast', version: 4 })).result.slice(0, 8), '127.0.0.')
    assert.deepEqual((await run({ cidr: '198.51.100.7/32', count: 2 })).results, ['198.51.100.7', '198.51.100.7'])
  })

  test('unique exhausts a /30 and a /126, and works for ::/0', async () => {
    const v4 = await run({ cidr: '10.20.30.40/30', count: 4, unique: true })
    assert.deepEqual([...v4.results].sort(), ['10.20.30.40', '10.20.30.41', '10.20.30.42', '10.20.30.43'])
    const v6 = await run({ cidr: '2001:db8::/126', count: 4, unique: true })
    assert.deepEqual([...v6.results].sort(), ['2001:db8::', '2001:db8::1', '2001:db8::2', '2001:db8::3'])
    for (const input of [{ cidr: '::/0' }, { version: 6 }, {}, { type: 'linkLocal' }]) {
      assert.equal(new Set((await run({ ...input, count: 1000, unique: true })).results).size, 1000)
    }
    const documentation = await run({ type: 'documentation', count: 768, unique: true })
    assert.equal(new Set(documentation.results).size, 768)
  })

  test('IPv6 answers are in RFC 5952 canonical form', async () => {
    const canonical: Array<[string, string]> = [
      ['2001:0DB8:0000:0000:0000:0000:0000:0001/128', '2001:db8::1'],
      ['2001:db8:0:0:1:0:0:1/128', '2001:db8::1:0:0:1'],
      ['2001:db8:0:1:1:1:1:1/128', '2001:db8:0:1:1:1:1:1'],
      ['2001:db8:0:0:0:1:0:0/128', '2001:db8::1:0:0'],
      ['0:0:0:0:0:0:0:0/128', '::'],
      ['fe80:0:0:0:0:0:0:0/128', 'fe80::'],
      ['::ffff:1.2.3.4/128', '::ffff:1.2.3.4'],
      ['0:0:0:0:0:FFFF:0102:0304/128', '::ffff:1.2.3.4'],
      // Not IPv4-mapped: ipaddr.js alone reads `::a.b.c.d` as `::ffff:a.b.c.d`.
      ['::1.2.3.4/128', '::102:304'],
    ]
    for (const [cidr, expected] of canonical) assert.equal((await run({ cidr })).result, expected, cidr)
    for (const type of ['public', 'private', 'multicast', 'documentation', 'any']) {
      for (const address of (await run({ version: 6, type, count: 200 })).results) {
        assert.equal(address, ipaddr.IPv6.parse(address).toRFC5952String())
        assert.doesNotMatch(address, /[A-F]|(^|:)0[0-9a-f]/)
      }
    }
  })

  test('cross-field rules are 400s', async () => {
    await refuses({ cidr: '10.0.0.0/8', version: 6 }, 'version')
    await refuses({ cidr: '2001:db8::/32', version: 4 }, 'version')
    await refuses({ cidr: '10.0.0.0/30', count: 5, unique: true }, 'count')
    await refuses({ version: 6, type: 'loopback', count: 2, unique: true }, 'count')
    await refuses({ type: 'documentation', count: 769, unique: true }, 'count')
    assert.equal((await run({ version: 6, type: 'loopback', count: 2 })).results.length, 2)
  })

  test('cidrs the schema pattern refuses are 400s', async () => {
    for (const cidr of ['10.0.0.0', '10.0.0.0/', '10.0.0.0/129', '10.0.0.0/08', 'fe80::1%eth0/64', 'example.com/8', ' 10.0.0.0/8', '10.0.0.0/8/8', '/8']) {
      await refuses({ cidr }, 'cidr')
    }
  })

  test('cidrs that only parsing can judge are 422s saying why', async () => {
    await unprocessable({ cidr: '10.0.0.1/8' }, /host bits set.*10\.0\.0\.0\/8/)
    await unprocessable({ cidr: '2001:db8::1/32' }, /host bits set.*2001:db8::\/32/)
    await unprocessable({ cidr: '10.0.0.0/33' }, /at most \/32/)
    for (const cidr of ['010.0.0.0/8', '1.2.3/8', '256.0.0.0/8', ':::/64', '1::2::3/64', '12345::/16', '...../8']) {
      await unprocessable({ cidr }, /not start with a valid IPv4 or IPv6 address/)
    }
  })

  test('bounds and unknown values are 400s', async () => {
    await refuses({ version: 5 }, 'version')
    await refuses({ version: '4' }, 'version')
    await refuses({ count: 0 }, 'count')
    await refuses({ count: 1001 }, 'count')
    await refuses({ type: 'reserved' }, 'type')
    await refuses({ unique: 'true' }, 'unique')
    await refuses({ cidr: 10 }, 'cidr')
    await refuses({ range: '10.0.0.0/8' }, 'range')
  })

  test('defaults, field order, and query text read as numbers and booleans', async () => {
    const answer = await run({})
    assert.deepEqual(Object.keys(answer), ['result', 'results', 'version'])
    assert.equal(answer.version, 4)
    assert.equal(ipaddr.parse(answer.result).range(), 'unicast')
    const fromQuery = await run(queryToInput(ipAddress.input, { version: '6', type: 'linkLocal', count: '3', unique: 'true' }))
    assert.equal(fromQuery.version, 6)
    assert.equal(fromQuery.results.length, 3)
  })
})
