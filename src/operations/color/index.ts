import {
  type Color,
  colorsNamed,
  converter,
  differenceEuclidean,
  modeA98,
  modeHsl,
  modeHwb,
  modeLab,
  modeLch,
  modeLrgb,
  modeOklab,
  modeOklch,
  modeP3,
  modeProphoto,
  modeRec2020,
  modeRgb,
  modeXyz50,
  modeXyz65,
  parse,
  type Rgb,
  toGamut,
  useMode,
  wcagLuminance,
} from 'culori/fn'
import { type Static, Type } from 'typebox'
import { invalidInput } from '../../core/errors.ts'
import { defineOperation } from '../../core/operation.ts'

// Only the colour spaces of CSS Color 4: the full `culori` bundle would also parse its own
// extensions, such as `color(--hsv …)`, which no browser reads.
for (const mode of [
  modeRgb,
  modeLrgb,
  modeHsl,
  modeHwb,
  modeLab,
  modeLch,
  modeOklab,
  modeOklch,
  modeP3,
  modeRec2020,
  modeA98,
  modeProphoto,
  modeXyz50,
  modeXyz65,
]) {
  useMode(mode)
}

const toRgb = converter('rgb')
const toHsl = converter('hsl')
const toHwb = converter('hwb')
const toLab = converter('lab')
const toLch = converter('lch')
const toOklab = converter('oklab')
const toOklch = converter('oklch')
/** CSS Color 4 §13.2's gamut mapping: chroma reduced in OKLCH until the clipped colour is within a just-noticeable difference. */
const mapToSrgb = toGamut('rgb', 'oklch')

const EXPECTED =
  'a CSS Color 4 colour: a hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa), rgb(), rgba(), hsl(), hsla(), hwb(), lab(), lch(), oklab(), oklch(), color() with a predefined colour space (srgb, srgb-linear, display-p3, rec2020, a98-rgb, prophoto-rgb, xyz, xyz-d50, xyz-d65), or a named colour such as rebeccapurple'

/** Rounds to 4 decimals and writes the shortest form: no trailing zeros, no negative zero, no exponent. */
function decimal(value: number): string {
  const rounded = Math.round(value * 1e4) / 1e4
  if (rounded === 0) return '0'
  return rounded.toFixed(4).replace(/\.?0+$/, '')
}

const percent = (fraction: number) => `${decimal(fraction * 100)}%`

/** The hue, or `none` where it is powerless (CSS Color 4 §4.4.1): a colour without chroma has no hue. */
const hueText = (hue: number | undefined, powerless: boolean) => (hue === undefined || powerless ? 'none' : decimal(hue))

const alphaText = (alpha: number) => (alpha < 1 ? ` / ${decimal(alpha)}` : '')

const byte = (channel: number) => Math.round(channel * 255)
const hexByte = (value: number) => value.toString(16).padStart(2, '0')

/** Names by 8-bit value; where several names share a value (aqua, cyan), the first alphabetically. */
const NAME_OF_VALUE = new Map<number, string>()
for (const name of Object.keys(colorsNamed).sort()) {
  const value = colorsNamed[name as keyof typeof colorsNamed]
  if (!NAME_OF_VALUE.has(value)) NAME_OF_VALUE.set(value, name)
}

/**
 * Components beyond this are refused: no colour space comes near it, and it keeps every converted
 * value far below 1e21, where numbers would be written in exponent form.
 */
const MAX_COMPONENT = 1e6

interface Parsed {
  color: Color
  alpha: number
}

/** culori's parse answers undefined for most text it cannot read, but throws a TypeError for some (a bare `color(`). */
function parseOrUndefined(text: string): ReturnType<typeof parse> {
  try {
    return parse(text)
  } catch (error) {
    if (error instanceof TypeError) return undefined
    throw error
  }
}

export function parseColor(text: string, field: string): Parsed {
  const trimmed = text.trim()
  if (trimmed !== text) {
    const before = text.trimStart() !== text
    throw invalidInput(`${field} has white space ${before ? 'before' : 'after'} the colour; send ${JSON.stringify(trimmed)}`, {
      field,
      position: before ? 0 : text.trimEnd().length,
    })
  }
  const color = parseOrUndefined(text)
  if (color === undefined) throw invalidInput(`${field} ${JSON.stringify(text)} is not ${EXPECTED}`, { field, position: 0, expected: EXPECTED })
  const components = Object.entries(color).filter(([key]) => key !== 'mode') as Array<[string, number]>
  if (components.some(([, value]) => !(Math.abs(value) <= MAX_COMPONENT))) {
    throw invalidInput(`${field} ${JSON.stringify(text)} has a component beyond ±${MAX_COMPONENT.toLocaleString('en')}, far outside any colour space`, {
      field,
      position: 0,
    })
  }
  return { color, alpha: color.alpha ?? 1 }
}

/** Every channel as it would be written (0–255, 4 decimals) within range: float noise at the edge of the gamut is not "outside". */
function isWithinSrgb(rgb: Rgb): boolean {
  return [rgb.r, rgb.g, rgb.b].every((channel) => {
    const written = Math.round(channel * 255 * 1e4) / 1e4
    return written >= 0 && written <= 255
  })
}

const clip = (channel: number) => Math.min(1, Math.max(0, channel))

const clipRgb = (rgb: Rgb): Rgb => ({ mode: 'rgb', r: clip(rgb.r), g: clip(rgb.g), b: clip(rgb.b) })

/** CSS Color 4's just-noticeable difference in deltaEOK (Euclidean distance in OKLab). */
const JND = 0.02
const deltaEOK = differenceEuclidean('oklab')

/**
 * The colour in sRGB, gamut-mapped if it lies outside, with whether it had to be. culori's toGamut
 * leaves out one step of CSS Color 4's algorithm: a colour whose clipped form is within a
 * just-noticeable difference of it is clipped, not searched (its search would move a colour just
 * outside sRGB by up to the JND); that step is taken here.
 */
function srgbOf(color: Color): { rgb: Rgb; inGamut: boolean } {
  const exact = toRgb(color)
  if (isWithinSrgb(exact)) return { rgb: clipRgb(exact), inGamut: true }
  const { l } = toOklch(color)
  const clipped = clipRgb(exact)
  const nearEnough = l > 0 && l < 1 && deltaEOK(clipped, color) < JND
  return { rgb: nearEnough ? clipped : clipRgb(mapToSrgb(color)), inGamut: false }
}

function notations(color: Color, rgb: Rgb, alpha: number) {
  const tail = alphaText(alpha)
  const hsl = toHsl(rgb)
  const hwb = toHwb(rgb)
  const lab = toLab(color)
  const lch = toLch(color)
  const oklab = toOklab(color)
  const oklch = toOklch(color)
  const [r, g, b] = [rgb.r, rgb.g, rgb.b].map(byte)
  const alphaHex = alpha < 1 ? hexByte(byte(alpha)) : ''
  return {
    result: `#${hexByte(r)}${hexByte(g)}${hexByte(b)}${alphaHex}`,
    rgb: `rgb(${decimal(rgb.r * 255)} ${decimal(rgb.g * 255)} ${decimal(rgb.b * 255)}${tail})`,
    hsl: `hsl(${hueText(hsl.h, decimal(hsl.s * 100) === '0')} ${percent(hsl.s)} ${percent(hsl.l)}${tail})`,
    hwb: `hwb(${hueText(hwb.h, Number(decimal((hwb.w + hwb.b) * 100)) >= 100)} ${percent(hwb.w)} ${percent(hwb.b)}${tail})`,
    lab: `lab(${decimal(lab.l)}% ${decimal(lab.a)} ${decimal(lab.b)}${tail})`,
    lch: `lch(${decimal(lch.l)}% ${decimal(lch.c)} ${hueText(lch.h, decimal(lch.c) === '0')}${tail})`,
    oklab: `oklab(${percent(oklab.l)} ${decimal(oklab.a)} ${decimal(oklab.b)}${tail})`,
    oklch: `oklch(${percent(oklch.l)} ${decimal(oklch.c)} ${hueText(oklch.h, decimal(oklch.c) === '0')}${tail})`,
    named: alpha === 1 ? (NAME_OF_VALUE.get((r << 16) | (g << 8) | b) ?? null) : null,
  }
}

/** A translucent foreground shows the background through it: composited over it in sRGB, as browsers paint. */
function composite(foreground: Rgb, alpha: number, background: Rgb): Rgb {
  const over = (top: number, bottom: number) => alpha * top + (1 - alpha) * bottom
  return { mode: 'rgb', r: over(foreground.r, background.r), g: over(foreground.g, background.g), b: over(foreground.b, background.b) }
}

/** A tolerance for float noise, so that a ratio that is exactly a threshold (black on white: 21) is not a hair below it. */
const EPSILON = 1e-9

function contrastWith(foreground: Rgb, foregroundAlpha: number, backgroundText: string) {
  const background = parseColor(backgroundText, 'contrastWith')
  if (background.alpha < 1) {
    throw invalidInput(
      `contrastWith ${JSON.stringify(backgroundText)} is translucent (alpha ${decimal(background.alpha)}); a background must be opaque, since what shows through it is unknown`,
      { field: 'contrastWith', position: 0 },
    )
  }
  const backgroundRgb = srgbOf(background.color).rgb
  const shown = composite(foreground, foregroundAlpha, backgroundRgb)
  const [lighter, darker] = [wcagLuminance(shown), wcagLuminance(backgroundRgb)].sort((a, b) => b - a)
  const ratio = (lighter + 0.05) / (darker + 0.05)
  const atLeast = (threshold: number) => ratio + EPSILON >= threshold
  return {
    // Truncated, not rounded, so that the figure never shows a pass the exact ratio misses (4.4999 is not 4.5).
    ratio: Math.floor(ratio * 100 + EPSILON) / 100,
    aa: { normalText: atLeast(4.5), largeText: atLeast(3) },
    aaa: { normalText: atLeast(7), largeText: atLeast(4.5) },
  }
}

const verdicts = (level: string, normal: number, large: number) =>
  Type.Object(
    {
      normalText: Type.Boolean({ description: `Whether normal text passes ${level} (a ratio of at least ${normal}:1).` }),
      largeText: Type.Boolean({ description: `Whether large text (18 pt, or 14 pt bold) passes ${level} (at least ${large}:1).` }),
    },
    { description: `WCAG 2 level ${level}.` },
  )

const colorOutput = Type.Object({
  result: Type.String({ format: 'color', description: 'The colour as hex: `#rrggbb`, or `#rrggbbaa` when alpha is below 1 (8 bits a channel, rounded).' }),
  rgb: Type.String({ description: 'As `rgb(r g b)`, channels 0–255 with up to 4 decimals.' }),
  hsl: Type.String({ description: 'As `hsl(h s% l%)`; the hue is `none` for a grey.' }),
  hwb: Type.String({ description: 'As `hwb(h w% b%)`; the hue is `none` for a grey.' }),
  lab: Type.String({ description: 'As CIE `lab(L% a b)` (D50).' }),
  lch: Type.String({ description: 'As CIE `lch(L% C h)` (D50); the hue is `none` when the chroma is 0.' }),
  oklab: Type.String({ description: 'As `oklab(L% a b)`.' }),
  oklch: Type.String({ description: 'As `oklch(L% C h)`; the hue is `none` when the chroma is 0.' }),
  named: Type.Union([Type.String(), Type.Null()], {
    description: 'The CSS named colour of exactly this 8-bit value (the first alphabetically where several share it), or null.',
  }),
  alpha: Type.Number({ description: 'The opacity, 0 to 1 (1 when none was given).' }),
  inGamut: Type.Boolean({ description: 'Whether the colour lies within sRGB; when not, hex, rgb, hsl and hwb show it gamut-mapped (see notes).' }),
  contrast: Type.Optional(
    Type.Object(
      {
        ratio: Type.Number({ description: 'The WCAG 2 contrast ratio, from 1 to 21, truncated to 2 decimals.' }),
        aa: verdicts('AA', 4.5, 3),
        aaa: verdicts('AAA', 7, 4.5),
      },
      { description: 'The contrast of the colour as text on `contrastWith`; present only when it was asked.' },
    ),
  ),
  notes: Type.Array(Type.String(), { description: 'What the conversion changed: the gamut mapping of a colour outside sRGB.' }),
})

export const color = defineOperation({
  name: 'color',
  category: 'converters',
  summary: 'Convert a CSS colour between hex, rgb(), hsl(), hwb(), lab(), lch(), oklab() and oklch(), and check WCAG contrast',
  title: 'Colour converter',
  aliases: ['color', 'colour', 'hex color', 'rgb', 'hsl', 'hwb', 'lab', 'lch', 'oklch', 'oklab', 'contrast ratio', 'wcag', 'css color'],
  description:
    'Reads any CSS Color 4 colour (hex, `rgb()`, `hsl()`, `hwb()`, `lab()`, `lch()`, `oklab()`, `oklch()`, `color()` with a predefined space, or a named colour; ' +
    'case-insensitive; legacy comma syntax too) and writes it in each notation in CSS Color 4’s space-separated syntax, with up to 4 decimals. ' +
    'Alpha below 1 is kept (`/ 0.5`; `#rrggbbaa` in hex). `lab()` and `lch()` are CIE Lab in D50, as CSS defines them. ' +
    'A colour outside sRGB is exact in lab, lch, oklab and oklch; in hex, rgb, hsl and hwb it is mapped into sRGB with CSS Color 4’s gamut mapping ' +
    '(chroma reduced in OKLCH, then clipped within a just-noticeable difference), and a note says so. A hue with no meaning (a grey) is written `none`. ' +
    '`contrastWith` takes a second, opaque colour as the background and answers the WCAG 2 contrast ratio with the AA and AAA verdicts for normal and large text; ' +
    'a translucent `input` is first composited over it.',
  input: Type.Object(
    {
      input: Type.String({
        minLength: 1,
        maxLength: 256,
        description: 'A CSS colour: `#663399`, `rgb(102 51 153 / 0.5)`, `hsl(270 50% 40%)`, `oklch(62.8% 0.2577 29.23)`, `rebeccapurple`…',
        examples: ['#663399', 'oklch(70% 0.1 200)'],
      }),
      contrastWith: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 256,
          description: 'An opaque CSS colour to measure the contrast against: the background, with `input` as the text.',
          examples: ['white'],
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: colorOutput,
  examples: [
    {
      summary: 'A named colour in every notation',
      input: { input: 'rebeccapurple' },
      output: {
        result: '#663399',
        rgb: 'rgb(102 51 153)',
        hsl: 'hsl(270 50% 40%)',
        hwb: 'hwb(270 20% 40%)',
        lab: 'lab(32.3927% 38.423 -47.6911)',
        lch: 'lch(32.3927% 61.2435 308.8571)',
        oklab: 'oklab(44.0272% 0.0882 -0.1339)',
        oklch: 'oklch(44.0272% 0.1603 303.373)',
        named: 'rebeccapurple',
        alpha: 1,
        inGamut: true,
        notes: [],
      },
    },
    {
      summary: 'Grey text on white: passes AA, not AAA for normal text',
      input: { input: '#767676', contrastWith: 'white' },
      output: {
        result: '#767676',
        rgb: 'rgb(118 118 118)',
        hsl: 'hsl(none 0% 46.2745%)',
        hwb: 'hwb(none 46.2745% 53.7255%)',
        lab: 'lab(49.637% 0 0)',
        lch: 'lch(49.637% 0 none)',
        oklab: 'oklab(56.5836% 0 0)',
        oklch: 'oklch(56.5836% 0 none)',
        named: null,
        alpha: 1,
        inGamut: true,
        contrast: { ratio: 4.54, aa: { normalText: true, largeText: true }, aaa: { normalText: false, largeText: true } },
        notes: [],
      },
    },
    {
      summary: 'An OKLCH colour with alpha, which every notation keeps',
      input: { input: 'oklch(70% 0.1 200 / 0.5)' },
      output: {
        result: '#40b1b780',
        rgb: 'rgb(64.2169 177.0336 182.8512 / 0.5)',
        hsl: 'hsl(182.9423 48.0169% 48.4447% / 0.5)',
        hwb: 'hwb(182.9423 25.1831% 28.2936% / 0.5)',
        lab: 'lab(66.1711% -31.3595 -12.905 / 0.5)',
        lch: 'lch(66.1711% 33.911 202.3681 / 0.5)',
        oklab: 'oklab(70% -0.094 -0.0342 / 0.5)',
        oklch: 'oklch(70% 0.1 200 / 0.5)',
        named: null,
        alpha: 0.5,
        inGamut: true,
        notes: [],
      },
    },
    {
      summary: 'A Display P3 green outside sRGB, gamut-mapped in hex, rgb, hsl and hwb',
      input: { input: 'color(display-p3 0 1 0)' },
      output: {
        result: '#00fb29',
        rgb: 'rgb(0 251.3808 40.5923)',
        hsl: 'hsl(129.6886 100% 49.2903%)',
        hwb: 'hwb(129.6886 0% 1.4193%)',
        lab: 'lab(86.614% -106.539 102.871)',
        lch: 'lch(86.614% 148.0979 136.0035)',
        oklab: 'oklab(84.8829% -0.3042 0.208)',
        oklch: 'oklch(84.8829% 0.3685 145.645)',
        named: null,
        alpha: 1,
        inGamut: false,
        notes: [
          'color(display-p3 0 1 0) lies outside sRGB: hex, rgb, hsl and hwb show the nearest colour inside it by CSS Color 4 gamut mapping; lab, lch, oklab and oklch are exact',
        ],
      },
    },
  ],
  runsInBrowser: true,
  run({ input, contrastWith: background }) {
    const { color, alpha } = parseColor(input, 'input')
    const { rgb, inGamut } = srgbOf(color)
    const notes = inGamut
      ? []
      : [
          `${input} lies outside sRGB: hex, rgb, hsl and hwb show the nearest colour inside it by CSS Color 4 gamut mapping; lab, lch, oklab and oklch are exact`,
        ]
    const answer: Static<typeof colorOutput> = {
      ...notations(color, rgb, alpha),
      alpha,
      inGamut,
      ...(background === undefined ? {} : { contrast: contrastWith(rgb, alpha, background) }),
      notes,
    }
    return answer
  },
})
