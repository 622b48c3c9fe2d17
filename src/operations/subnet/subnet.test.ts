import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import ipaddr from 'ipaddr.js'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { SPECIAL_RANGES } from '../../lib/net/ip.ts'
import { MAX_SUBNETS, subnet } from './index.ts'

type Range = { type: string; name: string; block: string; reference: string; globallyReachable: boolean | null }
type Answer = {
  result: string
  version: 4 | 6
  network: string
  broadcast: string | null
  firstHost: string
  lastHost: string
  netmask: string
  wildcard: string
  prefixLength: number
  addressCount: string
  hostCount: string
  range: Range | null
  contains?: boolean
  subnets?: string[]
  warnings: string[]
}
const run = (input: Record<string, unknown>) => execute(subnet, input) as Promise<Answer>
const unprocessable = (input: Record<string, unknown>, field: string, position: number, message: RegExp) =>
  expectRefusal(run(input), { code: 'INVALID_INPUT', message, details: { field, position } })
const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })

/** The parts of an answer that describe the block itself. */
const shape = ({ network, broadcast, firstHost, lastHost, netmask, wildcard, prefixLength, addressCount, hostCount }: Answer) => ({
  network,
  broadcast,
  firstHost,
  lastHost,
  netmask,
  wildcard,
  prefixLength,
  addressCount,
  hostCount,
})

describe('subnet', () => {
  test('IPv4 blocks from /0 to /32', async () => {
    assert.deepEqual(shape(await run({ input: '192.0.2.0/24' })), {
      network: '192.0.2.0',
      broadcast: '192.0.2.255',
      firstHost: '192.0.2.1',
      lastHost: '192.0.2.254',
      netmask: '255.255.255.0',
      wildcard: '0.0.0.255',
      prefixLength: 24,
      addressCount: '256',
      hostCount: '254',
    })
    assert.deepEqual(shape(await run({ input: '0.0.0.0/0' })), {
      network: '0.0.0.0',
      broadcast: '255.255.255.255',
      firstHost: '0.0.0.1',
      lastHost: '255.255.255.254',
      netmask: '0.0.0.0',
      wildcard: '255.255.255.255',
      prefixLength: 0,
      addressCount: '4294967296',
      hostCount: '4294967294',
    })
    assert.deepEqual(shape(await run({ input: '198.51.100.4/30' })), {
      network: '198.51.100.4',
      broadcast: '198.51.100.7',
      firstHost: '198.51.100.5',
      lastHost: '198.51.100.6',
      netmask: '255.255.255.252',
      wildcard: '0.0.0.3',
      prefixLength: 30,
      addressCount: '4',
      hostCount: '2',
    })
    assert.deepEqual(shape(await run({ input: '172.16.0.0/12' })), {
      network: '172.16.0.0',
      broadcast: '172.31.255.255',
      firstHost: '172.16.0.1',
      lastHost: '172.31.255.254',
      netmask: '255.240.0.0',
      wildcard: '0.15.255.255',
      prefixLength: 12,
      addressCount: '1048576',
      hostCount: '1048574',
    })
  })

  test('RFC 3021 §2.1: both addresses of a /31 are hosts and there is no broadcast; a /32 is its one host', async () => {
    assert.deepEqual(shape(await run({ input: '192.0.2.0/31' })), {
      network: '192.0.2.0',
      broadcast: null,
      firstHost: '192.0.2.0',
      lastHost: '192.0.2.1',
      netmask: '255.255.255.254',
      wildcard: '0.0.0.1',
      prefixLength: 31,
      addressCount: '2',
      hostCount: '2',
    })
    assert.deepEqual(shape(await run({ input: '192.0.2.7/32' })), {
      network: '192.0.2.7',
      broadcast: null,
      firstHost: '192.0.2.7',
      lastHost: '192.0.2.7',
      netmask: '255.255.255.255',
      wildcard: '0.0.0.0',
      prefixLength: 32,
      addressCount: '1',
      hostCount: '1',
    })
  })

  test('RFC 6164: an IPv6 /127 holds two usable addresses; every IPv6 address counts, with no broadcast', async () => {
    assert.deepEqual(shape(await run({ input: '2001:db8:0:1::/127' })), {
      network: '2001:db8:0:1::',
      broadcast: null,
      firstHost: '2001:db8:0:1::',
      lastHost: '2001:db8:0:1::1',
      netmask: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe',
      wildcard: '::1',
      prefixLength: 127,
      addressCount: '2',
      hostCount: '2',
    })
    assert.deepEqual(shape(await run({ input: '::/0' })), {
      network: '::',
      broadcast: null,
      firstHost: '::',
      lastHost: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      netmask: '::',
      wildcard: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      prefixLength: 0,
      addressCount: '340282366920938463463374607431768211456',
      hostCount: '340282366920938463463374607431768211456',
    })
    const single = await run({ input: '::1/128' })
    assert.equal(single.addressCount, '1')
    assert.equal(single.firstHost, '::1')
    assert.equal(single.netmask, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')
    // Counts beyond 2^53 are exact: a /44 holds 2^84 addresses.
    assert.equal((await run({ input: '2001:db8::/44' })).addressCount, (2n ** 84n).toString())
  })

  test('RFC 4291 §2.3: the legal and illegal ways to write the 60-bit prefix 20010DB80000CD3', async () => {
    // The three legal representations name one block.
    for (const input of ['2001:0DB8:0000:CD30:0000:0000:0000:0000/60', '2001:0DB8::CD30:0:0:0:0/60', '2001:0DB8:0:CD30::/60']) {
      const answer = await run({ input })
      assert.equal(answer.result, '2001:db8:0:cd30::/60', input)
      assert.deepEqual(answer.warnings, [], input)
      assert.equal(answer.lastHost, '2001:db8:0:cd3f:ffff:ffff:ffff:ffff')
    }
    // "the node address and its subnet number": 2001:0DB8:0:CD30:123:4567:89AB:CDEF/60.
    const node = await run({ input: '2001:0DB8:0:CD30:123:4567:89AB:CDEF/60' })
    assert.equal(node.result, '2001:db8:0:cd30::/60')
    assert.match(node.warnings[0], /host bits set.*2001:db8:0:cd30::\/60/)
    // Not legal: trailing zeros dropped from a group is not an address at all…
    await unprocessable({ input: '2001:0DB8:0:CD3/60' }, 'input', 0, /not a valid IPv4 or IPv6 address/)
    // …and 2001:0DB8::CD30/60 expands to 2001:0DB8:0000:0000:0000:0000:0000:CD30, which is read as the block holding it, with a warning.
    const expanded = await run({ input: '2001:0DB8::CD30/60' })
    assert.equal(expanded.result, '2001:db8::/60')
    assert.match(expanded.warnings[0], /^input 2001:0DB8::CD30\/60 has host bits set beyond its \/60 prefix/)
  })

  test('RFC 4291 §2.2: addresses in every text form, written back in RFC 5952 form', async () => {
    const forms: Array<[string, string]> = [
      ['2001:DB8:0:0:8:800:200C:417A/128', '2001:db8::8:800:200c:417a'],
      ['FF01:0:0:0:0:0:0:101/128', 'ff01::101'],
      ['0:0:0:0:0:0:0:1/128', '::1'],
      ['0:0:0:0:0:0:0:0/128', '::'],
      ['0:0:0:0:0:FFFF:129.144.52.38/128', '::ffff:129.144.52.38'],
      ['0:0:0:0:0:0:13.1.68.3/128', '::d01:4403'],
      // ipaddr.js alone would read this as ::ffff:13.1.68.3, another address.
      ['::13.1.68.3/128', '::d01:4403'],
      ['64:ff9b::192.0.2.33/128', '64:ff9b::c000:221'],
    ]
    for (const [input, network] of forms) assert.equal((await run({ input })).network, network, input)
  })

  /**
   * Rows of the IANA special-purpose registries as RFC 6890 §2.2.2 (IPv4) and §2.2.3 (IPv6) first
   * listed them (name, block, RFC, Global column), with the names IANA uses today; rows added since:
   * RFC 7723, RFC 8155, RFC 7535, RFC 7450, RFC 7343, RFC 9637 and RFC 9602. Multicast is from the
   * IPv4 Multicast Address Space Registry (RFC 5771) and the IPv6 Address Space Registry (RFC 4291).
   * Each row: an address or block inside it, the type, the block, the name and Globally Reachable.
   */
  const REGISTRY_ROWS: Array<[input: string, type: string, block: string, name: string, globallyReachable: boolean | null]> = [
    ['0.1.2.3/32', 'thisNetwork', '0.0.0.0/8', '"This network"', false],
    ['0.0.0.0/32', 'unspecified', '0.0.0.0/32', '"This host on this network"', false],
    ['10.0.0.0/8', 'private', '10.0.0.0/8', 'Private-Use', false],
    ['10.200.0.0/16', 'private', '10.0.0.0/8', 'Private-Use', false],
    ['100.64.0.0/10', 'carrierGradeNat', '100.64.0.0/10', 'Shared Address Space', false],
    ['100.127.255.0/24', 'carrierGradeNat', '100.64.0.0/10', 'Shared Address Space', false],
    ['127.0.0.1/32', 'loopback', '127.0.0.0/8', 'Loopback', false],
    ['169.254.1.0/24', 'linkLocal', '169.254.0.0/16', 'Link Local', false],
    ['172.31.0.0/16', 'private', '172.16.0.0/12', 'Private-Use', false],
    ['192.0.0.128/25', 'ietfProtocol', '192.0.0.0/24', 'IETF Protocol Assignments', false],
    ['192.0.0.0/29', 'translation', '192.0.0.0/29', 'IPv4 Service Continuity Prefix', false],
    ['192.0.0.9/32', 'anycast', '192.0.0.9/32', 'Port Control Protocol Anycast', true],
    ['192.0.0.10/32', 'anycast', '192.0.0.10/32', 'Traversal Using Relays around NAT Anycast', true],
    ['192.0.2.0/24', 'documentation', '192.0.2.0/24', 'Documentation (TEST-NET-1)', false],
    ['192.31.196.0/24', 'as112', '192.31.196.0/24', 'AS112-v4', true],
    ['192.52.193.0/24', 'amt', '192.52.193.0/24', 'AMT', true],
    ['192.88.99.0/24', 'deprecated', '192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)', null],
    ['192.168.1.0/24', 'private', '192.168.0.0/16', 'Private-Use', false],
    ['192.175.48.0/24', 'as112', '192.175.48.0/24', 'Direct Delegation AS112 Service', true],
    ['198.19.0.0/16', 'benchmarking', '198.18.0.0/15', 'Benchmarking', false],
    ['198.51.100.0/24', 'documentation', '198.51.100.0/24', 'Documentation (TEST-NET-2)', false],
    ['203.0.113.0/24', 'documentation', '203.0.113.0/24', 'Documentation (TEST-NET-3)', false],
    ['224.0.0.0/24', 'multicast', '224.0.0.0/4', 'Multicast', null],
    ['239.255.255.255/32', 'multicast', '224.0.0.0/4', 'Multicast', null],
    ['240.0.0.0/4', 'reserved', '240.0.0.0/4', 'Reserved', false],
    ['255.255.255.255/32', 'broadcast', '255.255.255.255/32', 'Limited Broadcast', false],
    ['::1/128', 'loopback', '::1/128', 'Loopback Address', false],
    ['::/128', 'unspecified', '::/128', 'Unspecified Address', false],
    ['::ffff:10.0.0.0/104', 'ipv4Mapped', '::ffff:0:0/96', 'IPv4-mapped Address', false],
    ['64:ff9b::/96', 'translation', '64:ff9b::/96', 'IPv4-IPv6 Translat.', true],
    ['64:ff9b:1::/48', 'translation', '64:ff9b:1::/48', 'IPv4-IPv6 Translat.', false],
    ['100::/64', 'discard', '100::/64', 'Discard-Only Address Block', false],
    ['2001:100::/24', 'ietfProtocol', '2001::/23', 'IETF Protocol Assignments', false],
    ['2001:0:4136:e378::/64', 'teredo', '2001::/32', 'TEREDO', null],
    ['2001:2::/48', 'benchmarking', '2001:2::/48', 'Benchmarking', false],
    ['2001:3::/32', 'amt', '2001:3::/32', 'AMT', true],
    ['2001:4:112::/48', 'as112', '2001:4:112::/48', 'AS112-v6', true],
    ['2001:20::/28', 'orchid', '2001:20::/28', 'ORCHIDv2', true],
    ['2001:db8::/32', 'documentation', '2001:db8::/32', 'Documentation', false],
    ['2001:db8:ffff::/48', 'documentation', '2001:db8::/32', 'Documentation', false],
    ['3fff:fff::/32', 'documentation', '3fff::/20', 'Documentation', false],
    ['2002:c000:204::/48', '6to4', '2002::/16', '6to4', null],
    ['5f00::/16', 'segmentRouting', '5f00::/16', 'Segment Routing (SRv6) SIDs', false],
    ['fd12:3456:789a::/48', 'private', 'fc00::/7', 'Unique-Local', false],
    ['fe80::/64', 'linkLocal', 'fe80::/10', 'Link-Local Unicast', false],
    ['ff02::1/128', 'multicast', 'ff00::/8', 'Multicast', null],
  ]

  test('the special-purpose range: the registry rows', async () => {
    for (const [input, type, block, name, globallyReachable] of REGISTRY_ROWS) {
      const { range } = await run({ input })
      assert.ok(range, input)
      assert.deepEqual(
        { type: range.type, block: range.block, name: range.name, globallyReachable: range.globallyReachable },
        { type, block, name, globallyReachable },
        input,
      )
      assert.match(range.reference, /^RFC \d+/)
    }
  })

  test('the special-purpose range: global unicast is null, and a block spanning ranges is null with a warning', async () => {
    for (const input of ['8.8.8.0/24', '1.1.1.1/32', '2606:4700::/32', '2a00::/12']) {
      const answer = await run({ input })
      assert.equal(answer.range, null, input)
      assert.deepEqual(answer.warnings, [], input)
    }
    const spanning = await run({ input: '10.0.0.0/7' })
    assert.equal(spanning.range, null)
    assert.deepEqual(spanning.warnings, ['the block lies in no single special-purpose range but holds 1: 10.0.0.0/8 (Private-Use)'])
    const everything = await run({ input: '0.0.0.0/0' })
    assert.match(everything.warnings[0], new RegExp(`holds ${SPECIAL_RANGES[4].length}: 0\\.0\\.0\\.0/8 .* and ${SPECIAL_RANGES[4].length - 5} more$`))
    // The most specific row wins: 192.0.0.9/32 is inside 192.0.0.0/24 too.
    assert.equal((await run({ input: '192.0.0.0/24' })).range?.type, 'ietfProtocol')
    assert.equal((await run({ input: '2001:1::1/128' })).range?.name, 'Port Control Protocol Anycast')
  })

  test('ip-address and subnet share one table: every type ip-address draws lies in a range of the same type', async () => {
    const { ipAddress } = await import('../ip-address/index.ts')
    for (const version of [4, 6]) {
      for (const type of ['private', 'loopback', 'linkLocal', 'multicast', 'documentation']) {
        const { results } = (await execute(ipAddress, { version, type, count: 50 })) as { results: string[] }
        for (const address of results) {
          const answer = await run({ input: `${address}/${version === 4 ? 32 : 128}` })
          assert.equal(answer.range?.type, type, `${type} ${address}`)
        }
      }
    }
  })

  test('an address with a mask', async () => {
    const masked = await run({ input: '10.1.2.3', mask: '255.255.255.0' })
    assert.equal(masked.result, '10.1.2.0/24')
    assert.match(masked.warnings[0], /host bits set/)
    assert.equal((await run({ input: '10.1.2.0', mask: '255.255.255.0' })).warnings.length, 0)
    assert.equal((await run({ input: '10.1.2.3', mask: '0.0.0.0' })).result, '0.0.0.0/0')
    assert.equal((await run({ input: '10.1.2.3', mask: '255.255.255.255' })).result, '10.1.2.3/32')
    assert.equal((await run({ input: '2001:db8:1:2::5', mask: 'ffff:ffff:ffff:ff00::' })).result, '2001:db8:1::/56')
    await unprocessable({ input: '10.0.0.0', mask: '0.0.0.255' }, 'mask', 0, /wildcard \(inverse\) mask, whose netmask is 255\.255\.255\.0/)
    await unprocessable({ input: '10.0.0.0', mask: '255.0.255.0' }, 'mask', 0, /one bits must all come before its zero bits$/)
    await unprocessable({ input: '10.0.0.0', mask: '24' }, 'mask', 0, /prefix length, not a netmask: write input as 10\.0\.0\.0\/24/)
    await unprocessable({ input: '2001:db8::', mask: '255.255.0.0' }, 'mask', 0, /IPv4 mask, but input is an IPv6 address/)
    await unprocessable({ input: '10.0.0.0', mask: '255.255.0.0 ' }, 'mask', 11, /' ' at position 11/)
    await refuses({ input: '10.0.0.0/8', mask: '255.0.0.0' }, 'mask')
  })

  test('contains', async () => {
    const inside = async (input: string, contains: string) => (await run({ input, contains })).contains
    assert.equal(await inside('192.168.1.0/24', '192.168.1.0'), true)
    assert.equal(await inside('192.168.1.0/24', '192.168.1.255'), true)
    assert.equal(await inside('192.168.1.0/24', '192.168.2.0'), false)
    assert.equal(await inside('192.168.1.0/24', '192.168.0.255'), false)
    assert.equal(await inside('0.0.0.0/0', '255.255.255.255'), true)
    assert.equal(await inside('2001:db8::/32', '2001:DB8:FFFF::1'), true)
    assert.equal(await inside('2001:db8::/32', '2001:db9::'), false)
    assert.equal(await inside('::ffff:0:0/96', '::ffff:10.1.2.3'), true)
    const otherVersion = await run({ input: '2001:db8::/32', contains: '10.0.0.1' })
    assert.equal(otherVersion.contains, false)
    assert.deepEqual(otherVersion.warnings, ['contains 10.0.0.1 is an IPv4 address, which an IPv6 block never holds'])
    await unprocessable({ input: '10.0.0.0/8', contains: '10.0.0.1/32' }, 'contains', 8, /'\/' at position 8/)
    await unprocessable({ input: '10.0.0.0/8', contains: '10.0.0' }, 'contains', 0, /not a valid IPv4 or IPv6 address/)
    assert.equal('contains' in (await run({ input: '10.0.0.0/8' })), false)
  })

  test('splitPrefix', async () => {
    assert.deepEqual((await run({ input: '192.0.2.0/24', splitPrefix: 24 })).subnets, ['192.0.2.0/24'])
    assert.deepEqual((await run({ input: '192.0.2.0/30', splitPrefix: 32 })).subnets, ['192.0.2.0/32', '192.0.2.1/32', '192.0.2.2/32', '192.0.2.3/32'])
    assert.deepEqual((await run({ input: '2001:db8::/32', splitPrefix: 34 })).subnets, [
      '2001:db8::/34',
      '2001:db8:4000::/34',
      '2001:db8:8000::/34',
      '2001:db8:c000::/34',
    ])
    assert.deepEqual((await run({ input: '::/0', splitPrefix: 1 })).subnets, ['::/1', '8000::/1'])
    const most = (await run({ input: '10.0.0.0/8', splitPrefix: 20 })).subnets!
    assert.equal(most.length, MAX_SUBNETS)
    assert.equal(most.at(-1), '10.255.240.0/20')
    await expectRefusal(run({ input: '10.0.0.0/8', splitPrefix: 21 }), {
      code: 'LIMIT_EXCEEDED',
      message: /gives 8192 subnets, more than the 4096.*splitPrefix 20 or less/,
      details: { limit: MAX_SUBNETS, count: '8192' },
    })
    await expectRefusal(run({ input: '::/0', splitPrefix: 128 }), { code: 'LIMIT_EXCEEDED', details: { count: (2n ** 128n).toString() } })
    await refuses({ input: '10.0.0.0/8', splitPrefix: 7 }, 'splitPrefix')
    await refuses({ input: '10.0.0.0/30', splitPrefix: 33 }, 'splitPrefix')
    await refuses({ input: '10.0.0.0/8', splitPrefix: 129 }, 'splitPrefix')
  })

  test('input that is not a block is a 422 saying where', async () => {
    await unprocessable({ input: '10.0.0.0' }, 'input', 8, /no prefix length: write it as 10\.0\.0\.0\/32 for the address alone, or give mask/)
    await unprocessable({ input: '10.0.0.0/33' }, 'input', 9, /at most \/32/)
    await unprocessable({ input: '::/129' }, 'input', 3, /at most \/128/)
    for (const [input, position] of [
      ['10.0.0.0/08', 9],
      ['10.0.0.0/', 9],
      ['10.0.0.0/8/8', 9],
      ['10.0.0.0/+8', 9],
      ['10.0.0.0/8 ', 9],
      ['10.0.0.0/1e1', 9],
    ] as const) {
      await unprocessable({ input }, 'input', position, /prefix length is expected/)
    }
    await unprocessable({ input: 'fe80::1%eth0/64' }, 'input', 7, /'%' at position 7/)
    await unprocessable({ input: ' 10.0.0.0/8' }, 'input', 0, /' ' at position 0/)
    await unprocessable({ input: 'example.com/8' }, 'input', 1, /'x' at position 1/)
    await unprocessable({ input: '10.0.0.0\u{1F600}/8' }, 'input', 8, /'\u{1F600}' at position 8/u)
    for (const input of ['010.0.0.0/8', '1.2.3/8', '256.0.0.0/8', ':::/64', '1::2::3/64', '12345::/16', '/8', '1.2.3.4.5/32']) {
      await unprocessable({ input }, 'input', 0, /not a valid IPv4 or IPv6 address/)
    }
  })

  test('the schema bounds are 400s', async () => {
    await refuses({}, 'input')
    await refuses({ input: '' }, 'input')
    await refuses({ input: `${'1'.repeat(61)}/128` }, 'input')
    await refuses({ input: 10 }, 'input')
    await refuses({ input: '10.0.0.0/8', splitPrefix: 8.5 }, 'splitPrefix')
    await refuses({ input: '10.0.0.0/8', splitPrefix: '8' }, 'splitPrefix')
    await refuses({ input: '10.0.0.0/8', contains: 'x'.repeat(46) }, 'contains')
    await refuses({ input: '10.0.0.0/8', prefix: 8 }, 'prefix')
    await expectRefusal(run({ input: '10.0.0.0/\ud800' }), { code: 'INVALID_INPUT' })
  })

  test('property: the answer agrees with ipaddr.js and with itself for any IPv4 or IPv6 block', async () => {
    const v4 = fc.tuple(fc.constant(4 as const), fc.uint8Array({ minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 32 }))
    const v6 = fc.tuple(fc.constant(6 as const), fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.integer({ min: 0, max: 128 }))
    await fc.assert(
      fc.asyncProperty(fc.oneof(v4, v6), async ([version, bytes, prefixLength]) => {
        const address = ipaddr.fromByteArray([...bytes])
        const cidr = `${address.toString()}/${prefixLength}`
        const answer = await run({ input: cidr, contains: address.toString() })
        const parsedCidr = ipaddr.parseCIDR(answer.result)
        assert.equal(parsedCidr[1], prefixLength)
        const oracle = version === 4 ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr)
        assert.equal(ipaddr.parse(answer.network).toNormalizedString(), oracle.toNormalizedString())
        if (version === 4 && prefixLength < 31) {
          assert.equal(answer.broadcast, ipaddr.IPv4.broadcastAddressFromCIDR(cidr).toString())
        }
        assert.equal(answer.contains, true)
        assert.equal(answer.addressCount, (2n ** BigInt((version === 4 ? 32 : 128) - prefixLength)).toString())
        assert.equal(ipaddr.parse(answer.netmask).prefixLengthFromSubnetMask(), prefixLength)
        for (const host of [answer.firstHost, answer.lastHost]) assert.ok(ipaddr.parse(host).match(parsedCidr), `${host} in ${answer.result}`)
        const isNetwork = ipaddr.parse(answer.network).toNormalizedString() === address.toNormalizedString()
        assert.equal(
          answer.warnings.some((warning) => warning.includes('host bits')),
          !isNetwork,
        )
      }),
      { numRuns: 300 },
    )
  })

  test('property: the subnets of a split tile the block, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.integer({ min: 0, max: 124 }),
        fc.integer({ min: 0, max: 4 }),
        async (bytes, prefixLength, extra) => {
          const answer = await run({ input: `${ipaddr.fromByteArray([...bytes]).toString()}/${prefixLength}`, splitPrefix: prefixLength + extra })
          const subnets = answer.subnets!
          assert.equal(subnets.length, 2 ** extra)
          assert.equal(subnets[0].split('/')[0], answer.network)
          const size = 2n ** BigInt(128 - prefixLength - extra)
          const value = (text: string) =>
            BigInt(
              `0x${ipaddr
                .parse(text.split('/')[0])
                .toByteArray()
                .map((byte) => byte.toString(16).padStart(2, '0'))
                .join('')}`,
            )
          for (let index = 1; index < subnets.length; index++) assert.equal(value(subnets[index]) - value(subnets[index - 1]), size)
          assert.equal(value(subnets.at(-1)!) + size - 1n, value(answer.lastHost))
        },
      ),
      { numRuns: 100 },
    )
  })
})
