import { isIP } from 'node:net'
import type ipaddr from 'ipaddr.js'
import { type Static, Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { defineOperation } from '../../core/operation.ts'
import {
  addressText,
  BITS,
  type IpVersion,
  networkOf,
  parseAddress,
  type SpecialRange,
  specialRangeHolding,
  specialRangesWithin,
  toAddress,
  toBigInt,
} from '../../lib/net/ip.ts'

/** The most subnets `splitPrefix` answers: 4,096 CIDR strings are at most about 200 KB of JSON. */
export const MAX_SUBNETS = 4096
const MAX_SPLIT_BITS = Math.log2(MAX_SUBNETS)

const NOT_ADDRESS_CHARACTER = /[^0-9A-Fa-f:.]/

interface Parsed {
  version: IpVersion
  value: bigint
}

/** Reads an address strictly, as node:net does (no shortened or zero-padded IPv4), without a zone index. */
function readAddress(text: string, field: string): Parsed {
  // node:net accepts a zone index (`fe80::1%eth0`), which names an interface, not part of an address.
  const bad = text.search(NOT_ADDRESS_CHARACTER)
  if (bad >= 0) {
    throw invalidInput(`${field} has '${String.fromCodePoint(text.codePointAt(bad)!)}' at position ${bad}, which cannot appear in an IPv4 or IPv6 address`, {
      field,
      position: bad,
    })
  }
  const version = isIP(text)
  if (version === 0) throw invalidInput(`${field} ${JSON.stringify(text)} is not a valid IPv4 or IPv6 address`, { field, position: 0 })
  return { version: version as IpVersion, value: toBigInt(parseAddress(text, version as IpVersion)) }
}

const allOnes = (version: IpVersion) => (1n << BigInt(BITS[version])) - 1n
const maskOf = (prefixLength: number, version: IpVersion) => allOnes(version) ^ ((1n << BigInt(BITS[version] - prefixLength)) - 1n)

function countOnes(value: bigint): number {
  let count = 0
  for (let rest = value; rest > 0n; rest >>= 1n) count += Number(rest & 1n)
  return count
}

/** Masks are written out in full hex for IPv6, never in the dotted form of IPv4-mapped addresses. */
function maskText(value: bigint, version: IpVersion): string {
  const address = toAddress(value, version)
  return version === 4 ? address.toString() : (address as ipaddr.IPv6).toRFC5952String()
}

/** The prefix length of a netmask written as an address: its one bits must all come before its zero bits. */
function prefixOfMask(mask: string, version: IpVersion, input: string): number {
  if (PREFIX_LENGTH.test(mask)) {
    throw invalidInput(`mask ${mask} is a prefix length, not a netmask: write input as ${input}/${mask} instead`, { field: 'mask', position: 0 })
  }
  const parsed = readAddress(mask, 'mask')
  if (parsed.version !== version) {
    throw invalidInput(`mask ${mask} is an IPv${parsed.version} mask, but input is an IPv${version} address`, { field: 'mask', position: 0 })
  }
  const ones = countOnes(parsed.value)
  if (parsed.value === maskOf(ones, version)) return ones
  const inverse = parsed.value ^ allOnes(version)
  const zeros = countOnes(inverse)
  const hint = inverse === maskOf(zeros, version) ? `; it looks like a wildcard (inverse) mask, whose netmask is ${maskText(inverse, version)}` : ''
  throw invalidInput(`mask ${mask} is not a netmask: its one bits must all come before its zero bits${hint}`, { field: 'mask', position: 0 })
}

const PREFIX_LENGTH = /^(?:0|[1-9][0-9]{0,2})$/

/** input as address/prefix-length, or an address whose prefix length `mask` gives. */
export function parseBlock(input: string, mask: string | undefined): Parsed & { prefixLength: number } {
  const slash = input.indexOf('/')
  const address = readAddress(slash < 0 ? input : input.slice(0, slash), 'input')
  if (slash < 0) {
    if (mask === undefined) {
      throw invalidInput(`input ${input} has no prefix length: write it as ${input}/${BITS[address.version]} for the address alone, or give mask`, {
        field: 'input',
        position: input.length,
      })
    }
    return { ...address, prefixLength: prefixOfMask(mask, address.version, input) }
  }
  if (mask !== undefined) throw validationError('mask', `cannot be given with a prefix length in input (${input}); give one or the other`)
  const prefixText = input.slice(slash + 1)
  if (!PREFIX_LENGTH.test(prefixText)) {
    throw invalidInput(`input has '${prefixText}' after its '/', where a prefix length is expected: a decimal number without leading zeros`, {
      field: 'input',
      position: slash + 1,
    })
  }
  const prefixLength = Number(prefixText)
  if (prefixLength > BITS[address.version]) {
    throw invalidInput(`input has a /${prefixLength} prefix, but an IPv${address.version} prefix is at most /${BITS[address.version]}`, {
      field: 'input',
      position: slash + 1,
    })
  }
  return { ...address, prefixLength }
}

const cidrText = (network: bigint, prefixLength: number, version: IpVersion) => `${addressText(toAddress(network, version))}/${prefixLength}`

function subnets(network: bigint, prefixLength: number, splitPrefix: number, version: IpVersion): string[] {
  const bits = BITS[version]
  if (splitPrefix < prefixLength) {
    throw validationError('splitPrefix', `is ${splitPrefix}, shorter than the block's /${prefixLength}; it must be from ${prefixLength} to ${bits}`)
  }
  if (splitPrefix > bits) throw validationError('splitPrefix', `is ${splitPrefix}, but an IPv${version} prefix is at most /${bits}`)
  const count = 1n << BigInt(splitPrefix - prefixLength)
  if (count > BigInt(MAX_SUBNETS)) {
    throw limitExceeded(
      `Splitting a /${prefixLength} into /${splitPrefix} blocks gives ${count} subnets, more than the ${MAX_SUBNETS} this answers; ask for splitPrefix ${prefixLength + MAX_SPLIT_BITS} or less`,
      { field: 'splitPrefix', limit: MAX_SUBNETS, count: count.toString() },
    )
  }
  const step = 1n << BigInt(bits - splitPrefix)
  return Array.from({ length: Number(count) }, (_, index) => cidrText(network + BigInt(index) * step, splitPrefix, version))
}

const rangeSchema = Type.Object(
  {
    type: Type.String({
      description:
        'The kind of range: private (RFC 1918; IPv6 unique local), carrierGradeNat (shared address space), loopback, linkLocal, documentation, multicast, benchmarking, reserved, broadcast, unspecified, thisNetwork, ietfProtocol, anycast, translation, as112, amt, ipv4Mapped, discard, teredo, 6to4, orchid, droneRemoteId, segmentRouting or deprecated.',
    }),
    name: Type.String({ description: "The registry's name for the range, e.g. `Private-Use`." }),
    block: Type.String({ description: 'The range as a CIDR block, e.g. `10.0.0.0/8`.' }),
    reference: Type.String({ description: 'The RFCs that define the range, as the registry cites them.' }),
    globallyReachable: Type.Union([Type.Boolean(), Type.Null()], {
      description: "The registry's Globally Reachable column; null where it says N/A, and for multicast, which is in another registry.",
    }),
  },
  { description: 'The most specific special-purpose range that holds the whole block, or null when none does.' },
)

const subnetOutput = Type.Object({
  result: Type.String({ description: 'The block in CIDR form, its network address first: `192.168.1.0/24`.' }),
  version: Type.Enum([4, 6], { description: 'The IP version.' }),
  network: Type.String({ description: 'The first address of the block.' }),
  broadcast: Type.Union([Type.String(), Type.Null()], {
    description: 'The last address of an IPv4 block up to /30; null for /31 (RFC 3021), /32 and IPv6, which has no broadcast.',
  }),
  firstHost: Type.String({ description: 'The first usable host address.' }),
  lastHost: Type.String({ description: 'The last usable host address (for IPv6 and IPv4 /31 and /32, the last address of the block).' }),
  netmask: Type.String({ description: 'The netmask, e.g. `255.255.255.0` or `ffff:ffff:ffff:ffff::`.' }),
  wildcard: Type.String({ description: 'The wildcard (inverse) mask, e.g. `0.0.0.255` or `::ffff:ffff:ffff:ffff`.' }),
  prefixLength: Type.Integer({ description: 'The prefix length.' }),
  addressCount: Type.String({ description: 'How many addresses the block holds, in decimal (a string: IPv6 counts go beyond 2^53).' }),
  hostCount: Type.String({ description: 'How many of them are usable hosts, in decimal.' }),
  range: Type.Union([rangeSchema, Type.Null()], {
    description:
      'The most specific IANA special-purpose range (or multicast block) that holds the whole block; null when none does: ordinary global unicast, or a block that spans several ranges (a warning then names them).',
  }),
  contains: Type.Optional(Type.Boolean({ description: 'Whether the block holds the `contains` address; present only when it was asked.' })),
  subnets: Type.Optional(Type.Array(Type.String(), { description: 'The subnets of length `splitPrefix`, in order; present only when it was asked.' })),
  warnings: Type.Array(Type.String(), { description: 'What was read differently from how it was written (host bits set), and other notes.' }),
})

export const subnet = defineOperation({
  name: 'subnet',
  category: 'converters',
  runsInBrowser: true,
  summary: 'Work out an IPv4 or IPv6 subnet: network, broadcast, host range, masks, size and special-purpose range',
  title: 'Subnet calculator',
  aliases: ['cidr', 'netmask', 'subnet mask', 'network address', 'broadcast address', 'ip range', 'wildcard mask', 'prefix'],
  description:
    'Reads a CIDR block (`192.168.1.0/24`, `2001:db8::/32`), or an address with a netmask in `mask`, and answers the network, the broadcast address (IPv4), ' +
    'the first and last usable host, the netmask and wildcard mask, the prefix length, the number of addresses and of usable hosts (decimal strings, exact for IPv6), ' +
    'and the special-purpose range from the IANA registries that holds the block (private, loopback, link-local, documentation, shared address space (CGNAT), multicast…). ' +
    'IPv4 hosts exclude the network and broadcast addresses, except in a /31 (RFC 3021: both addresses are hosts, no broadcast) and a /32 (the one address). ' +
    'IPv6 has no broadcast and every address counts as a host, /127 included (RFC 6164); the first is also the Subnet-Router anycast address (RFC 4291 §2.6.1). ' +
    'An address with host bits set beyond the prefix (`192.168.1.10/24`) is read as the block that holds it (`192.168.1.0/24`), with a warning. ' +
    '`contains` tells whether an address lies in the block; `splitPrefix` lists the block’s subnets of a longer prefix, up to 4,096 of them. ' +
    'Addresses are read strictly (no shortened or zero-padded IPv4, no zone index) and IPv6 is written in RFC 5952 canonical form.',
  input: Type.Object(
    {
      input: Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'The block: an IPv4 or IPv6 address, then `/` and the prefix length (`10.0.0.0/8`, `2001:db8::/32`), or an address alone when `mask` gives the netmask.',
        examples: ['192.168.1.0/24', '2001:db8::/32'],
      }),
      mask: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 45,
          description:
            'A netmask written as an address of the same version (`255.255.255.0`, `ffff:ffff:ffff:ffff::`), for an `input` without a prefix length. A wildcard mask (`0.0.0.255`) is refused with the netmask it stands for.',
          examples: ['255.255.255.0'],
        }),
      ),
      contains: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 45,
          description: 'An address to test: the answer says whether the block holds it (an address of the other IP version never lies in it).',
          examples: ['192.168.1.77'],
        }),
      ),
      splitPrefix: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 128,
          description: `A longer prefix length to split the block into (from the block's own to 32 for IPv4, 128 for IPv6); at most ${MAX_SUBNETS} subnets, so at most ${MAX_SPLIT_BITS} bits longer than the block's.`,
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: subnetOutput,
  examples: [
    {
      summary: 'An IPv4 /24',
      input: { input: '192.168.1.0/24' },
      output: {
        result: '192.168.1.0/24',
        version: 4,
        network: '192.168.1.0',
        broadcast: '192.168.1.255',
        firstHost: '192.168.1.1',
        lastHost: '192.168.1.254',
        netmask: '255.255.255.0',
        wildcard: '0.0.0.255',
        prefixLength: 24,
        addressCount: '256',
        hostCount: '254',
        range: { type: 'private', name: 'Private-Use', block: '192.168.0.0/16', reference: 'RFC 1918', globallyReachable: false },
        warnings: [],
      },
    },
    {
      summary: 'An address with a netmask, and whether another address is on the same subnet',
      input: { input: '100.64.17.9', mask: '255.255.240.0', contains: '100.64.31.200' },
      output: {
        result: '100.64.16.0/20',
        version: 4,
        network: '100.64.16.0',
        broadcast: '100.64.31.255',
        firstHost: '100.64.16.1',
        lastHost: '100.64.31.254',
        netmask: '255.255.240.0',
        wildcard: '0.0.15.255',
        prefixLength: 20,
        addressCount: '4096',
        hostCount: '4094',
        range: { type: 'carrierGradeNat', name: 'Shared Address Space', block: '100.64.0.0/10', reference: 'RFC 6598', globallyReachable: false },
        contains: true,
        warnings: ['input 100.64.17.9 has host bits set beyond its /20 prefix: the block that holds it is 100.64.16.0/20, which this answer describes'],
      },
    },
    {
      summary: 'A point-to-point IPv4 /31 (RFC 3021): two hosts, no broadcast',
      input: { input: '203.0.113.8/31' },
      output: {
        result: '203.0.113.8/31',
        version: 4,
        network: '203.0.113.8',
        broadcast: null,
        firstHost: '203.0.113.8',
        lastHost: '203.0.113.9',
        netmask: '255.255.255.254',
        wildcard: '0.0.0.1',
        prefixLength: 31,
        addressCount: '2',
        hostCount: '2',
        range: { type: 'documentation', name: 'Documentation (TEST-NET-3)', block: '203.0.113.0/24', reference: 'RFC 5737', globallyReachable: false },
        warnings: [],
      },
    },
    {
      summary: 'An IPv6 /64',
      input: { input: '2001:db8:abcd:12::/64' },
      output: {
        result: '2001:db8:abcd:12::/64',
        version: 6,
        network: '2001:db8:abcd:12::',
        broadcast: null,
        firstHost: '2001:db8:abcd:12::',
        lastHost: '2001:db8:abcd:12:ffff:ffff:ffff:ffff',
        netmask: 'ffff:ffff:ffff:ffff::',
        wildcard: '::ffff:ffff:ffff:ffff',
        prefixLength: 64,
        addressCount: '18446744073709551616',
        hostCount: '18446744073709551616',
        range: { type: 'documentation', name: 'Documentation', block: '2001:db8::/32', reference: 'RFC 3849', globallyReachable: false },
        warnings: [],
      },
    },
    {
      summary: 'A /24 split into four /26 subnets',
      input: { input: '10.20.30.0/24', splitPrefix: 26 },
      output: {
        result: '10.20.30.0/24',
        version: 4,
        network: '10.20.30.0',
        broadcast: '10.20.30.255',
        firstHost: '10.20.30.1',
        lastHost: '10.20.30.254',
        netmask: '255.255.255.0',
        wildcard: '0.0.0.255',
        prefixLength: 24,
        addressCount: '256',
        hostCount: '254',
        range: { type: 'private', name: 'Private-Use', block: '10.0.0.0/8', reference: 'RFC 1918', globallyReachable: false },
        subnets: ['10.20.30.0/26', '10.20.30.64/26', '10.20.30.128/26', '10.20.30.192/26'],
        warnings: [],
      },
    },
  ],
  run({ input, mask, contains, splitPrefix }) {
    const { version, value, prefixLength } = parseBlock(input, mask)
    const bits = BITS[version]
    const warnings: string[] = []
    const network = networkOf(value, prefixLength, version)
    const cidr = cidrText(network, prefixLength, version)
    if (network !== value) {
      warnings.push(`input ${input} has host bits set beyond its /${prefixLength} prefix: the block that holds it is ${cidr}, which this answer describes`)
    }
    const addressCount = 1n << BigInt(bits - prefixLength)
    const last = network + addressCount - 1n
    const hasBroadcast = version === 4 && prefixLength < 31
    const text = (address: bigint) => addressText(toAddress(address, version))
    const range = specialRangeHolding(version, network, prefixLength)
    if (range === undefined) warnings.push(...spannedRangesWarning(version, network, prefixLength))
    const answer: Static<typeof subnetOutput> = {
      result: cidr,
      version,
      network: text(network),
      broadcast: hasBroadcast ? text(last) : null,
      firstHost: text(hasBroadcast ? network + 1n : network),
      lastHost: text(hasBroadcast ? last - 1n : last),
      netmask: maskText(maskOf(prefixLength, version), version),
      wildcard: maskText(addressCount - 1n, version),
      prefixLength,
      addressCount: addressCount.toString(),
      hostCount: (hasBroadcast ? addressCount - 2n : addressCount).toString(),
      range: range === undefined ? null : { ...range },
      ...(contains === undefined ? {} : { contains: holds(contains, version, network, prefixLength, warnings) }),
      ...(splitPrefix === undefined ? {} : { subnets: subnets(network, prefixLength, splitPrefix, version) }),
      warnings,
    }
    return answer
  },
})

function holds(contains: string, version: IpVersion, network: bigint, prefixLength: number, warnings: string[]): boolean {
  const address = readAddress(contains, 'contains')
  if (address.version !== version) {
    warnings.push(`contains ${contains} is an IPv${address.version} address, which an IPv${version} block never holds`)
    return false
  }
  return networkOf(address.value, prefixLength, version) === network
}

function spannedRangesWarning(version: IpVersion, network: bigint, prefixLength: number): string[] {
  const within: SpecialRange[] = specialRangesWithin(version, network, prefixLength)
  if (within.length === 0) return []
  const listed = within.slice(0, 5).map((range) => `${range.block} (${range.name})`)
  const more = within.length > listed.length ? ` and ${within.length - listed.length} more` : ''
  return [`the block lies in no single special-purpose range but holds ${within.length}: ${listed.join(', ')}${more}`]
}
