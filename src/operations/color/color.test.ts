import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { color } from './index.ts'

type Answer = {
  result: string
  rgb: string
  hsl: string
  hwb: string
  lab: string
  lch: string
  oklab: string
  oklch: string
  named: string | null
  alpha: number
  inGamut: boolean
  contrast?: { ratio: number; aa: { normalText: boolean; largeText: boolean }; aaa: { normalText: boolean; largeText: boolean } }
  notes: string[]
}
const run = (input: Record<string, unknown>) => execute(color, input) as Promise<Answer>
const unprocessable = (input: Record<string, unknown>, field: string, position: number, message: RegExp) =>
  expectRefusal(run(input), { code: 'INVALID_INPUT', message, details: { field, position } })
const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })

/** The numbers of a CSS colour function's text, percentages as their number: `rgb(1 2% none)` → [1, 2, NaN]. */
const numbers = (text: string) =>
  text
    .replace(/^[a-z]+\(|\)$/g, '')
    .replace('/', ' ')
    .split(/\s+/)
    .map((part) => (part === 'none' ? Number.NaN : Number.parseFloat(part)))

function assertClose(actual: number[], expected: number[], tolerance: number, what: string) {
  assert.equal(actual.length, expected.length, what)
  for (const [index, value] of expected.entries()) {
    assert.ok(Math.abs(actual[index] - value) <= tolerance, `${what}: component ${index} is ${actual[index]}, expected ${value} ± ${tolerance}`)
  }
}

const percentOfRgb = (rgb: string) => numbers(rgb).map((channel) => (channel / 255) * 100)

describe('color', () => {
  // CSS Color 4 §9.2 (Lab and LCH examples): the same five colours as lab() and as lch(); the lch()
  // values are given to 1 decimal (3 significant figures for the chroma), so that is the tolerance.
  const LAB_LCH_SAMPLES: Array<[lab: string, lch: string]> = [
    ['lab(29.2345% 39.3825 20.0664)', 'lch(29.2345% 44.2 27)'],
    ['lab(52.2345% 40.1645 59.9971)', 'lch(52.2345% 72.2 56.2)'],
    ['lab(60.2345% -5.3654 58.956)', 'lch(60.2345% 59.2 95.2)'],
    ['lab(62.2345% -34.9638 47.7721)', 'lch(62.2345% 59.2 126.2)'],
    ['lab(67.5345% -8.6911 -41.6019)', 'lch(67.5345% 42.5 258.2)'],
  ]

  test('CSS Color 4 Lab and LCH samples: each lab() gives its lch() and back', async () => {
    for (const [lab, lch] of LAB_LCH_SAMPLES) {
      const fromLab = await run({ input: lab })
      assert.equal(fromLab.lab, lab)
      assertClose(numbers(fromLab.lch), numbers(lch), 0.051, lab)
      const fromLch = await run({ input: lch })
      assert.equal(fromLch.lch, lch)
      assertClose(numbers(fromLch.lab), numbers(lab), 0.06, lch)
    }
  })

  // CSS Color 4 §9.3 (Oklab and OkLCh examples): five colours as oklab() and oklch(); their sRGB as
  // the GTK project's CSS tests give them for the specification's example, to 0.1 of a percentage
  // point: a channel near 0 is sensitive to which revision of the OKLab matrices one uses.
  const OK_SAMPLES: Array<[oklab: string, oklch: string, rgbPercent: number[]]> = [
    ['oklab(40.101% 0.1147 0.0453)', 'oklch(40.101% 0.12332 21.555)', [49.06, 13.87, 15.9]],
    ['oklab(59.686% 0.1009 0.1192)', 'oklch(59.686% 0.15619 49.7694)', [77.61, 36.34, 2.45]],
    ['oklab(0.65125 -0.0320 0.1274)', 'oklch(0.65125 0.13138 104.097)', [61.65, 57.51, 9.28]],
    ['oklab(66.016% -0.1084 0.1114)', 'oklch(0.66016 0.15546 134.231)', [40.73, 65.12, 22.35]],
    ['oklab(72.322% -0.0465 -0.1150)', 'oklch(72.322% 0.12403 247.996)', [38.29, 67.27, 93.85]],
  ]

  test('CSS Color 4 Oklab and OkLCh samples: oklab() and oklch() agree, and convert to the sRGB the specification gives', async () => {
    for (const [oklab, oklch, rgbPercent] of OK_SAMPLES) {
      const fromOklab = await run({ input: oklab })
      const lightness = numbers(oklab)[0] < 1 ? numbers(oklab)[0] * 100 : numbers(oklab)[0]
      const [, chroma, hue] = numbers(oklch)
      assertClose(numbers(fromOklab.oklch), [lightness, chroma, hue], 0.05, oklab)
      assert.ok(Math.abs(numbers(fromOklab.oklch)[1] - chroma) <= 0.0002, `${oklab} chroma`)
      const fromOklch = await run({ input: oklch })
      assert.equal(fromOklch.inGamut, true)
      assertClose(percentOfRgb(fromOklch.rgb), rgbPercent, 0.1, oklch)
    }
    // The specification's purple, oklch(42.1% 48.25% 328.4): 48.25% of the reference chroma 0.4 is 0.193.
    const purple = await run({ input: 'oklch(42.1% 48.25% 328.4)' })
    assert.equal(purple.oklch, 'oklch(42.1% 0.193 328.4)')
    assert.equal(purple.result, '#800180')
  })

  // The CSS Color 4 test suite (web-platform-tests css/css-color, written with the specification):
  // lab-001 and lch-001 (#008000), lch-004, lch-007, lab-006 and lch-010, with the sRGB each gives.
  test('CSS Color 4 test-suite conversions to sRGB', async () => {
    const toSrgb: Array<[string, number[]]> = [
      ['lch(50% 50 0)', [75.6208, 30.4487, 47.5634]],
      ['lab(50% 50 0)', [75.6208, 30.4487, 47.5634]],
      ['lch(55% 60 270)', [12.8128, 53.105, 92.7645]],
      ['lab(70 0 70)', [76.62, 66.36, 5.58]],
    ]
    for (const [input, rgbPercent] of toSrgb) assertClose(percentOfRgb((await run({ input })).rgb), rgbPercent, 0.01, input)
    for (const input of ['lab(46.2775% -47.5621 48.5837)', 'lch(46.2775% 67.9892 134.3912)']) {
      const green = await run({ input })
      assert.equal(green.result, '#008000', input)
      assert.equal(green.named, 'green')
    }
    // L = 0 is black however much chroma is asked for, which lies outside sRGB.
    const black = await run({ input: 'lch(0% 110 60)' })
    assert.equal(black.result, '#000000')
    assert.equal(black.inGamut, false)
    assert.match(black.notes[0], /outside sRGB.*gamut mapping/)
  })

  test('sRGB forms: hex, rgb(), hsl() and hwb() of one colour (CSS Color 4 §7 and §8 examples)', async () => {
    const exact = ['#008000', '#008000FF', 'green', 'GREEN', 'rgb(0 128 0)', 'rgb(0, 128, 0)', 'rgba(0, 128, 0, 1)', 'rgb(0% 50.19607843% 0%)']
    for (const input of exact) {
      const answer = await run({ input })
      assert.equal(answer.rgb, 'rgb(0 128 0)', input)
      assert.equal(answer.hsl, 'hsl(120 100% 25.098%)', input)
      assert.equal(answer.hwb, 'hwb(120 0% 49.8039%)', input)
    }
    // The same colour to the 4 decimals the answer shows.
    for (const input of [...exact, 'hsl(120 100% 25.098%)', 'hsl(120deg 100% 25.098%)', 'hwb(120 0% 49.8039%)', 'color(srgb 0 0.50196 0)']) {
      assert.equal((await run({ input })).result, '#008000', input)
    }
    // "hsl(120deg 100% 50%) lime green", "hsl(120deg 100% 25%) dark green", "hsl(120deg 100% 75%) light green", "hsl(120deg 75% 85%) pastel green"
    for (const [hsl, hex] of [
      ['hsl(120deg 100% 50%)', '#00ff00'],
      ['hsl(120deg 100% 25%)', '#008000'],
      ['hsl(120deg 100% 75%)', '#80ff80'],
      // C = (1 − |2L − 1|) × S = 0.225, m = L − C/2 = 0.7375: r = b = 188.06, g = 245.44.
      ['hsl(120deg 75% 85%)', '#bcf5bc'],
    ]) {
      assert.equal((await run({ input: hsl })).result, hex, hsl)
    }
    assert.equal((await run({ input: '#f00' })).rgb, 'rgb(255 0 0)')
    assert.equal((await run({ input: 'hsl(0.5turn 100% 50%)' })).result, '#00ffff')
  })

  test('alpha is kept in every notation when below 1, and hex carries it as a fourth byte', async () => {
    const half = await run({ input: 'rgb(255 0 0 / 50%)' })
    assert.equal(half.alpha, 0.5)
    assert.equal(half.result, '#ff000080')
    for (const notation of [half.rgb, half.hsl, half.hwb, half.lab, half.lch, half.oklab, half.oklch]) assert.match(notation, / \/ 0\.5\)$/)
    assert.equal(half.named, null)
    const fromHex = await run({ input: '#ff000080' })
    assert.equal(fromHex.alpha, 128 / 255)
    assert.equal(fromHex.rgb, 'rgb(255 0 0 / 0.502)')
    const transparent = await run({ input: 'transparent' })
    assert.equal(transparent.result, '#00000000')
    assert.equal(transparent.oklch, 'oklch(0% 0 none / 0)')
    const opaque = await run({ input: 'rgb(255 0 0 / 1)' })
    assert.equal(opaque.rgb, 'rgb(255 0 0)')
    assert.equal(opaque.result, '#ff0000')
  })

  test('a hue without meaning is none: greys, white and black', async () => {
    for (const input of ['white', 'black', '#808080', 'oklch(50% 0 0)', 'lab(50% 0 0)', 'hsl(200 0% 50%)']) {
      const answer = await run({ input })
      for (const notation of [answer.hsl, answer.hwb, answer.lch, answer.oklch])
        assert.match(notation, /^[a-z]+\((none .*|[^ ]+ [^ ]+ none)\)$/, `${input}: ${notation}`)
    }
    assert.equal((await run({ input: 'white' })).oklch, 'oklch(100% 0 none)')
  })

  test('named: the exact 8-bit value, the first name alphabetically where several share it', async () => {
    assert.equal((await run({ input: 'cyan' })).named, 'aqua')
    assert.equal((await run({ input: 'magenta' })).named, 'fuchsia')
    assert.equal((await run({ input: 'darkgrey' })).named, 'darkgray')
    assert.equal((await run({ input: '#663399' })).named, 'rebeccapurple')
    assert.equal((await run({ input: '#663398' })).named, null)
  })

  test('outside sRGB: exact in Lab and OKLab, gamut-mapped in the sRGB forms, with a note', async () => {
    const p3 = await run({ input: 'color(display-p3 1 0 0)' })
    assert.equal(p3.inGamut, false)
    assert.equal(p3.notes.length, 1)
    for (const channel of numbers(p3.rgb)) assert.ok(channel >= 0 && channel <= 255)
    // The mapped colour keeps the hue and lightness of the original in OKLCH, near enough.
    const mapped = await run({ input: p3.rgb })
    assertClose(numbers(mapped.oklch).slice(0, 1), numbers(p3.oklch).slice(0, 1), 3, 'lightness')
    assertClose(numbers(mapped.oklch).slice(2), numbers(p3.oklch).slice(2), 3, 'hue')
    assert.ok(numbers(mapped.oklch)[1] < numbers(p3.oklch)[1], 'chroma is reduced')
    // Beyond white and black: L at or past the ends maps to white or black.
    assert.equal((await run({ input: 'oklch(100% 0.3 30)' })).result, '#ffffff')
    assert.equal((await run({ input: 'rgb(300 0 0)' })).inGamut, false)
    // In gamut up to float noise: white and black through other spaces, with no note.
    for (const input of ['color(srgb-linear 1 1 1)', 'oklab(100% 0 0)', 'color(xyz-d65 0 0 0)', 'lab(100% 0 0)']) {
      assert.deepEqual((await run({ input })).notes, [], input)
    }
    // Just outside (red's OKLCH rounded to 4 decimals): clipped, as CSS Color 4 does within a just-noticeable difference, not desaturated.
    const nearRed = await run({ input: 'oklch(62.7955% 0.2577 29.2339)' })
    assert.equal(nearRed.inGamut, false)
    assert.equal(nearRed.result, '#ff0000')
  })

  test('WCAG 2 contrast: black on white is 21:1, and the verdicts follow the thresholds', async () => {
    const extremes = await run({ input: 'black', contrastWith: 'white' })
    assert.deepEqual(extremes.contrast, { ratio: 21, aa: { normalText: true, largeText: true }, aaa: { normalText: true, largeText: true } })
    assert.equal((await run({ input: 'white', contrastWith: 'black' })).contrast?.ratio, 21)
    assert.deepEqual((await run({ input: 'white', contrastWith: 'white' })).contrast, {
      ratio: 1,
      aa: { normalText: false, largeText: false },
      aaa: { normalText: false, largeText: false },
    })
    // #767676 on white is 4.54:1 and #777777 4.47:1 (4.4784 truncated, not rounded to 4.48): the greys on each side of AA.
    assert.deepEqual((await run({ input: '#767676', contrastWith: 'white' })).contrast?.aa, { normalText: true, largeText: true })
    const below = (await run({ input: '#777777', contrastWith: 'white' })).contrast
    assert.equal(below?.ratio, 4.47)
    assert.deepEqual(below?.aa, { normalText: false, largeText: true })
    assert.deepEqual(below?.aaa, { normalText: false, largeText: false })
    assert.deepEqual((await run({ input: '#595959', contrastWith: 'white' })).contrast?.aaa, { normalText: true, largeText: true })
  })

  /** WCAG 2's relative luminance of an 8-bit grey, with the threshold the WCAG 2.0 text gives (0.03928) or sRGB's (0.04045). */
  const luminance = (value: number, threshold: number) => {
    const channel = value / 255
    return channel <= threshold ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  }

  test("WCAG 2's relative luminance: both thresholds give every 8-bit grey's ratio against white and black", async () => {
    for (let value = 0; value < 256; value += 5) {
      const hex = `#${value.toString(16).padStart(2, '0').repeat(3)}`
      const [onWhite, onBlack] = await Promise.all([run({ input: hex, contrastWith: 'white' }), run({ input: hex, contrastWith: 'black' })])
      for (const threshold of [0.03928, 0.04045]) {
        const lum = luminance(value, threshold)
        assert.equal(onWhite.contrast?.ratio, Math.floor((1.05 / (lum + 0.05)) * 100 + 1e-9) / 100, `${hex} on white`)
        assert.equal(onBlack.contrast?.ratio, Math.floor(((lum + 0.05) / 0.05) * 100 + 1e-9) / 100, `${hex} on black`)
      }
    }
    // 10/255 lies below both thresholds (the linear segment), 11/255 above both.
    assert.ok(10 / 255 < 0.03928 && 11 / 255 > 0.04045)
  })

  test('a translucent colour is composited over the background before its contrast is measured', async () => {
    // Black at 50% over white paints #808080 (127.5 → 128 only in hex); its ratio is that of rgb(127.5 127.5 127.5).
    const answer = await run({ input: 'rgb(0 0 0 / 0.5)', contrastWith: 'white' })
    const lum = luminance(127.5, 0.04045)
    assert.equal(answer.contrast?.ratio, Math.floor((1.05 / (lum + 0.05)) * 100) / 100)
    assert.equal((await run({ input: 'rgb(0 0 0 / 0)', contrastWith: 'white' })).contrast?.ratio, 1)
    await unprocessable(
      { input: 'black', contrastWith: 'rgb(255 255 255 / 0.9)' },
      'contrastWith',
      0,
      /translucent \(alpha 0\.9\); a background must be opaque/,
    )
  })

  const channelsOf = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16))

  test('property: every notation written for an 8-bit colour reads back as that colour', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 0xffffff }), async (value) => {
        const hex = `#${value.toString(16).padStart(6, '0')}`
        const answer = await run({ input: hex })
        assert.equal(answer.result, hex)
        assert.equal(answer.inGamut, true)
        for (const notation of [answer.rgb, answer.hsl, answer.hwb, answer.lab, answer.lch]) {
          assert.equal((await run({ input: notation })).result, hex, notation)
        }
        // OKLab's a and b and OKLCH's chroma span about 0.4, so 4 decimals carry up to about half an
        // 8-bit step: read back, a channel may come out one step away.
        for (const notation of [answer.oklab, answer.oklch]) {
          assertClose(channelsOf((await run({ input: notation })).result), channelsOf(hex), 1, notation)
        }
      }),
      { numRuns: 150 },
    )
  })

  test('text that is not a CSS colour is a 422 saying what was expected', async () => {
    for (const input of [
      'nope',
      '#ff',
      '#fffff',
      'rgb(255 0 0 0)',
      'rgb(255,0 0)',
      'lch(50% 10 10) garbage',
      'red blue',
      'currentcolor',
      'hsv(10 10% 10%)',
      'cubehelix(1 1 1)',
    ]) {
      const refusal = await unprocessable({ input }, 'input', 0, /is not a CSS Color 4 colour: a hex colour .* or a named colour/)
      assert.match(String(refusal.details?.expected), /^a CSS Color 4 colour/)
    }
    // culori's own extensions are not CSS: its full bundle would read these.
    await unprocessable({ input: 'color(--hsv 10 10% 10%)' }, 'input', 0, /not a CSS Color 4 colour/)
    await unprocessable({ input: ' red' }, 'input', 0, /white space before the colour; send "red"/)
    await unprocessable({ input: 'red\n' }, 'input', 3, /white space after the colour/)
    await unprocessable({ input: 'rgb(1e400 0 0)' }, 'input', 0, /beyond ±1,000,000/)
    await unprocessable({ input: 'lab(50 1e7 0)' }, 'input', 0, /beyond ±1,000,000/)
    await unprocessable({ input: 'black', contrastWith: 'nope' }, 'contrastWith', 0, /contrastWith "nope" is not a CSS Color 4 colour/)
    const extreme = await run({ input: 'lab(50 1000000 -1000000)' })
    assert.doesNotMatch(JSON.stringify(extreme), /e\+|NaN|Infinity/)
  })

  test('the schema bounds are 400s', async () => {
    await refuses({}, 'input')
    await refuses({ input: '' }, 'input')
    await refuses({ input: 'a'.repeat(257) }, 'input')
    await refuses({ input: 0xff0000 }, 'input')
    await refuses({ input: 'red', contrastWith: '' }, 'contrastWith')
    await refuses({ input: 'red', format: 'hex' }, 'format')
    await expectRefusal(run({ input: 'red\ud800' }), { code: 'INVALID_INPUT' })
    // culori throws (rather than answering undefined) for an unclosed color( with nothing in it.
    await unprocessable({ input: 'color(' }, 'input', 0, /is not a CSS Color 4 colour/)
  })
})
