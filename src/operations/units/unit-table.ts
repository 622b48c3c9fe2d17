/** The units the converter knows: each with its quantity, its factor to the quantity's base unit, its spellings and its ladder. */

import { exactly, multiply, ONE, per, type Rational, ratio, times, ZERO } from './rational.ts'

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

export const QUANTITY_NAMES: Record<Quantity, string> = {
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
export const SYMBOLS = new Map<string, Unit>()
export const NAMES = new Map<string, Unit>()
/** Spellings read with a warning. */
export const WARNINGS = new Map<string, string>()
/** Every spelling as written, for suggestions. */
export const SPELLINGS: string[] = []
export const UNITS: Unit[] = []
export const LADDERS = new Map<string, Unit[]>()

/** Unit text as it is looked up: compatibility forms folded (℃ → °C, ² → 2, µ → μ), spaces collapsed. */
export const key = (text: string) => text.normalize('NFKC').trim().replace(/\s+/g, ' ')

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
export const SECOND = ONE

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
export const MINUTE = times(60)
export const HOUR = times(3600)
export const DAY = times(86_400)
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
export const CALENDAR_UNITS = new Set(['y', 'yr', 'yrs', 'year', 'years', 'mo', 'month', 'months', 'a'])
