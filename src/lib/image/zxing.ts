import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { invalidInput, isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { inflatedLength } from '../bytes/inflate.ts'
import { type PngHeader, pngHeader, pngImageDataBytes, pngImageDeflate } from './png.ts'

type ZxingLibrary = typeof import('zxing-wasm/full')

/** The file name of zxing-cpp's WebAssembly (writer and reader) beside the bundle's chunks. */
export const ZXING_WASM_FILE = 'zxing_full.wasm'

/** The largest side of an image read, in pixels. */
export const MAX_IMAGE_SIDE = 4096
/** The most pixels of an image read. */
export const MAX_IMAGE_PIXELS = 4_000_000
/**
 * Images above this many pixels leave the engine's memory grown (WebAssembly memory never shrinks),
 * so after decoding one the engine is dropped, to be collected, and the next call starts a fresh one.
 */
export const RELEASE_AFTER_PIXELS = 1_000_000
/**
 * Up to this many pixels the reader tries harder (more scan lines, more candidates); above it the
 * image has the resolution to do without, and a busy one would otherwise take seconds.
 */
const TRY_HARDER_PIXELS = 1_000_000

/** The build's copy when running from the bundle; from the sources, zxing-wasm's own file. */
function wasmBinary(): Uint8Array {
  if (extname(fileURLToPath(import.meta.url)) === '.js') return readFileSync(new URL(`./${ZXING_WASM_FILE}`, import.meta.url))
  return readFileSync(createRequire(import.meta.url).resolve(`zxing-wasm/full/${ZXING_WASM_FILE}`))
}

let library: Promise<ZxingLibrary> | undefined

/**
 * zxing-wasm, loaded with the first barcode. Left to itself it downloads its WebAssembly from a CDN;
 * it is given the file from disk instead, so that no call ever reaches the network.
 */
export function zxing(): Promise<ZxingLibrary> {
  library ??= import('zxing-wasm/full').then(async (loaded) => {
    await loaded.prepareZXingModule({ overrides: { wasmBinary: wasmBinary() }, fireImmediately: true })
    return loaded
  })
  return library
}

/**
 * Drops the engine's instance and its memory, and arms the next instance with the file from disk
 * again (without that, the library would fetch its WebAssembly at the next call).
 */
async function release(): Promise<void> {
  const loaded = await zxing()
  loaded.purgeZXingModule()
  loaded.prepareZXingModule({ overrides: { wasmBinary: wasmBinary() }, fireImmediately: false })
}

export type ImageType = 'png' | 'jpeg' | 'gif' | 'bmp'

/** An image sent as base64, in bytes: a `data:` prefix is accepted and ignored (the bytes say what it is). */
export function imageBytes(input: string): Buffer {
  const base64 = input.replace(/^data:[^,]{0,200};base64,/i, '').replace(/[\t\n\r ]/g, '')
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64) || base64.length % 4 === 1) {
    throw invalidInput('input is not base64: send the image file in base64 (a data:image/…;base64, prefix is accepted)', { field: 'input' })
  }
  const bytes = Buffer.from(base64, base64.includes('-') || base64.includes('_') ? 'base64url' : 'base64')
  if (bytes.length === 0) throw invalidInput('input is empty: send a PNG, JPEG, GIF or BMP image in base64', { field: 'input' })
  return bytes
}

const UNSUPPORTED: Array<{ name: string; matches(bytes: Buffer): boolean }> = [
  { name: 'WebP', matches: (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP' },
  { name: 'TIFF', matches: (b) => ['II*\0', 'MM\0*'].includes(b.toString('latin1', 0, 4)) },
  { name: 'HEIC/AVIF', matches: (b) => b.toString('latin1', 4, 8) === 'ftyp' },
  { name: 'SVG', matches: (b) => /^(\uFEFF)?\s*</.test(b.toString('utf8', 0, 64)) },
]

/** The type and size of an image, read from its header alone. */
export function imageHeader(bytes: Buffer): { type: ImageType; width: number; height: number } {
  const type = sniff(bytes)
  const size = type === 'jpeg' ? jpegSize(bytes) : headerSize(type, bytes)
  if (size === undefined || size.width <= 0 || size.height <= 0) {
    throw invalidInput(`input is a ${type.toUpperCase()} image whose header gives no size: the file is cut short or damaged`, { field: 'input', type })
  }
  return { type, ...size }
}

function sniff(bytes: Buffer): ImageType {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a) return 'png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'gif'
  if (bytes.length >= 2 && bytes.toString('latin1', 0, 2) === 'BM') return 'bmp'
  const unsupported = UNSUPPORTED.find(({ matches }) => matches(bytes))
  if (unsupported) {
    throw invalidInput(`input is a ${unsupported.name} image, which is not read: send a PNG, JPEG, GIF or BMP`, { field: 'input', type: unsupported.name })
  }
  throw invalidInput('input is not a PNG, JPEG, GIF or BMP image (its first bytes are none of theirs)', { field: 'input' })
}

function headerSize(type: 'png' | 'gif' | 'bmp', b: Buffer): { width: number; height: number } | undefined {
  switch (type) {
    case 'png': {
      const header = pngHeader(b)
      return header && { width: header.width, height: header.height }
    }
    case 'gif':
      return b.length >= 10 ? { width: b.readUInt16LE(6), height: b.readUInt16LE(8) } : undefined
    case 'bmp': {
      if (b.length < 26) return undefined
      // The OS/2 header has 16-bit sizes; every later one 32-bit, the height negative for top-down rows.
      if (b.readUInt32LE(14) === 12) return { width: b.readUInt16LE(18), height: b.readUInt16LE(20) }
      return { width: b.readInt32LE(18), height: Math.abs(b.readInt32LE(22)) }
    }
  }
}

/** The size in the first start-of-frame segment (SOF0 to SOF15, less the DHT, JPG and DAC markers). */
function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  let at = 2
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return undefined
    const marker = b[at + 1]
    if (marker === 0xff) {
      at++
      continue
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    if (marker === 0xd9 || marker === 0xda) return undefined
    const length = b.readUInt16BE(at + 2)
    if (length < 2) return undefined
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return at + 9 <= b.length ? { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) } : undefined
    }
    at += 2 + length
  }
  return undefined
}

/** Refuses an image too large to decode, from its header, before any pixel is decompressed. */
export function assertImageWithinLimits(header: { type: ImageType; width: number; height: number }): void {
  const { width, height, type } = header
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw limitExceeded(
      `input is a ${width}×${height} ${type.toUpperCase()} image: images are read up to ${MAX_IMAGE_SIDE} pixels a side and ${MAX_IMAGE_PIXELS.toLocaleString('en')} pixels; scale it down or crop it to the code`,
      { field: 'input', width, height, maxSide: MAX_IMAGE_SIDE, maxPixels: MAX_IMAGE_PIXELS },
    )
  }
}

/**
 * Refuses a PNG whose image data inflates past the size its header declares, counted through the
 * bounded inflate before the engine inflates it again, without a bound of its own, into WebAssembly
 * memory that never shrinks. With the header held to the pixel limit, the declared size (at most
 * eight bytes a pixel) is then all the engine's inflate can be made to allocate. Image data cut
 * short or corrupt is refused as damaged before the engine is given it.
 */
async function assertPngDataWithinHeader(bytes: Buffer): Promise<void> {
  const header = pngHeader(bytes) as PngHeader
  const { width, height, colourType, bitDepth } = header
  const declared = pngImageDataBytes(header)
  if (declared === undefined) {
    throw invalidInput(`input is a PNG image whose header pairs colour type ${colourType} with bit depth ${bitDepth}, which PNG does not define`, {
      field: 'input',
      type: 'png',
      colourType,
      bitDepth,
    })
  }
  try {
    await inflatedLength(pngImageDeflate(bytes), 'deflate-raw', {
      maxBytes: declared,
      subject: "input's PNG image data",
      reason: `the size its ${width}×${height} header declares (colour type ${colourType}, ${bitDepth} bits a sample)`,
    })
  } catch (error) {
    if (isDevutilsError(error)) throw error
    const reason = (error as Error).message
    throw invalidInput(`input is a PNG image whose image data is damaged (${reason}): the file is cut short or corrupt`, {
      field: 'input',
      type: 'png',
      reason,
    })
  }
}

/** One symbol read from an image. */
export interface ReadSymbol {
  format: string
  text: string
  bytes: Uint8Array
  ecLevel: string
  version: string
  contentType: string
  /** Format-specific facts as JSON text (`{"UPCE":"01234565"}`), or empty. */
  extra: string
  position: { topLeft: Point; topRight: Point; bottomRight: Point; bottomLeft: Point }
}
type Point = { x: number; y: number }

/**
 * Every symbol of the given zxing formats in an image sent as base64, after its header has been
 * checked against the limits.
 */
export async function readImage(input: string, formats: string[], all: boolean): Promise<ReadSymbol[]> {
  const bytes = imageBytes(input)
  const header = imageHeader(bytes)
  assertImageWithinLimits(header)
  if (header.type === 'png') await assertPngDataWithinHeader(bytes)
  const loaded = await zxing()
  try {
    const results = await loaded.readBarcodes(bytes, {
      formats: formats as Parameters<typeof loaded.readBarcodes>[1] extends { formats?: infer F } ? F : never,
      tryHarder: header.width * header.height <= TRY_HARDER_PIXELS,
      tryRotate: true,
      tryInvert: true,
      maxNumberOfSymbols: all ? 255 : 1,
      textMode: 'Plain',
      characterSet: 'Unknown',
    })
    const failed = results.find((result) => !result.isValid && /load image/i.test(result.error))
    if (failed)
      throw invalidInput(`input could not be decoded as a ${header.type.toUpperCase()} image: the file is damaged or uses a variant that is not read`, {
        field: 'input',
        type: header.type,
      })
    return results.filter((result) => result.isValid)
  } finally {
    if (header.width * header.height > RELEASE_AFTER_PIXELS) await release()
  }
}

/** The bytes as lower-case hex, where they are not the UTF-8 of the text. */
export function bytesUnlessText(text: string, bytes: Uint8Array): string | undefined {
  return Buffer.from(text, 'utf8').equals(Buffer.from(bytes)) ? undefined : Buffer.from(bytes).toString('hex')
}

/** A symbol's corners, in the image's pixels. */
export function positionOf(position: ReadSymbol['position']): ReadSymbol['position'] {
  const point = ({ x, y }: Point) => ({ x, y })
  return {
    topLeft: point(position.topLeft),
    topRight: point(position.topRight),
    bottomRight: point(position.bottomRight),
    bottomLeft: point(position.bottomLeft),
  }
}
