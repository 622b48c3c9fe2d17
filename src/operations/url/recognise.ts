import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { percentDecode } from './index.ts'

export const percentEncoded = defineRecogniser({
  type: 'percentEncoded',
  label: 'Percent-encoded text (URL encoding)',
  recognise(text) {
    if (!/%[0-9A-Fa-f]{2}/.test(text)) return undefined
    const decoded = unlessRefused(() => percentDecode(text, 'component', false))
    return decoded === undefined ? undefined : { confidence: 80, details: {}, next: suggest('url', { action: 'decode' }) }
  },
})
