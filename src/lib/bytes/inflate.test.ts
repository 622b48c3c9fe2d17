import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import zlib from 'node:zlib'
import { expectRefusal } from '../../../test/expect.ts'
import { zlibZeros } from '../../../test/png-files.ts'
import { INFLATE_FORMATS, inflate, inflateBound, inflatedLength, MAX_INFLATE_RATIO, RATIO_GRACE_BYTES } from './inflate.ts'

const MiB = 1024 * 1024
const LIMITS = { maxBytes: 16 * MiB, subject: 'The data', reason: 'the most the test allows' }

const COMPRESSORS = {
  gzip: zlib.gzipSync,
  deflate: zlib.deflateSync,
  'deflate-raw': zlib.deflateRawSync,
  brotli: zlib.brotliCompressSync,
} as const

/** Both ways of inflating, each to the length it found; a refusal rejects. */
async function bothLengths(bytes: Buffer, format: (typeof INFLATE_FORMATS)[number], limits = LIMITS): Promise<number[]> {
  const held = (() => {
    try {
      return Promise.resolve(inflate(bytes, format, limits).output.length)
    } catch (error) {
      return Promise.reject(error)
    }
  })()
  return Promise.all([held, inflatedLength(bytes, format, limits)])
}

describe('lib/bytes/inflate', () => {
  test('every format inflates what its compressor wrote, and says how many input bytes the stream took', async () => {
    const text = Buffer.from('the same words, the same words, the same words again')
    for (const format of INFLATE_FORMATS) {
      const compressed = COMPRESSORS[format](text)
      // gzip reads what follows a member as the next member; the others stop where their stream does.
      const followed = format === 'gzip' ? compressed : Buffer.concat([compressed, Buffer.from('after')])
      const inflated = inflate(followed, format, LIMITS)
      assert.deepEqual(inflated.output, text, format)
      assert.equal(inflated.bytesRead, compressed.length, format)
      assert.equal(await inflatedLength(compressed, format, LIMITS), text.length, format)
    }
  })

  test('the bound is the caller’s or the ratio’s, whichever is lower, and never below the grace', () => {
    for (const [compressedBytes, maxBytes, expected] of [
      [0, 16 * MiB, { maxBytes: RATIO_GRACE_BYTES, bound: 'ratio' }],
      [100, 16 * MiB, { maxBytes: RATIO_GRACE_BYTES, bound: 'ratio' }],
      [10_000, 16 * MiB, { maxBytes: 10_000 * MAX_INFLATE_RATIO, bound: 'ratio' }],
      [20_000, 16 * MiB, { maxBytes: 16 * MiB, bound: 'bytes' }],
      [100, 500, { maxBytes: 500, bound: 'bytes' }],
    ] as const) {
      assert.deepEqual(inflateBound(compressedBytes, maxBytes), expected, `${compressedBytes} bytes, at most ${maxBytes}`)
    }
  })

  test('a zlib bomb (600 MiB of zeros in 600 KB) is refused at the caller’s bound, both ways, holding no more than it', async () => {
    const bomb = zlibZeros(600)
    const peakBefore = process.resourceUsage().maxRSS
    for (const refusal of [Promise.resolve().then(() => inflate(bomb, 'deflate', LIMITS)), inflatedLength(bomb, 'deflate', LIMITS)]) {
      await expectRefusal(refusal, {
        code: 'LIMIT_EXCEEDED',
        message: /^The data decompresses to more than 16777216 bytes, the most the test allows$/,
        details: { limit: 16 * MiB, bound: 'bytes', maxRatio: MAX_INFLATE_RATIO, compressedBytes: bomb.length },
      })
    }
    const peakGrowthMiB = (process.resourceUsage().maxRSS - peakBefore) / 1024
    assert.ok(peakGrowthMiB < 64, `the peak memory grew by ${peakGrowthMiB} MiB; inflating it all would take 600`)
  })

  test('gzip, raw deflate and brotli bombs are refused alike', async () => {
    // 32 MiB, each MiB of it starting with 16 KiB of noise: compressed, within the ratio, and twice the bound.
    const data = Buffer.alloc(32 * MiB)
    for (let at = 0; at < data.length; at += MiB) data.set(randomBytes(16 * 1024), at)
    for (const format of ['gzip', 'deflate-raw', 'brotli'] as const) {
      const bomb = COMPRESSORS[format](data, { level: 1, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
      assert.equal(inflateBound(bomb.length, 16 * MiB).bound, 'bytes', format)
      await expectRefusal(bothLengths(bomb, format), { code: 'LIMIT_EXCEEDED', details: { limit: 16 * MiB, bound: 'bytes' } })
    }
  })

  test('a ratio bomb (brotli: 8 MiB of zeros in a few bytes) is refused at the grace, under the caller’s bound', async () => {
    const bomb = zlib.brotliCompressSync(Buffer.alloc(8 * MiB), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    assert.ok(bomb.length < 100, `${bomb.length} bytes`)
    await expectRefusal(bothLengths(bomb, 'brotli'), {
      code: 'LIMIT_EXCEEDED',
      message: /more than 1048576 bytes, the most its \d+ bytes may give: past 1048576 bytes, data may expand at most 1032 times/,
      details: { limit: RATIO_GRACE_BYTES, bound: 'ratio' },
    })
    assert.deepEqual(await bothLengths(zlib.brotliCompressSync(Buffer.alloc(RATIO_GRACE_BYTES)), 'brotli'), [RATIO_GRACE_BYTES, RATIO_GRACE_BYTES])
  })

  test('deflate at its most compact (zeros, level 9) is within the ratio: no gzip or zlib stream is refused by it', async () => {
    for (const format of ['gzip', 'deflate', 'deflate-raw'] as const) {
      const compressed = COMPRESSORS[format](Buffer.alloc(4 * MiB), { level: 9 })
      assert.ok(compressed.length * MAX_INFLATE_RATIO >= 4 * MiB, format)
      assert.deepEqual(await bothLengths(compressed, format), [4 * MiB, 4 * MiB], format)
    }
  })

  test('data that is not a stream throws zlib’s or brotli’s own error, for the caller to word', async () => {
    for (const [format, bytes, code] of [
      ['deflate-raw', Buffer.from('ff', 'hex'), 'Z_DATA_ERROR'],
      ['deflate', zlib.deflateSync('hello').subarray(0, 5), 'Z_BUF_ERROR'],
      ['brotli', Buffer.from('ff', 'hex'), 'ERR__ERROR_FORMAT_PADDING_2'],
    ] as const) {
      assert.throws(() => inflate(bytes, format, LIMITS), { code }, format)
      await assert.rejects(inflatedLength(bytes, format, LIMITS), { code }, format)
    }
  })
})
