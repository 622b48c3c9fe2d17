import { Type } from 'typebox'
import { invalidInput } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { firstInvalidUtf8Offset } from '../../lib/bytes/encodings.ts'

/**
 * Inputs longer than this run on a worker thread: percent-encoding is linear (nine characters for
 * each three-byte character), but a longer input would hold the event loop for tens of milliseconds
 * (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

type Scope = 'component' | 'uri'

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'
const RESERVED = ":/?#[]@!$&'()*+,;="
const PERCENT = 0x25
const PLUS = 0x2b
const SPACE = 0x20
const HEX_DIGITS = Buffer.from('0123456789ABCDEF', 'latin1')

function byteSet(chars: string): Uint8Array {
  const set = new Uint8Array(256)
  for (const char of chars) set[char.charCodeAt(0)] = 1
  return set
}

/** Bytes written as they are when encoding, per scope. */
const KEPT: Record<Scope, Uint8Array> = { component: byteSet(UNRESERVED), uri: byteSet(UNRESERVED + RESERVED) }
/** Bytes whose escapes decoding in `uri` scope leaves alone, as decodeURI does, so the URI keeps its structure. */
const RESERVED_BYTES = byteSet(RESERVED)

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  const lower = code | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1
}

/** The byte written by a valid `%XX` at `at`, or -1. */
function escapedByte(bytes: Uint8Array, at: number): number {
  if (at + 2 >= bytes.length) return -1
  const high = hexValue(bytes[at + 1])
  const low = hexValue(bytes[at + 2])
  return high < 0 || low < 0 ? -1 : (high << 4) | low
}

export function percentEncode(text: string, scope: Scope, spaceAsPlus: boolean): string {
  const bytes = Buffer.from(text, 'utf8')
  const kept = KEPT[scope]
  // In `uri` scope an existing valid %XX is kept, so its '%' is written as it is.
  const keeps = (i: number) => kept[bytes[i]] === 1 || (scope === 'uri' && bytes[i] === PERCENT && escapedByte(bytes, i) >= 0)
  let length = 0
  for (let i = 0; i < bytes.length; i++) length += keeps(i) || (spaceAsPlus && bytes[i] === SPACE) ? 1 : 3
  assertOutputWithinLimit(length)
  const out = Buffer.allocUnsafe(length)
  let o = 0
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]
    if (spaceAsPlus && byte === SPACE) out[o++] = PLUS
    else if (keeps(i)) out[o++] = byte
    else {
      out[o++] = PERCENT
      out[o++] = HEX_DIGITS[byte >> 4]
      out[o++] = HEX_DIGITS[byte & 15]
    }
  }
  return out.toString('latin1')
}

/**
 * Reverses percent-encoding, working on the UTF-8 bytes of `text`. Each run of consecutive escapes is
 * checked as UTF-8 on its own (literal characters are whole characters, so no sequence can span
 * one), and a bad sequence is reported at the escape where it starts.
 */
export function percentDecode(text: string, scope: Scope, plusAsSpace: boolean): string {
  const input = Buffer.from(text, 'utf8')
  // Positions in errors index the text as sent; the bytes before `offset` are whole characters.
  const positionOf = (offset: number) => input.toString('utf8', 0, offset).length
  const out = Buffer.allocUnsafe(input.length)
  let o = 0
  let runStart = -1
  let runOut = 0
  const endRun = () => {
    if (runStart < 0) return
    const bad = firstInvalidUtf8Offset(out.subarray(runOut, o))
    if (bad >= 0) {
      const position = positionOf(runStart + bad * 3)
      throw invalidInput(
        `the percent-encoded bytes at position ${position} (${text.slice(position, position + 3)}…) are not valid UTF-8; only percent-encoded UTF-8 text can be decoded`,
        { position },
      )
    }
    runStart = -1
  }
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]
    if (byte === PERCENT) {
      const decoded = escapedByte(input, i)
      if (decoded < 0) {
        const position = positionOf(i)
        throw invalidInput(`'%' at position ${position} does not start a valid escape; '%' must be followed by two hex digits (a literal % is written %25)`, {
          position,
        })
      }
      if (scope === 'uri' && RESERVED_BYTES[decoded] === 1) {
        endRun()
        input.copy(out, o, i, i + 3)
        o += 3
      } else {
        if (runStart < 0) [runStart, runOut] = [i, o]
        out[o++] = decoded
      }
      i += 2
      continue
    }
    endRun()
    out[o++] = plusAsSpace && byte === PLUS ? SPACE : byte
  }
  endRun()
  return out.toString('utf8', 0, o)
}

export const url = defineOperation({
  name: 'url',
  category: 'encoders',
  runsInBrowser: true,
  summary: 'Percent-encode text for a URL component or a whole URI, or decode it',
  title: 'URL encode and decode',
  aliases: ['urlencode', 'urldecode', 'percent encoding', 'encodeuricomponent', 'query string', 'uri'],
  description:
    'Percent-encodes the UTF-8 bytes of `input` (RFC 3986 §2.1) with upper-case hex digits. In `component` scope every byte except the unreserved characters ' +
    "`A–Z a–z 0–9 - . _ ~` is encoded: a space becomes %20 and `!` becomes %21 (unlike JavaScript's encodeURIComponent, `!'()*` are encoded too). " +
    "In `uri` scope the reserved characters `:/?#[]@!$&'()*+,;=` and existing valid `%XX` escapes are kept as they are, so a whole URI stays usable. " +
    '`spaceAsPlus` writes a space as `+` (HTML form encoding). Decoding reverses it: in `component` scope every escape is decoded, in `uri` scope escapes of reserved characters ' +
    '(such as %2F) are left as they are, like decodeURI; `plusAsSpace` reads `+` as a space. A malformed escape (`%`, `%4`, `%zz`) or escaped bytes that are not UTF-8 are a 422 naming the position.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to encode, or the percent-encoded text to decode. May be empty.', examples: ['hello world!'] }),
      action: withDefault(Type.Enum(['encode', 'decode'], { description: 'Percent-encode `input`, or decode percent-encoding in `input`.' }), 'encode'),
      scope: withDefault(
        Type.Enum(['component', 'uri'], {
          description:
            "`component`: encode everything but the unreserved characters `A–Z a–z 0–9 - . _ ~` (a query value, a path segment). `uri`: also keep the reserved characters `:/?#[]@!$&'()*+,;=` and existing `%XX` escapes (a whole URI); when decoding, leave escapes of reserved characters encoded.",
        }),
        'component',
      ),
      spaceAsPlus: withDefault(
        Type.Boolean({
          description:
            'When encoding: write a space as `+` instead of %20 (application/x-www-form-urlencoded). A literal `+` is then written %2B in `component` scope.',
        }),
        false,
      ),
      plusAsSpace: withDefault(
        Type.Boolean({ description: 'When decoding: read `+` as a space (application/x-www-form-urlencoded); %2B still decodes to `+`.' }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The percent-encoded text (encode) or the decoded text (decode).' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
  }),
  actions: {
    encode: { fields: ['input', 'scope', 'spaceAsPlus'] },
    decode: { fields: ['input', 'scope', 'plusAsSpace'] },
  },
  examples: [
    { summary: 'Encode a component: a space is %20 and ! is %21', input: { input: 'hello world!' }, output: { result: 'hello%20world%21', action: 'encode' } },
    { summary: 'Decode', input: { input: 'caf%C3%A9%20%F0%9F%8E%89', action: 'decode' }, output: { result: 'café 🎉', action: 'decode' } },
    {
      summary: 'Encode a whole URI',
      input: { input: 'https://example.com/a b?q=1&r=ü#top', scope: 'uri' },
      output: { result: 'https://example.com/a%20b?q=1&r=%C3%BC#top', action: 'encode' },
    },
    { summary: 'Form encoding', input: { input: 'a+b c', spaceAsPlus: true }, output: { result: 'a%2Bb+c', action: 'encode' } },
    {
      summary: 'Decode a URI, keeping its structure',
      input: { input: 'https://x.org/a%2Fb?q=%C3%BC%26', action: 'decode', scope: 'uri' },
      output: { result: 'https://x.org/a%2Fb?q=ü%26', action: 'decode' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  run({ input, action, scope, spaceAsPlus, plusAsSpace }) {
    const result = action === 'encode' ? percentEncode(input, scope, spaceAsPlus) : percentDecode(input, scope, plusAsSpace)
    return { result, action }
  },
})
