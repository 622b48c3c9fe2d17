/** Bytes as lower-case hex digits, two a byte, without Node.js's Buffer (the same in a browser). */
export function hexOfBytes(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The bytes of a text of hex digit pairs, already checked to be only that. */
export function bytesOfHexPairs(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/[0-9a-f]{2}/gi) ?? [], (pair) => Number.parseInt(pair, 16))
}

/** The unsigned big-endian integer of `bytes`; 0 for none. */
export function bigIntOfBytes(bytes: Uint8Array): bigint {
  return BigInt(`0x${hexOfBytes(bytes) || '0'}`)
}
