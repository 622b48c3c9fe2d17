/**
 * Why the URL Standard's parser refused a URL, in words and with a position in the caller's text:
 * its validation errors name a rule, not where the text broke it.
 */

import type { URLRecord } from 'whatwg-url'
import { invalidInput } from '../../core/errors.ts'
import type { COMPONENTS } from './schemas.ts'
import { isSpecialScheme } from './special-schemes.ts'

function refuse(component: (typeof COMPONENTS)[number], message: string, extra: Record<string, unknown> = {}) {
  return invalidInput(message, { field: component === 'base' ? 'base' : 'input', component, ...extra })
}

export const C0_OR_SPACE = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g
export const TAB_OR_NEWLINE = /[\t\n\r]/

/** The input as the parser reads it (C0 controls and spaces trimmed, tab and newline removed), with each character's position in the original. */
export function cleaned(input: string): { text: string; positions: number[] } {
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
export function authorityOf(text: string): { host: string; hostStart: number; port: string | undefined; portStart: number } | undefined {
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
export function diagnose(input: string, validationErrors: readonly string[], base: URLRecord | null, hasBase: boolean) {
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
