import type { QRCode, QRCodeErrorCorrectionLevel } from 'qrcode'
import { type Static, Type } from 'typebox'
import { commonJsExports } from '../../core/commonjs.ts'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { MAX_IMAGE_BASE64, positionSchema } from '../../lib/image/symbol-fields.ts'
import { bytesUnlessText, positionOf, readImage } from '../../lib/image/zxing.ts'

type QrCodeLibrary = typeof import('qrcode')
/** qrcode, loaded with the first QR code (see lazily). */
const qrCodeLibrary = lazily(async () => commonJsExports(await import('qrcode')))

type Level = 'L' | 'M' | 'Q' | 'H'

/** What a version-40 symbol holds at each level (ISO/IEC 18004:2015 Table 7), in characters of each mode. */
export const CAPACITY: Record<Level, { numeric: number; alphanumeric: number; bytes: number }> = {
  L: { numeric: 7089, alphanumeric: 4296, bytes: 2953 },
  M: { numeric: 5596, alphanumeric: 3391, bytes: 2331 },
  Q: { numeric: 3993, alphanumeric: 2420, bytes: 1663 },
  H: { numeric: 3057, alphanumeric: 1852, bytes: 1273 },
}

export const MAX_SCALE = 10
export const MAX_MARGIN = 10

/**
 * Inputs above this length are encoded on a worker thread, and PNGs always are: choosing segments
 * and encoding a large symbol takes tens of milliseconds, and drawing the largest PNG most of a
 * second, mostly in pngjs (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
const OFFLOAD_LENGTH = 256

const MEDIA_TYPES = { svg: 'image/svg+xml', png: 'image/png', text: 'text/plain; charset=utf-8' } as const

function symbolOf(library: QrCodeLibrary, input: string, level: Level): QRCode {
  try {
    return library.create(input, { errorCorrectionLevel: level as QRCodeErrorCorrectionLevel })
  } catch (error) {
    if (!/too big/.test((error as Error).message)) throw error
    const bytes = Buffer.byteLength(input)
    const { numeric, alphanumeric, bytes: byteCapacity } = CAPACITY[level]
    throw limitExceeded(
      `input does not fit in a QR code at error correction ${level}: the largest symbol (version 40) holds ${byteCapacity} bytes of UTF-8 text, ${alphanumeric} characters of digits, upper-case letters and $%*+-./: or space, or ${numeric} digits, and mixes of those in between; input is ${bytes} bytes. ${level === 'L' ? 'Shorten it.' : 'Shorten it or choose a lower level (L holds the most).'}`,
      { field: 'input', errorCorrection: level, limit: byteCapacity, bytes },
    )
  }
}

/**
 * Two rows of modules per line in half blocks. Light modules and the margin are drawn (█ ▀ ▄) and
 * dark modules left blank, so that a terminal's light text on a dark background shows dark on light.
 */
function textOf(symbol: QRCode, margin: number): string {
  const size = symbol.modules.size
  const side = size + 2 * margin
  const light = (row: number, column: number) => {
    const [r, c] = [row - margin, column - margin]
    return r < 0 || c < 0 || r >= size || c >= size || !symbol.modules.get(r, c)
  }
  const lines: string[] = []
  for (let row = 0; row < side; row += 2) {
    let line = ''
    for (let column = 0; column < side; column++) {
      const top = light(row, column)
      const bottom = row + 1 < side && light(row + 1, column)
      line += top ? (bottom ? '█' : '▀') : bottom ? '▄' : ' '
    }
    lines.push(line)
  }
  return `${lines.join('\n')}\n`
}

async function render(
  library: QrCodeLibrary,
  input: string,
  level: Level,
  format: 'svg' | 'png' | 'text',
  margin: number,
  scale: number,
  symbol: QRCode,
): Promise<string> {
  const errorCorrectionLevel = level as QRCodeErrorCorrectionLevel
  switch (format) {
    case 'svg':
      return library.toString(input, { type: 'svg', errorCorrectionLevel, margin, version: symbol.version })
    case 'png':
      return (await library.toBuffer(input, { type: 'png', errorCorrectionLevel, margin, scale, version: symbol.version })).toString('base64')
    case 'text':
      return textOf(symbol, margin)
  }
}

const qrOutput = Type.Object({
  result: Type.String({
    description:
      'generate: the QR code: SVG markup, a PNG in base64 (no data: prefix), or lines of text in Unicode block characters, each ending in a line feed. decode: the text of the first QR code found.',
  }),
  action: Type.Optional(Type.Enum(['decode'], { description: 'decode only: the action performed (generate answers as it always has, without it).' })),
  format: Type.Optional(Type.Enum(['svg', 'png', 'text'], { description: 'generate: the format of `result`.' })),
  mediaType: Type.Optional(
    Type.String({ description: 'generate: the media type of `result` once decoded: image/svg+xml, image/png or text/plain; charset=utf-8.' }),
  ),
  version: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 40,
      description: 'generate: the symbol version (size), the smallest that holds the input: 1 is 21×21 modules, 40 is 177×177.',
    }),
  ),
  errorCorrection: Type.Optional(Type.Enum(['L', 'M', 'Q', 'H'], { description: 'generate: the error correction level used.' })),
  modules: Type.Optional(Type.Integer({ description: 'generate: the side of the symbol in modules, without the margin: 17 + 4 × version.' })),
  symbols: Type.Optional(
    Type.Array(
      Type.Object({
        text: Type.String({ description: 'The text the symbol holds (its bytes read as its ECI or as UTF-8/ISO-8859-1 says).' }),
        bytes: Type.Optional(Type.String({ description: 'The bytes it holds, in lower-case hex, when they are not the UTF-8 of `text`.' })),
        errorCorrection: Type.String({ description: 'Its error correction level, L, M, Q or H.' }),
        version: Type.Integer({ description: 'Its version, 1 to 40.' }),
        position: positionSchema,
      }),
      { description: 'decode: every QR code read (the first only, unless `all`).' },
    ),
  ),
  count: Type.Optional(Type.Integer({ minimum: 1, description: 'decode: how many QR codes were read.' })),
})

export const qrCode = defineOperation({
  name: 'qr-code',
  category: 'generators',
  summary: 'Generate a QR code as SVG, PNG or terminal text, or read one from an image',
  title: 'QR code',
  aliases: ['qr', 'qrcode', 'barcode', '2d code', 'read qr code', 'scan qr code', 'decode qr', 'qr reader', 'qr scanner'],
  description:
    'Encodes text in a QR code (ISO/IEC 18004, model 2), in the smallest version (1–40) that holds it at the chosen error correction level, ' +
    'with the qrcode library: numeric, alphanumeric and byte segments mixed for the shortest code, text as UTF-8 bytes (without an ECI header, as most readers expect). ' +
    '`format` `svg` (default) is a self-contained SVG document whose viewBox counts modules (scale it freely); `png` is a black-on-white PNG in base64, `scale` pixels per module; ' +
    '`text` draws the code in Unicode block characters, two rows of modules per line, for a terminal with light text on a dark background. ' +
    '`margin` is the quiet zone in modules (4 in the standard). The same request always gives the same answer. ' +
    `Input that no version-40 symbol holds at the level is a 422 that gives the capacity (at L: ${CAPACITY.L.bytes} bytes, ${CAPACITY.L.alphanumeric} alphanumeric or ${CAPACITY.L.numeric} digits). ` +
    `The largest PNG (version 40, scale ${MAX_SCALE}, margin ${MAX_MARGIN}) is 1,970 pixels square and about 63 KB. ` +
    '`action: decode` reads QR codes from `input`, an image in base64 (a `data:image/…;base64,` prefix is accepted): PNG, JPEG, GIF or BMP, told apart by their first bytes, not the prefix; WebP, SVG, TIFF and HEIC are a 422. ' +
    'It reads with zxing-cpp (built to WebAssembly): rotated, mirrored and inverted codes too. `result` is the text of the first code, `symbols` each code read with its error correction level, version, position and, when its bytes are not UTF-8 text, the bytes in hex; `all` reads every code in the image. ' +
    'An image with no readable QR code is a 422 "no QR code found". Images larger than 4,096 pixels a side or 4,000,000 pixels are a 422 LIMIT_EXCEEDED, judged from the header before any pixel is decoded, as is a PNG whose image data inflates past the size its header declares (a decompression bomb). Decoding runs on a worker thread, and only by POST (an image is a body, not a URL).',
  input: Type.Object(
    {
      action: withDefault(
        Type.Enum(['generate', 'decode'], { description: '`generate` a QR code from text, or `decode` the QR codes in an image.' }),
        'generate',
      ),
      input: Type.String({
        minLength: 1,
        maxLength: MAX_IMAGE_BASE64,
        description: `generate: the text to encode, up to ${CAPACITY.L.numeric} characters (what fits depends on the text and the level; see the description). decode: a PNG, JPEG, GIF or BMP image in base64.`,
        examples: ['https://example.com/'],
      }),
      format: withDefault(
        Type.Enum(['svg', 'png', 'text'], { description: '`svg` markup, a `png` image in base64, or `text` in block characters for a terminal.' }),
        'svg',
      ),
      errorCorrection: withDefault(
        Type.Enum(['L', 'M', 'Q', 'H'], {
          description: 'How much of the symbol may be damaged and still read: L about 7%, M 15%, Q 25%, H 30%. Higher levels make larger symbols.',
        }),
        'M',
      ),
      margin: withDefault(
        Type.Integer({ minimum: 0, maximum: MAX_MARGIN, description: `The quiet zone around the symbol, in modules, 0 to ${MAX_MARGIN}; readers need 4.` }),
        4,
      ),
      scale: withDefault(Type.Integer({ minimum: 1, maximum: MAX_SCALE, description: `PNG only: pixels per module, 1 to ${MAX_SCALE}.` }), 4),
      all: withDefault(Type.Boolean({ description: 'decode: read every QR code in the image, not only the first.' }), false),
    },
    { additionalProperties: false },
  ),
  output: qrOutput,
  actions: {
    generate: { fields: ['input', 'format', 'errorCorrection', 'margin', 'scale'] },
    decode: { fields: ['input', 'all'], readsFile: true },
  },
  examples: [
    {
      summary: 'A short text as SVG',
      input: { input: 'hi', margin: 1 },
      output: {
        result:
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 23 23" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h23v23H0z"/><path stroke="#000000" d="M1 1.5h7m2 0h4m1 0h7M1 2.5h1m5 0h1m2 0h2m1 0h1m1 0h1m5 0h1M1 3.5h1m1 0h3m1 0h1m1 0h2m1 0h2m1 0h1m1 0h3m1 0h1M1 4.5h1m1 0h3m1 0h1m1 0h2m2 0h1m1 0h1m1 0h3m1 0h1M1 5.5h1m1 0h3m1 0h1m1 0h1m2 0h2m1 0h1m1 0h3m1 0h1M1 6.5h1m5 0h1m1 0h2m2 0h1m1 0h1m5 0h1M1 7.5h7m1 0h1m1 0h1m1 0h1m1 0h7M9 8.5h1m1 0h3M1 9.5h1m1 0h5m5 0h1m1 0h5M2 10.5h3m1 0h1m1 0h1m2 0h1m1 0h1m2 0h1m4 0h1M3 11.5h2m2 0h2m1 0h1m1 0h1m1 0h1m2 0h4M1 12.5h3m1 0h1m4 0h1m5 0h2m1 0h1M1 13.5h3m1 0h1m1 0h1m4 0h1m1 0h1m2 0h1m1 0h1m1 0h1M9 14.5h1m2 0h4m2 0h1m2 0h1M1 15.5h7m3 0h1m1 0h1m1 0h2m3 0h1M1 16.5h1m5 0h1m1 0h7m2 0h1m2 0h1M1 17.5h1m1 0h3m1 0h1m1 0h1m3 0h1m2 0h1m2 0h1M1 18.5h1m1 0h3m1 0h1m1 0h3m1 0h1m2 0h1m2 0h1M1 19.5h1m1 0h3m1 0h1m1 0h1m2 0h1m1 0h1m2 0h3M1 20.5h1m5 0h1m2 0h2m4 0h2m1 0h1M1 21.5h7m1 0h1m1 0h2m1 0h1m2 0h4"/></svg>\n',
        format: 'svg',
        mediaType: 'image/svg+xml',
        version: 1,
        errorCorrection: 'M',
        modules: 21,
      },
    },
    {
      summary: 'A URL for a terminal',
      input: { input: 'https://example.com/', format: 'text', errorCorrection: 'L', margin: 2 },
      output: {
        result:
          '█████████████████████████████\n██ ▄▄▄▄▄ █▄▄███ ██ █ ▄▄▄▄▄ ██\n██ █   █ █ ▀█ ▄   ▄█ █   █ ██\n██ █▄▄▄█ █▄ ▄▄▀  ▄ █ █▄▄▄█ ██\n██▄▄▄▄▄▄▄█▄▀▄▀▄█▄▀ █▄▄▄▄▄▄▄██\n██ ▄ ▄▀▀▄▀▄▀███▀█▄▄ █▀▄▄▄▀▄██\n██  ▄ ▀▄▄█▀██▀▀ ▀█▄▄▄▄▄▀▀████\n██▄▀ ▀▀ ▄█ ▄▀ █▀▀ ▀  ▀ █▄▄ ██\n██▀▄ █▀█▄█▄ ██ ▀▄▀ ▀▀▀ █▄▄▀██\n████▄▄██▄█▀  ▄▀▀█▄ ▄▄▄ ▄ ▄ ██\n██ ▄▄▄▄▄ ██  ▄ ██▀ █▄█ █▄ ▄██\n██ █   █ █▀█▄▄  ▀▀▄  ▄  ▀ ▀██\n██ █▄▄▄█ █  █▄▄▄█▀█  █ █ ▄███\n██▄▄▄▄▄▄▄█▄███▄█▄██▄▄▄▄▄▄▄▄██\n▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀\n',
        format: 'text',
        mediaType: 'text/plain; charset=utf-8',
        version: 2,
        errorCorrection: 'L',
        modules: 25,
      },
    },
  ],
  allowGet: true,
  postOnlyActions: ['decode'],
  offload: ({ action, input, format }) => action === 'decode' || format === 'png' || input.length > OFFLOAD_LENGTH,
  async run({ action, input, format, errorCorrection, margin, scale, all }) {
    if (action === 'decode') return decode(input, all)
    if (input.length > CAPACITY.L.numeric) throw validationError('input', `must NOT have more than ${CAPACITY.L.numeric} characters`)
    const library = await qrCodeLibrary()
    const symbol = symbolOf(library, input, errorCorrection)
    const answer: Static<typeof qrOutput> = {
      result: await render(library, input, errorCorrection, format, margin, scale, symbol),
      format,
      mediaType: MEDIA_TYPES[format],
      version: symbol.version,
      errorCorrection,
      modules: symbol.modules.size,
    }
    return answer
  },
})

async function decode(input: string, all: boolean): Promise<Static<typeof qrOutput>> {
  const found = await readImage(input, ['QRCode'], all)
  if (found.length === 0) throw invalidInput('no QR code found in the image', { field: 'input' })
  const symbols = found.map((symbol) => {
    const bytes = bytesUnlessText(symbol.text, symbol.bytes)
    return {
      text: symbol.text,
      ...(bytes === undefined ? {} : { bytes }),
      errorCorrection: symbol.ecLevel,
      version: Number(symbol.version),
      position: positionOf(symbol.position),
    }
  })
  return { result: symbols[0].text, action: 'decode', symbols, count: symbols.length }
}
