import { type Static, Type } from 'typebox'
import { type DevutilsError, invalidInput, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'

/** The longest number parse reads, in characters: libphonenumber refuses longer ones as TOO_LONG. */
export const MAX_NUMBER_LENGTH = 250
/** The longest text find searches, in UTF-16 code units. */
export const MAX_TEXT_LENGTH = 64 * 1024
/** The most numbers find answers; past it the answer says `truncated`. */
export const MAX_FOUND = 1000
/**
 * Texts longer than this are searched on a worker thread: the search is linear, but every run of digits
 * and punctuation is parsed as a candidate number, so a text full of them is slow for its length.
 */
export const FIND_OFFLOAD_CHARACTERS = 2048
/**
 * The release of Google's libphonenumber metadata (PhoneNumberMetadata.xml) that libphonenumber-js 1.13.16
 * carries, as its changelog names it; a test holds it to the installed package.
 */
export const PHONE_METADATA_VERSION = '9.0.43'

/** libphonenumber-js with its largest metadata: the smaller sets call some invalid numbers valid and guess types. */
const engine = lazily(() => import('libphonenumber-js/max'))
type Engine = Awaited<ReturnType<typeof engine>>
type PhoneNumber = ReturnType<Engine['parsePhoneNumberWithError']>

const ACTIONS = ['parse', 'find'] as const
const TYPES = [
  'MOBILE',
  'FIXED_LINE',
  'FIXED_LINE_OR_MOBILE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
] as const
/** The codes libphonenumber gives a text it cannot read as a number, answered in `details.reason`. */
const REASONS: Readonly<Record<string, string>> = {
  NOT_A_NUMBER: 'is not a phone number: too few digits, or characters a number cannot hold',
  INVALID_COUNTRY:
    'has no country calling code libphonenumber knows: write it in international form (+41…, 0041…, tel:+41…), or give `country` for a number in national form',
  TOO_SHORT: 'is too short to be a phone number after its country calling code',
  TOO_LONG: 'is too long to be a phone number',
}

const Formats = Type.Object({
  e164: Type.String({ description: 'E.164: `+`, the country calling code and the national number, no spaces (`+41446681800`).' }),
  international: Type.String({ description: 'The international form, grouped as the region writes it, with the extension (`+41 44 668 18 00`).' }),
  national: Type.String({ description: 'The national form, with the national prefix where the region dials one (`044 668 18 00`).' }),
  rfc3966: Type.String({ description: 'An RFC 3966 `tel:` URI, the extension as `;ext=` (`tel:+41446681800`).' }),
})

const Match = Type.Object({
  number: Type.String({ description: 'The number in E.164 form.' }),
  country: Type.Optional(Type.String({ description: 'The region the number belongs to; absent for a non-geographic number (+800, +882…).' })),
  extension: Type.Optional(Type.String({ description: 'The extension, when the text gives one.' })),
  startsAt: Type.Integer({ minimum: 0, description: 'Where the number starts in `input`, in UTF-16 code units (JavaScript string indices).' }),
  endsAt: Type.Integer({
    minimum: 0,
    description: 'Where it ends (exclusive): `input.slice(startsAt, endsAt)` is the number as the text writes it.',
  }),
})

const Output = Type.Object({
  result: Type.Union([Type.String(), Type.Array(Match)], {
    description: 'parse: the number in E.164 form (`+41446681800`), without its extension. find: the valid numbers in the text, in order.',
    // Where each number found stands in the text, for a reader to see them marked in it.
    'x-spans': { text: 'input', start: 'startsAt', end: 'endsAt' },
  }),
  action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
  valid: Type.Optional(
    Type.Boolean({
      description: "parse: whether the number is valid: its length and leading digits fit a range of its region's numbering plan.",
    }),
  ),
  possible: Type.Optional(Type.Boolean({ description: "parse: whether its length alone fits its region's numbering plan (weaker than `valid`)." })),
  country: Type.Optional(
    Type.String({
      description:
        'parse: the region the number belongs to; absent when only its calling code is known (a non-geographic number, or an invalid one under a shared calling code such as +1).',
    }),
  ),
  countryCallingCode: Type.Optional(Type.String({ description: 'parse: the country calling code, without `+` (`41`).' })),
  nationalNumber: Type.Optional(Type.String({ description: 'parse: the national significant number: digits only, no national prefix (`446681800`).' })),
  extension: Type.Optional(Type.String({ description: 'parse: the extension, when the input gives one.' })),
  type: Type.Optional(
    Type.Enum(TYPES, {
      description:
        "parse: what kind of line the number is, by its region's ranges; absent when unknown or invalid. `FIXED_LINE_OR_MOBILE` where the plan does not tell them apart (the US, Canada).",
    }),
  ),
  formats: Type.Optional(Formats),
  possibleCountries: Type.Optional(
    Type.Array(Type.String(), {
      description: 'parse: the regions under the calling code whose plan the number fits (for shared calling codes: +1, +7, +44…); `[]` when none.',
    }),
  ),
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_FOUND, description: 'find: how many numbers `result` holds.' })),
  truncated: Type.Optional(Type.Boolean({ description: `find: whether the text holds more than the ${MAX_FOUND.toLocaleString('en-US')} numbers answered.` })),
  metadataVersion: Type.String({ description: "The release of Google's libphonenumber metadata that answered." }),
})
type Answer = Static<typeof Output>

/** "00" is the international prefix ITU-T E.164 recommends and most regions dial; without a region it is read as "+". */
function withPlus(input: string): string {
  const match = /^(\s*)00(?=\s*\d)/.exec(input)
  return match === null ? input : `${match[1]}+${input.slice(match[0].length)}`
}

function refusal(error: unknown): DevutilsError {
  const reason = error instanceof Error ? error.message : ''
  const explanation = REASONS[reason]
  if (explanation === undefined) throw error
  return invalidInput(`The input ${explanation}.`, { field: 'input', reason })
}

function describe(number: PhoneNumber, action: 'parse'): Answer {
  const type = number.getType()
  return {
    result: number.number,
    action,
    valid: number.isValid(),
    possible: number.isPossible(),
    ...(number.country !== undefined && { country: number.country }),
    countryCallingCode: number.countryCallingCode,
    nationalNumber: number.nationalNumber,
    ...(number.ext !== undefined && { extension: number.ext }),
    ...(type !== undefined && { type }),
    formats: {
      e164: number.number,
      international: number.formatInternational(),
      national: number.formatNational(),
      rfc3966: number.getURI(),
    },
    possibleCountries: number.getPossibleCountries(),
    metadataVersion: PHONE_METADATA_VERSION,
  }
}

function parse(lib: Engine, input: string, country: string | undefined): Answer {
  if (input.length > MAX_NUMBER_LENGTH) {
    throw invalidInput(`The input is ${input.length} characters, more than the ${MAX_NUMBER_LENGTH} a phone number may be written in.`, {
      field: 'input',
      reason: 'TOO_LONG',
      limit: MAX_NUMBER_LENGTH,
    })
  }
  let number: PhoneNumber
  try {
    number = lib.parsePhoneNumberWithError(
      country === undefined ? withPlus(input) : input,
      country === undefined ? undefined : { defaultCountry: country as never },
    )
  } catch (error) {
    throw refusal(error)
  }
  return describe(number, 'parse')
}

function find(lib: Engine, input: string, country: string | undefined): Answer {
  const result: Array<Static<typeof Match>> = []
  let truncated = false
  for (const found of lib.searchPhoneNumbersInText(input, country === undefined ? undefined : { defaultCountry: country as never })) {
    if (result.length === MAX_FOUND) {
      truncated = true
      break
    }
    const { number } = found
    result.push({
      number: number.number,
      ...(number.country !== undefined && { country: number.country }),
      ...(number.ext !== undefined && { extension: number.ext }),
      startsAt: found.startsAt,
      endsAt: found.endsAt,
    })
  }
  return { result, action: 'find', count: result.length, truncated, metadataVersion: PHONE_METADATA_VERSION }
}

export const phone = defineOperation({
  name: 'phone',
  category: 'converters',
  summary: 'Parse, validate, format and type a phone number, or find the phone numbers in a text (libphonenumber)',
  title: 'Phone number parser and validator',
  aliases: [
    'phone number',
    'telephone',
    'mobile number',
    'cell phone',
    'libphonenumber',
    'e164',
    'e.164',
    'international format',
    'validate phone',
    'format phone number',
    'tel uri',
    'rfc 3966',
    'country calling code',
    'dialing code',
    'msisdn',
    'find phone numbers',
    'number type',
  ],
  description:
    "`action: parse` (the default) reads one phone number written in any common way: international (`+41 44 668 18 00`, `0041…` or an RFC 3966 `tel:` URI), or national with `country`, the region to read it in (`044 668 18 00` with `CH`); an extension (`ext. 1234`, `;ext=1234`) is kept. It answers the number in E.164 form, whether it is valid (its length and leading digits fit a range of its region's numbering plan) and possible (its length alone fits), its region, calling code, national number and line type, and its E.164, international, national and RFC 3966 forms. A number that can be read but fits no range (`+1 213 373 425`) is answered with `valid: false`, not refused. Without `country`, a leading `00` is read as the international prefix. `action: find` searches a text of up to 64 KiB for valid numbers (international ones, and national ones of `country` when it is given), answering each with its E.164 form and where it lies in the text as UTF-16 offsets (`input.slice(startsAt, endsAt)`); at most 1,000, then `truncated`. " +
    `Numbers are personal data: the operation answers POST only. The answers come from libphonenumber-js 1.13.16 with its full (max) metadata, Google libphonenumber metadata release ${PHONE_METADATA_VERSION}, echoed as \`metadataVersion\`; numbering plans change, and so may an answer with a later release. ` +
    "Refused: a `country` libphonenumber does not know, or not two upper-case letters (400); a text that is not a number, has no known calling code or no `country` for a national number, or is too short or too long (422 INVALID_INPUT, `details.reason` giving libphonenumber's code: `NOT_A_NUMBER`, `INVALID_COUNTRY`, `TOO_SHORT`, `TOO_LONG`).",
  input: Type.Object(
    {
      action: withDefault(Type.Enum(ACTIONS, { description: '`parse` one number, or `find` the numbers in a text.' }), 'parse'),
      input: Type.String({
        minLength: 1,
        maxLength: MAX_TEXT_LENGTH,
        writeOnly: true,
        description: `parse: a phone number (at most ${MAX_NUMBER_LENGTH} characters): \`+1 213 373 4253\`, \`(213) 373-4253\` with a country, \`0041 44 668 18 00\`, \`tel:+1-201-555-0123;ext=1234\`. find: a text to search, up to 64 KiB. Personal data: kept out of shared links.`,
      }),
      country: Type.Optional(
        Type.String({
          pattern: '^[A-Z]{2}$',
          description:
            'The region (ISO 3166-1 alpha-2, upper case: `US`, `CH`, `GB`) a number in national form is read in; required for parse when the number has no `+`, `00` or `tel:`. find: also finds national numbers of this region.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Output,
  actions: {
    parse: { fields: ['input', 'country'] },
    find: { fields: ['input', 'country'] },
  },
  examples: [
    {
      summary: 'Parse and validate a number in international form',
      input: { input: '+1 213 373 4253' },
      output: {
        result: '+12133734253',
        action: 'parse',
        valid: true,
        possible: true,
        country: 'US',
        countryCallingCode: '1',
        nationalNumber: '2133734253',
        type: 'FIXED_LINE_OR_MOBILE',
        formats: { e164: '+12133734253', international: '+1 213 373 4253', national: '(213) 373-4253', rfc3966: 'tel:+12133734253' },
        possibleCountries: ['US'],
        metadataVersion: PHONE_METADATA_VERSION,
      },
    },
    {
      summary: 'A number in national form, read in its region (Google libphonenumber’s example)',
      input: { input: '044 668 18 00', country: 'CH' },
      output: {
        result: '+41446681800',
        action: 'parse',
        valid: true,
        possible: true,
        country: 'CH',
        countryCallingCode: '41',
        nationalNumber: '446681800',
        type: 'FIXED_LINE',
        formats: { e164: '+41446681800', international: '+41 44 668 18 00', national: '044 668 18 00', rfc3966: 'tel:+41446681800' },
        possibleCountries: ['CH'],
        metadataVersion: PHONE_METADATA_VERSION,
      },
    },
    {
      summary: 'Find the numbers in a text',
      input: { action: 'find', input: 'Support: +7 (800) 555-35-35, or our US desk at (213) 373-4253 ext. 1234.', country: 'US' },
      output: {
        result: [
          { number: '+78005553535', country: 'RU', startsAt: 9, endsAt: 27 },
          { number: '+12133734253', country: 'US', extension: '1234', startsAt: 47, endsAt: 71 },
        ],
        action: 'find',
        count: 2,
        truncated: false,
        metadataVersion: PHONE_METADATA_VERSION,
      },
    },
  ],
  verdict: { field: 'valid', failure: 'the phone number is not valid' },
  offload: ({ action, input }) => action === 'find' && input.length > FIND_OFFLOAD_CHARACTERS,
  overrun: {
    advice: 'a text of long runs of digits and punctuation is slow to search, as each run is parsed as a candidate number; search a shorter text',
  },
  runsInBrowser: true,
  async run({ action, input, country }) {
    const lib = await engine()
    if (country !== undefined && !lib.isSupportedCountry(country)) {
      throw validationError('country', 'must be a region libphonenumber knows (ISO 3166-1 alpha-2, upper case), such as US, CH or GB')
    }
    return action === 'find' ? find(lib, input, country) : parse(lib, input, country)
  },
})
