import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'
import QRCode from 'qrcode'
import { expectRefusal } from '../../../test/expect.ts'
import { pngBomb, pngFile, zlibZeros } from '../../../test/png-files.ts'
import { execute } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { queryToInput } from '../../core/query.ts'
import { CAPACITY, MAX_MARGIN, MAX_SCALE, qrCode } from './index.ts'

after(() => closeWorkerPool())

// jsqr's bundle is the function itself (module.exports), while its types declare an ES default export.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default

type Level = 'L' | 'M' | 'Q' | 'H'
type Answer = { result: string; format: string; mediaType: string; version: number; errorCorrection: Level; modules: number }
// PNGs run on worker threads; a busy test machine needs more than the service's 5 s budget for the first, which starts them.
const run = (input: Record<string, unknown>) => execute(qrCode, input, { timeBudgetMs: 60_000 }) as Promise<Answer>

/** A grid of modules (true = dark) drawn black on white, `scale` pixels each, for jsQR. */
function pixelsOf(dark: boolean[][], scale = 4) {
  const side = dark.length * scale
  const data = new Uint8ClampedArray(side * side * 4)
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const value = dark[Math.floor(y / scale)][Math.floor(x / scale)] ? 0 : 255
      data.set([value, value, value, 255], (y * side + x) * 4)
    }
  }
  return { data, width: side, height: side }
}

/** The bytes jsQR reads from an image, or a failure naming what it could not read. */
function decode({ data, width, height }: { data: Uint8ClampedArray; width: number; height: number }) {
  const code = jsQR(data, width, height, { inversionAttempts: 'dontInvert' })
  assert.ok(code, 'jsQR finds and reads a QR code')
  return { bytes: Buffer.from(code.binaryData), version: code.version }
}

const SVG_DOCUMENT =
  /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h\1v\1H0z"\/><path stroke="#000000" d="([Mmh0-9. ]+)"\/><\/svg>\n$/

/** The modules an SVG answer paints: its one path of horizontal strokes, read command by command. */
function modulesOfSvg(svg: string): boolean[][] {
  const match = SVG_DOCUMENT.exec(svg)
  assert.ok(match, 'the SVG is one self-contained document of the expected shape')
  const side = Number(match[1])
  const dark = Array.from({ length: side }, () => Array<boolean>(side).fill(false))
  let [x, y] = [0, 0]
  for (const [, command, a, b] of match[2].matchAll(/([Mmh])([\d.]+)(?: ([\d.]+))?/g)) {
    if (command === 'M') [x, y] = [Number(a), Number(b)]
    else if (command === 'm') [x, y] = [x + Number(a), y + Number(b)]
    else {
      for (let column = x; column < x + Number(a); column++) dark[Math.floor(y)][column] = true
      x += Number(a)
    }
  }
  return dark
}

/** The modules a text answer draws: blocks are light, blanks dark, two rows a line. */
function modulesOfText(text: string): boolean[][] {
  assert.ok(text.endsWith('\n'))
  const rows: boolean[][] = []
  for (const line of text.slice(0, -1).split('\n')) {
    const characters = [...line]
    assert.ok(characters.every((character) => ' ▀▄█'.includes(character)))
    rows.push(characters.map((character) => character === ' ' || character === '▄'))
    rows.push(characters.map((character) => character === ' ' || character === '▀'))
  }
  return rows.length > rows[0].length ? rows.slice(0, -1) : rows
}

function pixelsOfPng(base64: string) {
  const png = PNG.sync.read(Buffer.from(base64, 'base64'))
  return { data: new Uint8ClampedArray(png.data), width: png.width, height: png.height }
}

async function decodedIn(format: 'svg' | 'png' | 'text', input: Record<string, unknown>) {
  const answer = await run({ ...input, format })
  assert.equal(answer.format, format)
  if (format === 'png') return { answer, ...decode(pixelsOfPng(answer.result)) }
  return { answer, ...decode(pixelsOf(format === 'svg' ? modulesOfSvg(answer.result) : modulesOfText(answer.result), 3)) }
}

const SAMPLES = [
  'hi',
  'https://example.com/path?query=value&other=1#fragment',
  '01234567',
  '3141592653589793238462643383279502884197',
  'HELLO WORLD $%*+-./:',
  'Grüße, Zoë! Ça va ? 日本語のテキスト 中文 한국어 🎉👍🏽',
  'mixed 12345678901234567890 DIGITS AND TEXT',
  'line one\nline two\r\n\ttabbed',
]

describe('qr-code', () => {
  test('every format decodes, with an independent reader (jsQR), to the UTF-8 bytes of the input, at every level', async () => {
    for (const text of SAMPLES) {
      for (const errorCorrection of ['L', 'M', 'Q', 'H'] as const) {
        for (const format of ['svg', 'png', 'text'] as const) {
          const { answer, bytes, version } = await decodedIn(format, { input: text, errorCorrection })
          assert.deepEqual(bytes, Buffer.from(text, 'utf8'), `${format} ${errorCorrection} ${JSON.stringify(text)}`)
          assert.equal(version, answer.version)
          assert.equal(answer.errorCorrection, errorCorrection)
          assert.equal(answer.modules, 17 + 4 * answer.version)
        }
      }
    }
  })

  test('the capacity of a version-40 symbol at each level (ISO/IEC 18004 Table 7): the maximum fits and decodes, one more is a 422 that gives it', async () => {
    for (const errorCorrection of ['L', 'M', 'Q', 'H'] as const) {
      const { numeric, alphanumeric, bytes } = CAPACITY[errorCorrection]
      for (const input of ['7'.repeat(numeric), 'A'.repeat(alphanumeric), 'a'.repeat(bytes)]) {
        const answer = await run({ input, errorCorrection, format: 'png', scale: 2, margin: 4 })
        assert.equal(answer.version, 40, `${input.length} at ${errorCorrection}`)
        assert.deepEqual(decode(pixelsOfPng(answer.result)).bytes, Buffer.from(input))
        // 7,090 digits are beyond the schema's maxLength, a 400 (see the bounds test).
        if (input.length === CAPACITY.L.numeric) continue
        await expectRefusal(run({ input: `${input}${input[0]}`, errorCorrection }), {
          code: 'LIMIT_EXCEEDED',
          message: new RegExp(
            `at error correction ${errorCorrection}: the largest symbol \\(version 40\\) holds ${bytes} bytes .* ${alphanumeric} characters .* ${numeric} digits`,
          ),
          details: { field: 'input', errorCorrection, limit: bytes, bytes: input.length + 1 },
        })
      }
    }
    await expectRefusal(run({ input: 'a'.repeat(3000), errorCorrection: 'L' }), { code: 'LIMIT_EXCEEDED', message: /bytes\. Shorten it\.$/ })
    await expectRefusal(run({ input: 'a'.repeat(3000), errorCorrection: 'Q' }), { code: 'LIMIT_EXCEEDED', message: /Shorten it or choose a lower level/ })
    // Multi-byte text counts in UTF-8 bytes: 1,273 bytes at H is 424 three-byte characters and one more byte.
    assert.equal((await run({ input: `${'語'.repeat(424)}a`, errorCorrection: 'H' })).version, 40)
    await expectRefusal(run({ input: '語'.repeat(425), errorCorrection: 'H' }), { code: 'LIMIT_EXCEEDED', details: { bytes: 1275 } })
  })

  // ISO/IEC 18004 Table C.1: the 15-bit format information of each level and mask pattern, after masking with 101010000010010.
  const FORMAT_INFORMATION: Record<Level, string[]> = {
    L: ['111011111000100', '111001011110011', '111110110101010', '111100010011101', '110011000101111', '110001100011000', '110110001000001', '110100101110110'],
    M: ['101010000010010', '101000100100101', '101111001111100', '101101101001011', '100010111111001', '100000011001110', '100111110010111', '100101010100000'],
    Q: ['011010101011111', '011000001101000', '011111100110001', '011101000000110', '010010010110100', '010000110000011', '010111011011010', '010101111101101'],
    H: ['001011010001001', '001001110111110', '001110011100111', '001100111010000', '000011101100010', '000001001010101', '000110100001100', '000100000111011'],
  }

  test('the format information in both copies matches ISO/IEC 18004 Table C.1 for the level and the mask used', async () => {
    for (const errorCorrection of ['L', 'M', 'Q', 'H'] as const) {
      for (const text of ['01234567', 'HELLO WORLD', 'https://example.com/', 'a'.repeat(100)]) {
        const { result, modules: size } = await run({ input: text, errorCorrection, margin: 0 })
        const dark = modulesOfSvg(result)
        const bit = ([row, column]: number[]) => (dark[row][column] ? '1' : '0')
        // Bits 14 to 0: around the top-left finder, then split between the bottom-left and top-right ones.
        const first = [
          [8, 0],
          [8, 1],
          [8, 2],
          [8, 3],
          [8, 4],
          [8, 5],
          [8, 7],
          [8, 8],
          [7, 8],
          [5, 8],
          [4, 8],
          [3, 8],
          [2, 8],
          [1, 8],
          [0, 8],
        ]
        const second = [...Array.from({ length: 7 }, (_, index) => [size - 1 - index, 8]), ...Array.from({ length: 8 }, (_, index) => [8, size - 8 + index])]
        const mask = QRCode.create(text, { errorCorrectionLevel: errorCorrection }).maskPattern as number
        assert.equal(first.map(bit).join(''), FORMAT_INFORMATION[errorCorrection][mask], `${errorCorrection} ${text}`)
        assert.equal(second.map(bit).join(''), FORMAT_INFORMATION[errorCorrection][mask], `${errorCorrection} ${text} (second copy)`)
        // The dark module beside the bottom-left finder is always there.
        assert.equal(dark[size - 8][8], true)
      }
    }
  })

  test('versions grow with the input and the level; the ISO/IEC 18004 Annex I example 01234567 is a version 1-M symbol', async () => {
    assert.deepEqual(await run({ input: '01234567', errorCorrection: 'M', margin: 0 }).then(({ version, modules }) => ({ version, modules })), {
      version: 1,
      modules: 21,
    })
    // Version 1 holds 17 bytes at L, 14 at M, 11 at Q and 7 at H (Table 7).
    for (const [errorCorrection, fits] of [
      ['L', 17],
      ['M', 14],
      ['Q', 11],
      ['H', 7],
    ] as const) {
      assert.equal((await run({ input: 'a'.repeat(fits), errorCorrection })).version, 1)
      assert.equal((await run({ input: 'a'.repeat(fits + 1), errorCorrection })).version, 2)
    }
  })

  test('margin and scale set the image size; the SVG counts modules in its viewBox', async () => {
    for (const [margin, scale] of [
      [0, 1],
      [4, 4],
      [MAX_MARGIN, MAX_SCALE],
    ]) {
      const answer = await run({ input: 'size', format: 'png', margin, scale })
      const png = PNG.sync.read(Buffer.from(answer.result, 'base64'))
      assert.equal(png.width, (answer.modules + 2 * margin) * scale)
      assert.equal(png.height, png.width)
      const svg = await run({ input: 'size', margin })
      assert.equal(SVG_DOCUMENT.exec(svg.result)?.[1], String(svg.modules + 2 * margin))
      const text = await run({ input: 'size', format: 'text', margin })
      assert.equal(modulesOfText(text.result).length, text.modules + 2 * margin)
    }
    // An odd number of rows ends on a line of upper halves.
    assert.match((await run({ input: 'x', format: 'text', margin: 0 })).result, /\n[▀ ]+\n$/)
  })

  test('the largest PNG (version 40, largest scale and margin) stays far within the output limit', async () => {
    const answer = await run({ input: '9'.repeat(CAPACITY.L.numeric), errorCorrection: 'L', format: 'png', scale: MAX_SCALE, margin: MAX_MARGIN })
    const png = PNG.sync.read(Buffer.from(answer.result, 'base64'))
    assert.equal(png.width, (177 + 2 * MAX_MARGIN) * MAX_SCALE)
    // About 84 KB of base64: even uncompressed, 1,970² RGBA pixels would be 15.5 MB, under the 16 MiB limit.
    assert.ok(answer.result.length < 200_000, `${answer.result.length} characters`)
    assert.ok(png.width * png.width * 4 < OUTPUT_LIMIT_BYTES)
  })

  test('the same request gives the same answer', async () => {
    for (const format of ['svg', 'png', 'text'] as const) {
      const input = { input: 'deterministic?', format, errorCorrection: 'Q' }
      assert.deepEqual(await run(input), await run(input))
    }
  })

  test('GET: query text is read as the schema types it', async () => {
    const answer = await run(queryToInput(qrCode.input, { input: 'hello', format: 'text', errorCorrection: 'H', margin: '2' }))
    assert.equal(answer.errorCorrection, 'H')
    assert.deepEqual(decode(pixelsOf(modulesOfText(answer.result))).bytes, Buffer.from('hello'))
  })

  test('the schema bounds are 400s', async () => {
    const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
    await refuses({}, 'input')
    await refuses({ input: '' }, 'input')
    await refuses({ input: '1'.repeat(CAPACITY.L.numeric + 1) }, 'input')
    await refuses({ input: 'x', format: 'jpeg' }, 'format')
    await refuses({ input: 'x', errorCorrection: 'm' }, 'errorCorrection')
    await refuses({ input: 'x', margin: -1 }, 'margin')
    await refuses({ input: 'x', margin: MAX_MARGIN + 1 }, 'margin')
    await refuses({ input: 'x', scale: 0 }, 'scale')
    await refuses({ input: 'x', scale: MAX_SCALE + 1 }, 'scale')
    await refuses({ input: 'x', scale: 2.5 }, 'scale')
    await refuses({ input: 'x', version: 3 }, 'version')
    await expectRefusal(run({ input: 'a\ud800b' }), { code: 'INVALID_INPUT' })
  })

  describe('decode', () => {
    const otpauth = 'otpauth://totp/devutils:ada@example.com?secret=JBSWY3DPEHPK3PXP&issuer=devutils'
    type Decoded = { result: string; action: string; count: number; symbols: Array<{ text: string; errorCorrection: string; version: number; bytes?: string }> }
    const decoded = (input: Record<string, unknown>) => run({ action: 'decode', ...input }) as unknown as Promise<Decoded>

    /** The PNG as an uncompressed 24-bit BMP (bottom-up rows, each padded to four bytes). */
    function bmpOf(base64: string): string {
      const { data, width, height } = pixelsOfPng(base64)
      const stride = Math.ceil((width * 3) / 4) * 4
      const bmp = Buffer.alloc(54 + stride * height)
      bmp.write('BM', 0, 'latin1')
      bmp.writeUInt32LE(bmp.length, 2)
      bmp.writeUInt32LE(54, 10)
      bmp.writeUInt32LE(40, 14)
      bmp.writeInt32LE(width, 18)
      bmp.writeInt32LE(height, 22)
      bmp.writeUInt16LE(1, 26)
      bmp.writeUInt16LE(24, 28)
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const from = (y * width + x) * 4
          bmp.set([data[from + 2], data[from + 1], data[from]], 54 + (height - 1 - y) * stride + x * 3)
        }
      }
      return bmp.toString('base64')
    }

    test("an otpauth URI in the qrcode library's PNG and as a BMP: text, level and version as generated", async () => {
      const png = (await QRCode.toBuffer(otpauth, { errorCorrectionLevel: 'M', scale: 4 })).toString('base64')
      const generated = await run({ input: otpauth, errorCorrection: 'M' })
      for (const image of [png, bmpOf(png), `data:image/png;base64,${png}`]) {
        const answer = await decoded({ input: image })
        assert.equal(answer.result, otpauth)
        assert.equal(answer.action, 'decode')
        assert.equal(answer.count, 1)
        assert.deepEqual([answer.symbols[0].errorCorrection, answer.symbols[0].version], ['M', generated.version])
        assert.equal(answer.symbols[0].bytes, undefined)
      }
    })

    test('every format of generate reads back (PNG), and a code that is not a QR code is not found', async () => {
      const { result } = await run({ input: 'round trip', format: 'png', errorCorrection: 'H' })
      assert.equal((await decoded({ input: result })).result, 'round trip')
      const { barcode } = await import('../barcode/index.ts')
      const dataMatrix = (await barcode.run({
        action: 'generate',
        input: 'not a QR code',
        format: 'datamatrix',
        output: 'png',
        scale: 4,
        height: 60,
        all: false,
      } as never)) as {
        result: string
      }
      await expectRefusal(decoded({ input: dataMatrix.result }), { code: 'INVALID_INPUT', message: /^no QR code found/ })
    })

    test('a PNG bomb (image data of 600 MiB of zeros behind a 64×64 header) and a PNG of absurd size are 422 LIMIT_EXCEEDED, on a worker', async () => {
      await expectRefusal(decoded({ input: pngBomb(64, 64, 600).toString('base64') }), {
        code: 'LIMIT_EXCEEDED',
        message: /PNG image data decompresses to more than 4160 bytes, the size its 64×64 header declares/,
        details: { limit: 65 * 64, bound: 'bytes' },
      })
      const absurd = pngFile({ width: 1, height: 0x7fff_ffff, idat: zlibZeros(1) }).toString('base64')
      await expectRefusal(decoded({ input: absurd }), { code: 'LIMIT_EXCEEDED', message: /1×2147483647 PNG/ })
    })

    test('the fields of generate keep their bounds; decode has its own', async () => {
      await expectRefusal(run({ input: '1'.repeat(CAPACITY.L.numeric + 1) }), { code: 'VALIDATION_ERROR', field: 'input' })
      await expectRefusal(decoded({ input: 'x', all: 'yes' }), { code: 'VALIDATION_ERROR', field: 'all' })
      await expectRefusal(decoded({ input: Buffer.from('GIF89a\x70\x17\x70\x17', 'latin1').toString('base64') }), { code: 'LIMIT_EXCEEDED' })
    })
  })
})
