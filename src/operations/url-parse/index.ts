import { Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { whatwgUrl } from '../../lib/net/url-standard.ts'
import { build } from './build.ts'
import { describe, parseInput } from './parse.ts'
import { ACTIONS, Components, Output, urlText } from './schemas.ts'

/** Inputs longer than this (all text fields together) are parsed on a worker thread. */
const OFFLOAD_LENGTH = 16_384

/** whatwg-url (the URL Standard's reference implementation) and tr46 (UTS #46), loaded with the first URL (see lazily). */
export const engines = lazily(async () => {
  const [whatwg, tr46] = await Promise.all([whatwgUrl(), import('tr46')])
  return { whatwg, tr46: commonJsExports(tr46) }
})
export type Engines = Awaited<ReturnType<typeof engines>>

export const urlParse = defineOperation({
  name: 'url-parse',
  category: 'converters',
  runsInBrowser: true,
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
