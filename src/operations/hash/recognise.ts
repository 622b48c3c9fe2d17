import { defineRecogniser, suggest } from '../../core/recognise.ts'
import { HASH_CANDIDATES } from '../../lib/crypto/hex-digests.ts'

/** The digests hash computes, by length in hex digits: those extract finds, and SHA-224 and BLAKE3. */
const HASH_NAMES: Readonly<Record<number, readonly string[]>> = {
  ...HASH_CANDIDATES,
  56: ['sha224', 'sha3-224'],
  64: [...HASH_CANDIDATES[64], 'blake3'],
}

export const hash = defineRecogniser({
  type: 'hash',
  label: 'Hex digest (hash)',
  recognise(text) {
    const candidates = HASH_NAMES[text.length]
    if (candidates === undefined || !/^[0-9A-Fa-f]+$/.test(text)) return undefined
    return { confidence: 60, details: { bits: text.length * 4, candidates }, next: suggest('hash', { algorithm: candidates[0] }, 'expected') }
  },
})
