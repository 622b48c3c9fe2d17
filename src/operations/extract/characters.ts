/** The character classes the matchers read, by UTF-16 code unit (-1 past the text's end). */

export const code = (text: string, index: number) => (index < text.length ? text.charCodeAt(index) : -1)
export const isDigit = (c: number) => c >= 0x30 && c <= 0x39
export const isAlpha = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
export const isAlnum = (c: number) => isDigit(c) || isAlpha(c)
export const isWord = (c: number) => isAlnum(c) || c === 0x5f
export const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
export const isLabel = (c: number) => isAlnum(c) || c === 0x2d
/** The practical local-part characters (a subset of WHATWG HTML's valid e-mail address). */
export const isLocal = (c: number) => isAlnum(c) || c === 0x2e || c === 0x5f || c === 0x25 || c === 0x2b || c === 0x2d
export const isSchemeChar = (c: number) => isAlnum(c) || c === 0x2b || c === 0x2e || c === 0x2d
export const DOT = 0x2e
export const COLON = 0x3a
export const HYPHEN = 0x2d
export const SLASH = 0x2f
export const AT = 0x40

/** Ends a URL: white space, controls, and the characters RFC 3986 App. C says delimit URIs in text. */
export function endsUrl(c: number): boolean {
  if (c <= 0x20 || (c >= 0x7f && c <= 0xa0)) return true
  if (c === 0x3c || c === 0x3e || c === 0x22 || c === 0x60) return true
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200b) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/** GitHub Flavored Markdown's extended autolinks drop these at a link's end, and so do we, with `'` `"` and `;`. */
export const TRAILING = new Set([...'?!.,:*_~\'";'].map((char) => char.charCodeAt(0)))
