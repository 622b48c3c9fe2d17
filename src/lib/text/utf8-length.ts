/**
 * The number of bytes `text` takes in UTF-8, each lone surrogate as the three bytes of U+FFFD (as
 * TextEncoder and Node.js write it), counted without writing them: the same in Node.js and in a
 * browser, for the output bounds that must hold before an answer is made.
 */
export function utf8Length(text: string): number {
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
