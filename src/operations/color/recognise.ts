import { colorsNamed } from 'culori/fn'
import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { parseColor } from './index.ts'

export const color = defineRecogniser({
  type: 'color',
  label: 'CSS colour',
  recognise(text) {
    if (text.length > 128) return undefined
    const hex = /^#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/.test(text)
    const functional = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/i.test(text)
    // culori also reads hex digits without their '#' ("deadbeef"), which CSS does not: a bare word must be a CSS named colour.
    const named = /^[A-Za-z]{3,20}$/.test(text) && (Object.hasOwn(colorsNamed, text.toLowerCase()) || text.toLowerCase() === 'transparent')
    if (!hex && !functional && !named) return undefined
    if (unlessRefused(() => parseColor(text, 'input')) === undefined) return undefined
    return { confidence: named ? 40 : 95, details: { notation: hex ? 'hex' : functional ? 'function' : 'name' }, next: suggest('color') }
  },
})
