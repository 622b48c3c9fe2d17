import { unlessRefused } from '../../core/recognise.ts'
import { type Base64Variant, decodeBase64 } from './base64.ts'

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/
/** Valid Base64 length: padded to a multiple of 4, or unpadded with a remainder that encodes whole bytes. */
const base64Length = (text: string) => (text.includes('=') ? text.length % 4 === 0 : text.length % 4 !== 1)

/**
 * Base64 wrapped at a fixed width (MIME's 76, PEM's 64) as one run: every line but the last as long
 * as the first. The text itself where it is on one line.
 */
function unwrapped(text: string): string {
  if (!text.includes('\n')) return text
  const lines = text.split(/\r?\n/)
  const width = lines[0].length
  return width >= 4 && width % 4 === 0 && lines.every((line, index) => (index === lines.length - 1 ? line.length <= width : line.length === width))
    ? lines.join('')
    : text
}

/**
 * The bytes of a pasted text that is canonical Base64 of `variant` and of at least 8 characters, on
 * one line or wrapped at a fixed width; undefined for any other text.
 */
export function pastedBase64Bytes(wrapped: string, variant: Base64Variant): Uint8Array | undefined {
  const text = unwrapped(wrapped)
  if (text.length < 8 || !base64Length(text) || !(variant === 'standard' ? BASE64 : BASE64URL).test(text)) return undefined
  return unlessRefused(() => decodeBase64(text, { variant, padding: text.includes('='), strict: true }))
}
