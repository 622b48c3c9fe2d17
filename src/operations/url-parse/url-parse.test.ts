import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { URL as WhatwgURL } from 'whatwg-url'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { isDevutilsError } from '../../core/errors.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { urlParse } from './index.ts'
import { MAX_QUERY_PAIRS } from './schemas.ts'

after(() => closeWorkerPool())

type Answer = Record<string, unknown>
const run = (input: Record<string, unknown>) => execute(urlParse, input, { timeBudgetMs: 60_000 }) as Promise<Answer>
/** In this thread, for inputs large enough to offload: the worker pool's start would dominate the test's time. */
const runHere = async (input: Record<string, unknown>) => (await urlParse.run(validate(urlParse.input, input))) as Answer
const suite = (file: string) => JSON.parse(readFileSync(new URL(`../../../test/fixtures/suites/wpt-url/${file}`, import.meta.url), 'utf8'))

/** The URL API getters urltestdata.json and setters_tests.json check. */
const GETTERS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'] as const

interface ParseCase {
  input: string
  base: string | null
  failure?: boolean
  [getter: string]: unknown
}

interface SetterCase {
  comment?: string
  href: string
  new_value: string
  expected: Record<string, string>
}

describe('url-parse: WPT urltestdata.json (web-platform-tests url/resources)', () => {
  const cases = (suite('urltestdata.json') as unknown[]).filter((entry): entry is ParseCase => typeof entry === 'object')

  test('every one of the 891 cases: the same getters, or a 422 where the Standard fails', async () => {
    assert.equal(cases.length, 891)
    let parsed = 0
    let refused = 0
    for (const testCase of cases) {
      const body = testCase.base === null ? { input: testCase.input } : { input: testCase.input, base: testCase.base }
      const name = JSON.stringify(body)
      if (testCase.failure) {
        await expectRefusal(run(body), { code: 'INVALID_INPUT' })
        refused++
        continue
      }
      const answer = await run(body)
      for (const getter of GETTERS) if (getter in testCase) assert.equal(answer[getter], testCase[getter], `${getter} of ${name}`)
      assert.equal(answer.result, answer.href)
      parsed++
    }
    assert.deepEqual({ parsed, refused }, { parsed: 624, refused: 267 })
  })
})

describe('url-parse: WPT setters_tests.json, as build', () => {
  const suiteData = suite('setters_tests.json') as Record<string, SetterCase[] | string[]>

  test('every one of the 278 cases: applied as the Standard does, or refused (422) where the Standard ignores the value', async () => {
    let applied = 0
    let refusedWhereIgnored = 0
    let refusedPartly = 0
    let total = 0
    const partly: string[] = []
    for (const [setter, cases] of Object.entries(suiteData)) {
      if (setter === 'comment') continue
      for (const testCase of cases as SetterCase[]) {
        total++
        // The href setter is a parse of the new value (the suite says urltestdata.json covers it).
        const body = setter === 'href' ? { input: testCase.new_value } : { action: 'build', input: testCase.href, components: { [setter]: testCase.new_value } }
        const name = `${setter} = ${JSON.stringify(testCase.new_value)} on ${testCase.href}`
        try {
          const answer = await run(body)
          for (const [getter, value] of Object.entries(testCase.expected)) assert.equal(answer[getter], value, `${getter} after ${name}`)
          applied++
        } catch (error) {
          assert.ok(isDevutilsError(error) && error.code === 'INVALID_INPUT', `${name}: ${String(error)}`)
          assert.equal((error.details as Record<string, unknown>).component, setter, name)
          // Where the Standard keeps the URL as it was, it ignored the value: we say so instead.
          const before = new WhatwgURL(testCase.href).href
          const reference = new WhatwgURL(testCase.href)
          ;(reference as unknown as Record<string, string>)[setter] = testCase.new_value
          assert.equal(reference.href, testCase.expected.href ?? reference.href, name)
          if (reference.href === before) refusedWhereIgnored++
          else {
            partly.push(name)
            refusedPartly++
          }
        }
      }
    }
    assert.equal(total, 278)
    assert.deepEqual({ applied, refusedWhereIgnored, refusedPartly }, { applied: 183, refusedWhereIgnored: 91, refusedPartly: 4 })
    assert.deepEqual(partly, [
      'host = "example.com:" on http://example.net:8080',
      'host = "example.com:invalid" on http://example.net:8080',
      'host = "[::1]:invalid" on http://example.net:8080/test',
      'host = "example.com:65536" on http://example.net/path',
    ])
  })
})

/** The section's vectors, copied from urltestdata.json, with the fields that show each point. */
const VECTORS: Array<{ input: Record<string, unknown>; expected: Answer }> = [
  { input: { input: 'http://example\t.\norg', base: 'http://example.org/foo/bar' }, expected: { href: 'http://example.org/' } },
  { input: { input: 'http://f:21/ b ? d # e ', base: 'http://example.org/foo/bar' }, expected: { href: 'http://f:21/%20b%20?%20d%20#%20e' } },
  { input: { input: 'http://[1:0::]', base: 'http://example.net/' }, expected: { host: '[1::]', hostType: 'ipv6' } },
  { input: { input: 'https://faß.ExAmPlE/' }, expected: { href: 'https://xn--fa-hia.example/', hostnameUnicode: 'faß.example' } },
  { input: { input: 'sc://ñ' }, expected: { href: 'sc://%C3%B1', host: '%C3%B1', hostType: 'opaque', origin: 'null' } },
  { input: { input: 'http://GOO\u200b\u2060\ufeffgoo.com', base: 'http://other.com/' }, expected: { href: 'http://googoo.com/' } },
  { input: { input: 'http://example.com/foo/%2e%2' }, expected: { href: 'http://example.com/foo/%2e%2' } },
  { input: { input: 'http://foo/bar^baz' }, expected: { href: 'http://foo/bar%5Ebaz' } },
  { input: { input: 'non-special:opaque  ?hi' }, expected: { href: 'non-special:opaque %20?hi', opaquePath: true, pathSegments: [] } },
  { input: { input: 'https://FAẞ.de/' }, expected: { hostname: 'xn--fa-hia.de' } },
  { input: { input: '', base: 'http://example.org/foo/bar?q#frag' }, expected: { href: 'http://example.org/foo/bar?q' } },
  {
    input: { input: 'mailto:someone@example.com?subject=hi' },
    expected: { hostType: 'empty', origin: 'null', pathname: 'someone@example.com', opaquePath: true, effectivePort: null },
  },
  { input: { input: 'file:///C:/x' }, expected: { hostType: 'empty', host: '', effectivePort: null, special: true, pathSegments: ['C:', 'x'] } },
  { input: { input: 'http://0x7f.1/' }, expected: { hostname: '127.0.0.1', hostType: 'ipv4' } },
  { input: { input: 'ws://h:80/' }, expected: { port: '', effectivePort: 80, warnings: ['The port 80 is the default for ws: and was dropped.'] } },
  { input: { input: 'javascript:alert(1)' }, expected: { pathname: 'alert(1)', opaquePath: true } },
  {
    input: { input: 'https://h/?a=1&a=2&b=%20+&&c' },
    expected: {
      query: [
        { name: 'a', value: '1' },
        { name: 'a', value: '2' },
        { name: 'b', value: '  ' },
        { name: 'c', value: '' },
      ],
    },
  },
]

describe('url-parse: vectors and fields', () => {
  test("the section's vectors from urltestdata.json, and the fields added to the URL API", async () => {
    for (const { input, expected } of VECTORS) {
      const answer = await run(input)
      for (const [key, value] of Object.entries(expected)) assert.deepEqual(answer[key], value, `${key} of ${JSON.stringify(input)}`)
    }
  })

  test('warnings say what the parser changed', async () => {
    assert.deepEqual((await run({ input: ' \u0001https://user@EXA\tMPLE.com:443\\a' })).warnings, [
      'Leading or trailing spaces and control characters were removed.',
      'Tab and newline characters inside the URL were removed.',
      'A backslash (\\) was read as a slash (/), as for every special scheme.',
      'The port 443 is the default for https: and was dropped.',
      'The URL holds credentials (a username or password): treat it as a secret.',
    ])
    assert.deepEqual((await run({ input: 'https://bücher.example/' })).warnings, [
      'The host was mapped to its ASCII form by IDNA (UTS #46) and percent-decoding.',
    ])
    assert.deepEqual((await run({ input: 'https://example.com/' })).warnings, [])
  })

  test('each example holds its answer (the surfaces test checks them too)', async () => {
    for (const example of urlParse.examples) assert.deepEqual(await run(example.input as Record<string, unknown>), example.output, example.summary)
  })
})

describe('url-parse: refusals', () => {
  test('a string that is not a URL: 422 naming the component, and the position where known', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, RegExp]> = [
      [{ input: 'example.com/path' }, { component: 'scheme', field: 'input' }, /give base to resolve/],
      [{ input: '' }, { component: 'scheme' }, /no scheme/],
      [{ input: 'a', base: 'mailto:x@example.com' }, { component: 'scheme' }, /opaque path/],
      [{ input: 'http://exa mple.com/' }, { component: 'host', position: 10 }, /U\+0020 at position 10/],
      [{ input: '  http://a<b/' }, { component: 'host', position: 10 }, /U\+003C \(<\)/],
      [{ input: 'http://a%2fb/' }, { component: 'host', position: 8 }, /U\+002F \(\/\)/],
      [{ input: 'sc://a b/' }, { component: 'host', position: 6 }, /U\+0020/],
      [{ input: 'https://a\u05d0.com/' }, { component: 'host', position: 8 }, /IDNA/],
      [{ input: 'http://:80/' }, { component: 'host' }, /empty/],
      [{ input: 'http://a:99999/' }, { component: 'port', position: 9 }, /over 65535/],
      [{ input: 'http://a:8o8/' }, { component: 'port', position: 10 }, /not a digit/],
      [{ input: 'http://192.168.0.257' }, { component: 'ipv4', position: 7 }, /IPv4/],
      [{ input: 'http://1.2.3.4.5' }, { component: 'ipv4' }, /more than four parts/],
      [{ input: 'http://[1::2::3]/' }, { component: 'ipv6', position: 7 }, /:: more than once/],
      [{ input: 'http://[::1/' }, { component: 'ipv6' }, /closing \]/],
      [{ input: 'a', base: 'not a url' }, { component: 'base', field: 'base' }, /^base is not a valid absolute URL/],
    ]
    for (const [input, details, message] of cases)
      await expectRefusal(run(input), { code: 'INVALID_INPUT', details, message }).catch((error) => assert.fail(`${JSON.stringify(input)}: ${error.message}`))
  })

  test('error messages never repeat the URL, which may carry credentials or tokens', async () => {
    for (const input of ['http://user:hunter2@exa mple.com/', 'http://user:hunter2@a:99999/', 'token-hunter2', 'http://[hunter2]/']) {
      await expectRefusal(run({ input }), {
        code: 'INVALID_INPUT',
        check: (error) => !/hunter2/.test(error.message) && !/hunter2/.test(JSON.stringify(error.details)),
      })
    }
    assert.equal((urlParse.input.properties.input as { writeOnly?: boolean }).writeOnly, true)
    assert.equal((urlParse.input.properties.base as { writeOnly?: boolean }).writeOnly, true)
    assert.equal(urlParse.allowGet, undefined)
  })

  test('build: a value the Standard would ignore is refused, naming the component and why', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ input: 'file:///etc/hosts', components: { port: 8080 } }, 'port', /a file: URL cannot have a port/],
      [{ input: 'mailto:a@b', components: { username: 'x' } }, 'username', /without a host/],
      [{ input: 'https://a/', components: { protocol: 'sc' } }, 'protocol', /special scheme/],
      [{ input: 'sc://a/', components: { protocol: 'https' } }, 'protocol', /special scheme/],
      [{ input: 'https://u@a/', components: { protocol: 'file' } }, 'protocol', /file: URL cannot have/],
      [{ input: 'https://a/', components: { protocol: '1x' } }, 'protocol', /not a scheme/],
      [{ input: 'mailto:a@b', components: { host: 'example.com' } }, 'host', /opaque path/],
      [{ input: 'mailto:a@b', components: { pathname: '/x' } }, 'pathname', /opaque/],
      [{ input: 'https://a/', components: { hostname: 'b:80' } }, 'hostname', /cannot hold a port/],
      [{ input: 'https://a/', components: { hostname: 'a b' } }, 'hostname', /not a valid host/],
      [{ input: 'https://a/', components: { host: '' } }, 'host', /empty/],
      [{ input: 'https://a/', components: { host: 'b:99999' } }, 'host', /not a port/],
      [{ input: 'https://a/', components: { port: 'x' } }, 'port', /not a port/],
    ]
    for (const [fields, component, message] of cases) {
      await expectRefusal(run({ action: 'build', ...fields }), { code: 'INVALID_INPUT', details: { component, field: `components.${component}` }, message })
    }
  })

  test('build: rules between fields are 400s', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ action: 'build', input: 'https://a/', components: { search: 'a', query: [] } }, 'components'],
      [{ action: 'build', components: { hostname: 'a' } }, 'components'],
      [{ action: 'build', components: { protocol: 'https' } }, 'components'],
      [{ action: 'build', input: 'https://a/' }, 'components'],
      [{ action: 'build', input: 'https://a/', components: {} }, 'components'],
      [{ action: 'build', input: 'https://a/', components: { colour: 'red' } }, 'components'],
      [{ action: 'build', input: 'https://a/', components: { port: 65_536 } }, 'components'],
      [{ action: 'build', base: 'https://a/', components: { hash: 'x' } }, 'base'],
      [{ components: { hash: 'x' }, input: 'https://a/' }, 'components'],
      [{ base: 'https://a/' }, 'input'],
      [{ input: 'https://a/', base: '' }, 'base'],
    ]
    for (const [input, field] of cases) {
      await expectRefusal(run(input), { code: 'VALIDATION_ERROR', check: (error) => JSON.stringify(error.details).includes(field) })
    }
  })

  test('lone surrogates are refused without saying where in the secret', async () => {
    await expectRefusal(run({ input: 'https://a/\ud800' }), { code: 'INVALID_INPUT', check: (error) => !/position/.test(JSON.stringify(error.details ?? {})) })
  })
})

describe('url-parse: build', () => {
  test('modifies a URL with the setters, in order, percent-encoding raw text', async () => {
    const answer = await run({
      action: 'build',
      input: 'http://example.com/old?x=1#h',
      components: {
        protocol: 'https:',
        username: 'a b',
        password: 'p@ss',
        hostname: 'bücher.example',
        port: '8443',
        pathname: 'new/../path here',
        search: '?q=a b',
        hash: 'frag ment',
      },
    })
    assert.equal(answer.href, 'https://a%20b:p%40ss@xn--bcher-kva.example:8443/path%20here?q=a%20b#frag%20ment')
    assert.equal(answer.hostnameUnicode, 'bücher.example')
    assert.deepEqual(answer.query, [{ name: 'q', value: 'a b' }])
  })

  test('takes query pairs as [name, value] or { name, value }, mixed too, and refuses any other shape', async () => {
    const build = (query: unknown) => run({ action: 'build', input: 'https://a/', components: { query } })
    const expected = 'https://a/?q=a+b&x=%26&empty='
    assert.equal(
      (
        await build([
          ['q', 'a b'],
          ['x', '&'],
          ['empty', ''],
        ])
      ).href,
      expected,
    )
    assert.equal((await build([{ name: 'q', value: 'a b' }, ['x', '&'], { name: 'empty', value: '' }])).href, expected)
    for (const wrong of [[['q']], [['q', 'a', 'b']], [['q', 1]], [{ name: 'q' }], [{ name: 'q', value: 'a', extra: 'b' }], ['q=a'], { q: 'a' }]) {
      await expectRefusal(build(wrong), { code: 'VALIDATION_ERROR', check: (error) => JSON.stringify(error.details).includes('components') })
    }
  })

  test('clears with empty values, drops a default port, and builds file: URLs from the protocol alone', async () => {
    assert.equal((await run({ action: 'build', input: 'https://a:8080/p?q#h', components: { port: '', search: '', hash: '' } })).href, 'https://a/p')
    assert.equal((await run({ action: 'build', input: 'https://a:8080/p?q', components: { port: 443, query: [] } })).href, 'https://a/p')
    assert.equal((await run({ action: 'build', components: { protocol: 'file', pathname: '/etc/hosts' } })).href, 'file:///etc/hosts')
    assert.equal((await run({ action: 'build', components: { protocol: 'sc', host: 'h:1' } })).href, 'sc://h:1')
    assert.equal((await run({ action: 'build', input: '../x', base: 'https://a/b/c', components: { hash: 'y' } })).href, 'https://a/x#y')
  })
})

describe('url-parse: properties', () => {
  test('answers as the URL API does, and parsing its own href gives the same URL', async () => {
    const piece = fc.string({
      unit: fc.constantFrom('a', 'Z', '0', '9', '-', '.', '%', '%41', ' ', 'é', 'ß', '/', '\\', '?', '#', '@', ':', '[', ']', '^', '|', '\u00ad', '\u{1F600}'),
      maxLength: 10,
    })
    const text = fc
      .tuple(fc.constantFrom('http', 'HTTPS', 'ws', 'ftp', 'file', 'sc', 'mailto', 'data'), fc.constantFrom('//', '/', ''), piece, piece, piece)
      .map(([scheme, slashes, authority, path, rest]) => `${scheme}:${slashes}${authority}${path}${rest}`)
    await fc.assert(
      fc.asyncProperty(text, async (input) => {
        let reference: string | undefined
        try {
          reference = new WhatwgURL(input).href
        } catch {}
        if (reference === undefined) return void (await expectRefusal(run({ input }), { code: 'INVALID_INPUT' }))
        const first = await run({ input })
        assert.equal(first.href, reference)
        const second = await run({ input: first.href as string })
        assert.deepEqual({ ...second, warnings: [] }, { ...first, warnings: [] })
      }),
      { numRuns: 300 },
    )
  })

  test('query pairs given to build come back decoded, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })), { maxLength: 8 }), async (pairs) => {
        const query = pairs.map(([name, value]) => ({ name, value }))
        const answer = await run({ action: 'build', input: 'https://example.com/', components: { query } })
        assert.deepEqual(answer.query, query)
      }),
      { numRuns: 200 },
    )
  })

  test('query pairs that encode to more than a URL may hold are refused before they are parsed', async () => {
    const pairs = (value: string) => Array.from({ length: 1_000 }, () => ({ name: 'n', value }))
    await expectRefusal(run({ action: 'build', input: 'https://a/', components: { query: pairs('é'.repeat(44)) } }), {
      code: 'LIMIT_EXCEEDED',
      details: { field: 'components.query', limit: 262_144 },
    })
    assert.equal(((await run({ action: 'build', input: 'https://a/', components: { query: pairs('é'.repeat(42)) } })).query as unknown[]).length, 1_000)
  })

  test('the query is read and written as URLSearchParams does', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', '=', '&', '+', '%', '2', '0', 'F', 'é', ' ', '!', '~', '*', '\u{1F600}') })
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.tuple(text, text), { maxLength: 4 }), async (query, pairs) => {
        const parsed = await run({ input: `https://a/?${query}` })
        assert.deepEqual(
          parsed.query,
          [...new WhatwgURL(`https://a/?${query}`).searchParams].map(([name, value]) => ({ name, value })),
        )
        const reference = new WhatwgURL('https://a/')
        for (const [name, value] of pairs) reference.searchParams.append(name, value)
        const given = pairs.map(([name, value]) => ({ name, value }))
        assert.equal((await run({ action: 'build', input: 'https://a/', components: { query: given } })).href, reference.href)
        assert.equal((await run({ action: 'build', input: 'https://a/', components: { query: pairs } })).href, reference.href)
      }),
      { numRuns: 300 },
    )
  })

  test('any text is answered or refused with a 4xx, never a defect', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.option(fc.constantFrom('http://a/b', 'sc:x', 'file:///', 'mailto:x')),
        async (text, base) => {
          try {
            await run(base === null ? { input: text } : { input: text, base })
          } catch (error) {
            assert.ok(isDevutilsError(error) && error.status < 500, String(error))
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('url-parse: limits and hostile inputs', () => {
  test(`a query of more than ${MAX_QUERY_PAIRS} pairs is LIMIT_EXCEEDED; ${MAX_QUERY_PAIRS} is answered`, async () => {
    assert.equal(((await runHere({ input: `https://a/?${'a&'.repeat(MAX_QUERY_PAIRS)}` })).query as unknown[]).length, MAX_QUERY_PAIRS)
    await expectRefusal(runHere({ input: `https://a/?${'a&'.repeat(MAX_QUERY_PAIRS + 1)}` }), { code: 'LIMIT_EXCEEDED', details: { limit: MAX_QUERY_PAIRS } })
  })

  test('an input over 262,144 characters is a 400', async () => {
    await expectRefusal(run({ input: `https://a/${'a'.repeat(262_144)}` }), { code: 'VALIDATION_ERROR' })
  })

  test('256 KiB of %, \\, @ or [ is answered in linear time, with bounded output', async () => {
    const size = 256 * 1024 - 16
    // In the authority, where the parser backtracks over credentials and brackets (test/hostile-inputs.ts sends them in a path too).
    const inputs = ['%', '\\', '@', '['].map((char) => `https://${char.repeat(size)}`)
    for (const input of inputs) {
      const name = `${input.slice(0, 12)}…`
      let outcome = { status: 0, length: 0 }
      const time = await cpuTimeOfAsync(async () => {
        outcome = await runHere({ input }).then(
          (answer) => ({ status: 200, length: JSON.stringify(answer).length }),
          (error) => ({ status: error.status, length: 0 }),
        )
      })
      assert.ok(outcome.status === 200 || outcome.status === 422, `${name}: ${outcome.status}`)
      assert.ok(outcome.length < 16 * 1024 * 1024, `${name}: ${outcome.length}`)
      // Within the service's default time budget even on a loaded machine; a quadratic parse would take minutes.
      assert.ok(time < 5000, `${name}: ${time} ms`)
    }
  })

  test('a build past the output limit is LIMIT_EXCEEDED, refused before the answer is built', async () => {
    const long = '\u4e00'.repeat(240_000)
    await expectRefusal(runHere({ action: 'build', input: 'https://a/', components: { pathname: long, hash: long } }), { code: 'LIMIT_EXCEEDED' })
  })

  test('offload: long inputs go to a worker thread, short ones stay', () => {
    assert.equal(urlParse.offload?.(validate(urlParse.input, { input: 'https://example.com/' })), false)
    assert.equal(urlParse.offload?.(validate(urlParse.input, { input: `https://a/${'x'.repeat(20_000)}` })), true)
    assert.equal(
      urlParse.offload?.(validate(urlParse.input, { action: 'build', components: { protocol: 'https', hostname: 'a', search: 'x'.repeat(20_000) } })),
      true,
    )
  })
})
