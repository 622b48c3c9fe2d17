import { defineRecogniser, suggest } from '../../core/recognise.ts'
import { engines } from './index.ts'

/** The longest text the URL Standard's parser reads for a guess, a few times the longest URL browsers keep. */
const URL_CHARACTERS = 16_384

export const url = defineRecogniser({
  type: 'url',
  label: 'URL',
  async recognise(text) {
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)
    if (!scheme) return undefined
    const name = scheme[1].toLowerCase()
    if (!text.startsWith('//', scheme[0].length) && name !== 'mailto' && name !== 'urn') return undefined
    if (text.length > URL_CHARACTERS || /\s/.test(text)) return undefined
    const { whatwg } = await engines()
    const parsed = whatwg.basicURLParse(text)
    if (parsed === null) return undefined
    const details: Record<string, unknown> = { scheme: name }
    if (typeof parsed.host === 'string') details.host = parsed.host
    return { confidence: 95, details, next: suggest('url-parse', { action: 'parse' }) }
  },
})
