import { derItems, TAG } from '../../lib/asn1/der.ts'

export type DerKind = 'pkcs8' | 'pkcs8-encrypted' | 'pkcs1' | 'pkcs1-public' | 'sec1' | 'spki' | 'unknown'

/** What a DER key structure is, from the shape of its outer SEQUENCE. */
export function derKind(der: Buffer): DerKind {
  try {
    const [outer, ...after] = derItems(der)
    if (outer === undefined || outer.tag !== TAG.SEQUENCE || after.length > 0) return 'unknown'
    const items = derItems(outer.content)
    const [first, second] = items
    if (first?.tag === TAG.INTEGER) {
      if (second?.tag === TAG.SEQUENCE) return 'pkcs8'
      if (second?.tag === TAG.OCTET_STRING) return 'sec1'
      if (second?.tag === TAG.INTEGER) return items.length === 2 ? 'pkcs1-public' : 'pkcs1'
    }
    if (first?.tag === TAG.SEQUENCE && second?.tag === TAG.BIT_STRING) return 'spki'
    if (first?.tag === TAG.SEQUENCE && second?.tag === TAG.OCTET_STRING) return 'pkcs8-encrypted'
  } catch {
    // Not DER at all: the caller says so.
  }
  return 'unknown'
}
