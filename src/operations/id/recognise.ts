import { defineRecogniser, isPlausibleTime, suggest, unlessRefused } from '../../core/recognise.ts'
import { inspectId } from './index.ts'

export const ulid = defineRecogniser({
  type: 'ulid',
  label: 'ULID',
  recognise(text) {
    if (!/^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/.test(text)) return undefined
    const found = unlessRefused(() => inspectId(text))
    // Hex digits are Crockford symbols too: a time outside the window says this is more likely hex.
    return (
      found && {
        confidence: isPlausibleTime(found.unixMs) ? 90 : 40,
        details: { time: new Date(found.unixMs).toISOString() },
        next: suggest('id', { action: 'inspect', kind: 'ulid' }),
      }
    )
  },
})

export const objectId = defineRecogniser({
  type: 'objectId',
  label: 'MongoDB ObjectId',
  recognise(text) {
    if (!/^[0-9A-Fa-f]{24}$/.test(text)) return undefined
    const found = unlessRefused(() => inspectId(text))
    return (
      found && {
        confidence: isPlausibleTime(found.unixMs) ? 75 : 40,
        details: { time: new Date(found.unixMs).toISOString() },
        next: suggest('id', { action: 'inspect', kind: 'objectid' }),
      }
    )
  },
})

export const ksuid = defineRecogniser({
  type: 'ksuid',
  label: 'KSUID',
  recognise(text) {
    if (!/^[0-9A-Za-z]{27}$/.test(text)) return undefined
    const found = unlessRefused(() => inspectId(text))
    return found && { confidence: 70, details: { time: new Date(found.unixMs).toISOString() }, next: suggest('id', { action: 'inspect', kind: 'ksuid' }) }
  },
})
