import { createHash, pbkdf2 as nodePbkdf2 } from 'node:crypto'
import { promisify } from 'node:util'
import { type Static, Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { argon2Key, scryptKey } from '../../lib/crypto/kdf.ts'

const pbkdf2Async = promisify(nodePbkdf2)

export const KDFS = ['pbkdf2-sha256', 'pbkdf2-sha512', 'pbkdf2-sha1', 'scrypt', 'argon2id', 'evp-sha256', 'evp-md5'] as const
export type Kdf = (typeof KDFS)[number]

export const isEvp = (kdf: Kdf) => kdf === 'evp-sha256' || kdf === 'evp-md5'
export const isPbkdf2 = (kdf: Kdf) => kdf.startsWith('pbkdf2-')

/** Bounds of the key derivations: scrypt's are password-hash's, so the costliest fits the time budget. */
export const BOUNDS = {
  pbkdf2Iterations: { min: 1_000, max: 2_000_000, default: 600_000 },
  argon2Iterations: { min: 1, max: 10, default: 3 },
  argon2MemoryKiB: { min: 8, max: 65_536, default: 65_536 },
  parallelism: { min: 1, max: 16, default: 1 },
  scryptLogN: { min: 1, max: 20, default: 17 },
  scryptBlockSize: { min: 1, max: 32, default: 8 },
  scryptMemoryBytes: 256 * 1024 * 1024,
  scryptWork: 2 ** 21,
} as const

export const kdfOutput = Type.Object(
  {
    name: Type.Enum(KDFS, { description: 'The key derivation function.' }),
    iterations: Type.Optional(Type.Integer({ description: 'pbkdf2-*: iterations; argon2id: passes.' })),
    memoryKiB: Type.Optional(Type.Integer({ description: 'argon2id: memory in KiB.' })),
    parallelism: Type.Optional(Type.Integer({ description: 'argon2id: lanes; scrypt: p.' })),
    logN: Type.Optional(Type.Integer({ description: 'scrypt: log2 of N.' })),
    blockSize: Type.Optional(Type.Integer({ description: 'scrypt: r.' })),
  },
  { description: 'encrypt with a passphrase: the derivation and its parameters, all needed to decrypt.' },
)

export type KdfParameters = Static<typeof kdfOutput>

/** The fields a derivation reads. */
interface KdfFields {
  kdf?: Kdf
  iterations?: number
  memoryKiB?: number
  logN?: number
  blockSize?: number
  parallelism?: number
}

export interface Derivation {
  kdf: Kdf
  parameters: KdfParameters
}

/** The KDF and its parameters, defaults filled in; a parameter of another KDF is refused rather than ignored. */
export function derivationOf(input: KdfFields): Derivation {
  const kdf = input.kdf ?? 'pbkdf2-sha256'
  const allowed: Record<string, readonly string[]> = {
    pbkdf2: ['iterations'],
    scrypt: ['logN', 'blockSize', 'parallelism'],
    argon2id: ['iterations', 'memoryKiB', 'parallelism'],
    evp: [],
  }
  const family = isPbkdf2(kdf) ? 'pbkdf2' : isEvp(kdf) ? 'evp' : kdf
  for (const field of ['iterations', 'memoryKiB', 'logN', 'blockSize', 'parallelism'] as const) {
    if (input[field] !== undefined && !allowed[family].includes(field)) {
      throw validationError(
        field,
        isEvp(kdf) && field === 'iterations'
          ? `does not apply to ${kdf}: EVP_BytesToKey runs once (openssl enc -iter means -pbkdf2: use a pbkdf2-* kdf)`
          : `does not apply to ${kdf}`,
      )
    }
  }
  if (family === 'pbkdf2') {
    const iterations = input.iterations ?? BOUNDS.pbkdf2Iterations.default
    if (iterations < BOUNDS.pbkdf2Iterations.min) throw validationError('iterations', `must be at least ${BOUNDS.pbkdf2Iterations.min} for ${kdf}`)
    return { kdf, parameters: { name: kdf, iterations } }
  }
  if (kdf === 'argon2id') {
    const iterations = input.iterations ?? BOUNDS.argon2Iterations.default
    if (iterations > BOUNDS.argon2Iterations.max)
      throw validationError('iterations', `must be at most ${BOUNDS.argon2Iterations.max} for argon2id (its passes)`)
    const memoryKiB = input.memoryKiB ?? BOUNDS.argon2MemoryKiB.default
    const parallelism = input.parallelism ?? BOUNDS.parallelism.default
    if (memoryKiB < 8 * parallelism) throw validationError('memoryKiB', `must be at least 8 · parallelism (${8 * parallelism}) for argon2id`)
    return { kdf, parameters: { name: kdf, iterations, memoryKiB, parallelism } }
  }
  if (kdf === 'scrypt') {
    const logN = input.logN ?? BOUNDS.scryptLogN.default
    const blockSize = input.blockSize ?? BOUNDS.scryptBlockSize.default
    const parallelism = input.parallelism ?? BOUNDS.parallelism.default
    if (128 * blockSize * 2 ** logN > BOUNDS.scryptMemoryBytes) {
      throw validationError('logN', 'with this blockSize needs more than 256 MiB of memory (128 · blockSize · 2^logN); lower logN or blockSize')
    }
    if (2 ** logN * blockSize * parallelism > BOUNDS.scryptWork) {
      throw validationError('logN', 'with this blockSize and parallelism asks for more than 2^21 of work (2^logN · blockSize · parallelism)')
    }
    return { kdf, parameters: { name: kdf, logN, blockSize, parallelism } }
  }
  return { kdf, parameters: { name: kdf } }
}

/** EVP_BytesToKey with one round (what `openssl enc` does without -pbkdf2): D_i = H(D_{i-1} ‖ passphrase ‖ salt). */
function evpBytesToKey(digest: 'sha256' | 'md5', passphrase: Buffer, salt: Buffer, length: number): Buffer {
  const blocks: Buffer[] = []
  let previous = Buffer.alloc(0)
  let produced = 0
  while (produced < length) {
    previous = createHash(digest).update(previous).update(passphrase).update(salt).digest()
    blocks.push(previous)
    produced += previous.length
  }
  return Buffer.concat(blocks).subarray(0, length)
}

export async function deriveKey({ kdf, parameters }: Derivation, passphrase: Buffer, salt: Buffer, length: number): Promise<Buffer> {
  switch (kdf) {
    case 'pbkdf2-sha256':
    case 'pbkdf2-sha512':
    case 'pbkdf2-sha1':
      return pbkdf2Async(passphrase, salt, parameters.iterations!, length, kdf.slice('pbkdf2-'.length))
    case 'scrypt':
      return scryptKey(passphrase, salt, { logN: parameters.logN!, blockSize: parameters.blockSize!, parallelism: parameters.parallelism! }, length)
    case 'argon2id': {
      const { memoryKiB, iterations, parallelism } = parameters as Required<typeof parameters>
      return Buffer.from(await argon2Key('argon2id', passphrase, salt, { memoryKiB, iterations, parallelism }, length))
    }
    case 'evp-sha256':
      return evpBytesToKey('sha256', passphrase, salt, length)
    case 'evp-md5':
      return evpBytesToKey('md5', passphrase, salt, length)
  }
}
