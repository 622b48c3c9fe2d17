import { lazily } from '../../core/lazy.ts'

/**
 * hash-wasm (Argon2, bcrypt, Keccak, Whirlpool, BLAKE2/3, xxHash), loaded by the first call that needs it:
 * its WebAssembly modules are a large part of the bundle, and most starts never use them.
 */
export const loadHashWasm: () => Promise<typeof import('hash-wasm')> = lazily(() => import('hash-wasm'))
