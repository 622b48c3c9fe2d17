import { type Static, Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { invalidInput } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { gs1CheckDigit } from '../../lib/checksums/gs1.ts'
import { mod97_10CheckDigits } from '../../lib/checksums/mod97.ts'
import { numberCharacters } from '../../lib/checksums/number-characters.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

/** The longest input, in characters, separators included. */
export const MAX_INPUT_LENGTH = 64

export const SCHEMES = [
  'luhn',
  'card',
  'isbn',
  'isbn10',
  'isbn13',
  'ean13',
  'ean8',
  'upca',
  'gtin',
  'issn',
  'verhoeff',
  'damm',
  'iso7064-mod11-2',
  'iso7064-mod97-10',
] as const
type SchemeName = (typeof SCHEMES)[number]
/** What `isbn` and `gtin` resolve to by length, besides the schemes themselves. */
const APPLIED_SCHEMES = [...SCHEMES.filter((scheme) => scheme !== 'isbn' && scheme !== 'gtin'), 'gtin14'] as const
type AppliedScheme = (typeof APPLIED_SCHEMES)[number]
const ACTIONS = ['validate', 'compute'] as const

/** credit-card-type (Braintree's IIN table), loaded with the first card number (see lazily). */
const cardTypes = lazily(async () => commonJsExports(await import('credit-card-type')) as unknown as typeof import('credit-card-type'))

// ---- The algorithms: each takes the number without its check digit(s) and answers them ----

const digitValues = (text: string) => Array.from(text, (char) => char.charCodeAt(0) - 48)

/** Luhn (ISO/IEC 7812-1 Annex B): from the right, every second digit doubled, starting with the one beside the check digit. */
export function luhnCheckDigit(payload: string): string {
  let sum = 0
  const digits = digitValues(payload)
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    const value = double ? digits[i] * 2 : digits[i]
    sum += value > 9 ? value - 9 : value
  }
  return String((10 - (sum % 10)) % 10)
}

/** Weighted modulo 11 with weights counting down to 2 (ISBN-10 from 10, ISSN from 8); a check value of 10 is written X. */
function modulo11CheckDigit(payload: string): string {
  let sum = 0
  const digits = digitValues(payload)
  for (let i = 0; i < digits.length; i++) sum += digits[i] * (digits.length + 1 - i)
  const check = (11 - (sum % 11)) % 11
  return check === 10 ? 'X' : String(check)
}

/** Verhoeff's dihedral group D5: VERHOEFF_MULTIPLY[a][b] is a·b. */
const VERHOEFF_MULTIPLY = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
/** Verhoeff's permutation σ = (0)(1 5 8 9 4 2 7)(3 6); position i from the right applies σ^i, and σ^8 is the identity. */
const VERHOEFF_SIGMA = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]
const VERHOEFF_PERMUTE = Array.from({ length: 8 }, (_, power) =>
  Array.from({ length: 10 }, (_, digit) => {
    let value = digit
    for (let step = 0; step < power; step++) value = VERHOEFF_SIGMA[value]
    return value
  }),
)
const VERHOEFF_INVERSE = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]

/** Verhoeff (1969): the check digit is the inverse, in D5, of the permuted digits' product. */
export function verhoeffCheckDigit(payload: string): string {
  let product = 0
  const digits = digitValues(payload)
  // The check digit will stand at position 0 from the right, so the payload's last digit is at 1.
  for (let i = digits.length - 1, position = 1; i >= 0; i--, position++) product = VERHOEFF_MULTIPLY[product][VERHOEFF_PERMUTE[position % 8][digits[i]]]
  return String(VERHOEFF_INVERSE[product])
}

/** Damm's totally anti-symmetric quasigroup of order 10 (Damm 2004, the table Wikipedia reproduces). */
const DAMM_TABLE = [
  [0, 3, 1, 7, 5, 9, 8, 6, 4, 2],
  [7, 0, 9, 2, 1, 5, 4, 8, 6, 3],
  [4, 2, 0, 6, 8, 7, 1, 3, 5, 9],
  [1, 7, 5, 0, 9, 8, 3, 4, 2, 6],
  [6, 1, 2, 3, 0, 4, 5, 9, 7, 8],
  [3, 6, 7, 4, 2, 0, 9, 5, 8, 1],
  [5, 8, 6, 9, 7, 2, 0, 1, 3, 4],
  [8, 9, 4, 5, 3, 6, 2, 0, 1, 7],
  [9, 4, 3, 8, 6, 1, 7, 2, 0, 5],
  [2, 5, 8, 1, 4, 3, 6, 7, 9, 0],
]

/** Damm: the interim digit after the payload; its diagonal is zero, so appending it brings the interim to 0. */
export function dammCheckDigit(payload: string): string {
  let interim = 0
  for (const digit of digitValues(payload)) interim = DAMM_TABLE[interim][digit]
  return String(interim)
}

/** ISO 7064 MOD 11-2 (pure system, radix 2), as ORCID and ISNI use it; a check value of 10 is written X. */
export function mod11_2CheckDigit(payload: string): string {
  let total = 0
  for (const digit of digitValues(payload)) total = ((total + digit) * 2) % 11
  const check = (12 - total) % 11
  return check === 10 ? 'X' : String(check)
}

// ---- The schemes: which characters and lengths each takes ----

interface Scheme {
  /** The lengths of the whole number, check digit(s) included: a list, or a range. */
  lengths: readonly number[] | { min: number; max: number }
  /** How many check characters end the number. */
  checkLength: 1 | 2
  /** Whether the check character may be X (a check value of 10). */
  checkX?: boolean
  /** Whether the number before the check digits may hold letters A–Z. */
  letters?: boolean
  /** What to say the number must begin with, if anything. */
  prefix?: { pattern: RegExp; rule: string }
  compute(payload: string): string
}

const ANY_LENGTH = { min: 2, max: MAX_INPUT_LENGTH }
const ISBN13_PREFIX = { pattern: /^97[89]/, rule: 'an ISBN-13 begins with 978 or 979 (the GS1 prefixes of Bookland)' }

const SCHEME_RULES: Record<AppliedScheme, Scheme> = {
  luhn: { lengths: ANY_LENGTH, checkLength: 1, compute: luhnCheckDigit },
  // ISO/IEC 7812-1 allows primary account numbers of 8 to 19 digits.
  card: { lengths: { min: 8, max: 19 }, checkLength: 1, compute: luhnCheckDigit },
  isbn10: { lengths: [10], checkLength: 1, checkX: true, compute: modulo11CheckDigit },
  isbn13: { lengths: [13], checkLength: 1, prefix: ISBN13_PREFIX, compute: gs1CheckDigit },
  ean13: { lengths: [13], checkLength: 1, compute: gs1CheckDigit },
  ean8: { lengths: [8], checkLength: 1, compute: gs1CheckDigit },
  upca: { lengths: [12], checkLength: 1, compute: gs1CheckDigit },
  gtin14: { lengths: [14], checkLength: 1, compute: gs1CheckDigit },
  issn: { lengths: [8], checkLength: 1, checkX: true, compute: modulo11CheckDigit },
  verhoeff: { lengths: ANY_LENGTH, checkLength: 1, compute: verhoeffCheckDigit },
  damm: { lengths: ANY_LENGTH, checkLength: 1, compute: dammCheckDigit },
  'iso7064-mod11-2': { lengths: ANY_LENGTH, checkLength: 1, checkX: true, compute: mod11_2CheckDigit },
  'iso7064-mod97-10': { lengths: { min: 3, max: MAX_INPUT_LENGTH }, checkLength: 2, letters: true, compute: mod97_10CheckDigits },
}

/** The schemes `isbn` and `gtin` stand for, by the length of the whole number. */
const BY_LENGTH: Partial<Record<SchemeName, Record<number, AppliedScheme>>> = {
  isbn: { 10: 'isbn10', 13: 'isbn13' },
  gtin: { 8: 'ean8', 12: 'upca', 13: 'ean13', 14: 'gtin14' },
}

type Action = (typeof ACTIONS)[number]

/** The lengths a scheme takes for an action (compute: without the check digits), in words. */
function lengthsInWords(rules: Scheme, action: Action): { allowed: number[] | { min: number; max: number }; words: string } {
  const less = action === 'compute' ? rules.checkLength : 0
  if (Array.isArray(rules.lengths)) {
    const allowed = (rules.lengths as number[]).map((length) => length - less)
    return { allowed, words: `${allowed.length === 1 ? String(allowed[0]) : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`} characters` }
  }
  const { min, max } = rules.lengths as { min: number; max: number }
  const allowed = { min: min - less, max: max - less }
  return { allowed, words: `${allowed.min} to ${allowed.max} characters` }
}

/** Leading words a pasted number often carries: "ISBN 978…", "ISBN-13: 978…", "ISSN 0317-8471". */
const LABELS: Partial<Record<SchemeName, RegExp>> = {
  isbn: /^\s*ISBN(?:-?1[03])?:?/i,
  isbn10: /^\s*ISBN(?:-?10)?:?/i,
  isbn13: /^\s*ISBN(?:-?13)?:?/i,
  issn: /^\s*ISSN:?/i,
}

/** The input without separators and a leading label, upper case, with each character's position in the original. */
function normalise(input: string, scheme: SchemeName): { text: string; positions: number[] } {
  const label = LABELS[scheme]?.exec(input)
  let text = ''
  const positions: number[] = []
  for (const [char, i] of numberCharacters(input, label ? label[0].length : 0)) {
    text += char === 'x' ? 'X' : char
    positions.push(i)
  }
  return { text, positions }
}

function resolveScheme(scheme: SchemeName, length: number, action: Action): AppliedScheme {
  const choices = BY_LENGTH[scheme]
  if (choices === undefined) return scheme as AppliedScheme
  const applied = choices[action === 'compute' ? length + 1 : length]
  if (applied !== undefined) return applied
  const lengths = Object.keys(choices).map((whole) => Number(whole) - (action === 'compute' ? 1 : 0))
  const what = `${lengths.slice(0, -1).join(', ')} or ${lengths.at(-1)} characters${action === 'compute' ? ' (the number without its check digit)' : ''}`
  throw invalidInput(`input has ${length} characters after spaces and other separators are removed; ${scheme} takes ${what}`, {
    field: 'input',
    length,
    allowed: lengths,
  })
}

/** Refuses a character the scheme does not take, naming its position in the original input. */
function checkCharacters(text: string, positions: number[], input: string, rules: Scheme, action: Action): void {
  const checkStart = action === 'validate' ? text.length - rules.checkLength : text.length
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char >= '0' && char <= '9') continue
    const inCheck = i >= checkStart
    if (char === 'X' && rules.checkX && inCheck) continue
    if (rules.letters && !inCheck && char >= 'A' && char <= 'Z') continue
    if (rules.letters && !inCheck && char >= 'a' && char <= 'z') continue
    const position = positions[i]
    let allowed = 'digits'
    if (rules.letters) allowed = inCheck ? 'two check digits' : 'digits and the letters A–Z before the two check digits'
    else if (rules.checkX) allowed = action === 'validate' ? 'digits, and X as the check digit only' : 'digits (X only as a check digit, which compute adds)'
    throw invalidInput(`${showCharacterAt(input, position)} at position ${position} is not allowed: this scheme takes ${allowed}`, { field: 'input', position })
  }
}

const Output = Type.Object({
  result: Type.String({
    description:
      'validate: the number as read (spaces, hyphens, tabs, line breaks and a leading ISBN/ISSN label removed, x upper case); compute: the number with its check digit(s) appended.',
  }),
  action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  scheme: Type.Enum(APPLIED_SCHEMES, {
    description: 'The scheme applied: `isbn` answers `isbn10` or `isbn13`, `gtin` answers `ean8`, `upca`, `ean13` or `gtin14` by the length given.',
  }),
  valid: Type.Optional(Type.Boolean({ description: 'validate: whether the check digit(s) are right.' })),
  checkDigit: Type.String({ description: 'The check digit(s): as given (validate) or as computed (compute); two digits for iso7064-mod97-10.' }),
  expectedCheckDigit: Type.Optional(Type.String({ description: 'validate, when not valid: the check digit(s) the rest of the number calls for.' })),
  isbn10: Type.Optional(Type.String({ description: 'ISBN schemes, when valid: the ISBN-10 form; absent for a 979 ISBN, which has none.' })),
  isbn13: Type.Optional(Type.String({ description: 'ISBN schemes, when valid: the ISBN-13 form.' })),
  formatted: Type.Optional(
    Type.String({ description: "card: the number in its brand's groups (4-4-4-4, American Express 4-6-5), else in fours; issn: NNNN-NNNC." }),
  ),
  brand: Type.Optional(
    Type.String({ description: 'card: the brand its IIN (first digits) names, when only one does (`visa`, `mastercard`, `american-express`…).' }),
  ),
  brandName: Type.Optional(Type.String({ description: "card: the brand's name as printed (`Visa`, `American Express`)." })),
  brands: Type.Optional(Type.Array(Type.String(), { description: 'card: every brand whose IIN ranges match; `[]` when none does.' })),
  lengthValid: Type.Optional(Type.Boolean({ description: "card: whether the number's length is one a matching brand issues." })),
})
type Answer = Static<typeof Output>

/** The card's brand (credit-card-type), its length verdict and its number in groups. */
async function cardDetails(number: string): Promise<Pick<Answer, 'brand' | 'brandName' | 'brands' | 'lengthValid' | 'formatted'>> {
  const matches = (await cardTypes())(number)
  const single = matches.length === 1 ? matches[0] : undefined
  const gaps = single?.gaps ?? [4, 8, 12, 16]
  let formatted = ''
  let from = 0
  for (const gap of [...gaps, number.length]) {
    if (gap <= from) continue
    formatted += (from > 0 ? ' ' : '') + number.slice(from, gap)
    from = gap
    if (from >= number.length) break
  }
  return {
    formatted,
    ...(single ? { brand: single.type, brandName: single.niceType } : {}),
    brands: matches.map((match) => match.type),
    lengthValid: matches.some((match) => match.lengths.includes(number.length)),
  }
}

/** Both forms of a valid ISBN: every ISBN-10 is 978 + its first nine digits under a new check digit. */
function isbnForms(applied: AppliedScheme, number: string): Pick<Answer, 'isbn10' | 'isbn13'> {
  if (applied === 'isbn10') {
    const payload = `978${number.slice(0, 9)}`
    return { isbn10: number, isbn13: payload + gs1CheckDigit(payload) }
  }
  if (!number.startsWith('978')) return { isbn13: number }
  const payload = number.slice(3, 12)
  return { isbn10: payload + modulo11CheckDigit(payload), isbn13: number }
}

export const checkDigit = defineOperation({
  name: 'check-digit',
  category: 'converters',
  summary: 'Validate or compute check digits: Luhn and card brands, ISBN, EAN/UPC/GTIN, ISSN, Verhoeff, Damm, ISO 7064',
  title: 'Check digit (Luhn, ISBN, EAN, ISSN, Verhoeff, Damm)',
  aliases: [
    'luhn',
    'mod 10',
    'credit card validator',
    'card number',
    'card brand',
    'iin',
    'bin',
    'isbn',
    'isbn-10',
    'isbn-13',
    'ean',
    'ean-13',
    'ean-8',
    'upc',
    'gtin',
    'barcode number',
    'issn',
    'verhoeff',
    'damm',
    'iso 7064',
    'mod 11-2',
    'mod 97-10',
    'orcid',
    'lei',
    'checksum digit',
  ],
  description:
    '`validate` (the default) checks the last digit(s) of `input` under `scheme` and answers `valid`, the `checkDigit` given and, when wrong, the `expectedCheckDigit`; ' +
    '`compute` takes the number without its check digit(s) and answers it completed in `result`. Spaces, hyphens, tabs and line breaks are ignored, as is a leading `ISBN`/`ISSN` label for those schemes. ' +
    'Schemes: `luhn` (ISO/IEC 7812 mod 10, 2 to 64 digits); `card`, Luhn on a payment card number of 8 to 19 digits, with its brand by IIN (Braintree’s credit-card-type table: Visa, Mastercard incl. the 2-series, American Express, Discover, JCB, Diners Club, UnionPay, Maestro, Mir, Elo…), ' +
    '`lengthValid` and the number in its brand’s groups (`valid` is the Luhn verdict only); `isbn10` (mod 11, check X for 10), `isbn13` (978/979 + GS1 mod 10), `isbn` picks by length, and a valid ISBN answers both forms (a 979 ISBN has no ISBN-10); ' +
    '`ean13`, `ean8`, `upca` and `gtin` (8, 12, 13 or 14 digits: GS1 mod 10); `issn` (8 characters, mod 11, check X for 10); `verhoeff` and `damm` (2 to 64 digits; both catch every single-digit error and every swap of adjacent digits); ' +
    '`iso7064-mod11-2` (one check character 0–9 or X: ORCID, ISNI) and `iso7064-mod97-10` (two check digits, 3 to 64 characters in all; letters before them count A=10 … Z=35, as in LEI codes). ' +
    'A character a scheme does not take is a 422 INVALID_INPUT with its `position` in the input; a length the scheme does not take is a 422 naming the lengths allowed (`details.allowed`). ' +
    'Card numbers are personal data: the operation answers POST only and the input is never logged.',
  input: Type.Object(
    {
      input: Type.String({
        minLength: 1,
        maxLength: MAX_INPUT_LENGTH,
        writeOnly: true,
        description:
          'The number: validate, with its check digit(s) last; compute, without them. Spaces, hyphens, tabs and line breaks are ignored. Card numbers are personal data: never logged, never put in a shared link.',
        examples: ['4111 1111 1111 1111', '978-0-306-40615-7'],
      }),
      scheme: withDefault(
        Type.Enum(SCHEMES, {
          description:
            'The check-digit scheme: `luhn`, `card` (Luhn + brand), `isbn` (10 or 13 by length), `isbn10`, `isbn13`, `ean13`, `ean8`, `upca`, `gtin` (8, 12, 13 or 14 by length), `issn`, `verhoeff`, `damm`, `iso7064-mod11-2`, `iso7064-mod97-10`.',
        }),
        'luhn',
      ),
      action: withDefault(Type.Enum(ACTIONS, { description: '`validate` the number, or `compute` its check digit(s) and append them.' }), 'validate'),
    },
    { additionalProperties: false },
  ),
  output: Output,
  actions: {
    validate: { fields: ['input', 'scheme'] },
    compute: { fields: ['input', 'scheme'] },
  },
  examples: [
    {
      summary: 'Validate a card number: Luhn, brand and grouping',
      input: { input: '4111 1111 1111 1111', scheme: 'card' },
      output: {
        result: '4111111111111111',
        action: 'validate',
        scheme: 'card',
        valid: true,
        checkDigit: '1',
        formatted: '4111 1111 1111 1111',
        brand: 'visa',
        brandName: 'Visa',
        brands: ['visa'],
        lengthValid: true,
      },
    },
    {
      summary: 'Validate an ISBN-10 ending in X, and get its ISBN-13',
      input: { input: '0-8044-2957-X', scheme: 'isbn' },
      output: { result: '080442957X', action: 'validate', scheme: 'isbn10', valid: true, checkDigit: 'X', isbn10: '080442957X', isbn13: '9780804429573' },
    },
    {
      summary: 'A wrong Luhn check digit, and the one expected',
      input: { input: '79927398710' },
      output: { result: '79927398710', action: 'validate', scheme: 'luhn', valid: false, checkDigit: '0', expectedCheckDigit: '3' },
    },
    {
      summary: 'Compute an EAN-13 check digit',
      input: { input: '400638133393', scheme: 'ean13', action: 'compute' },
      output: { result: '4006381333931', action: 'compute', scheme: 'ean13', checkDigit: '1' },
    },
  ],
  verdict: { field: 'valid', failure: 'the check digit is wrong' },
  runsInBrowser: true,
  async run({ input, scheme, action }) {
    const { text, positions } = normalise(input, scheme)
    const applied = resolveScheme(scheme, text.length, action)
    const rules = SCHEME_RULES[applied]
    checkCharacters(text, positions, input, rules, action)
    const wholeLength = action === 'compute' ? text.length + rules.checkLength : text.length
    const fits = Array.isArray(rules.lengths)
      ? (rules.lengths as number[]).includes(wholeLength)
      : wholeLength >= (rules.lengths as { min: number }).min && wholeLength <= (rules.lengths as { max: number }).max
    if (!fits) {
      const { allowed, words } = lengthsInWords(rules, action)
      const what = action === 'compute' ? ` (the number without its check digit${rules.checkLength === 2 ? 's' : ''})` : ''
      throw invalidInput(`input has ${text.length} characters after spaces and other separators are removed; ${applied} takes ${words}${what}`, {
        field: 'input',
        length: text.length,
        allowed,
      })
    }
    if (rules.prefix && !rules.prefix.pattern.test(text))
      throw invalidInput(`input does not begin as it must: ${rules.prefix.rule}`, { field: 'input', position: positions[0] })
    const payload = action === 'compute' ? text.toUpperCase() : text.slice(0, -rules.checkLength).toUpperCase()
    const expected = rules.compute(payload)
    const number = action === 'compute' ? payload + expected : payload + text.slice(-rules.checkLength)
    const given = number.slice(-rules.checkLength)
    const valid = given === expected
    const answer: Answer =
      action === 'compute'
        ? { result: number, action, scheme: applied, checkDigit: expected }
        : { result: number, action, scheme: applied, valid, checkDigit: given, ...(valid ? {} : { expectedCheckDigit: expected }) }
    if (valid && (applied === 'isbn10' || applied === 'isbn13')) Object.assign(answer, isbnForms(applied, number))
    if (applied === 'issn') answer.formatted = `${number.slice(0, 4)}-${number.slice(4)}`
    if (applied === 'card') Object.assign(answer, await cardDetails(number))
    return answer
  },
})
