import { Type } from 'typebox'
import { validationError } from '../../core/errors.ts'
import { withDefault } from '../../core/operation.ts'
import { randomBelow } from '../random/random.ts'

/**
 * What password and random-string share: alphabets as lists of code points, the exclusion fields,
 * unbiased drawing from an alphabet, and the entropy figure.
 */

export const UPPERCASE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
export const LOWERCASE = 'abcdefghijklmnopqrstuvwxyz'
export const DIGITS = '0123456789'

/** Characters easily mistaken for one another in print, dropped by `excludeSimilar`. */
export const SIMILAR_CHARACTERS = '0Oo1lI|'

export const excludeSimilarField = () =>
  withDefault(Type.Boolean({ description: `Leave out characters easily mistaken for one another: ${SIMILAR_CHARACTERS.split('').join(' ')}.` }), false)

export const excludeField = () =>
  Type.Optional(
    Type.String({
      maxLength: 1024,
      description: 'Characters to leave out, in any order (at most 1024). Characters that would not be drawn anyway are ignored.',
    }),
  )

/** A character for a message: printable ones as they are, others as U+XXXX. */
export function showCharacter(character: string): string {
  const code = character.codePointAt(0)!
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character) ? `'${character}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
}

/** The character (code point) at a UTF-16 position of `text`, shown as `showCharacter` shows it. */
export function showCharacterAt(text: string, index: number): string {
  return showCharacter(String.fromCodePoint(text.codePointAt(index)!))
}

/** The distinct characters (code points) of `text`; a repeated one is a 400 naming `field`. */
export function distinctCharacters(text: string, field: string): string[] {
  const characters = Array.from(text)
  const seen = new Set<string>()
  for (const character of characters) {
    if (seen.has(character)) throw validationError(field, `lists ${showCharacter(character)} more than once; each character may appear only once`)
    seen.add(character)
  }
  return characters
}

export interface Exclusions {
  exclude?: string
  excludeSimilar: boolean
}

/**
 * The alphabet without the excluded characters. If nothing is left, a 400 names the field that
 * emptied it (`excludeSimilar` when it alone did) and says what `what` is.
 */
export function applyExclusions(alphabet: readonly string[], { exclude, excludeSimilar }: Exclusions, what: string, remedy: string): string[] {
  const similarRemoved = excludeSimilar ? alphabet.filter((character) => !SIMILAR_CHARACTERS.includes(character)) : [...alphabet]
  if (similarRemoved.length === 0) throw validationError('excludeSimilar', `leaves no characters in ${what}; ${remedy}`)
  const excluded = new Set(Array.from(exclude ?? ''))
  const remaining = similarRemoved.filter((character) => !excluded.has(character))
  if (remaining.length === 0) throw validationError('exclude', `leaves no characters in ${what}; ${remedy}`)
  return remaining
}

/** One character drawn uniformly from the alphabet (rejection sampling in core/random). */
export function drawCharacter(alphabet: readonly string[]): string {
  return alphabet[randomBelow(alphabet.length)]
}

/** `length` characters drawn uniformly and independently from the alphabet. */
export function randomText(alphabet: readonly string[], length: number): string {
  let text = ''
  for (let i = 0; i < length; i++) text += drawCharacter(alphabet)
  return text
}

/** length × log2(alphabet size), rounded to 2 decimals: the entropy of a uniformly drawn string. */
export function entropyBits(length: number, alphabetSize: number): number {
  return Math.round(length * Math.log2(alphabetSize) * 100) / 100
}
