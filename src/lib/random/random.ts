/**
 * Unbiased randomness from the operating system's CSPRNG, through Web Crypto's getRandomValues (the
 * same in Node.js and in a browser). Every draw uses rejection sampling: values from the incomplete
 * top block of the random range are thrown away, never folded with `%`.
 */

import { bigIntOfBytes } from '../bytes/hex.ts'

const TWO_POW_32 = 0x1_0000_0000
const POOL_WORDS = 1024
const pool = new Uint32Array(POOL_WORDS)
let poolIndex = POOL_WORDS

function nextWord(): number {
  if (poolIndex === POOL_WORDS) {
    crypto.getRandomValues(pool)
    poolIndex = 0
  }
  return pool[poolIndex++]
}

/** A uniform integer in [0, n), for a safe integer n >= 1. */
export function randomBelow(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`randomBelow needs a safe integer >= 1, not ${n}`)
  if (n <= TWO_POW_32) {
    const limit = TWO_POW_32 - (TWO_POW_32 % n)
    for (;;) {
      const word = nextWord()
      if (word < limit) return word % n
    }
  }
  return Number(randomBigIntBelow(BigInt(n)))
}

/** A uniform bigint in [0, n), for any n >= 1. */
export function randomBigIntBelow(n: bigint): bigint {
  if (n < 1n) throw new RangeError('randomBigIntBelow needs n >= 1')
  const bits = n.toString(2).length
  const bytes = Math.ceil(bits / 8)
  const excessBits = BigInt(bytes * 8 - bits)
  for (;;) {
    const candidate = bigIntOfBytes(randomOctets(bytes)) >> excessBits
    if (candidate < n) return candidate
  }
}

/** A uniform integer in [min, max], both safe integers: the whole safe range works. */
export function randomIntegerBetween(min: number, max: number): number {
  const span = BigInt(max) - BigInt(min) + 1n
  return Number(BigInt(min) + randomBigIntBelow(span))
}

/** A uniform float in [0, 1) with 53 random bits. */
export function randomUnitFloat(): number {
  return (nextWord() * 0x20_0000 + (nextWord() >>> 11)) / 2 ** 53
}

/** `count` uniform indexes into an alphabet of `size` symbols. */
export function randomIndexes(size: number, count: number): Uint32Array {
  const indexes = new Uint32Array(count)
  for (let i = 0; i < count; i++) indexes[i] = randomBelow(size)
  return indexes
}

/** Shuffles in place with Fisher–Yates. */
export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1)
    ;[items[i], items[j]] = [items[j], items[i]]
  }
  return items
}

/** getRandomValues fills at most this many bytes a call. */
const GET_RANDOM_VALUES_BYTES = 65_536

/** `count` random bytes. */
export function randomOctets(count: number): Uint8Array {
  const bytes = new Uint8Array(count)
  for (let start = 0; start < count; start += GET_RANDOM_VALUES_BYTES) crypto.getRandomValues(bytes.subarray(start, start + GET_RANDOM_VALUES_BYTES))
  return bytes
}
