import { bytesOf, childrenOf, readTlv } from '../../lib/asn1/der.ts'
import { pemBlock } from '../../lib/asn1/pem.ts'
import { type Asn1, KIND_NAMES, parseAsn, type Where } from './asn1.ts'
import { readName } from './der.ts'
import { decodeExtension } from './extensions.ts'
import { type ExtensionItem, fingerprints, type Internal, keyOf, type ParsedItem } from './item.ts'
import { CSR_ATTRIBUTES } from './oids.ts'
import { signatureAlgorithm } from './signatures.ts'

export function csrItem(engine: Asn1, der: Buffer, where: Where): Internal {
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
