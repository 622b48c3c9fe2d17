import { isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { childrenOf, contentOf, readTlv } from '../../lib/asn1/der.ts'
import { type Asn1, BER_OPTIONS, type GeneralName, LIMIT_MESSAGES } from './asn1.ts'
import { readName, signedDecimal } from './der.ts'
import { type ExtensionItem, escapeControls, serialHex } from './item.ts'
import { MAX_GENERAL_NAMES } from './limits.ts'
import { CRL_REASONS, EXTENDED_KEY_USAGES, EXTENSION_NAMES, KEY_USAGES, SCT_HASHES, SCT_SIGNATURES } from './oids.ts'

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

/** The schema parser over one extension's DER, and the names it holds as openssl writes them. */
function readerOf(engine: Asn1, der: Buffer) {
  return {
    parse: <T>(schema: new () => T) => engine.schema.AsnParser.parse(der, schema, { berOptions: BER_OPTIONS }),
    names: (list: GeneralName[]) => Array.from(list, (name) => generalName(engine, name)),
  }
}

function authorityKeyIdentifier(engine: Asn1, der: Buffer) {
  const { parse, names } = readerOf(engine, der)
  const identifier = parse(engine.x509.AuthorityKeyIdentifier)
  const answer: Record<string, unknown> = {}
  if (identifier.keyIdentifier) answer.keyId = Buffer.from(identifier.keyIdentifier.buffer).toString('hex')
  if (identifier.authorityCertIssuer) answer.issuer = names(identifier.authorityCertIssuer)
  if (identifier.authorityCertSerialNumber) answer.serial = serialHex(Buffer.from(identifier.authorityCertSerialNumber))
  return answer
}

function distributionPoints(engine: Asn1, der: Buffer) {
  const { parse, names } = readerOf(engine, der)
  return Array.from(parse(engine.x509.CRLDistributionPoints), (point) => {
    const answer: Record<string, unknown> = {}
    if (point.distributionPoint?.fullName) answer.fullName = names(point.distributionPoint.fullName)
    if (point.reasons) answer.reasons = bitNames(Buffer.from(engine.schema.AsnSerializer.serialize(point.reasons)), CRL_REASONS.slice(1))
    if (point.cRLIssuer) answer.crlIssuer = names(point.cRLIssuer)
    return answer
  })
}

/** Authority (1.3.6.1.5.5.7.1.1) or subject (…1.11) information access. */
function informationAccess(engine: Asn1, oid: string, der: Buffer) {
  const { parse } = readerOf(engine, der)
  const access = parse(oid.endsWith('.1') ? engine.x509.AuthorityInfoAccessSyntax : engine.x509.SubjectInfoAccessSyntax)
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

function certificatePolicies(engine: Asn1, der: Buffer) {
  const { parse } = readerOf(engine, der)
  return Array.from(parse(engine.x509.CertificatePolicies), (policy) => {
    const answer: Record<string, unknown> = { oid: policy.policyIdentifier }
    const cps: string[] = []
    const userNotice: Array<{ explicitText?: string }> = []
    for (const qualifier of policy.policyQualifiers ?? []) {
      const raw = Buffer.from(qualifier.qualifier)
      if (qualifier.policyQualifierId === '1.3.6.1.5.5.7.2.1') cps.push(contentOf(raw, readTlv(raw, 0)).toString('latin1'))
      else if (qualifier.policyQualifierId === '1.3.6.1.5.5.7.2.2') {
        const notice = engine.schema.AsnParser.parse(raw, engine.x509.UserNotice, { berOptions: BER_OPTIONS })
        userNotice.push(notice.explicitText ? { explicitText: notice.explicitText.toString() } : {})
      }
    }
    if (cps.length > 0) answer.cps = cps
    if (userNotice.length > 0) answer.userNotice = userNotice
    return answer
  })
}

function policyConstraints(engine: Asn1, der: Buffer) {
  const constraints = readerOf(engine, der).parse(engine.x509.PolicyConstraints)
  const answer: Record<string, number> = {}
  if (constraints.requireExplicitPolicy !== undefined) answer.requireExplicitPolicy = Number(constraints.requireExplicitPolicy)
  if (constraints.inhibitPolicyMapping !== undefined) answer.inhibitPolicyMapping = Number(constraints.inhibitPolicyMapping)
  return answer
}

/** Refuses a subjectAltName or issuerAltName of too many names before the schema parser builds an object per name, which costs far more than the bytes. */
function assertNameCount(oid: string, der: Buffer): void {
  const count = childrenOf(der, readTlv(der, 0)).length
  if (count > MAX_GENERAL_NAMES)
    throw limitExceeded(`the ${EXTENSION_NAMES[oid]} extension holds ${count} names, more than the ${MAX_GENERAL_NAMES} read`, { limit: MAX_GENERAL_NAMES })
}

/** The value of an extension this operation knows, else undefined. */
function decodeValue(engine: Asn1, oid: string, der: Buffer): unknown {
  const x = engine.x509
  const { parse, names } = readerOf(engine, der)
  if (oid === '2.5.29.17' || oid === '2.5.29.18') assertNameCount(oid, der)
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
    case '2.5.29.35':
      return authorityKeyIdentifier(engine, der)
    case '2.5.29.31':
    case '2.5.29.46':
      return distributionPoints(engine, der)
    case '1.3.6.1.5.5.7.1.1':
    case '1.3.6.1.5.5.7.1.11':
      return informationAccess(engine, oid, der)
    case '2.5.29.32':
      return certificatePolicies(engine, der)
    case '2.5.29.30': {
      const constraints = parse(x.NameConstraints)
      return {
        permitted: Array.from(constraints.permittedSubtrees ?? [], (subtree) => generalName(engine, subtree.base)),
        excluded: Array.from(constraints.excludedSubtrees ?? [], (subtree) => generalName(engine, subtree.base)),
      }
    }
    case '2.5.29.36':
      return policyConstraints(engine, der)
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
