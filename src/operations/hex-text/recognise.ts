import { defineRecogniser, suggest } from '../../core/recognise.ts'
import { printableText } from '../../lib/text/printable.ts'

export const hex = defineRecogniser({
  type: 'hex',
  label: 'Hex bytes',
  encoding: true,
  recognise(text) {
    const body = text.replace(/^0[xX]/, '')
    let digits: string
    if (/^[0-9A-Fa-f]+$/.test(body)) digits = body
    else if (/^[0-9A-Fa-f]{2}(?:[ :][0-9A-Fa-f]{2})+$/.test(body) && !(body.includes(' ') && body.includes(':'))) digits = body.replace(/[ :]/g, '')
    else return undefined
    // One byte is hex only with a letter in it: 42 is a number first.
    if (digits.length % 2 !== 0 || (digits.length < 4 && !/[A-Fa-f]/.test(digits))) return undefined
    const bytes = Buffer.from(digits, 'hex')
    const printable = printableText(bytes) !== undefined
    // Bytes that are not UTF-8 text still decode, one character per byte, as Latin-1.
    return {
      confidence: printable ? 65 : 40,
      details: { bytes: bytes.length },
      next: suggest('hex-text', printable ? { action: 'hexToText' } : { action: 'hexToText', encoding: 'latin1' }),
    }
  },
})
