import { deflateSync } from 'node:zlib'
import { type Static, Type } from 'typebox'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { gs1CheckDigit } from '../../lib/checksums/gs1.ts'
import { MAX_IMAGE_BASE64, positionSchema } from '../../lib/image/symbol-fields.ts'
import { bytesUnlessText, MAX_IMAGE_SIDE, positionOf, type ReadSymbol, readImage, zxing } from '../../lib/image/zxing.ts'

const FORMATS = ['ean13', 'ean8', 'upca', 'upce', 'code128', 'code39', 'code93', 'itf', 'codabar', 'datamatrix', 'pdf417', 'aztec', 'qrcode'] as const
type Format = (typeof FORMATS)[number]
/** What decode reads besides the formats generate writes. */
const READ_ONLY_FORMATS = ['databar', 'databarexpanded', 'databarlimited', 'microqrcode', 'rmqrcode', 'micropdf417', 'maxicode'] as const
const READ_FORMATS = [...FORMATS, ...READ_ONLY_FORMATS] as const
type ReadFormat = (typeof READ_FORMATS)[number]

/** zxing-cpp's names of the formats. */
const ZXING_NAMES: Record<ReadFormat, string> = {
  ean13: 'EAN13',
  ean8: 'EAN8',
  upca: 'UPCA',
  upce: 'UPCE',
  code128: 'Code128',
  code39: 'Code39',
  code93: 'Code93',
  itf: 'ITF',
  codabar: 'Codabar',
  datamatrix: 'DataMatrix',
  pdf417: 'PDF417',
  aztec: 'AztecCode',
  qrcode: 'QRCode',
  databar: 'DataBar',
  databarexpanded: 'DataBarExp',
  databarlimited: 'DataBarLtd',
  microqrcode: 'MicroQRCode',
  rmqrcode: 'RMQRCode',
  micropdf417: 'MicroPDF417',
  maxicode: 'MaxiCode',
}
const OUR_NAMES = new Map<string, string>([...Object.entries(ZXING_NAMES).map(([ours, theirs]) => [theirs, ours] as const), ['Aztec', 'aztec']])

const LINEAR: ReadonlySet<Format> = new Set(['ean13', 'ean8', 'upca', 'upce', 'code128', 'code39', 'code93', 'itf', 'codabar'])

/** The digits of each EAN/UPC format, without and with the check digit. */
const GTIN_LENGTHS: Partial<Record<Format, [number, number]>> = { ean13: [12, 13], ean8: [7, 8], upca: [11, 12], upce: [7, 8] }

/** The longest text a linear symbol is given: beyond it the bars are too many to print or scan. */
export const MAX_LINEAR_LENGTH = 80

/** What the largest symbol of each two-dimensional format holds, in bytes and in digits. */
export const CAPACITY_2D: Record<'datamatrix' | 'pdf417' | 'aztec' | 'qrcode', { bytes: number; digits: number }> = {
  datamatrix: { bytes: 1556, digits: 3116 },
  pdf417: { bytes: 1108, digits: 2710 },
  aztec: { bytes: 1914, digits: 3832 },
  qrcode: { bytes: 2953, digits: 7089 },
}

const MAX_INPUT_LENGTH = CAPACITY_2D.qrcode.digits
export const MAX_SCALE = 10
export const MAX_MARGIN = 20
const TEXT_LINES_1D = 5

const MEDIA_TYPES = { svg: 'image/svg+xml', png: 'image/png', text: 'text/plain; charset=utf-8' } as const

/** A UPC-E number (number system and six digits) written out as the UPC-A it stands for. */
export function upceToUpca(upce: string): string {
  const [system, m] = [upce[0], upce.slice(1, 7)]
  const last = m[5]
  if (last <= '2') return `${system}${m[0]}${m[1]}${last}0000${m[2]}${m[3]}${m[4]}`
  if (last === '3') return `${system}${m[0]}${m[1]}${m[2]}00000${m[3]}${m[4]}`
  if (last === '4') return `${system}${m[0]}${m[1]}${m[2]}${m[3]}00000${m[4]}`
  return `${system}${m.slice(0, 5)}0000${last}`
}

/** The EAN/UPC digits with their check digit: computed when missing, checked when given. */
function withCheckDigit(format: Format, input: string): string {
  const [bare, full] = GTIN_LENGTHS[format] as [number, number]
  if (!/^\d+$/.test(input) || (input.length !== bare && input.length !== full)) {
    throw invalidInput(`${format} takes ${bare} digits, or ${full} with the check digit; input is ${JSON.stringify(input.slice(0, 20))}`, {
      field: 'input',
      format,
    })
  }
  if (format === 'upce' && input[0] !== '0' && input[0] !== '1') {
    throw invalidInput('upce numbers begin with the number system 0 or 1', { field: 'input', format })
  }
  const payload = input.slice(0, bare)
  const expected = Number(gs1CheckDigit(format === 'upce' ? upceToUpca(payload) : payload))
  if (input.length === full && Number(input[bare]) !== expected) {
    throw invalidInput(`input's check digit is ${input[bare]}, expecting ${expected}`, { field: 'input', format, checkDigit: Number(input[bare]), expected })
  }
  return `${payload}${expected}`
}

/** The text a symbol is made of, checked against what the format takes before the writer sees it. */
function textFor(format: Format, input: string): string {
  if (GTIN_LENGTHS[format]) return withCheckDigit(format, input)
  if (LINEAR.has(format)) {
    if (input.length > MAX_LINEAR_LENGTH) {
      throw limitExceeded(
        `input does not fit in a ${format} symbol: linear barcodes here hold up to ${MAX_LINEAR_LENGTH} characters; input is ${input.length}. Use datamatrix or qrcode for more.`,
        {
          field: 'input',
          format,
          limit: MAX_LINEAR_LENGTH,
          length: input.length,
        },
      )
    }
    if (format === 'itf' && !/^(\d\d)+$/.test(input)) {
      throw invalidInput('itf encodes digits in pairs: input must be an even number of digits (add a leading 0)', { field: 'input', format })
    }
  }
  return input
}

/** zxing's message without its error number and return value. */
function reasonOf(error: string): string {
  return error.replace(/^Error \d+: /, '').replace(/ \(retval: \d+\)$/, '')
}

function writerError(format: Format, input: string, error: string): never {
  const reason = reasonOf(error)
  if (/too long|too many|too big/i.test(reason) && format in CAPACITY_2D) {
    const { bytes, digits } = CAPACITY_2D[format as keyof typeof CAPACITY_2D]
    throw limitExceeded(
      `input does not fit in ${format === 'aztec' ? 'an' : 'a'} ${format} symbol (${reason}): the largest holds about ${bytes} bytes of text or ${digits} digits; input is ${Buffer.byteLength(input)} bytes. Shorten it.`,
      { field: 'input', format, limit: bytes, bytes: Buffer.byteLength(input) },
    )
  }
  throw invalidInput(`input cannot be written as ${format}: ${reason}`, { field: 'input', format })
}

/** A symbol's modules, row by row, true for dark. */
interface Modules {
  width: number
  height: number
  dark(x: number, y: number): boolean
}

interface Drawing {
  width: number
  height: number
  /** Dark runs of each row of pixels' band: x, y, width and height, in pixels. */
  rects: Array<[number, number, number, number]>
}

/** Where the bars or modules fall in pixels, the margin included. */
function layout(modules: Modules, linear: boolean, scale: number, margin: number, barHeight: number): Drawing {
  const width = (modules.width + 2 * margin) * scale
  const height = linear ? barHeight : (modules.height + 2 * margin) * scale
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw limitExceeded(
      `the barcode would be ${width}×${height} pixels: images are drawn up to ${MAX_IMAGE_SIDE} pixels a side. Lower scale or margin, or shorten the input.`,
      { field: 'scale', width, height, maxSide: MAX_IMAGE_SIDE },
    )
  }
  const rects: Drawing['rects'] = []
  const rows = linear ? 1 : modules.height
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < modules.width; ) {
      if (!modules.dark(x, y)) {
        x++
        continue
      }
      let end = x
      while (end < modules.width && modules.dark(end, y)) end++
      rects.push(linear ? [(x + margin) * scale, 0, (end - x) * scale, barHeight] : [(x + margin) * scale, (y + margin) * scale, (end - x) * scale, scale])
      x = end
    }
  }
  return { width, height, rects }
}

function svgOf({ width, height, rects }: Drawing): string {
  const path = rects.map(([x, y, w, h]) => `M${x} ${y}h${w}v${h}h-${w}z`).join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h${width}v${height}H0z"/><path fill="#000000" d="${path}"/></svg>\n`
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(body.length + 8)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), body.length + 4)
  return out
}

/** A black-on-white 8-bit greyscale PNG (ISO/IEC 15948) of the drawing. */
function pngOf({ width, height, rects }: Drawing): string {
  const stride = width + 1
  const raw = Buffer.alloc(stride * height, 0xff)
  for (let y = 0; y < height; y++) raw[y * stride] = 0
  for (const [x, y, w, h] of rects) {
    for (let row = y; row < y + h; row++) raw.fill(0, row * stride + 1 + x, row * stride + 1 + x + w)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 0, 0, 0, 0], 8)
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', new Uint8Array())]).toString('base64')
}

/**
 * Light modules and the margin drawn in block characters and dark ones left blank (so a terminal's
 * light text on a dark background shows dark on light): two rows of modules a line for a matrix,
 * a few lines of bars for a linear symbol.
 */
function textOf(modules: Modules, linear: boolean, margin: number): { text: string; width: number; height: number } {
  const width = modules.width + 2 * margin
  const light = (x: number, y: number) => {
    const [c, r] = [x - margin, y - margin]
    return c < 0 || r < 0 || c >= modules.width || r >= modules.height || !modules.dark(c, r)
  }
  const lines: string[] = []
  if (linear) {
    let line = ''
    for (let x = 0; x < width; x++) line += x < margin || x >= margin + modules.width || !modules.dark(x - margin, 0) ? '█' : ' '
    for (let i = 0; i < TEXT_LINES_1D; i++) lines.push(line)
  } else {
    const side = modules.height + 2 * margin
    for (let y = 0; y < side; y += 2) {
      let line = ''
      for (let x = 0; x < width; x++) {
        const top = light(x, y)
        const bottom = y + 1 < side && light(x, y + 1)
        line += top ? (bottom ? '█' : '▀') : bottom ? '▄' : ' '
      }
      lines.push(line)
    }
  }
  return { text: `${lines.join('\n')}\n`, width, height: lines.length }
}

const symbolSchema = Type.Object({
  format: Type.String({ description: 'The symbology read, as `formats` names it (`ean13`, `qrcode`, …).' }),
  text: Type.String({ description: 'The text the symbol holds.' }),
  bytes: Type.Optional(Type.String({ description: 'The bytes it holds, in lower-case hex, when they are not the UTF-8 of `text`.' })),
  position: positionSchema,
})

const barcodeOutput = Type.Object({
  result: Type.String({
    description:
      'generate: the barcode as SVG markup, a PNG in base64 (no data: prefix), or lines of block characters each ending in a line feed. decode: the text of the first symbol read.',
  }),
  action: Type.Enum(['generate', 'decode'], { description: 'The action performed.' }),
  format: Type.Optional(Type.Enum(FORMATS, { description: 'generate: the symbology written.' })),
  mediaType: Type.Optional(Type.String({ description: 'generate: the media type of `result` once decoded.' })),
  width: Type.Optional(Type.Integer({ description: 'generate: the width of the image in pixels (svg, png) or of each line in characters (text).' })),
  height: Type.Optional(Type.Integer({ description: 'generate: the height of the image in pixels (svg, png) or its number of lines (text).' })),
  text: Type.Optional(Type.String({ description: 'generate: what was encoded: the input, with the check digit for EAN/UPC.' })),
  symbols: Type.Optional(Type.Array(symbolSchema, { description: 'decode: each symbol read (the first only, unless `all`).' })),
  count: Type.Optional(Type.Integer({ minimum: 1, description: 'decode: how many symbols were read.' })),
})
type Answer = Static<typeof barcodeOutput>

/** A QR code of "hi" as this operation draws it (scale 2, margin 2). */
const DECODE_EXAMPLE =
  'iVBORw0KGgoAAAANSUhEUgAAADIAAAAyCAAAAAA7VNdtAAAAtElEQVR42t2W3QqAMAiFff+XrosIPf40pwbRoEFbnx30uKJje9CnEYJx3ctZ7nUQ8VrC2dlrICyKpQZ7QwgDbyK8Mo1gIvVjibokEG0YeSU9tkQcg9N2v6QQW847zcasRYQtiMXUwXqIXLKCphDZTloYBusg2Lg6gElHGfHsItsZQhURa3AvFX0EReExHggrIbHxsbHnECwgAnOILqJqvgZiP3zegdhDzCHqSn302BL5yZ/SCZzlHjdOt1ZRAAAAAElFTkSuQmCC'

export const barcode = defineOperation({
  name: 'barcode',
  category: 'generators',
  summary: 'Generate or read barcodes: EAN/UPC, Code 128/39/93, ITF, Codabar, DataMatrix, PDF417, Aztec, QR',
  title: 'Barcode',
  aliases: [
    'barcode generator',
    'barcode reader',
    'barcode scanner',
    'read barcode',
    'scan barcode',
    'ean',
    'ean-13',
    'ean-8',
    'upc',
    'upc-a',
    'upc-e',
    'gtin',
    'code 128',
    'code 39',
    'code 93',
    'itf',
    'interleaved 2 of 5',
    'codabar',
    'data matrix',
    'datamatrix',
    'pdf417',
    'aztec',
    'qr code',
    '1d barcode',
    '2d barcode',
  ],
  description:
    'Writes and reads barcodes with zxing-cpp (built to WebAssembly, loaded from disk with the first call; nothing is fetched). ' +
    '`action: generate` writes `input` in `format`: `ean13`, `ean8`, `upca`, `upce` (digits; a missing check digit is computed, a wrong one is a 422 naming the expected digit), ' +
    `\`code128\` (default), \`code39\`, \`code93\`, \`itf\` (digits in pairs), \`codabar\` (between start/stop letters A–D), up to ${MAX_LINEAR_LENGTH} characters, ` +
    'or the two-dimensional `datamatrix`, `pdf417`, `aztec` and `qrcode`, up to their capacity (a 422 LIMIT_EXCEEDED gives it). ' +
    '`output` `svg` (default) is a self-contained SVG, `png` a black-on-white greyscale PNG in base64, `text` block characters for a terminal with light text on a dark background (light modules drawn). ' +
    '`scale` is pixels per module; `margin` the quiet zone in modules (default 10 for linear symbols, left and right; 2 for matrix symbols, all round); `height` the height of linear bars in pixels (matrix symbols are square modules). ' +
    `Images are drawn up to ${MAX_IMAGE_SIDE} pixels a side (a 422 LIMIT_EXCEEDED says to lower scale). The answer gives \`width\` and \`height\` (pixels, or characters and lines for text) and \`text\`, what was encoded. ` +
    '`action: decode` reads `input`, an image in base64 (PNG, JPEG, GIF or BMP, told apart by its first bytes; a `data:` prefix is accepted; WebP, SVG, TIFF and HEIC are a 422), for the symbologies in `formats` (all by default), rotated or inverted too, ' +
    'and answers each symbol with its format, text, bytes (hex, when not UTF-8 text) and position; `all` reads every symbol, else the first. A UPC-A reads as an EAN-13 with a leading 0 unless `formats` asks for `upca` (then its 12 digits); a UPC-E answers its 8 digits. ' +
    'An image with no symbol is a 422 "no barcode found". Images larger than 4,096 pixels a side or 4,000,000 pixels are a 422 LIMIT_EXCEEDED, judged from the header before any pixel is decoded, as is a PNG whose image data inflates past the size its header declares (a decompression bomb). Decoding runs on a worker thread, and only by POST.',
  input: Type.Object(
    {
      action: withDefault(
        Type.Enum(['generate', 'decode'], { description: '`generate` a barcode from text, or `decode` the barcodes in an image.' }),
        'generate',
      ),
      input: Type.String({
        minLength: 1,
        maxLength: MAX_IMAGE_BASE64,
        description: `generate: the data to encode (up to ${MAX_INPUT_LENGTH} characters; what fits depends on the format). decode: a PNG, JPEG, GIF or BMP image in base64.`,
        examples: ['400638133393'],
      }),
      format: withDefault(Type.Enum(FORMATS, { description: 'generate: the symbology.' }), 'code128'),
      output: withDefault(
        Type.Enum(['svg', 'png', 'text'], { description: 'generate: `svg` markup, a `png` image in base64, or `text` in block characters.' }),
        'svg',
      ),
      scale: withDefault(Type.Integer({ minimum: 1, maximum: MAX_SCALE, description: `generate: pixels per module, 1 to ${MAX_SCALE}.` }), 3),
      margin: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: MAX_MARGIN,
          description: `generate: the quiet zone in modules, 0 to ${MAX_MARGIN}: 10 for linear symbols and 2 for matrix symbols when absent.`,
        }),
      ),
      height: withDefault(
        Type.Integer({ minimum: 10, maximum: 300, description: 'generate, linear symbols: the height of the bars in pixels, 10 to 300.' }),
        60,
      ),
      formats: Type.Optional(
        Type.Array(Type.Enum(READ_FORMATS), {
          minItems: 1,
          maxItems: READ_FORMATS.length,
          uniqueItems: true,
          description: 'decode: the symbologies to look for; every one when absent.',
        }),
      ),
      all: withDefault(Type.Boolean({ description: 'decode: read every symbol in the image, not only the first.' }), false),
    },
    { additionalProperties: false },
  ),
  output: barcodeOutput,
  actions: {
    generate: { fields: ['input', 'format', 'output', 'scale', 'margin', 'height'] },
    decode: { fields: ['input', 'formats', 'all'], readsFile: true },
  },
  examples: [
    {
      summary: 'An EAN-13 for a terminal, its check digit computed',
      input: { input: '400638133393', format: 'ean13', output: 'text', margin: 4 },
      output: {
        result: `${'████ █ ███  █ █ ██   █ █    █    █ ███ ██ █  ██  █ █ █ ████ █ ████ █ ████ █   █ ██ ████ █  ██  █ █ ████\n'.repeat(5)}`,
        action: 'generate',
        format: 'ean13',
        mediaType: 'text/plain; charset=utf-8',
        width: 103,
        height: 5,
        text: '4006381333931',
      },
    },
    {
      summary: 'A Data Matrix as SVG',
      input: { input: 'hi', format: 'datamatrix' },
      output: {
        result:
          '<svg xmlns="http://www.w3.org/2000/svg" width="42" height="42" viewBox="0 0 42 42" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h42v42H0z"/><path fill="#000000" d="M6 6h3v3h-3zM12 6h3v3h-3zM18 6h3v3h-3zM24 6h3v3h-3zM30 6h3v3h-3zM6 9h3v3h-3zM12 9h3v3h-3zM21 9h3v3h-3zM30 9h6v3h-6zM6 12h6v3h-6zM15 12h9v3h-9zM27 12h3v3h-3zM6 15h3v3h-3zM12 15h3v3h-3zM18 15h3v3h-3zM24 15h3v3h-3zM30 15h6v3h-6zM6 18h9v3h-9zM21 18h9v3h-9zM6 21h6v3h-6zM21 21h3v3h-3zM33 21h3v3h-3zM6 24h3v3h-3zM15 24h3v3h-3zM24 24h6v3h-6zM6 27h12v3h-12zM21 27h15v3h-15zM6 30h3v3h-3zM12 30h3v3h-3zM27 30h6v3h-6zM6 33h30v3h-30z"/></svg>\n',
        action: 'generate',
        format: 'datamatrix',
        mediaType: 'image/svg+xml',
        width: 42,
        height: 42,
        text: 'hi',
      },
    },
    {
      summary: 'Read the barcode in a PNG',
      input: { action: 'decode', input: DECODE_EXAMPLE },
      output: {
        result: 'hi',
        action: 'decode',
        symbols: [
          {
            format: 'qrcode',
            text: 'hi',
            position: { topLeft: { x: 4, y: 4 }, topRight: { x: 46, y: 4 }, bottomRight: { x: 48, y: 48 }, bottomLeft: { x: 4, y: 46 } },
          },
        ],
        count: 1,
      },
    },
  ],
  allowGet: true,
  postOnlyActions: ['decode'],
  overrun: { advice: 'crop the image to the code or scale it down' },
  offload: ({ action, output }) => action === 'decode' || output === 'png',
  async run({ action, input, format, output, scale, margin, height, formats, all }) {
    if (action === 'decode') return decode(input, formats, all)
    if (input.length > MAX_INPUT_LENGTH) {
      throw limitExceeded(`input is ${input.length} characters: barcodes hold up to ${MAX_INPUT_LENGTH} (digits in a QR code)`, {
        field: 'input',
        limit: MAX_INPUT_LENGTH,
      })
    }
    const linear = LINEAR.has(format)
    const text = textFor(format, input)
    const library = await zxing()
    const written = await library.writeBarcode(text, { format: ZXING_NAMES[format] as never })
    if (written.error) writerError(format, input, written.error)
    const { data, width: symbolWidth, height: symbolHeight } = written.symbol
    const modules: Modules = { width: symbolWidth, height: linear ? 1 : symbolHeight, dark: (x, y) => data[y * symbolWidth + x] === 0 }
    const quiet = margin ?? (linear ? 10 : 2)
    const answer = (result: string, width: number, imageHeight: number): Answer => ({
      result,
      action: 'generate',
      format,
      mediaType: MEDIA_TYPES[output],
      width,
      height: imageHeight,
      text,
    })
    if (output === 'text') {
      const drawn = textOf(modules, linear, quiet)
      return answer(drawn.text, drawn.width, drawn.height)
    }
    const drawing = layout(modules, linear, scale, quiet, height)
    return answer(output === 'svg' ? svgOf(drawing) : pngOf(drawing), drawing.width, drawing.height)
  },
})

async function decode(input: string, formats: ReadFormat[] | undefined, all: boolean): Promise<Answer> {
  const found = await readImage(
    input,
    (formats ?? []).map((format) => ZXING_NAMES[format]),
    all,
  )
  if (found.length === 0) throw invalidInput('no barcode found in the image', { field: 'input', ...(formats ? { formats } : {}) })
  const symbols = found.map((symbol) => {
    const text = upcText(symbol)
    const bytes = text === symbol.text ? bytesUnlessText(symbol.text, symbol.bytes) : undefined
    return {
      format: OUR_NAMES.get(symbol.format) ?? symbol.format.toLowerCase(),
      text,
      ...(bytes === undefined ? {} : { bytes }),
      position: positionOf(symbol.position),
    }
  })
  return { result: symbols[0].text, action: 'decode', symbols, count: symbols.length }
}

/** zxing-cpp reports UPC-A and UPC-E as their GTIN-13; they are answered as printed under the bars, 12 and 8 digits. */
function upcText(symbol: ReadSymbol): string {
  if (symbol.format === 'UPCA' && /^0\d{12}$/.test(symbol.text)) return symbol.text.slice(1)
  if (symbol.format === 'UPCE') {
    try {
      const upce = (JSON.parse(symbol.extra) as { UPCE?: unknown }).UPCE
      if (typeof upce === 'string' && /^\d{8}$/.test(upce)) return upce
    } catch {
      // no extra facts: the GTIN-13 is answered as it is
    }
  }
  return symbol.text
}
