/** The fields of a PNG's IHDR chunk that decide the size of its image data (ISO/IEC 15948, 11.2.2). */
export interface PngHeader {
  width: number
  height: number
  bitDepth: number
  colourType: number
  interlaced: boolean
}

/** Samples per pixel of each colour type, and the bit depths each allows. */
const COLOUR_TYPES: Record<number, { channels: number; bitDepths: number[] }> = {
  0: { channels: 1, bitDepths: [1, 2, 4, 8, 16] },
  2: { channels: 3, bitDepths: [8, 16] },
  3: { channels: 1, bitDepths: [1, 2, 4, 8] },
  4: { channels: 2, bitDepths: [8, 16] },
  6: { channels: 4, bitDepths: [8, 16] },
}

/** The most bytes one pixel takes in a PNG's image data: four samples of 16 bits. */
export const PNG_MAX_BYTES_PER_PIXEL = 8

/** Adam7's seven passes: the first column and row of each, and the step between them. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const

/** The IHDR of a PNG whose signature has been checked; undefined when the file is too short to hold it. */
export function pngHeader(png: Buffer): PngHeader | undefined {
  if (png.length < 29 || png.toString('latin1', 12, 16) !== 'IHDR') return undefined
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png[24], colourType: png[25], interlaced: png[28] === 1 }
}

/**
 * The size of the image data the header declares, once inflated: each row (of each Adam7 pass) is a
 * filter-type byte and its samples, packed. Undefined for a colour type and bit depth PNG does not
 * pair, whose size no decoder knows.
 */
export function pngImageDataBytes({ width, height, bitDepth, colourType, interlaced }: PngHeader): number | undefined {
  const colour = COLOUR_TYPES[colourType]
  if (!colour?.bitDepths.includes(bitDepth)) return undefined
  const rowBytes = (columns: number) => 1 + Math.ceil((columns * colour.channels * bitDepth) / 8)
  if (!interlaced) return height * rowBytes(width)
  let total = 0
  for (const [column, row, columnStep, rowStep] of ADAM7) {
    const columns = Math.ceil((width - column) / columnStep)
    const rows = Math.ceil((height - row) / rowStep)
    if (columns > 0 && rows > 0) total += rows * rowBytes(columns)
  }
  return total
}

/**
 * The compressed image data as a bare deflate stream: every IDAT chunk's bytes up to IEND, joined.
 * Apple's CgBI variant stores bare deflate; everywhere else it is a zlib stream, given here past
 * its two-byte header, since image decoders do not check its Adler-32 and refusing a file for it
 * would refuse what they read.
 */
export function pngImageDeflate(png: Buffer): Buffer {
  const chunks: Buffer[] = []
  let bare = false
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at)
    const type = png.toString('latin1', at + 4, at + 8)
    if (type === 'IEND') break
    if (type === 'CgBI') bare = true
    if (type === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length))
    at += 12 + length
  }
  const stream = Buffer.concat(chunks)
  return bare ? stream : stream.subarray(2)
}
