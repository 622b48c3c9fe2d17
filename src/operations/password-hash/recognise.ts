import { isDevutilsError } from '../../core/errors.ts'
import { defineRecogniser, suggest } from '../../core/recognise.ts'
import { parseHash } from '../../lib/crypto/parse-hash.ts'

/**
 * Whether password-hash's reader reads the text as a hash: a cost above what this service runs (422
 * LIMIT_EXCEEDED) is still a hash, only one verify refuses to run.
 */
function readsAsPasswordHash(text: string): boolean {
  try {
    parseHash(text)
    return true
  } catch (error) {
    if (isDevutilsError(error)) return error.code === 'LIMIT_EXCEEDED'
    throw error
  }
}

const verify = suggest('password-hash', { action: 'verify' }, 'hash')

export const bcrypt = defineRecogniser({
  type: 'bcrypt',
  label: 'bcrypt password hash',
  recognise(text) {
    // The shape, then password-hash's own reader (a cost from 4 to 31, a salt of whole bytes): what verify takes.
    const match = /^\$(2[abxy])\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(text)
    if (!match || !readsAsPasswordHash(text)) return undefined
    return { confidence: 100, details: { variant: match[1], cost: Number(match[2]) }, next: verify }
  },
})

const PHC_IDS = new Set(['argon2id', 'argon2i', 'argon2d', 'scrypt'])

export const phcHash = defineRecogniser({
  type: 'phcHash',
  label: 'Password hash in PHC string format (Argon2, scrypt)',
  recognise(text) {
    if (!text.startsWith('$') || text.length > 1024) return undefined
    const [, id, ...rest] = text.split('$')
    if (!PHC_IDS.has(id) || rest.length < 3 || !rest.every((part) => /^[A-Za-z0-9/+.,=-]+$/.test(part))) return undefined
    // Parameters, salt and hash as password-hash's own reader reads them for verify.
    if (!readsAsPasswordHash(text)) return undefined
    return { confidence: 100, details: { algorithm: id }, next: verify }
  },
})
