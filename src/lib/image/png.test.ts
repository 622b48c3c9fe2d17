import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import zlib from 'node:zlib'
import { PNG } from 'pngjs'
import { PNG_SIGNATURE, pngChunk, pngFile } from '../../../test/png-files.ts'
import { PNG_MAX_BYTES_PER_PIXEL, pngHeader, pngImageDataBytes, pngImageDeflate } from './png.ts'

const header = (width: number, height: number, bitDepth: number, colourType: number, interlaced = false) => ({
  width,
  height,
  bitDepth,
  colourType,
  interlaced,
})

describe('lib/image/png', () => {
  test('the header’s fields are read from IHDR; a file too short to hold them has none', () => {
    const png = pngFile({ width: 300, height: 200, bitDepth: 16, colourType: 6, interlaced: true, idat: Buffer.alloc(0) })
    assert.deepEqual(pngHeader(png), header(300, 200, 16, 6, true))
    assert.equal(pngHeader(png.subarray(0, 28)), undefined)
  })

  test('the declared image data: a filter byte and packed samples a row, for every pass of an interlaced image', () => {
    for (const [fields, expected] of [
      [header(10, 3, 1, 0), 3 * (1 + 2)],
      [header(10, 3, 4, 3), 3 * (1 + 5)],
      [header(7, 2, 16, 4), 2 * (1 + 28)],
      [header(2000, 2000, 16, 6), 2000 * (1 + 2000 * PNG_MAX_BYTES_PER_PIXEL)],
      // Adam7 on 8×8 pixels: passes of 1×1, 1×1, 2×1, 2×2, 4×2, 4×4 and 8×4 pixels.
      [header(8, 8, 8, 0, true), 2 + 2 + 3 + 2 * 3 + 2 * 5 + 4 * 5 + 4 * 9],
      // One pixel has only the first pass; one column leaves passes 2, 4 and 6 empty.
      [header(1, 1, 8, 0, true), 2],
      [header(1, 5, 8, 2, true), 4 + 4 + 4 + 2 * 4],
      [header(3, 2, 5, 0), undefined],
      [header(3, 2, 4, 2), undefined],
      [header(3, 2, 8, 5), undefined],
    ] as const) {
      assert.equal(pngImageDataBytes(fields), expected, JSON.stringify(fields))
    }
  })

  test('the declared size is the size of what an encoder writes (pngjs, every colour type and depth it writes)', () => {
    for (const [colorType, bitDepth] of [
      [0, 8],
      [0, 16],
      [2, 8],
      [4, 8],
      [6, 8],
      [6, 16],
    ] as const) {
      const image = new PNG({ width: 13, height: 5, bitDepth, colorType, inputHasAlpha: true })
      image.data = Buffer.alloc(13 * 5 * 4 * (bitDepth / 8), 0x80)
      const file = PNG.sync.write(image, { colorType, bitDepth, inputHasAlpha: true })
      const fields = pngHeader(file)
      assert.ok(fields)
      assert.equal(zlib.inflateRawSync(pngImageDeflate(file)).length, pngImageDataBytes(fields), `colour type ${colorType}, ${bitDepth} bits`)
    }
  })

  test('the image data is every IDAT chunk joined, up to IEND, past its zlib header; in a CgBI file, all of it', () => {
    const stream = zlib.deflateSync(Buffer.from('scan lines'))
    const ihdr = pngChunk('IHDR', Buffer.alloc(13))
    const file = (...chunks: Buffer[]) => Buffer.concat([PNG_SIGNATURE, ...chunks])
    const split = file(ihdr, pngChunk('IDAT', stream.subarray(0, 4)), pngChunk('tEXt', Buffer.from('a\0b')), pngChunk('IDAT', stream.subarray(4)))
    assert.deepEqual(pngImageDeflate(Buffer.concat([split, pngChunk('IEND', Buffer.alloc(0)), pngChunk('IDAT', Buffer.from('after'))])), stream.subarray(2))
    const bare = zlib.deflateRawSync(Buffer.from('scan lines'))
    assert.deepEqual(pngImageDeflate(file(pngChunk('CgBI', Buffer.alloc(4)), ihdr, pngChunk('IDAT', bare))), bare)
    assert.deepEqual(pngImageDeflate(file(ihdr, pngChunk('IDAT', stream)).subarray(0, -6)), stream.subarray(2, -2), 'a file cut short in its last chunk')
  })
})
