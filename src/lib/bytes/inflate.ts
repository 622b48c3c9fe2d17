import zlib from 'node:zlib'
import { limitExceeded } from '../../core/errors.ts'

/**
 * The one way compressed data is inflated here, whoever reads it (compress, the image data of a
 * PNG, archives): the output is bounded in bytes and in its ratio to the input, and the bound stops
 * zlib or brotli as soon as the output passes it, so a bomb is refused before its memory is spent.
 *
 * Where the bounds come from: the process is to stay within 512 MiB under any single request, and
 * inflated bytes are Buffers (or, inside an image decoder, WebAssembly memory), outside the V8 heap,
 * so a worker thread's heap limit does not hold them; only this bound does. Each caller's byte bound
 * is therefore the least its work needs: what its answer can hold (the 16 MiB output limit), or what
 * the data's own header declares (a PNG's pixels, held to the pixel limit). A request then costs a
 * few times that at most, a small part of the budget, whatever the data would expand to.
 */
export const INFLATE_FORMATS = ['gzip', 'deflate', 'deflate-raw', 'brotli'] as const
export type InflateFormat = (typeof INFLATE_FORMATS)[number]

/**
 * The most an input may expand, output bytes per input byte. DEFLATE itself cannot pass 1032 to 1
 * (258 bytes for a match coded in 2 bits at best), so no gzip or zlib stream is ever refused by it;
 * brotli, and the formats an archive may hold, can expand far further, and are held to it.
 */
export const MAX_INFLATE_RATIO = 1032

/**
 * Output up to this size is never refused for its ratio: it is the default body limit, as much as a
 * caller may send uncompressed in one request, so a few bytes expanding to it cost no more than
 * an ordinary request does.
 */
export const RATIO_GRACE_BYTES = 1024 * 1024

/** The bytes an inflate may produce, and why: the caller's bound, or the ratio to the input. */
export interface InflateBound {
  maxBytes: number
  /** Which bound is the lower: `bytes`, the caller's, or `ratio`, MAX_INFLATE_RATIO times the input. */
  bound: 'bytes' | 'ratio'
}

/** What the caller allows, and the words its refusal uses. */
export interface InflateLimits {
  /** The most bytes the data may inflate to. */
  maxBytes: number
  /** What the data is, as the refusal's subject: "The data", "The PNG's image data". */
  subject: string
  /** Why maxBytes is what it is, said after it: "the most that fits the output limit". */
  reason: string
}

/** The lower of the caller's bound and the ratio's, for `compressedBytes` of input. */
export function inflateBound(compressedBytes: number, maxBytes: number): InflateBound {
  const byRatio = Math.max(RATIO_GRACE_BYTES, MAX_INFLATE_RATIO * compressedBytes)
  return byRatio < maxBytes ? { maxBytes: byRatio, bound: 'ratio' } : { maxBytes, bound: 'bytes' }
}

function refusal(compressedBytes: number, limits: InflateLimits, { maxBytes, bound }: InflateBound) {
  const why =
    bound === 'bytes'
      ? limits.reason
      : `the most its ${compressedBytes} bytes may give: past ${RATIO_GRACE_BYTES} bytes, data may expand at most ${MAX_INFLATE_RATIO} times its compressed size`
  return limitExceeded(`${limits.subject} decompresses to more than ${maxBytes} bytes, ${why}`, {
    limit: maxBytes,
    bound,
    maxRatio: MAX_INFLATE_RATIO,
    compressedBytes,
  })
}

/** The inflated bytes and how many bytes of the input the compressed stream took. */
export interface Inflated {
  output: Buffer
  bytesRead: number
}

const SYNC_ENGINES: Record<InflateFormat, (bytes: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Buffer> = {
  gzip: zlib.gunzipSync,
  deflate: zlib.inflateSync,
  'deflate-raw': zlib.inflateRawSync,
  brotli: zlib.brotliDecompressSync,
}

/**
 * Inflates in one synchronous call that zlib stops as soon as the output passes the bound. Data
 * that is not a valid stream throws zlib's or brotli's own error, for the caller to word.
 */
export function inflate(bytes: Buffer, format: InflateFormat, limits: InflateLimits): Inflated {
  const bound = inflateBound(bytes.length, limits.maxBytes)
  try {
    const inflated = SYNC_ENGINES[format](bytes, { maxOutputLength: bound.maxBytes, info: true }) as unknown as {
      buffer: Buffer
      engine: { bytesWritten: number }
    }
    return { output: inflated.buffer, bytesRead: inflated.engine.bytesWritten }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw refusal(bytes.length, limits, bound)
    throw error
  }
}

const STREAM_ENGINES: Record<InflateFormat, (options: zlib.ZlibOptions & zlib.BrotliOptions) => zlib.Gunzip | zlib.BrotliDecompress> = {
  gzip: zlib.createGunzip,
  deflate: zlib.createInflate,
  'deflate-raw': zlib.createInflateRaw,
  brotli: zlib.createBrotliDecompress,
}

/** The chunk a counting inflate holds at a time. */
const COUNTING_CHUNK_BYTES = 64 * 1024

/**
 * How many bytes the data inflates to, counted a chunk at a time and never held: for a reader that
 * only needs to know the data is within its bound before another decoder inflates it again.
 */
export async function inflatedLength(bytes: Buffer, format: InflateFormat, limits: InflateLimits): Promise<number> {
  const bound = inflateBound(bytes.length, limits.maxBytes)
  const stream = STREAM_ENGINES[format]({ chunkSize: COUNTING_CHUNK_BYTES })
  stream.end(bytes)
  let length = 0
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    length += chunk.length
    if (length > bound.maxBytes) {
      stream.destroy()
      throw refusal(bytes.length, limits, bound)
    }
  }
  return length
}
