import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib'

/** A chunk: its length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const file = Buffer.alloc(typeAndData.length + 8)
  file.writeUInt32BE(data.length, 0)
  typeAndData.copy(file, 4)
  file.writeUInt32BE(crc32(typeAndData), typeAndData.length + 4)
  return file
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export interface PngParts {
  width: number
  height: number
  /** The IDAT chunk's bytes (a zlib stream), written as they are. */
  idat: Buffer
  bitDepth?: number
  colourType?: number
  interlaced?: boolean
}

/** A PNG of one IDAT chunk holding whatever it is given, whatever its header says. */
export function pngFile({ width, height, idat, bitDepth = 8, colourType = 0, interlaced = false }: PngParts): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([bitDepth, colourType, 0, 0, interlaced ? 1 : 0], 8)
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', idat), pngChunk('IEND', Buffer.alloc(0))])
}

/**
 * A zlib stream of `mebibytes` MiB of zeros, made of one deflated MiB repeated (each copy ends on a
 * full flush, so the next starts on a byte of its own): cheap to make at any size.
 */
export function zlibZeros(mebibytes: number): Buffer {
  const mebibyte = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: constants.Z_FULL_FLUSH })
  const adler32 = Buffer.alloc(4)
  adler32.writeUInt32BE((((mebibytes * 1024 * 1024) % 65521) * 65536 + 1) >>> 0)
  const finalEmptyBlock = Buffer.from([0x03, 0x00])
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array(mebibytes).fill(mebibyte), finalEmptyBlock, adler32])
}

/** A decompression bomb: a small greyscale PNG whose image data inflates to `mebibytes` MiB of zeros. */
export function pngBomb(width: number, height: number, mebibytes: number): Buffer {
  return pngFile({ width, height, idat: zlibZeros(mebibytes) })
}

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
]

/** An Adam7-interlaced 8-bit greyscale PNG of the pixels (one byte each, row by row). */
export function interlacedPng(width: number, height: number, grey: Uint8Array): Buffer {
  const rows: Buffer[] = []
  for (const [firstColumn, firstRow, columnStep, rowStep] of ADAM7) {
    for (let y = firstRow; y < height; y += rowStep) {
      const row = [0]
      for (let x = firstColumn; x < width; x += columnStep) row.push(grey[y * width + x])
      if (row.length > 1) rows.push(Buffer.from(row))
    }
  }
  return pngFile({ width, height, idat: deflateSync(Buffer.concat(rows)), interlaced: true })
}
