import { randomBelow, randomBigIntBelow } from './random.ts'

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** A uniform offset in [0, size); randomBelow draws sizes up to 2^32 from its pool, far faster than a bigint draw. */
export function randomOffset(size: bigint): bigint {
  return size <= MAX_SAFE ? BigInt(randomBelow(Number(size))) : randomBigIntBelow(size)
}

/**
 * `count` uniform offsets in [0, size). With `distinct`, no offset repeats (the caller checks that
 * size >= count): a space barely larger than `count` is sampled by a partial Fisher–Yates shuffle,
 * a larger one by drawing into a Set until it holds `count` offsets, so a huge space costs nothing.
 * `draw` replaces the plain uniform draw for a space whose offsets are filtered by rejection (such a
 * space must be large, since the shuffle does not consult it).
 */
export function randomOffsets(size: bigint, count: number, distinct: boolean, draw = () => randomOffset(size)): bigint[] {
  if (!distinct) return Array.from({ length: count }, draw)
  if (size <= BigInt(count) * 4n) {
    const pool = Array.from({ length: Number(size) }, (_, index) => index)
    for (let i = 0; i < count; i++) {
      const j = i + randomBelow(pool.length - i)
      ;[pool[i], pool[j]] = [pool[j], pool[i]]
    }
    return pool.slice(0, count).map(BigInt)
  }
  const seen = new Set<bigint>()
  while (seen.size < count) seen.add(draw())
  return [...seen]
}
