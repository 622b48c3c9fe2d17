import { type Static, Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { defangIndicator, type Fanged, fang, originOf } from './fanging.ts'
import { type IndicatorType, indicators, TYPES } from './scan.ts'

const ACTIONS = ['extract', 'defang', 'fang'] as const
type Action = (typeof ACTIONS)[number]
/** The indicators that have a defanged form. */
const DEFANGABLE = ['url', 'email', 'ipv4', 'ipv6', 'domain'] as const
const DEFANGABLE_SET: ReadonlySet<IndicatorType> = new Set(DEFANGABLE)

/** Heavier texts run on the worker pool: the scan is linear, but a long text of many matches takes tens of milliseconds. */
export const EXTRACT_OFFLOAD_CHARACTERS = 32 * 1024

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
  runsInBrowser: true,
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
    result: Type.Union([Type.Array(item), Type.String()], {
      description: 'extract: the indicators, in text order. defang and fang: the rewritten text.',
      // Where each indicator stands in the text, for a reader to see them marked in it.
      'x-spans': { text: 'input', start: 'start', end: 'end' },
    }),
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
