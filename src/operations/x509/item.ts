import { createHash, createPublicKey, type KeyObject } from 'node:crypto'
import { type PublicKeyFacts, publicKeyFacts } from '../../lib/asn1/public-key.ts'

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
export interface Internal {
  item: ParsedItem
  subjectDer?: Buffer
  issuerDer?: Buffer
  subject?: string
  issuer?: string
  key?: KeyObject
  signed: { tbs: Buffer; algorithm: string; parameters?: Buffer; signature: Buffer }
}

export const isoSeconds = (date: Date) => date.toISOString().replace(/\.000Z$/, 'Z')
const colonHex = (bytes: Buffer) =>
  bytes
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?=.)/g, '$1:')
export const fingerprints = (der: Buffer) => ({
  sha1: colonHex(createHash('sha1').update(der).digest()),
  sha256: colonHex(createHash('sha256').update(der).digest()),
})

/** An INTEGER's content octets as openssl shows a serial: lower-case hex without a leading 00 sign octet. */
export function serialHex(content: Buffer): string {
  const unsigned = content.length > 1 && content[0] === 0 && content[1] & 0x80 ? content.subarray(1) : content
  return unsigned.toString('hex')
}

/** Control characters written as \xHH, so that a NUL in a name is seen rather than hidden. */
export const escapeControls = (text: string) => text.replace(/[\x00-\x1f\x7f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)

export function keyOf(spki: Buffer): { key?: KeyObject; facts: PublicKeyFacts } {
  try {
    const key = createPublicKey({ key: spki, format: 'der', type: 'spki' })
    return { key, facts: publicKeyFacts(key, spki) }
  } catch {
    const digest = createHash('sha256').update(spki).digest()
    return { facts: { type: 'unknown', spkiSha256: digest.toString('base64'), spkiSha256Hex: digest.toString('hex') } }
  }
}
