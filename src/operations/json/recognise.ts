import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { parseOrRefuse } from '../../lib/json/text-tree.ts'

export const json = defineRecogniser({
  type: 'json',
  label: 'JSON',
  recognise(text) {
    if (text[0] !== '{' && text[0] !== '[') return undefined
    const parsed = unlessRefused(() => parseOrRefuse(text, false))
    if (parsed === undefined || parsed.root.kind === 'literal') return undefined
    const { root } = parsed
    const details = root.kind === 'object' ? { kind: 'object', members: root.members.length } : { kind: 'array', items: root.items.length }
    return { confidence: 95, details, next: suggest('json', { action: 'format' }) }
  },
})
