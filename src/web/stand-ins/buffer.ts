/**
 * `node:buffer` in the page: the `buffer` package's Buffer (named `buffer/index.js`, the package in
 * Node.js too rather than Node's own module), which follows Node's API, given what Node's does and
 * the package does not: UTF-8 as the Encoding standard writes and reads it (a lone surrogate or a
 * bad sequence is one U+FFFD each), hex read up to the first pair that is not hex, the base64url
 * encoding, `equals` with any Uint8Array, and `isUtf8`, as a strict UTF-8 decoder's verdict.
 */
import { Buffer } from 'buffer/index.js'

export { Buffer }

const packageFrom = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer
const packageToString = Buffer.prototype.toString
const utf8Encoder = new TextEncoder()
const utf8Decoder = new TextDecoder()
const strictUtf8Decoder = new TextDecoder('utf-8', { fatal: true })

const isUtf8Name = (encoding: unknown) => encoding === undefined || encoding === 'utf8' || encoding === 'utf-8'

Buffer.from = ((value: unknown, encodingOrOffset?: unknown, length?: unknown) => {
  if (typeof value !== 'string') return packageFrom(value, encodingOrOffset, length)
  if (isUtf8Name(encodingOrOffset)) return packageFrom(utf8Encoder.encode(value))
  if (encodingOrOffset === 'hex') return packageFrom(/^(?:[0-9a-fA-F]{2})*/.exec(value)![0], 'hex')
  // The package's base64 decoder reads the URL-safe alphabet too.
  return packageFrom(value, encodingOrOffset === 'base64url' ? 'base64' : encodingOrOffset)
}) as typeof Buffer.from

Buffer.prototype.toString = function (this: Buffer, encoding?: string, start?: number, end?: number): string {
  if (isUtf8Name(encoding)) return utf8Decoder.decode(this.subarray(start ?? 0, end ?? this.length))
  if (encoding !== 'base64url') return packageToString.call(this, encoding, start, end)
  return packageToString
    .call(this, 'base64', start, end)
    .replace(/=+$/, '')
    .replace(/[+/]/g, (character: string) => (character === '+' ? '-' : '_'))
}

Buffer.prototype.equals = function (this: Buffer, other: Uint8Array): boolean {
  return this.length === other.length && this.every((byte, index) => byte === other[index])
}

export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8Decoder.decode(bytes)
    return true
  } catch {
    return false
  }
}
