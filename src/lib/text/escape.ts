import { limitExceeded } from '../../core/errors.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { utf8Length } from './utf8-length.ts'

/**
 * Replaces each code unit that `pattern` matches with `replacementFor(unit)` and wraps the result in
 * `open` … `close`: the core of every escaping operation. `pattern` must be a global regular
 * expression without the `u` flag that matches one UTF-16 code unit at a time; replacements must be
 * ASCII. Escaping can multiply the size of its input, so the UTF-8 size of the result is counted as
 * it is built, and the work stops as soon as it passes the output limit.
 */
export function replaceCodeUnits(text: string, pattern: RegExp, replacementFor: (unit: number) => string, open = '', close = open): string {
  let size = utf8Length(text) + open.length + close.length
  if (size > OUTPUT_LIMIT_BYTES) throw outputTooLarge()
  const body = text.replace(pattern, (char) => {
    const unit = char.charCodeAt(0)
    const replacement = replacementFor(unit)
    size += replacement.length - utf8SizeOfCodeUnit(unit)
    if (size > OUTPUT_LIMIT_BYTES) throw outputTooLarge()
    return replacement
  })
  return open + body + close
}

function outputTooLarge() {
  return limitExceeded(`The escaped result would be larger than the ${OUTPUT_LIMIT_BYTES}-byte output limit`, { limit: OUTPUT_LIMIT_BYTES })
}

/** A surrogate counts 2: the pair it belongs to takes 4 bytes in UTF-8. */
function utf8SizeOfCodeUnit(unit: number): number {
  if (unit < 0x80) return 1
  if (unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff)) return 2
  return 3
}

/** A global pattern matching exactly the given code units, for `replaceCodeUnits`. */
export function codeUnitPattern(units: Iterable<number>): RegExp {
  const members = [...units].map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
  return new RegExp(`[${members.join('')}]`, 'g')
}
