import type { JsonWebKey, KeyObject } from 'node:crypto'
import { lazily } from '../../core/lazy.ts'
import { publicKeyFacts } from '../../lib/asn1/public-key.ts'
import { FORMAT_NAMES, type KeyType, TYPE_NAMES } from './formats.ts'
import { sshFingerprints, sshKeyType } from './openssh.ts'
import type { ReadKey } from './read.ts'

/** jose, for RFC 7638 thumbprints, loaded with the first key (see lazily). */
const jose = lazily(() => import('jose'))

export interface Fingerprints {
  sha256?: string
  md5?: string
  bubbleBabble?: string
  jwkThumbprint?: string
  spkiSha256: string
}

/** The public JWK node:crypto writes, members in RFC 7517's usual order; undefined for keys JOSE has no form for (RSA-PSS). */
export function publicJwkOf(publicKey: KeyObject): JsonWebKey | undefined {
  try {
    return orderedJwk(publicKey.export({ format: 'jwk' }))
  } catch {
    return undefined
  }
}

const JWK_ORDER = ['kty', 'crv', 'n', 'e', 'x', 'y', 'd', 'p', 'q', 'dp', 'dq', 'qi']
export function orderedJwk(jwk: JsonWebKey): JsonWebKey {
  return Object.fromEntries(JWK_ORDER.filter((member) => jwk[member] !== undefined).map((member) => [member, jwk[member]])) as JsonWebKey
}

export async function fingerprintsOf(publicKey: KeyObject): Promise<Fingerprints> {
  const facts = publicKeyFacts(publicKey)
  const jwk = publicJwkOf(publicKey)
  const fingerprints: Fingerprints = { spkiSha256: facts.spkiSha256 }
  if (jwk !== undefined && sshKeyType(jwk) !== undefined) Object.assign(fingerprints, sshFingerprints(jwk))
  if (jwk !== undefined) fingerprints.jwkThumbprint = await (await jose()).calculateJwkThumbprint(jwk as import('jose').JWK, 'sha256')
  return {
    ...(fingerprints.sha256 ? { sha256: fingerprints.sha256, md5: fingerprints.md5, bubbleBabble: fingerprints.bubbleBabble } : {}),
    ...pick(fingerprints),
  }
}

const pick = ({ jwkThumbprint, spkiSha256 }: Fingerprints) => (jwkThumbprint === undefined ? { spkiSha256 } : { jwkThumbprint, spkiSha256 })

export function sizeAndCurve(publicKey: KeyObject): { type: KeyType; bits?: number; curve?: string } {
  const facts = publicKeyFacts(publicKey)
  return {
    type: facts.type as KeyType,
    ...(facts.bits === undefined ? {} : { bits: facts.bits }),
    ...(facts.curve === undefined ? {} : { curve: facts.curve }),
  }
}

export function describe(read: ReadKey, facts: { type: string; bits?: number; curve?: string }): string {
  let what = TYPE_NAMES[facts.type] ?? facts.type
  if (facts.type === 'rsa' || facts.type === 'rsa-pss') what += ` ${facts.bits}-bit`
  if (facts.type === 'ec') what += ` ${facts.curve}`
  const format = read.encoding === 'DER' ? `${FORMAT_NAMES[read.format]} DER` : FORMAT_NAMES[read.format]
  return `${what} ${read.isPrivate ? 'private' : 'public'} key, ${format}${read.encrypted ? ', encrypted' : ''}`
}

export function keyWarnings(facts: { type: string; bits?: number }): string[] {
  if ((facts.type === 'rsa' || facts.type === 'rsa-pss') && facts.bits !== undefined && facts.bits < 2048)
    return [`An RSA key of ${facts.bits} bits is too short for use today; NIST SP 800-131A asks for at least 2048`]
  return []
}
