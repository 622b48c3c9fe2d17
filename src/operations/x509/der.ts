import { invalidInput } from '../../core/errors.ts'
import { bytesOf, childrenOf, contentOf, malformedDer, type Tlv } from '../../lib/asn1/der.ts'

/** Dotted decimal of an OBJECT IDENTIFIER's content octets (X.690 §8.19). */
export function oidOf(content: Uint8Array): string {
  const arcs: bigint[] = []
  let value = 0n
  for (const byte of content) {
    value = (value << 7n) | BigInt(byte & 0x7f)
    if ((byte & 0x80) === 0) {
      arcs.push(value)
      value = 0n
    }
  }
  if (arcs.length === 0) return ''
  const first = arcs[0] < 80n ? arcs[0] / 40n : 2n
  return [first, arcs[0] - first * 40n, ...arcs.slice(1)].join('.')
}

/** A signed INTEGER's content octets as decimal (X.690 §8.3: two's complement). */
export function signedDecimal(content: Uint8Array): string {
  if (content.length === 0) return '0'
  let value = BigInt(`0x${Buffer.from(content).toString('hex')}`)
  if (content[0] & 0x80) value -= 1n << BigInt(content.length * 8)
  return value.toString()
}

/** The short names OpenSSL prints with `-nameopt RFC2253` (RFC 4514 §3 names, and OpenSSL's for the rest). */
export const NAME_ATTRIBUTES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'street',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'title',
  '2.5.4.13': 'description',
  '2.5.4.15': 'businessCategory',
  '2.5.4.17': 'postalCode',
  '2.5.4.41': 'name',
  '2.5.4.42': 'GN',
  '2.5.4.43': 'initials',
  '2.5.4.44': 'generationQualifier',
  '2.5.4.46': 'dnQualifier',
  '2.5.4.65': 'pseudonym',
  '2.5.4.97': 'organizationIdentifier',
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
  '1.2.840.113549.1.9.1': 'emailAddress',
  '1.3.6.1.4.1.311.60.2.1.1': 'jurisdictionL',
  '1.3.6.1.4.1.311.60.2.1.2': 'jurisdictionST',
  '1.3.6.1.4.1.311.60.2.1.3': 'jurisdictionC',
}

export interface NameAttribute {
  type: string
  oid: string
  value: string
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** A string attribute's text, or undefined when its bytes are not text of its type. */
function stringValue(tag: number, content: Buffer): string | undefined {
  try {
    switch (tag) {
      case 0x0c: // UTF8String
        return UTF8.decode(content)
      case 0x12: // NumericString
      case 0x13: // PrintableString
      case 0x16: // IA5String
      case 0x1a: // VisibleString
        return /^[\x00-\x7f]*$/.test(content.toString('latin1')) ? content.toString('latin1') : undefined
      case 0x14: // TeletexString: read as Latin-1, as OpenSSL shows it
        return content.toString('latin1')
      case 0x1e: {
        // BMPString: UTF-16 big-endian
        if (content.length % 2 !== 0) return undefined
        const swapped = Buffer.from(content)
        swapped.swap16()
        return swapped.toString('utf16le')
      }
      case 0x1c: {
        // UniversalString: UTF-32 big-endian
        if (content.length % 4 !== 0) return undefined
        let text = ''
        for (let i = 0; i < content.length; i += 4) text += String.fromCodePoint(content.readUInt32BE(i))
        return text
      }
      default:
        return undefined
    }
  } catch {
    return undefined
  }
}

/** RFC 4514 §2.4: the characters a value must escape, a leading '#' or space, a trailing space, NUL. */
function escapeValue(value: string): string {
  let escaped = value.replace(/["+,;<>\\]/g, (char) => `\\${char}`).replace(/\0/g, '\\00')
  if (escaped.startsWith('#') || escaped.startsWith(' ')) escaped = `\\${escaped}`
  if (escaped.endsWith(' ') && !escaped.endsWith('\\ ')) escaped = `${escaped.slice(0, -1)}\\ `
  return escaped
}

/**
 * A Name (RFC 5280 §4.1.2.4) as its attributes in encoded order and as an RFC 4514 string, most
 * specific RDN first. A value that is not text of its string type is written `#` and the hex of its
 * whole encoding (RFC 4514 §2.4), never with replacement characters.
 */
export function readName(der: Uint8Array, name: Tlv): { text: string; attributes: NameAttribute[] } {
  const attributes: NameAttribute[] = []
  const rdns: string[] = []
  for (const rdn of childrenOf(der, name)) {
    const parts: string[] = []
    for (const pair of childrenOf(der, rdn)) {
      const [typeTlv, valueTlv] = childrenOf(der, pair)
      if (typeTlv === undefined || valueTlv === undefined) throw malformedDer()
      const oid = oidOf(contentOf(der, typeTlv))
      const type = NAME_ATTRIBUTES[oid] ?? oid
      const text = stringValue(valueTlv.tag, contentOf(der, valueTlv))
      const value = text ?? `#${bytesOf(der, valueTlv).toString('hex')}`
      attributes.push({ type, oid, value })
      parts.push(`${type}=${text === undefined ? value : escapeValue(text)}`)
    }
    rdns.push(parts.join('+'))
  }
  return { text: rdns.reverse().join(','), attributes }
}

const SHORT_NAMES = new Map(Object.entries(NAME_ATTRIBUTES).map(([oid, name]) => [name.toLowerCase(), oid]))
SHORT_NAMES.set('street', '2.5.4.9')

export interface ParsedAttribute {
  oid: string
  /** The text, or the whole BER encoding when the value was written as `#hex`. */
  value: string | Buffer
}

/** Where a name is being read, and how a refusal names the field and the position. */
interface Cursor {
  text: string
  at: number
  fail: (message: string, position: number) => ReturnType<typeof invalidInput>
}

/** The attribute type before "=", as an OID; the cursor is left on the "=". */
function readAttributeType(cursor: Cursor): string {
  const { text, fail } = cursor
  let i = cursor.at
  while (text[i] === ' ') i++
  const typeStart = i
  while (i < text.length && text[i] !== '=') {
    if (text[i] === ',' || text[i] === '+') throw fail('an attribute has no "="', i)
    i++
  }
  if (i >= text.length) throw fail('an attribute has no "="', typeStart)
  const typeText = text.slice(typeStart, i).trim()
  const oid = /^\d+(\.\d+)+$/.test(typeText) ? typeText : SHORT_NAMES.get(typeText.toLowerCase())
  if (oid === undefined || typeText === '')
    throw fail(`unknown attribute type "${typeText}" (known: CN, C, ST, L, O, OU, emailAddress, serialNumber, DC, UID, or a dotted OID)`, typeStart)
  if (/^\d/.test(oid) && !/^[0-2]\.(?:[0-9]|[1-3][0-9])(\.\d+)*$/.test(oid)) throw fail(`"${typeText}" is not a valid object identifier`, typeStart)
  cursor.at = i
  return oid
}

/** A value written as "#" and the hex of its BER encoding. */
function readHexValue(cursor: Cursor): Buffer {
  const match = /^#((?:[0-9a-fA-F]{2})+)/.exec(cursor.text.slice(cursor.at))
  if (match === null) throw cursor.fail('"#" must be followed by the hex of a BER encoding', cursor.at)
  cursor.at += match[0].length
  return Buffer.from(match[1], 'hex')
}

/** A string value up to the next unescaped "," or "+", its escapes undone (escaped bytes are UTF-8). */
function readStringValue(cursor: Cursor): string {
  const { text, fail } = cursor
  const valueStart = cursor.at
  let i = cursor.at
  let out = ''
  // Spaces up to here were escaped and stay; unescaped trailing spaces are not part of the value (RFC 4514 §3).
  let kept = 0
  let pendingBytes: number[] = []
  const flush = () => {
    if (pendingBytes.length === 0) return
    try {
      out += UTF8.decode(Uint8Array.from(pendingBytes))
      kept = out.length
    } catch {
      throw fail('escaped bytes are not UTF-8', valueStart)
    }
    pendingBytes = []
  }
  while (i < text.length && text[i] !== ',' && text[i] !== '+') {
    if (text[i] === '\\') {
      const hex = /^[0-9a-fA-F]{2}/.exec(text.slice(i + 1, i + 3))
      if (hex) {
        pendingBytes.push(Number.parseInt(hex[0], 16))
        i += 3
        continue
      }
      if (i + 1 >= text.length || !/[ "#+,;<=>\\]/.test(text[i + 1])) throw fail('a backslash escapes nothing it may escape', i)
      flush()
      out += text[i + 1]
      kept = out.length
      i += 2
      continue
    }
    if (text[i] === '"' || text[i] === ';' || text[i] === '<' || text[i] === '>') throw fail(`"${text[i]}" must be escaped`, i)
    flush()
    out += text[i]
    i++
  }
  flush()
  cursor.at = i
  const trimmed = out.replace(/ +$/, '')
  const value = out.slice(0, Math.max(kept, trimmed.length))
  if (value === '') throw fail('an attribute has an empty value', valueStart)
  return value
}

/**
 * Reads an RFC 4514 string into RDNs in encoding order (the string names the most specific first).
 * A fault is a 422 with its position in the string.
 */
export function parseDistinguishedName(text: string, field: string): ParsedAttribute[][] {
  const rdns: ParsedAttribute[][] = []
  let rdn: ParsedAttribute[] = []
  const cursor: Cursor = {
    text,
    at: 0,
    fail: (message, position) => invalidInput(`${field} is not an RFC 4514 name: ${message} at position ${position}`, { field, position }),
  }
  const { fail } = cursor
  while (cursor.at < text.length) {
    const oid = readAttributeType(cursor)
    cursor.at++
    // Spaces around "=" are not RFC 4514, but people write them; an escaped leading space stays.
    while (text[cursor.at] === ' ') cursor.at++
    const value = text[cursor.at] === '#' ? readHexValue(cursor) : readStringValue(cursor)
    rdn.push({ oid, value })
    while (text[cursor.at] === ' ') cursor.at++
    if (cursor.at < text.length && text[cursor.at] !== ',' && text[cursor.at] !== '+') throw fail('unexpected text after a "#" value', cursor.at)
    if (text[cursor.at] === '+') {
      cursor.at++
      if (cursor.at >= text.length) throw fail('the name ends with "+"', cursor.at - 1)
      continue
    }
    rdns.push(rdn)
    rdn = []
    if (text[cursor.at] === ',') {
      cursor.at++
      if (cursor.at >= text.length) throw fail('the name ends with ","', cursor.at - 1)
    }
  }
  if (rdn.length > 0) rdns.push(rdn)
  if (rdns.length === 0) throw fail('the name is empty', 0)
  return rdns.reverse()
}
