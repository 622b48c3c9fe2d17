import { DecodingMode, encodeHTML, HtmlEntityDecoder } from 'entities'
import { replaceCodePoint } from 'entities/decode'
import { Type } from 'typebox'
import { invalidInput } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { utf8Length } from '../../lib/text/utf8-length.ts'

/**
 * Inputs longer than this run on a worker thread: encoding writes a reference of several characters
 * for most characters (every one, with scope all), which past this length holds the event loop for
 * tens of milliseconds (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 32 * 1024

type Scope = 'minimal' | 'nonAscii' | 'all'
type Format = 'named' | 'decimal' | 'hex'

/** `& < > " '`: what every scope encodes. */
const MARKUP = new Set([0x26, 0x3c, 0x3e, 0x22, 0x27])
const NAMED_REFERENCE = /^&[A-Za-z][A-Za-z0-9]*;$/
/** Every HTML5 name for a single code point lies in planes 0 and 1 (the tests check this against the full table). */
const NAMED_CODE_POINT_END = 0x20000

let namedReferences: Map<number, string> | undefined

/**
 * The named reference for each code point that has one, as `entities` writes it (`&amp;`, `&nbsp;`,
 * `&Afr;`). The package does not export its table, so its encoder is asked about every code point
 * once, on first use.
 */
function namedReferenceFor(codePoint: number): string | undefined {
  if (!namedReferences) {
    namedReferences = new Map()
    for (let candidate = 0; candidate < NAMED_CODE_POINT_END; candidate++) {
      if (candidate >= 0xd800 && candidate <= 0xdfff) continue
      const encoded = encodeHTML(String.fromCodePoint(candidate))
      if (NAMED_REFERENCE.test(encoded)) namedReferences.set(candidate, encoded)
    }
  }
  return namedReferences.get(codePoint)
}

function isAsciiAlphanumeric(codePoint: number): boolean {
  return (codePoint >= 0x30 && codePoint <= 0x39) || (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x61 && codePoint <= 0x7a)
}

function inScope(codePoint: number, scope: Scope): boolean {
  if (MARKUP.has(codePoint)) return true
  if (scope === 'minimal') return false
  // No single ASCII letter or digit has a name, so `all` is simply "everything but [A-Za-z0-9]".
  return scope === 'nonAscii' ? codePoint > 0x7f : !isAsciiAlphanumeric(codePoint)
}

/**
 * The reference that writes `codePoint`, or undefined to keep it as it is: U+0000 and the C1 controls
 * that HTML5 remaps (`&#128;` reads as €) cannot be written as any reference that decodes back to them.
 */
function referenceFor(codePoint: number, format: Format): string | undefined {
  if (replaceCodePoint(codePoint) !== codePoint) return undefined
  const named = format === 'named' ? namedReferenceFor(codePoint) : undefined
  if (named) return named
  return format === 'decimal' ? `&#${codePoint};` : `&#x${codePoint.toString(16)};`
}

/** Each character of `text` that is replaced: where it is, how many UTF-16 units it takes, and its reference. */
function* replacements(text: string, scope: Scope, format: Format): Generator<[index: number, width: number, reference: string]> {
  for (let i = 0; i < text.length; i++) {
    const codePoint = text.codePointAt(i)!
    const width = codePoint > 0xffff ? 2 : 1
    const reference = inScope(codePoint, scope) ? referenceFor(codePoint, format) : undefined
    if (reference !== undefined) yield [i, width, reference]
    i += width - 1
  }
}

export function encodeEntities(text: string, scope: Scope, format: Format): string {
  // `all` with names can grow a character thirtyfold (∳ is &CounterClockwiseContourIntegral;): size it first.
  let size = utf8Length(text)
  for (const [index, width, reference] of replacements(text, scope, format)) size += reference.length - utf8Length(text.slice(index, index + width))
  assertOutputWithinLimit(size)
  let result = ''
  let copied = 0
  for (const [index, width, reference] of replacements(text, scope, format)) {
    result += text.slice(copied, index) + reference
    copied = index + width
  }
  return result + text.slice(copied)
}

/**
 * Decodes character references as the HTML5 tokenizer does in text: named references (legacy ones
 * such as `&amp` and `&copy` also without `;`), decimal and hex references with the spec's
 * replacements. `strict` refuses any reference that lacks its `;`.
 */
export function decodeEntities(text: string, strict: boolean): string {
  let decoded = ''
  let missingSemicolon = false
  const decoder = new HtmlEntityDecoder(
    (codePoint) => {
      // Named values arrive one UTF-16 unit at a time, so an astral one comes as two halves that join up here.
      decoded += String.fromCodePoint(codePoint)
    },
    {
      missingSemicolonAfterCharacterReference: () => {
        missingSemicolon = true
      },
      absenceOfDigitsInNumericCharacterReference: () => {},
      validateNumericCharacterReference: () => {},
    },
  )
  let result = ''
  let copied = 0
  let ampersand = text.indexOf('&')
  while (ampersand >= 0) {
    decoded = ''
    missingSemicolon = false
    decoder.startEntity(DecodingMode.Legacy)
    let consumed = decoder.write(text, ampersand + 1)
    if (consumed < 0) consumed = decoder.end()
    if (consumed > 0) {
      if (strict && missingSemicolon) {
        const reference = text.slice(ampersand, ampersand + consumed)
        throw invalidInput(
          `The character reference ${reference} at position ${ampersand} has no closing semicolon; strict decoding accepts only references ending in ';' (${reference};)`,
          { position: ampersand, reference },
        )
      }
      result += text.slice(copied, ampersand) + decoded
      copied = ampersand + consumed
    }
    ampersand = text.indexOf('&', consumed > 0 ? copied : ampersand + 1)
  }
  return result + text.slice(copied)
}

export const htmlEntity = defineOperation({
  name: 'html-entity',
  category: 'encoders',
  summary: 'Encode text as HTML character references, or decode them',
  title: 'HTML entities',
  aliases: ['html escape', 'html unescape', 'html encode', 'html decode', 'character reference', 'ampersand', 'entities'],
  description:
    'Encodes text for HTML: `minimal` escapes `& < > " \'`, `nonAscii` also every non-ASCII character, `all` every character except the ASCII letters and digits. ' +
    '`format` `named` writes the HTML5 name where one exists (`&eacute;`) and a lower-case hex reference (`&#x1f600;`) otherwise; `decimal` and `hex` write only numeric references. ' +
    'Each character is encoded on its own: the few HTML5 names for two-character sequences (such as `&fjlig;`) are never used. ' +
    'U+0000 and the C1 controls that HTML5 reads as other characters (`&#128;` is €) are left as they are, since no reference decodes back to them. ' +
    "Decoding follows the HTML5 tokenizer for text: all 2,231 named references, decimal and hex references (astral ones too), the spec's replacements " +
    '(`&#0;` and out-of-range references become U+FFFD, `&#128;`–`&#159;` map as Windows-1252), and the legacy names that work without `;` (`&amp`, `&copy`…). ' +
    'Text that is not a reference (`&foo;`, a bare `&`) is kept as it is. `strict` refuses any reference without its `;`, naming its position (UTF-16 code units).',
  input: Type.Object(
    {
      input: Type.String({
        description: 'The text to encode, or the HTML text whose character references to decode. May be empty.',
        examples: ['<p>Café & crème</p>'],
      }),
      action: withDefault(
        Type.Enum(['encode', 'decode'], { description: 'Encode `input` as character references, or decode the references in it.' }),
        'encode',
      ),
      scope: withDefault(
        Type.Enum(['minimal', 'nonAscii', 'all'], {
          description:
            'When encoding, which characters to replace: `minimal` only `& < > " \'`; `nonAscii` those and every non-ASCII character; `all` every character except ASCII letters and digits.',
        }),
        'minimal',
      ),
      format: withDefault(
        Type.Enum(['named', 'decimal', 'hex'], {
          description:
            'When encoding, how to write a reference: `named` uses the HTML5 name (`&lt;`) and falls back to lower-case hex (`&#x1f600;`) where there is none; `decimal` writes `&#60;`; `hex` writes `&#x3c;`.',
        }),
        'named',
      ),
      strict: withDefault(
        Type.Boolean({
          description:
            'When decoding, refuse (422, with the position) any character reference without its closing `;`, such as the legacy `&amp` or `&#65`, instead of decoding it as HTML5 text does.',
        }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The encoded text (encode) or the decoded text (decode).' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
  }),
  actions: {
    encode: { fields: ['input', 'scope', 'format'] },
    decode: { fields: ['input', 'strict'] },
  },
  examples: [
    {
      summary: 'Escape markup (minimal scope)',
      input: { input: `<a title="Tom's">Tom & Jerry</a>` },
      output: { result: '&lt;a title=&quot;Tom&apos;s&quot;&gt;Tom &amp; Jerry&lt;/a&gt;', action: 'encode' },
    },
    {
      summary: 'Named references for non-ASCII text, hex where HTML5 has no name',
      input: { input: 'café – 😀', scope: 'nonAscii' },
      output: { result: 'caf&eacute; &ndash; &#x1f600;', action: 'encode' },
    },
    {
      summary: 'Every character but letters and digits, in decimal',
      input: { input: 'a b<1', scope: 'all', format: 'decimal' },
      output: { result: 'a&#32;b&#60;1', action: 'encode' },
    },
    {
      summary: 'Decode named, legacy, decimal and astral hex references',
      input: { input: '&lt;p&gt;&copy 2024 &#8212; &#x1F600; &amp;', action: 'decode' },
      output: { result: '<p>© 2024 — 😀 &', action: 'decode' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  runsInBrowser: true,
  run({ input, action, scope, format, strict }) {
    return { result: action === 'encode' ? encodeEntities(input, scope, format) : decodeEntities(input, strict), action }
  },
})
