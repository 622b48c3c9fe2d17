/** The scan: one walk over the text that takes, at each position, the longest match of the types asked for. */

import { topLevelDomains } from '../../lib/net/domains.ts'
import { whatwgUrl } from '../../lib/net/url-standard.ts'
import { COLON, HYPHEN, isAlnum } from './characters.ts'
import { matchCidr, matchDomain, matchEmail, matchIpv4, matchIpv6 } from './match-hosts.ts'
import { matchDate, matchHash, matchMac, matchUuid } from './match-identifiers.ts'
import { matchUrl } from './match-url.ts'

/** In the order that breaks ties between matches of the same start and length. */
export const TYPES = ['url', 'email', 'ipv6', 'ipv4', 'cidr', 'uuid', 'hash', 'mac', 'date', 'domain'] as const
export type IndicatorType = (typeof TYPES)[number]

export interface Scan {
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

export interface Match {
  type: IndicatorType
  end: number
  fanged: string
  details: Record<string, unknown>
}
const PARSED_CACHE_SIZE = 10_000

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
export async function* indicators(text: string, types: readonly IndicatorType[]): AsyncGenerator<Found, void, undefined> {
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
