/** The URL matcher: a scheme (or `www.`), an authority the URL Standard's parser accepts, and the rest up to where text delimits it. */

import { AT, COLON, code, endsUrl, isAlpha, isSchemeChar, SLASH, TRAILING } from './characters.ts'
import { domainEnd } from './match-hosts.ts'
import type { Match, Scan } from './scan.ts'

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
/** Longer user information and host than this are not a URL's: DNS names stop at 253 characters. */
const AUTHORITY_LIMIT = 2048

export function matchUrl(scan: Scan, i: number): Match | undefined {
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
