import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { XMLValidator } from 'fast-xml-parser'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { XML_OFFLOAD_THRESHOLD, xmlJson } from './index.ts'

const run = (input: Record<string, unknown>) => execute(xmlJson, input, { timeBudgetMs: 60_000 })
const toJson = async (input: string, options: Record<string, unknown> = {}) => (await run({ input, ...options })).result
const toXml = async (input: unknown, options: Record<string, unknown> = {}) => (await run({ input, action: 'jsonToXml', ...options })).result as string
const rejects = (input: Record<string, unknown>, code: string, pattern: RegExp, details?: Record<string, unknown>) =>
  expectRefusal(run(input), { code, message: pattern, details })

after(() => closeWorkerPool())

describe('xml-json xmlToJson', () => {
  test('attributes, text, repeated elements, empty elements', async () => {
    assert.deepEqual(await toJson('<a x="1"><b>t</b><b>u</b><c/><d></d><e y="2"/></a>'), {
      a: { b: ['t', 'u'], c: '', d: '', e: { '@y': '2' }, '@x': '1' },
    })
  })

  test('values stay strings unless parseValues; with it, 007 and hex stay text', async () => {
    const xml = '<p price="12.50"><n>12.50</n><z>007</z><h>0x1F</h><b>true</b><e>1e3</e></p>'
    assert.deepEqual(await toJson(xml), { p: { n: '12.50', z: '007', h: '0x1F', b: 'true', e: '1e3', '@price': '12.50' } })
    assert.deepEqual(await toJson(xml, { parseValues: true }), { p: { n: 12.5, z: '007', h: '0x1F', b: true, e: 1000, '@price': 12.5 } })
  })

  test('CDATA is text, never decoded; namespaces stay in names; entities and character references are decoded', async () => {
    assert.deepEqual(await toJson('<a><![CDATA[<b> &lt; ]]]></a>'), { a: '<b> &lt; ]' })
    assert.deepEqual(await toJson('<s:e xmlns:s="urn:s" s:k="v">x</s:e>'), { 's:e': { '#text': 'x', '@xmlns:s': 'urn:s', '@s:k': 'v' } })
    assert.deepEqual(await toJson('<a t="&lt;&#65;&#x1F600;">&amp;lt; &quot;&apos;&gt; &#233;&#xe9;</a>'), { a: { '#text': '&lt; "\'> éé', '@t': '<A😀' } })
  })

  test('attributePrefix and textKey rename the keys; a textKey under the prefix is refused', async () => {
    assert.deepEqual(await toJson('<a k="v">t<b/></a>', { attributePrefix: '$', textKey: '_' }).catch(() => 'refused'), 'refused', "'_' can begin an XML name")
    assert.deepEqual(await toJson('<a k="v">t<b/></a>', { attributePrefix: '$', textKey: '#' }), { a: { b: '', '#': 't', $k: 'v' } })
    await expectRefusal(run({ input: '<a/>', attributePrefix: '@', textKey: '@text' }), { code: 'VALIDATION_ERROR', field: 'textKey' })
  })

  test('XXE: a DOCTYPE is refused before anything is read, external entity or not', async () => {
    const payloads = [
      '<?xml version="1.0"?>\n<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<foo>&xxe;</foo>',
      '<!DOCTYPE foo [<!ENTITY % dtd SYSTEM "http://127.0.0.1/evil.dtd"> %dtd;]><foo/>',
      '<!DOCTYPE foo SYSTEM "http://127.0.0.1/x.dtd"><foo/>',
      '<!doctype foo><foo/>',
      '<!-- a comment --><!DOCTYPE foo><foo/>',
    ]
    for (const input of payloads) await rejects({ input }, 'INVALID_INPUT', /DOCTYPE .* refused, so that no external entity is fetched/)
    await rejects({ input: payloads[0] }, 'INVALID_INPUT', /line 2, column 1/, { line: 2, column: 1, position: 22 })
    assert.deepEqual(await toJson('<a><!-- <!DOCTYPE x> --><![CDATA[<!DOCTYPE y>]]></a>'), { a: '<!DOCTYPE y>' }, 'the word in a comment or CDATA is text')
  })

  test('billion laughs: refused at once, in a moment', async () => {
    const entities = ['<!ENTITY lol "lol">']
    for (let i = 1; i < 10; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`)
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n${entities.join('\n')}\n]>\n<lolz>&lol9;</lolz>`
    await rejects({ input: bomb }, 'INVALID_INPUT', /DOCTYPE/)
    const cpu = await cpuTimeOfAsync(() => assert.rejects(async () => xmlJson.run(validate(xmlJson.input, { input: bomb })), { code: 'INVALID_INPUT' }))
    assert.ok(cpu < 100, `${cpu} ms`)
  })

  test('undefined entities, bad character references and bare & are 422s', async () => {
    await rejects({ input: '<a>&nbsp;</a>' }, 'INVALID_INPUT', /entity &nbsp; is not defined/, { line: 1, column: 4, position: 3 })
    await rejects({ input: '<a>&#0;</a>' }, 'INVALID_INPUT', /&#0; names a character XML does not allow/)
    await rejects({ input: '<a>&#xD800;</a>' }, 'INVALID_INPUT', /does not allow/)
    await rejects({ input: '<a>&#x110000;</a>' }, 'INVALID_INPUT', /does not allow/)
    await rejects({ input: '<a c="&amp;" b="x & y"/>' }, 'INVALID_INPUT', /bare & at line 1, column 19/, { position: 18 })
    await rejects({ input: '<a>x & y</a>' }, 'INVALID_INPUT', /line 1, column 6/)
  })

  test('malformed XML is a 422 with line and column', async () => {
    await rejects({ input: '<a>\n  <b>\n</a>' }, 'INVALID_INPUT', /not well-formed at line 3, column \d+/, { line: 3 })
    await rejects({ input: 'just text' }, 'INVALID_INPUT', /not well-formed at line 1, column 1/, { position: 0 })
    await rejects({ input: '' }, 'INVALID_INPUT', /not well-formed/)
    await rejects({ input: '<a>'.repeat(50_000) }, 'INVALID_INPUT', /some elements are never closed/)
    await rejects({ input: '<a></a><b></b>' }, 'INVALID_INPUT', /not well-formed/)
  })

  test('nesting: 100 levels are fine, 101 are LIMIT_EXCEEDED, and 300,000 quickly', async () => {
    const nested = (levels: number) => '<a>'.repeat(levels) + '</a>'.repeat(levels)
    assert.ok(await toJson(nested(100)))
    await rejects({ input: nested(101) }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
    await rejects({ input: nested(300_000) }, 'LIMIT_EXCEEDED', /deeper than 100 levels/)
  })

  test('names that are special in JavaScript objects are refused, never renamed', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      await rejects({ input: `<r><${name}>1</${name}></r>` }, 'INVALID_INPUT', /cannot be converted/)
      // As attributes they are prefixed, so some are safe keys: kept as they are, or refused, never renamed.
      const attribute = await run({ input: `<r ${name}="1"/>` }).catch((error) => error.message as string)
      if (typeof attribute === 'string') assert.match(attribute, /cannot be converted/)
      else assert.deepEqual(attribute.result, { r: { [`@${name}`]: '1' } })
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined)
  })
})

describe('xml-json jsonToXml', () => {
  test('writes escaped, indented XML with one root; indent 0 writes one line', async () => {
    const value = { r: { '@a': 'x"<&', n: [1, null, true], m: { o: 'p' } } }
    assert.equal(await toXml(value), '<r a="x&quot;&lt;&amp;">\n  <n>1</n>\n  <n/>\n  <n>true</n>\n  <m>\n    <o>p</o>\n  </m>\n</r>')
    // Text beside child elements comes first; it reads back trimmed.
    const mixed = await toXml({ r: { '#text': 'i < j & k', c: 'd' } })
    assert.equal(mixed, '<r>\ni &lt; j &amp; k  <c>d</c>\n</r>')
    assert.deepEqual(await toJson(mixed), { r: { '#text': 'i < j & k', c: 'd' } })
    assert.equal(await toXml({ r: { a: '1', b: { c: '2' } } }, { indent: 0 }), '<r><a>1</a><b><c>2</c></b></r>')
    assert.equal(await toXml('{"r":"x"}'), '<r>x</r>')
  })

  test('what has no XML form is a 422 that names its path', async () => {
    await rejects({ input: { a: 1, b: 2 }, action: 'jsonToXml' }, 'INVALID_INPUT', /exactly one key, the root element/)
    await rejects({ input: { r: [1, 2] }, action: 'jsonToXml' }, 'INVALID_INPUT', /exactly one key/)
    await rejects({ input: { r: { 'bad name': 1 } }, action: 'jsonToXml' }, 'INVALID_INPUT', /'bad name' is not an XML element name/, { path: '$.r.bad name' })
    await rejects({ input: { r: { '0': 1 } }, action: 'jsonToXml' }, 'INVALID_INPUT', /'0' is not an XML element name/)
    await rejects({ input: { r: { a: [[1]] } }, action: 'jsonToXml' }, 'INVALID_INPUT', /array inside an array/, { path: '$.r.a[0]' })
    await rejects({ input: { r: { '@x': { y: 1 } } }, action: 'jsonToXml' }, 'INVALID_INPUT', /is an attribute, so it must be/)
    await rejects({ input: { r: 'bell\u0007' }, action: 'jsonToXml' }, 'INVALID_INPUT', /control character/)
    await rejects({ input: [1], action: 'jsonToXml' }, 'INVALID_INPUT', /must be a JSON object/)
    await expectRefusal(run({ input: { r: 1 } }), { code: 'VALIDATION_ERROR', field: 'input' })
  })

  test('round trip: JSON in the shape xmlToJson gives reads back the same, and the XML is well-formed', async () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/)
    // Text is trimmed when read, so values are written without edge spaces.
    const value = fc.stringMatching(/^[^\s\u0000-\u001f\ufffe\uffff]([^\u0000-\u001f\ufffe\uffff]{0,10}[^\s\u0000-\u001f\ufffe\uffff])?$/)
    const { element } = fc.letrec((tie) => ({
      element: fc.oneof(
        { maxDepth: 3 },
        value,
        fc
          .tuple(
            fc.dictionary(name, fc.oneof(tie('element'), fc.array(tie('element'), { minLength: 2, maxLength: 3 })), { minKeys: 1, maxKeys: 3 }),
            fc.dictionary(name, value, { maxKeys: 2 }),
          )
          .map(([children, attributes]) => ({ ...children, ...Object.fromEntries(Object.entries(attributes).map(([key, text]) => [`@${key}`, text])) })),
      ),
    }))
    await fc.assert(
      fc.asyncProperty(name, element, async (root, content) => {
        const json = { [root]: content }
        const xml = await toXml(json)
        assert.equal(XMLValidator.validate(xml), true, xml)
        assert.deepEqual(await toJson(xml), JSON.parse(JSON.stringify(json)), xml)
      }),
      { numRuns: 150 },
    )
  })

  test('output that would pass 16 MiB is refused before it is written', async () => {
    // Each of the 1,000 elements writes the 10,000-character name twice: 20 MB from 12 KB.
    const input = { r: { [`k${'n'.repeat(10_000)}`]: Array(1_000).fill(1) } }
    await rejects({ input, action: 'jsonToXml' }, 'LIMIT_EXCEEDED', /output limit/)
    input.r = { [`k${'n'.repeat(1_000)}`]: Array(1_000).fill(1) }
    assert.ok((await toXml(input)).length > 2_000_000, 'a tenth of it is fine')
  })

  test('large inputs run on a worker thread', () => {
    assert.ok(xmlJson.offload!(validate(xmlJson.input, { input: `<a>${'x'.repeat(XML_OFFLOAD_THRESHOLD)}</a>` })))
    assert.ok(!xmlJson.offload!(validate(xmlJson.input, { input: '<a/>' })))
  })
})
