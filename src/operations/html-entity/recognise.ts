import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { decodeEntities } from './index.ts'

export const htmlEntities = defineRecogniser({
  type: 'htmlEntities',
  label: 'Text with HTML character references',
  recognise(text) {
    if (!/&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/.test(text)) return undefined
    const decoded = unlessRefused(() => decodeEntities(text, false))
    return decoded === undefined || decoded === text ? undefined : { confidence: 75, details: {}, next: suggest('html-entity', { action: 'decode' }) }
  },
})
