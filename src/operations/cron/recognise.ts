import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { describe, parseCron } from './index.ts'

export const cron = defineRecogniser({
  type: 'cron',
  label: 'Cron expression',
  recognise(text) {
    if (text.length > 256) return undefined
    const fields = text.split(/\s+/)
    if (fields.length < 5 || fields.length > 6 || !fields.every((field) => /^[0-9A-Za-z*/,?#-]+$/.test(field))) return undefined
    const schedule = unlessRefused(() => parseCron(text))
    return schedule && { confidence: 85, details: { fields: fields.length, description: describe(schedule) }, next: suggest('cron') }
  },
})
