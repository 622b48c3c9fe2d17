import { defineRecogniser, isPlausibleTime, suggest } from '../../core/recognise.ts'
import { readTimestampText } from '../../lib/time/timestamps.ts'
import { MAX_DIGITS } from './index.ts'

export const integer = defineRecogniser({
  type: 'integer',
  label: 'Integer',
  recognise(text) {
    if (!/^[+-]?\d+$/.test(text)) return undefined
    // Digits that are a plausible Unix timestamp are one.
    const timestamp = /^[+-]?\d{9,19}$/.test(text) ? readTimestampText(text) : undefined
    if (timestamp !== undefined && isPlausibleTime(timestamp.instant)) return undefined
    const digits = text.replace(/^[+-]/, '').length
    return { confidence: 30, details: { digits }, next: digits <= MAX_DIGITS ? suggest('base-convert') : null }
  },
})
