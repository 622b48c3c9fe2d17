/**
 * What a decompression bomb costs the running service: each case is sent to a fresh server of the
 * build, alone and then two at once, and the server's resident memory is read from Linux's /proc
 * before and at its peak (VmHWM, reset after the warm-up through clear_refs). Worker threads are threads of the same
 * process, so their memory, and the WebAssembly memory of the barcode engine, are in the figures.
 *
 *   node --import tsx bench/decompression-bombs.ts [root of a build, default this checkout]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import zlib from 'node:zlib'
import { pngBomb, pngFile } from '../test/png-files.ts'
import { freePort, ROOT, spawnUntil } from '../test/processes.ts'

const root = process.argv[2] ?? ROOT
const MiB = 1024 * 1024

function memoryKib(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1])
  return { rss: field('VmRSS'), peak: field('VmHWM') }
}

/**
 * A 2000×2000 white PNG, the largest image decode reads, of 8-bit grey or of 16-bit RGBA: the
 * latter is the most image data a header within the limits may declare, eight bytes a pixel.
 */
function largestImage(bytesPerPixel: 1 | 8): Buffer {
  const rowBytes = 1 + 2000 * bytesPerPixel
  const rows = Buffer.alloc(2000 * rowBytes, 0xff)
  for (let row = 0; row < 2000; row++) rows[row * rowBytes] = 0
  const [bitDepth, colourType] = bytesPerPixel === 1 ? [8, 0] : [16, 6]
  return pngFile({ width: 2000, height: 2000, bitDepth, colourType, idat: zlib.deflateSync(rows, { level: 9 }) })
}

const CASES: Array<{ name: string; operation: string; body: Record<string, unknown> }> = [
  {
    name: 'legitimate: a 2000×2000 8-bit grey PNG (no code in it)',
    operation: 'barcode',
    body: { action: 'decode', input: largestImage(1).toString('base64') },
  },
  {
    name: 'legitimate: a 2000×2000 16-bit RGBA PNG (no code in it)',
    operation: 'barcode',
    body: { action: 'decode', input: largestImage(8).toString('base64') },
  },
  {
    name: 'barcode decode: PNG bomb, 100×100, 600 MiB of image data',
    operation: 'barcode',
    body: { action: 'decode', input: pngBomb(100, 100, 600).toString('base64') },
  },
  { name: 'qr-code decode: the same PNG bomb', operation: 'qr-code', body: { action: 'decode', input: pngBomb(100, 100, 600).toString('base64') } },
  {
    name: 'compress: gzip of 600 MiB of zeros',
    operation: 'compress',
    body: { action: 'decompress', format: 'gzip', input: zlib.gzipSync(Buffer.alloc(600 * MiB), { level: 9 }).toString('base64') },
  },
  {
    name: 'compress: brotli of 600 MiB of zeros',
    operation: 'compress',
    body: {
      action: 'decompress',
      format: 'brotli',
      input: zlib.brotliCompressSync(Buffer.alloc(600 * MiB), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).toString('base64'),
    },
  },
]

async function send(url: string, operation: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${url}/api/v1/${operation}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const answer = (await response.json()) as { error?: { code?: string } }
  return `${response.status} ${answer.error?.code ?? 'ok'}`
}

/** A fresh server of the build, warmed: a worker thread started and the barcode engine loaded, which is no bomb's cost. */
async function startWarmServer() {
  const port = await freePort()
  const server = await spawnUntil(process.execPath, ['dist/server.js'], /Server listening/, {
    cwd: root,
    env: { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
  })
  const url = `http://127.0.0.1:${port}`
  await send(url, 'barcode', { action: 'decode', input: pngFile({ width: 8, height: 8, idat: zlib.deflateSync(Buffer.alloc(72, 0xff)) }).toString('base64') })
  await send(url, 'compress', { action: 'decompress', input: zlib.gzipSync('warm').toString('base64') })
  return { server, url, pid: server.child.pid as number }
}

console.log('| request | answer | time | RSS before | peak RSS | growth |\n| --- | --- | ---: | ---: | ---: | ---: |')
for (const { name, operation, body } of CASES) {
  for (const copies of [1, 2]) {
    const { server, url, pid } = await startWarmServer()
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5')
      const before = memoryKib(pid)
      const started = performance.now()
      const answers = await Promise.all(Array.from({ length: copies }, () => send(url, operation, body)))
      const elapsed = Math.round(performance.now() - started)
      const { peak } = memoryKib(pid)
      const label = copies === 1 ? name : `${name}, two at once`
      const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`
      console.log(`| ${label} | ${[...new Set(answers)].join(', ')} | ${elapsed} ms | ${mib(before.rss)} | ${mib(peak)} | ${mib(peak - before.rss)} |`)
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
  }
}
