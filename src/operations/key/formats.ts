/** The actions, key types, curves and formats the key operation names. */
export const ACTIONS = ['generate', 'inspect', 'convert'] as const
export type Action = (typeof ACTIONS)[number]
export const TYPES = ['ed25519', 'ec', 'rsa', 'x25519', 'ed448', 'x448'] as const
export const CURVES = ['P-256', 'P-384', 'P-521', 'secp256k1'] as const
export const GENERATE_FORMATS = ['pem', 'openssh', 'jwk'] as const
export const TARGETS = ['pkcs8', 'pkcs1', 'sec1', 'spki', 'jwk', 'openssh', 'rfc4716'] as const
export type Target = (typeof TARGETS)[number]
export const KEY_TYPES = ['rsa', 'rsa-pss', 'ec', 'ed25519', 'ed448', 'x25519', 'x448'] as const

/** node:crypto's names of the JOSE curves. */
export const NODE_CURVES: Record<string, string> = { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1', secp256k1: 'secp256k1' }

export const FORMAT_NAMES: Record<Target, string> = {
  pkcs8: 'PKCS#8',
  pkcs1: 'PKCS#1',
  sec1: 'SEC1',
  spki: 'SPKI',
  jwk: 'JWK',
  openssh: 'OpenSSH format',
  rfc4716: 'RFC 4716',
}
export const TYPE_NAMES: Record<string, string> = {
  rsa: 'RSA',
  'rsa-pss': 'RSA-PSS',
  ec: 'EC',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
  x25519: 'X25519',
  x448: 'X448',
}

export type KeyType = (typeof KEY_TYPES)[number]
