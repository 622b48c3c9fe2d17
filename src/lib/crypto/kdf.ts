import { scrypt as nodeScrypt } from 'node:crypto'
import { promisify } from 'node:util'
import { loadHashWasm } from './hash-wasm.ts'

/** The password-based key derivations two operations run: Argon2 and scrypt, each with its cost parameters. */

const scryptAsync = promisify(nodeScrypt) as (password: Buffer, salt: Buffer, length: number, options: object) => Promise<Buffer>

export type Argon2Variant = 'argon2id' | 'argon2i' | 'argon2d'

export interface Argon2Parameters {
  memoryKiB: number
  iterations: number
  parallelism: number
}

export interface ScryptParameters {
  logN: number
  blockSize: number
  parallelism: number
}

/** Argon2 (RFC 9106) through hash-wasm. */
export async function argon2Key(
  variant: Argon2Variant,
  password: Uint8Array,
  salt: Uint8Array,
  { memoryKiB, iterations, parallelism }: Argon2Parameters,
  hashLength: number,
): Promise<Uint8Array> {
  return (await loadHashWasm())[variant]({ password, salt, iterations, parallelism, memorySize: memoryKiB, hashLength, outputType: 'binary' })
}

/** scrypt (RFC 7914) through node:crypto, with room for the memory it needs (its default cap is 32 MiB). */
export function scryptKey(password: Uint8Array, salt: Uint8Array, { logN, blockSize, parallelism }: ScryptParameters, length: number): Promise<Buffer> {
  const N = 2 ** logN
  return scryptAsync(Buffer.from(password), Buffer.from(salt), length, { N, r: blockSize, p: parallelism, maxmem: 2 * 128 * N * blockSize + 1024 * 1024 })
}
