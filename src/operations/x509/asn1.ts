import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'

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
export type GeneralName = InstanceType<Asn1['x509']['GeneralName']>

// asn1js's default node count refuses real CRLs of a few thousand entries; nesting stays at its default.
export const BER_OPTIONS = { maxNodes: 1_000_000, maxDepth: 100 }
export const LIMIT_MESSAGES = /nesting depth|node count|content length/i

export type Kind = 'certificate' | 'csr' | 'crl' | 'pkcs7'
export const KIND_NAMES: Record<Kind, string> = {
  certificate: 'an X.509 certificate',
  csr: 'a PKCS#10 certificate request',
  crl: 'an X.509 CRL',
  pkcs7: 'a PKCS#7 bundle',
}

/** Where a structure was read from: its block among the input's, its PEM label ("DER" for bare DER) and the line it starts on. */
export type Where = { block: number; label: string; line: number }

/** A structure's place, as messages name it. */
export const blockAt = ({ block, label, line }: Where) => `block ${block} (${label}, line ${line})`
export const whereOf = ({ block, label, line }: Where): Where => ({ block, label, line })

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
