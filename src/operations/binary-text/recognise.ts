import { defineRecogniser, suggest } from '../../core/recognise.ts'
import { printableText } from '../../lib/text/printable.ts'

export const binary = defineRecogniser({
  type: 'binary',
  label: 'Binary (bytes as 8 bits)',
  recognise(text) {
    if (!/^[01]{8}(?:[ ]?[01]{8})*$/.test(text)) return undefined
    const digits = text.replaceAll(' ', '')
    const bytes = Uint8Array.from({ length: digits.length / 8 }, (_, index) => Number.parseInt(digits.slice(index * 8, index * 8 + 8), 2))
    // Bytes that are not UTF-8 text still decode, one character per byte, as Latin-1.
    const fields = printableText(bytes) === undefined ? { action: 'binaryToText', encoding: 'latin1' } : { action: 'binaryToText' }
    return { confidence: 80, details: { bytes: bytes.length }, next: suggest('binary-text', fields) }
  },
})
