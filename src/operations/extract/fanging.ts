/** Defanged indicators (`hxxp`, `[.]`, `[@]`): reading them back, and writing them. */

import { code, isAlnum } from './characters.ts'
import type { IndicatorType } from './scan.ts'

/** The defanged spellings read back (case-insensitive), and what each stands for. */
const DEFANGED = /\[\.\]|\(\.\)|\[dot\]|\(dot\)|\[:\/\/\]|\[:\]|\[@\]|\[at\]|\(at\)|h[x]{2}p(?=s?(?::|\[:))/gi
const FANGED: Record<string, string> = { '[.]': '.', '(.)': '.', '[dot]': '.', '(dot)': '.', '[://]': '://', '[:]': ':', '[@]': '@', '[at]': '@', '(at)': '@' }

/** Text with its defanged spellings undone, and where each of its characters was in the original. */
export interface Fanged {
  text: string
  /** `origin[k]` is the original position of character k; one entry past the end. Absent when nothing changed. */
  origin?: Int32Array
}

/** `hXxp` and `hXXp` are `http`, `HXXP` is `HTTP`, `Hxxp` is `Http`: as defang writes each, so that fang undoes it. */
const fangScheme = (token: string) => `${token[0]}${token === token.toUpperCase() ? 'TT' : 'tt'}${token[3]}`

export function fang(text: string): Fanged {
  const parts: string[] = []
  /** Per replaced token: where its replacement starts in the fanged text, where it was, its replacement's and its own length. */
  const tokens: Array<[number, number, number, number]> = []
  let last = 0
  let length = 0
  for (const match of text.matchAll(DEFANGED)) {
    const token = match[0]
    const at = match.index
    const isScheme = token.length === 4 && (token[0] === 'h' || token[0] === 'H')
    // hxxp inside a word (`shxxp`) is not a scheme.
    if (isScheme && isAlnum(code(text, at - 1))) continue
    const replacement = isScheme ? fangScheme(token) : FANGED[token.toLowerCase()]
    parts.push(text.slice(last, at), replacement)
    length += at - last
    tokens.push([length, at, replacement.length, token.length])
    length += replacement.length
    last = at + token.length
  }
  if (tokens.length === 0) return { text }
  parts.push(text.slice(last))
  const fanged = parts.join('')
  const origin = new Int32Array(fanged.length + 1)
  let k = 0
  let o = 0
  for (const [start, at, size, tokenLength] of tokens) {
    while (k < start) origin[k++] = o++
    // Every character of a replacement points at its token's start.
    for (let j = 0; j < size; j++) origin[k++] = at
    o = at + tokenLength
  }
  while (k <= fanged.length) origin[k++] = o++
  return { text: fanged, origin }
}

export const originOf = (fanged: Fanged, position: number) => (fanged.origin ? fanged.origin[position] : position)

/** Dots become `[.]`, `@` `[@]`, a colon of IPv6 `[:]`; a URL's `http` becomes `hxxp` and `://` `[://]`, and only its host's dots change. */
export function defangIndicator(type: IndicatorType, fangedText: string): string {
  const dots = (text: string) => text.replaceAll('.', '[.]')
  switch (type) {
    case 'ipv6':
      return fangedText.replaceAll(':', '[:]')
    case 'email': {
      const at = fangedText.lastIndexOf('@')
      return `${fangedText.slice(0, at)}[@]${dots(fangedText.slice(at + 1))}`
    }
    case 'url': {
      const separator = fangedText.indexOf('://')
      const written = separator < 0 ? '' : fangedText.slice(0, separator)
      const scheme = written.replace(/^(h)tt(ps?)$/i, (_, h, rest) => `${h}${written === written.toUpperCase() ? 'XX' : 'xx'}${rest}`)
      const rest = separator < 0 ? fangedText : fangedText.slice(separator + 3)
      const authorityEnd = rest.search(/[/?#]/)
      const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd)
      const userEnd = authority.lastIndexOf('@') + 1
      const hostPort = authority.slice(userEnd)
      const defangedHost = hostPort.startsWith('[') ? hostPort : dots(hostPort)
      return `${separator < 0 ? '' : `${scheme}[://]`}${authority.slice(0, userEnd)}${defangedHost}${authorityEnd < 0 ? '' : rest.slice(authorityEnd)}`
    }
    default:
      return dots(fangedText)
  }
}
