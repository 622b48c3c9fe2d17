import { deflateSync, gzipSync } from 'node:zlib'
import { DEFAULT_CONFIG } from '../src/core/config.ts'
import { der } from './hostile-builders.ts'

/** Builders of the inputs operations' heavy rows send (src/operations/<name>/test-rows.ts), each as large as a request body may make it. */

/** `unit` repeated to fill about a request body, less `room` for the rest of the body. */
export const fill = (unit: string, room = 1024) =>
  unit.repeat(Math.floor((DEFAULT_CONFIG.bodyLimit - room) / Buffer.byteLength(JSON.stringify(unit).slice(1, -1))))
/** The room to leave for a second text as long as the first. */
export const HALF = DEFAULT_CONFIG.bodyLimit / 2 + 1024
/** A CRL (unsigned: parse reads it, never trusts it) of as many revoked entries as a body holds. */
export function largestCrl(): string {
  const entry = (i: number) => der(0x30, der(0x02, Buffer.from([0x01, i >> 8, i & 0xff])), der(0x17, Buffer.from('260102000000Z')))
  const algorithm = Buffer.from('300a06082a8648ce3d040302', 'hex')
  const issuer = der(0x30, der(0x31, der(0x30, Buffer.from('0603550403', 'hex'), der(0x0c, Buffer.from('heavy')))))
  const time = der(0x17, Buffer.from('260102000000Z'))
  const count = Math.floor((DEFAULT_CONFIG.bodyLimit - 1024) / (Math.ceil((entry(0).length * 4) / 3) + 1))
  const tbs = der(
    0x30,
    Buffer.from('020101', 'hex'),
    algorithm,
    issuer,
    time,
    time,
    der(0x30, Buffer.concat(Array.from({ length: count }, (_, i) => entry(i)))),
  )
  return der(0x30, tbs, algorithm, der(0x03, Buffer.alloc(72, 1))).toString('base64')
}
export const zeros = (mebibytes: number) => gzipSync(Buffer.alloc(mebibytes * 1024 * 1024)).toString('base64')

/**
 * A 2000×2000 greyscale PNG (4,000,000 pixels, the most an image may have), each row drawn by
 * `row(y)`, as base64: rows that repeat compress to a few kilobytes.
 */
export function png2000(row: (y: number) => Buffer): string {
  const side = 2000
  const raw = Buffer.concat(Array.from({ length: side }, (_, y) => Buffer.concat([Buffer.from([0]), row(y)])))
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(side, 0)
  header.writeUInt32BE(side, 4)
  header[8] = 8
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]).toString('base64')
}

function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const byte of bytes) {
    c ^= byte
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  }
  return (c ^ 0xffffffff) >>> 0
}

/** Bars of pseudo-random widths, the same on every row: every line is a candidate for every linear reader. */
export const BARS = Buffer.from(Array.from({ length: 2000 }, (_, x) => (Math.floor(Math.sin(x * 12.9898) * 43758.5453) & 1 ? 0 : 255)))
