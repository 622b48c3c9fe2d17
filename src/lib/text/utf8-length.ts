/** Node.js's own count; a browser has no Buffer. */
const nodeByteLength = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer?.byteLength

/**
 * The number of bytes `text` takes in UTF-8, each lone surrogate as the three bytes of U+FFFD (as
 * TextEncoder and Node.js write it), counted without writing them, for the output bounds that must
 * hold before an answer is made. Node.js counts natively, many times faster than any loop over the
 * code units, and the service measures megabytes with it; a browser, which has no Buffer, counts
 * with countUtf8Length.
 */
export function utf8Length(text: string): number {
  return nodeByteLength === undefined ? countUtf8Length(text) : nodeByteLength(text, 'utf8')
}

/** utf8Length counted over the code units: what a browser runs. */
export function countUtf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) continue
    if (unit < 0x800) {
      bytes += 1
    } else if (isLeadSurrogate(unit) && isTrailSurrogate(text.charCodeAt(i + 1))) {
      // Two code units, four bytes.
      bytes += 2
      i++
    } else {
      bytes += 2
    }
  }
  return bytes
}

const isLeadSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff
const isTrailSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff
