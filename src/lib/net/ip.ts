import ipaddr from 'ipaddr.js'

/** What the IP operations (ip-address, subnet) share: address arithmetic and the special-purpose ranges. */

export type IpVersion = 4 | 6
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6

export const BITS: Record<IpVersion, number> = { 4: 32, 6: 128 }

const EMBEDDED_IPV4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/

/**
 * Parses an address that node:net's isIP has accepted. An IPv6 address that ends in dotted IPv4 has
 * that part rewritten in hex first: ipaddr.js reads every `::a.b.c.d` as IPv4-mapped
 * (`::ffff:a.b.c.d`), which is a different address.
 */
export function parseAddress(text: string, version: IpVersion): IpAddress {
  if (version === 4) return ipaddr.IPv4.parse(text)
  const hex = text.replace(EMBEDDED_IPV4, (_, a, b, c, d) => `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`)
  return ipaddr.IPv6.parse(hex)
}

export function toBigInt(address: IpAddress): bigint {
  return address.toByteArray().reduce((value, byte) => (value << 8n) | BigInt(byte), 0n)
}

export function toAddress(value: bigint, version: IpVersion): IpAddress {
  if (version === 4) return new ipaddr.IPv4([24n, 16n, 8n, 0n].map((shift) => Number((value >> shift) & 0xffn)))
  return new ipaddr.IPv6([112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => Number((value >> shift) & 0xffffn)))
}

/** IPv4 dotted-quad, IPv6 in RFC 5952 canonical form (lower case, longest zero run compressed). */
export function addressText(address: IpAddress): string {
  if (address.kind() === 'ipv4') return address.toString()
  const v6 = address as ipaddr.IPv6
  // RFC 5952 §5: an IPv4-mapped address keeps its IPv4 part in dotted form.
  return v6.isIPv4MappedAddress() ? `::ffff:${v6.toIPv4Address().toString()}` : v6.toRFC5952String()
}

/** The first address of the /prefixLength block holding `value`. */
export function networkOf(value: bigint, prefixLength: number, version: IpVersion): bigint {
  const hostBits = BigInt(BITS[version] - prefixLength)
  return (value >> hostBits) << hostBits
}

/** What kind of range a special-purpose block is: the `type` words of ip-address and subnet. */
export type RangeType =
  | 'thisNetwork'
  | 'unspecified'
  | 'private'
  | 'carrierGradeNat'
  | 'loopback'
  | 'linkLocal'
  | 'ietfProtocol'
  | 'anycast'
  | 'documentation'
  | 'benchmarking'
  | 'as112'
  | 'amt'
  | 'translation'
  | 'multicast'
  | 'reserved'
  | 'broadcast'
  | 'ipv4Mapped'
  | 'discard'
  | 'teredo'
  | '6to4'
  | 'orchid'
  | 'droneRemoteId'
  | 'segmentRouting'
  | 'deprecated'

export interface SpecialRange {
  type: RangeType
  /** The registry's name for the block. */
  name: string
  block: string
  /** The documents that define it, as the registry cites them. */
  reference: string
  /** The registry's "Globally Reachable" column; null where it says N/A. */
  globallyReachable: boolean | null
}

const row = (block: string, type: RangeType, name: string, reference: string, globallyReachable: boolean | null): SpecialRange => ({
  type,
  name,
  block,
  reference,
  globallyReachable,
})

/**
 * The IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and the RFCs that added rows
 * since), plus the multicast blocks of the IPv4 Multicast Address Space Registry (RFC 5771) and of
 * the IPv6 Address Space Registry (RFC 4291), which the special-purpose registries leave out.
 */
export const SPECIAL_RANGES: Record<IpVersion, readonly SpecialRange[]> = {
  4: [
    row('0.0.0.0/8', 'thisNetwork', '"This network"', 'RFC 791 §3.2', false),
    row('0.0.0.0/32', 'unspecified', '"This host on this network"', 'RFC 1122 §3.2.1.3', false),
    row('10.0.0.0/8', 'private', 'Private-Use', 'RFC 1918', false),
    row('100.64.0.0/10', 'carrierGradeNat', 'Shared Address Space', 'RFC 6598', false),
    row('127.0.0.0/8', 'loopback', 'Loopback', 'RFC 1122 §3.2.1.3', false),
    row('169.254.0.0/16', 'linkLocal', 'Link Local', 'RFC 3927', false),
    row('172.16.0.0/12', 'private', 'Private-Use', 'RFC 1918', false),
    row('192.0.0.0/24', 'ietfProtocol', 'IETF Protocol Assignments', 'RFC 6890 §2.1', false),
    row('192.0.0.0/29', 'translation', 'IPv4 Service Continuity Prefix', 'RFC 7335', false),
    row('192.0.0.8/32', 'ietfProtocol', 'IPv4 dummy address', 'RFC 7600', false),
    row('192.0.0.9/32', 'anycast', 'Port Control Protocol Anycast', 'RFC 7723', true),
    row('192.0.0.10/32', 'anycast', 'Traversal Using Relays around NAT Anycast', 'RFC 8155', true),
    row('192.0.0.170/32', 'translation', 'NAT64/DNS64 Discovery', 'RFC 8880, RFC 7050 §2.2', false),
    row('192.0.0.171/32', 'translation', 'NAT64/DNS64 Discovery', 'RFC 8880, RFC 7050 §2.2', false),
    row('192.0.2.0/24', 'documentation', 'Documentation (TEST-NET-1)', 'RFC 5737', false),
    row('192.31.196.0/24', 'as112', 'AS112-v4', 'RFC 7535', true),
    row('192.52.193.0/24', 'amt', 'AMT', 'RFC 7450', true),
    row('192.88.99.0/24', 'deprecated', 'Deprecated (6to4 Relay Anycast)', 'RFC 7526', null),
    row('192.168.0.0/16', 'private', 'Private-Use', 'RFC 1918', false),
    row('192.175.48.0/24', 'as112', 'Direct Delegation AS112 Service', 'RFC 7534', true),
    row('198.18.0.0/15', 'benchmarking', 'Benchmarking', 'RFC 2544', false),
    row('198.51.100.0/24', 'documentation', 'Documentation (TEST-NET-2)', 'RFC 5737', false),
    row('203.0.113.0/24', 'documentation', 'Documentation (TEST-NET-3)', 'RFC 5737', false),
    row('224.0.0.0/4', 'multicast', 'Multicast', 'RFC 5771', null),
    row('240.0.0.0/4', 'reserved', 'Reserved', 'RFC 1112 §4', false),
    row('255.255.255.255/32', 'broadcast', 'Limited Broadcast', 'RFC 8190, RFC 919 §7', false),
  ],
  6: [
    row('::/128', 'unspecified', 'Unspecified Address', 'RFC 4291', false),
    row('::1/128', 'loopback', 'Loopback Address', 'RFC 4291', false),
    row('::ffff:0:0/96', 'ipv4Mapped', 'IPv4-mapped Address', 'RFC 4291', false),
    row('64:ff9b::/96', 'translation', 'IPv4-IPv6 Translat.', 'RFC 6052', true),
    row('64:ff9b:1::/48', 'translation', 'IPv4-IPv6 Translat.', 'RFC 8215', false),
    row('100::/64', 'discard', 'Discard-Only Address Block', 'RFC 6666', false),
    row('2001::/23', 'ietfProtocol', 'IETF Protocol Assignments', 'RFC 2928', false),
    row('2001::/32', 'teredo', 'TEREDO', 'RFC 4380, RFC 8190', null),
    row('2001:1::1/128', 'anycast', 'Port Control Protocol Anycast', 'RFC 7723', true),
    row('2001:1::2/128', 'anycast', 'Traversal Using Relays around NAT Anycast', 'RFC 8155', true),
    row('2001:2::/48', 'benchmarking', 'Benchmarking', 'RFC 5180', false),
    row('2001:3::/32', 'amt', 'AMT', 'RFC 7450', true),
    row('2001:4:112::/48', 'as112', 'AS112-v6', 'RFC 7535', true),
    row('2001:10::/28', 'deprecated', 'Deprecated (previously ORCHID)', 'RFC 4843', null),
    row('2001:20::/28', 'orchid', 'ORCHIDv2', 'RFC 7343', true),
    row('2001:30::/28', 'droneRemoteId', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', 'RFC 9374', true),
    row('2001:db8::/32', 'documentation', 'Documentation', 'RFC 3849', false),
    row('2002::/16', '6to4', '6to4', 'RFC 3056', null),
    row('2620:4f:8000::/48', 'as112', 'Direct Delegation AS112 Service', 'RFC 7534', true),
    row('3fff::/20', 'documentation', 'Documentation', 'RFC 9637', false),
    row('5f00::/16', 'segmentRouting', 'Segment Routing (SRv6) SIDs', 'RFC 9602', false),
    row('fc00::/7', 'private', 'Unique-Local', 'RFC 4193, RFC 8190', false),
    row('fe80::/10', 'linkLocal', 'Link-Local Unicast', 'RFC 4291', false),
    row('ff00::/8', 'multicast', 'Multicast', 'RFC 4291', null),
  ],
}

interface ParsedRange {
  range: SpecialRange
  base: bigint
  prefixLength: number
}

const PARSED_RANGES: Record<IpVersion, readonly ParsedRange[]> = {
  4: SPECIAL_RANGES[4].map(parseRange),
  6: SPECIAL_RANGES[6].map(parseRange),
}

function parseRange(range: SpecialRange): ParsedRange {
  const [address, prefixLength] = ipaddr.parseCIDR(range.block)
  return { range, base: toBigInt(address), prefixLength }
}

/** The blocks of one type, in the registry's order. */
export function specialBlocksOfType(version: IpVersion, type: RangeType): string[] {
  return SPECIAL_RANGES[version].filter((range) => range.type === type).map((range) => range.block)
}

/** The most specific special-purpose range that holds the whole block, if any. */
export function specialRangeHolding(version: IpVersion, network: bigint, prefixLength: number): SpecialRange | undefined {
  let found: ParsedRange | undefined
  for (const candidate of PARSED_RANGES[version]) {
    const holds = candidate.prefixLength <= prefixLength && networkOf(network, candidate.prefixLength, version) === candidate.base
    if (holds && (found === undefined || candidate.prefixLength > found.prefixLength)) found = candidate
  }
  return found?.range
}

/** The special-purpose ranges that lie inside the block (for a block that no single range holds). */
export function specialRangesWithin(version: IpVersion, network: bigint, prefixLength: number): SpecialRange[] {
  return PARSED_RANGES[version]
    .filter((candidate) => candidate.prefixLength >= prefixLength && networkOf(candidate.base, prefixLength, version) === network)
    .map((candidate) => candidate.range)
}
