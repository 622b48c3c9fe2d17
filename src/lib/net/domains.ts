import { lazily } from '../../core/lazy.ts'

/**
 * The IANA root zone's TLDs, loaded with the first call, each internationalised one in both its
 * forms: the list names them in Unicode (`рф`), and text carries them as often in their ASCII form
 * (`xn--p1ai`), which the URL standard's host parser, in Node.js and in browsers alike, gives.
 */
export const topLevelDomains = lazily(async () => {
  const names = (await import('tlds', { with: { type: 'json' } })).default as string[]
  return new Set(names.flatMap((name) => (/^[\x00-\x7f]*$/.test(name) ? [name] : [name, new URL(`http://${name}`).hostname])))
})

/** A domain's labels when every one is LDH (or non-ASCII, for IDNs) and the last is a TLD of the IANA root zone. */
export async function domainLabels(text: string): Promise<string[] | undefined> {
  if (text.length > 253 || !text.includes('.')) return undefined
  const labels = text.split('.')
  if (labels.length < 2) return undefined
  for (const label of labels) {
    if (label.length === 0 || label.length > 63 || label.startsWith('-') || label.endsWith('-')) return undefined
    if (!/^(?:[A-Za-z0-9-]|[^\p{ASCII}\s\p{P}\p{S}])+$/u.test(label)) return undefined
  }
  const tlds = await topLevelDomains()
  return tlds.has(labels[labels.length - 1].toLowerCase()) ? labels : undefined
}
