import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import zlib from 'node:zlib'
import fc from 'fast-check'
import { PNG } from 'pngjs'
import { expectRefusal } from '../../../test/expect.ts'
import { interlacedPng, pngBomb, pngFile } from '../../../test/png-files.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { gs1CheckDigit } from '../../lib/checksums/gs1.ts'
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '../../lib/image/zxing.ts'
import { loadOperation } from '../registry.ts'
import { barcode, CAPACITY_2D, MAX_LINEAR_LENGTH, upceToUpca } from './index.ts'

/** qr-code, reached through the registry as any other operation reaches it. */
const qrCode = (await loadOperation('qr-code'))!

after(() => closeWorkerPool())

type Symbol = { format: string; text: string; bytes?: string; position: Record<string, { x: number; y: number }> }
type Answer = {
  result: string
  action: string
  format?: string
  mediaType?: string
  width?: number
  height?: number
  text?: string
  symbols?: Symbol[]
  count?: number
}

const DEFAULTS = { action: 'generate', format: 'code128', output: 'svg', scale: 3, height: 60, all: false }
/** The operation in this thread, defaults filled in as `execute` fills them. */
const run = (input: Record<string, unknown>) => barcode.run({ ...DEFAULTS, ...input } as never) as Promise<Answer>
/** Through `execute`: the schema checks, and decoding on the worker pool. */
const executed = (input: Record<string, unknown>) => execute(barcode, input, { timeBudgetMs: 60_000 }) as Promise<Answer>
const decode = (image: string, extra: Record<string, unknown> = {}) => run({ action: 'decode', input: image, ...extra })

const SAMPLES = new URL('../../../test/fixtures/suites/zxing-cpp-samples/', import.meta.url).pathname

/** A PNG of the given size, white, with a square of `dark` modules drawn `scale` pixels each at (left, top). */
function pngWith(width: number, height: number, dark: boolean[][] = [], scale = 1, left = 0, top = 0): string {
  const png = new PNG({ width, height, colorType: 0, inputColorType: 0, bitDepth: 8, inputHasAlpha: false })
  png.data = Buffer.alloc(width * height, 0xff)
  for (let r = 0; r < dark.length; r++) {
    for (let c = 0; c < dark[r].length; c++) {
      if (!dark[r][c]) continue
      for (let y = 0; y < scale; y++) png.data.fill(0, (top + r * scale + y) * width + left + c * scale, (top + r * scale + y) * width + left + (c + 1) * scale)
    }
  }
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false }).toString('base64')
}

/** A PNG whose IHDR claims a size and whose data is a few bytes: the header of a decompression bomb. */
function pngHeader(width: number, height: number): string {
  const bytes = Buffer.alloc(64)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(bytes)
  bytes.write('IHDR', 12, 'latin1')
  bytes.writeUInt32BE(width, 16)
  bytes.writeUInt32BE(height, 20)
  return bytes.toString('base64')
}

/** The modules of a QR code of `text` as the qr-code operation's terminal text draws them (dark = blank). */
async function qrModules(text: string): Promise<boolean[][]> {
  const answer = (await qrCode.run({ input: text, format: 'text', errorCorrection: 'M', margin: 0, scale: 4, action: 'generate', all: false } as never)) as {
    result: string
  }
  const rows: boolean[][] = []
  for (const line of answer.result.trimEnd().split('\n')) {
    const chars = [...line]
    rows.push(chars.map((ch) => ch === ' ' || ch === '▄'))
    rows.push(chars.map((ch) => ch === ' ' || ch === '▀'))
  }
  return rows
}

describe('barcode', () => {
  test("zxing-cpp's blackbox samples (PNG and JPEG) read to their expected text", async () => {
    let cases = 0
    for (const folder of readdirSync(SAMPLES, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
      const format = folder.name.replace(/-\d+$/, '')
      for (const file of readdirSync(join(SAMPLES, folder.name)).filter((name) => /\.(png|jpg)$/.test(name))) {
        const expected = readFileSync(join(SAMPLES, folder.name, file.replace(/\.(png|jpg)$/, '.txt')), 'utf8')
        const image = readFileSync(join(SAMPLES, folder.name, file)).toString('base64')
        const answer = await decode(image, { formats: [format] })
        const symbol = answer.symbols?.[0] as Symbol
        assert.equal(symbol.format, format, `${folder.name}/${file}`)
        // zxing-cpp's expected text of a UPC-E is its GTIN-13; the answer is the 8 digits printed under the bars.
        const text = format === 'upce' ? `0${upceToUpca(symbol.text.slice(0, 7))}${symbol.text[7]}` : symbol.text
        assert.equal(text, expected, `${folder.name}/${file}`)
        cases++
      }
    }
    assert.equal(cases, 26)
  })

  test('WebP (a zxing-cpp sample), SVG, TIFF and HEIC are refused by name; other bytes are not an image', async () => {
    const webp = readFileSync(join(SAMPLES, 'qrcode-1/13.webp')).toString('base64')
    await expectRefusal(decode(webp), { code: 'INVALID_INPUT', message: /WebP image, which is not read/, details: { type: 'WebP' } })
    await expectRefusal(decode(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')), {
      code: 'INVALID_INPUT',
      details: { type: 'SVG' },
    })
    await expectRefusal(decode(Buffer.from('II*\0\x08\0\0\0', 'latin1').toString('base64')), { code: 'INVALID_INPUT', details: { type: 'TIFF' } })
    await expectRefusal(decode(Buffer.from('\0\0\0\x18ftypheic', 'latin1').toString('base64')), { code: 'INVALID_INPUT', details: { type: 'HEIC/AVIF' } })
    await expectRefusal(decode(Buffer.from('hello, world').toString('base64')), { code: 'INVALID_INPUT', message: /not a PNG, JPEG, GIF or BMP/ })
    await expectRefusal(decode('not base64!'), { code: 'INVALID_INPUT', message: /not base64/ })
    await expectRefusal(decode(pngHeader(10, 10).slice(0, 16)), { code: 'INVALID_INPUT', message: /gives no size/ })
    await expectRefusal(decode(pngHeader(40, 40)), { code: 'INVALID_INPUT', message: /pairs colour type 0 with bit depth 0/ })
    const rows = Buffer.alloc(41 * 40, 0xff)
    const cut = zlib.deflateSync(rows).subarray(0, -8)
    await expectRefusal(decode(pngFile({ width: 40, height: 40, idat: cut }).toString('base64')), {
      code: 'INVALID_INPUT',
      message: /PNG image whose image data is damaged \(unexpected end of file\)/,
    })
    await expectRefusal(decode(pngFile({ width: 40, height: 40, idat: Buffer.from('78daffffffff', 'hex') }).toString('base64')), {
      code: 'INVALID_INPUT',
      message: /image data is damaged/,
    })
    await expectRefusal(decode(pngFile({ width: 40, height: 40, idat: zlib.deflateSync(rows.subarray(1)) }).toString('base64')), {
      code: 'INVALID_INPUT',
      message: /could not be decoded as a PNG/,
    })
  })

  test('a data: prefix is accepted, and the bytes, not the prefix, say what the image is', async () => {
    const { result } = await run({ input: 'prefix', output: 'png' })
    assert.equal((await decode(`data:image/jpeg;base64,${result}`)).result, 'prefix')
  })

  test('the published numbers: EAN-13 4006381333931, UPC-A 036000291452, EAN-8 96385074, check digits computed and checked', async () => {
    for (const [format, full] of [
      ['ean13', '4006381333931'],
      ['upca', '036000291452'],
      ['ean8', '96385074'],
    ] as const) {
      const bare = full.slice(0, -1)
      assert.equal(gs1CheckDigit(bare), full.at(-1))
      for (const input of [bare, full]) {
        const answer = await run({ input, format, output: 'png' })
        assert.equal(answer.text, full)
        assert.equal((await decode(answer.result, { formats: [format] })).result, full)
      }
      const wrong = `${bare}${(Number(full.at(-1)) + 1) % 10}`
      await expectRefusal(run({ input: wrong, format }), {
        code: 'INVALID_INPUT',
        message: new RegExp(`expecting ${full.at(-1)}$`),
        details: { field: 'input', format, expected: Number(full.at(-1)) },
      })
    }
    // Read without a filter, a UPC-A is the EAN-13 with a leading 0 (the same GTIN).
    const upca = await run({ input: '036000291452', format: 'upca', output: 'png' })
    assert.deepEqual([(await decode(upca.result)).symbols?.[0].format, (await decode(upca.result)).result], ['ean13', '0036000291452'])
    // UPC-E: 0123456 stands for UPC-A 01234500006, whose check digit is 5.
    assert.equal(upceToUpca('0123456'), '01234500006')
    assert.equal((await run({ input: '0123456', format: 'upce' })).text, '01234565')
  })

  test('every format round-trips: generated as PNG, read back to its text; SVG and PNG are the same size', async () => {
    const inputs: Record<string, string> = {
      ean13: '590123412345',
      ean8: '5512345',
      upca: '72527273070',
      upce: '0425261',
      code128: 'Code 128: {~}',
      code39: 'CODE-39 $/+%',
      code93: 'CODE 93',
      itf: '00012345678905',
      codabar: 'C12-34:5.6$D',
      datamatrix: 'Data Matrix: 日本',
      pdf417: 'PDF417 over several rows',
      aztec: 'Aztec €',
      qrcode: 'https://example.com/?q=1',
    }
    for (const [format, input] of Object.entries(inputs)) {
      const png = await run({ input, format, output: 'png' })
      const svg = await run({ input, format })
      assert.deepEqual([svg.width, svg.height], [png.width, png.height], format)
      assert.match(
        svg.result,
        new RegExp(`^<svg xmlns="http://www.w3.org/2000/svg" width="${svg.width}" height="${svg.height}" viewBox="0 0 ${svg.width} ${svg.height}"`),
      )
      const read = await decode(png.result, { formats: [format] })
      assert.equal(read.result, png.text, format)
      assert.equal(read.symbols?.[0].format, format)
      const text = await run({ input, format, output: 'text' })
      assert.equal(text.result.split('\n').length - 1, text.height)
    }
  })

  test('fast-check: Code 128 of any printable ASCII, and Data Matrix of any text, read back as written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40, unit: fc.constantFrom(...' !"#$%&()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~') }),
        async (input) => {
          const answer = await run({ input, output: 'png', scale: 2 })
          assert.equal((await decode(answer.result, { formats: ['code128'] })).result, input)
        },
      ),
      { numRuns: 15 },
    )
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' }), async (input) => {
        const answer = await run({ input, format: 'datamatrix', output: 'png' })
        assert.equal((await decode(answer.result)).result, input)
      }),
      { numRuns: 10 },
    )
  })

  test("fast-check: a QR code drawn by qr-code's generate is read by qr-code's decode", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 100, unit: 'grapheme' }), async (input) => {
        const png = (await qrCode.run({ input, format: 'png', errorCorrection: 'M', margin: 4, scale: 4, action: 'generate', all: false } as never)) as {
          result: string
        }
        const answer = (await qrCode.run({ action: 'decode', input: png.result, all: false } as never)) as unknown as Answer & {
          symbols: Array<{ errorCorrection: string }>
        }
        assert.equal(answer.result, input)
        assert.equal(answer.symbols[0].errorCorrection, 'M')
      }),
      { numRuns: 8 },
    )
  })

  test('decode: every symbol with all, the first without; a filter that excludes it finds none', async () => {
    const a = await qrModules('first')
    const b = await qrModules('second')
    const image = pngWith(400, 200, [...a.map((row, i) => [...row, ...Array(10).fill(false), ...b[i]])], 4, 20, 20)
    const both = await decode(image, { all: true })
    assert.equal(both.count, 2)
    assert.deepEqual(new Set(both.symbols?.map((symbol) => symbol.text)), new Set(['first', 'second']))
    assert.equal((await decode(image)).count, 1)
    await expectRefusal(decode(image, { formats: ['ean13', 'datamatrix'] }), { code: 'INVALID_INPUT', message: /^no barcode found/ })
    await expectRefusal(decode(pngWith(50, 50)), { code: 'INVALID_INPUT', message: /^no barcode found/ })
    await expectRefusal(qrCode.run({ action: 'decode', input: pngWith(50, 50), all: false } as never) as Promise<unknown>, {
      code: 'INVALID_INPUT',
      message: /^no QR code found/,
    })
  })

  test('bytes that are not the UTF-8 of the text come back in hex', async () => {
    const sample = readFileSync(join(SAMPLES, 'qrcode-2/33.png')).toString('base64')
    const answer = (await qrCode.run({ action: 'decode', input: sample, all: false } as never)) as unknown as Answer & {
      symbols: Array<{ text: string; bytes?: string }>
    }
    assert.equal(answer.symbols[0].text, readFileSync(join(SAMPLES, 'qrcode-2/33.txt'), 'utf8'))
    // The symbol holds GB 2312 bytes (an ECI says so): the text is read through it, and the bytes are given as they are.
    assert.equal(answer.symbols[0].bytes, '011041443a5355423ab0a23b3b')
  })

  test('decompression bombs are refused from the header, in milliseconds, naming the size', async () => {
    await expectRefusal(decode(pngHeader(6000, 6000)), { code: 'LIMIT_EXCEEDED', message: /6000×6000 PNG/, details: { width: 6000, height: 6000 } })
    const started = performance.now()
    await expectRefusal(decode(pngHeader(6000, 6000)), { code: 'LIMIT_EXCEEDED' })
    assert.ok(performance.now() - started < 50, 'refused before decoding')
    await expectRefusal(decode(pngHeader(MAX_IMAGE_SIDE + 1, 1)), { code: 'LIMIT_EXCEEDED' })
    await expectRefusal(decode(pngHeader(0xffff_ffff, 0xffff_ffff)), { code: 'LIMIT_EXCEEDED', message: /4294967295×4294967295 PNG/ })
    await expectRefusal(decode(pngHeader(2001, 2000)), { code: 'LIMIT_EXCEEDED', details: { maxPixels: MAX_IMAGE_PIXELS } })
    const gif = Buffer.from('GIF89a\x70\x17\x70\x17\x00\x00\x00', 'latin1')
    await expectRefusal(decode(gif.toString('base64')), { code: 'LIMIT_EXCEEDED', message: /6000×6000 GIF/ })
    const bmp = Buffer.alloc(54)
    bmp.write('BM', 0, 'latin1')
    bmp.writeUInt32LE(40, 14)
    bmp.writeInt32LE(5000, 18)
    bmp.writeInt32LE(-5000, 22)
    await expectRefusal(decode(bmp.toString('base64')), { code: 'LIMIT_EXCEEDED', message: /5000×5000 BMP/ })
    // A JPEG: SOI, an APP0 segment to skip, then SOF2 (progressive) of 6000×4000.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc2, 0, 11, 8, 0x0f, 0xa0, 0x17, 0x70, 1, 1, 0x11, 0])
    await expectRefusal(decode(jpeg.toString('base64')), { code: 'LIMIT_EXCEEDED', message: /6000×4000 JPEG/ })
    assert.ok(performance.now() - started < 500)
  })

  test('a PNG bomb (a 100×100 header, image data of 600 MiB of zeros in 600 KB) is refused as soon as its data passes the header, holding no more than it', async () => {
    const bomb = pngBomb(100, 100, 600)
    assert.ok(bomb.length < 800_000, `${bomb.length} bytes`)
    const peakBefore = process.resourceUsage().maxRSS
    const started = performance.now()
    await expectRefusal(decode(bomb.toString('base64')), {
      code: 'LIMIT_EXCEEDED',
      message: /PNG image data decompresses to more than 10100 bytes, the size its 100×100 header declares/,
      details: { limit: 101 * 100, bound: 'bytes' },
    })
    const peakGrowthMiB = (process.resourceUsage().maxRSS - peakBefore) / 1024
    assert.ok(performance.now() - started < 1000, 'refused at the start of the stream')
    assert.ok(peakGrowthMiB < 32, `the peak memory grew by ${peakGrowthMiB} MiB; inflating it all would take 600`)
    // One byte more than the header declares is a bomb too; exactly as much is an image (with no barcode in it).
    const oneMore = pngFile({ width: 100, height: 100, idat: zlib.deflateSync(Buffer.alloc(101 * 100 + 1)) })
    await expectRefusal(decode(oneMore.toString('base64')), { code: 'LIMIT_EXCEEDED', details: { limit: 101 * 100 } })
    const exactly = pngFile({ width: 100, height: 100, idat: zlib.deflateSync(Buffer.alloc(101 * 100)) })
    await expectRefusal(decode(exactly.toString('base64')), { code: 'INVALID_INPUT', message: /no barcode found/ })
  })

  test('an interlaced PNG is read: the size its seven passes declare is the size of its data', async () => {
    const [width, height, scale, margin] = [101, 97, 3, 8]
    const grey = new Uint8Array(width * height).fill(0xff)
    const modules = await qrModules('interlaced')
    for (let y = 0; y < modules.length * scale; y++) {
      for (let x = 0; x < modules.length * scale; x++) {
        if (modules[Math.floor(y / scale)][Math.floor(x / scale)]) grey[(margin + y) * width + margin + x] = 0
      }
    }
    assert.equal((await decode(interlacedPng(width, height, grey).toString('base64'))).result, 'interlaced')
  })

  test('a 2000×2000 image (the pixel limit) is read, and the engine, released after it, is loaded again from disk: no network at any point', async () => {
    const realFetch = globalThis.fetch
    globalThis.fetch = () => {
      throw new Error('the network was used')
    }
    try {
      const image = pngWith(2000, 2000, await qrModules('large'), 20, 700, 700)
      assert.ok(image.length < 1024 * 1024)
      assert.equal((await decode(image)).result, 'large')
      assert.equal((await run({ input: 'after', output: 'png' })).text, 'after')
      assert.equal((await decode((await run({ input: 'again', format: 'aztec', output: 'png' })).result)).result, 'again')
    } finally {
      globalThis.fetch = realFetch
    }
  })

  test('zxing-wasm loads lazily: the registry, and a refusal from the header, instantiate no WebAssembly', () => {
    const script = `
      // Node itself may compile small modules of its own (Node 22's cjs-module-lexer): only zxing's megabytes count.
      let instantiated = 0
      for (const name of ['instantiate', 'compile']) {
        const real = WebAssembly[name]
        WebAssembly[name] = (...args) => { if ((args[0]?.byteLength ?? 0) > 500_000) instantiated++; return real(...args) }
      }
      const { operationsByName } = await import('./src/operations/index.ts')
      const bomb = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from([0, 0, 0x17, 0x70, 0, 0, 0x17, 0x70])]).toString('base64')
      await operationsByName.get('barcode').run({ action: 'decode', input: bomb }).catch(() => {})
      const before = instantiated
      await operationsByName.get('barcode').run({ action: 'generate', input: 'x', format: 'code128', output: 'svg', scale: 3, height: 60 })
      console.log(JSON.stringify([before, instantiated > 0]))`
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../../..', import.meta.url).pathname,
      encoding: 'utf8',
    })
    assert.deepEqual(JSON.parse(out), [0, true])
  })

  test('capacity: linear symbols, matrix symbols and the drawn image are bounded with a 422 that says so', async () => {
    await run({ input: 'a'.repeat(MAX_LINEAR_LENGTH) })
    await expectRefusal(run({ input: 'a'.repeat(MAX_LINEAR_LENGTH + 1) }), { code: 'LIMIT_EXCEEDED', details: { limit: MAX_LINEAR_LENGTH } })
    for (const format of ['qrcode', 'datamatrix', 'pdf417', 'aztec'] as const) {
      const { bytes } = CAPACITY_2D[format]
      // The euro sign is outside ISO-8859-1, so the writer takes it as three bytes of UTF-8.
      await expectRefusal(run({ input: '€'.repeat(bytes), format }), {
        code: 'LIMIT_EXCEEDED',
        message: new RegExp(`does not fit in an? ${format} symbol .* about ${bytes} bytes`),
        details: { field: 'input', format, limit: bytes, bytes: 3 * bytes },
      })
    }
    await expectRefusal(run({ input: 'a'.repeat(MAX_LINEAR_LENGTH), scale: 10 }), { code: 'LIMIT_EXCEEDED', message: /up to 4096 pixels a side/ })
    await expectRefusal(run({ input: '1'.repeat(7090), format: 'qrcode' }), { code: 'LIMIT_EXCEEDED' })
  })

  test('input a format cannot take is a 422 that says why', async () => {
    const refuses = (input: Record<string, unknown>, message: RegExp) => expectRefusal(run(input), { code: 'INVALID_INPUT', message })
    await refuses({ input: '12345', format: 'ean13' }, /ean13 takes 12 digits, or 13/)
    await refuses({ input: '40063813339a', format: 'ean13' }, /ean13 takes 12 digits/)
    await refuses({ input: '2123456', format: 'upce' }, /number system 0 or 1/)
    await refuses({ input: '123', format: 'itf' }, /even number of digits/)
    await refuses({ input: '123', format: 'codabar' }, /cannot be written as codabar: Does not begin with/)
    await refuses({ input: 'é', format: 'code39' }, /cannot be written as code39/)
  })

  test('the schema bounds are 400s, and decode only by POST', async () => {
    const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(executed(input), { code: 'VALIDATION_ERROR', field })
    await refuses({}, 'input')
    await refuses({ input: '' }, 'input')
    await refuses({ input: 'x', format: 'ean-13' }, 'format')
    await refuses({ input: 'x', output: 'jpeg' }, 'output')
    await refuses({ input: 'x', scale: 11 }, 'scale')
    await refuses({ input: 'x', margin: 21 }, 'margin')
    await refuses({ input: 'x', height: 9 }, 'height')
    await refuses({ input: 'x', action: 'decode', formats: [] }, 'formats')
    await refuses({ input: 'x', action: 'decode', formats: ['webp'] }, 'formats[0]')
    assert.deepEqual(barcode.postOnlyActions, ['decode'])
    assert.deepEqual(qrCode.postOnlyActions, ['decode'])
  })

  test('decoding runs on the worker pool, generation of SVG and text in process', async () => {
    assert.equal(barcode.offload?.({ ...DEFAULTS, action: 'decode', input: 'x' } as never), true)
    assert.equal(barcode.offload?.({ ...DEFAULTS, input: 'x' } as never), false)
    assert.equal(barcode.offload?.({ ...DEFAULTS, input: 'x', output: 'png' } as never), true)
    const answer = await executed({ action: 'decode', input: (await run({ input: 'pool', output: 'png' })).result })
    assert.equal(answer.result, 'pool')
  })

  test('hostile input is answered quickly', async () => {
    const started = performance.now()
    await expectRefusal(decode('A'.repeat(1_000_000)), { code: 'INVALID_INPUT' })
    await expectRefusal(decode(Buffer.alloc(700_000, 0xff).toString('base64')), { code: 'INVALID_INPUT' })
    await expectRefusal(run({ input: '9'.repeat(7089), format: 'pdf417' }), { code: 'LIMIT_EXCEEDED' })
    assert.ok(performance.now() - started < 3000)
  })
})
