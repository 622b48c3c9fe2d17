import { type Static, Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { mod97_10CheckDigits } from '../../lib/checksums/mod97.ts'
import { numberCharacters } from '../../lib/checksums/number-characters.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'

/** The longest input, in characters, spaces, hyphens and an `IBAN` label included. */
const MAX_INPUT_LENGTH = 64

/** ibantools (the SWIFT IBAN registry as a table, with national check-digit functions), loaded with the first IBAN (see lazily). */
const ibantools = lazily(() => import('ibantools'))
type IbanTools = Awaited<ReturnType<typeof ibantools>>

const ACTIONS = ['validate', 'compose'] as const
const ERROR_KINDS = ['unknownCountry', 'noIbanCountry', 'length', 'bbanFormat', 'checkDigits', 'nationalCheckDigit'] as const
type ErrorKind = (typeof ERROR_KINDS)[number]
/** Countries whose IBANs may be QR-IBANs (a QR-IID of 30000–31999 where the bank code stands). */
const QR_IBAN_COUNTRIES = new Set(['CH', 'LI'])

const Problem = Type.Object({
  code: Type.Enum(ERROR_KINDS, { description: 'What is wrong.' }),
  message: Type.String({ description: 'The problem in one sentence.' }),
  position: Type.Optional(Type.Integer({ description: 'Where in the IBAN (electronic form, from 0) the problem starts, where one place is to blame.' })),
  expected: Type.Optional(
    Type.Union([Type.String(), Type.Integer()], {
      description: 'What was expected there: the length (`length`), the check digits (`checkDigits`), the kind of character (`bbanFormat`).',
    }),
  ),
})
type ProblemValue = Static<typeof Problem>

const Output = Type.Object({
  result: Type.String({ description: 'The IBAN in electronic form: upper case, no spaces.' }),
  action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  valid: Type.Boolean({
    description:
      'Whether the IBAN is valid: a country with IBANs, its length and BBAN structure, the check digits, and a national check digit where the registry has one.',
  }),
  errors: Type.Optional(Type.Array(Problem, { description: 'When not valid: each problem found, with where it lies.' })),
  country: Type.String({ description: 'The ISO 3166 alpha-2 country code (the first two letters).' }),
  checkDigits: Type.String({ description: 'The two ISO 7064 MOD 97-10 check digits (characters 3 and 4).' }),
  bban: Type.String({ description: 'The Basic Bank Account Number: everything after the check digits.' }),
  bankCode: Type.Optional(Type.String({ description: "The bank identifier, where the registry's table defines one (valid IBANs only)." })),
  branchCode: Type.Optional(
    Type.String({ description: "The branch identifier (a UK sort code, a French code guichet), where the registry's table defines one (valid IBANs only)." }),
  ),
  accountNumber: Type.Optional(Type.String({ description: "The account number, where the registry's table defines one (valid IBANs only)." })),
  formatted: Type.String({ description: 'The print format: groups of four characters separated by spaces.' }),
  length: Type.Integer({ description: 'The number of characters in the electronic form.' }),
  expectedLength: Type.Optional(Type.Integer({ description: "The length of the country's IBANs, for a country that has them." })),
  sepa: Type.Boolean({ description: 'Whether the country is in the SEPA scheme.' }),
  qrIban: Type.Boolean({ description: 'Whether it is a Swiss or Liechtenstein QR-IBAN (QR-IID 30000–31999), which only QR-bills use.' }),
  bicValid: Type.Optional(
    Type.Boolean({
      description: 'With `bic`: whether it is a well-formed BIC (ISO 9362: 4 letters, a known country, 2 characters, an optional 3-character branch).',
    }),
  ),
  bicCountryMatches: Type.Optional(Type.Boolean({ description: "With `bic`: whether the BIC's country (characters 5–6) is the IBAN's." })),
})
type Answer = Static<typeof Output>

/** A character class of the registry's BBAN structure and how to say it. */
const CLASSES: Record<string, { test: RegExp; words: string }> = {
  '0-9': { test: /^[0-9]$/, words: 'a digit' },
  'A-Z': { test: /^[A-Z]$/, words: 'a letter' },
  'A-Z0-9': { test: /^[A-Z0-9]$/, words: 'a letter or a digit' },
  '0-9A-Z': { test: /^[A-Z0-9]$/, words: 'a letter or a digit' },
}

/**
 * The first character that breaks a country's BBAN structure, read from the library's expression
 * (a run of `[class]{count}`), with what the structure wants there; undefined when it holds.
 */
function structureProblem(bban: string, expression: string): { index: number; words: string } | undefined {
  let index = 0
  for (const [, name, count] of expression.matchAll(/\[([^\]]+)\]\{(\d+)\}/g)) {
    const charClass = CLASSES[name]
    for (let n = 0; n < Number(count) && index < bban.length; n++, index++) {
      if (charClass === undefined || !charClass.test.test(bban[index])) return { index, words: charClass?.words ?? `[${name}]` }
    }
  }
  return undefined
}

/** The check digits ISO 13616 gives a country and BBAN: ISO 7064 MOD 97-10 of the BBAN followed by the country code. */
const checkDigitsFor = (country: string, bban: string) => mod97_10CheckDigits(`${bban}${country}`)

const LABEL = /^\s*IBAN:?/i

/** The input in electronic form (separators and a leading IBAN label dropped, upper case) with each character's position in the input, refusing what no IBAN could hold. */
function electronic(input: string, field: string): { text: string; positions: number[] } {
  const label = LABEL.exec(input)
  let text = ''
  const positions: number[] = []
  for (const [char, i] of numberCharacters(input, label ? label[0].length : 0)) {
    if (!/^[A-Za-z0-9]$/.test(char)) {
      throw invalidInput(`${showCharacterAt(input, i)} at position ${i} cannot be part of an IBAN, which holds only letters and digits`, { field, position: i })
    }
    text += char.toUpperCase()
    positions.push(i)
  }
  return { text, positions }
}

/** Where an IBAN's first four characters stop being two letters and two digits; undefined when they are. */
function malformedAt(text: string): number | undefined {
  for (let i = 0; i < 4; i++) {
    if (i >= text.length) return i
    if (!(i < 2 ? /[A-Z]/ : /[0-9]/).test(text[i])) return i
  }
  return undefined
}

function problem(code: ErrorKind, message: string, extra: { position?: number; expected?: string | number } = {}): ProblemValue {
  return { code, message, ...extra }
}

/** Every problem of an IBAN in electronic form whose first four characters are two letters and two digits. */
function problemsOf(tools: IbanTools, iban: string): ProblemValue[] {
  const country = iban.slice(0, 2)
  const spec = Object.hasOwn(tools.countrySpecs, country) ? tools.countrySpecs[country] : undefined
  if (spec === undefined) return [problem('unknownCountry', `${country} is not an ISO 3166 country code`, { position: 0 })]
  if (!spec.chars || !spec.bban_regexp)
    return [problem('noIbanCountry', `${country}: this country has no IBAN (it is not in the IBAN registry)`, { position: 0 })]
  const problems: ProblemValue[] = []
  const bban = iban.slice(4)
  if (iban.length !== spec.chars) {
    problems.push(
      problem('length', `an IBAN of ${country} has ${spec.chars} characters, this one ${iban.length}`, {
        position: Math.min(iban.length, spec.chars),
        expected: spec.chars,
      }),
    )
  }
  const broken = structureProblem(bban, spec.bban_regexp)
  if (broken) {
    problems.push(
      problem('bbanFormat', `character ${broken.index + 5} ('${bban[broken.index]}') breaks the BBAN structure of ${country}: ${broken.words} belongs there`, {
        position: broken.index + 4,
        expected: broken.words,
      }),
    )
  }
  const expected = checkDigitsFor(country, bban)
  if (iban.slice(2, 4) !== expected) {
    problems.push(problem('checkDigits', `the check digits are ${iban.slice(2, 4)}, but the rest of the IBAN calls for ${expected}`, { position: 2, expected }))
  }
  if (problems.length === 0 && spec.bban_validation_func && !spec.bban_validation_func(bban)) {
    problems.push(problem('nationalCheckDigit', `the national check digit of the ${country} account number (inside the BBAN) is wrong`, { position: 4 }))
  }
  return problems
}

/**
 * Bank codes (start and end in the BBAN, end exclusive) where the library's table disagrees with the
 * SWIFT IBAN registry: JO's bank is BBAN 1–4 (CBJO in the registry's example), which the table gives
 * the branch's range 5–8.
 */
const BANK_CODE_RANGES: Readonly<Record<string, readonly [number, number]>> = { JO: [0, 4] }

/**
 * The parts the library's table defines for a valid IBAN: slices of its own (so GB has a bank and a
 * branch but no account). Its account ranges count from the IBAN's first character, and for some
 * countries (BE, FI, KZ, LV, MU, PL, RO) start over the country code or check digits: FI's is "F",
 * BE's the whole IBAN. An account number is part of the BBAN, so those are left out.
 */
function partsOf(tools: IbanTools, iban: string): Pick<Answer, 'bankCode' | 'branchCode' | 'accountNumber'> {
  const parts = tools.extractIBAN(iban)
  const country = iban.slice(0, 2)
  const accountStart = Number.parseInt(tools.countrySpecs[country]?.account_indentifier ?? '', 10)
  const bankRange = BANK_CODE_RANGES[country]
  const bankCode = bankRange ? iban.slice(4 + bankRange[0], 4 + bankRange[1]) : parts.bankIdentifier
  return {
    ...(bankCode ? { bankCode } : {}),
    ...(parts.branchIdentifier ? { branchCode: parts.branchIdentifier } : {}),
    ...(parts.accountNumber && accountStart >= 4 ? { accountNumber: parts.accountNumber } : {}),
  }
}

function bicAnswer(tools: IbanTools, bic: string, country: string): Pick<Answer, 'bicValid' | 'bicCountryMatches'> {
  const text = bic.replace(/[ \t]/g, '').toUpperCase()
  return { bicValid: tools.isValidBIC(text), bicCountryMatches: text.slice(4, 6) === country }
}

export const iban = defineOperation({
  name: 'iban',
  category: 'converters',
  summary: 'Validate an IBAN (country, length, BBAN structure, check digits), split it into bank, branch and account, or compose one',
  title: 'IBAN validator',
  aliases: ['iban', 'international bank account number', 'bban', 'bank account', 'sepa', 'bic', 'swift code', 'qr-iban', 'iso 13616', 'mod 97'],
  description:
    '`validate` (the default) reads an IBAN in any letter case, with or without spaces, hyphens, tabs, line breaks and a leading `IBAN` label, and answers it in electronic form (`result`) and in print format (`formatted`, groups of four), ' +
    'with `valid` and, when not valid, every problem found in `errors`: `unknownCountry` (not an ISO 3166 code), `noIbanCountry` (a country without IBANs, such as US), `length` (with the country’s length), ' +
    '`bbanFormat` (the first character that breaks the country’s BBAN structure, and what belongs there), `checkDigits` (ISO 7064 MOD 97-10, with the digits expected) and `nationalCheckDigit` (a national check inside the BBAN, for the countries where the registry’s table has one: BE, ES, FR, NO, PL and others). ' +
    'An invalid IBAN is a 200 answer with `valid: false`; only an input that is not an IBAN at all (not two letters then two digits, or a character other than letters and digits) is a 422 INVALID_INPUT with its `position`. ' +
    'A valid IBAN is split into `bankCode`, `branchCode` and `accountNumber` exactly as the table of ibantools (after the SWIFT IBAN registry) defines them for its country, some of which it leaves out (GB: bank and sort code, no account; XK: a branch but no bank), and no `accountNumber` where that table lays it over the country code or check digits (BE, FI, KZ, LV, MU, PL, RO); JO’s bank code is the registry’s (the table repeats the branch); `bban` is always given. ' +
    '`sepa` and `qrIban` (CH/LI QR-IBANs) come with every answer; an optional `bic` is checked for its form and whether its country is the IBAN’s. ' +
    '`compose` takes `country` and `bban` and computes the check digits; a country without IBANs or a BBAN that breaks its structure is a 422 saying where. ' +
    'IBANs are personal data: the operation answers POST only and the input is never logged. Bank names are not looked up (that needs national bank directories).',
  input: Type.Object(
    {
      input: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: MAX_INPUT_LENGTH,
          writeOnly: true,
          description:
            'validate (required there): the IBAN, in any letter case; spaces, hyphens, tabs, line breaks and a leading `IBAN` label are ignored. Personal data: never logged, never put in a shared link.',
          examples: ['GB82 WEST 1234 5698 7654 32'],
        }),
      ),
      action: withDefault(Type.Enum(ACTIONS, { description: '`validate` an IBAN, or `compose` one from `country` and `bban`.' }), 'validate'),
      country: Type.Optional(
        Type.String({ pattern: '^[A-Za-z]{2}$', description: 'compose (required there): the ISO 3166 alpha-2 country code, such as `DE`.', examples: ['DE'] }),
      ),
      bban: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: MAX_INPUT_LENGTH,
          writeOnly: true,
          description:
            'compose (required there): the Basic Bank Account Number, in any letter case; spaces, hyphens, tabs and line breaks are ignored. Personal data, like `input`.',
          examples: ['370400440532013000'],
        }),
      ),
      bic: Type.Optional(
        Type.String({
          maxLength: 20,
          description: 'A BIC (SWIFT code) to check beside the IBAN: its form, and whether its country is the IBAN’s.',
          examples: ['DEUTDEFF'],
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Output,
  actions: {
    validate: { fields: ['input', 'bic'], requires: ['input'] },
    compose: { fields: ['country', 'bban', 'bic'], requires: ['country', 'bban'] },
  },
  examples: [
    {
      summary: 'Validate an IBAN in print format (the SWIFT registry’s example for GB)',
      input: { input: 'GB82 WEST 1234 5698 7654 32' },
      output: {
        result: 'GB82WEST12345698765432',
        action: 'validate',
        valid: true,
        country: 'GB',
        checkDigits: '82',
        bban: 'WEST12345698765432',
        bankCode: 'WEST',
        branchCode: '123456',
        formatted: 'GB82 WEST 1234 5698 7654 32',
        length: 22,
        expectedLength: 22,
        sepa: true,
        qrIban: false,
      },
    },
    {
      summary: 'A wrong check digit: valid is false, and the errors say what and where',
      input: { input: 'GB82WEST12345698765433' },
      output: {
        result: 'GB82WEST12345698765433',
        action: 'validate',
        valid: false,
        errors: [{ code: 'checkDigits', message: 'the check digits are 82, but the rest of the IBAN calls for 55', position: 2, expected: '55' }],
        country: 'GB',
        checkDigits: '82',
        bban: 'WEST12345698765433',
        formatted: 'GB82 WEST 1234 5698 7654 33',
        length: 22,
        expectedLength: 22,
        sepa: true,
        qrIban: false,
      },
    },
    {
      summary: 'Compose a German IBAN from its BBAN (bank code and account) and check a BIC beside it',
      input: { action: 'compose', country: 'DE', bban: '370400440532013000', bic: 'COBADEFFXXX' },
      output: {
        result: 'DE89370400440532013000',
        action: 'compose',
        valid: true,
        country: 'DE',
        checkDigits: '89',
        bban: '370400440532013000',
        bankCode: '37040044',
        accountNumber: '0532013000',
        formatted: 'DE89 3704 0044 0532 0130 00',
        length: 22,
        expectedLength: 22,
        sepa: true,
        qrIban: false,
        bicValid: true,
        bicCountryMatches: true,
      },
    },
  ],
  verdict: { field: 'valid', failure: 'the IBAN is not valid' },
  runsInBrowser: true,
  async run({ input, action, country, bban, bic }) {
    let iban: string
    if (action === 'compose') {
      if (input !== undefined) throw validationError('input', 'is for validate; compose takes country and bban')
      if (country === undefined) throw validationError('country', 'is required to compose an IBAN')
      if (bban === undefined) throw validationError('bban', 'is required to compose an IBAN')
      const basic = electronic(bban, 'bban').text
      const code = country.toUpperCase()
      iban = `${code}00${basic}`
      const tools = await ibantools()
      const refusal = problemsOf(tools, iban).find((found) => found.code !== 'checkDigits')
      if (refusal !== undefined) {
        const inBban = refusal.position !== undefined && refusal.position >= 4
        throw invalidInput(`Cannot compose an IBAN: ${refusal.message}`, {
          field: inBban ? 'bban' : 'country',
          ...(inBban ? { position: refusal.position! - 4 } : {}),
          problem: refusal.code,
          ...(refusal.expected !== undefined ? { expected: refusal.expected } : {}),
        })
      }
      iban = `${code}${checkDigitsFor(code, basic)}${basic}`
    } else {
      if (input === undefined) throw validationError('input', 'is required to validate an IBAN')
      if (country !== undefined || bban !== undefined) throw validationError(country !== undefined ? 'country' : 'bban', 'is for compose; validate reads input')
      const { text, positions } = electronic(input, 'input')
      const broken = malformedAt(text)
      if (broken !== undefined) {
        const position = broken < text.length ? positions[broken] : input.length
        const what = broken < text.length ? `${showCharacterAt(input, position)} at position ${position} breaks that` : 'it ends before them'
        throw invalidInput(`input is not an IBAN, which begins with two letters (the country) and two check digits, as GB82 does: ${what}`, {
          field: 'input',
          position,
        })
      }
      iban = text
    }
    const tools = await ibantools()
    const code = iban.slice(0, 2)
    const problems = problemsOf(tools, iban)
    const spec = Object.hasOwn(tools.countrySpecs, code) ? tools.countrySpecs[code] : undefined
    const valid = problems.length === 0
    const answer: Answer = {
      result: iban,
      action,
      valid,
      ...(valid ? {} : { errors: problems }),
      country: code,
      checkDigits: iban.slice(2, 4),
      bban: iban.slice(4),
      ...(valid ? partsOf(tools, iban) : {}),
      formatted: iban.replace(/(.{4})(?!$)/g, '$1 '),
      length: iban.length,
      ...(spec?.chars ? { expectedLength: spec.chars } : {}),
      sepa: spec?.SEPA === true,
      qrIban: QR_IBAN_COUNTRIES.has(code) && /^3[01][0-9]{3}/.test(iban.slice(4, 9)),
    }
    if (bic !== undefined) Object.assign(answer, bicAnswer(tools, bic, code))
    return answer
  },
})
