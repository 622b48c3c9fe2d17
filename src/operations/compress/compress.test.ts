import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, describe, test } from 'node:test'
import zlib from 'node:zlib'
import fc from 'fast-check'
import { cpuTimeOf, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { validate } from '../../core/validate.ts'
import { MAX_INFLATE_RATIO, RATIO_GRACE_BYTES } from '../../lib/bytes/inflate.ts'
import { COMPRESSION_FORMATS, compress } from './index.ts'

const run = (input: Record<string, unknown>) => execute(compress, input, { timeBudgetMs: 60_000 })
const refuses = (input: Record<string, unknown>, code: string, message: RegExp, details?: Record<string, unknown>) =>
  expectRefusal(run(input), { code, message, details })
const decompressHex = async (input: string, format: string, outputEncoding = 'utf8') =>
  (await run({ input, action: 'decompress', format, inputEncoding: 'hex', outputEncoding })).result
/** The operation run in process, as it runs on a worker thread. */
const runInProcess = (input: Record<string, unknown>) => compress.run(validate(compress.input, input))

after(() => closeWorkerPool())

/** `megabytes` MiB of zero bytes compressed a MiB at a time, so the test never holds them all. */
async function compressedZeros(megabytes: number, stream: zlib.Gzip | zlib.BrotliCompress): Promise<Buffer> {
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise((resolve) => stream.on('end', resolve))
  const zeros = Buffer.alloc(1024 * 1024)
  for (let i = 0; i < megabytes; i++) {
    if (!stream.write(zeros)) await new Promise((resolve) => stream.once('drain', resolve))
  }
  stream.end()
  await done
  return Buffer.concat(chunks)
}

describe('compress: published and hand-checked streams', () => {
  test('a gzip of "hello" made by `printf hello | gzip -n` (GNU gzip 1.12) decompresses', async () => {
    assert.equal(await decompressHex('1f8b0800000000000003cb48cdc9c9070086a6103605000000', 'gzip'), 'hello')
  })

  test('a zlib stream of "hello" made by Python 3 `zlib.compress(b"hello")`; its Adler-32 (RFC 1950 §9) is 062c0215', async () => {
    assert.equal(await decompressHex('789ccb48cdc9c90700062c0215', 'deflate'), 'hello')
  })

  test('RFC 1951 §3.2.4 by hand: one final stored block, LEN 5, NLEN its complement, then the bytes', async () => {
    assert.equal(await decompressHex('010500faff68656c6c6f', 'deflate-raw'), 'hello')
    assert.equal(await decompressHex('0300', 'deflate-raw'), '', 'a final fixed-Huffman block holding only end-of-block')
  })

  test('brotli streams from the brotli project’s decoder tests (google/brotli js/decode_test.js)', async () => {
    assert.equal(await decompressHex('06', 'brotli'), '', 'testEmpty')
    assert.equal(await decompressHex('8101', 'brotli'), '', 'testEmpty, second form')
    assert.equal(await decompressHex('010b002a03', 'brotli'), '', 'testMetadata')
    assert.equal(await decompressHex('1b030000000080e3b40d0000075b2631400200e04e1b4102', 'brotli'), 'time', 'testBaseDictWord')
  })

  test('gzip output follows RFC 1952 §2.3: magic 1f 8b, method 8, no flags, zero mtime, XFL for the level, then CRC-32 and ISIZE', async () => {
    for (const [level, xfl] of [
      [1, 4],
      [6, 0],
      [9, 2],
    ]) {
      const text = 'The quick brown fox jumps over the lazy dog. '.repeat(level)
      const bytes = Buffer.from((await run({ input: text, level, outputEncoding: 'hex' })).result as string, 'hex')
      assert.deepEqual([...bytes.subarray(0, 4)], [0x1f, 0x8b, 8, 0], 'ID1 ID2 CM FLG')
      assert.equal(bytes.readUInt32LE(4), 0, 'MTIME')
      assert.equal(bytes[8], xfl, `XFL for level ${level}`)
      assert.equal(bytes.readUInt32LE(bytes.length - 8), zlib.crc32(text), 'CRC32 of the uncompressed data')
      assert.equal(bytes.readUInt32LE(bytes.length - 4), Buffer.byteLength(text), 'ISIZE')
    }
  })

  test('deflate output has a zlib header (RFC 1950 §2.2) whose check bits make it a multiple of 31, and an Adler-32 trailer', async () => {
    const bytes = Buffer.from((await run({ input: 'hello', format: 'deflate', outputEncoding: 'hex' })).result as string, 'hex')
    assert.equal(bytes[0], 0x78, 'CM 8, CINFO 7 (32 KiB window)')
    assert.equal((bytes[0] * 256 + bytes[1]) % 31, 0)
    assert.equal(bytes.subarray(-4).toString('hex'), '062c0215')
  })

  test('level 0 stores the bytes: the raw stream is one stored block around them', async () => {
    const data = await run({ input: 'hello', format: 'deflate-raw', level: 0, outputEncoding: 'hex' })
    assert.equal(data.result, '010500faff68656c6c6f')
    assert.deepEqual([data.originalBytes, data.compressedBytes, data.ratio], [5, 10, 0.5])
  })

  test('concatenated gzip members decompress as one, as gzip -d does (RFC 1952 §2.2)', async () => {
    const member = '1f8b0800000000000003cb48cdc9c9070086a6103605000000'
    assert.equal(await decompressHex(member + member, 'gzip'), 'hellohello')
  })
})

describe('compress: round trips', () => {
  test('every format and level gives back any bytes (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), fc.constantFrom(...COMPRESSION_FORMATS), fc.nat(11), async (bytes, format, anyLevel) => {
        const level = format === 'brotli' ? anyLevel : anyLevel % 10
        const input = Buffer.from(bytes).toString('base64')
        const packed = await run({ input, format, level, inputEncoding: 'base64' })
        assert.equal(packed.originalBytes, bytes.length)
        const unpacked = await run({ input: packed.result, action: 'decompress', format, outputEncoding: 'base64' })
        assert.equal(unpacked.result, input)
        assert.equal(unpacked.compressedBytes, packed.compressedBytes)
      }),
      { numRuns: 150 },
    )
  })

  test('any Unicode text survives as text, through hex and Latin-1 too (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.constantFrom(...COMPRESSION_FORMATS),
        fc.constantFrom('hex', 'latin1', 'base64'),
        async (text, format, encoding) => {
          const packed = await run({ input: text, format, outputEncoding: encoding })
          const unpacked = await run({ input: packed.result, action: 'decompress', format, inputEncoding: encoding })
          assert.equal(unpacked.result, text)
        },
      ),
      { numRuns: 100 },
    )
  })

  test('the answer gives sizes and the ratio uncompressed ÷ compressed', async () => {
    const data = await run({ input: 'a'.repeat(10_000), format: 'deflate-raw', level: 9 })
    assert.equal(data.originalBytes, 10_000)
    assert.equal(data.compressedBytes, Buffer.from(data.result as string, 'base64').length)
    assert.equal(data.ratio, Math.round((10_000 / (data.compressedBytes as number)) * 1000) / 1000)
    assert.ok((data.ratio as number) > 100)
    assert.equal((await run({ input: '' })).ratio, 0, 'an empty original')
  })
})

describe('compress: refusals', () => {
  test('a zip bomb (100 MiB of zeros as gzip, 100 KiB) is LIMIT_EXCEEDED at the limit, quickly and without inflating it all', async () => {
    const bomb = await compressedZeros(100, zlib.createGzip({ level: 9 }))
    assert.ok(bomb.length < 200 * 1024, `${bomb.length} bytes`)
    const input = { input: bomb.toString('base64'), action: 'decompress', outputEncoding: 'hex' }
    await refuses(input, 'LIMIT_EXCEEDED', /decompresses to more than 8388608 bytes/, { limit: OUTPUT_LIMIT_BYTES / 2 })
    const peakBefore = process.resourceUsage().maxRSS
    const cpu = cpuTimeOf(() => assert.throws(() => runInProcess(input), { code: 'LIMIT_EXCEEDED' }))
    const peakGrowthMiB = (process.resourceUsage().maxRSS - peakBefore) / 1024
    assert.ok(cpu < 1000, `${cpu} ms of CPU`)
    assert.ok(peakGrowthMiB < 64, `the peak memory grew by ${peakGrowthMiB} MiB; inflating all of it would take 100`)
  })

  test('a brotli bomb (64 MiB of zeros in about 100 bytes) is refused at the ratio, on a worker: past 1 MiB, at most 1032 times its size', async () => {
    // Quality 4 makes it as small as 11 does, in a twentieth of the time.
    const bomb = await compressedZeros(64, zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }))
    assert.ok(bomb.length < 200, `${bomb.length} bytes`)
    assert.equal(compress.offload?.(validate(compress.input, { input: bomb.toString('base64'), action: 'decompress', format: 'brotli' })), true)
    await refuses(
      { input: bomb.toString('base64'), action: 'decompress', format: 'brotli', outputEncoding: 'base64' },
      'LIMIT_EXCEEDED',
      /more than 1048576 bytes, the most its \d+ bytes may give: past 1048576 bytes, data may expand at most 1032 times its compressed size/,
      { limit: RATIO_GRACE_BYTES, bound: 'ratio', maxRatio: MAX_INFLATE_RATIO, compressedBytes: bomb.length },
    )
    const grace = zlib.brotliCompressSync(Buffer.alloc(RATIO_GRACE_BYTES)).toString('base64')
    assert.equal((await run({ input: grace, action: 'decompress', format: 'brotli', outputEncoding: 'hex' })).originalBytes, RATIO_GRACE_BYTES)
  })

  test('a bomb of every format within the ratio is refused at the output limit', async () => {
    // 24 MiB, each MiB of it starting with 16 KiB of noise: a ratio deflate and brotli both reach.
    const data = Buffer.alloc(24 * 1024 * 1024)
    for (let at = 0; at < data.length; at += 1024 * 1024) data.set(randomBytes(16 * 1024), at)
    const compressors = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, 'deflate-raw': zlib.deflateRawSync, brotli: zlib.brotliCompressSync }
    for (const format of COMPRESSION_FORMATS) {
      const bomb = compressors[format](data, { level: 1, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })
      await refuses({ input: bomb.toString('base64'), action: 'decompress', format, outputEncoding: 'hex' }, 'LIMIT_EXCEEDED', /more than 8388608 bytes/, {
        limit: OUTPUT_LIMIT_BYTES / 2,
        bound: 'bytes',
      })
    }
  })

  test('the limit is the output limit in the chosen encoding: 8 MiB decompress to 16 MiB of hex, one byte more is refused', async () => {
    const exactly = zlib.gzipSync(Buffer.alloc(OUTPUT_LIMIT_BYTES / 2)).toString('base64')
    assert.equal(((await run({ input: exactly, action: 'decompress', outputEncoding: 'hex' })).result as string).length, OUTPUT_LIMIT_BYTES)
    const oneMore = zlib.gzipSync(Buffer.alloc(OUTPUT_LIMIT_BYTES / 2 + 1)).toString('base64')
    await refuses({ input: oneMore, action: 'decompress', outputEncoding: 'hex' }, 'LIMIT_EXCEEDED', /more than 8388608 bytes/)
  })

  test('decompressed text is held to the output limit as its JSON takes it, a control character as six bytes, counted before the text is written', async () => {
    const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2
    const mostZeros = Math.floor(OUTPUT_LIMIT_BYTES / jsonBytes('\u0000'))
    const fits = (await run({ input: zlib.gzipSync(Buffer.alloc(mostZeros)).toString('base64'), action: 'decompress' })).result as string
    assert.equal(jsonBytes(fits), 6 * mostZeros)
    await refuses({ input: zlib.gzipSync(Buffer.alloc(mostZeros + 1)).toString('base64'), action: 'decompress' }, 'LIMIT_EXCEEDED', /output limit/, {
      limit: OUTPUT_LIMIT_BYTES,
      predicted: 6 * (mostZeros + 1),
    })
    // Every byte value once per copy: the prediction is the JSON of the text, exactly.
    const ascii = Buffer.from(Array.from({ length: 128 }, (_, byte) => byte))
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, byte) => byte))
    for (const [bytes, outputEncoding, text] of [
      [Buffer.concat([ascii, Buffer.from('é€😀')]), 'utf8', (copy: Buffer) => copy.toString('utf8')],
      [everyByte, 'latin1', (copy: Buffer) => copy.toString('latin1')],
    ] as const) {
      const copies = Math.ceil(OUTPUT_LIMIT_BYTES / jsonBytes(text(bytes))) + 1
      await refuses(
        { input: zlib.gzipSync(Buffer.concat(Array(copies).fill(bytes))).toString('base64'), action: 'decompress', outputEncoding },
        'LIMIT_EXCEEDED',
        /output limit/,
        { predicted: copies * jsonBytes(text(bytes)) },
      )
    }
  })

  test('truncated data is INVALID_INPUT at its end, for every format', async () => {
    for (const format of COMPRESSION_FORMATS) {
      const whole = Buffer.from((await run({ input: 'hello, hello, hello world', format, outputEncoding: 'hex' })).result as string, 'hex')
      const cut = whole.subarray(0, whole.length - 3)
      await refuses({ input: cut.toString('hex'), action: 'decompress', format, inputEncoding: 'hex' }, 'INVALID_INPUT', /truncated/, {
        position: cut.length,
        reason: 'truncated',
      })
    }
    await refuses({ input: '', action: 'decompress' }, 'INVALID_INPUT', /truncated: its 0 bytes/, { position: 0 })
  })

  test('a wrong gzip or zlib header is refused at its byte', async () => {
    await refuses({ input: '1f8c08', action: 'decompress', inputEncoding: 'hex' }, 'INVALID_INPUT', /not gzip data: byte 1 is 8c, not 8b/, { position: 1 })
    await refuses({ input: '504b0304', action: 'decompress', inputEncoding: 'hex' }, 'INVALID_INPUT', /byte 0 is 50, not 1f/, { position: 0 })
    await refuses({ input: '1f8b0700', action: 'decompress', inputEncoding: 'hex' }, 'INVALID_INPUT', /byte 2 names compression method 7/, { position: 2 })
    await refuses({ input: '7a9c', action: 'decompress', format: 'deflate', inputEncoding: 'hex' }, 'INVALID_INPUT', /compression method 10/, { position: 0 })
    await refuses({ input: '789d', action: 'decompress', format: 'deflate', inputEncoding: 'hex' }, 'INVALID_INPUT', /header check/, { position: 1 })
  })

  test('corrupt data is INVALID_INPUT with zlib’s or brotli’s reason', async () => {
    await refuses(
      { input: 'ffff', action: 'decompress', format: 'deflate-raw', inputEncoding: 'hex' },
      'INVALID_INPUT',
      /raw deflate data is corrupt: invalid block type/,
    )
    await refuses({ input: 'ff', action: 'decompress', format: 'brotli', inputEncoding: 'hex' }, 'INVALID_INPUT', /brotli data is corrupt \(format error/)
    const gzip = Buffer.from('1f8b0800000000000003cb48cdc9c9070086a6103605000000', 'hex')
    gzip[gzip.length - 6] ^= 1
    await refuses({ input: gzip.toString('hex'), action: 'decompress', inputEncoding: 'hex' }, 'INVALID_INPUT', /incorrect data check/)
  })

  test('bytes after the end of the stream are refused, not dropped', async () => {
    await refuses(
      { input: '789ccb48cdc9c90700062c0215aa', action: 'decompress', format: 'deflate', inputEncoding: 'hex' },
      'INVALID_INPUT',
      /ends at byte 13, but 1 more byte follows/,
      {
        position: 13,
      },
    )
    await refuses({ input: '060000', action: 'decompress', format: 'brotli', inputEncoding: 'hex' }, 'INVALID_INPUT', /2 more bytes follow/, { position: 1 })
    const member = '1f8b0800000000000003cb48cdc9c9070086a6103605000000'
    await refuses(
      { input: `${member}00000000ff`, action: 'decompress', inputEncoding: 'hex' },
      'INVALID_INPUT',
      /gzip stream ends at byte 25, but 5 more bytes/,
      {
        position: 25,
      },
    )
    await refuses({ input: `${member}ffffffff`, action: 'decompress', inputEncoding: 'hex' }, 'INVALID_INPUT', /not another gzip member/)
    await refuses({ input: `${member}1f`, action: 'decompress', inputEncoding: 'hex' }, 'INVALID_INPUT', /or a stray byte follows a gzip member/)
  })

  test('decompressed bytes that are not UTF-8 are a 422 with a hint; hex gives them', async () => {
    const packed = (await run({ input: 'ff00', inputEncoding: 'hex' })).result
    await refuses({ input: packed, action: 'decompress' }, 'INVALID_INPUT', /not valid UTF-8 \(first bad byte at offset 0\)/, {
      hint: 'set outputEncoding to hex, base64 or latin1',
    })
    assert.equal((await run({ input: packed, action: 'decompress', outputEncoding: 'hex' })).result, 'ff00')
  })

  test('malformed encoded input is a 422 at its position', async () => {
    await refuses({ input: 'H4sI!', action: 'decompress' }, 'INVALID_INPUT', /not base64/, { position: 4 })
    await refuses({ input: '1f8g', action: 'decompress', inputEncoding: 'hex' }, 'INVALID_INPUT', /not hex/, { position: 3 })
  })

  test('contradictions and bounds are 400s', async () => {
    await expectRefusal(run({ input: 'x', level: 10 }), { code: 'VALIDATION_ERROR', field: 'level', message: /at most 9 for gzip/ })
    await expectRefusal(run({ input: 'x', format: 'deflate', level: 11 }), { code: 'VALIDATION_ERROR', field: 'level' })
    await expectRefusal(run({ input: 'x', level: 12, format: 'brotli' }), { code: 'VALIDATION_ERROR', field: 'level' })
    await expectRefusal(run({ input: 'x', level: -1 }), { code: 'VALIDATION_ERROR', field: 'level' })
    await expectRefusal(run({ input: 'x', outputEncoding: 'utf8' }), { code: 'VALIDATION_ERROR', field: 'outputEncoding' })
    await expectRefusal(run({ input: 'x', action: 'decompress', inputEncoding: 'utf8' }), { code: 'VALIDATION_ERROR', field: 'inputEncoding' })
    await expectRefusal(run({ input: 'x', format: 'zip' }), { code: 'VALIDATION_ERROR', field: 'format' })
    assert.equal((await run({ input: 'x', format: 'brotli', level: 11 })).level, 11)
  })
})

describe('compress: offload', () => {
  const offloads = (input: Record<string, unknown>) => compress.offload?.(validate(compress.input, input))
  test('large or slow work goes to a worker; small work stays', () => {
    assert.equal(offloads({ input: 'x'.repeat(100) }), false)
    assert.equal(offloads({ input: 'x'.repeat(20_000) }), true)
    assert.equal(offloads({ input: 'x'.repeat(5_000), format: 'brotli', level: 11 }), true)
    assert.equal(offloads({ input: 'x'.repeat(5_000), format: 'brotli' }), false)
    assert.equal(offloads({ input: 'H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==', action: 'decompress' }), false)
    assert.equal(offloads({ input: 'A'.repeat(2_000), action: 'decompress' }), true)
    assert.equal(offloads({ input: 'Bg==', action: 'decompress', format: 'brotli' }), true)
  })

  test('a large input gives the same answer on a worker as in process', async () => {
    const input = { input: 'lorem ipsum dolor sit amet '.repeat(2000), format: 'brotli', level: 9 }
    assert.deepEqual(await run(input), runInProcess(input))
  })
})
