import { type Static, Type } from 'typebox'
import type { StateOverride, URLRecord } from 'whatwg-url'
import { commonJsExports } from '../../core/commonjs.ts'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { type WhatwgUrl, whatwgUrl } from '../../lib/net/url-standard.ts'

/** The longest URL text accepted, in characters. */
export const MAX_URL_LENGTH = 262_144
/** The most query pairs answered (or given to build). */
export const MAX_QUERY_PAIRS = 10_000
/** How many times over the answer holds the URL, at most: href, result, the parts, and their decoded forms. */
const URL_COPIES_IN_ANSWER = 4
/** Inputs longer than this (all text fields together) are parsed on a worker thread. */
const OFFLOAD_LENGTH = 16_384

/** whatwg-url (the URL Standard's reference implementation) and tr46 (UTS #46), loaded with the first URL (see lazily). */
export const engines = lazily(async () => {
  const [whatwg, tr46] = await Promise.all([whatwgUrl(), import('tr46')])
  return { whatwg, tr46: commonJsExports(tr46) }
})
type Engines = Awaited<ReturnType<typeof engines>>

const ACTIONS = ['parse', 'build'] as const
const HOST_TYPES = ['domain', 'ipv4', 'ipv6', 'opaque', 'empty'] as const
const COMPONENTS = ['scheme', 'host', 'port', 'ipv4', 'ipv6', 'base'] as const
/** The setters of the URL Standard, in the order they are applied. */
const SETTERS = ['protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'query', 'hash'] as const
type Setter = (typeof SETTERS)[number]

const SPECIAL_PORTS: Readonly<Record<string, number | null>> = { ftp: 21, file: null, http: 80, https: 443, ws: 80, wss: 443 }
const isSpecialScheme = (scheme: string) => Object.hasOwn(SPECIAL_PORTS, scheme)

const urlText = (minLength: number, description: string) => Type.String({ minLength, maxLength: MAX_URL_LENGTH, writeOnly: true, description })
const componentText = (description: string) => Type.Optional(Type.String({ maxLength: MAX_URL_LENGTH, description }))

const Components = Type.Object(
  {
    protocol: componentText(
      'The scheme, with or without its colon (`https`, `https:`). Switching between a special scheme (http, https, ws, wss, ftp, file) and another is refused, as the Standard ignores it.',
    ),
    username: componentText("The username; percent-encoded as the Standard's userinfo set requires."),
    password: componentText("The password; percent-encoded as the Standard's userinfo set requires."),
    host: componentText('The host with an optional `:port` (`example.com:8080`, `[::1]`); IDNA maps a domain to its ASCII form.'),
    hostname: componentText('The host without a port (`example.com`, `192.168.0.1`, `[::1]`).'),
    port: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Integer({ minimum: 0, maximum: 65_535 })], {
        description: 'The port, as digits or an integer 0–65535; `""` clears it. The scheme\'s default port is dropped, as the Standard does.',
      }),
    ),
    pathname: componentText('The path (`/a/b`); `.` and `..` segments are resolved and characters outside the path set percent-encoded.'),
    search: componentText('The query, with or without its leading `?`; `""` removes it.'),
    query: Type.Optional(
      Type.Array(
        Type.Union([
          // Two strings rather than a tuple: TypeBox writes a tuple's items in the form of drafts before 2020-12, which OpenAPI 3.1 refuses.
          Type.Array(Type.String({ maxLength: MAX_URL_LENGTH }), {
            minItems: 2,
            maxItems: 2,
            description: 'A pair as `[name, value]`, as URLSearchParams takes it.',
          }),
          Type.Object(
            { name: Type.String({ maxLength: MAX_URL_LENGTH }), value: Type.String({ maxLength: MAX_URL_LENGTH }) },
            { additionalProperties: false, description: 'A pair as `{ name, value }`, the shape parse answers.' },
          ),
        ]),
        {
          maxItems: MAX_QUERY_PAIRS,
          description:
            'The query as pairs, each `[name, value]` or `{ name, value }` (the shape parse answers; both may be mixed), written as application/x-www-form-urlencoded (a space becomes `+`); replaces the query, and cannot be given with `search`. `[]` removes it.',
        },
      ),
    ),
    hash: componentText('The fragment, with or without its leading `#`; `""` removes it.'),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    writeOnly: true,
    description:
      "build: the parts to set, applied with the URL Standard's setters in the order protocol, username, password, host, hostname, port, pathname, search or query, hash. Values are raw text: the setters percent-encode them.",
  },
)
type ComponentValues = Static<typeof Components>

const QueryPair = Type.Object({
  name: Type.String({ description: 'The name, decoded (`+` read as a space, percent escapes decoded).' }),
  value: Type.String({ description: 'The value, decoded the same way.' }),
})

const Output = Type.Object({
  result: Type.String({ description: 'The URL, serialized (the same as `href`).' }),
  action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  href: Type.String({
    description: 'The whole URL, serialized by the URL Standard: a domain in its ASCII (punycode) form, characters percent-encoded where each part requires.',
  }),
  origin: Type.String({
    description:
      'scheme://host[:port] for http, https, ws, wss and ftp; the string `"null"` for an opaque origin (file:, data:, mailto:, …), as the URL API says.',
  }),
  protocol: Type.String({ description: 'The scheme with its colon (`https:`).' }),
  username: Type.String({ description: 'The username, percent-encoded.' }),
  password: Type.String({ description: 'The password, percent-encoded.' }),
  host: Type.String({ description: 'The host and, when not the default, `:port`.' }),
  hostname: Type.String({
    description: 'The host, serialized: an ASCII domain, an IPv4 address in dotted decimal, an IPv6 address in brackets, or an opaque host.',
  }),
  hostnameUnicode: Type.String({ description: 'A domain in its Unicode form (UTS #46 ToUnicode); otherwise the same as `hostname`.' }),
  hostType: Type.Enum(HOST_TYPES, {
    description:
      '`domain`, `ipv4`, `ipv6`, `opaque` (the host of a non-special scheme, kept as written) or `empty` (no host, or an empty one as in `file:///`).',
  }),
  port: Type.String({ description: 'The port, `""` when it is the scheme\'s default or absent.' }),
  effectivePort: Type.Union([Type.Integer(), Type.Null()], {
    description: "The port in effect: the explicit one, else the scheme's default; null when the scheme has none.",
  }),
  pathname: Type.String({ description: 'The path, percent-encoded.' }),
  pathSegments: Type.Array(Type.String(), { description: "The path's segments as written in `pathname` (percent-encoded); `[]` for an opaque path." }),
  search: Type.String({ description: 'The query with its `?`, or `""`.' }),
  query: Type.Array(QueryPair, { description: 'The query read as application/x-www-form-urlencoded: every pair, in order, duplicates kept.' }),
  hash: Type.String({ description: 'The fragment with its `#`, or `""`.' }),
  special: Type.Boolean({ description: 'Whether the scheme is special (http, https, ws, wss, ftp, file), which changes how the URL is parsed.' }),
  opaquePath: Type.Boolean({ description: 'Whether the path is opaque (mailto:, data:, javascript:): not a list of segments.' }),
  warnings: Type.Array(Type.String(), {
    description:
      'What the parser changed or what deserves attention: whitespace removed, a backslash read as a slash, credentials present, a default port dropped, IDNA applied.',
  }),
})
type Answer = Static<typeof Output>

function refuse(component: (typeof COMPONENTS)[number], message: string, extra: Record<string, unknown> = {}) {
  return invalidInput(message, { field: component === 'base' ? 'base' : 'input', component, ...extra })
}

const C0_OR_SPACE = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g
const TAB_OR_NEWLINE = /[\t\n\r]/

/** The input as the parser reads it (C0 controls and spaces trimmed, tab and newline removed), with each character's position in the original. */
function cleaned(input: string): { text: string; positions: number[] } {
  let start = 0
  let end = input.length
  while (start < end && input.charCodeAt(start) <= 0x20) start++
  while (end > start && input.charCodeAt(end - 1) <= 0x20) end--
  const positions: number[] = []
  let text = ''
  for (let index = start; index < end; index++) {
    const char = input[index]
    if (char === '\t' || char === '\n' || char === '\r') continue
    positions.push(index)
    text += char
  }
  return { text, positions }
}

/** Where the authority's parts lie in the cleaned text, if it has one. */
function authorityOf(text: string): { host: string; hostStart: number; port: string | undefined; portStart: number } | undefined {
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(text)
  const special = scheme !== null && isSpecialScheme(scheme[0].slice(0, -1).toLowerCase())
  let start = scheme === null ? 0 : scheme[0].length
  const slashes = /^[/\\]*/.exec(text.slice(start, start + 1024))?.[0] ?? ''
  if (slashes.length === 0 && !special) return undefined
  if (scheme === null && slashes.length < 2) return undefined
  if (!special && slashes.length < 2) return undefined
  start += slashes.length
  let end = start
  while (end < text.length && !'/?#'.includes(text[end]) && !(special && text[end] === '\\')) end++
  const authority = text.slice(start, end)
  const at = authority.lastIndexOf('@')
  const hostStart = start + at + 1
  const hostAndPort = authority.slice(at + 1)
  let colon = -1
  let inBrackets = false
  for (let index = 0; index < hostAndPort.length; index++) {
    const char = hostAndPort[index]
    if (char === '[') inBrackets = true
    else if (char === ']') inBrackets = false
    else if (char === ':' && !inBrackets) {
      colon = index
      break
    }
  }
  if (colon === -1) return { host: hostAndPort, hostStart, port: undefined, portStart: end }
  return { host: hostAndPort.slice(0, colon), hostStart, port: hostAndPort.slice(colon + 1), portStart: hostStart + colon + 1 }
}

const FORBIDDEN_HOST = new Set([0x00, 0x09, 0x0a, 0x0d, 0x20, 0x23, 0x2f, 0x3a, 0x3c, 0x3e, 0x3f, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x7c])
const isForbiddenDomainCode = (code: number) => FORBIDDEN_HOST.has(code) || code <= 0x1f || code === 0x25 || code === 0x7f
const describeCodePoint = (code: number) => {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
  return code > 0x20 && code < 0x7f ? `${hex} (${String.fromCharCode(code)})` : hex
}

/** The first code point a domain cannot hold, in the host as written or behind a percent escape. */
function forbiddenInDomain(host: string): { code: number; offset: number } | undefined {
  for (let index = 0; index < host.length; index++) {
    const code = host.charCodeAt(index)
    if (code === 0x25 && /^[0-9a-fA-F]{2}$/.test(host.slice(index + 1, index + 3))) {
      const byte = Number.parseInt(host.slice(index + 1, index + 3), 16)
      if (byte < 0x80 && isForbiddenDomainCode(byte)) return { code: byte, offset: index }
      index += 2
    } else if (isForbiddenDomainCode(code)) return { code, offset: index }
  }
  return undefined
}

const IPV6_REASONS: Record<string, string> = {
  'IPv6-unclosed': 'its closing ] is missing',
  'IPv6-invalid-compression': 'it starts with a single colon',
  'IPv6-too-many-pieces': 'it has more than eight pieces',
  'IPv6-multiple-compression': 'it uses :: more than once',
  'IPv6-invalid-code-point': 'it holds a character that is not a hex digit, a colon or a dot, or ends with a colon',
  'IPv6-too-few-pieces': 'it has fewer than eight pieces and no ::',
  'IPv4-in-IPv6-too-many-pieces': 'its embedded IPv4 address comes after more than six pieces',
  'IPv4-in-IPv6-invalid-code-point': 'its embedded IPv4 address is malformed',
  'IPv4-in-IPv6-out-of-range-part': 'a part of its embedded IPv4 address is over 255',
  'IPv4-in-IPv6-too-few-parts': 'its embedded IPv4 address has fewer than four parts',
}
const IPV4_REASONS: Record<string, string> = {
  'IPv4-too-many-parts': 'it has more than four parts',
  'IPv4-non-numeric-part': 'a part is not a number',
  'IPv4-out-of-range-part': 'a part is too large (each is at most 255, the last may fill the remaining bytes)',
}

/**
 * Why the URL Standard's parser refused `input`: the engine tells only that it failed, and which validation
 * errors it met on the way, so the reason and the position are worked out here.
 */
function diagnose(input: string, validationErrors: readonly string[], base: URLRecord | null, hasBase: boolean) {
  const { text, positions } = cleaned(input)
  const last = validationErrors.at(-1) ?? ''
  const at = (offset: number) => positions[offset] ?? input.length
  if (last === 'missing-scheme-non-relative-URL') {
    if (!hasBase) return refuse('scheme', 'input is not an absolute URL (it has no scheme such as https:); give base to resolve a relative reference')
    return refuse('scheme', 'input is a relative reference, and base has an opaque path (as mailto: and data: URLs do), so it cannot be resolved against it')
  }
  const authority = authorityOf(text)
  if (last === 'port-out-of-range') {
    return refuse('port', 'The port is over 65535', authority?.port === undefined ? {} : { position: at(authority.portStart) })
  }
  if (last === 'port-invalid') {
    const offset = authority?.port === undefined ? -1 : authority.port.search(/[^0-9]/)
    return refuse(
      'port',
      'The port holds a character that is not a digit',
      authority?.port === undefined || offset < 0 ? {} : { position: at(authority.portStart + offset) },
    )
  }
  if (last in IPV6_REASONS)
    return refuse('ipv6', `The IPv6 address is malformed: ${IPV6_REASONS[last]}`, authority ? { position: at(authority.hostStart) } : {})
  if (last in IPV4_REASONS)
    return refuse(
      'ipv4',
      `The host ends in a number, so it is read as an IPv4 address, which is malformed: ${IPV4_REASONS[last]}`,
      authority ? { position: at(authority.hostStart) } : {},
    )
  if (last === 'host-missing') return refuse('host', 'The host is empty, and a URL of a special scheme (http, https, ws, wss, ftp) needs one')
  if (authority !== undefined) {
    const special = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(text)
    const scheme = special === null ? (base?.scheme ?? '') : special[0].slice(0, -1).toLowerCase()
    if (!isSpecialScheme(scheme)) {
      const offset = [...authority.host].findIndex((char) => FORBIDDEN_HOST.has(char.codePointAt(0) ?? 0))
      const position = offset < 0 ? authority.hostStart : authority.hostStart + [...authority.host].slice(0, offset).join('').length
      const code = offset < 0 ? undefined : authority.host.codePointAt(position - authority.hostStart)
      if (code !== undefined)
        return refuse('host', `The host holds the forbidden code point ${describeCodePoint(code)} at position ${at(position)}`, { position: at(position) })
    } else {
      const forbidden = forbiddenInDomain(authority.host)
      if (forbidden !== undefined) {
        const position = at(authority.hostStart + forbidden.offset)
        return refuse('host', `The host holds the forbidden code point ${describeCodePoint(forbidden.code)} at position ${position}`, { position })
      }
      return refuse(
        'host',
        'The host is not a valid domain: IDNA (UTS #46) cannot map it to ASCII (a disallowed character, a bad xn-- label, or mixed directions)',
        {
          position: at(authority.hostStart),
        },
      )
    }
  }
  return refuse('host', 'input is not a valid URL: its host cannot be parsed')
}

/** Counts query pairs up to just past the limit, without splitting the text. */
function queryPairsOver(query: string, limit: number): boolean {
  let pairs = 0
  let start = 0
  while (start <= query.length) {
    let end = query.indexOf('&', start)
    if (end === -1) end = query.length
    if (end > start && ++pairs > limit) return true
    start = end + 1
  }
  return false
}

// The URLSearchParams of whatwg-url takes seconds over a long query, so the form encoding is done here, as the Standard writes it.

/** The application/x-www-form-urlencoded parser: `+` is a space, percent escapes are UTF-8 bytes. */
function formPairs(whatwg: WhatwgUrl, query: string): Array<{ name: string; value: string }> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  const decode = (text: string) => decoder.decode(whatwg.percentDecodeString(text.replaceAll('+', ' ')))
  const pairs: Array<{ name: string; value: string }> = []
  for (const sequence of query.split('&')) {
    if (sequence === '') continue
    const equals = sequence.indexOf('=')
    pairs.push(equals === -1 ? { name: decode(sequence), value: '' } : { name: decode(sequence.slice(0, equals)), value: decode(sequence.slice(equals + 1)) })
  }
  return pairs
}

/** A query pair given to build: `[name, value]` or `{ name, value }`. */
type FormPair = readonly string[] | { name: string; value: string }

/** The application/x-www-form-urlencoded serializer: only alphanumerics and `*-._` stay as they are, a space becomes `+`. */
function formText(pairs: ReadonlyArray<FormPair>): string {
  const encode = (text: string) =>
    encodeURIComponent(text)
      .replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
      .replaceAll('%20', '+')
  return pairs.map((pair) => ('name' in pair ? [pair.name, pair.value] : pair).map(encode).join('=')).join('&')
}

function hostTypeOf(url: URLRecord): (typeof HOST_TYPES)[number] {
  const { host } = url
  if (host === null || host === '') return 'empty'
  if (typeof host === 'number') return 'ipv4'
  if (Array.isArray(host)) return 'ipv6'
  return isSpecialScheme(url.scheme) ? 'domain' : 'opaque'
}

/** The URL API's getters over a URL record, and the fields the API does not give. */
function describe({ whatwg, tr46 }: Engines, url: URLRecord, action: (typeof ACTIONS)[number], warnings: string[]): Answer {
  const href = whatwg.serializeURL(url)
  assertOutputWithinLimit(URL_COPIES_IN_ANSWER * Buffer.byteLength(href))
  if (url.query !== null && queryPairsOver(url.query, MAX_QUERY_PAIRS)) {
    throw limitExceeded(`The query has more than ${MAX_QUERY_PAIRS} pairs`, { field: 'query', limit: MAX_QUERY_PAIRS })
  }
  const hostname = url.host === null ? '' : whatwg.serializeHost(url.host)
  const hostType = hostTypeOf(url)
  const port = url.port === null ? '' : String(url.port)
  const search = url.query === null || url.query === '' ? '' : `?${url.query}`
  const defaultPort = SPECIAL_PORTS[url.scheme]
  // A domain whose xn-- labels do not decode keeps its ASCII form.
  const unicode =
    hostType === 'domain'
      ? tr46.toUnicode(hostname, { checkBidi: true, checkJoiners: true, useSTD3ASCIIRules: false, transitionalProcessing: false })
      : undefined
  const hostnameUnicode = unicode === undefined || unicode.error || unicode.domain === '' ? hostname : unicode.domain
  if (url.username !== '' || url.password !== '') warnings.push('The URL holds credentials (a username or password): treat it as a secret.')
  return {
    result: href,
    action,
    href,
    origin: whatwg.serializeURLOrigin(url),
    protocol: `${url.scheme}:`,
    username: url.username,
    password: url.password,
    host: url.host === null ? '' : url.port === null ? hostname : `${hostname}:${port}`,
    hostname,
    hostnameUnicode,
    hostType,
    port,
    effectivePort: url.port ?? defaultPort ?? null,
    pathname: whatwg.serializePath(url),
    pathSegments: typeof url.path === 'string' ? [] : [...url.path],
    search,
    query: url.query === null ? [] : formPairs(whatwg, url.query),
    hash: url.fragment === null || url.fragment === '' ? '' : `#${url.fragment}`,
    special: isSpecialScheme(url.scheme),
    opaquePath: typeof url.path === 'string',
    warnings,
  }
}

/** Parses input (against base), or refuses it saying why; notes what the parser changed. */
function parseInput(engines: Engines, input: string, base: string | undefined): { url: URLRecord; warnings: string[] } {
  const { whatwg } = engines
  let baseURL: URLRecord | null = null
  if (base !== undefined) {
    baseURL = whatwg.basicURLParse(base)
    if (baseURL === null) {
      const { validationErrors } = whatwg.parseURLWithValidationErrors(base)
      const why = diagnose(base, validationErrors, null, false)
      throw invalidInput(
        `base is not a valid absolute URL: ${why.message.replace(/^input is not an absolute URL/, 'it is not an absolute URL').replace(/; give base.*$/, '')}`,
        {
          ...(why.details as Record<string, unknown>),
          field: 'base',
          component: 'base',
        },
      )
    }
  }
  const { url, validationErrors } = whatwg.parseURLWithValidationErrors(input, { baseURL })
  if (url === null) throw diagnose(input, validationErrors, baseURL, base !== undefined)
  const warnings: string[] = []
  if (input.replace(C0_OR_SPACE, '') !== input) warnings.push('Leading or trailing spaces and control characters were removed.')
  if (TAB_OR_NEWLINE.test(input.replace(C0_OR_SPACE, ''))) warnings.push('Tab and newline characters inside the URL were removed.')
  if (validationErrors.includes('invalid-reverse-solidus')) warnings.push('A backslash (\\) was read as a slash (/), as for every special scheme.')
  const authority = authorityOf(cleaned(input).text)
  if (authority !== undefined && /^[0-9]+$/.test(authority.port ?? '') && url.port === null && url.host !== null && isSpecialScheme(url.scheme)) {
    warnings.push(`The port ${Number(authority.port)} is the default for ${url.scheme}: and was dropped.`)
  }
  if (authority !== undefined && hostTypeOf(url) === 'domain' && typeof url.host === 'string' && url.host !== authority.host.toLowerCase()) {
    warnings.push('The host was mapped to its ASCII form by IDNA (UTS #46) and percent-decoding.')
  }
  return { url, warnings }
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*/

/** Applies one of the URL Standard's setters, refusing (rather than ignoring, as the Standard does) what cannot be set. */
function set({ whatwg }: Engines, url: URLRecord, setter: Setter, raw: string | number | FormPair[]): void {
  const ignored = (why: string) => invalidInput(`${setter} cannot be set: ${why}`, { field: `components.${setter}`, component: setter })
  const value = typeof raw === 'number' ? String(raw) : raw
  const hasCredentials = url.username !== '' || url.password !== ''
  const parse = (text: string, stateOverride: StateOverride) => whatwg.basicURLParse(text, { url, stateOverride }) !== null
  switch (setter) {
    case 'protocol': {
      const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*(?=:|$)/.exec((value as string).replace(/[\t\n\r]/g, ''))?.[0].toLowerCase()
      if (scheme === undefined) throw ignored('it is not a scheme (a letter, then letters, digits, +, - or .)')
      if (isSpecialScheme(url.scheme) !== isSpecialScheme(scheme)) {
        throw ignored(`the URL Standard does not switch between a special scheme (http, https, ws, wss, ftp, file) and another (${url.scheme}: to ${scheme}:)`)
      }
      if (scheme === 'file' && (hasCredentials || url.port !== null)) throw ignored('a file: URL cannot have a username, a password or a port')
      if (url.scheme === 'file' && url.host === '' && scheme !== 'file') throw ignored('a file: URL with an empty host cannot change its scheme')
      if (!parse(`${value}:`, 'scheme start')) throw ignored('it is not a scheme (a letter, then letters, digits, +, - or .)')
      return
    }
    case 'username':
    case 'password':
      if (whatwg.cannotHaveAUsernamePasswordPort(url))
        throw ignored(url.scheme === 'file' ? 'a file: URL cannot have credentials' : 'a URL without a host cannot have credentials')
      if (setter === 'username') whatwg.setTheUsername(url, value as string)
      else whatwg.setThePassword(url, value as string)
      return
    case 'host':
    case 'hostname': {
      if (whatwg.hasAnOpaquePath(url)) throw ignored(`a URL with an opaque path (as ${url.scheme}: has) cannot have a host`)
      const hostBefore = url.host
      if (!parse(value as string, setter)) {
        // The Standard sets the host before it reads the port, and keeps the old port when that fails.
        if (url.host !== hostBefore) throw ignored('what follows the colon is not a port (digits, at most 65535); give the port in port, or leave it out')
        throw ignored(
          (value as string) === ''
            ? 'the host is empty, which a special scheme or a URL with credentials or a port does not allow'
            : setter === 'hostname' && (value as string).includes(':') && !(value as string).startsWith('[')
              ? 'a hostname cannot hold a port (give host, or port)'
              : 'it is not a valid host (a forbidden code point, a malformed IP address, or a domain IDNA cannot map)',
        )
      }
      return
    }
    case 'port':
      if (whatwg.cannotHaveAUsernamePasswordPort(url))
        throw ignored(url.scheme === 'file' ? 'a file: URL cannot have a port' : 'a URL without a host cannot have a port')
      if (value === '') url.port = null
      else if (!parse(value as string, 'port')) throw ignored('it is not a port (digits, at most 65535)')
      return
    case 'pathname':
      if (whatwg.hasAnOpaquePath(url)) throw ignored(`the path of a ${url.scheme}: URL is opaque`)
      url.path = []
      parse(value as string, 'path start')
      return
    case 'search':
    case 'query': {
      const text = setter === 'query' ? formText(value as FormPair[]) : (value as string).replace(/^\?/, '')
      // Percent-encoding triples a pair's text; the parser then works through it character by character.
      if (text.length > MAX_URL_LENGTH) {
        throw limitExceeded(`The query pairs encode to ${text.length} characters, more than the ${MAX_URL_LENGTH} a URL may have here`, {
          field: 'components.query',
          limit: MAX_URL_LENGTH,
        })
      }
      if (text === '' && (setter === 'query' || value === '')) {
        url.query = null
        return
      }
      url.query = ''
      parse(text, 'query')
      return
    }
    case 'hash':
      if (value === '') {
        url.fragment = null
        return
      }
      url.fragment = ''
      parse((value as string).replace(/^#/, ''), 'fragment')
      return
  }
}

function build(engines: Engines, input: string | undefined, base: string | undefined, components: ComponentValues): { url: URLRecord; warnings: string[] } {
  if (components.search !== undefined && components.query !== undefined)
    throw validationError('components', 'cannot hold both search and query: query replaces search')
  let start: { url: URLRecord; warnings: string[] }
  if (input !== undefined) start = parseInput(engines, input, base)
  else {
    if (components.protocol === undefined) throw validationError('components', 'must hold protocol when there is no input to modify')
    const scheme = SCHEME.exec(components.protocol)?.[0].toLowerCase()
    if (scheme !== 'file' && components.hostname === undefined && components.host === undefined) {
      throw validationError('components', 'must hold hostname (or host) when there is no input to modify, unless protocol is file')
    }
    if (scheme === undefined)
      throw invalidInput('protocol cannot be set: it is not a scheme (a letter, then letters, digits, +, - or .)', {
        field: 'components.protocol',
        component: 'protocol',
      })
    // A placeholder host, always replaced by the required hostname or host.
    const url = engines.whatwg.basicURLParse(scheme === 'file' ? 'file:///' : `${scheme}://host`)
    if (url === null) throw invalidInput('protocol cannot be set: it is not a scheme', { field: 'components.protocol', component: 'protocol' })
    start = { url, warnings: [] }
  }
  for (const setter of SETTERS) {
    const value = components[setter]
    if (value !== undefined) set(engines, start.url, setter, value as string | number | FormPair[])
  }
  return start
}

export const urlParse = defineOperation({
  name: 'url-parse',
  category: 'converters',
  summary: 'Parse, resolve, build or modify a URL by the WHATWG URL Standard, with every part explained',
  title: 'URL parser and builder',
  aliases: [
    'url',
    'uri',
    'parse url',
    'url parser',
    'resolve',
    'relative url',
    'absolute url',
    'base url',
    'query string',
    'query parameters',
    'search params',
    'urlsearchparams',
    'hostname',
    'port',
    'origin',
    'pathname',
    'fragment',
    'build url',
    'url builder',
    'whatwg url',
    'rfc 3986',
    'punycode host',
  ],
  description: [
    'Parses a URL exactly as browsers and the URL API do (the WHATWG URL Standard, by its reference implementation whatwg-url), and answers every part: the URL API getters verbatim (href, origin, protocol, username, password, host, hostname, port, pathname, search, hash), plus the host in Unicode (UTS #46), the kind of host, the port in effect, the path segments, the query read as application/x-www-form-urlencoded pairs, and warnings for what the parser changed (whitespace and tab/newline removed, a backslash read as a slash, a default port dropped, IDNA applied) or what deserves attention (credentials).',
    "With `base`, `input` may be a relative reference, resolved against it. `action: build` modifies `input` (or builds a URL from nothing, given at least protocol and hostname) with the Standard's setters; `components.query` takes the pairs as `[name, value]` or as `{ name, value }` (the shape parse answers); where the Standard would silently ignore a value (a port on a file: URL, switching between http: and a non-special scheme, a host that does not parse), this answers 422 naming the component instead.",
    'A string that is not a URL is refused with 422 and `details.component` (`scheme`, `host`, `port`, `ipv4`, `ipv6` or `base`) and, where known, `details.position`; messages name at most one code point, never the URL, as URLs carry credentials and tokens. `javascript:` and `data:` URLs are parsed, never fetched or run. A query of more than 10,000 pairs is 422 LIMIT_EXCEEDED.',
  ].join('\n\n'),
  input: Type.Object(
    {
      input: Type.Optional(
        urlText(
          0,
          'The URL to parse (required for parse), or to modify with build. Leading and trailing spaces and C0 controls are trimmed and tab/newline removed, as the Standard does. Empty only with `base`: the empty reference is the base without its fragment.',
        ),
      ),
      action: withDefault(Type.Enum(ACTIONS, { description: '`parse` (with `base`: resolve) or `build` (set `components`).' }), 'parse'),
      base: Type.Optional(urlText(1, 'An absolute URL against which `input` is resolved, so that `input` may be relative (`../a?b`).')),
      components: Type.Optional(Components),
    },
    { additionalProperties: false },
  ),
  output: Output,
  actions: {
    parse: { fields: ['input', 'base'], requires: ['input'] },
    build: { fields: ['input', 'base', 'components'], requires: ['components'] },
  },
  examples: [
    {
      summary: 'Parse a URL: every part, the query decoded',
      input: { input: 'https://user:pa%20ss@Example.COM:8080/a/b?q=1&tag=x+y#top' },
      output: {
        result: 'https://user:pa%20ss@example.com:8080/a/b?q=1&tag=x+y#top',
        action: 'parse',
        href: 'https://user:pa%20ss@example.com:8080/a/b?q=1&tag=x+y#top',
        origin: 'https://example.com:8080',
        protocol: 'https:',
        username: 'user',
        password: 'pa%20ss',
        host: 'example.com:8080',
        hostname: 'example.com',
        hostnameUnicode: 'example.com',
        hostType: 'domain',
        port: '8080',
        effectivePort: 8080,
        pathname: '/a/b',
        pathSegments: ['a', 'b'],
        search: '?q=1&tag=x+y',
        query: [
          { name: 'q', value: '1' },
          { name: 'tag', value: 'x y' },
        ],
        hash: '#top',
        special: true,
        opaquePath: false,
        warnings: ['The URL holds credentials (a username or password): treat it as a secret.'],
      },
    },
    {
      summary: 'Resolve a relative reference against a base',
      input: { input: '../c/./d?x#y', base: 'http://example.org/a/b/index.html' },
      output: {
        result: 'http://example.org/a/c/d?x#y',
        action: 'parse',
        href: 'http://example.org/a/c/d?x#y',
        origin: 'http://example.org',
        protocol: 'http:',
        username: '',
        password: '',
        host: 'example.org',
        hostname: 'example.org',
        hostnameUnicode: 'example.org',
        hostType: 'domain',
        port: '',
        effectivePort: 80,
        pathname: '/a/c/d',
        pathSegments: ['a', 'c', 'd'],
        search: '?x',
        query: [{ name: 'x', value: '' }],
        hash: '#y',
        special: true,
        opaquePath: false,
        warnings: [],
      },
    },
    {
      summary: 'An internationalized domain: ASCII in href, Unicode beside it',
      input: { input: 'https://faß.ExAmPlE/' },
      output: {
        result: 'https://xn--fa-hia.example/',
        action: 'parse',
        href: 'https://xn--fa-hia.example/',
        origin: 'https://xn--fa-hia.example',
        protocol: 'https:',
        username: '',
        password: '',
        host: 'xn--fa-hia.example',
        hostname: 'xn--fa-hia.example',
        hostnameUnicode: 'faß.example',
        hostType: 'domain',
        port: '',
        effectivePort: 443,
        pathname: '/',
        pathSegments: [''],
        search: '',
        query: [],
        hash: '',
        special: true,
        opaquePath: false,
        warnings: ['The host was mapped to its ASCII form by IDNA (UTS #46) and percent-decoding.'],
      },
    },
    {
      summary: 'Build a URL from parts: the query from { name, value } pairs, encoded as a form would',
      input: {
        action: 'build',
        components: {
          protocol: 'https',
          hostname: 'api.example.com',
          pathname: '/search results',
          query: [
            { name: 'q', value: 'a&b c' },
            { name: 'page', value: '2' },
          ],
        },
      },
      output: {
        result: 'https://api.example.com/search%20results?q=a%26b+c&page=2',
        action: 'build',
        href: 'https://api.example.com/search%20results?q=a%26b+c&page=2',
        origin: 'https://api.example.com',
        protocol: 'https:',
        username: '',
        password: '',
        host: 'api.example.com',
        hostname: 'api.example.com',
        hostnameUnicode: 'api.example.com',
        hostType: 'domain',
        port: '',
        effectivePort: 443,
        pathname: '/search%20results',
        pathSegments: ['search%20results'],
        search: '?q=a%26b+c&page=2',
        query: [
          { name: 'q', value: 'a&b c' },
          { name: 'page', value: '2' },
        ],
        hash: '',
        special: true,
        opaquePath: false,
        warnings: [],
      },
    },
    {
      summary: 'Modify a URL: a new query from [name, value] pairs, the fragment removed',
      input: {
        action: 'build',
        input: 'https://example.com/search?old=1#results',
        components: {
          query: [
            ['q', 'café & bar'],
            ['page', '2'],
          ],
          hash: '',
        },
      },
      output: {
        result: 'https://example.com/search?q=caf%C3%A9+%26+bar&page=2',
        action: 'build',
        href: 'https://example.com/search?q=caf%C3%A9+%26+bar&page=2',
        origin: 'https://example.com',
        protocol: 'https:',
        username: '',
        password: '',
        host: 'example.com',
        hostname: 'example.com',
        hostnameUnicode: 'example.com',
        hostType: 'domain',
        port: '',
        effectivePort: 443,
        pathname: '/search',
        pathSegments: ['search'],
        search: '?q=caf%C3%A9+%26+bar&page=2',
        query: [
          { name: 'q', value: 'café & bar' },
          { name: 'page', value: '2' },
        ],
        hash: '',
        special: true,
        opaquePath: false,
        warnings: [],
      },
    },
  ],
  offload: ({ input, base, components }) =>
    (input?.length ?? 0) + (base?.length ?? 0) + (components === undefined ? 0 : JSON.stringify(components).length) > OFFLOAD_LENGTH,
  async run({ input, action, base, components }) {
    const loaded = await engines()
    if (action === 'parse') {
      if (input === undefined) throw validationError('input', 'is required for parse')
      if (components !== undefined) throw validationError('components', 'is only for build')
      const { url, warnings } = parseInput(loaded, input, base)
      return describe(loaded, url, action, warnings)
    }
    if (components === undefined) throw validationError('components', 'is required for build')
    if (base !== undefined && input === undefined) throw validationError('base', 'needs input to resolve')
    const { url, warnings } = build(loaded, input, base, components)
    return describe(loaded, url, action, warnings)
  },
})
