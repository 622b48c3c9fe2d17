/** A compiled pattern, whichever the flavor, seen through the positions of its matches; and the walk over them that String.prototype's methods make. */

import { invalidInput } from '../../core/errors.ts'

export const FLAVORS = ['ecmascript', 're2'] as const
export type Flavor = (typeof FLAVORS)[number]

/** A capture group of the pattern, numbered from 1 as in `$1`. */
export interface GroupInfo {
  number: number
  name: string | null
}

/** One match: its span and the span of each capture group (undefined where the group took no part). */
export interface Found {
  index: number
  end: number
  captures: Array<readonly [number, number] | undefined>
}

/** A compiled pattern, whichever the flavor, seen only through the positions of its matches. */
export interface Matcher {
  groups: GroupInfo[]
  /** Whether the pattern has named groups: `$<` is literal text without them, as GetSubstitution says. */
  hasNames: boolean
  /** Whether an empty match steps over a whole surrogate pair rather than one code unit. */
  fullUnicode: boolean
  /** The first match at `from` or after it; with `sticky`, only one that starts at `from`. */
  exec(from: number, sticky: boolean): Found | null
  /** Whether there is a match at all (from 0; with `sticky`, at 0), where an engine can tell faster than by finding it. */
  test(sticky: boolean): boolean
}

/** Engines quote the pattern, or the part at fault, in their messages: a long one is cut short. */
const QUOTED_LENGTH = 80

function clipped(message: string, pattern: string): string {
  const short = (text: string) => (text.length > QUOTED_LENGTH ? `${text.slice(0, QUOTED_LENGTH)}…` : text)
  return message
    .split(pattern)
    .join(short(pattern))
    .replace(/`([^`]+)`/g, (_, quoted: string) => `\`${short(quoted)}\``)
}

export function compileError(flavor: Flavor, raw: string, pattern: string): Error {
  const message = clipped(raw, pattern)
  return invalidInput(`The pattern does not compile (${flavor}): ${message}`, { field: 'pattern', flavor, message })
}

/** AdvanceStringIndex (ECMA-262): past a whole surrogate pair when matching by code points. */
export function advance(input: string, index: number, fullUnicode: boolean): number {
  if (!fullUnicode || index + 1 >= input.length) return index + 1
  const first = input.charCodeAt(index)
  if (first < 0xd800 || first > 0xdbff) return index + 1
  const second = input.charCodeAt(index + 1)
  return second >= 0xdc00 && second <= 0xdfff ? index + 2 : index + 1
}

/**
 * The matches `String.prototype.match`, `matchAll` and `replace` visit: every one with `g` (an empty
 * match steps one character on), else the first; with `y` each must start where the last ended.
 */
export function* matchesOf(matcher: Matcher, input: string, global: boolean, sticky: boolean): Generator<Found> {
  let from = 0
  while (from <= input.length) {
    const found = matcher.exec(from, sticky)
    if (found === null) return
    yield found
    if (!global) return
    from = found.end === found.index ? advance(input, found.end, matcher.fullUnicode) : found.end
  }
}
