import { limitExceeded } from '../../core/errors.ts'
import type { Argon2Parameters, ScryptParameters } from './kdf.ts'

/**
 * Cost bounds, the same for hashing and for the parameters a hash to verify claims: the most costly
 * hash each allows still fits the default time budget (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const LIMITS = {
  argon2MemoryKiB: 65_536,
  argon2Iterations: 10,
  parallelism: 16,
  bcryptCost: 14,
  scryptLogN: 20,
  scryptBlockSize: 32,
  /** 128 · r · N bytes: scrypt's memory. */
  scryptMemoryBytes: 256 * 1024 * 1024,
  /** N · r · p: scrypt's work. */
  scryptWork: 2 ** 21,
  saltBytes: 64,
  hashBytes: 128,
  /** SHA-crypt's rounds, for hashing and for a hash to verify; the specification's own ceiling would run for many minutes. */
  shaCryptRounds: 1_000_000,
  /**
   * rounds · (password bytes + 64): each SHA-crypt round hashes the password sequence up to twice, so
   * a long password multiplies the rounds' cost.
   */
  shaCryptWork: 2 ** 28,
  /** A password's UTF-8 bytes for the crypt(3) hashes, whose preparation hashes the password once per byte of it. */
  cryptPasswordBytes: 4096,
} as const

export const tooCostly = (parameter: string, value: number, limit: number, source: string) =>
  limitExceeded(`${source} asks for ${parameter} ${value}, more than the ${limit} this service allows; it was not run`, { parameter, limit })

export function assertArgon2Within({ memoryKiB, iterations, parallelism }: Argon2Parameters, source: string): void {
  if (memoryKiB > LIMITS.argon2MemoryKiB) throw tooCostly('memoryKiB', memoryKiB, LIMITS.argon2MemoryKiB, source)
  if (iterations > LIMITS.argon2Iterations) throw tooCostly('iterations', iterations, LIMITS.argon2Iterations, source)
  if (parallelism > LIMITS.parallelism) throw tooCostly('parallelism', parallelism, LIMITS.parallelism, source)
}

export function assertScryptWithin({ logN, blockSize, parallelism }: ScryptParameters, source: string): void {
  if (logN > LIMITS.scryptLogN) throw tooCostly('logN', logN, LIMITS.scryptLogN, source)
  if (blockSize > LIMITS.scryptBlockSize) throw tooCostly('blockSize', blockSize, LIMITS.scryptBlockSize, source)
  if (parallelism > LIMITS.parallelism) throw tooCostly('parallelism', parallelism, LIMITS.parallelism, source)
  const memory = 128 * blockSize * 2 ** logN
  if (memory > LIMITS.scryptMemoryBytes) {
    throw limitExceeded(`${source} needs ${memory / 2 ** 20} MiB of memory (128 · blockSize · 2^logN), more than the 256 MiB allowed; it was not run`, {
      parameter: 'memory',
      limit: LIMITS.scryptMemoryBytes,
    })
  }
  const work = 2 ** logN * blockSize * parallelism
  if (work > LIMITS.scryptWork) {
    throw limitExceeded(`${source} asks for 2^logN · blockSize · parallelism = ${work}, more than the 2^21 allowed; it was not run`, {
      parameter: 'work',
      limit: LIMITS.scryptWork,
    })
  }
}

/** Refuses SHA-crypt work beyond the bounds before any of it runs. */
export function assertShaCryptWithin(rounds: number, passwordLength: number, source: string): void {
  if (rounds > LIMITS.shaCryptRounds) throw tooCostly('rounds', rounds, LIMITS.shaCryptRounds, source)
  const work = rounds * (passwordLength + 64)
  if (work > LIMITS.shaCryptWork) {
    throw limitExceeded(
      `${source} asks for rounds · (password bytes + 64) = ${work}, more than the 2^28 allowed (a long password makes every round slower); it was not run: use fewer rounds or a shorter password`,
      { parameter: 'work', limit: LIMITS.shaCryptWork },
    )
  }
}
