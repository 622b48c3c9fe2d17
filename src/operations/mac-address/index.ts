import { Type } from 'typebox'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { bytesOfHexPairs, hexOfBytes } from '../../lib/bytes/hex.ts'
import { randomOctets } from '../../lib/random/random.ts'

type Format = 'colon' | 'hyphen' | 'dot' | 'none'

const MAC_BYTES = 6
/** Bit 0 of the first octet: individual (0) or group, that is multicast (1). */
const GROUP_BIT = 0x01
/** Bit 1 of the first octet: universally (0) or locally (1) administered. */
const LOCAL_BIT = 0x02

const HEX2 = '[0-9A-Fa-f]{2}'
/** 0 to 5 bytes, written with one kind of separator throughout, or none, or in Cisco's dotted groups. */
const PREFIX_PATTERN = `^(?:|${HEX2}(?::${HEX2}){0,4}|${HEX2}(?:-${HEX2}){0,4}|(?:${HEX2}){1,5}|[0-9A-Fa-f]{4}(?:\\.[0-9A-Fa-f]{4})?(?:\\.${HEX2})?)$`

function formatMac(bytes: Uint8Array, format: Format, uppercase: boolean): string {
  const hex = hexOfBytes(bytes)
  const text = uppercase ? hex.toUpperCase() : hex
  switch (format) {
    case 'colon':
      return text.match(/../g)!.join(':')
    case 'hyphen':
      return text.match(/../g)!.join('-')
    case 'dot':
      return text.match(/..../g)!.join('.')
    case 'none':
      return text
  }
}

export const macAddress = defineOperation({
  name: 'mac-address',
  category: 'generators',
  summary: 'Generate random MAC addresses, locally administered or under a given prefix',
  title: 'Random MAC address',
  aliases: ['mac', 'ethernet address', 'hardware address', 'oui'],
  description:
    'Generates random 48-bit MAC (EUI-48) addresses from the operating system CSPRNG. ' +
    'Without `prefix`, every address is locally administered (bit 1 of the first octet set) and unicast (bit 0 clear), so it can never collide with an address a vendor assigned; `multicast` sets bit 0 instead. ' +
    "With `prefix` (up to 5 bytes, such as a vendor OUI), the prefix is kept as given and only the remaining bytes are random; `multicast` then sets bit 0 of the prefix's first octet.",
  input: Type.Object(
    {
      count: withDefault(Type.Integer({ minimum: 1, maximum: 1000, description: 'How many addresses to generate, 1 to 1000.' }), 1),
      format: withDefault(
        Type.Enum(['colon', 'hyphen', 'dot', 'none'], {
          description:
            'How each address is written: `colon` (00:1a:2b:3c:4d:5e), `hyphen` (00-1a-2b-3c-4d-5e), `dot` (Cisco, 001a.2b3c.4d5e) or `none` (001a2b3c4d5e).',
        }),
        'colon',
      ),
      uppercase: withDefault(Type.Boolean({ description: 'Write the hex digits in upper case.' }), false),
      prefix: Type.Optional(
        Type.String({
          pattern: PREFIX_PATTERN,
          maxLength: 14,
          description:
            'Leading bytes to keep, 0 to 5 of them in hex, such as an OUI: `00:1A:2B`, `00-1A-2B`, `001A2B` or Cisco-style `001a.2b` (one kind of separator throughout). Empty means no prefix.',
          examples: ['00:1A:2B', '02:00:00'],
        }),
      ),
      multicast: withDefault(
        Type.Boolean({
          description: "Generate group (multicast) addresses: bit 0 of the first octet set, in the prefix's first octet too when a prefix is given.",
        }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The first address.' }),
    results: Type.Array(Type.String(), { description: 'All the addresses, `count` of them.' }),
  }),
  examples: [
    { summary: 'A random locally administered unicast address', input: {} },
    { summary: 'Three addresses under a vendor OUI, Cisco format', input: { count: 3, prefix: '00:1A:2B', format: 'dot' } },
    { summary: 'A locally administered multicast address, upper case with hyphens', input: { multicast: true, format: 'hyphen', uppercase: true } },
  ],
  allowGet: true,
  runsInBrowser: true,
  run({ count, format, uppercase, prefix, multicast }) {
    const fixed = bytesOfHexPairs((prefix ?? '').replace(/[:.-]/g, ''))
    const random = randomOctets(MAC_BYTES * count)
    const results: string[] = []
    for (let i = 0; i < count; i++) {
      const bytes = random.subarray(i * MAC_BYTES, (i + 1) * MAC_BYTES)
      if (fixed.length > 0) bytes.set(fixed)
      else bytes[0] = (bytes[0] & ~(GROUP_BIT | LOCAL_BIT)) | LOCAL_BIT
      if (multicast) bytes[0] |= GROUP_BIT
      results.push(formatMac(bytes, format, uppercase))
    }
    return { result: results[0], results }
  },
})
