import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { derItems, TAG } from './der.ts'

/** Bounds on the KDF an encrypted PKCS#8 key names, checked before OpenSSL runs it. */
const MAX_PBE_ITERATIONS = 1_000_000
const MAX_SCRYPT_MEMORY = 32 * 1024 * 1024
const MAX_SCRYPT_WORK = 2 ** 21

const PBES2 = '2a864886f70d01050d'
const PBKDF2 = '2a864886f70d01050c'
const SCRYPT = '2b06010401da47040b'

function derInteger(item: { tag: number; content: Buffer } | undefined): number {
  if (item?.tag !== TAG.INTEGER) throw new Error('not an integer')
  if (item.content.length > 6) return Number.POSITIVE_INFINITY
  return item.content.length === 0 ? 0 : item.content.readUIntBE(0, item.content.length)
}

interface PbeCost {
  iterations?: number
  N?: number
  r?: number
  p?: number
}

/** The iteration count (PBKDF2, PBES1, PKCS#12) or scrypt's N, r and p an EncryptedPrivateKeyInfo names. */
function pbeCostOf(der: Buffer): PbeCost {
  const [algorithm] = derItems(derItems(der)[0].content)
  const [oid, params] = derItems(algorithm.content)
  if (oid.tag !== TAG.OID || params?.tag !== TAG.SEQUENCE) return {}
  if (oid.content.toString('hex') !== PBES2) return { iterations: derInteger(derItems(params.content)[1]) }
  const [kdf] = derItems(params.content)
  const [kdfOid, kdfParams] = derItems(kdf.content)
  if (kdfParams?.tag !== TAG.SEQUENCE) return {}
  const fields = derItems(kdfParams.content)
  if (kdfOid.content.toString('hex') === PBKDF2) return { iterations: derInteger(fields[1]) }
  if (kdfOid.content.toString('hex') === SCRYPT) return { N: derInteger(fields[1]), r: derInteger(fields[2]), p: derInteger(fields[3]) }
  return {}
}

/**
 * Refuses an encrypted PKCS#8 key whose KDF would run too long or take too much memory: its
 * iteration count (PBKDF2, PBES1, PKCS#12) or scrypt's N, r and p are read before OpenSSL runs it.
 */
export function assertPbeCost(der: Buffer, field = 'input'): void {
  let cost: PbeCost
  try {
    cost = pbeCostOf(der)
  } catch {
    // Not refused by leaving it to OpenSSL: it reads BER forms this reader may not, and would run the KDF unbounded.
    throw invalidInput(`${field} is not a valid encrypted PKCS#8 key: its encryption parameters cannot be read`, { field })
  }
  if (cost.iterations !== undefined && cost.iterations > MAX_PBE_ITERATIONS)
    throw limitExceeded(
      `${field}'s encryption asks for ${cost.iterations} KDF iterations, more than the ${MAX_PBE_ITERATIONS} this service runs; it was not decrypted`,
      { field, parameter: 'iterations', limit: MAX_PBE_ITERATIONS },
    )
  if (cost.N !== undefined) {
    // What OpenSSL counts against its own limit: the V array of N + 2 blocks and p blocks of B.
    const memory = 128 * cost.r! * (cost.N + cost.p! + 2)
    if (memory > MAX_SCRYPT_MEMORY || cost.N * cost.r! * cost.p! > MAX_SCRYPT_WORK)
      throw limitExceeded(`${field}'s scrypt encryption asks for N=${cost.N}, r=${cost.r}, p=${cost.p}, more than this service runs; it was not decrypted`, {
        field,
        parameter: 'scrypt',
        limit: MAX_SCRYPT_MEMORY,
      })
  }
}
