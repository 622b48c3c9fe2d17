import { randomUUID } from 'node:crypto'
import { Type } from 'typebox'
import { MAX, NIL, v1, v3, v5, v6, v7 } from 'uuid'
import { DevutilsError, invalidInput, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

const VERSIONS = [1, 3, 4, 5, 6, 7, 'nil', 'max'] as const
type Version = (typeof VERSIONS)[number]
type Format = 'standard' | 'compact' | 'braces' | 'urn'

/** The predefined namespaces of RFC 9562 §6.6. */
const NAMESPACES: Record<string, string> = {
  dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
}

const HEX_UUID = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}'
const NAMESPACE_PATTERN = `^(?:dns|url|oid|x500|${HEX_UUID}|\\{${HEX_UUID}\\}|urn:uuid:${HEX_UUID}|[0-9A-Fa-f]{32})$`

/** The 16 bytes of a namespace: a predefined name or a UUID in any of the four formats. */
function namespaceBytes(namespace: string): Uint8Array {
  const text = NAMESPACES[namespace] ?? namespace
  return Buffer.from(text.replace(/^urn:uuid:/, '').replace(/[{}-]/g, ''), 'hex')
}

function formatUuid(uuid: string, format: Format, uppercase: boolean): string {
  const text = uppercase ? uuid.toUpperCase() : uuid
  switch (format) {
    case 'standard':
      return text
    case 'compact':
      return text.replaceAll('-', '')
    case 'braces':
      return `{${text}}`
    case 'urn':
      return `urn:uuid:${text}`
  }
}

/**
 * Version 7 values of one response must be strictly increasing. The uuid package keeps a
 * process-wide millisecond and 32-bit counter that only moves forward (even if the clock steps
 * back), so each call is already greater than the last; this check enforces it rather than trusting
 * it, drawing again in the (never observed) case that a value is not greater.
 */
function increasingV7(count: number): string[] {
  const values: string[] = []
  let previous = ''
  for (let i = 0; i < count; i++) {
    let value = v7()
    for (let attempt = 1; value <= previous; attempt++) {
      if (attempt > 3) throw new DevutilsError('INTERNAL_ERROR', 'The version 7 UUID sequence did not increase')
      value = v7()
    }
    values.push(value)
    previous = value
  }
  return values
}

function generate(version: Version, count: number, namespace: string | undefined, name: string | undefined): string[] {
  const repeat = (value: string) => new Array<string>(count).fill(value)
  switch (version) {
    case 'nil':
      return repeat(NIL)
    case 'max':
      return repeat(MAX)
    case 3:
      return repeat(v3(Buffer.from(name!, 'utf8'), namespaceBytes(namespace!)))
    case 5:
      return repeat(v5(Buffer.from(name!, 'utf8'), namespaceBytes(namespace!)))
    case 4:
      return Array.from({ length: count }, () => randomUUID())
    case 1:
      return Array.from({ length: count }, () => v1())
    case 6:
      return Array.from({ length: count }, () => v6())
    case 7:
      return increasingV7(count)
  }
}

// ---- Inspecting ----

export type UuidVariant = 'ncs' | 'rfc9562' | 'microsoft' | 'reserved'

/** What the bits of one UUID say (RFC 9562 §4 and §5). */
export interface UuidInspection {
  /** The canonical form: 8-4-4-4-12 lower-case hex digits. */
  uuid: string
  version: number | 'nil' | 'max'
  variant: UuidVariant
  /** Variant rfc9562 with a defined version (1 to 8), or the nil or max UUID. */
  standard: boolean
  description: string
  time?: string
  unixMs?: number
  timestamp?: string
  clockSequence?: number
  node?: string
  nodeIsRandom?: boolean
  hash?: 'md5' | 'sha1'
}

const HEX_DIGIT = /^[0-9A-Fa-f]$/
const HYPHENS = new Set([8, 13, 18, 23])
/** Milliseconds from the Gregorian epoch of versions 1 and 6 (1582-10-15) to the Unix epoch. */
const GREGORIAN_OFFSET_MS = 12_219_292_800_000n

const DESCRIPTIONS: Record<number, string> = {
  1: 'time-based (Gregorian time, clock sequence and node)',
  2: 'DCE Security',
  3: 'name-based (MD5)',
  4: 'random',
  5: 'name-based (SHA-1)',
  6: 'time-based, reordered to sort by time (Gregorian time, clock sequence and node)',
  7: 'time-based (Unix time in milliseconds, then random bits)',
  8: 'custom layout (vendor-specific)',
}

function variantOf(octet: number): UuidVariant {
  if (octet < 0x80) return 'ncs'
  if (octet < 0xc0) return 'rfc9562'
  if (octet < 0xe0) return 'microsoft'
  return 'reserved'
}

/**
 * Reads the 32 hex digits of a UUID written in the standard, compact, braces or urn form (any letter
 * case, surrounding whitespace ignored); anything else is a 422 naming the position, in `text`, of
 * the first character that breaks the shape.
 */
export function parseUuid(text: string): string {
  const start = text.length - text.trimStart().length
  const trimmed = text.trim()
  let offset = start
  let body = trimmed
  let closing = ''
  if (/^urn:uuid:/i.test(body)) {
    offset += 9
    body = body.slice(9)
  } else if (body.startsWith('{')) {
    offset += 1
    body = body.slice(1)
    closing = '}'
  }
  const hyphenated = body.length > 8 && body[8] === '-'
  const length = hyphenated ? 36 : 32
  const shape = hyphenated ? 'the standard form (8-4-4-4-12 hex digits)' : '32 hex digits'
  for (let i = 0; i < Math.min(body.length, length); i++) {
    const wanted = hyphenated && HYPHENS.has(i) ? '-' : 'hex'
    const ok = wanted === '-' ? body[i] === '-' : HEX_DIGIT.test(body[i])
    if (!ok) {
      const what = wanted === '-' ? 'where a hyphen belongs' : 'where a hex digit belongs'
      throw invalidInput(`${showCharacterAt(body, i)} at position ${offset + i} is not a UUID character ${what}; a UUID is ${shape}`, { position: offset + i })
    }
  }
  if (body.length < length) throw invalidInput(`input ends after ${body.length} characters of the UUID; a UUID is ${shape}`, { position: offset + body.length })
  if (closing && body[length] !== closing) {
    throw invalidInput(`the UUID opened with '{' needs '}' at position ${offset + length}`, { position: offset + length })
  }
  const end = length + closing.length
  if (body.length > end) throw invalidInput(`unexpected text after the UUID at position ${offset + end}`, { position: offset + end })
  return body.slice(0, length).replaceAll('-', '').toLowerCase()
}

const withHyphens = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`

/** Gregorian 100 ns ticks as the time fields of versions 1 and 6. */
function gregorianTime(ticks: bigint, bytes: Buffer): Partial<UuidInspection> {
  const unixMs = Number(ticks / 10_000n - GREGORIAN_OFFSET_MS)
  const node = bytes.subarray(10)
  return {
    time: new Date(unixMs).toISOString(),
    unixMs,
    timestamp: ticks.toString(),
    clockSequence: bytes.readUInt16BE(8) & 0x3fff,
    node: [...node].map((byte) => byte.toString(16).padStart(2, '0')).join(':'),
    nodeIsRandom: (node[0] & 1) === 1,
  }
}

/** Inspects one UUID (see `parseUuid` for the forms read): its version, variant and what its fields hold. */
export function inspectUuid(text: string): UuidInspection {
  const hex = parseUuid(text)
  const uuid = withHyphens(hex)
  const bytes = Buffer.from(hex, 'hex')
  const variant = variantOf(bytes[8])
  if (hex === '0'.repeat(32)) return { uuid, version: 'nil', variant, standard: true, description: 'the nil UUID (all zeros)' }
  if (hex === 'f'.repeat(32)) return { uuid, version: 'max', variant, standard: true, description: 'the max UUID (all ones)' }
  const version = bytes[6] >> 4
  const standard = variant === 'rfc9562' && version >= 1 && version <= 8
  const base: UuidInspection = {
    uuid,
    version,
    variant,
    standard,
    description: standard
      ? DESCRIPTIONS[version]
      : variant === 'rfc9562'
        ? `version ${version}, not defined by RFC 9562`
        : `a ${variant} variant UUID, outside RFC 9562's layouts`,
  }
  if (!standard) return base
  switch (version) {
    case 1:
      return {
        ...base,
        ...gregorianTime((BigInt(`0x${hex.slice(13, 16)}`) << 48n) | (BigInt(`0x${hex.slice(8, 12)}`) << 32n) | BigInt(`0x${hex.slice(0, 8)}`), bytes),
      }
    case 6:
      return { ...base, ...gregorianTime((BigInt(`0x${hex.slice(0, 12)}`) << 12n) | BigInt(`0x${hex.slice(13, 16)}`), bytes) }
    case 7: {
      const unixMs = Number.parseInt(hex.slice(0, 12), 16)
      return { ...base, time: new Date(unixMs).toISOString(), unixMs }
    }
    case 3:
      return { ...base, hash: 'md5' }
    case 5:
      return { ...base, hash: 'sha1' }
    default:
      return base
  }
}

// One enum per type: a client reads `type` to know that 7 is sent as a number and nil as a string.
const versionSchema = (description: string) =>
  Type.Union([Type.Enum(VERSIONS.filter((version) => typeof version === 'number')), Type.Enum(VERSIONS.filter((version) => typeof version === 'string'))], {
    description,
  })

export const uuid = defineOperation({
  name: 'uuid',
  category: 'generators',
  runsInBrowser: true,
  summary: 'Generate UUIDs of versions 1, 3, 4, 5, 6 or 7, or the nil and max UUIDs, or inspect one',
  title: 'UUID',
  aliases: ['guid', 'uuid v4', 'uuid v7', 'uuidv4', 'uuidv7', 'unique identifier', 'rfc 9562', 'uuid decode', 'uuid version', 'uuid timestamp'],
  description:
    'Generates UUIDs as RFC 9562 defines them. Version 4 (the default) is 122 random bits from the operating system CSPRNG. ' +
    'Versions 1 and 6 are time-based (a 100 ns Gregorian timestamp; 6 orders its fields so values sort by time) with a random clock sequence and a random node ID whose multicast bit is set, never a MAC address. ' +
    'Version 7 is a Unix millisecond timestamp followed by a counter and random bits; the values of one response are strictly increasing. ' +
    'Versions 3 (MD5) and 5 (SHA-1) are name-based: they need `namespace` and `name`, always give the same UUID for the same pair, so every one of `count` values is the same. ' +
    '`nil` is all zeros and `max` all ones. ' +
    '`action: inspect` reads the UUID in `input` (standard, compact, braces or urn form, any letter case) and answers it in canonical form (as `format` and `uppercase` say), its `version` and `variant`, whether RFC 9562 defines it (`standard`), a `description`, ' +
    'the embedded time of versions 1, 6 and 7 (`time`, `unixMs`; for 1 and 6 also the exact `timestamp`, `clockSequence`, `node` and `nodeIsRandom`) and the `hash` of versions 3 and 5. ' +
    'Version 8 is custom, so only its version and variant are read. Inspect refuses the fields of generate (`version`, `count`, `namespace`, `name`), even at their defaults, and generate refuses `input`; anything that is not 32 hex digits in those forms is a 422 naming the position.',
  input: Type.Object(
    {
      action: withDefault(
        Type.Enum(['generate', 'inspect'], { description: 'Generate new UUIDs, or inspect the one in `input` (its version, variant and embedded time).' }),
        'generate',
      ),
      input: Type.Optional(
        Type.String({
          maxLength: 256,
          description:
            'inspect only (required there, refused for generate): a UUID in the standard, compact, braces or urn form, any letter case; surrounding whitespace is ignored.',
          examples: ['017F22E2-79B0-7CC3-98C4-DC0C0C07398F'],
        }),
      ),
      version: withDefault(versionSchema('The UUID version: 1, 3, 4, 5, 6 or 7, or `nil` (00000000-…) or `max` (ffffffff-…).'), 4),
      count: withDefault(Type.Integer({ minimum: 1, maximum: 1000, description: 'How many UUIDs to generate, 1 to 1000.' }), 1),
      namespace: Type.Optional(
        Type.String({
          pattern: NAMESPACE_PATTERN,
          maxLength: 45,
          description:
            'Versions 3 and 5 only (required there, refused otherwise): the namespace, either `dns`, `url`, `oid` or `x500` (the RFC 9562 predefined namespaces) or any UUID written in the standard, compact, braces or urn format.',
          examples: ['dns', '6ba7b811-9dad-11d1-80b4-00c04fd430c8'],
        }),
      ),
      name: Type.Optional(
        Type.String({
          maxLength: 65536,
          description:
            'Versions 3 and 5 only (required there, refused otherwise): the name within the namespace, hashed as UTF-8 text. May be empty; at most 65,536 characters.',
          examples: ['www.example.com'],
        }),
      ),
      format: withDefault(
        Type.Enum(['standard', 'compact', 'braces', 'urn'], {
          description:
            'How each UUID is written: `standard` (8-4-4-4-12 hex digits with hyphens), `compact` (32 hex digits), `braces` ({…}) or `urn` (urn:uuid:…).',
        }),
        'standard',
      ),
      uppercase: withDefault(Type.Boolean({ description: 'Write the hex digits in upper case (the `urn:uuid:` prefix stays lower case).' }), false),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'generate: the first UUID. inspect: the UUID in canonical form, written as `format` and `uppercase` say.' }),
    results: Type.Optional(Type.Array(Type.String(), { description: 'generate: all the UUIDs, `count` of them; for version 7 in strictly increasing order.' })),
    action: Type.Optional(Type.Enum(['inspect'], { description: 'inspect: the action performed (generate answers as it always has, without this field).' })),
    version: Type.Union([Type.Integer({ minimum: 0, maximum: 15 }), Type.Enum(['nil', 'max'])], {
      description: 'generate: the version generated. inspect: the version field (0–15), or `nil` / `max` for those two UUIDs.',
    }),
    variant: Type.Optional(
      Type.Enum(['rfc9562', 'ncs', 'microsoft', 'reserved'], {
        description:
          'inspect: the variant bits: `rfc9562` (10x, RFC 9562 / RFC 4122), `ncs` (0xx, which the nil UUID has), `microsoft` (110) or `reserved` (111, which the max UUID has).',
      }),
    ),
    standard: Type.Optional(
      Type.Boolean({ description: 'inspect: whether RFC 9562 defines this layout: variant rfc9562 with version 1 to 8, or the nil or max UUID.' }),
    ),
    description: Type.Optional(Type.String({ description: 'inspect: what the version means, in words.' })),
    time: Type.Optional(Type.String({ description: 'inspect, versions 1, 6 and 7: the embedded time, ISO 8601 in UTC (to the millisecond).' })),
    unixMs: Type.Optional(Type.Integer({ description: 'inspect, versions 1, 6 and 7: the embedded time in Unix milliseconds (rounded down).' })),
    timestamp: Type.Optional(
      Type.String({ description: 'inspect, versions 1 and 6: the exact 60-bit timestamp, 100 ns intervals since 1582-10-15T00:00:00Z, as a decimal string.' }),
    ),
    clockSequence: Type.Optional(Type.Integer({ minimum: 0, maximum: 16383, description: 'inspect, versions 1 and 6: the 14-bit clock sequence.' })),
    node: Type.Optional(Type.String({ description: 'inspect, versions 1 and 6: the 48-bit node, as colon-separated lower-case hex.' })),
    nodeIsRandom: Type.Optional(
      Type.Boolean({ description: "inspect, versions 1 and 6: whether the node's multicast bit is set, which marks a random node rather than a MAC address." }),
    ),
    hash: Type.Optional(Type.Enum(['md5', 'sha1'], { description: 'inspect, versions 3 and 5: the hash the name-based UUID was made with.' })),
  }),
  actions: {
    generate: { fields: ['version', 'count', 'namespace', 'name', 'format', 'uppercase'] },
    inspect: { fields: ['input', 'format', 'uppercase'], requires: ['input'] },
  },
  refusesOtherActionsFields: true,
  examples: [
    { summary: 'A random (version 4) UUID', input: {} },
    {
      summary: 'Name-based, version 5 (RFC 9562 Appendix A.4)',
      input: { version: 5, namespace: 'dns', name: 'www.example.com' },
      output: { result: '2ed6657d-e927-568b-95e1-2665a8aea6a2', results: ['2ed6657d-e927-568b-95e1-2665a8aea6a2'], version: 5 },
    },
    {
      summary: 'Name-based, version 3, compact and upper case',
      input: { version: 3, namespace: 'dns', name: 'www.example.com', format: 'compact', uppercase: true },
      output: { result: '5DF418813AED351588A72F4A814CF09E', results: ['5DF418813AED351588A72F4A814CF09E'], version: 3 },
    },
    { summary: 'Three time-ordered version 7 UUIDs', input: { version: 7, count: 3 } },
    {
      summary: 'Inspect a version 7 UUID (RFC 9562 Appendix A.6)',
      input: { action: 'inspect', input: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F' },
      output: {
        result: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
        action: 'inspect',
        version: 7,
        variant: 'rfc9562',
        standard: true,
        description: 'time-based (Unix time in milliseconds, then random bits)',
        time: '2022-02-22T19:22:22.000Z',
        unixMs: 1645557742000,
      },
    },
    {
      summary: 'The max UUID as a URN',
      input: { version: 'max', format: 'urn' },
      output: { result: 'urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff', results: ['urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff'], version: 'max' },
    },
  ],
  allowGet: true,
  run({ action, input, version, count, namespace, name, format, uppercase }) {
    if (action === 'inspect') {
      if (input === undefined) throw validationError('input', 'is required for action inspect: the UUID to inspect')
      const { uuid: canonical, ...fields } = inspectUuid(input)
      return { result: formatUuid(canonical, format, uppercase), action, ...fields }
    }
    const nameBased = version === 3 || version === 5
    if (nameBased) {
      if (namespace === undefined) throw validationError('namespace', `is required for version ${version}: dns, url, oid, x500 or a UUID`)
      if (name === undefined) throw validationError('name', `is required for version ${version}`)
    } else {
      if (namespace !== undefined) throw validationError('namespace', `is only used by versions 3 and 5, not by version ${version}`)
      if (name !== undefined) throw validationError('name', `is only used by versions 3 and 5, not by version ${version}`)
    }
    const results = generate(version, count, namespace, name).map((value) => formatUuid(value, format, uppercase))
    return { result: results[0], results, version }
  },
})
