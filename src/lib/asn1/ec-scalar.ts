import type { KeyObject } from 'node:crypto'
import { invalidInput } from '../../core/errors.ts'
import { derItems } from './der.ts'

/** The order n of each named curve read, by its OID's content in hex (SEC 2, RFC 5639), as OpenSSL gives it. */
const CURVE_ORDERS: Readonly<Record<string, bigint>> = {
  '2a8648ce3d030107': 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  '2b81040022': 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
  '2b81040023': 0x01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409n,
  '2b8104000a': 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n,
  '2b2403030208010107': 0xa9fb57dba1eea9bc3e660a909d838d718c397aa3b561a6f7901e0e82974856a7n,
  '2b240303020801010b': 0x8cb91e82a3386d280f5d6f7e50e641df152f7109ed5456b31f166e6cac0425a7cf3ab6af6b7fc3103b883202e9046565n,
  '2b240303020801010d': 0xaadd9db8dbe9c48b3fd4e6ae33c9fc07cb308db3b3c9d20ed6639cca70330870553e5c414ca92619418661197fac10471db1d381085ddaddb58796829ca90069n,
}

/**
 * Refuses an EC private key whose scalar d is not one of its curve (0 < d < n), before anything asks
 * node:crypto for its details: OpenSSL decodes a scalar longer than the curve's into a key it cannot
 * encode again, and Node.js 22 aborts the whole process (an assertion, not an exception) reading the
 * details of such a key. Its own PKCS#8 export throws instead, so that export is where d is read.
 */
export function assertValidEcScalar(privateKey: KeyObject, field = 'input'): void {
  if (privateKey.asymmetricKeyType !== 'ec') return
  const invalid = () => invalidInput(`${field} is not a valid EC private key: its private scalar d is not one of its curve (0 < d < n)`, { field })
  let scalar: bigint
  let curve: string
  try {
    const [, algorithm, octets] = derItems(derItems(privateKey.export({ format: 'der', type: 'pkcs8' }))[0].content)
    curve = derItems(algorithm.content)[1]?.content.toString('hex') ?? ''
    const [, d] = derItems(derItems(octets.content)[0].content)
    scalar = BigInt(`0x${d.content.toString('hex') || '0'}`)
  } catch {
    throw invalid()
  }
  const order = CURVE_ORDERS[curve]
  if (scalar === 0n || (order !== undefined && scalar >= order)) throw invalid()
}
