import { invalidInput } from '../../core/errors.ts'

/**
 * Just enough DER (ITU-T X.690) for the key and certificate operations to reach what their parsers
 * leave out: a key structure's shape and its encryption's cost before OpenSSL reads it, names whose
 * strings are not UTF-8, signed serial numbers, the slices of a PKCS#7 bundle. Every length is checked
 * against what remains, so a lying length is an error, never a read past the end.
 */
export interface Tlv {
  tag: number
  /** Where the element's header starts, where its content starts, and where it ends. */
  start: number
  contentStart: number
  end: number
}

export function malformedDer() {
  return invalidInput('the DER is malformed: a length runs past the end of its element')
}

/**
 * The element at `offset`. A long-form length is read as OpenSSL reads it, leading zero octets and
 * all (BER), so that what OpenSSL would decode is what is read here; an indefinite length and the
 * high-tag-number form (neither appears in these structures) are refused.
 */
export function readTlv(der: Uint8Array, offset: number, limit = der.length): Tlv {
  if (offset + 2 > limit) throw malformedDer()
  const tag = der[offset]
  if ((tag & 0x1f) === 0x1f) throw malformedDer()
  let length = der[offset + 1]
  let contentStart = offset + 2
  if (length & 0x80) {
    const octets = length & 0x7f
    if (octets === 0 || contentStart + octets > limit) throw malformedDer()
    length = 0
    for (let i = 0; i < octets; i++) {
      length = length * 256 + der[contentStart + i]
      if (length > limit) throw malformedDer()
    }
    contentStart += octets
  }
  const end = contentStart + length
  if (end > limit) throw malformedDer()
  return { tag, start: offset, contentStart, end }
}

/** The elements one after another from `start` to `end`: a constructed element's children, or a buffer's top level. */
export function elementsBetween(der: Uint8Array, start: number, end: number): Tlv[] {
  const elements: Tlv[] = []
  for (let offset = start; offset < end; ) {
    const element = readTlv(der, offset, end)
    elements.push(element)
    offset = element.end
  }
  return elements
}

/** The elements inside a constructed element, in order. */
export const childrenOf = (der: Uint8Array, parent: Tlv): Tlv[] => elementsBetween(der, parent.contentStart, parent.end)

/** One element of `tag` around `content`, its length in DER's shortest form. */
export function encodeTlv(tag: number, content: Buffer): Buffer {
  const n = content.length
  const length: number[] = []
  if (n < 0x80) length.push(n)
  else {
    for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) length.unshift(rest % 256)
    length.unshift(0x80 | length.length)
  }
  return Buffer.concat([Buffer.from([tag, ...length]), content])
}

export const contentOf = (der: Uint8Array, tlv: Tlv) => Buffer.from(der.buffer, der.byteOffset + tlv.contentStart, tlv.end - tlv.contentStart)
export const bytesOf = (der: Uint8Array, tlv: Tlv) => Buffer.from(der.buffer, der.byteOffset + tlv.start, tlv.end - tlv.start)

/** The universal tags the key structures are told apart by. */
export const TAG = { INTEGER: 0x02, BIT_STRING: 0x03, OCTET_STRING: 0x04, OID: 0x06, SEQUENCE: 0x30 } as const

/** The elements of `bytes` one after another, each with its content. */
export function derItems(bytes: Buffer): Array<{ tag: number; content: Buffer }> {
  return elementsBetween(bytes, 0, bytes.length).map((element) => ({ tag: element.tag, content: contentOf(bytes, element) }))
}
