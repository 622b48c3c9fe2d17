import { constants, createHash, type KeyObject, verify } from 'node:crypto'
import { childrenOf, contentOf, readTlv } from '../../lib/asn1/der.ts'
import { oidOf, signedDecimal } from './der.ts'
import type { Internal } from './item.ts'
import { HASH_OIDS, SIGNATURE_ALGORITHMS } from './oids.ts'

export function signatureAlgorithm(oid: string, parameters: Buffer | undefined): { name: string; oid: string; hash?: string } {
  const known = SIGNATURE_ALGORITHMS[oid]
  if (known === undefined) return { name: oid, oid }
  if (known.name === 'rsassa-pss') return { name: known.name, oid, hash: pssParameters(parameters).hash }
  return known.hash === undefined ? { name: known.name, oid } : { name: known.name, oid, hash: known.hash }
}

/** RSASSA-PSS-params (RFC 4055 §3.1): the hash and salt length, with their defaults (SHA-1, 20). */
function pssParameters(parameters: Buffer | undefined): { hash: string; saltLength: number } {
  const answer = { hash: 'sha1', saltLength: 20 }
  if (parameters === undefined || parameters.length < 2 || parameters[0] !== 0x30) return answer
  try {
    for (const field of childrenOf(parameters, readTlv(parameters, 0))) {
      const inner = childrenOf(parameters, field)[0]
      if (field.tag === 0xa0 && inner) answer.hash = HASH_OIDS[oidOf(contentOf(parameters, childrenOf(parameters, inner)[0]))] ?? 'unknown'
      if (field.tag === 0xa2 && inner) answer.saltLength = Number(signedDecimal(contentOf(parameters, inner)))
    }
  } catch {
    answer.hash = 'unknown'
  }
  return answer
}

function checkSignature(signed: Internal['signed'], key: KeyObject | undefined): boolean {
  if (key === undefined) return false
  const algorithm = SIGNATURE_ALGORITHMS[signed.algorithm]
  if (algorithm === undefined) return false
  try {
    if (algorithm.name === 'rsassa-pss') {
      const { hash, saltLength } = pssParameters(signed.parameters)
      return verify(hash, signed.tbs, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }, signed.signature)
    }
    if (algorithm.name === 'ed25519' || algorithm.name === 'ed448') return verify(null, signed.tbs, key, signed.signature)
    const keyType = key.asymmetricKeyType
    const expected = algorithm.name.startsWith('ecdsa') ? 'ec' : algorithm.name.startsWith('dsa') ? 'dsa' : 'rsa'
    if (keyType !== expected) return false
    return verify(algorithm.hash ?? null, signed.tbs, key, signed.signature)
  } catch {
    return false
  }
}

/** Self-signatures, each certificate against the one whose subject is its issuer, CSRs against their own key, CRLs against their issuer. */
export function checkSignatures(internals: Internal[], enabled: boolean) {
  const links: Array<{ from: number; to: number; signatureValid: boolean }> = []
  const sameName = (a: Internal, subjectOfB: Internal) =>
    a.issuerDer !== undefined && subjectOfB.subjectDer !== undefined && (a.issuerDer.equals(subjectOfB.subjectDer) || a.issuer === subjectOfB.subject)
  const verified = signatureChecks()
  internals.forEach((internal, index) => {
    const { item } = internal
    if (item.type === 'csr') {
      if (enabled) item.signatureValid = verified(internal.signed, internal.key)
      return
    }
    const issuers = issuerCandidates(internals, index, sameName)
    if (item.type === 'certificate') {
      const selfIssued = internal.subjectDer !== undefined && sameName(internal, internal)
      item.selfSigned = selfIssued && verified(internal.signed, internal.key)
      if (enabled && selfIssued) item.signatureValid = item.selfSigned
    }
    for (const candidateIndex of issuers) {
      const valid = enabled && verified(internal.signed, internals[candidateIndex].key)
      if (item.type === 'certificate' && enabled) links.push({ from: index, to: candidateIndex, signatureValid: valid })
      if (enabled && (item.signatureValid === undefined || valid)) item.signatureValid = valid
    }
  })
  return links
}

/** The most certificates of its issuer's name an item's signature is checked against. */
const MAX_ISSUER_CANDIDATES = 8

/**
 * The certificates that may have signed item `index`: of its issuer's name, other than itself, each
 * distinct certificate once (a copy of the item, or of a candidate, adds nothing), at most
 * MAX_ISSUER_CANDIDATES, so that a bundle of one name's certificates costs a linear number of checks.
 */
function issuerCandidates(internals: Internal[], index: number, sameName: (a: Internal, subjectOfB: Internal) => boolean): number[] {
  const internal = internals[index]
  // A certificate or CRL is known by its fingerprint; a CSR, which has none here, by its place.
  const identityOf = (at: number) => (internals[at].item.fingerprints as { sha256?: string } | undefined)?.sha256 ?? `item ${at}`
  const seen = new Set<string>([identityOf(index)])
  const candidates: number[] = []
  for (const [candidateIndex, candidate] of internals.entries()) {
    if (candidates.length === MAX_ISSUER_CANDIDATES) break
    if (candidate.item.type !== 'certificate' || !sameName(internal, candidate)) continue
    const identity = identityOf(candidateIndex)
    if (seen.has(identity)) continue
    seen.add(identity)
    candidates.push(candidateIndex)
  }
  return candidates
}

/** checkSignature, answered once for each signed content and key: copies in a bundle cost one check. */
function signatureChecks(): (signed: Internal['signed'], key: KeyObject | undefined) => boolean {
  const answers = new Map<string, boolean>()
  const keyIds = new WeakMap<KeyObject, string>()
  const keyId = (key: KeyObject) => {
    let id = keyIds.get(key)
    if (id === undefined) {
      id = createHash('sha256')
        .update(key.export({ format: 'der', type: 'spki' }))
        .digest('hex')
      keyIds.set(key, id)
    }
    return id
  }
  return (signed, key) => {
    if (key === undefined) return false
    const id = `${createHash('sha256').update(signed.tbs).update(signed.signature).update(signed.algorithm).digest('hex')}:${keyId(key)}`
    let answer = answers.get(id)
    if (answer === undefined) {
      answer = checkSignature(signed, key)
      answers.set(id, answer)
    }
    return answer
  }
}
