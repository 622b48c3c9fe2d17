import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { inspectUuid } from './index.ts'

/** 8-4-4-4-12, bare, in braces or as a URN; 32 hex digits without hyphens are read as a hash or hex instead. */
const UUID_SHAPE = /^(?:urn:uuid:|\{)?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\}?$/i

export const uuid = defineRecogniser({
  type: 'uuid',
  label: 'UUID (RFC 9562)',
  recognise(text) {
    if (text.length > 45 || !UUID_SHAPE.test(text)) return undefined
    const found = unlessRefused(() => inspectUuid(text))
    if (found === undefined) return undefined
    const details: Record<string, unknown> = { version: found.version, variant: found.variant }
    if (found.time !== undefined) details.time = found.time
    return { confidence: found.standard ? 100 : 80, details, next: suggest('uuid', { action: 'inspect' }) }
  },
})
