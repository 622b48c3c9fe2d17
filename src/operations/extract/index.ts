import { isIP } from 'node:net'
import { type Static, Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { HASH_CANDIDATES } from '../../lib/crypto/hex-digests.ts'
import { topLevelDomains } from '../../lib/net/domains.ts'

const ACTIONS = ['extract', 'defang', 'fang'] as const
type Action = (typeof ACTIONS)[number]

/** In the order that breaks ties between matches of the same start and length. */
export const TYPES = ['url', 'email', 'ipv6', 'ipv4', 'cidr', 'uuid', 'hash', 'mac', 'date', 'domain'] as const
export type IndicatorType = (typeof TYPES)[number]
/** The indicators that have a defanged form. */
const DEFANGABLE = ['url', 'email', 'ipv4', 'ipv6', 'domain'] as const
const DEFANGABLE_SET: ReadonlySet<IndicatorType> = new Set(DEFANGABLE)

/** Heavier texts run on the worker pool: the scan is linear, but a long text of many matches takes tens of milliseconds. */
export const EXTRACT_OFFLOAD_CHARACTERS = 32 * 1024

/** The URL Standard's parser, which decides whether a URL candidate is a URL. */
const whatwgUrl = lazily(async () => {
  const module = await import('whatwg-url')
  // A CommonJS module: the bundle gives its exports as the default export.
  return typeof module.parseURL === 'function' ? module : (module as unknown as { default: typeof module }).default
})

// ---- Characters ----

const code = (text: string, index: number) => (index < text.length ? text.charCodeAt(index) : -1)
const isDigit = (c: number) => c >= 0x30 && c <= 0x39
const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
const isAlnum = (c: number) => isDigit(c) || isAlpha(c)
const isWord = (c: number) => isAlnum(c) || c === 0x5f
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
const isLabel = (c: number) => isAlnum(c) || c === 0x2d
/** The practical local-part characters (a subset of WHATWG HTML's valid e-mail address). */
const isLocal = (c: number) => isAlnum(c) || c === 0x2e || c === 0x5f || c === 0x25 || c === 0x2b || c === 0x2d
const isSchemeChar = (c: number) => isAlnum(c) || c === 0x2b || c === 0x2e || c === 0x2d
const DOT = 0x2e
const COLON = 0x3a
const HYPHEN = 0x2d
const SLASH = 0x2f
const AT = 0x40

/** Ends a URL: white space, controls, and the characters RFC 3986 App. C says delimit URIs in text. */
function endsUrl(c: number): boolean {
  if (c <= 0x20 || (c >= 0x7f && c <= 0xa0)) return true
  if (c === 0x3c || c === 0x3e || c === 0x22 || c === 0x60) return true
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200b) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/** GitHub Flavored Markdown's extended autolinks drop these at a link's end, and so do we, with `'` `"` and `;`. */
const TRAILING = new Set([...'?!.,:*_~\'";'].map((char) => char.charCodeAt(0)))

// ---- Fanging ----

/** The defanged spellings read back (case-insensitive), and what each stands for. */
const DEFANGED = /\[\.\]|\(\.\)|\[dot\]|\(dot\)|\[:\/\/\]|\[:\]|\[@\]|\[at\]|\(at\)|h[x]{2}p(?=s?(?::|\[:))/gi
const FANGED: Record<string, string> = { '[.]': '.', '(.)': '.', '[dot]': '.', '(dot)': '.', '[://]': '://', '[:]': ':', '[@]': '@', '[at]': '@', '(at)': '@' }

/** Text with its defanged spellings undone, and where each of its characters was in the original. */
interface Fanged {
  text: string
  /** `origin[k]` is the original position of character k; one entry past the end. Absent when nothing changed. */
  origin?: Int32Array
}

/** `hXxp` and `hXXp` are `http`, `HXXP` is `HTTP`, `Hxxp` is `Http`: as defang writes each, so that fang undoes it. */
const fangScheme = (token: string) => `${token[0]}${token === token.toUpperCase() ? 'TT' : 'tt'}${token[3]}`

function fang(text: string): Fanged {
  const parts: string[] = []
  /** Per replaced token: where its replacement starts in the fanged text, where it was, its replacement's and its own length. */
  const tokens: Array<[number, number, number, number]> = []
  let last = 0
  let length = 0
  for (const match of text.matchAll(DEFANGED)) {
    const token = match[0]
    const at = match.index
    const isScheme = token.length === 4 && (token[0] === 'h' || token[0] === 'H')
    // hxxp inside a word (`shxxp`) is not a scheme.
    if (isScheme && isAlnum(code(text, at - 1))) continue
    const replacement = isScheme ? fangScheme(token) : FANGED[token.toLowerCase()]
    parts.push(text.slice(last, at), replacement)
    length += at - last
    tokens.push([length, at, replacement.length, token.length])
    length += replacement.length
    last = at + token.length
  }
  if (tokens.length === 0) return { text }
  parts.push(text.slice(last))
  const fanged = parts.join('')
  const origin = new Int32Array(fanged.length + 1)
  let k = 0
  let o = 0
  for (const [start, at, size, tokenLength] of tokens) {
    while (k < start) origin[k++] = o++
    // Every character of a replacement points at its token's start.
    for (let j = 0; j < size; j++) origin[k++] = at
    o = at + tokenLength
  }
  while (k <= fanged.length) origin[k++] = o++
  return { text: fanged, origin }
}

// ---- Matchers: each looks at one start, scans at most its own run and answers the end or -1 ----

interface Scan {
  text: string
  tlds: ReadonlySet<string>
  /** Whether the URL Standard's parser reads it. */
  parse: (input: string) => boolean
  /** Memos that keep a scan from reading the same run again from each of its positions. */
  localStart: number
  localEnd: number
  /** The last `@` whose domain was read, and the domain's end there. */
  atPosition: number
  atDomainEnd: number
  urlBlockedUntil: number
}

interface Match {
  type: IndicatorType
  end: number
  fanged: string
  details: Record<string, unknown>
}

/** The end of a domain name starting at `i` whose last label is an IANA TLD, or -1. */
function domainEnd(scan: Scan, i: number): number {
  const { text } = scan
  let j = i
  let labelStart = i
  let labels = 0
  for (;;) {
    labelStart = j
    while (isLabel(code(text, j))) j++
    const size = j - labelStart
    if (size === 0 || size > 63 || code(text, labelStart) === HYPHEN || code(text, j - 1) === HYPHEN) return -1
    labels++
    if (j - i > 253) return -1
    if (code(text, j) === DOT && isLabel(code(text, j + 1))) j++
    else break
  }
  if (labels < 2) return -1
  const tld = text.slice(labelStart, j).toLowerCase()
  return /^\d+$/.test(tld) || !scan.tlds.has(tld) ? -1 : j
}

function matchDomain(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isLabel(before) || before === DOT || before === 0x5f || before === AT) return
  const end = domainEnd(scan, i)
  if (end < 0 || isWord(code(text, end))) return
  const fanged = text.slice(i, end).toLowerCase()
  return { type: 'domain', end, fanged, details: { tld: fanged.slice(fanged.lastIndexOf('.') + 1) } }
}

function matchEmail(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const first = code(text, i)
  const before = code(text, i - 1)
  if (first === DOT || !isLocal(first) || (isLocal(before) && before !== DOT)) return
  if (i >= scan.localEnd || i < scan.localStart) {
    let j = i
    while (isLocal(code(text, j))) j++
    scan.localStart = i
    scan.localEnd = j
  }
  const at = scan.localEnd
  if (code(text, at) !== AT || at - i > 64 || code(text, at - 1) === DOT) return
  if (scan.atPosition !== at) {
    let end = domainEnd(scan, at + 1)
    if (end >= 0 && (isWord(code(text, end)) || code(text, end) === AT)) end = -1
    scan.atPosition = at
    scan.atDomainEnd = end
  }
  const end = scan.atDomainEnd
  if (end < 0) return
  const local = text.slice(i, at)
  const domain = text.slice(at + 1, end).toLowerCase()
  return { type: 'email', end, fanged: `${local}@${domain}`, details: { local, domain } }
}

/** The end of a strict dotted-decimal IPv4 address at `i` (no octal, hex or shortened forms), or -1. */
function ipv4End(text: string, i: number): number {
  let j = i
  for (let octet = 0; octet < 4; octet++) {
    if (octet > 0) {
      if (code(text, j) !== DOT) return -1
      j++
    }
    const start = j
    while (isDigit(code(text, j)) && j - start < 4) j++
    const size = j - start
    if (size === 0 || size > 3 || (size > 1 && code(text, start) === 0x30) || Number(text.slice(start, j)) > 255) return -1
  }
  return j
}

function matchIpv4(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === DOT) return
  const end = ipv4End(text, i)
  const after = code(text, end)
  if (end < 0 || isWord(after) || (after === DOT && isDigit(code(text, end + 1)))) return
  const port = after === COLON ? /^:(\d{1,5})(?!\d)/.exec(text.slice(end, end + 7)) : null
  const portNumber = port ? Number(port[1]) : null
  const fanged = text.slice(i, end)
  return { type: 'ipv4', end, fanged, details: { port: portNumber !== null && portNumber >= 1 && portNumber <= 65535 ? portNumber : null } }
}

const IPV6_RUN_LIMIT = 64

/** The end of an IPv6 address at `i` (as `net.isIP` reads them), or -1. */
function ipv6End(text: string, i: number): number {
  let j = i
  let hasHex = false
  let colons = 0
  while (j - i <= IPV6_RUN_LIMIT) {
    const c = code(text, j)
    if (isHex(c)) hasHex = true
    else if (c === COLON) colons++
    else if (c !== DOT) break
    j++
  }
  if (j - i > IPV6_RUN_LIMIT || !hasHex || colons < 2) return -1
  // A sentence may end after the address, and a label may follow it: `2001:db8::1.` and `2001:db8::1: up`.
  if (code(text, j - 1) === DOT) j--
  if (code(text, j - 1) === COLON && code(text, j - 2) !== COLON) j--
  if (isWord(code(text, j))) return -1
  return isIP(text.slice(i, j)) === 6 ? j : -1
}

function matchIpv6(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === COLON || before === DOT) return
  const end = ipv6End(text, i)
  if (end < 0) return
  return { type: 'ipv6', end, fanged: text.slice(i, end).toLowerCase(), details: {} }
}

function matchCidr(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === DOT || before === COLON) return
  let address = ipv4End(text, i)
  let version = 4
  if (address < 0) {
    address = ipv6End(text, i)
    version = 6
  }
  if (address < 0 || code(text, address) !== SLASH) return
  let end = address + 1
  while (isDigit(code(text, end)) && end - address <= 3) end++
  const digits = text.slice(address + 1, end)
  if (digits === '' || digits.length > 3 || (digits.length > 1 && digits[0] === '0') || Number(digits) > (version === 4 ? 32 : 128)) return
  if (isWord(code(text, end))) return
  const fanged = text.slice(i, end).toLowerCase()
  return { type: 'cidr', end, fanged, details: { address: fanged.slice(0, address - i), prefix: Number(digits), version } }
}

function hexRun(text: string, i: number, size: number): boolean {
  for (let j = i; j < i + size; j++) if (!isHex(code(text, j))) return false
  return true
}

function matchUuid(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === HYPHEN) return
  const end = i + 36
  const after = code(text, end)
  if (isWord(after) || after === HYPHEN) return
  for (const [offset, size] of [
    [0, 8],
    [9, 4],
    [14, 4],
    [19, 4],
    [24, 12],
  ]) {
    if (!hexRun(text, i + offset, size)) return
    if (offset > 0 && code(text, i + offset - 1) !== HYPHEN) return
  }
  const fanged = text.slice(i, end).toLowerCase()
  return { type: 'uuid', end, fanged, details: { version: Number.parseInt(fanged[14], 16) } }
}

function matchHash(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  if (isWord(code(text, i - 1))) return
  let end = i
  while (isHex(code(text, end))) end++
  const candidates = HASH_CANDIDATES[end - i]
  if (candidates === undefined || isWord(code(text, end))) return
  return { type: 'hash', end, fanged: text.slice(i, end).toLowerCase(), details: { candidates: [...candidates] } }
}

function matchMac(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === COLON || before === HYPHEN || before === DOT) return
  const separator = code(text, i + 2)
  let end: number
  let format: string
  if ((separator === COLON || separator === HYPHEN) && hexRun(text, i, 2)) {
    for (let group = 1; group < 6; group++) {
      if (code(text, i + group * 3 - 1) !== separator || !hexRun(text, i + group * 3, 2)) return
    }
    end = i + 17
    format = separator === COLON ? 'colon' : 'hyphen'
  } else {
    // Cisco's dotted form: 0123.4567.89ab.
    if (!hexRun(text, i, 4) || code(text, i + 4) !== DOT || !hexRun(text, i + 5, 4) || code(text, i + 9) !== DOT || !hexRun(text, i + 10, 4)) return
    end = i + 14
    format = 'dot'
  }
  const after = code(text, end)
  if (isWord(after) || ((after === COLON || after === HYPHEN || after === DOT) && isHex(code(text, end + 1)))) return
  return { type: 'mac', end, fanged: text.slice(i, end).toLowerCase(), details: { format } }
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
const daysInMonth = (year: number, month: number) => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31)
const DATE = /^(\d{4})-(\d{2})-(\d{2})/
const TIME = /^[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?/

/** An ISO 8601 extended-format date or date-time (RFC 3339 and its relatives) that exists on the calendar. */
function matchDate(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === HYPHEN || before === 0x2b || before === DOT) return
  if (!isDigit(code(text, i)) || code(text, i + 4) !== HYPHEN || code(text, i + 7) !== HYPHEN) return
  const date = DATE.exec(text.slice(i, i + 10))
  if (!date) return
  const [year, month, day] = date.slice(1).map(Number)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return
  const clean = (end: number) => {
    const after = code(text, end)
    return !isWord(after) && !((after === HYPHEN || after === COLON || after === DOT || after === 0x2b) && isDigit(code(text, end + 1)))
  }
  const time = TIME.exec(text.slice(i + 10, i + 10 + 32))
  if (time) {
    const [hour, minute, second = 0] = time.slice(1, 4).map((part) => (part === undefined ? undefined : Number(part))) as number[]
    const offset = time[5]
    const offsetValid = offset === undefined || /^[Zz]$/.test(offset) || (Number(offset.slice(1, 3)) <= 23 && Number(offset.slice(-2)) <= 59)
    const end = i + 10 + time[0].length
    if (hour <= 23 && minute <= 59 && second <= 59 && offsetValid && clean(end)) {
      const fanged = text.slice(i, end)
      return { type: 'date', end, fanged, details: { hasTime: true, offset: offset === undefined ? null : offset.toUpperCase() } }
    }
  }
  const end = i + 10
  if (!clean(end)) return
  return { type: 'date', end, fanged: text.slice(i, end), details: { hasTime: false, offset: null } }
}

/** RFC 3986 Appendix B's split of a URI reference, with the authority's host and port. */
function urlParts(url: string, hasScheme: boolean): Record<string, unknown> {
  let rest = url
  let scheme: string | null = null
  if (hasScheme) {
    const colon = rest.indexOf(':')
    scheme = rest.slice(0, colon).toLowerCase()
    rest = rest.slice(colon + 3)
  }
  const authorityEnd = rest.search(/[/?#]/)
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd)
  rest = authorityEnd < 0 ? '' : rest.slice(authorityEnd)
  const hashAt = rest.indexOf('#')
  const fragment = hashAt < 0 ? null : rest.slice(hashAt + 1)
  if (hashAt >= 0) rest = rest.slice(0, hashAt)
  const queryAt = rest.indexOf('?')
  const query = queryAt < 0 ? null : rest.slice(queryAt + 1)
  const path = queryAt < 0 ? rest : rest.slice(0, queryAt)
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1)
  const bracket = hostPort.startsWith('[') ? hostPort.indexOf(']') : -1
  const portAt = hostPort.indexOf(':', Math.max(bracket, 0))
  const host = (portAt < 0 ? hostPort : hostPort.slice(0, portAt)).toLowerCase()
  const port = portAt < 0 || portAt === hostPort.length - 1 ? null : Number(hostPort.slice(portAt + 1))
  return { scheme, authority, host, port, path, query, fragment }
}

const SCHEME_LIMIT = 32
const PARSED_CACHE_SIZE = 10_000
/** Longer user information and host than this are not a URL's: DNS names stop at 253 characters. */
const AUTHORITY_LIMIT = 2048

function matchUrl(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  if (i < scan.urlBlockedUntil || !isAlpha(code(text, i))) return
  const before = code(text, i - 1)
  if (isSchemeChar(before) || before === AT) return
  let bodyStart = -1
  let hasScheme = true
  let j = i
  while (isSchemeChar(code(text, j)) && j - i <= SCHEME_LIMIT) j++
  if (code(text, j) === COLON && code(text, j + 1) === SLASH && code(text, j + 2) === SLASH && j - i <= SCHEME_LIMIT) bodyStart = j + 3
  else if ((code(text, i) | 0x20) === 0x77 && /^www\./i.test(text.slice(i, i + 4))) {
    bodyStart = i
    hasScheme = false
  }
  if (bodyStart < 0) return
  let end = bodyStart
  let opened = 0
  let closed = 0
  for (let c = code(text, end); c >= 0 && !endsUrl(c); c = code(text, ++end)) {
    if (c === 0x28) opened++
    else if (c === 0x29) closed++
  }
  // Trailing punctuation and unbalanced closing parentheses are the sentence's, not the link's.
  for (;;) {
    const last = code(text, end - 1)
    if (end > bodyStart && TRAILING.has(last)) end--
    else if (end > bodyStart && last === 0x29 && closed > opened) {
      end--
      closed--
    } else break
  }
  const fail = () => {
    scan.urlBlockedUntil = end
    return undefined
  }
  if (end === bodyStart) return fail()
  const written = text.slice(i, end)
  const details = urlParts(written, hasScheme)
  const host = details.host as string
  if (host === '') return fail()
  const authority = details.authority as string
  if (authority.length > AUTHORITY_LIMIT) return fail()
  if (!hasScheme && domainEnd(scan, i) !== i + host.length) return fail()
  // Only the authority can make the URL Standard's parser fail: a path, query or fragment is always read.
  if (!scan.parse(`${hasScheme ? details.scheme : 'http'}://${authority}/`)) return fail()
  const authorityStart = hasScheme ? (details.scheme as string).length + 3 : 0
  const fanged = `${hasScheme ? `${details.scheme}://` : ''}${lowerHost(authority)}${written.slice(authorityStart + authority.length)}`
  return { type: 'url', end, fanged, details }
}

/** The authority with its host in lower case: user information and the port keep their case. */
function lowerHost(authority: string): string {
  const userEnd = authority.lastIndexOf('@') + 1
  return authority.slice(0, userEnd) + authority.slice(userEnd).toLowerCase()
}

const MATCHERS: Record<IndicatorType, (scan: Scan, i: number) => Match | undefined> = {
  url: matchUrl,
  email: matchEmail,
  ipv6: matchIpv6,
  ipv4: matchIpv4,
  cidr: matchCidr,
  uuid: matchUuid,
  hash: matchHash,
  mac: matchMac,
  date: matchDate,
  domain: matchDomain,
}

/** Every indicator can only start with a letter, a digit or a colon (`::1`), or the local-part's `_ % + -`. */
const canStart = (c: number) => isAlnum(c) || c === COLON || c === 0x5f || c === 0x25 || c === 0x2b || c === HYPHEN

interface Found extends Match {
  start: number
}

/** Walks the text once, taking at each position the longest match (ties by type order), then going on after it. */
async function* indicators(text: string, types: readonly IndicatorType[]): AsyncGenerator<Found, void, undefined> {
  const [tlds, url] = await Promise.all([topLevelDomains(), whatwgUrl()])
  // Logs repeat their hosts: each authority is parsed once per call.
  const parsed = new Map<string, boolean>()
  const parse = (input: string) => {
    let valid = parsed.get(input)
    if (valid === undefined) {
      valid = url.parseURL(input) !== null
      if (parsed.size < PARSED_CACHE_SIZE) parsed.set(input, valid)
    }
    return valid
  }
  const scan: Scan = { text, tlds, parse, localStart: -1, localEnd: -1, atPosition: -1, atDomainEnd: -1, urlBlockedUntil: 0 }
  const matchers = TYPES.filter((type) => types.includes(type)).map((type) => MATCHERS[type])
  let i = 0
  while (i < text.length) {
    if (!canStart(text.charCodeAt(i))) {
      i++
      continue
    }
    let best: Match | undefined
    for (const matcher of matchers) {
      const match = matcher(scan, i)
      if (match && (best === undefined || match.end > best.end)) best = match
    }
    if (best) {
      yield { ...best, start: i }
      i = best.end
    } else i++
  }
}

// ---- The operation ----

const item = Type.Object(
  {
    type: Type.Enum(TYPES, { description: 'What the indicator is.' }),
    value: Type.String({ description: 'The indicator as written in `input` (defanged if it was): `input.slice(start, end)`.' }),
    fanged: Type.String({
      description:
        'The indicator with any defanging undone and its case normalised where case means nothing (the scheme and host of a URL, an e-mail address’s domain, hex digits): the key that `unique` compares.',
    }),
    start: Type.Integer({ description: 'Where it starts in `input`, in UTF-16 code units from 0.' }),
    end: Type.Integer({ description: 'Where it ends in `input` (exclusive), in UTF-16 code units.' }),
    line: Type.Integer({ description: 'The line it starts on, from 1.' }),
    column: Type.Integer({ description: 'The column it starts at, from 1, in UTF-16 code units.' }),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Per type: url {scheme, authority, host, port, path, query, fragment} (RFC 3986 Appendix B; scheme null for a `www.` link); email {local, domain}; domain {tld}; ipv4 {port: a `:port` that follows, or null}; ipv6 {}; cidr {address, prefix, version}; uuid {version}; hash {candidates: the algorithms of that length}; mac {format: colon, hyphen or dot}; date {hasTime, offset}.',
    }),
    occurrences: Type.Optional(Type.Integer({ description: 'With `unique`: how many times it occurs in `input`.' })),
  },
  { description: 'An indicator found in the text.' },
)

type Item = Static<typeof item>

/** Line starts, read once as the matches come in text order. */
function lineCounter(text: string) {
  let line = 1
  let lineStart = 0
  let scanned = 0
  return (position: number) => {
    for (; scanned < position; scanned++) {
      if (text.charCodeAt(scanned) === 0x0a) {
        line++
        lineStart = scanned + 1
      }
    }
    return { line, column: position - lineStart + 1 }
  }
}

const originOf = (fanged: Fanged, position: number) => (fanged.origin ? fanged.origin[position] : position)

async function extractAll(input: string, types: readonly IndicatorType[], unique: boolean, refang: boolean, maxResults: number) {
  const source: Fanged = refang ? fang(input) : { text: input }
  const result: Item[] = []
  const seen = new Map<string, Item>()
  const position = lineCounter(input)
  let truncated = false
  let size = 0
  for await (const found of indicators(source.text, types)) {
    if (unique) {
      const key = `${found.type} ${found.fanged}`
      const first = seen.get(key)
      if (first) {
        first.occurrences = (first.occurrences ?? 0) + 1
        continue
      }
    }
    if (result.length === maxResults) {
      truncated = true
      break
    }
    const start = originOf(source, found.start)
    const end = originOf(source, found.end)
    const entry: Item = { type: found.type, value: input.slice(start, end), fanged: found.fanged, start, end, ...position(start), details: found.details }
    if (unique) {
      entry.occurrences = 1
      seen.set(`${found.type} ${found.fanged}`, entry)
    }
    // Each entry's JSON is counted as it is made, so an answer past the limit is refused before it is all built.
    size += Buffer.byteLength(JSON.stringify(entry)) + 1
    assertOutputWithinLimit(size)
    result.push(entry)
  }
  const counts = Object.fromEntries(types.map((type) => [type, 0])) as Record<string, number>
  for (const entry of result) counts[entry.type]++
  return { result, action: 'extract' as const, counts, truncated }
}

/** Dots become `[.]`, `@` `[@]`, a colon of IPv6 `[:]`; a URL's `http` becomes `hxxp` and `://` `[://]`, and only its host's dots change. */
function defangIndicator(type: IndicatorType, fangedText: string): string {
  const dots = (text: string) => text.replaceAll('.', '[.]')
  switch (type) {
    case 'ipv6':
      return fangedText.replaceAll(':', '[:]')
    case 'email': {
      const at = fangedText.lastIndexOf('@')
      return `${fangedText.slice(0, at)}[@]${dots(fangedText.slice(at + 1))}`
    }
    case 'url': {
      const separator = fangedText.indexOf('://')
      const written = separator < 0 ? '' : fangedText.slice(0, separator)
      const scheme = written.replace(/^(h)tt(ps?)$/i, (_, h, rest) => `${h}${written === written.toUpperCase() ? 'XX' : 'xx'}${rest}`)
      const rest = separator < 0 ? fangedText : fangedText.slice(separator + 3)
      const authorityEnd = rest.search(/[/?#]/)
      const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd)
      const userEnd = authority.lastIndexOf('@') + 1
      const hostPort = authority.slice(userEnd)
      const defangedHost = hostPort.startsWith('[') ? hostPort : dots(hostPort)
      return `${separator < 0 ? '' : `${scheme}[://]`}${authority.slice(0, userEnd)}${defangedHost}${authorityEnd < 0 ? '' : rest.slice(authorityEnd)}`
    }
    default:
      return dots(fangedText)
  }
}

async function rewrite(input: string, types: readonly IndicatorType[], action: 'defang' | 'fang') {
  const source = fang(input)
  const parts: string[] = []
  let last = 0
  let replacements = 0
  let size = 0
  for await (const found of indicators(source.text, types)) {
    const start = originOf(source, found.start)
    const end = originOf(source, found.end)
    const plain = source.text.slice(found.start, found.end)
    const written = input.slice(start, end)
    const replacement = action === 'fang' ? plain : defangIndicator(found.type, plain)
    if (replacement === written) continue
    size += start - last + replacement.length
    // A defanged dot takes three characters for one: the answer is bounded before it is joined.
    assertOutputWithinLimit(size * 3)
    parts.push(input.slice(last, start), replacement)
    last = end
    replacements++
  }
  parts.push(input.slice(last))
  return { result: parts.join(''), action, replacements }
}

export const extract = defineOperation({
  name: 'extract',
  category: 'converters',
  summary: 'Find URLs, e-mail addresses, domains, IPs, CIDRs, MACs, UUIDs, hashes and dates in text, or defang and fang them',
  title: 'Extract indicators (IOCs) from text, defang and fang',
  aliases: [
    'ioc',
    'indicators of compromise',
    'observables',
    'linkify',
    'find urls',
    'find links',
    'find emails',
    'email extractor',
    'url extractor',
    'ip extractor',
    'grep ip addresses',
    'defang',
    'refang',
    'fang',
    'hxxp',
    'sanitize urls',
    'hash extractor',
    'threat intelligence',
  ],
  description:
    '`extract` finds indicators in text, in text order: URLs (any `scheme://`, and `www.` links as GitHub Flavored Markdown’s extended autolinks read them, each checked with the URL Standard’s parser; an authority longer than 2,048 characters is not a URL’s), e-mail addresses (the practical part of WHATWG HTML’s valid e-mail address: letters, digits and `. _ % + -` before the `@`), domain names (ASCII, whose last label is a TLD of the IANA root zone), strict dotted-decimal IPv4 (no octal, hex or shortened forms), IPv6 (as Node’s `net.isIP` reads it), CIDR blocks, MAC addresses (`:`, `-` or Cisco’s dotted form), UUIDs, hex hashes of exactly 32, 40, 64, 96 or 128 digits (with the algorithms of that length) and ISO 8601 dates and date-times that exist on the calendar (2023-02-30 is not one). ' +
    'Where matches overlap the earliest wins, then the longest, then the type in the order url, email, ipv6, ipv4, cidr, uuid, hash, mac, date, domain: the host of a URL is not reported again. A link’s trailing `? ! . , : * _ ~ \' " ;` and unbalanced closing parentheses are left out, as in GitHub Flavored Markdown. ' +
    'With `refang` (the default) it reads defanged forms too: `hxxp`/`hXXp`/`hxxps`, `[.]` `(.)` `[dot]` `(dot)`, `[:]`, `[://]`, `[@]` `[at]` `(at)`; `value` is what was written and `fanged` the indicator restored. Bare words such as ` AT ` and ` DOT ` are never read as `@` and `.`, since in prose that finds what is not there. ' +
    'Positions are UTF-16 code units (`input.slice(start, end)` is `value`); lines and columns count from 1. `unique` keeps the first of each type and `fanged` value, with `occurrences`. Past `maxResults` the list stops and `truncated` is true; `counts` counts the listed results per type. ' +
    '`defang` rewrites the URLs, e-mail addresses, IPs and domains it finds so that nothing turns them into links (CyberChef’s and ioc-fanger’s convention): `http` becomes `hxxp`, `://` `[://]`, the dots of a host, an IPv4 address or an e-mail domain `[.]`, `@` `[@]` and the colons of IPv6 `[:]`; the rest of the text is left as it is. `fang` undoes it for the indicators it recognises, and `fang(defang(x))` is `x` for text that held nothing defanged. Both answer the text and the number of indicators changed. ' +
    'The text is never logged. No phone numbers: without a region digit runs give false positives. Answers over 16 MiB are refused (422 LIMIT_EXCEEDED) before they are built.',
  input: Type.Object(
    {
      input: Type.String({
        writeOnly: true,
        description: 'The text to search or rewrite: a log, an e-mail, a threat report. It may hold credentials, so it is never logged.',
      }),
      action: withDefault(
        Type.Enum(ACTIONS, { description: '`extract` lists the indicators; `defang` makes them safe to paste; `fang` restores defanged ones.' }),
        'extract',
      ),
      types: Type.Optional(
        Type.Array(Type.Enum(TYPES), {
          minItems: 1,
          uniqueItems: true,
          description:
            'The types to look for. extract: all of them when omitted. defang and fang: url, email, ipv4, ipv6 and domain when omitted, and only those (the others have no defanged form).',
        }),
      ),
      unique: withDefault(Type.Boolean({ description: 'extract: list each type and `fanged` value once, with its `occurrences`.' }), false),
      refang: withDefault(Type.Boolean({ description: 'extract: also read defanged forms (`hxxp`, `[.]`, `[@]`…).' }), true),
      maxResults: withDefault(
        Type.Integer({ minimum: 1, maximum: 100_000, description: 'extract: the most results to list; past it `truncated` is true.' }),
        1000,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.Array(item), Type.String()], { description: 'extract: the indicators, in text order. defang and fang: the rewritten text.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    counts: Type.Optional(Type.Record(Type.String(), Type.Integer(), { description: 'extract: how many results of each type asked for are listed.' })),
    truncated: Type.Optional(Type.Boolean({ description: 'extract: whether there were more than `maxResults`.' })),
    replacements: Type.Optional(Type.Integer({ description: 'defang and fang: how many indicators were rewritten.' })),
  }),
  actions: {
    extract: { fields: ['input', 'types', 'unique', 'refang', 'maxResults'] },
    defang: { fields: ['input', 'types'] },
    fang: { fields: ['input', 'types'] },
  },
  examples: [
    {
      summary: 'Find the indicators in a line of a report',
      input: { input: 'Beacon to hxxps://evil[.]example/a.php from 10.0.0.5, mail ops@example.com', types: ['url', 'ipv4', 'email'] },
      output: {
        result: [
          {
            type: 'url',
            value: 'hxxps://evil[.]example/a.php',
            fanged: 'https://evil.example/a.php',
            start: 10,
            end: 38,
            line: 1,
            column: 11,
            details: { scheme: 'https', authority: 'evil.example', host: 'evil.example', port: null, path: '/a.php', query: null, fragment: null },
          },
          { type: 'ipv4', value: '10.0.0.5', fanged: '10.0.0.5', start: 44, end: 52, line: 1, column: 45, details: { port: null } },
          {
            type: 'email',
            value: 'ops@example.com',
            fanged: 'ops@example.com',
            start: 59,
            end: 74,
            line: 1,
            column: 60,
            details: { local: 'ops', domain: 'example.com' },
          },
        ],
        action: 'extract',
        counts: { url: 1, ipv4: 1, email: 1 },
        truncated: false,
      },
    },
    {
      summary: 'Defang a URL and an IP address so that they cannot be clicked',
      input: { input: 'Blocked https://t.co/yuxfZm8KPg?amp=1 and 192.168.4.2.', action: 'defang' },
      output: { result: 'Blocked hxxps[://]t[.]co/yuxfZm8KPg?amp=1 and 192[.]168[.]4[.]2.', action: 'defang', replacements: 2 },
    },
    {
      summary: 'Restore defanged indicators',
      input: { input: 'hXxps[:]//example.org/test?target=bad[@]test.com and 1[.]2[.]3[.]4', action: 'fang' },
      output: { result: 'https://example.org/test?target=bad@test.com and 1.2.3.4', action: 'fang', replacements: 2 },
    },
  ],
  offload: ({ input }) => input.length > EXTRACT_OFFLOAD_CHARACTERS,
  run: ({ input, action, types, unique, refang, maxResults }) => {
    const rewriting = (action as Action) !== 'extract'
    if (rewriting && types?.some((type) => !DEFANGABLE_SET.has(type))) {
      throw validationError('types', `may only hold ${DEFANGABLE.join(', ')} for ${action}: the other types have no defanged form`)
    }
    const chosen = types ?? (rewriting ? DEFANGABLE : TYPES)
    return action === 'extract' ? extractAll(input, chosen, unique, refang, maxResults) : rewrite(input, chosen, action)
  },
})
