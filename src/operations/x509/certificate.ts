import { isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { bytesOf, childrenOf, contentOf, readTlv } from '../../lib/asn1/der.ts'
import { pemBlock } from '../../lib/asn1/pem.ts'
import { type Asn1, KIND_NAMES, parseAsn, type Where } from './asn1.ts'
import { oidOf, readName, signedDecimal } from './der.ts'
import { decodeExtension } from './extensions.ts'
import { fingerprints, type Internal, isoSeconds, keyOf, type ParsedItem, serialHex } from './item.ts'
import { MAX_GENERAL_NAMES } from './limits.ts'
import { EXTENSION_NAMES } from './oids.ts'
import { signatureAlgorithm } from './signatures.ts'

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

export function certificateItem(engine: Asn1, der: Buffer, where: Where): Internal {
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
