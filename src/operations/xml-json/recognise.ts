import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { fastXmlParser, xmlToJson } from './index.ts'

export const xml = defineRecogniser({
  type: 'xml',
  label: 'XML',
  async recognise(text) {
    if (!/^(?:<\?xml[\s?]|<[A-Za-z_])/.test(text)) return undefined
    const parser = await fastXmlParser()
    const converted = unlessRefused(() => xmlToJson(parser, text, { attributePrefix: '@', textKey: '#text' }, false))
    if (converted === undefined) return undefined
    const root = Object.keys(converted.result as object).find((key) => key !== '?xml')
    return { confidence: 90, details: root === undefined ? {} : { root }, next: suggest('xml-json', { action: 'xmlToJson' }) }
  },
})
