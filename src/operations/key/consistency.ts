import { createPublicKey, type JsonWebKey, type KeyObject, sign, verify } from 'node:crypto'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { KEY_TYPES, NODE_CURVES } from './formats.ts'
import { ecPublicFromPrivate, toBigInt } from './openssh.ts'

/** The largest RSA key read: larger ones are refused before any work on them. */
const MAX_RSA_BITS = 16_384

/** Refuses keys this operation does not handle, and keys too large to read. */
export function checkKeyObject(key: KeyObject): void {
  const type = key.asymmetricKeyType
  if (type === 'dsa') throw invalidInput('DSA keys are not supported: OpenSSH removed ssh-dss, and FIPS 186-5 withdrew DSA', { field: 'input' })
  if (!(KEY_TYPES as readonly (string | undefined)[]).includes(type))
    throw invalidInput(`input is a ${type ?? 'secret'} key; RSA, EC, Ed25519, Ed448, X25519 and X448 keys are supported`, { field: 'input' })
  const bits = key.asymmetricKeyDetails?.modulusLength
  if (bits !== undefined && bits > MAX_RSA_BITS)
    throw limitExceeded(`input is an RSA key of ${bits} bits; keys up to ${MAX_RSA_BITS} bits are read`, { field: 'input', limit: MAX_RSA_BITS })
}

const PAIR_PROBE = Buffer.from('devutils key pair check')

/**
 * An EC private key stores its public point beside d (RFC 5915 §3), and OpenSSL takes the point as it
 * is: a key whose point is another's would be told, fingerprinted and converted as that other key.
 * A signature made with d and checked with the point tells them apart, on any curve.
 */
export function assertEcPairs(privateKey: KeyObject, publicKey: KeyObject): void {
  let pairs: boolean
  try {
    pairs = verify('sha256', PAIR_PROBE, publicKey, sign('sha256', PAIR_PROBE, privateKey))
  } catch {
    pairs = false
  }
  if (!pairs) throw invalidInput('input is an inconsistent EC key: its public key does not match its private key (d)', { field: 'input' })
}

/**
 * node:crypto takes a private JWK's public members as they are (EC) or derives them without a word
 * (OKP), so a JWK whose x does not belong to its d would be read as a different key than its owner
 * thinks: it is refused.
 */
export function assertJwkConsistent(jwk: JsonWebKey, privateKey: KeyObject, what = 'JWK'): void {
  if (jwk.kty === 'OKP') {
    const derived = createPublicKey(privateKey).export({ format: 'jwk' })
    if (derived.x !== jwk.x) throw invalidInput('input is an inconsistent JWK: x does not match d', { field: 'input' })
  } else if (jwk.kty === 'EC') {
    const nodeCurve = NODE_CURVES[jwk.crv ?? '']
    if (nodeCurve === undefined) return
    let point: Buffer
    try {
      point = ecPublicFromPrivate(nodeCurve, Buffer.from(jwk.d!, 'base64url'))
    } catch {
      throw invalidInput('input is an inconsistent JWK: d is not a valid private scalar', { field: 'input' })
    }
    const size = (point.length - 1) / 2
    const same = (member: string | undefined, bytes: Buffer) => Buffer.from(member ?? '', 'base64url').equals(bytes)
    if (!same(jwk.x, point.subarray(1, 1 + size)) || !same(jwk.y, point.subarray(1 + size)))
      throw invalidInput('input is an inconsistent JWK: x and y do not match d', { field: 'input' })
  } else if (jwk.kty === 'RSA' && jwk.p !== undefined && jwk.q !== undefined) {
    const [n, e, d, p, q] = [jwk.n, jwk.e, jwk.d, jwk.p, jwk.q].map((member) => toBigInt(Buffer.from(member ?? '', 'base64url')))
    if (p < 2n || q < 2n || n !== p * q || (e * d) % (p - 1n) !== 1n || (e * d) % (q - 1n) !== 1n)
      throw invalidInput(`input is an inconsistent ${what}: n, e, d, p and q do not belong together`, { field: 'input' })
    // The CRT members (RFC 7518 §6.3.2) are carried as given into every format written; a signer that trusts a wrong one makes a wrong signature, which gives away p.
    const [dp, dq, qi] = [jwk.dp, jwk.dq, jwk.qi].map((member) => toBigInt(Buffer.from(member ?? '', 'base64url')))
    if ((dp - d) % (p - 1n) !== 0n || (dq - d) % (q - 1n) !== 0n || (qi * q) % p !== 1n)
      throw invalidInput(`input is an inconsistent ${what}: dp, dq and qi do not belong to d, p and q`, { field: 'input' })
  }
}
