import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { addressText, BITS, type IpVersion, networkOf, parseAddress, specialBlocksOfType, toAddress, toBigInt } from '../../lib/net/ip.ts'
import { randomOffset, randomOffsets } from '../../lib/random/offsets.ts'

type AddressType = 'public' | 'private' | 'loopback' | 'linkLocal' | 'multicast' | 'documentation' | 'any'

interface Block {
  base: bigint
  size: bigint
}

/** Where addresses are drawn from: blocks whose union is drawn uniformly. */
interface Space {
  version: IpVersion
  blocks: Block[]
  size: bigint
  /** What the blocks are, for messages. */
  label: string
  /** Only globally routable unicast addresses: draws that ipaddr.js does not call `unicast` are redrawn. */
  publicOnly: boolean
}

/**
 * The special-purpose registry's blocks of each type, except three IPv6 types drawn from a part of
 * theirs: unique local addresses from fd00::/8, the half of fc00::/7 that RFC 4193 §3.1 lets anyone
 * assign; link-local ones from fe80::/64, the only link-local prefix RFC 4291 §2.5.6 uses; and
 * documentation addresses from RFC 3849's 2001:db8::/32, the block documentation uses.
 */
const TYPE_RANGES: Record<IpVersion, Record<AddressType, string[]>> = {
  4: {
    public: ['0.0.0.0/0'],
    private: specialBlocksOfType(4, 'private'),
    loopback: specialBlocksOfType(4, 'loopback'),
    linkLocal: specialBlocksOfType(4, 'linkLocal'),
    multicast: specialBlocksOfType(4, 'multicast'),
    documentation: specialBlocksOfType(4, 'documentation'),
    any: ['0.0.0.0/0'],
  },
  6: {
    public: ['2000::/3'],
    private: ['fd00::/8'],
    loopback: specialBlocksOfType(6, 'loopback'),
    linkLocal: ['fe80::/64'],
    multicast: specialBlocksOfType(6, 'multicast'),
    documentation: ['2001:db8::/32'],
    any: ['::/0'],
  },
}

function block(base: bigint, prefixLength: number, version: IpVersion): Block {
  return { base, size: 1n << BigInt(BITS[version] - prefixLength) }
}

function typeSpace(version: IpVersion, type: AddressType): Space {
  const blocks = TYPE_RANGES[version][type].map((cidr) => {
    const [address, prefixLength] = ipaddr.parseCIDR(cidr)
    return block(toBigInt(address), prefixLength, version)
  })
  const size = blocks.reduce((total, { size }) => total + size, 0n)
  return { version, blocks, size, label: `type ${type} (${TYPE_RANGES[version][type].join(', ')})`, publicOnly: type === 'public' }
}

/**
 * Reads `cidr` strictly: node:net must accept the address as it is written (no shortened or
 * zero-padded IPv4, no zone), the prefix must fit the version, and no host bit may be set beyond
 * the prefix. Such a block is refused rather than masked: 192.168.1.10/16 may be a typo for /24.
 */
function cidrSpace(cidr: string): Space {
  const slash = cidr.indexOf('/')
  const addressPart = cidr.slice(0, slash)
  const prefixLength = Number(cidr.slice(slash + 1))
  const family = isIP(addressPart)
  if (family === 0) throw invalidInput(`cidr ${cidr} does not start with a valid IPv4 or IPv6 address`, { field: 'cidr', position: 0 })
  const version = family as IpVersion
  if (prefixLength > BITS[version]) {
    throw invalidInput(`cidr ${cidr} has a /${prefixLength} prefix, but an IPv${version} prefix is at most /${BITS[version]}`, {
      field: 'cidr',
      position: slash + 1,
    })
  }
  const value = toBigInt(parseAddress(addressPart, version))
  const network = networkOf(value, prefixLength, version)
  if (network !== value) {
    const suggestion = `${addressText(toAddress(network, version))}/${prefixLength}`
    throw invalidInput(`cidr ${cidr} has host bits set beyond its /${prefixLength} prefix; the block it names is written ${suggestion}`, {
      field: 'cidr',
      position: 0,
    })
  }
  return {
    version,
    blocks: [block(network, prefixLength, version)],
    size: 1n << BigInt(BITS[version] - prefixLength),
    label: `cidr ${cidr}`,
    publicOnly: false,
  }
}

/** The address `offset` places past the start of the space, counting through its blocks in turn. */
function addressAt(space: Space, offset: bigint): ipaddr.IPv4 | ipaddr.IPv6 {
  let rest = offset
  let index = 0
  while (index < space.blocks.length - 1 && rest >= space.blocks[index].size) rest -= space.blocks[index++].size
  return toAddress(space.blocks[index].base + rest, space.version)
}

/** A uniform draw over the space; for `public`, over its globally routable unicast addresses only. */
function drawOffset(space: Space): bigint {
  for (;;) {
    const offset = randomOffset(space.size)
    if (!space.publicOnly || addressAt(space, offset).range() === 'unicast') return offset
  }
}

export const ipAddress = defineOperation({
  name: 'ip-address',
  category: 'generators',
  runsInBrowser: true,
  summary: 'Generate random IPv4 or IPv6 addresses of a given kind or within a CIDR block',
  title: 'Random IP address',
  aliases: ['ipv4', 'ipv6', 'random ip', 'fake ip', 'ip generator'],
  description:
    'Generates random IP addresses from the operating system CSPRNG, uniformly over the chosen space. ' +
    '`type` picks the space: `public` (globally routable unicast only: never private, shared 100.64/10, loopback, link-local, multicast, documentation, benchmarking, reserved or any other range ipaddr.js does not call `unicast`; IPv6 draws within 2000::/3), ' +
    '`private` (10/8, 172.16/12, 192.168/16; IPv6 unique local fd00::/8), `loopback` (127/8; ::1), `linkLocal` (169.254/16; fe80::/64), `multicast` (224/4; ff00::/8), ' +
    '`documentation` (192.0.2/24, 198.51.100/24, 203.0.113/24; 2001:db8::/32) or `any` address at all. ' +
    '`cidr` names a block instead and overrides `type`; every address of the block may be drawn, network and broadcast addresses included. ' +
    'IPv6 addresses are written in RFC 5952 canonical form.',
  input: Type.Object(
    {
      version: Type.Optional(
        Type.Enum([4, 6], {
          description: 'IPv4 or IPv6. Default: 4, or the version of `cidr` when it is given (a version that contradicts `cidr` is refused).',
        }),
      ),
      count: withDefault(Type.Integer({ minimum: 1, maximum: 1000, description: 'How many addresses to generate, 1 to 1000.' }), 1),
      type: withDefault(
        Type.Enum(['public', 'private', 'loopback', 'linkLocal', 'multicast', 'documentation', 'any'], {
          description:
            'The kind of address: `public` (globally routable unicast), `private` (RFC 1918; IPv6 unique local fd00::/8), `loopback`, `linkLocal`, `multicast`, `documentation` (RFC 5737; RFC 3849) or `any`. Ignored when `cidr` is given.',
        }),
        'public',
      ),
      cidr: Type.Optional(
        Type.String({
          pattern: '^[0-9A-Fa-f:.]{2,45}/(?:[0-9]|[1-9][0-9]|1[01][0-9]|12[0-8])$',
          maxLength: 49,
          description:
            'A block to draw from, as address/prefix-length, e.g. `10.0.0.0/8` or `2001:db8::/32`. Overrides `type`; the version is taken from it. The address must be the first of the block (no host bits set beyond the prefix).',
          examples: ['10.0.0.0/8', '2001:db8::/32'],
        }),
      ),
      unique: withDefault(Type.Boolean({ description: 'Never repeat an address. Asking for more addresses than the space holds is refused (400).' }), false),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The first address.' }),
    results: Type.Array(Type.String(), { description: 'All the addresses, `count` of them.' }),
    version: Type.Enum([4, 6], { description: 'The IP version of the addresses.' }),
  }),
  examples: [
    { summary: 'A public IPv4 address', input: {} },
    { summary: 'Five distinct private IPv6 addresses', input: { version: 6, type: 'private', count: 5, unique: true } },
    { summary: 'Addresses within a subnet', input: { cidr: '192.168.1.0/24', count: 3 } },
    {
      summary: 'Every address of a /30, each once',
      input: { cidr: '10.0.0.0/30', count: 4, unique: true },
    },
    { summary: 'The IPv6 loopback address', input: { version: 6, type: 'loopback' }, output: { result: '::1', results: ['::1'], version: 6 } },
    {
      summary: 'A one-address block',
      input: { cidr: '2001:db8:0:0:1:0:0:1/128' },
      output: { result: '2001:db8::1:0:0:1', results: ['2001:db8::1:0:0:1'], version: 6 },
    },
  ],
  allowGet: true,
  run({ version, count, type, cidr, unique }) {
    const space = cidr === undefined ? typeSpace(version ?? 4, type) : cidrSpace(cidr)
    if (version !== undefined && version !== space.version) {
      throw validationError('version', `is ${version}, but cidr ${cidr} is an IPv${space.version} block; leave version out or make it ${space.version}`)
    }
    if (unique && BigInt(count) > space.size) {
      throw validationError('count', `is ${count}, but ${space.label} holds only ${space.size} addresses; ask for at most ${space.size} or set unique to false`)
    }
    const results = randomOffsets(space.size, count, unique, () => drawOffset(space)).map((offset) => addressText(addressAt(space, offset)))
    return { result: results[0], results, version: space.version }
  },
})
