import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOfAsync, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { roundToDigits } from './decimals.ts'
import { convert, units } from './index.ts'
import type { Rational } from './rational.ts'
import { UNITS } from './unit-table.ts'

type Fields = Record<string, unknown>
const run = (input: Fields) => execute(units, input, { timeBudgetMs: 60_000 }) as Promise<Fields>
/** The text of a conversion at `significantDigits` digits, and whether it is exact. */
const textOf = async (input: Fields) => {
  const data = await run(input)
  return [data.text, data.exact]
}

/** Whether python3 can run here; in CI it must. */
function python(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    if (process.env.CI) throw new Error('python3, the reference of these tests, is not installed')
    return false
  }
}
const hasPython = python()

/**
 * Published vectors: NIST SP 811 (Appendix B), IEC 80000-13, SI, CSS Values 4, and exact values
 * worked out with Python's fractions module from the definitions.
 */
const KNOWN_ANSWERS: Array<[input: Fields, text: string, exact: boolean]> = [
  // NIST SP 811
  [{ input: 1, from: 'in', to: 'cm' }, '2.54', true],
  [{ input: 1, from: 'lb', to: 'kg' }, '0.45359237', true],
  [{ input: 1, from: 'mi', to: 'km' }, '1.609344', true],
  [{ input: 1, from: 'ft', to: 'm' }, '0.3048', true],
  [{ input: 1, from: 'oz', to: 'g', significantDigits: 20 }, '28.349523125', true],
  [{ input: 1, from: 'gal', to: 'L', significantDigits: 20 }, '3.785411784', true],
  [{ input: 1, from: 'ac', to: 'm²', significantDigits: 30 }, '4046.8564224', true],
  [{ input: 1, from: 'atm', to: 'Pa' }, '101325', true],
  [{ input: 1, from: 'Torr', to: 'Pa', significantDigits: 20 }, '133.32236842105263158', false],
  [{ input: 1, from: 'mmHg', to: 'Pa', significantDigits: 20 }, '133.322387415', true],
  [{ input: 1, from: 'BTU', to: 'J', significantDigits: 20 }, '1055.05585262', true],
  [{ input: 1, from: 'cal', to: 'J' }, '4.184', true],
  [{ input: 1, from: 'PS', to: 'W' }, '735.49875', true],
  [{ input: 1, from: 'nmi', to: 'm' }, '1852', true],
  [{ input: 1, from: 'imp gal', to: 'L' }, '4.54609', true],
  // IEC 80000-13
  [{ input: 1, from: 'KiB', to: 'B' }, '1024', true],
  [{ input: 1, from: 'MiB', to: 'B' }, '1048576', true],
  [{ input: 1, from: 'YiB', to: 'B', significantDigits: 30 }, '1.208925819614629174706176e+24', true],
  // SI
  [{ input: 1, from: 'Gbit/s', to: 'MB/s' }, '125', true],
  [{ input: 1, from: 'kcal', to: 'J' }, '4184', true],
  [{ input: 0, from: '°C', to: 'K' }, '273.15', true],
  [{ input: -40, from: '°C', to: '°F' }, '-40', true],
  [{ input: 1, from: 'eV', to: 'J' }, '1.602176634e-19', true],
  [{ input: 1, from: 'kWh', to: 'MJ' }, '3.6', true],
  [{ input: 1, from: 'd', to: 's' }, '86400', true],
  // CSS Values 4
  [{ input: 1, from: 'in', to: 'px' }, '96', true],
  [{ input: 12, from: 'pt', to: 'px' }, '16', true],
  [{ input: 1, from: 'pc', to: 'pt' }, '12', true],
  // Python fractions, from the definitions
  [{ input: 1, from: 'psi', to: 'Pa', significantDigits: 25 }, '6894.757293168361336722673', false],
  [{ input: 1, from: 'hp', to: 'W', significantDigits: 30 }, '745.69987158227022', true],
  [{ input: 1, from: 'GB', to: 'GiB', significantDigits: 30 }, '0.931322574615478515625', true],
  [{ input: 100, from: '°F', to: '°C' }, '37.7777777777778', false],
  [{ input: 1, from: 'kn', to: 'm/s' }, '0.514444444444444', false],
  [{ input: 1, from: 'MiB/s', to: 'Mbit/s' }, '8.388608', true],
  // π to 50 digits: 180/π
  [{ input: 1, from: 'rad', to: 'deg', significantDigits: 50 }, '57.295779513082320876798154814105170332405472466564', false],
]

/**
 * The same conversions worked out by Python from the definitions, independently of the
 * operation's tables: each line is `value from to digits`, each answer Decimal's half-even
 * rounding of the exact Fraction.
 */
const PYTHON_DEFINITIONS = `
import sys, json
from fractions import Fraction as F
from decimal import Decimal, Context, ROUND_HALF_EVEN
inch = F('0.0254'); lb = F('0.45359237'); g0 = F('9.80665'); hour = 3600
gal = inch**3 * 231; impgal = F('4.54609') / 1000
u = {
  'in': inch, 'ft': 12*inch, 'yd': 36*inch, 'mi': 1760*36*inch, 'm': 1, 'km': 1000, 'cm': F(1,100), 'nmi': 1852, 'px': inch/96,
  'lb': lb, 'oz': lb/16, 'st': 14*lb, 'kg': 1, 'g': F(1,1000),
  'gal': gal, 'fl oz': gal/128, 'cup': gal/16, 'tsp': gal/768, 'L': F(1,1000), 'imp pint': impgal/8, 'imp fl oz': impgal/160,
  'psi': lb*g0/inch**2, 'Pa': 1, 'atm': 101325, 'Torr': F(101325,760), 'mmHg': F('13595.1')*g0/1000, 'bar': 100000,
  'hp': 550*12*inch*lb*g0, 'PS': 75*g0, 'W': 1, 'kW': 1000,
  'BTU': F('1055.05585262'), 'cal': F('4.184'), 'J': 1, 'kWh': 3600000, 'eV': F('1.602176634e-19'),
  'mph': 1760*36*inch/hour, 'kn': F(1852, hour), 'km/h': F(1000, hour), 'm/s': 1, 'ft/s': 12*inch,
  'ac': 4840*(36*inch)**2, 'ha': 10000, 'm²': 1, 'mi²': (1760*36*inch)**2,
  'GB': 10**9, 'GiB': 2**30, 'Mbit/s': F(10**6, 8), 'MiB/s': 2**20, 'B': 1, 'kbit': 125,
  'wk': 7*86400, 'min': 60, 's': 1,
}
for line in sys.stdin.read().splitlines():
  value, rest = line.split(' ', 1)
  source, target, digits = rest.rsplit('|', 2)
  exact = F(value) * F(u[source]) / F(u[target])
  rounded = Context(prec=int(digits), rounding=ROUND_HALF_EVEN).divide(Decimal(exact.numerator), Decimal(exact.denominator))
  print(json.dumps([str(rounded), F(rounded) == exact]))
`

const PYTHON_PAIRS: Array<[string, string]> = [
  ['in', 'cm'],
  ['yd', 'm'],
  ['mi', 'nmi'],
  ['px', 'cm'],
  ['ft', 'km'],
  ['oz', 'g'],
  ['st', 'kg'],
  ['lb', 'oz'],
  ['gal', 'L'],
  ['cup', 'fl oz'],
  ['tsp', 'L'],
  ['imp pint', 'L'],
  ['imp fl oz', 'fl oz'],
  ['psi', 'bar'],
  ['atm', 'psi'],
  ['Torr', 'mmHg'],
  ['hp', 'kW'],
  ['PS', 'hp'],
  ['BTU', 'kWh'],
  ['cal', 'eV'],
  ['mph', 'km/h'],
  ['kn', 'mph'],
  ['ft/s', 'm/s'],
  ['ac', 'ha'],
  ['mi²', 'ac'],
  ['GB', 'GiB'],
  ['MiB/s', 'Mbit/s'],
  ['kbit', 'B'],
  ['wk', 'min'],
]

/** Inputs it must refuse: the code, and the field or message that says why. */
const REFUSED: Array<{ input: Fields; code: string; message: RegExp; field?: string }> = [
  { input: { input: '5 m', from: 'km' }, code: 'VALIDATION_ERROR', message: /from names km, but input carries its own unit, m/, field: 'from' },
  { input: { input: '1h 30m', from: 'h' }, code: 'VALIDATION_ERROR', message: /input is a duration, read in seconds/, field: 'from' },
  { input: { input: '5' }, code: 'VALIDATION_ERROR', message: /from is required when input carries no unit/, field: 'from' },
  { input: { input: 5 }, code: 'VALIDATION_ERROR', message: /from is required/, field: 'from' },
  { input: { input: `${'1'.repeat(101)} m` }, code: 'VALIDATION_ERROR', message: /101 digits; at most 100/, field: 'input' },
  { input: { input: `0.${'0'.repeat(99)}1 m` }, code: 'VALIDATION_ERROR', message: /101 digits/, field: 'input' },
  { input: { input: '1.0000001e300 m' }, code: 'VALIDATION_ERROR', message: /at most 1e300/, field: 'input' },
  { input: { input: '1e301', from: 'm' }, code: 'VALIDATION_ERROR', message: /at most 1e300/, field: 'input' },
  { input: { input: '1e999999999999999 m' }, code: 'VALIDATION_ERROR', message: /at most 1e300/, field: 'input' },
  { input: { input: 1e301, from: 'm' }, code: 'VALIDATION_ERROR', message: /input/, field: 'input' },
  { input: { input: -1e301, from: 'm' }, code: 'VALIDATION_ERROR', message: /input/, field: 'input' },
  { input: { input: '9.9e-301 m' }, code: 'VALIDATION_ERROR', message: /at least 1e-300/, field: 'input' },
  { input: { input: '1e-999999999999999 m' }, code: 'VALIDATION_ERROR', message: /at least 1e-300/, field: 'input' },
  { input: { input: 5e-324, from: 'm' }, code: 'VALIDATION_ERROR', message: /at least 1e-300/, field: 'input' },
  { input: { input: 1, from: 'm', significantDigits: 0 }, code: 'VALIDATION_ERROR', message: /significantDigits/, field: 'significantDigits' },
  { input: { input: 1, from: 'm', significantDigits: 51 }, code: 'VALIDATION_ERROR', message: /significantDigits/, field: 'significantDigits' },
  { input: { input: 1, from: 'm', system: 'jedec' }, code: 'VALIDATION_ERROR', message: /system/, field: 'system' },
  { input: { input: '1 MB', to: 'kg' }, code: 'INVALID_INPUT', message: /^MB is a data size and kg is a mass: units of different quantities do not convert$/ },
  { input: { input: 1, from: 'Hz', to: 'rad' }, code: 'INVALID_INPUT', message: /Hz is a frequency and rad is an angle/ },
  { input: { input: '1 kilometr' }, code: 'INVALID_INPUT', message: /'kilometr' is not a unit .*did you mean kilometer, kilometre\?/ },
  { input: { input: 1, from: 'm', to: 'furlong' }, code: 'INVALID_INPUT', message: /'furlong' is not a unit/ },
  { input: { input: 'P1Y' }, code: 'INVALID_INPUT', message: /calendar units need a date: use datetime/ },
  { input: { input: 'P2M' }, code: 'INVALID_INPUT', message: /calendar units need a date: use datetime/ },
  { input: { input: 'P1Y2M3DT4H' }, code: 'INVALID_INPUT', message: /calendar units need a date: use datetime/ },
  { input: { input: 3, from: 'months', to: 'd' }, code: 'INVALID_INPUT', message: /calendar units need a date: use datetime/ },
  { input: { input: 1, from: 'year' }, code: 'INVALID_INPUT', message: /calendar units need a date: use datetime/ },
  { input: { input: '-273.16 °C' }, code: 'INVALID_INPUT', message: /below absolute zero/ },
  { input: { input: -1, from: 'K' }, code: 'INVALID_INPUT', message: /below absolute zero/ },
  { input: { input: '-459.68 °F', to: 'K' }, code: 'INVALID_INPUT', message: /below absolute zero/ },
  { input: { input: -0.001, from: '°R' }, code: 'INVALID_INPUT', message: /below absolute zero/ },
  { input: { input: '1e300 QB', to: 'bit' }, code: 'LIMIT_EXCEEDED', message: /in bit is about 8e\+330, past the largest number/ },
  { input: { input: '1e300 QB', to: 'all' }, code: 'LIMIT_EXCEEDED', message: /past the largest number/ },
  { input: { input: 'GiB' }, code: 'INVALID_INPUT', message: /does not start with a number/ },
  { input: { input: '   ' }, code: 'INVALID_INPUT', message: /does not start with a number/ },
  { input: { input: 'PT' }, code: 'INVALID_INPUT', message: /does not start with a number/ },
  { input: { input: 'P1DT' }, code: 'INVALID_INPUT', message: /does not start with a number/ },
  { input: { input: '1,5 GiB' }, code: 'INVALID_INPUT', message: /comma in its number/ },
  { input: { input: '1 GiB GiB' }, code: 'INVALID_INPUT', message: /'GiB GiB' is not a unit/ },
  { input: { input: '1h 30 parsecs' }, code: 'INVALID_INPUT', message: /'h 30 parsecs' is not a unit/ },
]

describe('units', () => {
  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(units).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/units/index.ts')
  })

  test('answers its fields in the documented order', async () => {
    const data = await run({ input: '90 min', to: 'all' })
    assert.deepEqual(Object.keys(data), ['result', 'text', 'exact', 'unit', 'from', 'quantity', 'conversions', 'iso', 'human'])
    assert.deepEqual(Object.keys(await run({ input: '1 KB' })), ['result', 'text', 'exact', 'unit', 'from', 'quantity', 'warnings'])
  })

  test('published vectors: NIST SP 811, IEC 80000-13, SI, CSS Values 4, and the worked values', async () => {
    for (const [input, text, exact] of KNOWN_ANSWERS) {
      const data = await run(input)
      assert.deepEqual([data.text, data.exact], [text, exact], JSON.stringify(input))
      assert.equal(data.result, Number(text), JSON.stringify(input))
      assert.equal(data.unit, input.to)
    }
  })

  test('Python fractions, from its own definitions, gives the same answers', async (t) => {
    if (!hasPython) return t.skip('python3 is not installed')
    const cases = PYTHON_PAIRS.flatMap(([from, to]) =>
      ['1', '0.1', '-2.5', '123456.789', '7e-12', '3.14159e25'].flatMap((value) => [15, 40].map((digits) => ({ value, from, to, digits }))),
    )
    const lines = cases.map(({ value, from, to, digits }) => `${value} ${from}|${to}|${digits}`).join('\n')
    const answers = execFileSync('python3', ['-c', PYTHON_DEFINITIONS], { input: lines }).toString().trim().split('\n')
    assert.equal(answers.length, cases.length)
    for (const [index, { value, from, to, digits }] of cases.entries()) {
      const [text, exact] = JSON.parse(answers[index]) as [string, boolean]
      const data = await run({ input: `${value} ${from}`, to, significantDigits: digits })
      const context = `${value} ${from} → ${to} at ${digits} digits: python says ${text}`
      assert.equal(Number(data.text), Number(text), context)
      assert.equal(roundTo(String(data.text)), roundTo(text), context)
      assert.equal(data.exact, exact, context)
    }
  })

  test('property: random decimals and unit pairs round half-even exactly as Python does with the same factors', async (t) => {
    if (!hasPython) return t.skip('python3 is not installed')
    const linear = UNITS.filter((unit) => unit.offset.n === 0n && !unit.irrational)
    const pairs = linear.flatMap((from) => linear.filter((to) => to.quantity === from.quantity).map((to) => [from, to] as const))
    const decimal = fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -60, max: 60 }))
      .map(([digits, exponent]) => `${digits}e${exponent}`)
    const cases = fc.sample(fc.tuple(decimal, fc.constantFrom(...pairs), fc.integer({ min: 1, max: 50 })), { numRuns: 400, seed: 20_261_125 })
    const script = `
import sys, json
from fractions import Fraction as F
from decimal import Decimal, Context, ROUND_HALF_EVEN
for line in sys.stdin.read().splitlines():
  value, fn, fd, tn, td, digits = line.split()
  exact = F(value) * F(int(fn), int(fd)) / F(int(tn), int(td))
  if exact == 0:
    print(json.dumps(['0', True])); continue
  rounded = Context(prec=int(digits), rounding=ROUND_HALF_EVEN, Emin=-999999, Emax=999999).divide(Decimal(exact.numerator), Decimal(exact.denominator))
  print(json.dumps([str(rounded), F(rounded) == exact]))
`
    const lines = cases.map(([value, [from, to], digits]) => `${value} ${from.factor.n} ${from.factor.d} ${to.factor.n} ${to.factor.d} ${digits}`).join('\n')
    const answers = execFileSync('python3', ['-c', script], { input: lines }).toString().trim().split('\n')
    for (const [index, [value, [from, to], digits]] of cases.entries()) {
      const [text, exact] = JSON.parse(answers[index]) as [string, boolean]
      const data = await run({ input: value, from: from.symbol, to: to.symbol, significantDigits: digits })
      const context = `${value} ${from.symbol} → ${to.symbol} at ${digits}: python says ${text}, we say ${data.text}`
      assert.equal(roundTo(String(data.text)), roundTo(text), context)
      assert.equal(data.exact, exact, context)
    }
  })

  test('property: a conversion there and back is the value exactly, for every pair of units of a quantity', () => {
    const rational = fc
      .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 12n }))
      .map(([n, d]) => ({ n, d }) as Rational)
    const pair = fc.constantFrom(...UNITS).chain((from) => fc.tuple(fc.constant(from), fc.constantFrom(...UNITS.filter((to) => to.quantity === from.quantity))))
    fc.assert(
      fc.property(rational, pair, (value, [from, to]) => {
        const back = convert(convert(value, from, to), to, from)
        assert.equal(back.n * value.d, value.n * back.d)
      }),
      { numRuns: 300 },
    )
  })

  test('property: the answer is the same for a JSON number, its text, and its text with the unit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }).filter((value) => value === 0 || Math.abs(value) >= 1e-12),
        fc.constantFrom('m', 'ft', 'GiB', 'kWh', 'psi', 'mph'),
        async (value, from) => {
          const byNumber = await run({ input: value, from, to: 'all' })
          assert.deepEqual(await run({ input: String(value), from, to: 'all' }), byNumber)
          assert.deepEqual(await run({ input: `${value} ${from}`, to: 'all' }), byNumber)
        },
      ),
      { numRuns: 100 },
    )
  })

  test('property: rounding is half to even, once, and exact only when nothing was dropped', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 40n }), fc.integer({ min: 1, max: 45 }), (n, digits) => {
        const { text, exact } = roundToDigits({ n, d: 1n }, digits)
        const written = BigInt(Number(text) < 1e21 ? BigInt(text) : expand(text))
        const kept = n.toString().length <= digits
        assert.equal(exact, written === n)
        if (kept) assert.equal(written, n)
      }),
      { numRuns: 300 },
    )
    assert.deepEqual(roundToDigits({ n: 25n, d: 1n }, 1), { text: '20', exact: false })
    assert.deepEqual(roundToDigits({ n: 35n, d: 1n }, 1), { text: '40', exact: false })
    assert.deepEqual(roundToDigits({ n: 5n, d: 2n }, 1), { text: '2', exact: false })
    assert.deepEqual(roundToDigits({ n: -7n, d: 2n }, 1), { text: '-4', exact: false })
    assert.deepEqual(roundToDigits({ n: 9995n, d: 1000n }, 3), { text: '10', exact: false })
    assert.deepEqual(roundToDigits({ n: 1n, d: 3n }, 5), { text: '0.33333', exact: false })
  })

  test('writes numbers as JavaScript does: positional from 1e-7 to 1e21, with an exponent outside', async () => {
    assert.deepEqual(await textOf({ input: '1e-7 m', to: 'm' }), ['1e-7', true])
    assert.deepEqual(await textOf({ input: '1.5e-6 m', to: 'm' }), ['0.0000015', true])
    assert.deepEqual(await textOf({ input: '1e20 m', to: 'm' }), ['100000000000000000000', true])
    assert.deepEqual(await textOf({ input: '1e21 m', to: 'm' }), ['1e+21', true])
    assert.deepEqual(await textOf({ input: '-0 m', to: 'km' }), ['0', true])
    assert.deepEqual(await textOf({ input: '0.000 m', to: 'ft' }), ['0', true])
    assert.deepEqual(await textOf({ input: '1e300 m', to: 'km' }), ['1e+297', true])
    assert.equal((await run({ input: '1e-300 m', to: 'km' })).result, 1e-303)
    const underflow = await run({ input: '-1e-300 bit', to: 'QB' })
    assert.deepEqual([underflow.text, Object.is(underflow.result, 0)], ['-1.25e-331', true])
  })

  test('a JSON number is read through its shortest decimal text: 0.1 is one tenth', async () => {
    assert.deepEqual(await textOf({ input: 0.1, from: 'm', to: 'mm', significantDigits: 50 }), ['100', true])
    assert.deepEqual(await textOf({ input: 0.1 + 0.2, from: 'm', to: 'm', significantDigits: 50 }), ['0.30000000000000004', true])
  })

  test('auto picks the largest unit of the family in which the value is at least 1', async () => {
    const cases: Array<[Fields, string, string]> = [
      [{ input: '1500000 B' }, 'MB', '1.5'],
      [{ input: '1500000 B', system: 'iec' }, 'MiB', '1.43051147460938'],
      [{ input: '1.5 GiB' }, 'GB', '1.610612736'],
      [{ input: '1.5 GiB', system: 'iec' }, 'GiB', '1.5'],
      [{ input: '999 B' }, 'B', '999'],
      [{ input: '0.5 B' }, 'B', '0.5'],
      [{ input: '-2048 KiB', system: 'iec' }, 'MiB', '-2'],
      [{ input: '8000 bit' }, 'kbit', '8'],
      [{ input: '1e9 bps' }, 'Gbit/s', '1'],
      [{ input: '5400 s' }, 'h', '1.5'],
      [{ input: '0.002 s' }, 'ms', '2'],
      [{ input: '3 wk' }, 'd', '21'],
      [{ input: '1500 m' }, 'km', '1.5'],
      [{ input: '150 cm' }, 'm', '1.5'],
      [{ input: '0.5 nm' }, 'nm', '0.5'],
      [{ input: '24 in' }, 'ft', '2'],
      [{ input: '1 yd' }, 'ft', '3'],
      [{ input: '10 hPa' }, 'kPa', '1'],
      [{ input: '100 cL' }, 'L', '1'],
      [{ input: '28 st' }, 'lb', '392'],
      [{ input: '2500 g' }, 'kg', '2.5'],
      [{ input: '32 oz' }, 'lb', '2'],
      [{ input: '20000 m²' }, 'ha', '2'],
      [{ input: '3 cup' }, 'pint', '1.5'],
      [{ input: '2500 mL' }, 'L', '2.5'],
      [{ input: '101325 Pa' }, 'kPa', '101.325'],
      [{ input: '1500 mbar' }, 'bar', '1.5'],
      [{ input: '2400 Hz' }, 'kHz', '2.4'],
      [{ input: '5400 arcmin' }, 'deg', '90'],
      [{ input: '90 km/h' }, 'km/h', '90'],
      [{ input: '0 GB' }, 'GB', '0'],
      [{ input: '100 °F' }, '°F', '100'],
    ]
    for (const [input, unit, text] of cases) {
      const data = await run(input)
      assert.deepEqual([data.unit, data.text], [unit, text], JSON.stringify(input))
    }
  })

  test('to: all lists every unit of the quantity, with result as auto gives it', async () => {
    const data = await run({ input: '1 GiB', to: 'all' })
    const conversions = data.conversions as Array<{ unit: string; text: string; exact: boolean; value: number }>
    assert.equal(conversions.length, 38)
    assert.deepEqual(
      conversions.find((each) => each.unit === 'Mbit'),
      { unit: 'Mbit', value: 8589.934592, text: '8589.934592', exact: true },
    )
    assert.equal(data.unit, 'GB')
    for (const each of conversions) {
      const single = await run({ input: '1 GiB', to: each.unit })
      assert.deepEqual([single.text, single.exact], [each.text, each.exact], each.unit)
    }
    const temperatures = await run({ input: '25 °C', to: 'ALL' })
    assert.deepEqual(
      (temperatures.conversions as Array<{ unit: string; text: string }>).map(({ unit, text }) => `${text} ${unit}`),
      ['298.15 K', '25 °C', '77 °F', '536.67 °R'],
    )
  })

  test('durations: ISO 8601 and several parts, read in seconds, answered with iso and human', async () => {
    const cases: Array<[Fields, string, string, string, string]> = [
      [{ input: '1h 30m', to: 'min' }, '90', 'min', 'PT1H30M', '1h 30m'],
      [{ input: '1h30m', to: 's' }, '5400', 's', 'PT1H30M', '1h 30m'],
      [{ input: 'PT1H30M', to: 'min' }, '90', 'min', 'PT1H30M', '1h 30m'],
      [{ input: 'pt1h30m', to: 'min' }, '90', 'min', 'PT1H30M', '1h 30m'],
      [{ input: '90min' }, '1.5', 'h', 'PT1H30M', '1h 30m'],
      [{ input: '90 minutes', to: 's' }, '5400', 's', 'PT1H30M', '1h 30m'],
      [{ input: '2 days 4 hours', to: 'h' }, '52', 'h', 'P2DT4H', '2d 4h'],
      [{ input: '1w 2d', to: 'd' }, '9', 'd', 'P9D', '9d'],
      [{ input: 'P1W', to: 'h' }, '168', 'h', 'P7D', '7d'],
      [{ input: 'P1DT0.5S', to: 's' }, '86400.5', 's', 'P1DT0.5S', '1d 0.5s'],
      [{ input: 'PT1,5H', to: 'min' }, '90', 'min', 'PT1H30M', '1h 30m'],
      [{ input: '-PT1M', to: 's' }, '-60', 's', '-PT1M', '-1m'],
      [{ input: '-1h 30m', to: 'min' }, '-90', 'min', '-PT1H30M', '-1h 30m'],
      [{ input: '1.5h 15.25s', to: 's' }, '5415.25', 's', 'PT1H30M15.25S', '1h 30m 15.25s'],
      [{ input: '250 ms', to: 's' }, '0.25', 's', 'PT0.25S', '0.25s'],
      [{ input: 0, from: 'h', to: 's' }, '0', 's', 'PT0S', '0s'],
      [{ input: '1 ns', to: 'ns' }, '1', 'ns', 'PT0.000000001S', '0.000000001s'],
    ]
    for (const [input, text, unit, iso, human] of cases) {
      const data = await run(input)
      assert.deepEqual([data.text, data.unit, data.iso, data.human], [text, unit, iso, human], JSON.stringify(input))
    }
    // A single `m` is a metre: a minute only among several parts.
    assert.equal((await run({ input: '90m' })).quantity, 'length')
    assert.equal((await run({ input: '1 h', from: 'hour', to: 'min' })).text, '60')
  })

  test('symbols are case-sensitive where case means something; long names are not', async () => {
    assert.deepEqual(await textOf({ input: '1 Mb', to: 'kB' }), ['125', true])
    assert.deepEqual(await textOf({ input: '1 MB', to: 'kB' }), ['1000', true])
    assert.deepEqual(await textOf({ input: '1 Mbps', to: 'kB/s' }), ['125', true])
    assert.deepEqual(await textOf({ input: '1 MBps', to: 'kB/s' }), ['1000', true])
    assert.deepEqual(await textOf({ input: '1 mm', to: 'm' }), ['0.001', true])
    assert.deepEqual(await textOf({ input: '1 MPa', to: 'Pa' }), ['1000000', true])
    assert.deepEqual(await textOf({ input: '3 Kilometres', to: 'METRE' }), ['3000', true])
    assert.deepEqual(await textOf({ input: '2 MEBIBYTES', to: 'kibibyte' }), ['2048', true])
    assert.deepEqual(await textOf({ input: '1 Megabits per second', to: 'bit/s' }), ['1000000', true])
    assert.deepEqual(await textOf({ input: '1 ℃', to: '°C' }), ['1', true])
    assert.deepEqual(await textOf({ input: '1 m²', to: 'm2' }), ['1', true])
    assert.deepEqual(await textOf({ input: '1 μs', to: 'µs' }), ['1', true])
    assert.deepEqual(await textOf({ input: '1 us', to: 'ns' }), ['1000', true])
    assert.deepEqual(await textOf({ input: '12 fl oz', to: 'mL', significantDigits: 20 }), ['354.88235475', true])
    assert.deepEqual(await textOf({ input: '1 pint', to: 'cup' }), ['2', true])
    assert.equal((await run({ input: 1, from: 'pt', to: 'mm' })).quantity, 'length')
    const ambiguous = await expectRefusal(run({ input: '1 mb' }), { code: 'INVALID_INPUT', message: /'mb' is not a unit/ })
    for (const name of ['Mb', 'MB']) assert.ok((ambiguous.details!.closeNames as string[]).includes(name), name)
  })

  test('KB and its kin are read as kilo, with a warning to write KiB for 1024', async () => {
    for (const [input, to, text] of [
      ['1 KB', 'B', '1000'],
      ['1 Kb', 'bit', '1000'],
      ['1 Kbps', 'bit/s', '1000'],
      ['1 KB/s', 'B/s', '1000'],
    ]) {
      const data = await run({ input, to })
      assert.equal(data.text, text, input)
      assert.match((data.warnings as string[])[0], /is read as k.*write Ki/, input)
    }
    assert.deepEqual((await run({ input: 1, from: 'B', to: 'KB' })).warnings, ['KB is read as kB (1000 bytes); write KiB for 1024'])
    assert.equal((await run({ input: '1 kB', to: 'B' })).warnings, undefined)
  })

  test('a negative data size is allowed; negative temperatures only down to absolute zero', async () => {
    assert.deepEqual(await textOf({ input: '-1.5 GiB', to: 'MiB' }), ['-1536', true])
    assert.deepEqual(await textOf({ input: '-273.15 °C', to: 'K' }), ['0', true])
    assert.deepEqual(await textOf({ input: '-459.67 °F', to: '°C' }), ['-273.15', true])
    assert.deepEqual(await textOf({ input: '0 K', to: '°R' }), ['0', true])
    assert.deepEqual(await textOf({ input: '\u221240 °C', to: '°F' }), ['-40', true])
  })

  test('radians are never exact, except 0 and radians to radians', async () => {
    assert.deepEqual(await textOf({ input: 180, from: 'deg', to: 'rad', significantDigits: 50 }), [
      '3.1415926535897932384626433832795028841971693993751',
      false,
    ])
    assert.deepEqual(await textOf({ input: 0, from: 'deg', to: 'rad' }), ['0', true])
    assert.deepEqual(await textOf({ input: 2, from: 'rad', to: 'rad' }), ['2', true])
    assert.deepEqual(await textOf({ input: 1, from: 'turn', to: 'grad' }), ['400', true])
  })

  test('refuses what it cannot process, saying why', async () => {
    for (const { input, code, message, field } of REFUSED) {
      await expectRefusal(run(input), { code, message, ...(field && { field }) })
    }
  })

  test('an unknown unit lists the names within two edits, and says where it was', async () => {
    const inTo = await expectRefusal(run({ input: 1, from: 'm', to: 'kilometr' }), { code: 'INVALID_INPUT', details: { field: 'to', unit: 'kilometr' } })
    assert.deepEqual(inTo.details?.closeNames, ['kilometer', 'kilometre'])
    const inFrom = await expectRefusal(run({ input: 1, from: 'GiBB' }), { code: 'INVALID_INPUT', details: { field: 'from' } })
    assert.ok((inFrom.details!.closeNames as string[]).includes('GiB'))
    const far = await expectRefusal(run({ input: 1, from: 'zzzzzzzz' }), { code: 'INVALID_INPUT', message: /^'zzzzzzzz' is not a unit this operation knows$/ })
    assert.deepEqual(far.details?.closeNames, [])
  })

  test('units of two quantities name both in details', async () => {
    await expectRefusal(run({ input: '1 MB', to: 'kg' }), {
      code: 'INVALID_INPUT',
      details: { from: { unit: 'MB', quantity: 'data' }, to: { unit: 'kg', quantity: 'mass' } },
    })
  })

  test('hostile inputs are answered at once, within bounds', async () => {
    const hostile: Fields[] = [
      { input: `${'9'.repeat(100)}e-99999 m`, to: 'all', significantDigits: 50 },
      { input: `${'1h '.repeat(66)}`.trim(), to: 'all', significantDigits: 50 },
      { input: `1 ${'x'.repeat(190)}` },
      { input: 1, from: 'a'.repeat(64), to: 'b'.repeat(64) },
      { input: '1e300 d', to: 'all', significantDigits: 50 },
      { input: '1e-300 wk', to: 'all', significantDigits: 50 },
      { input: `P${'9'.repeat(99)}DT${'9'.repeat(99)}S` },
      { input: '1e300 YiB', to: 'kbit', significantDigits: 50 },
    ]
    for (const input of hostile) {
      const spent = await cpuTimeOfAsync(() =>
        run(input).catch((error: { code?: string }) => assert.ok(error.code && error.code !== 'INTERNAL_ERROR', JSON.stringify(error))),
      )
      assert.ok(spent < 200, `${JSON.stringify(input).slice(0, 80)}: ${spent} ms`)
    }
  })
})

/** Text of a number in exponent notation as the digits of an integer. */
function expand(text: string): string {
  const [mantissa, exponent] = text.split('e')
  const [whole, fraction = ''] = mantissa.split('.')
  return whole + fraction + '0'.repeat(Number(exponent) - fraction.length)
}

/** A decimal text (ours or Python's, `1E+3` or `1e+3`) as [sign, digits, exponent of the first digit], for comparison. */
function roundTo(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)
  assert.ok(match, text)
  const [, sign, whole, fraction = '', exponent = '0'] = match
  const digits = (whole + fraction).replace(/^0+/, '')
  if (digits === '') return '0'
  const first = Number(exponent) + whole.length - 1 - ((whole + fraction).length - (whole + fraction).replace(/^0+/, '').length)
  return `${sign}${digits.replace(/0+$/, '')}e${first}`
}
