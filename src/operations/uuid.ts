import { randomUUID } from 'node:crypto'
import { Type } from 'typebox'
import { MAX, NIL, v1, v3, v5, v6, v7 } from 'uuid'
import { DevutilsError, validationError } from '../core/errors.ts'
import { defineOperation, withDefault } from '../core/operation.ts'

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

// One enum per type: a client reads `type` to know that 7 is sent as a number and nil as a string.
const versionSchema = (description: string) =>
  Type.Union([Type.Enum(VERSIONS.filter((version) => typeof version === 'number')), Type.Enum(VERSIONS.filter((version) => typeof version === 'string'))], {
    description,
  })

export const uuid = defineOperation({
  name: 'uuid',
  category: 'generators',
  summary: 'Generate UUIDs of versions 1, 3, 4, 5, 6 or 7, or the nil and max UUIDs',
  title: 'UUID',
  aliases: ['guid', 'uuid v4', 'uuid v7', 'uuidv4', 'uuidv7', 'unique identifier', 'rfc 9562'],
  description:
    'Generates UUIDs as RFC 9562 defines them. Version 4 (the default) is 122 random bits from the operating system CSPRNG. ' +
    'Versions 1 and 6 are time-based (a 100 ns Gregorian timestamp; 6 orders its fields so values sort by time) with a random clock sequence and a random node ID whose multicast bit is set, never a MAC address. ' +
    'Version 7 is a Unix millisecond timestamp followed by a counter and random bits; the values of one response are strictly increasing. ' +
    'Versions 3 (MD5) and 5 (SHA-1) are name-based: they need `namespace` and `name`, always give the same UUID for the same pair, so every one of `count` values is the same. ' +
    '`nil` is all zeros and `max` all ones.',
  input: Type.Object(
    {
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
    result: Type.String({ description: 'The first UUID.' }),
    results: Type.Array(Type.String(), { description: 'All the UUIDs, `count` of them; for version 7 in strictly increasing order.' }),
    version: versionSchema('The version generated.'),
  }),
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
      summary: 'The max UUID as a URN',
      input: { version: 'max', format: 'urn' },
      output: { result: 'urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff', results: ['urn:uuid:ffffffff-ffff-ffff-ffff-ffffffffffff'], version: 'max' },
    },
  ],
  allowGet: true,
  run({ version, count, namespace, name, format, uppercase }) {
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
