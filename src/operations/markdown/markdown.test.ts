import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import { decodeHTML } from 'entities'
import fc from 'fast-check'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { scanHtml } from '../../lib/markup/html-scan.ts'
import { MAX_INPUT_LENGTH, MAX_MARKDOWN_NESTING, markdown, markdownItFor, markdownToHtml, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(markdown, input, { timeBudgetMs: 60_000 })
const html = async (input: string, fields: Record<string, unknown> = {}) => (await run({ input, ...fields })).result as string
const toMarkdown = async (input: string, fields: Record<string, unknown> = {}) => (await run({ input, action: 'toMarkdown', ...fields })).result as string

after(() => closeWorkerPool())

const SUITES = new URL('../../../test/fixtures/suites/', import.meta.url)
interface SpecExample {
  markdown: string
  html: string
  example: number
  section: string
  extensions?: string[]
}
const COMMONMARK: SpecExample[] = JSON.parse(readFileSync(new URL('commonmark-spec/spec.json', SUITES), 'utf8'))
const GFM_EXTENSIONS: SpecExample[] = JSON.parse(readFileSync(new URL('cmark-gfm-spec/extensions.json', SUITES), 'utf8'))
const commonMark = (number: number) => COMMONMARK.find(({ example }) => example === number)!
const gfmExample = (number: number) => GFM_EXTENSIONS.find(({ example }) => example === number)!

/** markdown-it's XSS fixture: cases of `.`, the Markdown, `.`, markdown-it's HTML, `.`. */
function xssCases(): string[] {
  const lines = readFileSync(new URL('markdown-it-xss/xss.txt', SUITES), 'utf8').split('\n')
  const cases: string[] = []
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '.') continue
    const end = lines.indexOf('.', i + 1)
    cases.push(lines.slice(i + 1, end).join('\n'))
    i = lines.indexOf('.', end + 1)
  }
  return cases
}

const ALLOWED_TAGS = new Set(
  'p h1 h2 h3 h4 h5 h6 blockquote ul ol li pre code hr br em strong del s a img table thead tbody tr th td input details summary kbd sup sub'.split(' '),
)
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[A-Za-z-]+(?:="[^"<>]*")?)*)\s*\/?>/g
const ATTRIBUTE = /\s+([A-Za-z-]+)(?:="([^"]*)")?/g
const RASTER_DATA = /^data:image\/(gif|png|jpeg|webp);/

function decodeAttribute(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#([0-9]+);?/g, (_, decimal) => String.fromCodePoint(Number(decimal)))
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
}

/**
 * Asserts the HTML safe to insert into a page: every `<` starts a tag of the allowlist (anything
 * else is written `&lt;`), no attribute is an event handler or a style, and no URL runs code or
 * holds a document (javascript:, vbscript:, file:, data: but raster images), however encoded.
 */
function assertSafe(output: string, context: string): void {
  assert.ok(!output.replace(TAG, '').includes('<'), `${context}: a < that starts no allowed tag in ${JSON.stringify(output)}`)
  for (const [, , tag, attributes] of output.matchAll(TAG)) {
    const name = tag.toLowerCase()
    assert.ok(ALLOWED_TAGS.has(name), `${context}: <${tag}> in ${JSON.stringify(output)}`)
    for (const [, attribute, value = ''] of attributes.matchAll(ATTRIBUTE)) {
      const lower = attribute.toLowerCase()
      assert.ok(!lower.startsWith('on') && lower !== 'style' && lower !== 'srcset', `${context}: ${attribute} on <${tag}>`)
      if (lower !== 'href' && lower !== 'src') continue
      // Browsers drop tabs, line breaks and leading controls and spaces from a URL before reading its scheme.
      const url = decodeAttribute(value)
        .replace(/[\u0000-\u0020]/g, '')
        .toLowerCase()
      if (name === 'img' && RASTER_DATA.test(url)) continue
      assert.ok(!/^(javascript|vbscript|file|data):/.test(url), `${context}: ${attribute}="${value}" on <${tag}>`)
    }
  }
}

const HTML_DEFAULTS = { flavor: 'gfm', html: 'escape', rawHtml: false, breaks: false, typographer: false } as const

describe('markdown', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(markdown).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/markdown/index.ts')
  })

  test('the examples give the answers they show, and match the output schema', async () => {
    for (const example of markdown.examples) {
      const data = await run(example.input)
      assert.deepEqual(data, example.output, example.summary)
      validate(markdown.output, data)
    }
  })

  test('the published vectors: CommonMark 0.31.2 examples 1, 42, 481, 597 and GFM 0.29 extension examples 198, 203, 279, 491, 621', async () => {
    for (const number of [1, 42, 481, 597]) {
      const { markdown: input, html: expected } = commonMark(number)
      assert.equal(await html(input, { flavor: 'commonmark' }), expected, `CommonMark example ${number}`)
      assert.equal(await html(input), expected, `CommonMark example ${number}, as GFM`)
    }
    for (const number of [198, 203, 279, 491, 621]) {
      const { markdown: input, html: expected } = gfmExample(number)
      assert.equal(await html(input), expected, `GFM example ${number}`)
    }
  })

  test('CommonMark 0.31.2: markdown-it parses all 652 spec examples as the spec does but 3, compared as exact strings', async () => {
    // markdown-it writes an empty block quote on one line (<blockquote></blockquote>), where the spec breaks the line inside it.
    const EMPTY_BLOCKQUOTE = [218, 239, 240]
    // GFM's autolinks (linkify) find URLs and e-mail addresses in text that CommonMark leaves as text.
    const LINKIFIED = [602, 608, 611, 612]
    const commonmark = await markdownItFor({ ...HTML_DEFAULTS, flavor: 'commonmark', rawHtml: true })
    const gfm = await markdownItFor({ ...HTML_DEFAULTS, rawHtml: true })
    const failures = COMMONMARK.filter((example) => commonmark.render(example.markdown) !== example.html).map(({ example }) => example)
    assert.deepEqual(failures, EMPTY_BLOCKQUOTE)
    const gfmFailures = COMMONMARK.filter((example) => gfm.render(example.markdown) !== example.html).map(({ example }) => example)
    assert.deepEqual(gfmFailures, [...EMPTY_BLOCKQUOTE, ...LINKIFIED])
    assert.equal(COMMONMARK.length, 652)
  })

  test('CommonMark 0.31.2 through the operation: examples without raw HTML render alike in both html modes; every answer is safe', async () => {
    const reference = await markdownItFor({ ...HTML_DEFAULTS, flavor: 'commonmark', rawHtml: true })
    const holdsRawHtml = (input: string) =>
      reference.parse(input, {}).some((token) => token.type === 'html_block' || (token.children ?? []).some((child) => child.type === 'html_inline'))
    // sanitize-html drops an empty href and URLs of schemes other than http, https and mailto (irc:, made-up ones, `localhost:5001`).
    const SANITIZED_LINKS = [200, 485, 486, 487, 567, 596, 598, 599, 601]
    const sanitizedOtherwise: number[] = []
    let withoutRawHtml = 0
    for (const { markdown: input, html: expected, example } of COMMONMARK) {
      const escaped = await markdownToHtml(input, { ...HTML_DEFAULTS, flavor: 'commonmark', html: 'escape' })
      const sanitized = await markdownToHtml(input, { ...HTML_DEFAULTS, flavor: 'commonmark', html: 'sanitize' })
      assertSafe(escaped, `example ${example}, escaped`)
      assertSafe(sanitized, `example ${example}, sanitized`)
      if (holdsRawHtml(input)) continue
      withoutRawHtml++
      const exact = reference.render(input)
      if (![218, 239, 240].includes(example)) assert.equal(exact, expected)
      assert.equal(escaped, exact, `example ${example}, escaped`)
      // sanitize-html writes a double quote in text as it is, where markdown-it writes &quot;.
      if (sanitized !== exact.replaceAll('&quot;', '"') && sanitized !== exact) sanitizedOtherwise.push(example)
    }
    assert.equal(withoutRawHtml, 580)
    assert.deepEqual(sanitizedOtherwise, SANITIZED_LINKS)
  })

  test('GFM 0.29 extension examples: 20 of 24 exactly as the spec writes them, the other 4 named with their reasons', async () => {
    const EXCEPTIONS: Record<number, string> = {
      625: 'linkify-it ends a www. link before an unbalanced closing parenthesis, GFM after it',
      626: 'linkify-it keeps `&hl` in a link where GFM stops at an entity-like `&hl;`',
      630: 'linkify-it links hello@mail+xyz.example, which GFM does not take as an e-mail address',
      653: 'tagfilter is for raw HTML passed through; here raw HTML is escaped as text, or sanitized (title, style and xmp dropped)',
    }
    const failures: number[] = []
    for (const { markdown: input, html: expected, example } of GFM_EXTENSIONS) {
      const rendered = await html(input)
      assertSafe(rendered, `GFM example ${example}`)
      assertSafe(await html(input, { html: 'sanitize' }), `GFM example ${example}, sanitized`)
      if (rendered !== expected) failures.push(example)
    }
    assert.equal(GFM_EXTENSIONS.length, 24)
    assert.deepEqual(failures, Object.keys(EXCEPTIONS).map(Number))
    const tagfilter = gfmExample(653).markdown
    assert.doesNotMatch(await html(tagfilter, { html: 'sanitize' }), /<(title|style|xmp)/i)
    assert.equal(
      await html(tagfilter),
      '<p>&lt;strong&gt; &lt;title&gt; &lt;style&gt; &lt;em&gt;</p>\n<p>&lt;blockquote&gt;\n&lt;xmp&gt; is disallowed.  &lt;XMP&gt; is also disallowed.\n&lt;/blockquote&gt;</p>\n',
    )
  })

  test('markdown-it’s XSS fixture: every case, in both flavors and both html modes, answers safe HTML', async () => {
    const cases = xssCases()
    assert.equal(cases.length, 13)
    for (const input of cases) {
      for (const flavor of ['gfm', 'commonmark']) {
        for (const mode of ['escape', 'sanitize']) assertSafe(await html(input, { flavor, html: mode }), `${flavor}, ${mode}: ${JSON.stringify(input)}`)
      }
    }
    assert.equal(await html('![](data:image/png;base64,iVBORw0KGgo=)'), '<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="" /></p>\n')
    assert.equal(await html('![](data:image/svg+xml;base64,PHN2Zz4=)'), '<p>![](data:image/svg+xml;base64,PHN2Zz4=)</p>\n')
    assert.equal(await html('[a](<x" onmouseover="alert(1)>)'), '<p><a href="x%22%20onmouseover=%22alert(1)">a</a></p>\n')
  })

  test('DOMPurify’s XSS fixtures: each of the 223 payloads, in both html modes, answers safe HTML', async () => {
    const { default: cases } = (await import(new URL('dompurify/expect.mjs', SUITES).href)) as { default: Array<{ title: string; payload: string }> }
    assert.equal(cases.length, 223)
    for (const { title, payload } of cases) {
      for (const mode of ['escape', 'sanitize']) assertSafe(await html(payload, { html: mode }), `${mode}: ${title}`)
    }
  })

  test('sanitize keeps the allowlist and drops the rest: scripts with their content, handlers, styles, foreign schemes', async () => {
    const cases: Array<[string, string]> = [
      ['<details><summary>More</summary>Text <sup>1</sup> <sub>2</sub></details>', '<details><summary>More</summary>Text <sup>1</sup> <sub>2</sub></details>'],
      ['<img src="https://example.com/a.png" onerror="x()" style="width:9999px">', '<img src="https://example.com/a.png" />'],
      ['<img src="data:image/svg+xml,<svg onload=alert(1)>">', '<img />'],
      ['<a href="JaVaScRiPt:alert(1)">x</a> <a href="&#106;avascript:alert(1)">y</a>', '<p><a>x</a> <a>y</a></p>\n'],
      ['<iframe src="https://evil.example"></iframe><object data="x"></object><svg><script>alert(1)</script></svg>', ''],
      ['<style>p{}</style><form><input type="text" name="pw"><input type="checkbox" checked></form>', '<input type="checkbox" checked disabled />'],
      ['<code class="language-js evil">x</code>', '<p><code class="language-js">x</code></p>\n'],
      ['<xmp><script>alert(1)</script></xmp>', '<p></p>\n'],
    ]
    for (const [input, expected] of cases) {
      const sanitized = await html(input, { html: 'sanitize' })
      assert.equal(sanitized, expected, input)
      assertSafe(sanitized, input)
    }
  })

  test('any Markdown of hostile pieces renders safe in both modes (fast-check)', async () => {
    const pieces = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '[a](javascript:alert(1))',
      '[a](JAVASCRIPT:x)',
      '[a](&#106;avascript:x)',
      '![i](data:text/html,x)',
      '<a href="vbscript:x">v</a>',
      '<svg onload=x>',
      '"',
      "'",
      '<',
      '>',
      '&',
      '`',
      '*',
      '_',
      '~~',
      '[',
      ']',
      '(',
      ')',
      '\n',
      '\n\n',
      '- ',
      '> ',
      '| a |\n|---|\n',
      'www.example.com',
      'x@y.example',
      'javascript:alert(1)',
      ' ',
      'text',
      '<a href="',
      '" onclick="x()">',
      '<!--',
      '-->',
      '<![CDATA[',
      '<div style="x">',
      '</div>',
    ]
    const inputs = fc.oneof(
      fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((parts) => parts.join('')),
      fc.string({ maxLength: 60 }),
    )
    await fc.assert(
      fc.asyncProperty(
        inputs,
        fc.constantFrom('gfm', 'commonmark'),
        fc.constantFrom('escape', 'sanitize'),
        fc.boolean(),
        async (input, flavor, mode, breaks) => {
          assertSafe(await html(input, { flavor, html: mode, breaks }), JSON.stringify({ input, flavor, mode }))
        },
      ),
      { numRuns: 400 },
    )
  })

  test('options: breaks, typographer, commonmark without the GFM extensions, nesting stopped at 20 levels', async () => {
    assert.equal(await html('a\nb'), '<p>a\nb</p>\n')
    assert.equal(await html('a\nb', { breaks: true }), '<p>a<br />\nb</p>\n')
    assert.equal(await html('"Hello" -- (c) ...', { typographer: true }), '<p>“Hello” – © …</p>\n')
    assert.equal(await html('"Hello" -- (c) ...'), '<p>&quot;Hello&quot; -- (c) ...</p>\n')
    assert.equal(await html('~~x~~ www.example.com\n\n| a |\n|---|', { flavor: 'commonmark' }), '<p>~~x~~ www.example.com</p>\n<p>| a |\n|---|</p>\n')
    assert.equal(await html('- [x] a', { flavor: 'commonmark' }), '<ul>\n<li>[x] a</li>\n</ul>\n')
    const deep = await markdownToHtml(`${'> '.repeat(50_000)}x`, HTML_DEFAULTS)
    assert.equal(deep.match(/<blockquote>/g)?.length, MAX_MARKDOWN_NESTING)
    assert.equal(await html(''), '')
  })

  test('HTML to Markdown: headings, lists, code blocks, tables, strikethrough and task lists, scripts and the head dropped', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['<h1>Title</h1><h2>Sub</h2><h3>Three</h3><p>Text</p>', {}, '# Title\n\n## Sub\n\n### Three\n\nText'],
      ['<h1>Title</h1><h2>Sub</h2><h3>Three</h3><p>Text</p>', { headingStyle: 'setext' }, 'Title\n=====\n\nSub\n---\n\n### Three\n\nText'],
      [
        '<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul><ol start="3"><li>x</li><li>y</li></ol>',
        { bulletListMarker: '*' },
        '*   a\n*   b\n    *   c\n\n3.  x\n4.  y',
      ],
      ['<pre><code>a\nb</code></pre>', { codeBlockStyle: 'indented' }, '    a\n    b'],
      ['<pre><code class="language-py">a\nb</code></pre>', {}, '```py\na\nb\n```'],
      [
        '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><p><del>old</del></p><ul><li><input type="checkbox" checked>done</li><li><input type="checkbox">todo</li></ul>',
        {},
        '| a | b |\n| --- | --- |\n| 1 | 2 |\n\n~~old~~\n\n-   [x] done\n-   [ ] todo',
      ],
      ['<table><tr><th>a</th></tr><tr><td>1</td></tr></table><p><del>old</del></p>', { gfm: false }, 'a\n\n1\n\nold'],
      [
        '<html><head><title>T</title><style>p{}</style></head><body><p>1 * 2 _x_ # y</p><template><p>t</p></template><noscript>n</noscript><script>alert(1)</script></body></html>',
        {},
        '1 \\* 2 \\_x\\_ # y',
      ],
      [
        '<p>a<br>b</p><blockquote><p>q</p></blockquote><hr><img src="i.png" alt="A"><a href="/x" title="T">l</a> <code>c</code> <em>e</em>',
        {},
        'a  \nb\n\n> q\n\n* * *\n\n![A](i.png)[l](/x "T") `c` _e_',
      ],
      ['', {}, ''],
      ['<p>unclosed <b>bold <i>both</p>text', {}, 'unclosed **bold _both_**\n\n**_text_**'],
    ]
    for (const [input, fields, expected] of cases) assert.equal(await toMarkdown(input, fields), expected, input)
  })

  test('turndown’s own test cases: all 130 whose options map to fields pass, compared as exact strings', async () => {
    const page = readFileSync(new URL('turndown/index.html', SUITES), 'utf8')
    const CASE =
      /<div class="case" data-name="([^"]*)"(?: data-options='([^']*)')?>\s*<div class="input">([\s\S]*?)<\/div>\s*<pre class="expected">([\s\S]*?)<\/pre>\s*<\/div>/g
    // turndown's defaults, which the cases without options expect; without the GFM plugin, as turndown tests itself.
    const TURNDOWN_DEFAULTS = { headingStyle: 'setext', bulletListMarker: '*', codeBlockStyle: 'indented', gfm: false }
    const FIELDS = new Set(['headingStyle', 'bulletListMarker', 'codeBlockStyle'])
    // Options this operation does not offer: fence, hr, br, linkStyle and linkReferenceStyle, preformattedCode.
    const notOffered: string[] = []
    let passed = 0
    for (const [, name, options, input, expected] of page.matchAll(CASE)) {
      const fields = options ? (JSON.parse(options) as Record<string, unknown>) : {}
      if (Object.keys(fields).some((field) => !FIELDS.has(field))) {
        notOffered.push(name)
        continue
      }
      // The runner reads the expected Markdown as the text of its <pre>, without the comments in it.
      const text = decodeHTML(expected.replace(/<!--[\s\S]*?-->/g, ''))
      assert.equal(await toMarkdown(input, { ...TURNDOWN_DEFAULTS, ...fields }), text, name)
      passed++
    }
    assert.equal(passed, 130)
    assert.equal(notOffered.length, 17)
  })

  test('round trip: Markdown rendered, converted back and rendered again gives the same HTML (fast-check)', async () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/)
    const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((list) => list.join(' '))
    const inline = fc.oneof(
      words,
      words.map((text) => `*${text}*`),
      words.map((text) => `**${text}**`),
      words.map((text) => `\`${text}\``),
      fc.tuple(words, word).map(([text, path]) => `[${text}](https://example.com/${path})`),
      words.map((text) => `~~${text}~~`),
    )
    const paragraph = fc.array(inline, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '))
    const block = fc.oneof(
      paragraph,
      fc.tuple(fc.integer({ min: 1, max: 6 }), words).map(([level, text]) => `${'#'.repeat(level)} ${text}`),
      fc.array(paragraph, { minLength: 1, maxLength: 4 }).map((items) => items.map((item) => `- ${item}`).join('\n')),
      fc.array(paragraph, { minLength: 1, maxLength: 4 }).map((items) => items.map((item, index) => `${index + 1}. ${item}`).join('\n')),
      fc.tuple(word, fc.array(words, { minLength: 1, maxLength: 3 })).map(([language, lines]) => `\`\`\`${language}\n${lines.join('\n')}\n\`\`\``),
      paragraph.map((text) => `> ${text}`),
      fc.tuple(words, words).map(([a, b]) => `| ${a} | ${b} |\n| --- | --- |\n| ${b} | ${a} |`),
    )
    const documents = fc.array(block, { minLength: 1, maxLength: 6 }).map((blocks) => blocks.join('\n\n'))
    await fc.assert(
      fc.asyncProperty(documents, fc.constantFrom('atx', 'setext'), fc.constantFrom('-', '*', '+'), async (document, headingStyle, bulletListMarker) => {
        const rendered = await html(document)
        const back = await toMarkdown(rendered, { headingStyle, bulletListMarker })
        assert.equal(await html(back), rendered, JSON.stringify({ document, back }))
      }),
      { numRuns: 200 },
    )
  })

  test('refuses what the schema forbids (400 naming the field), fields of the other action, and a lone surrogate (422)', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{}, 'input'],
      [{ input: 1 }, 'input'],
      [{ input: 'x', action: 'toText' }, 'action'],
      [{ input: 'x', flavor: 'markdown' }, 'flavor'],
      [{ input: 'x', html: 'raw' }, 'html'],
      [{ input: 'x', html: 'allow' }, 'html'],
      [{ input: 'x', breaks: 'true' }, 'breaks'],
      [{ input: 'x', typographer: 1 }, 'typographer'],
      [{ input: 'x', action: 'toMarkdown', headingStyle: 'hash' }, 'headingStyle'],
      [{ input: 'x', action: 'toMarkdown', bulletListMarker: '•' }, 'bulletListMarker'],
      [{ input: 'x', action: 'toMarkdown', codeBlockStyle: 'tilde' }, 'codeBlockStyle'],
      [{ input: 'x', action: 'toMarkdown', gfm: 'yes' }, 'gfm'],
      [{ input: 'x', sanitize: true }, 'sanitize'],
      [{ input: 'x'.repeat(MAX_INPUT_LENGTH + 1) }, 'input'],
      [{ input: 'x', action: 'toMarkdown', flavor: 'commonmark' }, 'flavor'],
      [{ input: 'x', action: 'toMarkdown', html: 'sanitize' }, 'html'],
      [{ input: 'x', action: 'toMarkdown', breaks: true }, 'breaks'],
      [{ input: 'x', action: 'toMarkdown', typographer: true }, 'typographer'],
      [{ input: 'x', headingStyle: 'setext' }, 'headingStyle'],
      [{ input: 'x', bulletListMarker: '*' }, 'bulletListMarker'],
      [{ input: 'x', codeBlockStyle: 'indented' }, 'codeBlockStyle'],
      [{ input: 'x', gfm: false }, 'gfm'],
    ]
    for (const [input, field] of refused) await expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
    // The defaults of the other action may be sent: a form that sends every field is not refused.
    assert.equal(await html('x', { headingStyle: 'atx', gfm: true }), '<p>x</p>\n')
    await expectRefusal(run({ input: 'ok \ud800 no' }), { code: 'INVALID_INPUT', position: 3 })
    await expectRefusal(run({ input: '<p>\udfff</p>', action: 'toMarkdown' }), { code: 'INVALID_INPUT', position: 3 })
  })

  test('HTML nesting past 100 elements is refused before converting (422 with the limit and where), 100 is converted', async () => {
    assert.equal(await toMarkdown(`${'<div>'.repeat(100)}x`), 'x')
    assert.equal(await toMarkdown(`${'<div>'.repeat(100)}x${'</div>'.repeat(100)}<div>y</div>`), 'x\n\ny')
    await expectRefusal(run({ input: `${'<div>'.repeat(101)}x`, action: 'toMarkdown' }), {
      code: 'LIMIT_EXCEEDED',
      details: { limit: 100, position: 500 },
    })
    // Void elements, elements whose end tag may be left out, comments and raw text do not nest.
    assert.equal(scanHtml('<br>'.repeat(500)).depth, 0)
    assert.equal(scanHtml(`<ul>${'<li>a'.repeat(500)}</ul>`).depth, 2)
    assert.equal(scanHtml(`<p>${'<p>a'.repeat(500)}`).depth, 1)
    assert.equal(scanHtml(`<script>${'<div>'.repeat(500)}</SCRIPT><div>`).depth, 1)
    assert.equal(scanHtml(`<!--${'<div>'.repeat(500)}--><div title="<div><div>">`).depth, 1)
    assert.equal(scanHtml('<div><span></div></span><div>').depth, 2)
  })

  test('hostile inputs are answered or refused quickly: deep lists and divs, link references repeated, indentation that multiplies', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ input: '<ul><li>'.repeat(5000), action: 'toMarkdown' }, 'LIMIT_EXCEEDED'],
      [{ input: '<div>'.repeat(20_000), action: 'toMarkdown' }, 'LIMIT_EXCEEDED'],
      [{ input: '<b><i>'.repeat(50_000), action: 'toMarkdown' }, 'LIMIT_EXCEEDED'],
      // One reference definition of a long URL, used many times: a body under the limit would render to gigabytes of links.
      [{ input: `[a]: /${'u'.repeat(500_000)}\n\n${'[a]'.repeat(100_000)}` }, 'LIMIT_EXCEEDED'],
      [{ input: `[a]: /${'u'.repeat(500_000)}\n\n${'[a]'.repeat(100_000)}`, html: 'sanitize' }, 'LIMIT_EXCEEDED'],
      // Raw HTML to sanitize nested past 100 elements: sanitize-html's cost grows with the square of the depth.
      [{ input: '<div>'.repeat(200_000), html: 'sanitize' }, 'LIMIT_EXCEEDED'],
      [{ input: '<a href="x">'.repeat(50_000), html: 'sanitize' }, 'LIMIT_EXCEEDED'],
      // A line break inside 49 nested list items becomes a line indented by 196 spaces.
      [{ input: `${'<ul><li>'.repeat(49)}${'<br>'.repeat(200_000)}`, action: 'toMarkdown' }, 'LIMIT_EXCEEDED'],
    ]
    for (const [input, code] of cases) {
      const cpu = await cpuTimeOfAsync(() => expectRefusal(run(input), { code }))
      assert.ok(cpu < 3000, `${cpu} ms for ${JSON.stringify(input).slice(0, 60)}`)
    }
    assert.equal(await html(`${'<div>'.repeat(100)}x`, { html: 'sanitize' }), 'x')
    assert.equal(await html(`${'<details>'.repeat(100)}x`, { html: 'sanitize' }), `${'<details>'.repeat(100)}x${'</details>'.repeat(100)}`)
    const refusal = await expectRefusal(run(cases[3][0]), { code: 'LIMIT_EXCEEDED' })
    assert.equal(refusal.details?.limit, OUTPUT_LIMIT_BYTES)
    // The kinds of pathological input of cmark's own tests (github/cmark-gfm test/pathological_tests.py), smaller: rendered within bounds.
    const answered = [
      '<'.repeat(200_000),
      '*a_ '.repeat(20_000),
      '[ (]('.repeat(16_000),
      '`a``'.repeat(20_000),
      `${'['.repeat(50_000)}a${']'.repeat(50_000)}`,
      `${'- '.repeat(10_000)}a`,
      '*'.repeat(500_000),
      'www.a.'.repeat(50_000),
      `${'|a'.repeat(1000)}\n${'|-'.repeat(1000)}\n${'|b'.repeat(1000)}\n`.repeat(5),
    ]
    // Strong emphasis nested 10,000 deep: rendered when escaped; past the nesting limit for sanitize-html.
    const nestedStrong = `${'**a '.repeat(10_000)}${' a**'.repeat(10_000)}`
    assert.equal((await markdownToHtml(nestedStrong, HTML_DEFAULTS)).match(/<strong>/g)?.length, 10_000)
    await expectRefusal(markdownToHtml(nestedStrong, { ...HTML_DEFAULTS, html: 'sanitize' }), { code: 'LIMIT_EXCEEDED', details: { limit: 100 } })
    for (const input of answered) {
      for (const mode of ['escape', 'sanitize']) {
        let output = ''
        const cpu = await cpuTimeOfAsync(async () => {
          output = await markdownToHtml(input, { ...HTML_DEFAULTS, html: mode as 'escape' | 'sanitize' })
        })
        assert.ok(cpu < 3000, `${cpu} ms for ${input.slice(0, 20)}…, ${mode}`)
        assert.ok(Buffer.byteLength(output) <= OUTPUT_LIMIT_BYTES)
      }
    }
  })

  test('offload: inputs over 16 KiB go to a worker, and are answered there as in process', async () => {
    const defaults = {
      action: 'toHtml',
      flavor: 'gfm',
      html: 'escape',
      breaks: false,
      typographer: false,
      headingStyle: 'atx',
      bulletListMarker: '-',
      codeBlockStyle: 'fenced',
      gfm: true,
    } as const
    assert.equal(OFFLOAD_LENGTH, 16 * 1024)
    assert.equal(markdown.offload!({ ...defaults, input: 'x'.repeat(OFFLOAD_LENGTH) }), false)
    assert.equal(markdown.offload!({ ...defaults, input: 'x'.repeat(OFFLOAD_LENGTH + 1) }), true)
    const text = '# Title\n\nA *paragraph* with www.example.com.\n\n- [x] item\n\n'.repeat(400)
    assert.deepEqual(await run({ input: text }), await markdown.run({ ...defaults, input: text }))
    const page = '<h2>Title</h2><p>A <em>paragraph</em>.</p><ul><li>item</li></ul>'.repeat(400)
    assert.deepEqual(await run({ input: page, action: 'toMarkdown' }), await markdown.run({ ...defaults, action: 'toMarkdown', input: page }))
  })
})
