import { createHash, createPublicKey, type KeyObject } from 'node:crypto'

/** What a public key (or a private key's public half) is, as the key and certificate operations report it. */
export interface PublicKeyFacts {
  type: 'rsa' | 'rsa-pss' | 'ec' | 'ed25519' | 'ed448' | 'x25519' | 'x448' | 'dsa' | 'unknown'
  bits?: number
  /** The JOSE name (RFC 7518 §6.2.1.1, RFC 8812) where there is one, else OpenSSL's. */
  curve?: string
  /** RSA's public exponent, in decimal. */
  exponent?: string
  /** SHA-256 of the DER SubjectPublicKeyInfo in base64: the pin of HPKP (RFC 7469) and curl's `--pinnedpubkey`. */
  spkiSha256: string
  spkiSha256Hex: string
}

const KNOWN_TYPES = new Set(['rsa', 'rsa-pss', 'ec', 'ed25519', 'ed448', 'x25519', 'x448', 'dsa'])
const JOSE_CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521', secp256k1: 'secp256k1' }
const CURVE_BITS: Record<string, number> = { prime256v1: 256, secp384r1: 384, secp521r1: 521, secp256k1: 256 }
// The sizes OpenSSL reports for these keys (`openssl pkey -text`), which is what users compare with.
const FIXED_BITS: Record<string, number> = { ed25519: 256, x25519: 256, ed448: 456, x448: 448 }

/**
 * The facts of `key`. A key read from a certificate or request is pinned by the SubjectPublicKeyInfo
 * it holds, `spkiDer`, as a client that pins it hashes: OpenSSL's re-encoding of the key may differ
 * (a compressed EC point, RSA parameters left out).
 */
export function publicKeyFacts(key: KeyObject, spkiDer?: Buffer): PublicKeyFacts {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key
  const digest = createHash('sha256')
    .update(spkiDer ?? publicKey.export({ type: 'spki', format: 'der' }))
    .digest()
  const type = publicKey.asymmetricKeyType ?? 'unknown'
  const details = publicKey.asymmetricKeyDetails ?? {}
  const facts: PublicKeyFacts = {
    type: (KNOWN_TYPES.has(type) ? type : 'unknown') as PublicKeyFacts['type'],
    spkiSha256: digest.toString('base64'),
    spkiSha256Hex: digest.toString('hex'),
  }
  const bits = details.modulusLength ?? (details.namedCurve === undefined ? FIXED_BITS[type] : CURVE_BITS[details.namedCurve])
  if (bits !== undefined) facts.bits = bits
  if (details.namedCurve !== undefined) facts.curve = JOSE_CURVES[details.namedCurve] ?? details.namedCurve
  if (details.publicExponent !== undefined) facts.exponent = details.publicExponent.toString()
  return facts
}
