import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuMsSince, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { extract } from './index.ts'

type Item = { type: string; value: string; fanged: string; start: number; end: number; line: number; column: number; details: Record<string, unknown> }
type Answer = { result: Item[] | string; action: string; counts?: Record<string, number>; truncated?: boolean; replacements?: number }

const run = (input: Record<string, unknown>) => execute(extract, input, { timeBudgetMs: 60_000 }) as Promise<Answer>
const DEFAULTS = { action: 'extract', unique: false, refang: true, maxResults: 1000 } as const
/** The scanner itself, in this thread: `execute` would send a long text to the worker pool. */
const direct = async (fields: Record<string, unknown>) => (await extract.run({ ...DEFAULTS, ...fields } as Parameters<typeof extract.run>[0])) as Answer
const items = async (input: Record<string, unknown>) => (await run(input)).result as Item[]
/** Each indicator as [type, value, fanged]. */
const found = async (text: string, fields: Record<string, unknown> = {}) =>
  (await items({ input: text, ...fields })).map(({ type, value, fanged }) => [type, value, fanged])
const fang = async (text: string) => (await run({ input: text, action: 'fang' })).result as string
const defang = async (text: string) => (await run({ input: text, action: 'defang' })).result as string

/** The vectors of ioc-fanger's and CyberChef's tests. */
const FANG_VECTORS: Array<[string, string]> = [
  ['hxxp://example[.]com', 'http://example.com'],
  ['1[.]2[.]3[.]4', '1.2.3.4'],
  ['bob[@]example[.]com', 'bob@example.com'],
  ['http[:]//example.org', 'http://example.org'],
  ['hXxps[:]//example.org/test?target=bad[@]test.com', 'https://example.org/test?target=bad@test.com'],
  ['www(.)example(.)com', 'www.example.com'],
]
const DEFANG_VECTORS: Array<[string, string]> = [
  ['192.168.4.2', '192[.]168[.]4[.]2'],
  // CyberChef's Defang URL: the dots of the host only.
  ['https://t.co/yuxfZm8KPg?amp=1', 'hxxps[://]t[.]co/yuxfZm8KPg?amp=1'],
]

/** Tricky text and what must be found in it: [type, value, fanged]. */
const CORPUS: Array<[string, string[][]]> = [
  // GitHub Flavored Markdown's extended autolink examples (spec §6.9).
  ['Visit www.commonmark.org.', [['url', 'www.commonmark.org', 'www.commonmark.org']]],
  ['Visit www.commonmark.org/a.b.', [['url', 'www.commonmark.org/a.b', 'www.commonmark.org/a.b']]],
  ['www.google.com/search?q=Markup+(business)))', [['url', 'www.google.com/search?q=Markup+(business)', 'www.google.com/search?q=Markup+(business)']]],
  ['(www.google.com/search?q=Markup+(business))', [['url', 'www.google.com/search?q=Markup+(business)', 'www.google.com/search?q=Markup+(business)']]],
  ['www.google.com/search?q=(business))+ok', [['url', 'www.google.com/search?q=(business))+ok', 'www.google.com/search?q=(business))+ok']]],
  ['See https://en.wikipedia.org/wiki/Foo_(bar), ok', [['url', 'https://en.wikipedia.org/wiki/Foo_(bar)', 'https://en.wikipedia.org/wiki/Foo_(bar)']]],
  ['(see http://example.com/a)', [['url', 'http://example.com/a', 'http://example.com/a']]],
  [
    '"http://example.com/q?x=1"; and \'https://example.org\'!',
    [
      ['url', 'http://example.com/q?x=1', 'http://example.com/q?x=1'],
      ['url', 'https://example.org', 'https://example.org'],
    ],
  ],
  ['<http://example.com/>', [['url', 'http://example.com/', 'http://example.com/']]],
  ['HTTP://Example.COM/Path?Q#F', [['url', 'HTTP://Example.COM/Path?Q#F', 'http://example.com/Path?Q#F']]],
  ['http://[2001:db8::1]:80/p', [['url', 'http://[2001:db8::1]:80/p', 'http://[2001:db8::1]:80/p']]],
  [
    'http://localhost:3000/x, ftp://files.example.net/a.',
    [
      ['url', 'http://localhost:3000/x', 'http://localhost:3000/x'],
      ['url', 'ftp://files.example.net/a', 'ftp://files.example.net/a'],
    ],
  ],
  ['http://user:Pa55@host.example/ then', [['url', 'http://user:Pa55@host.example/', 'http://user:Pa55@host.example/']]],
  // Not URLs: no host, a bad port, a `www.` without a known TLD.
  ['http:// and http://example.com:99999/ www.nothing.invalidtld', [['domain', 'example.com', 'example.com']]],
  // E-mail: plus tags, dots, case of the domain; not the local part of a longer run of dots.
  [
    'mail a.b+tag@Example.COM, x_y%z@sub.example.co.uk.',
    [
      ['email', 'a.b+tag@Example.COM', 'a.b+tag@example.com'],
      ['email', 'x_y%z@sub.example.co.uk', 'x_y%z@sub.example.co.uk'],
    ],
  ],
  ['root@localhost a@b bob@example.invalidtld', []],
  ['bob [at] example [dot] com, bob AT example DOT com', []],
  // IPv4: strict dotted decimal only.
  [
    '1.2.3.4 and 192.168.0.1:8080',
    [
      ['ipv4', '1.2.3.4', '1.2.3.4'],
      ['ipv4', '192.168.0.1', '192.168.0.1'],
    ],
  ],
  ['010.1.1.1 1.2.3.4.5 256.1.1.1 1.2.3 v1.2.3.4 0x7f.0.0.1 1.2.3.4a', []],
  ['version 1.2.3.4.', [['ipv4', '1.2.3.4', '1.2.3.4']]],
  // IPv6 as net.isIP reads it; a zone is not part of the address.
  [
    '2001:db8::1, ::1 and FE80::1%eth0; ::ffff:192.0.2.1',
    [
      ['ipv6', '2001:db8::1', '2001:db8::1'],
      ['ipv6', '::1', '::1'],
      ['ipv6', 'FE80::1', 'fe80::1'],
      ['ipv6', '::ffff:192.0.2.1', '::ffff:192.0.2.1'],
    ],
  ],
  ['12:30:45 std::vector 1:2:3', []],
  [
    '10.0.0.0/8 2001:db8::/32 10.0.0.0/33 10.0.0.0/08',
    [
      ['cidr', '10.0.0.0/8', '10.0.0.0/8'],
      ['cidr', '2001:db8::/32', '2001:db8::/32'],
      ['ipv4', '10.0.0.0', '10.0.0.0'],
      ['ipv4', '10.0.0.0', '10.0.0.0'],
    ],
  ],
  [
    '01:23:45:67:89:AB 01-23-45-67-89-ab 0123.4567.89ab 01:23:45:67:89',
    [
      ['mac', '01:23:45:67:89:AB', '01:23:45:67:89:ab'],
      ['mac', '01-23-45-67-89-ab', '01-23-45-67-89-ab'],
      ['mac', '0123.4567.89ab', '0123.4567.89ab'],
    ],
  ],
  [
    '550E8400-E29B-41D4-A716-446655440000 550e8400-e29b-41d4-a716-44665544000',
    [['uuid', '550E8400-E29B-41D4-A716-446655440000', '550e8400-e29b-41d4-a716-446655440000']],
  ],
  // Hashes: exact lengths, not inside a longer word.
  [
    'md5 d41d8cd98f00b204e9800998ecf8427e, sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709',
    [
      ['hash', 'd41d8cd98f00b204e9800998ecf8427e', 'd41d8cd98f00b204e9800998ecf8427e'],
      ['hash', 'da39a3ee5e6b4b0d3255bfef95601890afd80709', 'da39a3ee5e6b4b0d3255bfef95601890afd80709'],
    ],
  ],
  [`x${'a'.repeat(32)} ${'a'.repeat(33)} ${'a'.repeat(31)}g`, []],
  // Dates that exist on the calendar.
  [
    '2023-02-30 2024-02-29 2023-11-14T22:13:20Z 2023-11-14 10:00:00+01:00 2023-13-01 2023-11-14T25:00',
    [
      ['date', '2024-02-29', '2024-02-29'],
      ['date', '2023-11-14T22:13:20Z', '2023-11-14T22:13:20Z'],
      ['date', '2023-11-14 10:00:00+01:00', '2023-11-14 10:00:00+01:00'],
    ],
  ],
  // Defanged forms, read by default.
  [
    'hxxps://evil[.]example/a.php from 10[.]0[.]0[.]5 and ops[@]example[.]com',
    [
      ['url', 'hxxps://evil[.]example/a.php', 'https://evil.example/a.php'],
      ['ipv4', '10[.]0[.]0[.]5', '10.0.0.5'],
      ['email', 'ops[@]example[.]com', 'ops@example.com'],
    ],
  ],
  [
    'hxxp[://]bad(dot)example/x 2001[:]db8[:][:]1 bad(at)example(.)org',
    [
      ['url', 'hxxp[://]bad(dot)example/x', 'http://bad.example/x'],
      ['ipv6', '2001[:]db8[:][:]1', '2001:db8::1'],
      ['email', 'bad(at)example(.)org', 'bad@example.org'],
    ],
  ],
  // A URL's host, and an e-mail's domain, are not reported again; neither is an address inside a URL.
  [
    'https://example.org/test?target=bad@test.com&ip=1.2.3.4',
    [['url', 'https://example.org/test?target=bad@test.com&ip=1.2.3.4', 'https://example.org/test?target=bad@test.com&ip=1.2.3.4']],
  ],
  [
    'Domains: Example.COM, sub.example.co.uk; xn--bcher-kva.ch',
    [
      ['domain', 'Example.COM', 'example.com'],
      ['domain', 'sub.example.co.uk', 'sub.example.co.uk'],
      ['domain', 'xn--bcher-kva.ch', 'xn--bcher-kva.ch'],
    ],
  ],
  ['not-a.domainx -bad.com a..b.com', []],
]

/** ioc-fanger's pairs and strings, from its own tests (vendored with its licence). */
function iocFangerCases() {
  const conftest = readFileSync(new URL('../../../test/fixtures/suites/ioc-fanger/conftest.py', import.meta.url), 'utf8')
  const python = (literal: string) => literal.replaceAll('\\\\', '\\')
  const pairsBlock = conftest.slice(conftest.indexOf('DEFANG_TO_FANG_PAIRS = ['), conftest.indexOf(']\n', conftest.indexOf('DEFANG_TO_FANG_PAIRS = [')))
  const pairs = [...pairsBlock.matchAll(/\("((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"\)/g)].map(([, from, to]) => [python(from), python(to)] as [string, string])
  const fangedBlock = conftest.slice(conftest.indexOf('ALREADY_FANGED_STRINGS = ['))
  const already = [...fangedBlock.slice(0, fangedBlock.indexOf(']')).matchAll(/"([^"]*)"/g)].map(([, text]) => text)
  return { pairs, already }
}

/** ioc-fanger's spellings that extract does not read, on purpose. */
const IOC_FANGER_EXCEPTIONS: Record<string, string> = {
  'example\\.com': 'a backslash before a dot is an escape in code and regular expressions, not a defanged dot',
  'example^.com': 'a caret before a dot is not a published defanging convention; reading it would change text that is not defanged',
  'bad-dot-com': '-dot- words: `my-dot-files` is prose, not a domain',
  'example-dot-ru': '-dot- words: as above',
  '5[,]6[,]7(,)8': 'a comma is not a dot: only the conventions of CyberChef and of the list extract documents are read',
  '9,10,11,12': 'a list of numbers is not an IPv4 address',
}

describe('extract', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(extract).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/extract/index.ts')
  })

  test('answers its examples', async () => {
    for (const example of extract.examples) assert.deepEqual(await run(example.input), example.output, example.summary)
  })

  test('fangs and defangs the published vectors of ioc-fanger and CyberChef', async () => {
    for (const [from, to] of FANG_VECTORS) assert.equal(await fang(from), to, from)
    for (const [from, to] of DEFANG_VECTORS) assert.equal(await defang(from), to, from)
    for (const [from, to] of DEFANG_VECTORS) assert.equal(await fang(to), from, to)
  })

  test('ioc-fanger’s own test pairs: each fanged as ioc-fanger does, but for the spellings left out on purpose', async () => {
    const { pairs, already } = iocFangerCases()
    assert.equal(pairs.length, 18)
    assert.equal(already.length, 2)
    let passed = 0
    for (const [from, to] of pairs) {
      if (from in IOC_FANGER_EXCEPTIONS) {
        // Left as written: nothing in it is read as an indicator's defanged form.
        assert.notEqual(await fang(from), to, `${from} is a known exception, yet it passed: take it off the list`)
        continue
      }
      assert.equal(await fang(from), to, from)
      assert.equal(await fang(await defang(to)), to, to)
      passed++
    }
    for (const text of already) assert.equal(await fang(text), text, text)
    assert.equal(passed, pairs.length - Object.keys(IOC_FANGER_EXCEPTIONS).length)
    // Other cases of ioc-fanger's test file: words inside prose stay as written.
    for (const text of ['seasharpee', '123howp', 'test@[192.168.0.1]', 'john.smith(comment)@example.com', 'bob AT example DOT com', 'meet me [at] noon'])
      assert.equal(await fang(text), text, text)
    // ioc-fanger's issue 32: a word that starts with http is not a scheme.
    assert.equal(await defang('httptest@test.com'), 'httptest[@]test[.]com')
  })

  test('splits a URL as RFC 3986 Appendix B does', async () => {
    const [url] = await items({ input: 'http://www.ics.uci.edu/pub/ietf/uri/#Related' })
    assert.deepEqual(url.details, {
      scheme: 'http',
      authority: 'www.ics.uci.edu',
      host: 'www.ics.uci.edu',
      port: null,
      path: '/pub/ietf/uri/',
      query: null,
      fragment: 'Related',
    })
    const [www] = await items({ input: 'www.example.com:8080/a?b=c' })
    assert.deepEqual(www.details, {
      scheme: null,
      authority: 'www.example.com:8080',
      host: 'www.example.com',
      port: 8080,
      path: '/a',
      query: 'b=c',
      fragment: null,
    })
  })

  test('finds the tricky cases of its corpus', async () => {
    for (const [text, expected] of CORPUS) assert.deepEqual(await found(text), expected, text)
  })

  test('gives each indicator its details', async () => {
    const text = `10.0.0.0/8 1.2.3.4:443 01-23-45-67-89-ab 550e8400-e29b-41d4-a716-446655440000 ${'ab'.repeat(32)} 2023-11-14T10:00+01:00 example.co.uk`
    const details = (await items({ input: text })).map(({ type, details }) => [type, details])
    assert.deepEqual(details, [
      ['cidr', { address: '10.0.0.0', prefix: 8, version: 4 }],
      ['ipv4', { port: 443 }],
      ['mac', { format: 'hyphen' }],
      ['uuid', { version: 4 }],
      ['hash', { candidates: ['sha256', 'sha3-256', 'blake2s256'] }],
      ['date', { hasTime: true, offset: '+01:00' }],
      ['domain', { tld: 'uk' }],
    ])
  })

  test('resolves overlaps: earliest, then longest, then type order', async () => {
    // A 32-digit hex run is a hash; with hyphens it is a UUID, which is longer than its first group.
    assert.deepEqual(await found('550e8400e29b41d4a716446655440000'), [['hash', '550e8400e29b41d4a716446655440000', '550e8400e29b41d4a716446655440000']])
    // An IPv4 address followed by a prefix is a CIDR block, the longer match.
    assert.deepEqual(await found('10.0.0.0/8', { types: ['ipv4', 'cidr'] }), [['cidr', '10.0.0.0/8', '10.0.0.0/8']])
    assert.deepEqual(await found('10.0.0.0/8', { types: ['ipv4'] }), [['ipv4', '10.0.0.0', '10.0.0.0']])
    // Without url, the host is found as a domain.
    assert.deepEqual(await found('see http://example.com/a', { types: ['domain'] }), [['domain', 'example.com', 'example.com']])
  })

  test('gives positions in UTF-16 code units, lines and columns from 1', async () => {
    const text = 'héllo 👋\r\nfirst 1.2.3.4\n\n  😀 bob@example.com'
    const result = await items({ input: text })
    for (const entry of result) assert.equal(text.slice(entry.start, entry.end), entry.value)
    assert.deepEqual(
      result.map(({ start, line, column }) => [start, line, column]),
      [
        [16, 2, 7],
        [30, 4, 6],
      ],
    )
  })

  test('with unique, keeps each type and fanged value once and counts it', async () => {
    const answer = await run({ input: 'Example.com example.com example[.]com 1.1.1.1 1.1.1.1', unique: true })
    assert.deepEqual(
      (answer.result as Item[]).map(({ type, value, occurrences }: Item & { occurrences?: number }) => [type, value, occurrences]),
      [
        ['domain', 'Example.com', 3],
        ['ipv4', '1.1.1.1', 2],
      ],
    )
    assert.deepEqual(answer.counts, { url: 0, email: 0, ipv6: 0, ipv4: 1, cidr: 0, uuid: 0, hash: 0, mac: 0, date: 0, domain: 1 })
  })

  test('without refang, reads only what is written plainly', async () => {
    assert.deepEqual(await found('hxxp://example[.]com 1[.]2[.]3[.]4 1.2.3.4', { refang: false }), [['ipv4', '1.2.3.4', '1.2.3.4']])
  })

  test('stops at maxResults and says so', async () => {
    const answer = await run({ input: '1.1.1.1 2.2.2.2 3.3.3.3', maxResults: 2 })
    assert.equal((answer.result as Item[]).length, 2)
    assert.equal(answer.truncated, true)
    assert.deepEqual(answer.counts?.ipv4, 2)
    assert.equal((await run({ input: '1.1.1.1 2.2.2.2', maxResults: 2 })).truncated, false)
  })

  test('defang changes only the indicators it finds, the types asked for, and the host of a URL', async () => {
    assert.equal(
      await defang('Go to http://www.example.com/a.b?c=d.e, mail bob@example.com, ping 2001:db8::1 or 10.0.0.1. Version 1.2.3 is fine.'),
      'Go to hxxp[://]www[.]example[.]com/a.b?c=d.e, mail bob[@]example[.]com, ping 2001[:]db8[:][:]1 or 10[.]0[.]0[.]1. Version 1.2.3 is fine.',
    )
    const answer = await run({ input: 'http://example.com 1.2.3.4', action: 'defang', types: ['ipv4'] })
    assert.deepEqual(answer, { result: 'http://example.com 1[.]2[.]3[.]4', action: 'defang', replacements: 1 })
    // Defanging what is defanged already changes nothing more.
    assert.deepEqual(await run({ input: 'hxxp[://]example[.]com', action: 'defang' }), { result: 'hxxp[://]example[.]com', action: 'defang', replacements: 0 })
    assert.equal(await defang('HTTP://Example.COM/x and Http://x.com'), 'HXXP[://]Example[.]COM/x and Hxxp[://]x[.]com')
  })

  test('fang restores only what it recognises: prose keeps its brackets', async () => {
    assert.equal(await fang('array[.]length, see (.) and [at] home; hxxp://x[.]com'), 'array[.]length, see (.) and [at] home; http://x.com')
    assert.deepEqual(await run({ input: 'nothing here', action: 'fang' }), { result: 'nothing here', action: 'fang', replacements: 0 })
  })

  test('fang(defang(x)) is x, and what defang hides, extract still finds', async () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/)
    const domain = fc
      .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'org', 'net', 'io', 'co.uk', 'COM'))
      .map(([labels, tld]) => `${labels.join('.')}.${tld}`)
    const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((octets) => octets.join('.'))
    const ipv6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((groups) => groups.map((group) => group.toString(16)).join(':'))
    const email = fc.tuple(fc.stringMatching(/^[a-z0-9]([a-z0-9._+-]{0,10}[a-z0-9])?$/), domain).map(([local, host]) => `${local}@${host}`)
    const url = fc
      .tuple(fc.constantFrom('http', 'https', 'HTTP', 'Https', 'ftp'), fc.oneof(domain, ipv4), fc.stringMatching(/^(\/[a-zA-Z0-9._~-]{0,8}){0,3}$/))
      .map(([scheme, host, path]) => `${scheme}://${host}${path}`)
    const indicator = fc.oneof(domain, ipv4, ipv6, email, url)
    const separator = fc.constantFrom(' ', ', ', '\n', ' and ', ' (', ') ')
    const text = fc.array(fc.tuple(indicator, separator), { minLength: 1, maxLength: 6 }).map((parts) => parts.flat().join(''))
    await fc.assert(
      fc.asyncProperty(text, async (original) => {
        const defanged = await defang(original)
        assert.equal(await fang(defanged), original)
        assert.equal(await defang(defanged), defanged)
        const plain = (await items({ input: original })).map(({ type, fanged, start }) => [type, fanged, start > -1])
        const hidden = (await items({ input: defanged })).map(({ type, fanged, start }) => [type, fanged, start > -1])
        assert.deepEqual(hidden, plain)
      }),
      { numRuns: 150 },
    )
  })

  test('every result is the slice of the input it says, whatever the text', async () => {
    const pieces = fc.constantFrom('a', '.', '@', ':', '/', 'http://', 'www.', '[.]', 'hxxp', '1', '255', '-', '(', ')', 'com', ' ', '\n', 'é', '👋', 'f', '0')
    await fc.assert(
      fc.asyncProperty(fc.array(pieces, { maxLength: 40 }), async (parts) => {
        const input = parts.join('')
        let last = 0
        for (const entry of await items({ input })) {
          assert.equal(input.slice(entry.start, entry.end), entry.value)
          assert.ok(entry.start >= last, 'in text order, without overlaps')
          last = entry.end
        }
      }),
      { numRuns: 300 },
    )
  })

  test('refuses bad fields: unknown types, an empty or repeated list, maxResults out of range, types without a defanged form', async () => {
    for (const input of [
      { input: 'x', types: ['phone'] },
      { input: 'x', types: [] },
      { input: 'x', types: ['url', 'url'] },
      { input: 'x', maxResults: 0 },
      { input: 'x', maxResults: 100_001 },
      { input: 'x', action: 'obfuscate' },
      { input: 'x', refang: 'yes' },
      { input: 'x', extra: 1 },
      {},
    ])
      await expectRefusal(run(input), { code: 'VALIDATION_ERROR' })
    await expectRefusal(run({ input: 'x', action: 'defang', types: ['url', 'hash'] }), {
      code: 'VALIDATION_ERROR',
      field: 'types',
      message: /no defanged form/,
    })
    await expectRefusal(run({ input: 'x', action: 'fang', types: ['date'] }), { code: 'VALIDATION_ERROR', field: 'types' })
  })

  test('refuses a lone surrogate without quoting the text', async () => {
    await expectRefusal(run({ input: 'token=s3cr3t \ud800 http://example.com' }), {
      code: 'INVALID_INPUT',
      check: (error) => assert.doesNotMatch(error.message, /s3cr3t|example/),
    })
  })

  test('refuses an answer past the output limit before building it', async () => {
    const input = 'http://a.co/ '.repeat(Math.floor((1024 * 1024) / 13))
    await expectRefusal(direct({ input, maxResults: 100_000 }), { code: 'LIMIT_EXCEEDED', details: { limit: OUTPUT_LIMIT_BYTES } })
  })

  test('runs in linear time: 1 MiB of each adversarial shape in about a second, where a quadratic scan would take hours', async () => {
    const MiB = 1024 * 1024
    // Runs of what almost makes a domain, an e-mail, an IP, a hash, a defanged form, a URL, a date,
    // then the shape of a ReDoS on URL regexes (CVE-2020-7661): a long run that almost matches, then fails.
    const shapes = ['a.', '1.', 'a.a@', '1:', '[.]', 'hxxp[:]//', 'http://(', '2023-01-']
    const defanged = new Set(['[.]', 'hxxp[:]//'])
    const calls = shapes.flatMap((shape) => {
      const input = shape.repeat(Math.ceil(MiB / shape.length)).slice(0, MiB)
      return (defanged.has(shape) ? ['extract', 'defang'] : ['extract']).map((action) => ({ input, action, maxResults: 100_000, unique: action === 'extract' }))
    })
    calls.push({ input: `http://${'a.'.repeat(400_000)}!`, action: 'extract', maxResults: 10, unique: false })
    calls.push({ input: `${'a'.repeat(MiB - 2)}@!`, action: 'extract', maxResults: 1000, unique: false })
    for (const fields of calls) {
      const started = process.cpuUsage()
      await direct(fields)
      const cpu = cpuMsSince(started)
      // The margin is for the collector of a test process holding much else, and for other tests' threads.
      assert.ok(cpu < 5000, `${fields.action} ${JSON.stringify(fields.input.slice(0, 12))}…: ${cpu.toFixed(0)} ms`)
    }
  })

  test('offloads long texts to the worker pool', () => {
    assert.equal(extract.offload?.({ input: 'a'.repeat(100), action: 'extract', unique: false, refang: true, maxResults: 1000 }), false)
    assert.equal(extract.offload?.({ input: 'a'.repeat(64 * 1024), action: 'extract', unique: false, refang: true, maxResults: 1000 }), true)
  })
})
