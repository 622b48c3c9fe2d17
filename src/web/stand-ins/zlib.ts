/** `node:zlib` in the page: only `crc32`, the ISO-HDLC CRC-32 that zlib computes, continued from `value`. */

const TABLE = Uint32Array.from({ length: 256 }, (_, index) => {
  let entry = index
  for (let bit = 0; bit < 8; bit++) entry = entry & 1 ? 0xedb88320 ^ (entry >>> 1) : entry >>> 1
  return entry
})

export function crc32(data: Uint8Array | string, value = 0): number {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data
  let crc = ~value
  for (const byte of bytes) crc = TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8)
  return ~crc >>> 0
}
