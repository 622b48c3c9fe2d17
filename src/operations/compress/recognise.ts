import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { pastedBase64Bytes } from '../../lib/bytes/pasted-base64.ts'
import { assertHeader } from './index.ts'

export const gzipBase64 = defineRecogniser({
  type: 'gzipBase64',
  label: 'gzip data in Base64',
  recognise(text) {
    const bytes = pastedBase64Bytes(text, 'standard')
    if (
      bytes === undefined ||
      bytes.length < 18 ||
      unlessRefused(() => {
        assertHeader(Buffer.from(bytes), 'gzip')
        return true
      }) === undefined
    )
      return undefined
    return { confidence: 85, details: { bytes: bytes.length }, next: suggest('compress', { action: 'decompress', format: 'gzip', inputEncoding: 'base64' }) }
  },
})
