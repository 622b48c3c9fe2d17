import { constants, createHash, createPublicKey, type KeyObject, verify } from 'node:crypto'
import { invalidInput, isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { bytesOf, childrenOf, contentOf, encodeTlv, readTlv, type Tlv } from '../../lib/asn1/der.ts'
import { pemBlock, readPemBlocks } from '../../lib/asn1/pem.ts'
import { type PublicKeyFacts, publicKeyFacts } from '../../lib/asn1/public-key.ts'
import { type NameAttribute, oidOf, readName, signedDecimal } from './der.ts'

export interface Asn1 {
  schema: typeof import('@peculiar/asn1-schema')
  x509: typeof import('@peculiar/asn1-x509')
  csr: typeof import('@peculiar/asn1-csr')
  cms: typeof import('@peculiar/asn1-cms')
}

/** The ASN.1 schemas, loaded with the first certificate (see lazily). */
export const asn1: () => Promise<Asn1> = lazily(async () => {
  const [schema, x509, csr, cms] = await Promise.all([
    import('@peculiar/asn1-schema'),
    import('@peculiar/asn1-x509'),
    import('@peculiar/asn1-csr'),
    import('@peculiar/asn1-cms'),
  ])
  return { schema, x509, csr, cms }
})
type GeneralName = InstanceType<Asn1['x509']['GeneralName']>

export const MAX_BLOCKS = 1000
export const MAX_REVOKED_LISTED = 1000
export const MAX_GENERAL_NAMES = 10_000
// asn1js's default node count refuses real CRLs of a few thousand entries; nesting stays at its default.
const BER_OPTIONS = { maxNodes: 1_000_000, maxDepth: 100 }
const LIMIT_MESSAGES = /nesting depth|node count|content length/i

const LABELS: Record<string, Kind> = {
  CERTIFICATE: 'certificate',
  'TRUSTED CERTIFICATE': 'certificate',
  'X509 CERTIFICATE': 'certificate',
  'CERTIFICATE REQUEST': 'csr',
  'NEW CERTIFICATE REQUEST': 'csr',
  'X509 CRL': 'crl',
  PKCS7: 'pkcs7',
  CMS: 'pkcs7',
}
type Kind = 'certificate' | 'csr' | 'crl' | 'pkcs7'
const KIND_NAMES: Record<Kind, string> = {
  certificate: 'an X.509 certificate',
  csr: 'a PKCS#10 certificate request',
  crl: 'an X.509 CRL',
  pkcs7: 'a PKCS#7 bundle',
}

/** Where a structure was read from: its block among the input's, its PEM label ("DER" for bare DER) and the line it starts on. */
type Where = { block: number; label: string; line: number }

/** One DER structure of the input, and where it came from. */
type Source = Where & { der: Buffer; kind?: Kind }

/** A structure's place, as messages name it. */
const blockAt = ({ block, label, line }: Where) => `block ${block} (${label}, line ${line})`
const whereOf = ({ block, label, line }: Where): Where => ({ block, label, line })

export const SIGNATURE_ALGORITHMS: Record<string, { name: string; hash?: string; weak?: true }> = {
  '1.2.840.113549.1.1.2': { name: 'md2WithRSAEncryption', hash: 'md2', weak: true },
  '1.2.840.113549.1.1.4': { name: 'md5WithRSAEncryption', hash: 'md5', weak: true },
  '1.2.840.113549.1.1.5': { name: 'sha1WithRSAEncryption', hash: 'sha1', weak: true },
  '1.3.14.3.2.29': { name: 'sha1WithRSAEncryption', hash: 'sha1', weak: true },
  '1.2.840.113549.1.1.14': { name: 'sha224WithRSAEncryption', hash: 'sha224' },
  '1.2.840.113549.1.1.11': { name: 'sha256WithRSAEncryption', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { name: 'sha384WithRSAEncryption', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { name: 'sha512WithRSAEncryption', hash: 'sha512' },
  '1.2.840.113549.1.1.10': { name: 'rsassa-pss' },
  '1.2.840.10045.4.1': { name: 'ecdsa-with-SHA1', hash: 'sha1', weak: true },
  '1.2.840.10045.4.3.1': { name: 'ecdsa-with-SHA224', hash: 'sha224' },
  '1.2.840.10045.4.3.2': { name: 'ecdsa-with-SHA256', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { name: 'ecdsa-with-SHA384', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { name: 'ecdsa-with-SHA512', hash: 'sha512' },
  '1.2.840.10040.4.3': { name: 'dsa-with-SHA1', hash: 'sha1', weak: true },
  '2.16.840.1.101.3.4.3.1': { name: 'dsa-with-SHA224', hash: 'sha224' },
  '2.16.840.1.101.3.4.3.2': { name: 'dsa-with-SHA256', hash: 'sha256' },
  '1.3.101.112': { name: 'ed25519' },
  '1.3.101.113': { name: 'ed448' },
}
const HASH_OIDS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
}

const EXTENSION_NAMES: Record<string, string> = {
  '2.5.29.14': 'subjectKeyIdentifier',
  '2.5.29.15': 'keyUsage',
  '2.5.29.16': 'privateKeyUsagePeriod',
  '2.5.29.17': 'subjectAltName',
  '2.5.29.18': 'issuerAltName',
  '2.5.29.19': 'basicConstraints',
  '2.5.29.20': 'cRLNumber',
  '2.5.29.21': 'cRLReason',
  '2.5.29.24': 'invalidityDate',
  '2.5.29.27': 'deltaCRLIndicator',
  '2.5.29.28': 'issuingDistributionPoint',
  '2.5.29.29': 'certificateIssuer',
  '2.5.29.30': 'nameConstraints',
  '2.5.29.31': 'cRLDistributionPoints',
  '2.5.29.32': 'certificatePolicies',
  '2.5.29.33': 'policyMappings',
  '2.5.29.35': 'authorityKeyIdentifier',
  '2.5.29.36': 'policyConstraints',
  '2.5.29.37': 'extendedKeyUsage',
  '2.5.29.46': 'freshestCRL',
  '2.5.29.54': 'inhibitAnyPolicy',
  '1.3.6.1.5.5.7.1.1': 'authorityInfoAccess',
  '1.3.6.1.5.5.7.1.11': 'subjectInfoAccess',
  '1.3.6.1.5.5.7.1.24': 'tlsFeature',
  '1.3.6.1.4.1.11129.2.4.2': 'signedCertificateTimestamps',
  '1.3.6.1.4.1.11129.2.4.3': 'ctPrecertificatePoison',
}

export const KEY_USAGES = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const

export const EXTENDED_KEY_USAGES: Record<string, string> = {
  '1.3.6.1.5.5.7.3.1': 'serverAuth',
  '1.3.6.1.5.5.7.3.2': 'clientAuth',
  '1.3.6.1.5.5.7.3.3': 'codeSigning',
  '1.3.6.1.5.5.7.3.4': 'emailProtection',
  '1.3.6.1.5.5.7.3.8': 'timeStamping',
  '1.3.6.1.5.5.7.3.9': 'OCSPSigning',
  '2.5.29.37.0': 'anyExtendedKeyUsage',
}

const CRL_REASONS = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'unused',
  'removeFromCRL',
  'privilegeWithdrawn',
  'aACompromise',
]

const CSR_ATTRIBUTES: Record<string, string> = {
  '1.2.840.113549.1.9.7': 'challengePassword',
  '1.2.840.113549.1.9.14': 'extensionRequest',
  '1.2.840.113549.1.9.2': 'unstructuredName',
  '1.3.6.1.4.1.311.13.2.3': 'osVersion',
}

const SCT_HASHES = ['none', 'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512']
const SCT_SIGNATURES = ['anonymous', 'rsa', 'dsa', 'ecdsa']

export interface ExtensionItem {
  oid: string
  name: string
  critical: boolean
  value?: unknown
  valueHex?: string
  error?: string
}

export interface ParsedItem {
  type: 'certificate' | 'csr' | 'crl'
  block: number
  [field: string]: unknown
}

/** What chain checks need of an item, kept out of the answer. */
interface Internal {
  item: ParsedItem
  subjectDer?: Buffer
  issuerDer?: Buffer
  subject?: string
  issuer?: string
  key?: KeyObject
  signed: { tbs: Buffer; algorithm: string; parameters?: Buffer; signature: Buffer }
}

const isoSeconds = (date: Date) => date.toISOString().replace(/\.000Z$/, 'Z')
const colonHex = (bytes: Buffer) =>
  bytes
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?=.)/g, '$1:')
const fingerprints = (der: Buffer) => ({ sha1: colonHex(createHash('sha1').update(der).digest()), sha256: colonHex(createHash('sha256').update(der).digest()) })

/** An INTEGER's content octets as openssl shows a serial: lower-case hex without a leading 00 sign octet. */
export function serialHex(content: Buffer): string {
  const unsigned = content.length > 1 && content[0] === 0 && content[1] & 0x80 ? content.subarray(1) : content
  return unsigned.toString('hex')
}

/** Control characters written as \xHH, so that a NUL in a name is seen rather than hidden. */
const escapeControls = (text: string) => text.replace(/[\x00-\x1f\x7f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)

/** The DER structures of the input: every PEM block of a known label, or one DER structure as base64 or hex. */
function readSources(input: string, inputEncoding: 'auto' | 'base64' | 'hex', warnings: string[]): Source[] {
  if (inputEncoding === 'auto' && /-----BEGIN /.test(input)) {
    const sources: Source[] = []
    for (const block of readPemBlocks(input, MAX_BLOCKS)) {
      const kind = LABELS[block.label]
      if (kind === undefined) {
        warnings.push(`${blockAt({ block: block.index, label: block.label, line: block.line })} skipped: not a certificate, request, CRL or PKCS#7 bundle`)
        continue
      }
      sources.push({ der: block.der, block: block.index, label: block.label, line: block.line, kind })
    }
    if (sources.length === 0) throw invalidInput('input holds no CERTIFICATE, CERTIFICATE REQUEST, X509 CRL or PKCS7 block', { line: firstTextLine(input) })
    return sources
  }
  const compact = input.replace(/\s+/g, '')
  const isHex = inputEncoding === 'hex' || (inputEncoding === 'auto' && /^(?:[0-9a-fA-F]{2})+$/.test(compact.replace(/:/g, '')))
  if (isHex) {
    const hex = compact.replace(/:/g, '')
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex) || hex === '')
      throw invalidInput('input is not hex: it must be pairs of hex digits (spaces and colons are ignored)', { line: firstTextLine(input) })
    return [{ der: Buffer.from(hex, 'hex'), block: 0, label: 'DER', line: firstTextLine(input) }]
  }
  const base64 = compact.replace(/-/g, '+').replace(/_/g, '/')
  if (base64 === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.replace(/=+$/, '').length % 4 === 1)
    throw invalidInput('input is neither PEM nor DER as base64 or hex: no "-----BEGIN" line was found', { line: firstTextLine(input) })
  return [{ der: Buffer.from(base64, 'base64'), block: 0, label: 'DER', line: firstTextLine(input) }]
}

function firstTextLine(text: string): number {
  const index = text.split(/\r\n|\n|\r/).findIndex((line) => line.trim() !== '')
  return index < 0 ? 1 : index + 1
}

/** The schema parser with the service's bounds; a bound reached is a 422 LIMIT_EXCEEDED, anything else a 422 naming the block. */
export function parseAsn<T>(engine: Asn1, der: Uint8Array, schema: new () => T, where: Where, what: string): T {
  try {
    return engine.schema.AsnParser.parse(der, schema, { berOptions: BER_OPTIONS })
  } catch (error) {
    const message = error instanceof Error ? error.message : ''
    if (LIMIT_MESSAGES.test(message))
      throw limitExceeded(`${blockAt(where)} nests ASN.1 deeper than 100 levels or holds more than 1,000,000 elements`, {
        ...where,
        maxDepth: BER_OPTIONS.maxDepth,
        maxNodes: BER_OPTIONS.maxNodes,
      })
    throw invalidInput(`${blockAt(where)} is not DER of ${what}`, where)
  }
}

/** The first element of a source; bytes after it are reported and left out. */
function topElement(source: Source, warnings: string[]): Buffer {
  if (source.der.length === 0) throw invalidInput(`${blockAt(source)} is empty`, whereOf(source))
  let top: Tlv
  try {
    top = readTlv(source.der, 0)
  } catch {
    throw invalidInput(`${blockAt(source)} is not DER: its length octets claim more bytes than there are`, whereOf(source))
  }
  if (top.tag !== 0x30) throw invalidInput(`${blockAt(source)} is not DER of a SEQUENCE`, whereOf(source))
  // A TRUSTED CERTIFICATE carries OpenSSL's trust settings after the certificate: expected, not garbage.
  if (top.end < source.der.length && source.label !== 'TRUSTED CERTIFICATE')
    warnings.push(`${blockAt(source)}: ${source.der.length - top.end} bytes after the DER structure were ignored`)
  return source.der.subarray(0, top.end)
}

export interface ParseOptions {
  input: string
  inputEncoding: 'auto' | 'base64' | 'hex'
  at: Date
  verify: boolean
}

export interface ParseAnswer {
  result: ParsedItem[]
  count: number
  chain: { ordered: boolean; links: Array<{ from: number; to: number; signatureValid: boolean }> }
  warnings: string[]
}

export async function parse(options: ParseOptions): Promise<ParseAnswer> {
  const engine = await asn1()
  const warnings: string[] = []
  const internals: Internal[] = []
  const add = (internal: Internal) => {
    if (internals.length === MAX_BLOCKS) throw limitExceeded(`input holds more than ${MAX_BLOCKS} certificates, requests and CRLs`, { limit: MAX_BLOCKS })
    internals.push(internal)
  }
  for (const source of readSources(options.input, options.inputEncoding, warnings)) {
    const der = topElement(source, warnings)
    const where = whereOf(source)
    const kind = source.kind
    const read = (): Internal[] => {
      if (kind === undefined) return guessed(engine, der, where)
      if (kind === 'pkcs7') return pkcs7Parts(engine, der, where).map((part) => (part.kind === 'crl' ? crlItem : certificateItem)(engine, part.der, where))
      return [(kind === 'certificate' ? certificateItem : kind === 'csr' ? csrItem : crlItem)(engine, der, where)]
    }
    try {
      for (const internal of read()) add(internal)
    } catch (error) {
      if (isDevutilsError(error)) {
        // A reader below that knows no blocks (the DER walker's malformed length): named here.
        if (error.code === 'INVALID_INPUT' && error.details === undefined) throw invalidInput(`${blockAt(where)}: ${error.message}`, where)
        throw error
      }
      // The schema accepted a structure whose parts are not where RFC 5280 puts them.
      throw invalidInput(`${blockAt(where)} is not DER of ${kind === undefined ? 'a known structure' : KIND_NAMES[kind]}`, where)
    }
  }
  const links = checkSignatures(internals, options.verify)
  internals.forEach((internal, index) => {
    warnAbout(internal.item, options.at, (warning) => warnings.push(`item ${index} (${internal.item.type}): ${warning}`))
  })
  const certificates = internals.map((internal, index) => ({ internal, index })).filter(({ internal }) => internal.item.type === 'certificate')
  const ordered = certificates.every(
    ({ index }, position) =>
      position === certificates.length - 1 || links.some((link) => link.from === index && link.to === certificates[position + 1].index && link.signatureValid),
  )
  return {
    result: internals.map((internal) => internal.item),
    count: internals.length,
    chain: { ordered: certificates.length > 0 && ordered, links },
    warnings,
  }
}

/** DER without a label: whichever of the four structures it parses as (a bound reached ends the search). */
function guessed(engine: Asn1, der: Buffer, where: Where): Internal[] {
  const first = childrenOf(der, readTlv(der, 0))[0]
  if (first?.tag === 0x06) {
    const parts = pkcs7Parts(engine, der, where)
    return parts.map((part) => (part.kind === 'crl' ? crlItem(engine, part.der, where) : certificateItem(engine, part.der, where)))
  }
  for (const read of [certificateItem, csrItem, crlItem]) {
    try {
      return [read(engine, der, where)]
    } catch (error) {
      if (!isDevutilsError(error) || error.code !== 'INVALID_INPUT') throw error
    }
  }
  throw invalidInput('input is not DER of an X.509 certificate, a PKCS#10 request, a CRL or a PKCS#7 bundle', where)
}

/** The certificates and CRLs of a PKCS#7 SignedData (RFC 5652 §5.1), as the DER slices they were given as. */
function pkcs7Parts(engine: Asn1, der: Buffer, where: Where): Array<{ kind: 'certificate' | 'crl'; der: Buffer }> {
  const info = parseAsn(engine, der, engine.cms.ContentInfo, where, KIND_NAMES.pkcs7)
  if (info.contentType !== engine.cms.id_signedData)
    throw invalidInput(`${blockAt(where)} is PKCS#7 ${info.contentType}, not SignedData: only certificate bundles are read`, where)
  const [, explicit] = childrenOf(der, readTlv(der, 0))
  const signedData = childrenOf(der, childrenOf(der, explicit)[0])
  const parts: Array<{ kind: 'certificate' | 'crl'; der: Buffer }> = []
  for (const field of signedData) {
    if (field.tag !== 0xa0 && field.tag !== 0xa1) continue
    for (const child of childrenOf(der, field)) {
      if (child.tag === 0x30) parts.push({ kind: field.tag === 0xa0 ? 'certificate' : 'crl', der: Buffer.from(bytesOf(der, child)) })
    }
  }
  return parts
}

function keyOf(spki: Buffer): { key?: KeyObject; facts: PublicKeyFacts } {
  try {
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' })
    return { key, facts: publicKeyFacts(key, spki) }
  } catch {
    const digest = createHash('sha256').update(spki).digest()
    return { facts: { type: 'unknown', spkiSha256: digest.toString('base64'), spkiSha256Hex: digest.toString('hex') } }
  }
}

function signatureAlgorithm(oid: string, parameters: Buffer | undefined): { name: string; oid: string; hash?: string } {
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
function checkSignatures(internals: Internal[], enabled: boolean) {
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

/**
 * Counts the names of a subjectAltName or issuerAltName before the schema parser sees them: asn1js
 * also parses what an OCTET STRING holds, and builds an object for every element, which a body of
 * names would otherwise fill a worker's heap with before any count could be taken.
 */
function checkNameCounts(der: Buffer) {
  try {
    const tbs = childrenOf(der, readTlv(der, 0))[0]
    const wrapper = childrenOf(der, tbs).find((field) => field.tag === 0xa3)
    if (wrapper === undefined) return
    for (const extension of childrenOf(der, childrenOf(der, wrapper)[0])) {
      const parts = childrenOf(der, extension)
      const oid = oidOf(contentOf(der, parts[0]))
      if (oid !== '2.5.29.17' && oid !== '2.5.29.18') continue
      const value = parts[parts.length - 1]
      const count = childrenOf(der, readTlv(der, value.contentStart, value.end)).length
      if (count > MAX_GENERAL_NAMES)
        throw limitExceeded(`the ${EXTENSION_NAMES[oid]} extension holds ${count} names, more than the ${MAX_GENERAL_NAMES} read`, { limit: MAX_GENERAL_NAMES })
    }
  } catch (error) {
    // A malformed structure is the schema parser's to describe.
    if (isDevutilsError(error) && error.code === 'LIMIT_EXCEEDED') throw error
  }
}

function certificateItem(engine: Asn1, der: Buffer, where: Where): Internal {
  checkNameCounts(der)
  const certificate = parseAsn(engine, der, engine.x509.Certificate, where, KIND_NAMES.certificate)
  const tbsDer = Buffer.from(certificate.tbsCertificateRaw ?? new ArrayBuffer(0))
  const fields = childrenOf(tbsDer, readTlv(tbsDer, 0))
  const offset = fields[0]?.tag === 0xa0 ? 1 : 0
  const [serial, , issuerTlv, , subjectTlv, spkiTlv] = fields.slice(offset)
  const subject = readName(tbsDer, subjectTlv)
  const issuer = readName(tbsDer, issuerTlv)
  const serialContent = contentOf(tbsDer, serial)
  const spki = Buffer.from(bytesOf(tbsDer, spkiTlv))
  const { key, facts } = keyOf(spki)
  const tbs = certificate.tbsCertificate
  const extensions = Array.from(tbs.extensions ?? [], (extension) =>
    decodeExtension(engine, extension.extnID, extension.critical, Buffer.from(extension.extnValue.buffer)),
  )
  const notBefore = tbs.validity.notBefore.getTime()
  const notAfter = tbs.validity.notAfter.getTime()
  const parameters = certificate.signatureAlgorithm.parameters ? Buffer.from(certificate.signatureAlgorithm.parameters) : undefined
  const san = extensions.find((extension) => extension.oid === '2.5.29.17')
  const basic = extensions.find((extension) => extension.oid === '2.5.29.19')?.value as { ca?: boolean } | undefined
  const item: ParsedItem = {
    type: 'certificate',
    block: where.block,
    version: tbs.version + 1,
    serialNumber: serialHex(serialContent),
    serialDecimal: signedDecimal(serialContent),
    subject: subject.text,
    subjectAttributes: subject.attributes,
    issuer: issuer.text,
    issuerAttributes: issuer.attributes,
    notBefore: isoSeconds(notBefore),
    notAfter: isoSeconds(notAfter),
    validAt: false,
    daysRemaining: 0,
    selfSigned: false,
    signatureAlgorithm: signatureAlgorithm(certificate.signatureAlgorithm.algorithm, parameters),
    publicKey: facts,
    fingerprints: fingerprints(der),
    subjectAltNames: Array.isArray(san?.value) ? san.value : [],
    isCa: basic?.ca === true,
    extensions,
    pem: pemBlock('CERTIFICATE', der),
  }
  return {
    item,
    subjectDer: Buffer.from(bytesOf(tbsDer, subjectTlv)),
    issuerDer: Buffer.from(bytesOf(tbsDer, issuerTlv)),
    subject: subject.text,
    issuer: issuer.text,
    key,
    signed: { tbs: tbsDer, algorithm: certificate.signatureAlgorithm.algorithm, parameters, signature: Buffer.from(certificate.signatureValue) },
  }
}

function csrItem(engine: Asn1, der: Buffer, where: Where): Internal {
  const request = parseAsn(engine, der, engine.csr.CertificationRequest, where, KIND_NAMES.csr)
  const infoDer = Buffer.from(request.certificationRequestInfoRaw ?? new ArrayBuffer(0))
  const [, subjectTlv, spkiTlv] = childrenOf(infoDer, readTlv(infoDer, 0))
  const subject = readName(infoDer, subjectTlv)
  const { key, facts } = keyOf(Buffer.from(bytesOf(infoDer, spkiTlv)))
  const extensions: ExtensionItem[] = []
  const attributes: Array<Record<string, unknown>> = []
  for (const attribute of request.certificationRequestInfo.attributes) {
    const name = CSR_ATTRIBUTES[attribute.type] ?? attribute.type
    if (name === 'challengePassword') {
      attributes.push({ type: name, oid: attribute.type, present: true })
      continue
    }
    if (name === 'extensionRequest') {
      attributes.push({ type: name, oid: attribute.type })
      for (const value of attribute.values) {
        const requested = parseAsn(engine, new Uint8Array(value), engine.x509.Extensions, where, 'requested extensions')
        for (const extension of requested)
          extensions.push(decodeExtension(engine, extension.extnID, extension.critical, Buffer.from(extension.extnValue.buffer)))
      }
      continue
    }
    attributes.push({ type: name, oid: attribute.type, valueHex: attribute.values.map((value) => Buffer.from(value).toString('hex')).join('') })
  }
  const parameters = request.signatureAlgorithm.parameters ? Buffer.from(request.signatureAlgorithm.parameters) : undefined
  const item: ParsedItem = {
    type: 'csr',
    block: where.block,
    version: request.certificationRequestInfo.version + 1,
    subject: subject.text,
    subjectAttributes: subject.attributes,
    publicKey: facts,
    signatureAlgorithm: signatureAlgorithm(request.signatureAlgorithm.algorithm, parameters),
    subjectAltNames: (extensions.find((extension) => extension.oid === '2.5.29.17')?.value as string[] | undefined) ?? [],
    extensions,
    attributes,
    fingerprints: fingerprints(der),
    pem: pemBlock('CERTIFICATE REQUEST', der),
  }
  return { item, key, signed: { tbs: infoDer, algorithm: request.signatureAlgorithm.algorithm, parameters, signature: Buffer.from(request.signature) } }
}

/**
 * A CRL with only the revoked entries that are listed, for the schema parser, which builds objects
 * for every element (a worker's heap held some 30,000 entries, no more), and the count and signed
 * bytes of the whole. A structure this cannot read goes to the schema parser whole, to be described.
 */
function listedPart(der: Buffer): { der: Buffer; revokedCount?: number; tbs?: Buffer } {
  try {
    const [tbs, ...rest] = childrenOf(der, readTlv(der, 0))
    const fields = childrenOf(der, tbs)
    // revokedCertificates is the SEQUENCE after thisUpdate (or nextUpdate), both Times.
    const index = fields.findIndex((field, i) => field.tag === 0x30 && i > 0 && (fields[i - 1].tag === 0x17 || fields[i - 1].tag === 0x18))
    if (index < 0) return { der }
    const entries = childrenOf(der, fields[index])
    if (entries.length <= MAX_REVOKED_LISTED) return { der, revokedCount: entries.length }
    const kept = encodeTlv(0x30, Buffer.concat(entries.slice(0, MAX_REVOKED_LISTED).map((entry) => bytesOf(der, entry))))
    const parts = fields.map((field, i) => (i === index ? kept : bytesOf(der, field)))
    const shorter = encodeTlv(0x30, Buffer.concat([encodeTlv(0x30, Buffer.concat(parts)), ...rest.map((part) => bytesOf(der, part))]))
    return { der: shorter, revokedCount: entries.length, tbs: Buffer.from(bytesOf(der, tbs)) }
  } catch {
    return { der }
  }
}

function crlItem(engine: Asn1, der: Buffer, where: Where): Internal {
  const part = listedPart(der)
  const list = parseAsn(engine, part.der, engine.x509.CertificateList, where, KIND_NAMES.crl)
  const tbsDer = part.tbs ?? Buffer.from(list.tbsCertListRaw ?? new ArrayBuffer(0))
  const fields = childrenOf(tbsDer, readTlv(tbsDer, 0))
  const issuerTlv = fields[fields[0]?.tag === 0x02 ? 2 : 1]
  const issuer = readName(tbsDer, issuerTlv)
  const tbs = list.tbsCertList
  const extensions = Array.from(tbs.crlExtensions ?? [], (extension) =>
    decodeExtension(engine, extension.extnID, extension.critical, Buffer.from(extension.extnValue.buffer)),
  )
  const revoked = tbs.revokedCertificates ?? []
  const listed = Array.from(revoked.slice(0, MAX_REVOKED_LISTED), (entry) => {
    const reasonExtension = entry.crlEntryExtensions?.find((extension) => extension.extnID === '2.5.29.21')
    const reason = reasonExtension
      ? decodeExtension(engine, reasonExtension.extnID, reasonExtension.critical, Buffer.from(reasonExtension.extnValue.buffer)).value
      : undefined
    const serial = Buffer.from(entry.userCertificate)
    const answer: Record<string, unknown> = { serialNumber: serialHex(serial), revocationDate: isoSeconds(entry.revocationDate.getTime()) }
    if (typeof reason === 'string') answer.reason = reason
    return answer
  })
  const parameters = list.signatureAlgorithm.parameters ? Buffer.from(list.signatureAlgorithm.parameters) : undefined
  const crlNumber = extensions.find((extension) => extension.oid === '2.5.29.20')?.value
  const item: ParsedItem = {
    type: 'crl',
    block: where.block,
    version: (tbs.version ?? 0) + 1,
    issuer: issuer.text,
    issuerAttributes: issuer.attributes,
    thisUpdate: isoSeconds(tbs.thisUpdate.getTime()),
    ...(tbs.nextUpdate ? { nextUpdate: isoSeconds(tbs.nextUpdate.getTime()) } : {}),
    ...(typeof crlNumber === 'string' ? { crlNumber } : {}),
    signatureAlgorithm: signatureAlgorithm(list.signatureAlgorithm.algorithm, parameters),
    revokedCount: part.revokedCount ?? revoked.length,
    revoked: listed,
    revokedTruncated: (part.revokedCount ?? revoked.length) > MAX_REVOKED_LISTED,
    extensions,
    fingerprints: fingerprints(der),
    pem: pemBlock('X509 CRL', der),
  }
  return {
    item,
    issuerDer: Buffer.from(bytesOf(tbsDer, issuerTlv)),
    issuer: issuer.text,
    signed: { tbs: tbsDer, algorithm: list.signatureAlgorithm.algorithm, parameters, signature: Buffer.from(list.signature) },
  }
}

/** A GeneralName (RFC 5280 §4.2.1.6) as openssl's prefixes write it. */
function generalName(engine: Asn1, name: GeneralName): string {
  if (name.dNSName !== undefined) return `DNS:${escapeControls(name.dNSName)}`
  if (name.iPAddress !== undefined) return `IP:${name.iPAddress}`
  if (name.rfc822Name !== undefined) return `email:${escapeControls(name.rfc822Name)}`
  if (name.uniformResourceIdentifier !== undefined) return `URI:${escapeControls(name.uniformResourceIdentifier)}`
  if (name.registeredID !== undefined) return `RID:${name.registeredID}`
  if (name.otherName !== undefined) return `otherName:${name.otherName.typeId}`
  if (name.directoryName !== undefined) {
    const der = Buffer.from(engine.schema.AsnSerializer.serialize(name.directoryName))
    return `dirName:${readName(der, readTlv(der, 0)).text}`
  }
  if (name.ediPartyName !== undefined) return 'ediPartyName:'
  return 'x400Address:'
}

const withoutUri = (name: string) => (name.startsWith('URI:') ? name.slice(4) : name)

/** An INTEGER or ENUMERATED value of a whole extension's DER. */
function integerOf(der: Buffer, tag: number): string {
  const tlv = readTlv(der, 0)
  if (tlv.tag !== tag || tlv.end !== der.length) throw new Error('not an integer')
  return signedDecimal(contentOf(der, tlv))
}

function bitNames(der: Buffer, names: readonly string[]): string[] {
  const tlv = readTlv(der, 0)
  if (tlv.tag !== 0x03 || tlv.end !== der.length) throw new Error('not a BIT STRING')
  const bits = contentOf(der, tlv).subarray(1)
  return names.filter((_, bit) => bit >> 3 < bits.length && (bits[bit >> 3] >> (7 - (bit & 7))) & 1)
}

/** RFC 6962 §3.3: a TLS-encoded SignedCertificateTimestampList inside an OCTET STRING. */
function signedCertificateTimestamps(der: Buffer) {
  const outer = readTlv(der, 0)
  if (outer.tag !== 0x04) throw new Error('not an OCTET STRING')
  const list = contentOf(der, outer)
  const total = list.readUInt16BE(0)
  if (total + 2 !== list.length) throw new Error('list length')
  const scts = []
  for (let offset = 2; offset < list.length; ) {
    const length = list.readUInt16BE(offset)
    const sct = list.subarray(offset + 2, offset + 2 + length)
    if (sct.length !== length || length < 47) throw new Error('SCT length')
    const extensionsLength = sct.readUInt16BE(41)
    const after = 43 + extensionsLength
    scts.push({
      version: sct[0] === 0 ? 'v1' : `unknown (${sct[0]})`,
      logId: sct.subarray(1, 33).toString('base64'),
      timestamp: new Date(Number(sct.readBigUInt64BE(33))).toISOString(),
      hashAlgorithm: SCT_HASHES[sct[after]] ?? String(sct[after]),
      signatureAlgorithm: SCT_SIGNATURES[sct[after + 1]] ?? String(sct[after + 1]),
    })
    offset += 2 + length
  }
  return scts
}

function decodeValue(engine: Asn1, oid: string, der: Buffer): unknown {
  const { AsnParser } = engine.schema
  const x = engine.x509
  const parse = <T>(schema: new () => T) => AsnParser.parse(der, schema, { berOptions: BER_OPTIONS })
  const names = (list: GeneralName[]) => Array.from(list, (name) => generalName(engine, name))
  if (oid === '2.5.29.17' || oid === '2.5.29.18') {
    // Counted before the schema parser builds an object per name, which costs far more than the bytes.
    const count = childrenOf(der, readTlv(der, 0)).length
    if (count > MAX_GENERAL_NAMES)
      throw limitExceeded(`the ${EXTENSION_NAMES[oid]} extension holds ${count} names, more than the ${MAX_GENERAL_NAMES} read`, { limit: MAX_GENERAL_NAMES })
  }
  switch (oid) {
    case '2.5.29.17':
      return names(parse(x.SubjectAlternativeName))
    case '2.5.29.18':
      return names(parse(x.IssueAlternativeName))
    case '2.5.29.15':
      return bitNames(der, KEY_USAGES)
    case '2.5.29.37':
      return Array.from(parse(x.ExtendedKeyUsage), (usage) => ({ oid: usage, name: EXTENDED_KEY_USAGES[usage] ?? usage }))
    case '2.5.29.19': {
      const constraints = parse(x.BasicConstraints)
      return constraints.pathLenConstraint === undefined ? { ca: constraints.cA } : { ca: constraints.cA, pathLength: constraints.pathLenConstraint }
    }
    case '2.5.29.14': {
      const tlv = readTlv(der, 0)
      if (tlv.tag !== 0x04) throw new Error('not an OCTET STRING')
      return contentOf(der, tlv).toString('hex')
    }
    case '2.5.29.35': {
      const identifier = parse(x.AuthorityKeyIdentifier)
      const answer: Record<string, unknown> = {}
      if (identifier.keyIdentifier) answer.keyId = Buffer.from(identifier.keyIdentifier.buffer).toString('hex')
      if (identifier.authorityCertIssuer) answer.issuer = names(identifier.authorityCertIssuer)
      if (identifier.authorityCertSerialNumber) answer.serial = serialHex(Buffer.from(identifier.authorityCertSerialNumber))
      return answer
    }
    case '2.5.29.31':
    case '2.5.29.46':
      return Array.from(parse(x.CRLDistributionPoints), (point) => {
        const answer: Record<string, unknown> = {}
        if (point.distributionPoint?.fullName) answer.fullName = names(point.distributionPoint.fullName)
        if (point.reasons) answer.reasons = bitNames(Buffer.from(engine.schema.AsnSerializer.serialize(point.reasons)), CRL_REASONS.slice(1))
        if (point.cRLIssuer) answer.crlIssuer = names(point.cRLIssuer)
        return answer
      })
    case '1.3.6.1.5.5.7.1.1':
    case '1.3.6.1.5.5.7.1.11': {
      const access = parse(oid.endsWith('.1') ? x.AuthorityInfoAccessSyntax : x.SubjectInfoAccessSyntax)
      const answer: { ocsp: string[]; caIssuers: string[]; other?: Array<{ method: string; location: string }> } = { ocsp: [], caIssuers: [] }
      const other: Array<{ method: string; location: string }> = []
      for (const description of access) {
        const location = withoutUri(generalName(engine, description.accessLocation))
        if (description.accessMethod === '1.3.6.1.5.5.7.48.1') answer.ocsp.push(location)
        else if (description.accessMethod === '1.3.6.1.5.5.7.48.2') answer.caIssuers.push(location)
        else other.push({ method: description.accessMethod, location })
      }
      if (other.length > 0) answer.other = other
      return answer
    }
    case '2.5.29.32':
      return Array.from(parse(x.CertificatePolicies), (policy) => {
        const answer: Record<string, unknown> = { oid: policy.policyIdentifier }
        const cps: string[] = []
        const userNotice: Array<{ explicitText?: string }> = []
        for (const qualifier of policy.policyQualifiers ?? []) {
          const raw = Buffer.from(qualifier.qualifier)
          if (qualifier.policyQualifierId === '1.3.6.1.5.5.7.2.1') cps.push(contentOf(raw, readTlv(raw, 0)).toString('latin1'))
          else if (qualifier.policyQualifierId === '1.3.6.1.5.5.7.2.2') {
            const notice = AsnParser.parse(raw, x.UserNotice, { berOptions: BER_OPTIONS })
            userNotice.push(notice.explicitText ? { explicitText: notice.explicitText.toString() } : {})
          }
        }
        if (cps.length > 0) answer.cps = cps
        if (userNotice.length > 0) answer.userNotice = userNotice
        return answer
      })
    case '2.5.29.30': {
      const constraints = parse(x.NameConstraints)
      return {
        permitted: Array.from(constraints.permittedSubtrees ?? [], (subtree) => generalName(engine, subtree.base)),
        excluded: Array.from(constraints.excludedSubtrees ?? [], (subtree) => generalName(engine, subtree.base)),
      }
    }
    case '2.5.29.36': {
      const constraints = parse(x.PolicyConstraints)
      const answer: Record<string, number> = {}
      if (constraints.requireExplicitPolicy !== undefined) answer.requireExplicitPolicy = Number(constraints.requireExplicitPolicy)
      if (constraints.inhibitPolicyMapping !== undefined) answer.inhibitPolicyMapping = Number(constraints.inhibitPolicyMapping)
      return answer
    }
    case '2.5.29.54':
      return Number(integerOf(der, 0x02))
    case '2.5.29.20':
    case '2.5.29.27':
      return integerOf(der, 0x02)
    case '2.5.29.21':
      return CRL_REASONS[Number(integerOf(der, 0x0a))] ?? integerOf(der, 0x0a)
    case '1.3.6.1.4.1.11129.2.4.2':
      return signedCertificateTimestamps(der)
    case '1.3.6.1.4.1.11129.2.4.3':
      if (!der.equals(Buffer.from([0x05, 0x00]))) throw new Error('not NULL')
      return true
    default:
      return undefined
  }
}

/** One extension: its value decoded where the service knows it, else its DER as hex; a malformed one says so and keeps its bytes. */
export function decodeExtension(engine: Asn1, oid: string, critical: boolean, der: Buffer): ExtensionItem {
  const item: ExtensionItem = { oid, name: EXTENSION_NAMES[oid] ?? 'unknown', critical }
  try {
    const value = decodeValue(engine, oid, der)
    if (value === undefined) item.valueHex = der.toString('hex')
    else item.value = value
  } catch (error) {
    if (isDevutilsError(error) && error.code === 'LIMIT_EXCEEDED') throw error
    if (error instanceof Error && LIMIT_MESSAGES.test(error.message)) throw limitExceeded(`the ${item.name} extension nests ASN.1 deeper than 100 levels`)
    item.error = `the ${item.name === 'unknown' ? oid : item.name} extension is malformed`
    item.valueHex = der.toString('hex')
  }
  return item
}

const DAY_MS = 86_400_000
const LEAF_MAX_DAYS = 398

/** Warnings of RFC 5280 and the CA/Browser Forum's Baseline Requirements, and validity at `at`, for one item. */
function warnAbout(item: ParsedItem, at: Date, warn: (warning: string) => void) {
  const algorithm = item.signatureAlgorithm as { name: string; oid: string }
  if (SIGNATURE_ALGORITHMS[algorithm.oid]?.weak) warn(`signed with ${algorithm.name}, a broken hash (SHA-1 or MD5)`)
  const key = item.publicKey as PublicKeyFacts | undefined
  if (key && (key.type === 'rsa' || key.type === 'rsa-pss') && key.bits !== undefined && key.bits < 2048) warn(`RSA key of ${key.bits} bits, below 2048`)
  const extensions = item.extensions as ExtensionItem[]
  for (const extension of extensions) {
    if (extension.critical && extension.name === 'unknown') warn(`unknown critical extension ${extension.oid}`)
    if (extension.error) warn(extension.error)
  }
  const names = (item.subjectAltNames as string[] | undefined) ?? []
  if (names.some((name) => name.includes('\\x'))) warn('a name holds a NUL or control character (shown as \\xHH): a sign of a spoofing attempt')
  if (item.type !== 'certificate') return
  const serial = item.serialDecimal as string
  if (serial.startsWith('-')) warn('negative serial (RFC 5280 §4.1.2.2)')
  if ((item.serialNumber as string).length > 40) warn('serial longer than 20 octets (RFC 5280 §4.1.2.2)')
  const notBefore = Date.parse(item.notBefore as string)
  const notAfter = Date.parse(item.notAfter as string)
  item.validAt = at.getTime() >= notBefore && at.getTime() <= notAfter
  item.daysRemaining = Math.floor((notAfter - at.getTime()) / DAY_MS)
  if (at.getTime() > notAfter) warn(`expired at ${item.notAfter}`)
  if (at.getTime() < notBefore) warn(`not valid until ${item.notBefore}`)
  const attributes = item.subjectAttributes as NameAttribute[]
  if (!item.isCa && attributes.some((attribute) => attribute.type === 'CN') && names.length === 0)
    warn('a CN without subjectAltName: browsers ignore CN and will refuse this certificate for any host name')
  if (!item.isCa && (notAfter - notBefore) / DAY_MS > LEAF_MAX_DAYS)
    warn(`validity of more than ${LEAF_MAX_DAYS} days for a leaf certificate (CA/Browser Forum)`)
  if (item.version === 1 && extensions.length > 0) warn('a version 1 certificate with extensions (RFC 5280 §4.1.2.9 needs version 3)')
}
