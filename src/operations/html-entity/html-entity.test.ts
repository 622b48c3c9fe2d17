import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { DecodingMode, decodeHTML } from 'entities'
import fc from 'fast-check'
import { type ExpectedRefusal, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { htmlEntity, OFFLOAD_LENGTH } from './index.ts'

const run = (input: Record<string, unknown>) => execute(htmlEntity, input)
const encode = async (input: string, scope = 'minimal', format = 'named') => (await run({ input, scope, format })).result as string
const decode = async (input: string, strict = false) => (await run({ input, action: 'decode', strict })).result as string
const rejects = (input: Record<string, unknown>, code: string, expected: ExpectedRefusal = {}) => expectRefusal(run(input), { code, ...expected })

interface NamedReference {
  name: string
  value: string
  /** One of the names HTML5 also reads without `;` in text. */
  legacy: boolean
}

/**
 * The full HTML5 named-reference table as `entities` ships it (it does not export it): a list of
 * front-coded names with, per name, two metadata characters (shared-prefix length, legacy flag,
 * suffix length, value length) and the values concatenated in a second string.
 */
async function loadNamedReferences(): Promise<NamedReference[]> {
  const url = new URL('./generated/decode-data-html.js', import.meta.resolve('entities'))
  const { htmlDecodeData } = (await import(url.href)) as { htmlDecodeData: [string, string] }
  const [data, values] = htmlDecodeData
  const header = (at: number) => ((data.charCodeAt(at) - 0x30) << 6) | (data.charCodeAt(at + 1) - 0x30)
  const count = header(0)
  const metaStart = 6 + header(2)
  const table: NamedReference[] = []
  let name = ''
  let suffixAt = 6
  let valueAt = 0
  for (let index = 0; index < count; index++) {
    const meta0 = data.charCodeAt(metaStart + 2 * index) - 0x23
    const meta1 = data.charCodeAt(metaStart + 2 * index + 1) - 0x23
    const prefix = meta0 & 31
    const suffix = meta1 & 31
    name = name.slice(0, prefix) + data.slice(suffixAt, suffixAt + suffix)
    suffixAt += suffix
    const valueLength = (meta1 >> 5) + 1
    table.push({ name, value: values.slice(valueAt, valueAt + valueLength), legacy: (meta0 & 0x20) !== 0 })
    valueAt += valueLength
  }
  return table
}

const TABLE = await loadNamedReferences()
const SCOPES = ['minimal', 'nonAscii', 'all'] as const
const FORMATS = ['named', 'decimal', 'hex'] as const

describe('html-entity', () => {
  test('the shipped table is the whole HTML5 list: 2,231 references, 106 of them legacy names without ;', () => {
    assert.equal(TABLE.length, 2125)
    assert.equal(TABLE.filter((entry) => entry.legacy).length, 106)
    assert.equal(new Set(TABLE.map((entry) => entry.name)).size, 2125)
    assert.deepEqual(
      TABLE.find((entry) => entry.name === 'amp'),
      { name: 'amp', value: '&', legacy: true },
    )
    assert.deepEqual(
      TABLE.find((entry) => entry.name === 'NotEqualTilde'),
      { name: 'NotEqualTilde', value: '\u2242\u0338', legacy: false },
    )
    assert.deepEqual(
      TABLE.find((entry) => entry.name === 'Afr'),
      { name: 'Afr', value: '\u{1D504}', legacy: false },
    )
  })

  test('every named reference decodes to its characters, leniently and strictly', async () => {
    const text = TABLE.map((entry) => `[&${entry.name};]`).join('')
    const expected = TABLE.map((entry) => `[${entry.value}]`).join('')
    assert.equal(await decode(text), expected)
    assert.equal(await decode(text, true), expected)
  })

  test('every referenced value survives encode then decode in every scope and format', async () => {
    const text = TABLE.map((entry) => entry.value).join('|')
    for (const scope of SCOPES) {
      for (const format of FORMATS) assert.equal(await decode(await encode(text, scope, format), true), text, `${scope}/${format}`)
    }
  })

  test('every character with a name is written by a name that decodes back to it', async () => {
    const single = TABLE.filter((entry) => [...entry.value].length === 1)
    for (const { value } of single) {
      const reference = await encode(value, 'all', 'named')
      assert.match(reference, /^&[A-Za-z][A-Za-z0-9]*;$/, `U+${value.codePointAt(0)!.toString(16)} is written by name`)
      assert.equal(await decode(reference), value)
    }
  })

  test('the legacy names decode without ; in text, the others do not', async () => {
    for (const { name, value, legacy } of TABLE) {
      const decoded = await decode(`x&${name} y`)
      if (legacy) assert.equal(decoded, `x${value} y`, name)
      else assert.notEqual(decoded, `x${value} y`, name)
    }
    assert.equal(await decode('&copy 2024 &amp &lt&gt'), '© 2024 & <>')
    assert.equal(await decode('&notin; &notit; &ampx'), '∉ ¬it; &x')
  })

  test('strict decoding refuses a reference without ; and names its position', async () => {
    await rejects({ input: 'a &copy b', action: 'decode', strict: true }, 'INVALID_INPUT', {
      position: 2,
      message: /&copy at position 2 has no closing semicolon/,
    })
    await rejects({ input: '&amp;&lt;&notit;', action: 'decode', strict: true }, 'INVALID_INPUT', { position: 9, details: { reference: '&not' } })
    await rejects({ input: 'x&#65y', action: 'decode', strict: true }, 'INVALID_INPUT', { position: 1, details: { reference: '&#65' } })
    await rejects({ input: 'end &#x41', action: 'decode', strict: true }, 'INVALID_INPUT', { position: 4 })
    await rejects({ input: 'end &amp', action: 'decode', strict: true }, 'INVALID_INPUT', { position: 4 })
    assert.equal(await decode('&amp; &foo; & &#; &#x;', true), '& &foo; & &#; &#x;')
  })

  test('decimal, hex and astral references, with the spec replacements', async () => {
    assert.equal(await decode('&#65;&#x41;&#X41;&#x0041;&#128512;&#x1F600;&#x1f600;'), 'AAAA😀😀😀')
    assert.equal(await decode('&#65x &#x42 &#67'), 'Ax B C')
    // HTML5 §13.2.5.80: NUL, surrogates and values past U+10FFFF become U+FFFD; C1 values map as Windows-1252.
    assert.equal(await decode('&#0;&#xD800;&#x110000;&#99999999999999999999;'), '\uFFFD'.repeat(4))
    assert.equal(await decode('&#128;&#x80;&#150;&#x9F;'), '€€–Ÿ')
    assert.equal(await decode('&#129;&#x8D;&#13;&#xFFFF;'), '\u0081\u008D\r\uFFFF')
  })

  test('text that is no reference is kept', async () => {
    for (const text of ['&', '&&', '& ;', '&#;', '&#x;', '&#xg;', '&foo;', '&unknownname', 'a&b']) assert.equal(await decode(text), text)
  })

  test('the decoder agrees with entities.decodeHTML on arbitrary HTML-ish text', async () => {
    const fragment = fc.constantFrom('&', '#', 'x', 'X', ';', '0', '9', 'a', 'f', 'amp', 'not', 'in', 'copy', 'lt', 'D835', '1F600', ' ', '=', 'é')
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { maxLength: 30 }), async (parts) => {
        const text = parts.join('')
        assert.equal(await decode(text), decodeHTML(text, DecodingMode.Legacy))
      }),
      { numRuns: 500 },
    )
  })

  test('minimal scope escapes & < > " \' in each format', async () => {
    const markup = `&<>"'`
    assert.equal(await encode(markup), '&amp;&lt;&gt;&quot;&apos;')
    assert.equal(await encode(markup, 'minimal', 'decimal'), '&#38;&#60;&#62;&#34;&#39;')
    assert.equal(await encode(markup, 'minimal', 'hex'), '&#x26;&#x3c;&#x3e;&#x22;&#x27;')
    assert.equal(await encode('café 😀 a=b'), 'café 😀 a=b')
  })

  test('nonAscii scope also writes every non-ASCII character, one reference per code point', async () => {
    assert.equal(await encode('é€😀𝔄 ok', 'nonAscii'), '&eacute;&euro;&#x1f600;&Afr; ok')
    assert.equal(await encode('é😀', 'nonAscii', 'decimal'), '&#233;&#128512;')
    assert.equal(await encode('é😀', 'nonAscii', 'hex'), '&#xe9;&#x1f600;')
  })

  test('all scope writes everything but ASCII letters and digits', async () => {
    assert.equal(await encode('a b\t1.', 'all'), 'a&#x20;b&Tab;1&period;')
    assert.equal(await encode('a b', 'all', 'decimal'), 'a&#32;b')
    assert.equal(await encode('fj', 'all'), 'fj')
  })

  test('U+0000 and the C1 controls HTML5 remaps stay as they are; the others are encoded', async () => {
    for (const format of FORMATS) assert.equal(await encode('\u0000\u0080\u009f', 'all', format), '\u0000\u0080\u009f')
    assert.equal(await encode('\u0081\u009d', 'nonAscii'), '&#x81;&#x9d;')
  })

  test('output that would pass the limit is refused before it is built', async () => {
    const newlines = '\n'.repeat(Math.ceil(OUTPUT_LIMIT_BYTES / '&NewLine;'.length) + 1)
    await rejects({ input: newlines, scope: 'all' }, 'LIMIT_EXCEEDED', { check: (error) => Number(error.details?.predicted) > OUTPUT_LIMIT_BYTES })
    assert.equal((await encode(newlines.slice(0, 1000), 'all', 'decimal')).length, 5000)
  })

  test('schema violations are 400s', async () => {
    await rejects({ input: 'x', scope: 'everything' }, 'VALIDATION_ERROR')
    await rejects({ input: 'x', format: 'octal' }, 'VALIDATION_ERROR')
    await rejects({ input: 'x', strict: 'yes' }, 'VALIDATION_ERROR')
    await rejects({ input: 1 }, 'VALIDATION_ERROR')
  })

  test('answers result, then action', async () => {
    assert.deepEqual(await run({ input: '<' }), { result: '&lt;', action: 'encode' })
    assert.deepEqual(Object.keys(await run({ input: '&lt;', action: 'decode' })), ['result', 'action'])
  })

  test('round trip: any text survives encode then strict decode, in every scope and format', async () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc
        .array(fc.constantFrom('&', '<', '>', '"', "'", '#', ';', 'amp', 'x', '1', ' ', '\n', '\u0000', '\u0080', 'é', '😀'), { maxLength: 20 })
        .map((parts) => parts.join('')),
    )
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom(...SCOPES), fc.constantFrom(...FORMATS), async (input, scope, format) => {
        assert.equal(await decode(await encode(input, scope, format), true), input)
      }),
      { numRuns: 200 },
    )
  })
})

describe('html-entity: where it runs', () => {
  test(`inputs over ${OFFLOAD_LENGTH} characters run on a worker thread`, () => {
    const offloads = (input: string) => htmlEntity.offload!(validate(htmlEntity.input, { input }))
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH)), false)
    assert.equal(offloads('x'.repeat(OFFLOAD_LENGTH + 1)), true)
  })

  test('a large input gives the same answer on a worker thread as in process', async () => {
    const fields = { input: '<p>Café & crème 🎉</p>\n'.repeat(2000), scope: 'all' }
    assert.equal(htmlEntity.offload!(validate(htmlEntity.input, fields)), true)
    assert.deepEqual(await execute(htmlEntity, fields, { timeBudgetMs: 60_000 }), await htmlEntity.run(validate(htmlEntity.input, fields)))
  })

  after(() => closeWorkerPool())
})
