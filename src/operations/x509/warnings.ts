import type { PublicKeyFacts } from '../../lib/asn1/public-key.ts'
import type { NameAttribute } from './der.ts'
import type { ExtensionItem, ParsedItem } from './item.ts'
import { SIGNATURE_ALGORITHMS } from './oids.ts'

const DAY_MS = 86_400_000
const LEAF_MAX_DAYS = 398

/** Warnings of RFC 5280 and the CA/Browser Forum's Baseline Requirements, and validity at `at`, for one item. */
export function warnAbout(item: ParsedItem, at: Date, warn: (warning: string) => void) {
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
