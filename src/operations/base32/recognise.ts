import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { decodeBase32 } from '../../lib/bytes/base32.ts'
import { printableText } from '../../lib/text/printable.ts'

export const base32 = defineRecogniser({
  type: 'base32',
  label: 'Base32 (RFC 4648)',
  encoding: true,
  recognise(text) {
    // Upper case as RFC 4648 writes it, or lower case with a digit in it, as OTP secrets are often
    // written (a lower-case word of letters alone is a word first).
    if (text.length < 8 || !(/^[A-Z2-7]+=*$/.test(text) || (/^[a-z2-7]+=*$/.test(text) && /[2-7]/.test(text)))) return undefined
    const bytes = unlessRefused(() => decodeBase32(text.toUpperCase(), 'rfc4648'))
    if (bytes === undefined) return undefined
    // Bytes that are not UTF-8 text are decoded as hex: the decoder refuses to guess.
    const fields = printableText(bytes) === undefined ? { action: 'decode', outputEncoding: 'hex' } : { action: 'decode' }
    return { confidence: 50, details: { bytes: bytes.length }, next: suggest('base32', fields) }
  },
})
