/** The matchers of domains, e-mail addresses, IPv4 and IPv6 addresses and CIDR blocks: each looks at one start, scans at most its own run and answers its match or nothing. */

import { isIP } from 'node:net'
import { AT, COLON, code, DOT, HYPHEN, isDigit, isHex, isLabel, isLocal, isWord, SLASH } from './characters.ts'
import type { Match, Scan } from './scan.ts'

/** The end of a domain name starting at `i` whose last label is an IANA TLD, or -1. */
export function domainEnd(scan: Scan, i: number): number {
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

export function matchDomain(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isLabel(before) || before === DOT || before === 0x5f || before === AT) return
  const end = domainEnd(scan, i)
  if (end < 0 || isWord(code(text, end))) return
  const fanged = text.slice(i, end).toLowerCase()
  return { type: 'domain', end, fanged, details: { tld: fanged.slice(fanged.lastIndexOf('.') + 1) } }
}

export function matchEmail(scan: Scan, i: number): Match | undefined {
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

export function matchIpv4(scan: Scan, i: number): Match | undefined {
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

export function matchIpv6(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === COLON || before === DOT) return
  const end = ipv6End(text, i)
  if (end < 0) return
  return { type: 'ipv6', end, fanged: text.slice(i, end).toLowerCase(), details: {} }
}

export function matchCidr(scan: Scan, i: number): Match | undefined {
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
