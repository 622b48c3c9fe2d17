import { defineRecogniser, suggest } from '../../core/recognise.ts'
import { pastedBase64Bytes } from '../../lib/bytes/pasted-base64.ts'
import { printableText } from '../../lib/text/printable.ts'

/** Letters, digits, white space, other: text of two or more kinds reads as words rather than noise. */
function characterClasses(text: string): number {
  let classes = 0
  if (/\p{L}/u.test(text)) classes++
  if (/\p{N}/u.test(text)) classes++
  if (/\s/.test(text)) classes++
  if (/[^\p{L}\p{N}\s]/u.test(text)) classes++
  return classes
}

/** 70, 45 or 35 for bytes that read as mixed text, as text, or as neither. */
function decodedConfidence(bytes: Uint8Array): number {
  const text = printableText(bytes)
  return text === undefined ? 35 : characterClasses(text) >= 2 ? 70 : 45
}

/** Decoding fields for bytes: as text where they are UTF-8, otherwise as hex (the decoder refuses to guess). */
const decodeFields = (bytes: Uint8Array) => (printableText(bytes) === undefined ? { action: 'decode', outputEncoding: 'hex' } : { action: 'decode' })

export const base64 = defineRecogniser({
  type: 'base64',
  label: 'Base64',
  encoding: true,
  recognise(text) {
    const bytes = pastedBase64Bytes(text, 'standard')
    return bytes && { confidence: decodedConfidence(bytes), details: { bytes: bytes.length }, next: suggest('base64', decodeFields(bytes)) }
  },
})

export const base64url = defineRecogniser({
  type: 'base64url',
  label: 'Base64url',
  encoding: true,
  recognise(text) {
    if (!/[-_]/.test(text)) return undefined
    const bytes = pastedBase64Bytes(text, 'url')
    return (
      bytes && { confidence: decodedConfidence(bytes), details: { bytes: bytes.length }, next: suggest('base64', { ...decodeFields(bytes), variant: 'url' }) }
    )
  },
})
