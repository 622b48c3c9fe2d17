/** Queries as application/x-www-form-urlencoded pairs, read and written as URLSearchParams does. */

import type { WhatwgUrl } from '../../lib/net/url-standard.ts'

/** Counts query pairs up to just past the limit, without splitting the text. */
export function queryPairsOver(query: string, limit: number): boolean {
  let pairs = 0
  let start = 0
  while (start <= query.length) {
    let end = query.indexOf('&', start)
    if (end === -1) end = query.length
    if (end > start && ++pairs > limit) return true
    start = end + 1
  }
  return false
}

// The URLSearchParams of whatwg-url takes seconds over a long query, so the form encoding is done here, as the Standard writes it.

/** The application/x-www-form-urlencoded parser: `+` is a space, percent escapes are UTF-8 bytes. */
export function formPairs(whatwg: WhatwgUrl, query: string): Array<{ name: string; value: string }> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
  const decode = (text: string) => decoder.decode(whatwg.percentDecodeString(text.replaceAll('+', ' ')))
  const pairs: Array<{ name: string; value: string }> = []
  for (const sequence of query.split('&')) {
    if (sequence === '') continue
    const equals = sequence.indexOf('=')
    pairs.push(equals === -1 ? { name: decode(sequence), value: '' } : { name: decode(sequence.slice(0, equals)), value: decode(sequence.slice(equals + 1)) })
  }
  return pairs
}

/** A query pair given to build: `[name, value]` or `{ name, value }`. */
export type FormPair = readonly string[] | { name: string; value: string }

/** The application/x-www-form-urlencoded serializer: only alphanumerics and `*-._` stay as they are, a space becomes `+`. */
export function formText(pairs: ReadonlyArray<FormPair>): string {
  const encode = (text: string) =>
    encodeURIComponent(text)
      .replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
      .replaceAll('%20', '+')
  return pairs.map((pair) => ('name' in pair ? [pair.name, pair.value] : pair).map(encode).join('=')).join('&')
}
