/** url-parse's input and output schemas, and the limits they state. */

import { type Static, Type } from 'typebox'

/** The longest URL text accepted, in characters. */
export const MAX_URL_LENGTH = 262_144
/** The most query pairs answered (or given to build). */
export const MAX_QUERY_PAIRS = 10_000

export const ACTIONS = ['parse', 'build'] as const
export const HOST_TYPES = ['domain', 'ipv4', 'ipv6', 'opaque', 'empty'] as const
export const COMPONENTS = ['scheme', 'host', 'port', 'ipv4', 'ipv6', 'base'] as const

export const urlText = (minLength: number, description: string) => Type.String({ minLength, maxLength: MAX_URL_LENGTH, writeOnly: true, description })
const componentText = (description: string) => Type.Optional(Type.String({ maxLength: MAX_URL_LENGTH, description }))

export const Components = Type.Object(
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
export type ComponentValues = Static<typeof Components>

const QueryPair = Type.Object({
  name: Type.String({ description: 'The name, decoded (`+` read as a space, percent escapes decoded).' }),
  value: Type.String({ description: 'The value, decoded the same way.' }),
})

export const Output = Type.Object({
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
export type Answer = Static<typeof Output>
