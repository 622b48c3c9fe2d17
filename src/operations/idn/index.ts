/// <reference path="../../types/tr46-internals.d.ts" />
import { type Static, Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { invalidInput } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, type OperationInput, withDefault } from '../../core/operation.ts'
import { showCharacter } from '../../lib/text/charsets.ts'

const ACTIONS = ['toAscii', 'toUnicode', 'encode', 'decode'] as const
const ERROR_CODES = ['disallowed', 'combiningMark', 'punycode', 'hyphens', 'std3', 'joiners', 'bidi', 'dnsLength'] as const
type ErrorCode = (typeof ERROR_CODES)[number]

/**
 * The engines, loaded with the first call (see lazily): tr46 carries a mapping table of the whole of
 * Unicode. tr46 answers only whether a name fails; to say which rule a label breaks, the checks are
 * run again one at a time, and whether the Bidi rule applies at all (a name with right-to-left
 * characters) and whether a label starts with a combining mark are read from tr46's own Unicode
 * property tables (lib/regexes.js, which it ships but does not document), so that they are of the
 * same Unicode version as its mapping; JavaScript has no Bidi_Class property escape. The version is
 * pinned, and the tests fail if those tables change shape.
 */
const engines = lazily(async () => {
  const [punycode, tr46, regexes] = await Promise.all([import('punycode/punycode.js'), import('tr46'), import('tr46/lib/regexes.js')])
  return {
    punycode: commonJsExports(punycode) as unknown as Pick<typeof import('punycode/punycode.js'), 'encode' | 'decode'>,
    tr46: commonJsExports(tr46),
    regexes: commonJsExports(regexes),
  }
})
type Engines = Awaited<ReturnType<typeof engines>>

/** The four characters UTS #46 maps to a label separator: FULL STOP, IDEOGRAPHIC FULL STOP, FULLWIDTH FULL STOP, HALFWIDTH IDEOGRAPHIC FULL STOP. */
const SEPARATOR = /[.\u3002\uFF0E\uFF61]/
const MAX_LABEL = 63
/** Names longer than this run on the worker pool. */
export const OFFLOAD_LENGTH = 256
const MAX_NAME = 253
/** The largest integer RFC 3492's decoder may hold (punycode.js's maxInt). */
const MAX_INT = 0x7fffffff
/** An RTL label valid under every flag: appended to a label checked alone, it keeps the Bidi rule on when the whole name is a Bidi domain name. */
const RTL_LABEL = '\u05D0'

const labelSchema = Type.Object(
  {
    input: Type.String({ description: 'The label as given, between separators (`.`, `。`, `．`, `｡`).' }),
    ascii: Type.Union([Type.String(), Type.Null()], {
      description: 'Its ASCII form: the A-label (`xn--…`) of a label with non-ASCII characters; null when it has no Punycode encoding (too long).',
    }),
    unicode: Type.String({ description: 'Its Unicode form, mapped (lower-cased, width-folded, normalized to NFC) and with an `xn--` label decoded.' }),
  },
  { description: 'One label of the name.' },
)

const errorSchema = Type.Object(
  {
    code: Type.Enum(ERROR_CODES, {
      description:
        'What is wrong: `disallowed` (a character UTS #46 refuses), `combiningMark` (a label starts with one), `punycode` (an `xn--` label that is not valid Punycode or decodes to a label that is not valid), `hyphens` (checkHyphens), `std3` (useStd3AsciiRules), `joiners` (checkJoiners: ZWJ/ZWNJ out of context, RFC 5892), `bidi` (checkBidi, RFC 5893), `dnsLength` (verifyDnsLength: an empty label, a label over 63 or a name over 253 characters).',
    }),
    label: Type.Union([Type.Integer(), Type.Null()], { description: 'The index of the label (from 0); null for an error of the whole name.' }),
    position: Type.Integer({ description: 'Where in `input` (a UTF-16 index): the character at fault, or the start of the label.' }),
    message: Type.String({ description: 'What is wrong, in a sentence.' }),
  },
  { description: 'One error, as UTS #46 processing finds it.' },
)
type IdnError = Static<typeof errorSchema>
type Label = Static<typeof labelSchema>

const input = Type.Object(
  {
    input: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'The domain name (or, for encode and decode, any text): `bücher.example`, `xn--bcher-kva.example`.',
    }),
    action: withDefault(
      Type.Enum(ACTIONS, {
        description:
          '`toAscii`: UTS #46 ToASCII, a name as DNS carries it (A-labels); `toUnicode`: UTS #46 ToUnicode, a name as people read it; `encode` / `decode`: raw Punycode (RFC 3492) of the whole text, with no mapping and no splitting into labels.',
      }),
      'toAscii',
    ),
    transitional: withDefault(
      Type.Boolean({
        description:
          'Transitional processing (IDNA2003 compatibility, deprecated): maps ß, ς, ZWJ and ZWNJ away (`faß.de` → `fass.de`). Off, as browsers do: ß stays ß (`xn--fa-hia.de`).',
      }),
      false,
    ),
    useStd3AsciiRules: withDefault(
      Type.Boolean({ description: 'Allow only a-z, 0-9 and - among ASCII characters (STD 3 host names): refuses `_`, spaces and other symbols.' }),
      true,
    ),
    checkHyphens: withDefault(
      Type.Boolean({
        description: 'Refuse a label that starts or ends with `-`, or has `--` in its third and fourth places (other than a valid `xn--` label).',
      }),
      true,
    ),
    checkBidi: withDefault(Type.Boolean({ description: 'Apply the Bidi rule of RFC 5893 to names with right-to-left characters.' }), true),
    checkJoiners: withDefault(Type.Boolean({ description: 'Apply the ContextJ rules of RFC 5892 to ZERO WIDTH JOINER and NON-JOINER.' }), true),
    verifyDnsLength: withDefault(
      Type.Boolean({
        description:
          'Refuse an empty label and a name whose ASCII form has a label over 63 or a total over 253 characters. A trailing root dot (`example.com.`) is an empty label, and so an error under this flag, as UTS #46 says.',
      }),
      true,
    ),
    ignoreInvalidPunycode: withDefault(Type.Boolean({ description: 'Keep an `xn--` label that is not valid Punycode as it is rather than report it.' }), false),
  },
  { additionalProperties: false },
)

const output = Type.Object({
  result: Type.String({ description: 'The converted name or text.' }),
  action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  labels: Type.Optional(Type.Array(labelSchema, { description: 'toAscii and toUnicode: each label, in its given, ASCII and Unicode forms.' })),
  errors: Type.Optional(
    Type.Array(errorSchema, {
      description: 'toUnicode only: what UTS #46 found wrong, beside a result it always gives (toAscii refuses such a name with a 422 instead).',
    }),
  ),
  valid: Type.Boolean({ description: 'Whether the name passed every check asked for; always true for toAscii, encode and decode, which refuse what fails.' }),
})

type Input = OperationInput<typeof input>
type Flags = Pick<Input, 'transitional' | 'useStd3AsciiRules' | 'checkHyphens' | 'checkBidi' | 'checkJoiners' | 'verifyDnsLength' | 'ignoreInvalidPunycode'>

const hasNonAscii = (text: string) => /[^\x00-\x7F]/.test(text)
const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)

/** The labels of the given text, with where each starts in it. */
function splitLabels(text: string): Array<{ text: string; start: number }> {
  const labels: Array<{ text: string; start: number }> = []
  let start = 0
  for (const part of text.split(SEPARATOR)) {
    labels.push({ text: part, start })
    start += part.length + 1
  }
  return labels
}

/**
 * Why a Punycode string does not decode, and where: RFC 3492 section 6.2's decoder, run only to
 * explain a failure of punycode.js (whose errors carry no position), reading the text as it does.
 */
export function punycodeFault(text: string): { position: number; reason: string } | undefined {
  const base = 36
  const delimiter = Math.max(text.lastIndexOf('-'), 0)
  for (let index = 0; index < delimiter; index++) {
    if (text.charCodeAt(index) >= 0x80) return { position: index, reason: `${showCharacter(String.fromCodePoint(text.codePointAt(index)!))} is not ASCII` }
  }
  let n = 128
  let i = 0
  let bias = 72
  let count = delimiter
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < text.length; ) {
    const start = index
    const oldI = i
    let w = 1
    for (let k = base; ; k += base) {
      if (index >= text.length) return { position: text.length, reason: 'it ends in the middle of a number' }
      const code = text.charCodeAt(index)
      const digit = code >= 0x30 && code <= 0x39 ? code - 22 : code >= 0x41 && code <= 0x5a ? code - 0x41 : code >= 0x61 && code <= 0x7a ? code - 0x61 : base
      if (digit >= base) {
        return { position: index, reason: `${showCharacter(String.fromCodePoint(text.codePointAt(index)!))} is not a Punycode digit (a-z, 0-9)` }
      }
      index++
      if (digit > Math.floor((MAX_INT - i) / w)) return { position: start, reason: 'a number overflows' }
      i += digit * w
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias
      if (digit < t) break
      if (w > Math.floor(MAX_INT / (base - t))) return { position: start, reason: 'a number overflows' }
      w *= base - t
    }
    count++
    bias = adapt(i - oldI, count, oldI === 0)
    if (Math.floor(i / count) > MAX_INT - n) return { position: start, reason: 'a number overflows' }
    n += Math.floor(i / count)
    i %= count
    if (n > 0x10ffff) return { position: start, reason: `it decodes to U+${n.toString(16).toUpperCase()}, beyond U+10FFFF` }
    if (n >= 0xd800 && n <= 0xdfff) return { position: start, reason: `it decodes to U+${n.toString(16).toUpperCase()}, a surrogate, which is not a character` }
    i++
  }
  return undefined
}

/** RFC 3492 section 6.1's bias adaptation. */
function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / 700) : delta >> 1
  d += Math.floor(d / points)
  let k = 0
  while (d > 455) {
    d = Math.floor(d / 35)
    k += 36
  }
  return k + Math.floor((36 * d) / (d + 38))
}

/** The A-label of a Unicode label, or null when Punycode cannot encode it (overflow). */
function asciiOf(punycode: Engines['punycode'], label: string): string | null {
  if (!hasNonAscii(label)) return label
  try {
    return `xn--${punycode.encode(label)}`
  } catch {
    return null
  }
}

/**
 * Every error of the name, label by label. tr46 answers only whether the whole name failed, so each
 * label is run on its own, with no check and then with one check at a time; the Bidi rule, which
 * depends on the whole name, is kept on for a label by appending an RTL label when the name is a
 * Bidi domain name.
 */
function findErrors(engines: Engines, text: string, flags: Flags, toAscii: boolean): IdnError[] {
  const { tr46, punycode, regexes } = engines
  const base = { transitionalProcessing: flags.transitional, ignoreInvalidPunycode: flags.ignoreInvalidPunycode }
  const unicode = tr46.toUnicode(text, base).domain
  const bidiName = regexes.bidiDomain.test(unicode)
  const unicodeLabels = unicode.split('.')
  const errors: IdnError[] = []
  const ascii: string[] = []
  const labels = splitLabels(text)
  labels.forEach(({ text: label, start }, index) => {
    const decoded = unicodeLabels[index] ?? ''
    const encoded = asciiOf(punycode, decoded)
    ascii.push(encoded ?? '')
    const context: LabelContext = {
      engines,
      base,
      flags,
      label,
      start,
      name: `label ${index} (${quote(label)})`,
      mapped: tr46.toUnicode(`0${label}`, base).domain.slice(1),
      decoded,
      add: (code, message, position = start) => errors.push({ code, label: index, position, message }),
    }
    if (toAscii && encoded === null) {
      context.add('punycode', `${context.name} is too long for Punycode to encode: its numbers overflow the 32-bit integers RFC 3492 uses`)
      return
    }
    if (aLabelError(context) || validityError(context)) return
    optionErrors(context, bidiName)
  })
  if (flags.verifyDnsLength) errors.push(...(toAscii ? asciiLengthErrors(labels, ascii) : emptyLabelErrors(labels, unicodeLabels)))
  errors.sort((a, b) => (a.label ?? Number.MAX_SAFE_INTEGER) - (b.label ?? Number.MAX_SAFE_INTEGER))
  return errors
}

/** One label being checked: as written, as tr46 maps it, as ToUnicode decodes it, and where its errors go. */
interface LabelContext {
  engines: Engines
  base: { transitionalProcessing: boolean; ignoreInvalidPunycode: boolean }
  flags: Flags
  label: string
  start: number
  /** The label as messages name it: its index and its text. */
  name: string
  mapped: string
  decoded: string
  add(code: ErrorCode, message: string, position?: number): void
}

/** The first code point of `label` that tr46 refuses with `options`, with its position in the name. */
function firstRefused({ engines, base }: LabelContext, label: string, start: number, options: object) {
  for (let index = 0; index < label.length; ) {
    const character = String.fromCodePoint(label.codePointAt(index)!)
    // A code point alone, after '0' (which composes with nothing and is allowed everywhere), fails only for itself.
    if (engines.tr46.toUnicode(`0${character}`, { ...base, ...options }).error) return { character, position: start + index }
    index += character.length
  }
  return undefined
}

/** An xn-- label that is no valid A-label: non-ASCII after the prefix, Punycode that does not decode, or decodes to ASCII only. True when it failed. */
function aLabelError(context: LabelContext): boolean {
  const { engines, flags, label, start, name, mapped, add } = context
  if (!mapped.startsWith('xn--')) return false
  const digits = mapped.slice(4)
  if (hasNonAscii(digits)) {
    add('punycode', `${name} starts with xn-- but holds non-ASCII characters, so it is neither an A-label nor a Unicode label`)
    return true
  }
  let value: string | undefined
  try {
    value = engines.punycode.decode(digits)
  } catch {
    value = undefined
  }
  const fault = value === undefined || /\p{Cs}/u.test(value) ? punycodeFault(digits) : undefined
  if (value === undefined || fault) {
    if (flags.ignoreInvalidPunycode) return false
    const where = fault ? `: ${fault.reason}` : ''
    add('punycode', `${name} is not valid Punycode after its xn-- prefix${where}`, fault && mapped === label ? start + 4 + fault.position : start)
    return true
  }
  if (value === '' || !hasNonAscii(value)) {
    add('punycode', `${name} is an xn-- label that decodes to ${value === '' ? 'nothing' : 'ASCII only'}, which no valid A-label does`)
    return true
  }
  return false
}

/** A label UTS #46 refuses whatever the options: a disallowed character, a leading combining mark, an invalid decoded A-label. True when it failed. */
function validityError(context: LabelContext): boolean {
  const { engines, base, label, start, name, mapped, decoded, add } = context
  if (!engines.tr46.toUnicode(label, base).error) return false
  const aLabel = mapped.startsWith('xn--')
  const refused = aLabel ? firstRefused(context, decoded, 0, {}) : firstRefused(context, label, start, {})
  if (refused) {
    const where = aLabel ? 'decodes to a label with' : 'has'
    add(
      'disallowed',
      `${name} ${where} ${showCharacter(refused.character)}${aLabel ? '' : ` at position ${refused.position}`}, which UTS #46 disallows in domain names`,
      aLabel ? start : refused.position,
    )
  } else if (engines.regexes.combiningMarks.test(String.fromCodePoint(decoded.codePointAt(0) ?? 0x30))) {
    add('combiningMark', `${name} starts with a combining mark, ${showCharacter(String.fromCodePoint(decoded.codePointAt(0)!))}, which no label may`)
  } else if (aLabel) {
    add('punycode', `${name} decodes to a label that is not valid: not in NFC, or holding a full stop or an xn-- prefix`)
  } else {
    add('disallowed', `${name} is not a valid label`)
  }
  return true
}

/** The checks each flag turns on: hyphens, STD3 ASCII rules, joiners and the Bidi rule, one at a time. */
function optionErrors(context: LabelContext, bidiName: boolean): void {
  const { engines, base, flags, label, start, name, mapped, add } = context
  const check = (option: string, suffix = '') => engines.tr46.toUnicode(label + suffix, { ...base, [option]: true }).error
  if (flags.checkHyphens && check('checkHyphens')) {
    add('hyphens', `${name} starts or ends with a hyphen, or has -- in its third and fourth places; turn checkHyphens off to allow it`)
  }
  if (flags.useStd3AsciiRules && check('useSTD3ASCIIRules')) {
    const refused = mapped.startsWith('xn--') ? undefined : firstRefused(context, label, start, { useSTD3ASCIIRules: true })
    const what = !refused
      ? 'decodes to an ASCII character other than a-z, 0-9 or -'
      : hasNonAscii(refused.character)
        ? `has ${showCharacter(refused.character)} at position ${refused.position}, which maps to ASCII characters other than a-z, 0-9 or -`
        : `has ${showCharacter(refused.character)} at position ${refused.position}`
    add(
      'std3',
      `${name} ${what}, which useStd3AsciiRules refuses (only a-z, 0-9 and - are allowed among ASCII characters); turn it off for URL hosts`,
      refused?.position,
    )
  }
  if (flags.checkJoiners && !flags.transitional && check('checkJoiners')) {
    add('joiners', `${name} has a ZERO WIDTH JOINER or NON-JOINER where the ContextJ rules of RFC 5892 do not allow one`)
  }
  if (flags.checkBidi && bidiName && check('checkBidi', `.${RTL_LABEL}`)) {
    add('bidi', `${name} breaks the Bidi rule of RFC 5893 for a name with right-to-left characters`)
  }
}

/** verifyDnsLength on the ASCII form: no empty label, none over 63 characters, the name at most 253. */
function asciiLengthErrors(labels: Array<{ text: string; start: number }>, ascii: string[]): IdnError[] {
  const errors: IdnError[] = []
  ascii.forEach((label, index) => {
    if (label.length === 0) {
      const last = index === ascii.length - 1 && index > 0
      const advice = last ? ': it is the root label of a trailing dot; drop the dot, or turn verifyDnsLength off' : '; turn verifyDnsLength off to allow it'
      errors.push({ code: 'dnsLength', label: index, position: labels[index].start, message: `label ${index} is empty${advice}` })
    } else if (label.length > MAX_LABEL) {
      errors.push({
        code: 'dnsLength',
        label: index,
        position: labels[index].start,
        message: `label ${index} (${quote(labels[index].text)}) is ${label.length} characters long in ASCII, over the ${MAX_LABEL} DNS allows`,
      })
    }
  })
  const joined = ascii.join('.')
  if (joined.length > MAX_NAME) {
    errors.push({
      code: 'dnsLength',
      label: null,
      position: 0,
      message: `the name is ${joined.length} characters long in ASCII, over the ${MAX_NAME} DNS allows`,
    })
  }
  return errors
}

/** verifyDnsLength for ToUnicode, which reports an empty label (X4_2) but for the root label after a trailing dot. */
function emptyLabelErrors(labels: Array<{ text: string; start: number }>, unicodeLabels: string[]): IdnError[] {
  const inner = labels.length > 1 ? labels.slice(0, -1) : labels
  return inner.flatMap(({ start }, index) =>
    unicodeLabels[index] === ''
      ? [{ code: 'dnsLength' as const, label: index, position: start, message: `label ${index} is empty; turn verifyDnsLength off to allow it` }]
      : [],
  )
}

function toTr46Options(flags: Flags) {
  return {
    transitionalProcessing: flags.transitional,
    useSTD3ASCIIRules: flags.useStd3AsciiRules,
    checkHyphens: flags.checkHyphens,
    checkBidi: flags.checkBidi,
    checkJoiners: flags.checkJoiners,
    verifyDNSLength: flags.verifyDnsLength,
    ignoreInvalidPunycode: flags.ignoreInvalidPunycode,
  }
}

const labelsOf = (text: string, unicode: string, ascii: Array<string | null>): Label[] => {
  const unicodeLabels = unicode.split('.')
  return splitLabels(text).map(({ text: label }, index) => ({ input: label, ascii: ascii[index] ?? null, unicode: unicodeLabels[index] ?? '' }))
}

function decodePunycode({ punycode }: Engines, text: string): string {
  let value: string | undefined
  try {
    value = punycode.decode(text)
  } catch {
    value = undefined
  }
  if (value !== undefined && !/\p{Cs}/u.test(value)) return value
  const fault = punycodeFault(text) ?? { position: 0, reason: 'it does not decode' }
  throw invalidInput(`input is not valid Punycode (RFC 3492): ${fault.reason} at position ${fault.position}`, { field: 'input', position: fault.position })
}

function encodePunycode({ punycode }: Engines, text: string): string {
  try {
    return punycode.encode(text)
  } catch {
    throw invalidInput('input cannot be encoded as Punycode: its numbers overflow the 32-bit integers RFC 3492 uses; encode it in shorter parts', {
      field: 'input',
    })
  }
}

export const idn = defineOperation({
  name: 'idn',
  category: 'encoders',
  summary: 'Convert internationalized domain names to and from Punycode (UTS #46 toASCII/toUnicode, raw RFC 3492)',
  title: 'IDN / Punycode',
  aliases: [
    'punycode',
    'idna',
    'idna2008',
    'uts46',
    'uts 46',
    'tr46',
    'rfc 3492',
    'rfc 5891',
    'internationalized domain name',
    'international domain',
    'unicode domain',
    'emoji domain',
    'a-label',
    'u-label',
    'xn--',
    'to ascii',
    'to unicode',
    'domain to ascii',
    'decode xn--',
    'homograph',
  ],
  description: [
    'Converts an internationalized domain name between its Unicode form (`bücher.example`) and the ASCII form DNS carries (`xn--bcher-kva.example`), following Unicode UTS #46 (IDNA compatibility processing, the same engine and Unicode version as the URL hosts of the WHATWG URL Standard), and encodes or decodes raw Punycode (RFC 3492).',
    '`toAscii` maps the name (lower-cases, folds width, normalizes to NFC), checks it and encodes each non-ASCII label as an `xn--` A-label; `toUnicode` maps and checks it the same way and decodes A-labels. The checks default to the strict DNS profile: STD 3 characters, hyphens, the Bidi rule (RFC 5893), the ContextJ rules (RFC 5892) and DNS lengths, with nontransitional processing (ß and ς stay). For a URL host, as browsers do, turn off `useStd3AsciiRules`, `checkHyphens` and `verifyDnsLength`. A trailing root dot is an empty label, which `verifyDnsLength` refuses.',
    '`labels` lists each label in its given, ASCII and Unicode forms. A name that fails a check is a 422 INVALID_INPUT for `toAscii`, whose `details.errors` list each error (`code`, `label`, `position`, `message`); `toUnicode` always answers, as UTS #46 says, with `valid: false` and the same `errors`. `encode` and `decode` treat the whole input as one Punycode string, with no mapping and no labels (`bücher` ⇄ `bcher-kva`); text that is not valid Punycode is a 422 with its `position`. Positions are UTF-16 indices of `input`.',
  ].join('\n\n'),
  input,
  output,
  actions: {
    toAscii: {
      fields: ['input', 'transitional', 'useStd3AsciiRules', 'checkHyphens', 'checkBidi', 'checkJoiners', 'verifyDnsLength', 'ignoreInvalidPunycode'],
    },
    toUnicode: {
      fields: ['input', 'transitional', 'useStd3AsciiRules', 'checkHyphens', 'checkBidi', 'checkJoiners', 'verifyDnsLength', 'ignoreInvalidPunycode'],
    },
    encode: { fields: ['input'] },
    decode: { fields: ['input'] },
  },
  examples: [
    {
      summary: 'A Unicode name to its ASCII form',
      input: { input: 'Bücher.example' },
      output: {
        result: 'xn--bcher-kva.example',
        action: 'toAscii',
        labels: [
          { input: 'Bücher', ascii: 'xn--bcher-kva', unicode: 'bücher' },
          { input: 'example', ascii: 'example', unicode: 'example' },
        ],
        valid: true,
      },
    },
    {
      summary: 'An A-label back to Unicode',
      input: { input: 'xn--fa-hia.de', action: 'toUnicode' },
      output: {
        result: 'faß.de',
        action: 'toUnicode',
        labels: [
          { input: 'xn--fa-hia', ascii: 'xn--fa-hia', unicode: 'faß' },
          { input: 'de', ascii: 'de', unicode: 'de' },
        ],
        errors: [],
        valid: true,
      },
    },
    {
      summary: 'Transitional processing, as IDNA2003 did: ß becomes ss',
      input: { input: 'faß.de', transitional: true },
      output: {
        result: 'fass.de',
        action: 'toAscii',
        labels: [
          { input: 'faß', ascii: 'fass', unicode: 'fass' },
          { input: 'de', ascii: 'de', unicode: 'de' },
        ],
        valid: true,
      },
    },
    {
      summary: 'Raw Punycode decoding (RFC 3492), with no labels',
      input: { input: 'bcher-kva', action: 'decode' },
      output: { result: 'bücher', action: 'decode', valid: true },
    },
  ],
  allowGet: true,
  // A long name costs tens of milliseconds: each label is checked again, once per flag, to say what failed.
  offload: ({ input: text, action }) => (action === 'toAscii' || action === 'toUnicode') && text.length > OFFLOAD_LENGTH,
  runsInBrowser: true,
  run: async ({ input: text, action, ...flags }) => {
    const loaded = await engines()
    if (action === 'encode') return { result: encodePunycode(loaded, text), action, valid: true }
    if (action === 'decode') return { result: decodePunycode(loaded, text), action, valid: true }
    const options = toTr46Options(flags)
    const unicode = loaded.tr46.toUnicode(text, options)
    if (action === 'toUnicode') {
      const errors = findErrors(loaded, text, flags, false)
      if (unicode.error && errors.length === 0) {
        errors.push({ code: 'disallowed', label: null, position: 0, message: 'the name is not valid under UTS #46' })
      }
      const asciiLabels = unicode.domain.split('.').map((label) => asciiOf(loaded.punycode, label))
      return { result: unicode.domain, action, labels: labelsOf(text, unicode.domain, asciiLabels), errors, valid: errors.length === 0 }
    }
    const result = loaded.tr46.toASCII(text, options)
    if (result === null) {
      const errors = findErrors(loaded, text, flags, true)
      if (errors.length === 0) errors.push({ code: 'disallowed', label: null, position: 0, message: 'the name is not valid under UTS #46' })
      const [first] = errors
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''} in details.errors)` : ''
      throw invalidInput(`input is not a valid domain name: ${first.message}${more}`, {
        field: 'input',
        label: first.label,
        position: first.position,
        errors,
      })
    }
    return { result, action, labels: labelsOf(text, unicode.domain, result.split('.')), valid: true }
  },
})
