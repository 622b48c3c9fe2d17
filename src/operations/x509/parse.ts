import { invalidInput, isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { bytesOf, childrenOf, readTlv } from '../../lib/asn1/der.ts'
import { type Asn1, asn1, blockAt, KIND_NAMES, parseAsn, type Where, whereOf } from './asn1.ts'
import { certificateItem } from './certificate.ts'
import { crlItem } from './crl.ts'
import { csrItem } from './csr.ts'
import type { Internal, ParsedItem } from './item.ts'
import { MAX_BLOCKS } from './limits.ts'
import { checkSignatures } from './signatures.ts'
import { readSources, topElement } from './sources.ts'
import { warnAbout } from './warnings.ts'

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
