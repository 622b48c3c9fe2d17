import { type Static, Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { DECIMAL, numberText, readDecimal, roundToDigits, terminating } from './decimals.ts'
import { durationTexts, isoDuration, partsDuration } from './durations.ts'
import { abs, add, compare, divide, multiply, ONE, type Rational, subtract, ZERO } from './rational.ts'
import { type Found, findUnit, unitOf } from './unit-names.ts'
import { LADDERS, QUANTITIES, QUANTITY_NAMES, SYMBOLS, UNITS, type Unit } from './unit-table.ts'

/** `value` of `from` in `to`, exactly (π aside): through kelvin for temperatures. */
export function convert(value: Rational, from: Unit, to: Unit): Rational {
  const base = add(multiply(value, from.factor), from.offset)
  return divide(subtract(base, to.offset), to.factor)
}

/** The unit `to: auto` gives: the largest of the ladder in which |value| is at least 1, else the smallest. */
function autoUnit(value: Rational, from: Unit, system: 'si' | 'iec'): Unit {
  const rungs = LADDERS.get(from.ladder)
  if (!rungs || value.n === 0n) return from
  const steps = rungs.filter((unit) => unit.prefixes === undefined || unit.prefixes === system).sort((a, b) => compare(a.factor, b.factor))
  let chosen = steps[0]
  for (const step of steps) if (compare(abs(convert(value, from, step)), ONE) >= 0) chosen = step
  return chosen
}

const Conversion = Type.Object({
  unit: Type.String({ description: 'The unit.' }),
  value: Type.Number({ description: 'The value in it, the nearest double to `text`.' }),
  text: Type.String({ description: 'The value in it, rounded to `significantDigits`.' }),
  exact: Type.Boolean({ description: 'Whether `text` is the value exactly.' }),
})

const output = Type.Object({
  result: Type.Number({ description: 'The value in `unit`: the nearest double to `text`.' }),
  text: Type.String({
    description:
      'The value in `unit` rounded once, half to even, to `significantDigits` significant digits, trailing zeros trimmed; written as JavaScript writes numbers (positional from 1e-7 to 1e21, `1.602176634e-19` outside).',
  }),
  exact: Type.Boolean({ description: 'Whether `text` is the value exactly: false when rounding dropped digits, or when π (radians) took part.' }),
  unit: Type.String({ description: 'The unit of `result`: `to`, or the one `auto` chose.' }),
  from: Type.String({ description: 'The unit the input was read in, as its symbol.' }),
  quantity: Type.Enum(QUANTITIES, { description: 'What the units measure.' }),
  conversions: Type.Optional(Type.Array(Conversion, { description: '`to: all`: the value in every unit of the quantity.' })),
  iso: Type.Optional(Type.String({ description: 'Times: the duration in ISO 8601 (`PT1H30M`, `P2DT3H`), a day being 86,400 s.' })),
  human: Type.Optional(Type.String({ description: 'Times: the duration in short words (`1h 30m`, `2d 3h`).' })),
  warnings: Type.Optional(Type.Array(Type.String(), { description: 'How an ambiguous spelling was read, such as KB as kB (1000 B).' })),
})

type Output = Static<typeof output>

/** The value in `unit`, or a refusal when it leaves the range of a JSON number. */
function valueIn(value: Rational, from: Unit, unit: Unit, digits: number) {
  const converted = convert(value, from, unit)
  const rounded = roundToDigits(converted, digits)
  const result = Number(rounded.text)
  if (!Number.isFinite(result)) {
    throw limitExceeded(`the value in ${unit.symbol} is about ${roundToDigits(converted, 3).text}, past the largest number JSON carries (about 1.8e308)`, {
      unit: unit.symbol,
    })
  }
  // π is known only to its digits: a value through radians is never exact unless it is 0.
  const exact = rounded.exact && !(value.n !== 0n && from.irrational !== unit.irrational)
  // A value too small for a double reads as 0, never as -0.
  return { unit: unit.symbol, value: result === 0 ? 0 : result, text: rounded.text, exact }
}

/** What `input` holds: its value and, where written, its unit. */
interface Reading {
  value: Rational
  unit?: Found
  /** Duration text read in seconds, whatever `from` says. */
  duration?: boolean
}

function read(input: number | string): Reading {
  if (typeof input === 'number') return { value: readDecimal(numberText(input)) }
  // Typeset text writes negative values with the minus sign (U+2212) rather than a hyphen.
  const text = input.trim().replace(/^\u2212/, '-')
  if (/^[+-]?P/i.test(text)) {
    const seconds = isoDuration(text)
    if (seconds) return { value: seconds, unit: { unit: SYMBOLS.get('s')! }, duration: true }
  }
  const number = DECIMAL.exec(text)
  if (!number) {
    throw invalidInput(`'${input}' does not start with a number: write a decimal number and its unit, such as 1.5 GiB, or a duration such as 1h 30m`, {
      field: 'input',
      position: input.length - input.trimStart().length,
    })
  }
  const rest = text.slice(number[0].length).trim()
  const value = readDecimal(number[0])
  if (rest === '') return { value }
  const found = findUnit(rest)
  if (found) return { value, unit: found }
  const seconds = partsDuration(text)
  if (seconds) return { value: seconds, unit: { unit: SYMBOLS.get('s')! }, duration: true }
  if (/^,\d/.test(rest)) throw invalidInput(`'${input}' has a comma in its number: write the decimal point as '.', and no group separators`, { field: 'input' })
  return { value, unit: unitOf(rest, 'input') }
}

const describeUnit = (unit: Unit) => `${unit.symbol} is ${QUANTITY_NAMES[unit.quantity]}`

export const units = defineOperation({
  name: 'units',
  category: 'converters',
  summary: 'Convert between units of data size, rate, time, temperature, length, mass, area, volume, speed, pressure, energy, power, frequency and angle',
  title: 'Unit converter',
  aliases: [
    'unit conversion',
    'convert units',
    'measurement',
    'kb mb gb',
    'bytes',
    'kilobytes',
    'megabytes',
    'gigabytes',
    'kib mib gib',
    'mebibytes',
    'gibibytes',
    'binary prefixes',
    'file size',
    'bandwidth',
    'mbps',
    'duration',
    'hours to minutes',
    'fahrenheit',
    'celsius',
    'kelvin',
    'metric',
    'imperial',
    'miles',
    'km',
    'kilometres',
    'kilometers',
    'inches',
    'feet',
    'pounds',
    'kg',
    'ounces',
    'grams',
    'gallons',
    'litres',
    'liters',
    'mph',
    'knots',
    'psi',
    'pascal',
    'kwh',
    'joules',
    'calories',
    'btu',
    'watts',
    'horsepower',
    'hertz',
    'rpm',
    'radians',
  ],
  description:
    'Converts a value between units of one quantity, exactly: every factor is an exact fraction taken from its definition (SI 2019; the international inch and pound of 1959; NIST SP 811; IEC 80000-13 binary prefixes; CSS Values 4 absolute lengths, 1in = 96px = 72pt = 6pc; standard gravity 9.80665 m/s², atm 101325 Pa, the conventional mmHg, the thermochemical calorie 4.184 J, the International Table BTU 1055.05585262 J, mechanical horsepower 550 ft·lbf/s, metric PS 75 kgf·m/s, US customary volumes from the 231 in³ gallon, imperial ones from the 4.54609 L gallon, the international acre of 4840 yd²), computed with big-integer fractions and rounded once, half to even, to `significantDigits`; `exact` says whether that rounding lost anything. ' +
    'Only radians are irrational: π is taken to 100 decimals and such answers are never marked exact. Temperatures convert through kelvin (affine, still exact). ' +
    '`input` is a number, or text: a decimal number with its unit (`1.5 GiB`, `90 km/h`, `1e6 B`), or a duration (`1h 30m`, `2 days 4 hours`, ISO 8601 `PT1H30M`, `P1W`) read in seconds. A JSON number is read through its shortest decimal text, so 0.1 is one tenth; a leading minus sign (U+2212) reads as `-`. ' +
    'Symbols are case-sensitive (`b` is a bit and `B` a byte, `m` milli and `M` mega; `KB`, `Kb` and `Kbps` are read as kilo with a warning to write KiB for 1024); long names (`kilometres`, `mebibytes`) are not. `pt` is the typographic point: the pint is `pint`. `m` is a minute only in a duration of several parts (`1h 30m`), and a day is 86,400 s. ' +
    "`to: auto` moves within the unit's family to the largest of its steps in which |value| is at least 1 (else the smallest): SI (kB, MB…) or IEC (KiB, MiB…) prefixes by `system` for data sizes and rates, bits staying bits; ns µs ms s min h d; nm µm mm m km; in ft mi; µg mg g kg t; oz lb; mm² cm² m² ha km²; in² ft² ac mi²; mL L m³; tsp tbsp fl oz cup pint quart gal; imp fl oz, pint, gal; Pa kPa MPa; mbar bar; J kJ MJ; cal kcal; Wh kWh; W kW MW GW; Hz kHz MHz GHz THz; arcsec arcmin deg. Units of no family (temperatures, speeds, atm, psi…) are kept. `to: all` also lists every unit of the quantity, with `result` as for auto. Times also get `iso` and `human`. " +
    'Refused: `from` given with an input that names another unit (400); a number of more than 100 digits, or a size outside 1e-300 to 1e300 (400); an unknown unit (422 with the names within two edits in `details.closeNames`); units of two quantities (422 naming both); years, months or an ISO duration with Y or M (422: use datetime); a temperature below absolute zero (422); an answer past the range of a JSON number (422 LIMIT_EXCEEDED). A negative data size is allowed (a difference).',
  allowGet: true,
  input: Type.Object(
    {
      input: Type.Union(
        [
          Type.Number({ minimum: -1e300, maximum: 1e300 }),
          Type.String({ minLength: 1, maxLength: 200, description: 'A decimal number with an optional unit, or a duration.' }),
        ],
        {
          description:
            'The value: a number (with `from`), or text of a decimal number and optionally its unit (`1.5 GiB`, `90 km/h`, `-40 °C`), or a duration (`1h 30m`, `PT1H30M`, `90min`).',
          examples: ['1.5 GiB', 100, '1h 30m'],
        },
      ),
      from: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'The unit of `input`: required when `input` names none; when it does, `from` may only name the same unit.',
          examples: ['°F', 'MiB/s', 'in'],
        }),
      ),
      to: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description:
            'The unit to convert to, `auto` (the largest unit of the same family in which the value is at least 1) or `all` (every unit of the quantity, in `conversions`).',
          examples: ['MB', '°C', 'cm', 'all'],
        }),
        'auto',
      ),
      system: withDefault(
        Type.Enum(['si', 'iec'], { description: "For `to: auto` on data sizes and rates: SI prefixes (kB = 1000 B) or IEC's (KiB = 1024 B)." }),
        'si',
      ),
      significantDigits: withDefault(
        Type.Integer({ minimum: 1, maximum: 50, description: 'Significant digits of `text`, the one rounding (half to even).' }),
        15,
      ),
    },
    { additionalProperties: false },
  ),
  output,
  examples: [
    {
      summary: 'Binary to decimal prefixes',
      input: { input: '1.5 GiB', to: 'MB' },
      output: { result: 1610.612736, text: '1610.612736', exact: true, unit: 'MB', from: 'GiB', quantity: 'data' },
    },
    {
      summary: 'Fahrenheit to Celsius, rounded',
      input: { input: 100, from: '°F', to: '°C' },
      output: { result: 37.7777777777778, text: '37.7777777777778', exact: false, unit: '°C', from: '°F', quantity: 'temperature' },
    },
    {
      summary: 'A duration, to the largest unit that fits',
      input: { input: '1h 30m' },
      output: { result: 1.5, text: '1.5', exact: true, unit: 'h', from: 's', quantity: 'time', iso: 'PT1H30M', human: '1h 30m' },
    },
    {
      summary: 'A right angle in every angle unit',
      input: { input: 90, from: 'deg', to: 'all', significantDigits: 10 },
      output: {
        result: 90,
        text: '90',
        exact: true,
        unit: 'deg',
        from: 'deg',
        quantity: 'angle',
        conversions: [
          { unit: 'arcsec', value: 324000, text: '324000', exact: true },
          { unit: 'arcmin', value: 5400, text: '5400', exact: true },
          { unit: 'deg', value: 90, text: '90', exact: true },
          { unit: 'rad', value: 1.570796327, text: '1.570796327', exact: false },
          { unit: 'grad', value: 100, text: '100', exact: true },
          { unit: 'turn', value: 0.25, text: '0.25', exact: true },
        ],
      },
    },
  ],
  runsInBrowser: true,
  run({ input, from, to, system, significantDigits }) {
    const reading = read(input)
    let source = reading.unit
    const warnings: string[] = []
    if (from !== undefined) {
      const named = unitOf(from, 'from')
      if (source && source.unit !== named.unit) {
        throw validationError(
          'from',
          `names ${named.unit.symbol}, but input ${reading.duration ? 'is a duration, read in seconds' : `carries its own unit, ${source.unit.symbol}`}: give the unit once`,
        )
      }
      source = named
    }
    if (!source) throw validationError('from', 'is required when input carries no unit: give from, or write the unit after the number (1.5 GiB)')
    if (source.warning) warnings.push(source.warning)
    const unit = source.unit
    const { value } = reading
    if (unit.quantity === 'temperature' && compare(convert(value, unit, SYMBOLS.get('K')!), ZERO) < 0) {
      throw invalidInput(`${terminating(value)} ${unit.symbol} is below absolute zero (0 K, -273.15 °C, -459.67 °F)`, { field: 'input' })
    }
    const mode = to.toLowerCase()
    let target: Unit
    if (mode === 'auto' || mode === 'all') target = autoUnit(value, unit, system)
    else {
      const named = unitOf(to, 'to')
      if (named.unit.quantity !== unit.quantity) {
        throw invalidInput(`${describeUnit(unit)} and ${describeUnit(named.unit)}: units of different quantities do not convert`, {
          from: { unit: unit.symbol, quantity: unit.quantity },
          to: { unit: named.unit.symbol, quantity: named.unit.quantity },
        })
      }
      if (named.warning) warnings.push(named.warning)
      target = named.unit
    }
    const main = valueIn(value, unit, target, significantDigits)
    const answer: Output = { result: main.value, text: main.text, exact: main.exact, unit: target.symbol, from: unit.symbol, quantity: unit.quantity }
    if (mode === 'all')
      answer.conversions = UNITS.filter((each) => each.quantity === unit.quantity).map((each) => valueIn(value, unit, each, significantDigits))
    if (unit.quantity === 'time') Object.assign(answer, durationTexts(multiply(value, unit.factor)))
    if (warnings.length > 0) answer.warnings = warnings
    return answer
  },
})
