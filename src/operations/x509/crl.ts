import { bytesOf, childrenOf, encodeTlv, readTlv } from '../../lib/asn1/der.ts'
import { pemBlock } from '../../lib/asn1/pem.ts'
import { type Asn1, KIND_NAMES, parseAsn, type Where } from './asn1.ts'
import { readName } from './der.ts'
import { decodeExtension } from './extensions.ts'
import { fingerprints, type Internal, isoSeconds, type ParsedItem, serialHex } from './item.ts'
import { MAX_REVOKED_LISTED } from './limits.ts'
import { signatureAlgorithm } from './signatures.ts'

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

export function crlItem(engine: Asn1, der: Buffer, where: Where): Internal {
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
