import { type Static, Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'

// ---- Exact rationals ----

/** n / d, with d > 0 and no common factor. */
export interface Rational {
  n: bigint
  d: bigint
}

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b]
  while (y !== 0n) [x, y] = [y, x % y]
  return x
}

function ratio(n: bigint, d = 1n): Rational {
  if (d < 0n) [n, d] = [-n, -d]
  const divisor = gcd(n, d) || 1n
  return { n: n / divisor, d: d / divisor }
}

const add = (a: Rational, b: Rational) => ratio(a.n * b.d + b.n * a.d, a.d * b.d)
const subtract = (a: Rational, b: Rational) => ratio(a.n * b.d - b.n * a.d, a.d * b.d)
const multiply = (a: Rational, b: Rational) => ratio(a.n * b.n, a.d * b.d)
const divide = (a: Rational, b: Rational) => ratio(a.n * b.d, a.d * b.n)
const ZERO = ratio(0n)
const ONE = ratio(1n)

/** A decimal text such as `0.0254` or `1.602176634e-19`, exactly; only for the tables' own constants. */
function exactly(text: string): Rational {
  const [mantissa, exponent = '0'] = text.split('e')
  const [whole, fraction = ''] = mantissa.split('.')
  const scale = Number(exponent) - fraction.length
  const digits = BigInt(whole + fraction)
  return scale >= 0 ? ratio(digits * 10n ** BigInt(scale)) : ratio(digits, 10n ** BigInt(-scale))
}

const times = (...factors: Array<Rational | string | number>) =>
  factors.reduce<Rational>((product, factor) => multiply(product, typeof factor === 'object' ? factor : exactly(String(factor))), ONE)
const per = (a: Rational, b: Rational) => divide(a, b)

// ---- The tables ----

export const QUANTITIES = [
  'data',
  'dataRate',
  'time',
  'temperature',
  'length',
  'mass',
  'area',
  'volume',
  'speed',
  'pressure',
  'energy',
  'power',
  'frequency',
  'angle',
] as const
export type Quantity = (typeof QUANTITIES)[number]

const QUANTITY_NAMES: Record<Quantity, string> = {
  data: 'a data size',
  dataRate: 'a data rate',
  time: 'a time',
  temperature: 'a temperature',
  length: 'a length',
  mass: 'a mass',
  area: 'an area',
  volume: 'a volume',
  speed: 'a speed',
  pressure: 'a pressure',
  energy: 'an energy',
  power: 'a power',
  frequency: 'a frequency',
  angle: 'an angle',
}

export interface Unit {
  /** The symbol answers use. */
  symbol: string
  quantity: Quantity
  /** One of this unit in the quantity's base unit (B, B/s, s, K, m, kg, m², m³, m/s, Pa, J, W, Hz, turn). */
  factor: Rational
  /** Added after the factor: only temperatures have one (K = value × factor + offset). */
  offset: Rational
  /** The factor holds π, known only to the digits given. */
  irrational: boolean
  /** The family of units `to: auto` chooses among: units that differ only in scale. */
  ladder: string
  /** Data units: which prefixes they carry, for `system`. */
  prefixes?: 'si' | 'iec'
}

/** Case-sensitive symbols, and case-insensitive names (stored in lower case), to units. */
const SYMBOLS = new Map<string, Unit>()
const NAMES = new Map<string, Unit>()
/** Spellings read with a warning. */
const WARNINGS = new Map<string, string>()
/** Every spelling as written, for suggestions. */
const SPELLINGS: string[] = []
export const UNITS: Unit[] = []
const LADDERS = new Map<string, Unit[]>()

/** Unit text as it is looked up: compatibility forms folded (℃ → °C, ² → 2, µ → μ), spaces collapsed. */
const key = (text: string) => text.normalize('NFKC').trim().replace(/\s+/g, ' ')

interface UnitOptions {
  /** Other case-sensitive symbols. */
  symbols?: string[]
  /** Case-insensitive names; each is also read with an `s` added. */
  names?: string[]
  offset?: Rational
  irrational?: boolean
  /** The ladder `auto` climbs: units of one ladder differ only in scale. Without one, `auto` keeps the unit. */
  ladder?: string
  /** A unit of the ladder's family that `auto` reads from but never answers in (cm, yd, wk). */
  offLadder?: boolean
  prefixes?: 'si' | 'iec'
}

function define(quantity: Quantity, symbol: string, factor: Rational, options: UnitOptions = {}): Unit {
  const unit: Unit = {
    symbol,
    quantity,
    factor,
    offset: options.offset ?? ZERO,
    irrational: options.irrational ?? false,
    ladder: options.ladder ?? `${quantity}:${symbol}`,
    ...(options.prefixes && { prefixes: options.prefixes }),
  }
  UNITS.push(unit)
  for (const each of [symbol, ...(options.symbols ?? [])]) {
    SYMBOLS.set(key(each), unit)
    SPELLINGS.push(each)
  }
  for (const name of options.names ?? []) {
    SPELLINGS.push(name)
    const folded = key(name).toLowerCase()
    NAMES.set(folded, unit)
    if (!folded.endsWith('s')) NAMES.set(`${folded}s`, unit)
  }
  if (options.ladder && !options.offLadder) LADDERS.set(options.ladder, [...(LADDERS.get(options.ladder) ?? []), unit])
  return unit
}

const SI_PREFIXES: Array<[symbol: string, name: string, power: number]> = [
  ['k', 'kilo', 3],
  ['M', 'mega', 6],
  ['G', 'giga', 9],
  ['T', 'tera', 12],
  ['P', 'peta', 15],
  ['E', 'exa', 18],
  ['Z', 'zetta', 21],
  ['Y', 'yotta', 24],
  ['R', 'ronna', 27],
  ['Q', 'quetta', 30],
]
const IEC_PREFIXES: Array<[symbol: string, name: string, power: number]> = [
  ['Ki', 'kibi', 10],
  ['Mi', 'mebi', 20],
  ['Gi', 'gibi', 30],
  ['Ti', 'tebi', 40],
  ['Pi', 'pebi', 50],
  ['Ei', 'exbi', 60],
  ['Zi', 'zebi', 70],
  ['Yi', 'yobi', 80],
]

const BIT = ratio(1n, 8n)
const SECOND = ONE

/** Bits and bytes with every SI and IEC prefix, as sizes or (with `/s`) as rates. */
function defineData(rate: boolean): void {
  const quantity: Quantity = rate ? 'dataRate' : 'data'
  const suffix = rate ? '/s' : ''
  const nameSuffix = rate ? ' per second' : ''
  for (const [kind, base, factor] of [
    ['bit', 'bit', BIT],
    ['byte', 'B', ONE],
  ] as const) {
    const bit = kind === 'bit'
    const symbolsOf = (prefix: string) => (rate ? (bit ? [`${prefix}b/s`, `${prefix}bps`] : [`${prefix}Bps`]) : bit ? [`${prefix}b`] : [])
    const namesOf = (prefix: string) => [`${prefix}${kind}${nameSuffix}`, `${prefix}${kind}s${nameSuffix}`, ...(!bit && !rate ? [`${prefix}octet`] : [])]
    define(quantity, `${base}${suffix}`, factor, {
      symbols: symbolsOf(''),
      names: namesOf(''),
      ladder: `${quantity}:${kind}`,
    })
    for (const [prefix, name, power] of SI_PREFIXES) {
      const unit = define(quantity, `${prefix}${base}${suffix}`, times(factor, ratio(10n ** BigInt(power))), {
        symbols: symbolsOf(prefix),
        names: namesOf(name),
        ladder: `${quantity}:${kind}`,
        prefixes: 'si',
      })
      if (prefix === 'k') {
        // `K` is no SI prefix (it is the kelvin), yet KB is everywhere: read as kilo, never as 1024.
        for (const spelling of [`K${base}${suffix}`, ...symbolsOf('K')]) {
          SYMBOLS.set(key(spelling), unit)
          WARNINGS.set(
            key(spelling),
            `${spelling} is read as ${unit.symbol} (1000 ${bit ? 'bits' : 'bytes'}${rate ? ' per second' : ''}); write Ki${base}${suffix} for 1024`,
          )
        }
      }
    }
    for (const [prefix, name, power] of IEC_PREFIXES) {
      define(quantity, `${prefix}${base}${suffix}`, times(factor, ratio(2n ** BigInt(power))), {
        symbols: symbolsOf(prefix),
        names: namesOf(name),
        ladder: `${quantity}:${kind}`,
        prefixes: 'iec',
      })
    }
  }
}

defineData(false)
defineData(true)

// Time: fixed-length units only; months and years need a date.
const MINUTE = times(60)
const HOUR = times(3600)
const DAY = times(86_400)
define('time', 'ns', exactly('1e-9'), { names: ['nanosecond'], ladder: 'time' })
define('time', 'µs', exactly('1e-6'), { symbols: ['us'], names: ['microsecond'], ladder: 'time' })
define('time', 'ms', exactly('1e-3'), { names: ['millisecond'], ladder: 'time' })
define('time', 's', SECOND, { symbols: ['sec'], names: ['second', 'sec'], ladder: 'time' })
define('time', 'min', MINUTE, { names: ['minute', 'min'], ladder: 'time' })
define('time', 'h', HOUR, { symbols: ['hr'], names: ['hour', 'hr'], ladder: 'time' })
define('time', 'd', DAY, { names: ['day'], ladder: 'time' })
define('time', 'wk', times(DAY, 7), { names: ['week', 'wk'], ladder: 'time', offLadder: true })

// Temperature: kelvin = value × factor + offset.
const FIVE_NINTHS = ratio(5n, 9n)
define('temperature', 'K', ONE, { names: ['kelvin'] })
define('temperature', '°C', ONE, {
  offset: exactly('273.15'),
  symbols: ['C', 'degC', 'ºC'],
  names: ['celsius', 'degree celsius', 'degrees celsius', 'centigrade'],
})
define('temperature', '°F', FIVE_NINTHS, {
  offset: times(FIVE_NINTHS, '459.67'),
  symbols: ['F', 'degF', 'ºF'],
  names: ['fahrenheit', 'degree fahrenheit', 'degrees fahrenheit'],
})
define('temperature', '°R', FIVE_NINTHS, { symbols: ['degR', 'ºR'], names: ['rankine', 'degree rankine', 'degrees rankine'] })

// Length: the international inch, and CSS Values 4's absolute lengths, which it defines.
const INCH = exactly('0.0254')
const FOOT = times(INCH, 12)
const YARD = times(INCH, 36)
const MILE = times(YARD, 1760)
interface LengthUnit {
  symbol: string
  factor: Rational
  names: string[]
  symbols?: string[]
  ladder?: string
  offLadder?: boolean
}
const LENGTHS: LengthUnit[] = [
  { symbol: 'nm', factor: exactly('1e-9'), names: ['nanometre', 'nanometer'], ladder: 'metric' },
  { symbol: 'µm', factor: exactly('1e-6'), names: ['micrometre', 'micrometer', 'micron'], symbols: ['um'], ladder: 'metric' },
  { symbol: 'mm', factor: exactly('1e-3'), names: ['millimetre', 'millimeter'], ladder: 'metric' },
  { symbol: 'cm', factor: exactly('1e-2'), names: ['centimetre', 'centimeter'], ladder: 'metric', offLadder: true },
  { symbol: 'm', factor: ONE, names: ['metre', 'meter'], ladder: 'metric' },
  { symbol: 'km', factor: exactly('1e3'), names: ['kilometre', 'kilometer'], ladder: 'metric' },
  { symbol: 'in', factor: INCH, names: ['inch', 'inches'], ladder: 'imperial' },
  { symbol: 'ft', factor: FOOT, names: ['foot', 'feet'], ladder: 'imperial' },
  { symbol: 'yd', factor: YARD, names: ['yard'], ladder: 'imperial', offLadder: true },
  { symbol: 'mi', factor: MILE, names: ['mile'], ladder: 'imperial' },
  { symbol: 'nmi', factor: times(1852), names: ['nautical mile'] },
  { symbol: 'px', factor: per(INCH, times(96)), names: ['pixel'] },
  { symbol: 'pt', factor: per(INCH, times(72)), names: ['point'] },
  { symbol: 'pc', factor: per(INCH, times(6)), names: ['pica'] },
]
for (const { symbol, factor, names, symbols, ladder, offLadder } of LENGTHS) {
  define('length', symbol, factor, { names, symbols, ladder: ladder && `length:${ladder}`, offLadder })
}

// Mass: the international pound.
const POUND = exactly('0.45359237')
define('mass', 'µg', exactly('1e-9'), { symbols: ['ug', 'mcg'], names: ['microgram', 'microgramme'], ladder: 'mass:metric' })
define('mass', 'mg', exactly('1e-6'), { names: ['milligram', 'milligramme'], ladder: 'mass:metric' })
define('mass', 'g', exactly('1e-3'), { names: ['gram', 'gramme'], ladder: 'mass:metric' })
define('mass', 'kg', ONE, { names: ['kilogram', 'kilogramme', 'kilo'], ladder: 'mass:metric' })
define('mass', 't', times(1000), { names: ['tonne', 'metric ton'], ladder: 'mass:metric' })
define('mass', 'oz', per(POUND, times(16)), { names: ['ounce'], ladder: 'mass:imperial' })
define('mass', 'lb', POUND, { symbols: ['lbs'], names: ['pound', 'lbs'], ladder: 'mass:imperial' })
define('mass', 'st', times(POUND, 14), { names: ['stone'], ladder: 'mass:imperial', offLadder: true })

// Area: squares of the lengths, the hectare, and the international acre (not the US survey acre).
const square = (factor: Rational) => multiply(factor, factor)
function defineSquare(symbol: string, ladder: string, offLadder = false): void {
  const length = LENGTHS.find((unit) => unit.symbol === symbol)!
  define('area', `${symbol}²`, square(length.factor), {
    symbols: [`${symbol}^2`, `sq ${symbol}`, ...(length.symbols ?? []).map((other) => `${other}2`)],
    names: length.names.map((name) => `square ${name}`),
    ladder: `area:${ladder}`,
    offLadder,
  })
}
defineSquare('mm', 'metric')
defineSquare('cm', 'metric')
defineSquare('m', 'metric')
define('area', 'ha', times(10_000), { names: ['hectare'], ladder: 'area:metric' })
defineSquare('km', 'metric')
defineSquare('in', 'imperial')
defineSquare('ft', 'imperial')
defineSquare('yd', 'imperial', true)
define('area', 'ac', times(square(YARD), 4840), { names: ['acre'], ladder: 'area:imperial' })
defineSquare('mi', 'imperial')

// Volume: litres, US customary (from the wine gallon in cubic inches) and imperial (from the litre-defined gallon).
const LITRE = exactly('1e-3')
const US_GALLON = times(INCH, INCH, INCH, 231)
const US_FLUID_OUNCE = per(US_GALLON, times(128))
const IMPERIAL_GALLON = times(LITRE, '4.54609')
define('volume', 'mL', exactly('1e-6'), {
  symbols: ['ml', 'cm³', 'cm^3', 'cc'],
  names: ['millilitre', 'milliliter', 'cubic centimetre', 'cubic centimeter'],
  ladder: 'volume:metric',
})
define('volume', 'cL', exactly('1e-5'), { symbols: ['cl'], names: ['centilitre', 'centiliter'], ladder: 'volume:metric', offLadder: true })
define('volume', 'L', LITRE, { symbols: ['l'], names: ['litre', 'liter'], ladder: 'volume:metric' })
define('volume', 'm³', ONE, { symbols: ['m^3'], names: ['cubic metre', 'cubic meter'], ladder: 'volume:metric' })
define('volume', 'tsp', per(US_FLUID_OUNCE, times(6)), { names: ['teaspoon'], ladder: 'volume:us' })
define('volume', 'tbsp', per(US_FLUID_OUNCE, times(2)), { names: ['tablespoon'], ladder: 'volume:us' })
define('volume', 'fl oz', US_FLUID_OUNCE, { symbols: ['floz', 'US fl oz'], names: ['fluid ounce', 'us fluid ounce'], ladder: 'volume:us' })
define('volume', 'cup', per(US_GALLON, times(16)), { names: ['cup', 'us cup'], ladder: 'volume:us' })
define('volume', 'pint', per(US_GALLON, times(8)), { names: ['pint', 'us pint'], ladder: 'volume:us' })
define('volume', 'quart', per(US_GALLON, times(4)), { symbols: ['qt'], names: ['quart', 'us quart'], ladder: 'volume:us' })
define('volume', 'gal', US_GALLON, { symbols: ['US gal'], names: ['gallon', 'us gallon'], ladder: 'volume:us' })
define('volume', 'imp fl oz', per(IMPERIAL_GALLON, times(160)), {
  symbols: ['UK fl oz'],
  names: ['imperial fluid ounce', 'uk fluid ounce'],
  ladder: 'volume:imperial',
})
define('volume', 'imp pint', per(IMPERIAL_GALLON, times(8)), { symbols: ['UK pint'], names: ['imperial pint', 'uk pint'], ladder: 'volume:imperial' })
define('volume', 'imp gal', IMPERIAL_GALLON, { symbols: ['UK gal'], names: ['imperial gallon', 'uk gallon'], ladder: 'volume:imperial' })

// Speed.
define('speed', 'm/s', ONE, { symbols: ['mps'], names: ['metre per second', 'meter per second', 'metres per second', 'meters per second'] })
define('speed', 'km/h', per(times(1000), HOUR), {
  symbols: ['kph', 'kmh', 'km/hr'],
  names: ['kilometre per hour', 'kilometer per hour', 'kilometres per hour', 'kilometers per hour'],
})
define('speed', 'mph', per(MILE, HOUR), { symbols: ['mi/h'], names: ['mile per hour', 'miles per hour'] })
define('speed', 'kn', per(times(1852), HOUR), { symbols: ['kt'], names: ['knot'] })
define('speed', 'ft/s', FOOT, { names: ['foot per second', 'feet per second'] })

// Pressure: standard gravity, the standard atmosphere, and the conventional mmHg (a conventional density of mercury).
const GRAVITY = exactly('9.80665')
const POUND_FORCE = times(POUND, GRAVITY)
const ATMOSPHERE = times(101_325)
define('pressure', 'Pa', ONE, { names: ['pascal'], ladder: 'pressure:pascal' })
define('pressure', 'hPa', times(100), { names: ['hectopascal'], ladder: 'pressure:pascal', offLadder: true })
define('pressure', 'kPa', times(1000), { names: ['kilopascal'], ladder: 'pressure:pascal' })
define('pressure', 'MPa', times(1_000_000), { names: ['megapascal'], ladder: 'pressure:pascal' })
define('pressure', 'mbar', times(100), { names: ['millibar'], ladder: 'pressure:bar' })
define('pressure', 'bar', times(100_000), { names: ['bar'], ladder: 'pressure:bar' })
define('pressure', 'atm', ATMOSPHERE, { names: ['atmosphere', 'standard atmosphere'] })
define('pressure', 'psi', per(POUND_FORCE, square(INCH)), { names: ['pound per square inch', 'pounds per square inch'] })
define('pressure', 'mmHg', times('13595.1', GRAVITY, '1e-3'), { names: ['millimetre of mercury', 'millimeter of mercury', 'millimetres of mercury'] })
define('pressure', 'Torr', per(ATMOSPHERE, times(760)), { symbols: ['torr'], names: ['torr'] })

// Energy: the thermochemical calorie, the International Table BTU, the electronvolt of SI 2019.
define('energy', 'J', ONE, { names: ['joule'], ladder: 'energy:joule' })
define('energy', 'kJ', times(1000), { names: ['kilojoule'], ladder: 'energy:joule' })
define('energy', 'MJ', times(1_000_000), { names: ['megajoule'], ladder: 'energy:joule' })
define('energy', 'cal', exactly('4.184'), { names: ['calorie'], ladder: 'energy:calorie' })
define('energy', 'kcal', exactly('4184'), { names: ['kilocalorie'], ladder: 'energy:calorie' })
define('energy', 'Wh', HOUR, { names: ['watt hour', 'watt-hour'], ladder: 'energy:watt-hour' })
define('energy', 'kWh', times(HOUR, 1000), { names: ['kilowatt hour', 'kilowatt-hour'], ladder: 'energy:watt-hour' })
define('energy', 'eV', exactly('1.602176634e-19'), { names: ['electronvolt', 'electron volt'] })
define('energy', 'BTU', exactly('1055.05585262'), { symbols: ['Btu'], names: ['british thermal unit'] })

// Power: mechanical horsepower (in foot-pounds-force per second) and metric horsepower (in kilograms-force metres per second).
define('power', 'W', ONE, { names: ['watt'], ladder: 'power' })
define('power', 'kW', times(1000), { names: ['kilowatt'], ladder: 'power' })
define('power', 'MW', times(1_000_000), { names: ['megawatt'], ladder: 'power' })
define('power', 'GW', times(1_000_000_000), { names: ['gigawatt'], ladder: 'power' })
define('power', 'hp', times(FOOT, POUND_FORCE, 550), { names: ['horsepower', 'mechanical horsepower'] })
define('power', 'PS', times(GRAVITY, 75), { names: ['metric horsepower', 'pferdestärke'] })

// Frequency.
define('frequency', 'Hz', ONE, { names: ['hertz'], ladder: 'frequency' })
define('frequency', 'kHz', times(1000), { names: ['kilohertz'], ladder: 'frequency' })
define('frequency', 'MHz', times(1_000_000), { names: ['megahertz'], ladder: 'frequency' })
define('frequency', 'GHz', times('1e9'), { names: ['gigahertz'], ladder: 'frequency' })
define('frequency', 'THz', times('1e12'), { names: ['terahertz'], ladder: 'frequency' })
define('frequency', 'rpm', per(ONE, MINUTE), { symbols: ['RPM', 'r/min'], names: ['revolution per minute', 'revolutions per minute'] })

// Angle, in turns. π is taken to twice the digits an answer may ask for, so that those it shows are right.
const PI = exactly('3.1415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679')
define('angle', 'arcsec', ratio(1n, 1_296_000n), { symbols: ['″', '"'], names: ['arcsecond', 'second of arc'], ladder: 'angle' })
define('angle', 'arcmin', ratio(1n, 21_600n), { symbols: ['′', "'"], names: ['arcminute', 'minute of arc'], ladder: 'angle' })
define('angle', 'deg', ratio(1n, 360n), { symbols: ['°'], names: ['degree'], ladder: 'angle' })
define('angle', 'rad', per(ONE, times(PI, 2)), { irrational: true, names: ['radian'] })
define('angle', 'grad', ratio(1n, 400n), { symbols: ['gon'], names: ['gradian', 'gon'] })
define('angle', 'turn', ONE, { symbols: ['rev'], names: ['turn', 'revolution'] })

/** Words that name calendar units: they have no fixed length. */
const CALENDAR_UNITS = new Set(['y', 'yr', 'yrs', 'year', 'years', 'mo', 'month', 'months', 'a'])

// ---- Reading units ----

/** Levenshtein distance, giving up (returning more than `limit`) once it must exceed `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let smallest = i
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
      smallest = Math.min(smallest, current[j])
    }
    if (smallest > limit) return limit + 1
    previous = current
  }
  return previous[b.length]
}

const MAX_SUGGESTIONS = 10

/** The known spellings within two edits of `text` (letter case aside), nearest first. */
export function closeNames(text: string): string[] {
  const folded = key(text).toLowerCase()
  const scored: Array<[string, number]> = []
  for (const name of SPELLINGS) {
    const score = distance(folded, key(name).toLowerCase(), 2)
    if (score <= 2) scored.push([name, score])
  }
  scored.sort((a, b) => a[1] - b[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1))
  return [...new Set(scored.map(([name]) => name))].slice(0, MAX_SUGGESTIONS)
}

/** A unit as the caller wrote it, and the warning its spelling calls for. */
interface Found {
  unit: Unit
  warning?: string
}

function findUnit(text: string): Found | undefined {
  const folded = key(text)
  const unit = SYMBOLS.get(folded) ?? NAMES.get(folded.toLowerCase())
  return unit && { unit, warning: WARNINGS.get(folded) }
}

function unitOf(text: string, field: string): Found {
  const found = findUnit(text)
  if (found) return found
  if (CALENDAR_UNITS.has(key(text).toLowerCase())) {
    throw invalidInput(`${text} is a calendar unit, whose length varies: calendar units need a date: use datetime`, { field, unit: text })
  }
  const close = closeNames(text)
  throw invalidInput(`'${text}' is not a unit this operation knows${close.length > 0 ? `; did you mean ${close.join(', ')}?` : ''}`, {
    field,
    unit: text,
    closeNames: close,
  })
}

// ---- Reading numbers ----

/** Digits of a decimal at most, and the magnitude of a value other than 0, as a power of ten either way. */
const MAX_DIGITS = 100
const MAX_EXPONENT = 300

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/

/** A decimal text, exactly, refused (400) past the digit and magnitude limits before any large power is built. */
function readDecimal(text: string): Rational {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text)!
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match
  const digits = whole + fraction
  if (digits.length > MAX_DIGITS) throw validationError('input', `has a number of ${digits.length} digits; at most ${MAX_DIGITS} are read`)
  const significant = digits.replace(/^0+/, '')
  if (significant === '') return ZERO
  // An exponent of many digits is out of range whatever it says; Number would read it as Infinity.
  const longExponent = exponentText.replace(/^[+-]?0*/, '').length > 6
  const exponent = longExponent ? (exponentText.startsWith('-') ? -1e7 : 1e7) : Number(exponentText)
  const scale = exponent - fraction.length
  // ⌊log10 |value|⌋: the place of the first significant digit.
  const magnitude = significant.length - 1 + scale
  const aboveOne = significant.replace(/^1/, '').replace(/0+$/, '') !== ''
  if (magnitude > MAX_EXPONENT || (magnitude === MAX_EXPONENT && aboveOne))
    throw validationError('input', `is too large: |value| may be at most 1e${MAX_EXPONENT}`)
  if (magnitude < -MAX_EXPONENT) throw validationError('input', `is too small: a value other than 0 must be at least 1e-${MAX_EXPONENT} in size`)
  const integer = BigInt(sign === '-' ? `-${significant}` : significant)
  return scale >= 0 ? ratio(integer * 10n ** BigInt(scale)) : ratio(integer, 10n ** BigInt(-scale))
}

const abs = (value: Rational) => (value.n < 0n ? ratio(-value.n, value.d) : value)
const compare = (a: Rational, b: Rational) => {
  const difference = a.n * b.d - b.n * a.d
  return difference < 0n ? -1 : difference > 0n ? 1 : 0
}

/** A JSON number through its shortest round-trip text, so that 0.1 means one tenth. */
const numberText = (value: number) => String(value)

// ---- Durations ----

/** Units only duration text gives these meanings: `m` (a minute, not a metre) and `w` (a week). */
const DURATION_ONLY = new Map([
  ['m', 'min'],
  ['w', 'wk'],
])
const ISO_DURATION =
  /^([+-])?P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/i
const DURATION_PART = /(\d+(?:\.\d+)?|\.\d+)\s*([a-zµμ]+)\s*,?\s*/giy

/** An ISO 8601 duration (`PT1H30M`, `P1W`, `P2DT3H`) in seconds; undefined when `text` is not one. */
function isoDuration(text: string): Rational | undefined {
  const match = ISO_DURATION.exec(text)
  if (!match || text.toUpperCase().replace(/^[+-]/, '') === 'P' || /T$/i.test(text)) return undefined
  const [, sign, years, months, weeks, days, hours, minutes, seconds] = match
  if (years !== undefined || months !== undefined) {
    throw invalidInput(`${text} holds years or months, whose length varies: calendar units need a date: use datetime`, { field: 'input' })
  }
  const parts: Array<[string | undefined, Rational]> = [
    [weeks, times(DAY, 7)],
    [days, DAY],
    [hours, HOUR],
    [minutes, MINUTE],
    [seconds, SECOND],
  ]
  let total = ZERO
  for (const [amount, size] of parts) if (amount !== undefined) total = add(total, multiply(readDecimal(amount.replace(',', '.')), size))
  return sign === '-' ? ratio(-total.n, total.d) : total
}

/** A duration of several parts (`1h 30m`, `2 days 4 hours`) in seconds; undefined when `text` is not one. */
function partsDuration(text: string): Rational | undefined {
  const sign = /^[+-]/.test(text) ? text[0] : ''
  const body = text.slice(sign.length).trim()
  DURATION_PART.lastIndex = 0
  let total = ZERO
  let parts = 0
  let match: RegExpExecArray | null
  // biome-ignore lint/suspicious/noAssignInExpressions: the sticky pattern walks the text part by part
  while ((match = DURATION_PART.exec(body)) !== null) {
    const [, amount, name] = match
    const alias = DURATION_ONLY.get(name)
    const unit = alias ? SYMBOLS.get(alias) : findUnit(name)?.unit
    if (unit?.quantity !== 'time') return undefined
    total = add(total, multiply(readDecimal(amount), unit.factor))
    parts++
    if (DURATION_PART.lastIndex === body.length) return parts > 1 ? (sign === '-' ? ratio(-total.n, total.d) : total) : undefined
  }
  return undefined
}

// ---- Writing numbers ----

export interface Rounded {
  text: string
  exact: boolean
}

/** ⌊log10 |value|⌋ of a value other than 0. */
function decimalExponent(value: Rational): number {
  const n = value.n < 0n ? -value.n : value.n
  let exponent = n.toString().length - value.d.toString().length
  const ten = (power: number) => (power >= 0 ? ratio(10n ** BigInt(power)) : ratio(1n, 10n ** BigInt(-power)))
  const size = ratio(n, value.d)
  if (compare(size, ten(exponent)) < 0) exponent--
  return exponent
}

/**
 * `value` rounded once, half to even, to `digits` significant digits, as JavaScript writes
 * numbers: positional from 1e-7 up to 1e21, with an exponent outside it; trailing zeros trimmed.
 */
export function roundToDigits(value: Rational, digits: number): Rounded {
  if (value.n === 0n) return { text: '0', exact: true }
  const negative = value.n < 0n
  const n = negative ? -value.n : value.n
  let exponent = decimalExponent(value)
  const shift = digits - 1 - exponent
  const numerator = shift >= 0 ? n * 10n ** BigInt(shift) : n
  const denominator = shift >= 0 ? value.d : value.d * 10n ** BigInt(-shift)
  let quotient = numerator / denominator
  const remainder = numerator % denominator
  const twice = remainder * 2n
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient++
  if (quotient === 10n ** BigInt(digits)) {
    quotient /= 10n
    exponent++
  }
  const significant = quotient.toString().replace(/0+$/, '')
  return { text: (negative ? '-' : '') + positional(significant, exponent), exact: remainder === 0n }
}

function positional(significant: string, exponent: number): string {
  if (exponent >= 21 || exponent <= -7) {
    const mantissa = significant.length > 1 ? `${significant[0]}.${significant.slice(1)}` : significant
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`
  }
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${significant}`
  if (significant.length <= exponent + 1) return significant + '0'.repeat(exponent + 1 - significant.length)
  return `${significant.slice(0, exponent + 1)}.${significant.slice(exponent + 1)}`
}

/** A value whose denominator divides a power of ten, written in full. */
function terminating(value: Rational): string {
  let power = 0
  let d = value.d
  while (d % 10n === 0n) [d, power] = [d / 10n, power + 1]
  while (d % 2n === 0n || d % 5n === 0n) [d, power] = [d % 2n === 0n ? d / 2n : d / 5n, power + 1]
  const scaled = (value.n * 10n ** BigInt(power)) / value.d
  const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(power + 1, '0')
  const whole = digits.slice(0, digits.length - power)
  const fraction = digits.slice(digits.length - power).replace(/0+$/, '')
  return `${scaled < 0n ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** A duration in seconds as ISO 8601 (`P1DT2H30M`) and in short words (`1d 2h 30m`); a day is a fixed length. */
function durationTexts(seconds: Rational): { iso: string; human: string } {
  const negative = seconds.n < 0n
  let rest = abs(seconds)
  const parts: Array<[bigint | Rational, string]> = []
  for (const [size, letter] of [
    [DAY, 'd'],
    [HOUR, 'h'],
    [MINUTE, 'm'],
  ] as const) {
    const count = rest.n / (rest.d * size.n)
    parts.push([count, letter])
    rest = subtract(rest, times(size, ratio(count)))
  }
  parts.push([rest, 's'])
  const written = parts
    .map(([amount, letter]) => [typeof amount === 'bigint' ? amount.toString() : terminating(amount), letter] as const)
    .filter(([amount]) => amount !== '0')
  const sign = negative ? '-' : ''
  if (written.length === 0) return { iso: 'PT0S', human: '0s' }
  const human = sign + written.map(([amount, letter]) => `${amount}${letter}`).join(' ')
  const date = written.filter(([, letter]) => letter === 'd').map(([amount]) => `${amount}D`)
  const time = written.filter(([, letter]) => letter !== 'd').map(([amount, letter]) => `${amount}${letter.toUpperCase()}`)
  return { iso: `${sign}P${date.join('')}${time.length > 0 ? `T${time.join('')}` : ''}`, human }
}

// ---- Converting ----

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
