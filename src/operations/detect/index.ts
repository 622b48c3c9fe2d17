import { isIP } from 'node:net'
import { colorsNamed } from 'culori/fn'
import { type Static, Type } from 'typebox'
import { isDevutilsError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { readPemBlocks } from '../../lib/asn1/pem.ts'
import { MAX_DIGITS } from '../base-convert/index.ts'
import { decodeBase32 } from '../base32/index.ts'
import { decodeBase64 } from '../base64/index.ts'
import { parseColor } from '../color/index.ts'
import { assertHeader } from '../compress/index.ts'
import { describe as describeCron, parseCron } from '../cron/index.ts'
import { HASH_CANDIDATES, topLevelDomains } from '../extract/index.ts'
import { decodeEntities } from '../html-entity/index.ts'
import { inspectId } from '../id/index.ts'
import { parseOrRefuse } from '../json/index.ts'
import { jose, readToken } from '../jwt/index.ts'
import { decodeMorse, Unknowns } from '../morse/index.ts'
import { parseHash } from '../password-hash/index.ts'
import { parseBlock } from '../subnet/index.ts'
import { dateFamilyOf, parseDate, readTimestampText, zoneNamed } from '../timestamp/index.ts'
import { percentDecode } from '../url/index.ts'
import { engines as urlEngines } from '../url-parse/index.ts'
import { inspectUuid } from '../uuid/index.ts'
import { fastXmlParser, xmlToJson } from '../xml-json/index.ts'
import { YAML_OFFLOAD_THRESHOLD, yamlToJson } from '../yaml-json/index.ts'
import { NOT_IN_SUBSET, readYamlSubset } from '../yaml-json/yaml-subset.ts'

/** The types, in precedence order: a tie in confidence goes to the one listed first. */
export const DETECTED_TYPES = [
  'dataUri',
  'pem',
  'jwt',
  'bcrypt',
  'phcHash',
  'otpauthUri',
  'uuid',
  'ipv4',
  'ipv6',
  'cidr',
  'url',
  'json',
  'isoDateTime',
  'mac',
  'sshPublicKey',
  'httpDate',
  'xml',
  'ulid',
  'email',
  'cron',
  'color',
  'gzipBase64',
  'percentEncoded',
  'binary',
  'morse',
  'semver',
  'htmlEntities',
  'objectId',
  'ksuid',
  'unixTimestamp',
  'domain',
  'base64',
  'base64url',
  'hash',
  'yaml',
  'hex',
  'base32',
  'integer',
] as const
export type DetectedType = (typeof DETECTED_TYPES)[number]

const MAX_INPUT = 65_536
/**
 * The longest text the YAML library reads for a guess: YAML outside the fast subset reader costs the
 * library microseconds a character, so a longer text is YAML here only as far as that reader goes.
 */
const YAML_LIBRARY_CHARACTERS = 8192
/** The longest text the URL Standard's parser reads for a guess, a few times the longest URL browsers keep. */
const URL_CHARACTERS = 16_384
/**
 * Above this many characters the YAML reader may hold the event loop too long (deeply nested YAML is
 * its slowest input, and the JSON and XML readers are faster): such inputs run on a worker thread,
 * from the same size as yaml-json's own.
 */
export const DETECT_OFFLOAD_CHARACTERS = YAML_OFFLOAD_THRESHOLD
/** The "plausible time" window of timestamps and embedded times, fixed so that an answer never changes with the clock. */
const WINDOW_START = Date.UTC(1990, 0, 1)
const WINDOW_END = Date.UTC(2100, 0, 1)
/** RFC 850 dates carry two-digit years, read relative to a year: a fixed one, for the same reason. */
const FIXED_NOW = Date.UTC(2000, 0, 1)
const UTC = zoneNamed('UTC')
const inWindow = (ms: number) => ms >= WINDOW_START && ms < WINDOW_END
/** Types decoded from some alphabet: any structured text may also pass for one of them. */
const ENCODINGS = new Set<DetectedType>(['base64', 'base64url', 'hex', 'base32'])
const HASH_NAMES: Readonly<Record<number, readonly string[]>> = {
  ...HASH_CANDIDATES,
  56: ['sha224', 'sha3-224'],
  64: [...HASH_CANDIDATES[64], 'blake3'],
}

const LABELS: Record<DetectedType, string> = {
  dataUri: 'data: URI (RFC 2397)',
  pem: 'PEM block (RFC 7468)',
  jwt: 'JSON Web Token (RFC 7519)',
  bcrypt: 'bcrypt password hash',
  phcHash: 'Password hash in PHC string format (Argon2, scrypt)',
  otpauthUri: 'otpauth:// URI (TOTP/HOTP key)',
  uuid: 'UUID (RFC 9562)',
  ipv4: 'IPv4 address',
  ipv6: 'IPv6 address',
  cidr: 'CIDR block (address/prefix)',
  url: 'URL',
  json: 'JSON',
  isoDateTime: 'ISO 8601 / RFC 3339 date or date-time',
  mac: 'MAC address (EUI-48)',
  sshPublicKey: 'SSH public key (OpenSSH)',
  httpDate: 'HTTP / e-mail date (RFC 7231, RFC 2822)',
  xml: 'XML',
  ulid: 'ULID',
  email: 'E-mail address',
  cron: 'Cron expression',
  color: 'CSS colour',
  gzipBase64: 'gzip data in Base64',
  percentEncoded: 'Percent-encoded text (URL encoding)',
  binary: 'Binary (bytes as 8 bits)',
  morse: 'Morse code',
  semver: 'Semantic version (SemVer 2.0.0)',
  htmlEntities: 'Text with HTML character references',
  objectId: 'MongoDB ObjectId',
  ksuid: 'KSUID',
  unixTimestamp: 'Unix timestamp',
  domain: 'Domain name',
  base64: 'Base64',
  base64url: 'Base64url',
  hash: 'Hex digest (hash)',
  yaml: 'YAML',
  hex: 'Hex bytes',
  base32: 'Base32 (RFC 4648)',
  integer: 'Integer',
}

type Details = Record<string, unknown>
interface Next {
  operation: string
  fields: Record<string, unknown>
  field: string
}
interface Found {
  confidence: number
  details?: Details
  next?: Next | null
}
type Rule = (text: string) => Found | undefined | Promise<Found | undefined>

const next = (operation: string, fields: Record<string, unknown> = {}, field = 'input'): Next => ({ operation, fields, field })

/**
 * Runs one of devutils' readers, which refuse what they cannot read with a DevutilsError: undefined
 * where it refused. Any other error is a defect and is not hidden.
 */
function attempt<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch (error) {
    if (isDevutilsError(error)) return undefined
    throw error
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
/** Decoded bytes as UTF-8 text without control characters other than tab and line breaks; undefined otherwise. */
function printableText(bytes: Uint8Array): string | undefined {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    // A fatal TextDecoder throws a TypeError for bytes that are not UTF-8.
    return undefined
  }
  if (text.length === 0) return undefined
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(text) ? undefined : text
}
/** Letters, digits, white space, other: text of two or more kinds reads as words rather than noise. */
function characterClasses(text: string): number {
  let classes = 0
  if (/\p{L}/u.test(text)) classes++
  if (/\p{N}/u.test(text)) classes++
  if (/\s/.test(text)) classes++
  if (/[^\p{L}\p{N}\s]/u.test(text)) classes++
  return classes
}
/** 70, 45 or 35 for bytes that read as mixed text, as text, or as neither. */
function decodedConfidence(bytes: Uint8Array): number {
  const text = printableText(bytes)
  return text === undefined ? 35 : characterClasses(text) >= 2 ? 70 : 45
}

/** Decoding fields for bytes: as text where they are UTF-8, otherwise as hex (the decoder refuses to guess). */
const decodeFields = (bytes: Uint8Array) => (printableText(bytes) === undefined ? { action: 'decode', outputEncoding: 'hex' } : { action: 'decode' })

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/
/** Valid Base64 length: padded to a multiple of 4, or unpadded with a remainder that encodes whole bytes. */
const base64Length = (text: string) => (text.includes('=') ? text.length % 4 === 0 : text.length % 4 !== 1)

/**
 * Base64 wrapped at a fixed width (MIME's 76, PEM's 64) as one run: every line but the last as long
 * as the first. The text itself where it is on one line.
 */
function unwrapped(text: string): string {
  if (!text.includes('\n')) return text
  const lines = text.split(/\r?\n/)
  const width = lines[0].length
  return width >= 4 && width % 4 === 0 && lines.every((line, index) => (index === lines.length - 1 ? line.length <= width : line.length === width))
    ? lines.join('')
    : text
}

function base64Bytes(wrapped: string, variant: 'standard' | 'url'): Uint8Array | undefined {
  const text = unwrapped(wrapped)
  if (text.length < 8 || !base64Length(text) || !(variant === 'standard' ? BASE64 : BASE64URL).test(text)) return undefined
  return attempt(() => decodeBase64(text, { variant, padding: text.includes('='), strict: true }))
}

/** 8-4-4-4-12, bare, in braces or as a URN; 32 hex digits without hyphens are read as a hash or hex instead. */
const UUID_SHAPE = /^(?:urn:uuid:|\{)?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\}?$/i
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/
const HTML_EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/
const SSH_KEY =
  /^(ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) ([A-Za-z0-9+/]+={0,2})(?: [^\r\n]*)?$/
/** One PEM block from where the scan stands: BEGIN and END with the same label, and what lies between. */
const PEM_LAST_LINE = /-----END [^\r\n]*-----$/
const MAX_PEM_BLOCKS = 1000
/** The labels the x509 operation reads, and those the key operation reads (RFC 7468, OpenSSL and OpenSSH). */
const X509_LABELS = new Set(['CERTIFICATE', 'TRUSTED CERTIFICATE', 'CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST', 'X509 CRL', 'PKCS7'])
const KEY_LABELS = new Set(['PUBLIC KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'RSA PRIVATE KEY', 'RSA PUBLIC KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY'])
const MORSE_SYMBOLS = { dot: '.', dash: '-', letterSeparator: ' ', wordSeparator: ' / ' }
const PHC_IDS = new Set(['argon2id', 'argon2i', 'argon2d', 'scrypt'])
const FULL_MASK = { 4: '255.255.255.255', 6: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' } as const

/** A domain's labels when every one is LDH (or non-ASCII, for IDNs) and the last is a TLD of the IANA root zone. */
async function domainLabels(text: string): Promise<string[] | undefined> {
  if (text.length > 253 || !text.includes('.')) return undefined
  const labels = text.split('.')
  if (labels.length < 2) return undefined
  for (const label of labels) {
    if (label.length === 0 || label.length > 63 || label.startsWith('-') || label.endsWith('-')) return undefined
    if (!/^(?:[A-Za-z0-9-]|[^\p{ASCII}\s\p{P}\p{S}])+$/u.test(label)) return undefined
  }
  const tlds = await topLevelDomains()
  return tlds.has(labels[labels.length - 1].toLowerCase()) ? labels : undefined
}

/** How many SSH strings the public key blob of each type holds, its name first (RFC 4253, RFC 5656, RFC 8709, OpenSSH's PROTOCOL.u2f). */
const SSH_KEY_STRINGS: Readonly<Record<string, number>> = {
  'ssh-ed25519': 2,
  'ssh-rsa': 3,
  'ssh-dss': 5,
  'ecdsa-sha2-nistp256': 3,
  'ecdsa-sha2-nistp384': 3,
  'ecdsa-sha2-nistp521': 3,
  'sk-ssh-ed25519@openssh.com': 3,
  'sk-ecdsa-sha2-nistp256@openssh.com': 4,
}

/** The SSH strings (a 32-bit length, then as many bytes) that make up `blob` exactly; undefined where a length overruns it. */
function sshStrings(blob: Buffer): Buffer[] | undefined {
  const strings: Buffer[] = []
  let offset = 0
  while (offset < blob.length) {
    if (blob.length - offset < 4) return undefined
    const length = blob.readUInt32BE(offset)
    if (length > blob.length - offset - 4) return undefined
    strings.push(blob.subarray(offset + 4, offset + 4 + length))
    offset += 4 + length
  }
  return strings.length > 0 ? strings : undefined
}

/**
 * Whether password-hash's reader reads the text as a hash: a cost above what this service runs (422
 * LIMIT_EXCEEDED) is still a hash, only one verify refuses to run.
 */
function readsAsPasswordHash(text: string): boolean {
  try {
    parseHash(text)
    return true
  } catch (error) {
    if (isDevutilsError(error)) return error.code === 'LIMIT_EXCEEDED'
    throw error
  }
}

/** The text read as YAML, or undefined; a long text only as far as the fast subset reader goes (see YAML_LIBRARY_CHARACTERS). */
function yamlValue(text: string): unknown {
  if (text.length > YAML_LIBRARY_CHARACTERS) {
    const value = attempt(() => readYamlSubset(text))
    return value === NOT_IN_SUBSET ? undefined : value
  }
  return attempt(() => yamlToJson(text, false))?.result
}

const rules: Record<DetectedType, Rule> = {
  dataUri(text) {
    if (!/^data:/i.test(text)) return undefined
    const comma = text.indexOf(',')
    if (comma < 0) return undefined
    const parameters = text.slice(5, comma).split(';')
    const base64 = parameters[parameters.length - 1].toLowerCase() === 'base64'
    const mediaType = parameters[0].trim() || 'text/plain'
    if (!/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) return undefined
    const payload = text.slice(comma + 1)
    if (
      base64 &&
      payload.length > 0 &&
      attempt(() => decodeBase64(payload, { variant: 'standard', padding: payload.includes('='), strict: false })) === undefined
    )
      return undefined
    const details = { mediaType: mediaType.toLowerCase(), base64, payloadStart: comma + 1 }
    return { confidence: 100, details, next: base64 ? next('base64', { action: 'decode' }) : next('url', { action: 'decode' }) }
  },

  pem(text) {
    // One block, or several (a certificate chain as `openssl s_client -showcerts` pastes it), from the first line to the last.
    if (!text.startsWith('-----BEGIN ') || !PEM_LAST_LINE.test(text)) return undefined
    const blocks = attempt(() => readPemBlocks(text, MAX_PEM_BLOCKS))
    if (blocks === undefined || blocks.length === 0 || blocks.some((block) => block.der.length === 0)) return undefined
    const label = blocks[0].label
    const details: Details = { label }
    if (blocks.length > 1) details.blocks = blocks.length
    const reader = X509_LABELS.has(label) ? next('x509', { action: 'parse' }) : KEY_LABELS.has(label) ? next('key', { action: 'inspect' }) : null
    return { confidence: 100, details, next: reader }
  },

  async jwt(text) {
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(text)) return undefined
    const decoder = await jose()
    const token = attempt(() => readToken(decoder, text))
    if (token === undefined || typeof token.header.alg !== 'string') return undefined
    const { alg, typ, kid } = token.header
    const details: Details = { alg }
    if (typeof typ === 'string') details.typ = typ
    if (typeof kid === 'string') details.kid = kid
    details.signed = token.signature !== ''
    return { confidence: 100, details, next: next('jwt', { action: 'decode' }) }
  },

  bcrypt(text) {
    // The shape, then password-hash's own reader (a cost from 4 to 31, a salt of whole bytes): what verify takes.
    const match = /^\$(2[abxy])\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(text)
    if (!match || !readsAsPasswordHash(text)) return undefined
    return { confidence: 100, details: { variant: match[1], cost: Number(match[2]) }, next: next('password-hash', { action: 'verify' }, 'hash') }
  },

  phcHash(text) {
    if (!text.startsWith('$') || text.length > 1024) return undefined
    const [, id, ...rest] = text.split('$')
    if (!PHC_IDS.has(id) || rest.length < 3 || !rest.every((part) => /^[A-Za-z0-9/+.,=-]+$/.test(part))) return undefined
    // Parameters, salt and hash as password-hash's own reader reads them for verify.
    if (!readsAsPasswordHash(text)) return undefined
    return { confidence: 100, details: { algorithm: id }, next: next('password-hash', { action: 'verify' }, 'hash') }
  },

  otpauthUri(text) {
    const match = /^otpauth:\/\/(totp|hotp)\/[^?#]*\?([^#]*)$/i.exec(text)
    if (!match) return undefined
    const parameters = new URLSearchParams(match[2])
    const secret = parameters.get('secret')
    // A key in Base32 (Key Uri Format), as otp reads it: letters in either case, padding optional.
    if (!secret || !/^[A-Za-z2-7]+=*$/.test(secret) || attempt(() => decodeBase32(secret.toUpperCase(), 'rfc4648')) === undefined) return undefined
    const type = match[1].toLowerCase()
    const fields: Record<string, unknown> = { type }
    const algorithm = (parameters.get('algorithm') ?? 'SHA1').toUpperCase()
    if (['SHA1', 'SHA256', 'SHA512'].includes(algorithm)) fields.algorithm = algorithm
    const digits = Number(parameters.get('digits') ?? 6)
    if (digits === 6 || digits === 7 || digits === 8) fields.digits = digits
    const period = Number(parameters.get('period') ?? 30)
    if (type === 'totp' && Number.isInteger(period) && period >= 1 && period <= 3600) fields.period = period
    // The URI's secret parameter, not the URI, is what the otp operation takes: it is never repeated here.
    return { confidence: 100, details: { ...fields }, next: next('otp', fields, 'secret') }
  },

  uuid(text) {
    if (text.length > 45 || !UUID_SHAPE.test(text)) return undefined
    const found = attempt(() => inspectUuid(text))
    if (found === undefined) return undefined
    const details: Details = { version: found.version, variant: found.variant }
    if (found.time !== undefined) details.time = found.time
    return { confidence: found.standard ? 100 : 80, details, next: next('uuid', { action: 'inspect' }) }
  },

  ipv4: (text) => (isIP(text) === 4 ? { confidence: 100, details: {}, next: next('subnet', { mask: FULL_MASK[4] }) } : undefined),

  ipv6: (text) => (isIP(text) === 6 && !text.includes('%') ? { confidence: 100, details: {}, next: next('subnet', { mask: FULL_MASK[6] }) } : undefined),

  cidr(text) {
    if (text.length > 64 || !text.includes('/')) return undefined
    const block = attempt(() => parseBlock(text, undefined))
    return block && { confidence: 100, details: { version: block.version, prefixLength: block.prefixLength }, next: next('subnet') }
  },

  async url(text) {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)
    if (!scheme) return undefined
    const name = scheme[1].toLowerCase()
    if (!text.startsWith('//', scheme[0].length) && name !== 'mailto' && name !== 'urn') return undefined
    if (text.length > URL_CHARACTERS || /\s/.test(text)) return undefined
    const { whatwg } = await urlEngines()
    const parsed = whatwg.basicURLParse(text)
    if (parsed === null) return undefined
    const details: Details = { scheme: name }
    if (typeof parsed.host === 'string') details.host = parsed.host
    return { confidence: 95, details, next: next('url-parse', { action: 'parse' }) }
  },

  json(text) {
    if (text[0] !== '{' && text[0] !== '[') return undefined
    const parsed = attempt(() => parseOrRefuse(text, false))
    if (parsed === undefined || parsed.root.kind === 'literal') return undefined
    const { root } = parsed
    const details = root.kind === 'object' ? { kind: 'object', members: root.members.length } : { kind: 'array', items: root.items.length }
    return { confidence: 95, details, next: next('json', { action: 'format' }) }
  },

  isoDateTime(text) {
    if (text.length > 64 || dateFamilyOf(text) !== 'iso8601') return undefined
    const instant = attempt(() => parseDate(text, UTC, FIXED_NOW))
    if (instant === undefined) return undefined
    // Digits alone (20231127) are a basic-format date only inside the window: 11111111 is a byte in binary rather than the year 1111.
    if (/^\d+$/.test(text) && !inWindow(instant)) return undefined
    return {
      confidence: 95,
      details: { time: new Date(instant).toISOString(), hasOffset: /(?:[Zz]|[+-]\d\d(?::?\d\d)?)$/.test(text) && text.length > 10 },
      next: next('timestamp', { action: 'dateToTimestamp' }),
    }
  },

  mac(text) {
    const colonOrHyphen = /^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}$/.test(text)
    if (!colonOrHyphen && !/^[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}$/.test(text)) return undefined
    const first = Number.parseInt(text.slice(0, 2), 16)
    return { confidence: 95, details: { multicast: (first & 1) === 1, locallyAdministered: (first & 2) === 2 }, next: null }
  },

  sshPublicKey(text) {
    const match = SSH_KEY.exec(text)
    if (!match) return undefined
    const blob = attempt(() => decodeBase64(match[2], { variant: 'standard', padding: match[2].includes('='), strict: true }))
    if (blob === undefined || blob.length < 4) return undefined
    // The key blob is SSH strings (RFC 4253 §6.6) from end to end, as many as its type has, the first
    // its type's own name, which must agree with the first word.
    const strings = sshStrings(blob)
    if (strings === undefined || strings[0].toString('latin1') !== match[1] || strings.length !== SSH_KEY_STRINGS[match[1]]) return undefined
    return { confidence: 95, details: { keyType: match[1] }, next: next('key', { action: 'inspect' }) }
  },

  httpDate(text) {
    if (text.length > 64 || dateFamilyOf(text) !== 'http') return undefined
    const instant = attempt(() => parseDate(text, UTC, FIXED_NOW))
    if (instant === undefined) return undefined
    return { confidence: 90, details: { time: new Date(instant).toISOString() }, next: next('timestamp', { action: 'dateToTimestamp' }) }
  },

  async xml(text) {
    if (!/^(?:<\?xml[\s?]|<[A-Za-z_])/.test(text)) return undefined
    const parser = await fastXmlParser()
    const converted = attempt(() => xmlToJson(parser, text, { attributePrefix: '@', textKey: '#text' }, false))
    if (converted === undefined) return undefined
    const root = Object.keys(converted.result as object).find((key) => key !== '?xml')
    return { confidence: 90, details: root === undefined ? {} : { root }, next: next('xml-json', { action: 'xmlToJson' }) }
  },

  ulid(text) {
    if (!/^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/.test(text)) return undefined
    const found = attempt(() => inspectId(text))
    // Hex digits are Crockford symbols too: a time outside the window says this is more likely hex.
    return (
      found && {
        confidence: inWindow(found.unixMs) ? 90 : 40,
        details: { time: new Date(found.unixMs).toISOString() },
        next: next('id', { action: 'inspect', kind: 'ulid' }),
      }
    )
  },

  async email(text) {
    if (text.length > 254 || !HTML_EMAIL.test(text)) return undefined
    const domain = text.slice(text.lastIndexOf('@') + 1)
    const labels = await domainLabels(domain)
    return labels && { confidence: 90, details: { tld: labels[labels.length - 1].toLowerCase() }, next: null }
  },

  cron(text) {
    if (text.length > 256) return undefined
    const fields = text.split(/\s+/)
    if (fields.length < 5 || fields.length > 6 || !fields.every((field) => /^[0-9A-Za-z*/,?#-]+$/.test(field))) return undefined
    const schedule = attempt(() => parseCron(text))
    return schedule && { confidence: 85, details: { fields: fields.length, description: describeCron(schedule) }, next: next('cron') }
  },

  color(text) {
    if (text.length > 128) return undefined
    const hex = /^#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/.test(text)
    const functional = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/i.test(text)
    // culori also reads hex digits without their '#' ("deadbeef"), which CSS does not: a bare word must be a CSS named colour.
    const named = /^[A-Za-z]{3,20}$/.test(text) && (Object.hasOwn(colorsNamed, text.toLowerCase()) || text.toLowerCase() === 'transparent')
    if (!hex && !functional && !named) return undefined
    if (attempt(() => parseColor(text, 'input')) === undefined) return undefined
    return { confidence: named ? 40 : 95, details: { notation: hex ? 'hex' : functional ? 'function' : 'name' }, next: next('color') }
  },

  gzipBase64(text) {
    const bytes = base64Bytes(text, 'standard')
    if (
      bytes === undefined ||
      bytes.length < 18 ||
      attempt(() => {
        assertHeader(Buffer.from(bytes), 'gzip')
        return true
      }) === undefined
    )
      return undefined
    return { confidence: 85, details: { bytes: bytes.length }, next: next('compress', { action: 'decompress', format: 'gzip', inputEncoding: 'base64' }) }
  },

  percentEncoded(text) {
    if (!/%[0-9A-Fa-f]{2}/.test(text)) return undefined
    const decoded = attempt(() => percentDecode(text, 'component', false))
    return decoded === undefined ? undefined : { confidence: 80, details: {}, next: next('url', { action: 'decode' }) }
  },

  binary(text) {
    if (!/^[01]{8}(?:[ ]?[01]{8})*$/.test(text)) return undefined
    const digits = text.replaceAll(' ', '')
    const bytes = Uint8Array.from({ length: digits.length / 8 }, (_, index) => Number.parseInt(digits.slice(index * 8, index * 8 + 8), 2))
    // Bytes that are not UTF-8 text still decode, one character per byte, as Latin-1.
    const fields = printableText(bytes) === undefined ? { action: 'binaryToText', encoding: 'latin1' } : { action: 'binaryToText' }
    return { confidence: 80, details: { bytes: bytes.length }, next: next('binary-text', fields) }
  },

  morse(text) {
    // At least two symbols: a lone dot or dash is too short to call Morse.
    if (!/^[.\-/ ]+$/.test(text) || !/[.-][ /]*[.-]/.test(text)) return undefined
    const decoded = attempt(() => {
      const unknowns = new Unknowns()
      const result = decodeMorse(text, MORSE_SYMBOLS, unknowns)
      unknowns.settle('error', 'Morse code')
      return result
    })
    return decoded === undefined ? undefined : { confidence: 80, details: {}, next: next('morse', { action: 'decode' }) }
  },

  semver(text) {
    if (text.length > 256) return undefined
    const match = SEMVER.exec(text)
    if (!match) return undefined
    const details: Details = { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) }
    if (match[4] !== undefined) details.prerelease = match[4]
    if (match[5] !== undefined) details.build = match[5]
    return { confidence: match[4] !== undefined || match[5] !== undefined ? 80 : 60, details, next: null }
  },

  htmlEntities(text) {
    if (!/&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.test(text)) return undefined
    const decoded = attempt(() => decodeEntities(text, false))
    return decoded === undefined || decoded === text ? undefined : { confidence: 75, details: {}, next: next('html-entity', { action: 'decode' }) }
  },

  objectId(text) {
    if (!/^[0-9A-Fa-f]{24}$/.test(text)) return undefined
    const found = attempt(() => inspectId(text))
    return (
      found && {
        confidence: inWindow(found.unixMs) ? 75 : 40,
        details: { time: new Date(found.unixMs).toISOString() },
        next: next('id', { action: 'inspect', kind: 'objectid' }),
      }
    )
  },

  ksuid(text) {
    if (!/^[0-9A-Za-z]{27}$/.test(text)) return undefined
    const found = attempt(() => inspectId(text))
    return found && { confidence: 70, details: { time: new Date(found.unixMs).toISOString() }, next: next('id', { action: 'inspect', kind: 'ksuid' }) }
  },

  unixTimestamp(text) {
    if (!/^[+-]?\d{9,19}(?:\.\d+)?$/.test(text) || text.length > 64) return undefined
    const found = readTimestampText(text)
    if (found === undefined) return undefined
    return {
      confidence: inWindow(found.instant) ? 70 : 20,
      details: { unit: found.unit, time: new Date(found.instant).toISOString() },
      next: next('timestamp', { action: 'timestampToDate' }),
    }
  },

  async domain(text) {
    const labels = await domainLabels(text)
    if (labels === undefined) return undefined
    const international = labels.some((label) => /^xn--/i.test(label) || /[^\p{ASCII}]/u.test(label))
    const action = /[^\p{ASCII}]/u.test(text) || !international ? 'toAscii' : 'toUnicode'
    return { confidence: international ? 85 : 70, details: { tld: labels[labels.length - 1].toLowerCase(), international }, next: next('idn', { action }) }
  },

  base64(text) {
    const bytes = base64Bytes(text, 'standard')
    return bytes && { confidence: decodedConfidence(bytes), details: { bytes: bytes.length }, next: next('base64', decodeFields(bytes)) }
  },

  base64url(text) {
    if (!/[-_]/.test(text)) return undefined
    const bytes = base64Bytes(text, 'url')
    return bytes && { confidence: decodedConfidence(bytes), details: { bytes: bytes.length }, next: next('base64', { ...decodeFields(bytes), variant: 'url' }) }
  },

  hash(text) {
    const candidates = HASH_NAMES[text.length]
    if (candidates === undefined || !/^[0-9A-Fa-f]+$/.test(text)) return undefined
    return { confidence: 60, details: { bits: text.length * 4, candidates }, next: next('hash', { algorithm: candidates[0] }, 'expected') }
  },

  yaml(text) {
    const flow = text[0] === '{' || text[0] === '['
    if (!flow && !/[:\n-]/.test(text)) return undefined
    if (flow && attempt(() => parseOrRefuse(text, false)) !== undefined) return undefined
    const value = yamlValue(text)
    if (typeof value !== 'object' || value === null) return undefined
    const entries = Array.isArray(value) ? value.length : Object.keys(value).length
    if (entries < 2) return undefined
    return {
      confidence: 60,
      details: { kind: Array.isArray(value) ? 'sequence' : 'mapping', entries },
      next: next('yaml-json', { action: 'yamlToJson' }),
    }
  },

  hex(text) {
    const body = text.replace(/^0[xX]/, '')
    let digits: string
    if (/^[0-9A-Fa-f]+$/.test(body)) digits = body
    else if (/^[0-9A-Fa-f]{2}(?:[ :][0-9A-Fa-f]{2})+$/.test(body) && !(body.includes(' ') && body.includes(':'))) digits = body.replace(/[ :]/g, '')
    else return undefined
    // One byte is hex only with a letter in it: 42 is a number first.
    if (digits.length % 2 !== 0 || (digits.length < 4 && !/[A-Fa-f]/.test(digits))) return undefined
    const bytes = Buffer.from(digits, 'hex')
    const printable = printableText(bytes) !== undefined
    // Bytes that are not UTF-8 text still decode, one character per byte, as Latin-1.
    return {
      confidence: printable ? 65 : 40,
      details: { bytes: bytes.length },
      next: next('hex-text', printable ? { action: 'hexToText' } : { action: 'hexToText', encoding: 'latin1' }),
    }
  },

  base32(text) {
    // Upper case as RFC 4648 writes it, or lower case with a digit in it, as OTP secrets are often
    // written (a lower-case word of letters alone is a word first).
    if (text.length < 8 || !(/^[A-Z2-7]+=*$/.test(text) || (/^[a-z2-7]+=*$/.test(text) && /[2-7]/.test(text)))) return undefined
    const bytes = attempt(() => decodeBase32(text.toUpperCase(), 'rfc4648'))
    return bytes && { confidence: 50, details: { bytes: bytes.length }, next: next('base32', decodeFields(bytes)) }
  },

  integer(text) {
    if (!/^[+-]?\d+$/.test(text)) return undefined
    const timestamp = /^[+-]?\d{9,19}$/.test(text) ? readTimestampText(text) : undefined
    if (timestamp !== undefined && inWindow(timestamp.instant)) return undefined
    const digits = text.replace(/^[+-]/, '').length
    return { confidence: 30, details: { digits }, next: digits <= MAX_DIGITS ? next('base-convert') : null }
  },
}

const nextSchema = Type.Union(
  [
    Type.Object({
      operation: Type.String({ description: 'The operation to run next.' }),
      fields: Type.Record(Type.String(), Type.Unknown(), { description: 'The fields to send it besides your text.' }),
      field: Type.String({
        description:
          "The field of that operation that takes your text: `input` for most; `hash` for password-hash, `expected` for hash (a digest to compare with the data you send as `input`), `secret` for otp (which takes the URI's secret parameter, not the URI).",
      }),
    }),
    Type.Null(),
  ],
  { description: 'What to run next with this text, or null where no operation works on this type.' },
)

const candidateSchema = Type.Object({
  type: Type.Enum(DETECTED_TYPES, { description: 'The type recognised.' }),
  label: Type.String({ description: 'The type in words.' }),
  confidence: Type.Integer({
    minimum: 0,
    maximum: 100,
    description: 'How sure, 0 to 100, from a fixed table per type: the same text always gets the same number.',
  }),
  details: Type.Record(Type.String(), Type.Unknown(), {
    description: 'What the type tells about this text (a version, a time, a key type); never a copy of the text.',
  }),
  next: nextSchema,
})

const input = Type.Object(
  {
    input: Type.String({
      minLength: 1,
      maxLength: MAX_INPUT,
      writeOnly: true,
      description: 'The text to identify, 1 to 65,536 characters; white space around it is ignored. It may hold a token or a key: it is never echoed.',
      examples: ['1700000000'],
    }),
    limit: withDefault(Type.Integer({ minimum: 1, maximum: 50, description: 'At most this many candidates, 1 to 50.' }), 5),
    minConfidence: withDefault(Type.Integer({ minimum: 0, maximum: 100, description: 'Leave out candidates below this confidence, 0 to 100.' }), 30),
    types: Type.Optional(
      Type.Array(Type.Enum(DETECTED_TYPES), {
        minItems: 1,
        maxItems: DETECTED_TYPES.length,
        uniqueItems: true,
        description: 'Only consider these types (all by default).',
      }),
    ),
  },
  { additionalProperties: false },
)

type Candidate = Static<typeof candidateSchema>

/**
 * The candidates for one text, best first, before `limit` and `minConfidence`: every rule of `types`
 * (all by default) applied to the trimmed text.
 */
export async function detectTypes(raw: string, types: readonly DetectedType[] = DETECTED_TYPES): Promise<Candidate[]> {
  const text = raw.trim()
  if (text === '') return []
  const wanted = new Set(types)
  const candidates: Candidate[] = []
  for (const type of DETECTED_TYPES) {
    if (!wanted.has(type)) continue
    const found = await rules[type](text)
    if (found === undefined) continue
    candidates.push({ type, label: LABELS[type], confidence: found.confidence, details: found.details ?? {}, next: found.next ?? null })
  }
  // A structure proven over the whole text (a UUID's hyphens make it valid Base64url) outranks any reading of it as an encoding.
  const structured = candidates.some((candidate) => !ENCODINGS.has(candidate.type) && candidate.confidence >= 90)
  const kept = structured ? candidates.filter((candidate) => !ENCODINGS.has(candidate.type)) : candidates
  // A stable sort keeps the precedence order among equal confidences.
  return kept.sort((a, b) => b.confidence - a.confidence)
}

export const detect = defineOperation({
  name: 'detect',
  category: 'converters',
  summary: 'Identify what a string is: JWT, UUID, hash, timestamp, Base64, JSON, cron, colour and more, with ranked guesses',
  title: 'Detect format',
  aliases: [
    'identify',
    'what is this',
    'what is this string',
    'what kind of string',
    'identify string',
    'guess format',
    'recognize',
    'magic',
    'format detection',
    'smart detection',
    'detect encoding',
    'identify hash',
    'hash identifier',
  ],
  description:
    'Answers "what is this string?": ranked guesses, each with an integer confidence from a fixed table per type (100 when the structure is parsed and consistent, 90–95 a strong format, 70–85 plausible, 40–65 an ambiguous encoding, 20–35 weak), ties broken by a fixed precedence, ' +
    'and `next`: the operation to run with the text and the fields to send it (the text itself goes in `next.field`). ' +
    `Types, in precedence order: ${DETECTED_TYPES.join(', ')}. ` +
    "The text is read trimmed, with devutils' own parsers (the date reader of timestamp, cron, color, json, yaml-json, xml-json, subnet, id, uuid inspect, url-parse's URL Standard parser, jwt decode) and the IANA list of top-level domains. " +
    'Base64, Base64url, hex and Base32 readings are left out when a type of confidence 90 or more covers the whole text. A data URI gives in `details.payloadStart` where its payload starts, which is what its `next` decodes. ' +
    'Answers never depend on the clock: timestamps and embedded times count as plausible between 1990-01-01 and 2100-01-01 (outside it a Unix timestamp ranks 20, and an ObjectId or a ULID 40, since such text is more likely hex or a plain number), and two-digit RFC 850 years are read as of 2000. ' +
    'A PEM text (from its first BEGIN line to its last END line, explanatory text between blocks allowed) of several blocks (a certificate chain) gives the first label and `details.blocks`; its `next` is x509 for certificates, CSRs, CRLs and PKCS#7, key for keys. ' +
    'What ranks 100 is read as its own operation reads it: a bcrypt or PHC string by password-hash’s reader (a bcrypt cost from 4 to 31, whole salts and hashes), an otpauth URI’s secret as Base32, a PEM block with a body, an SSH key whose blob holds exactly the strings of its type. ' +
    'Digits alone are an ISO 8601 basic date (20231127) only inside that window. A text of more than 8,192 characters is YAML only as far as the fast reader of plain YAML goes, and a URL is read up to 16,384 characters: longer ones cost the full readers too long for a guess. ' +
    'Details never copy the text: a JWT gives only its header’s alg, typ and kid; an otpauth URI its type and parameters, never its secret or account. Nothing recognised is `result: null` with no candidates, not an error. ' +
    'POST only, since pasted text often holds tokens.',
  input,
  output: Type.Object({
    result: Type.Union([Type.Enum(DETECTED_TYPES), Type.Null()], { description: "The first candidate's type, or null when nothing was recognised." }),
    candidates: Type.Array(candidateSchema, { description: 'The guesses, best first: at most `limit`, none below `minConfidence`.' }),
  }),
  examples: [
    {
      summary: 'A Unix timestamp',
      input: { input: '1700000000' },
      output: {
        result: 'unixTimestamp',
        candidates: [
          {
            type: 'unixTimestamp',
            label: 'Unix timestamp',
            confidence: 70,
            details: { unit: 'seconds', time: '2023-11-14T22:13:20.000Z' },
            next: { operation: 'timestamp', fields: { action: 'timestampToDate' }, field: 'input' },
          },
          {
            type: 'hex',
            label: 'Hex bytes',
            confidence: 40,
            details: { bytes: 5 },
            next: { operation: 'hex-text', fields: { action: 'hexToText', encoding: 'latin1' }, field: 'input' },
          },
        ],
      },
    },
    {
      summary: 'A UUID (RFC 9562 Appendix A.6), whose hyphens do not make it Base64url',
      input: { input: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F' },
      output: {
        result: 'uuid',
        candidates: [
          {
            type: 'uuid',
            label: 'UUID (RFC 9562)',
            confidence: 100,
            details: { version: 7, variant: 'rfc9562', time: '2022-02-22T19:22:22.000Z' },
            next: { operation: 'uuid', fields: { action: 'inspect' }, field: 'input' },
          },
        ],
      },
    },
    {
      summary: 'A hex digest: MD5 of the empty string (RFC 1321)',
      input: { input: 'd41d8cd98f00b204e9800998ecf8427e', limit: 1 },
      output: {
        result: 'hash',
        candidates: [
          {
            type: 'hash',
            label: 'Hex digest (hash)',
            confidence: 60,
            details: { bits: 128, candidates: ['md5', 'md4', 'ntlm'] },
            next: { operation: 'hash', fields: { algorithm: 'md5' }, field: 'expected' },
          },
        ],
      },
    },
  ],
  offload: ({ input }) => input.length > DETECT_OFFLOAD_CHARACTERS,
  async run({ input, limit, minConfidence, types }) {
    const candidates = (await detectTypes(input, types)).filter((candidate) => candidate.confidence >= minConfidence).slice(0, limit)
    return { result: candidates[0]?.type ?? null, candidates }
  },
})
