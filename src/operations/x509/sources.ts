import { invalidInput } from '../../core/errors.ts'
import { readTlv, type Tlv } from '../../lib/asn1/der.ts'
import { readPemBlocks } from '../../lib/asn1/pem.ts'
import { blockAt, type Kind, type Where, whereOf } from './asn1.ts'
import { MAX_BLOCKS } from './limits.ts'

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
/** One DER structure of the input, and where it came from. */
export type Source = Where & { der: Buffer; kind?: Kind }

/** The DER structures of the input: every PEM block of a known label, or one DER structure as base64 or hex. */
export function readSources(input: string, inputEncoding: 'auto' | 'base64' | 'hex', warnings: string[]): Source[] {
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

/** The first element of a source; bytes after it are reported and left out. */
export function topElement(source: Source, warnings: string[]): Buffer {
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
