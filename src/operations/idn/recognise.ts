import { defineRecogniser, suggest } from '../../core/recognise.ts'
import { domainLabels } from '../../lib/net/domains.ts'

export const domain = defineRecogniser({
  type: 'domain',
  label: 'Domain name',
  async recognise(text) {
    const labels = await domainLabels(text)
    if (labels === undefined) return undefined
    const international = labels.some((label) => /^xn--/i.test(label) || /[^\p{ASCII}]/u.test(label))
    const action = /[^\p{ASCII}]/u.test(text) || !international ? 'toAscii' : 'toUnicode'
    return { confidence: international ? 85 : 70, details: { tld: labels[labels.length - 1].toLowerCase(), international }, next: suggest('idn', { action }) }
  },
})
