/** Each action's answer over a compiled pattern: test, match, replace and split. */

import { limitExceeded } from '../../core/errors.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { jsonStringBytes, WarningList } from '../../lib/json/value.ts'
import { ECMASCRIPT_ENGINE } from './ecmascript.ts'
import { advance, type Flavor, type Matcher, matchesOf } from './matcher.ts'
import { GROUP_OVERHEAD, MATCH_OVERHEAD, OutputBudget, PIECE_OVERHEAD } from './output-budget.ts'
import { RE2_ENGINE } from './re2.ts'
import { captureOf, replaceAll } from './replace.ts'

export const ACTIONS = ['test', 'match', 'replace', 'split'] as const
type Action = (typeof ACTIONS)[number]
/** Split answers at most this many pieces; more is refused rather than cut short (unless `limit` asks for fewer). */
export const MAX_SPLIT_PIECES = 100_000
/** `String.prototype.split`'s limit when none is given. */
const NO_LIMIT = 2 ** 32 - 1

/**
 * `String.prototype.split` with a RegExp (ECMA-262 `RegExp.prototype[@@split]`): a match that is
 * empty where the last piece began is stepped over, captures are spliced in, `limit` cuts the list.
 * The specification tries a sticky match at each position; searching forward finds the same
 * matches, since a search tries the same positions in the same order.
 */
function split(matcher: Matcher, input: string, limit: number, budget: OutputBudget): Array<string | null> {
  const pieces: Array<string | null> = []
  if (limit === 0) return pieces
  const push = (piece: string | null): boolean => {
    if (pieces.length >= MAX_SPLIT_PIECES) {
      throw limitExceeded(`The split would give more than ${MAX_SPLIT_PIECES} pieces; set limit to keep the first ones`, { limit: MAX_SPLIT_PIECES })
    }
    budget.add((piece?.length ?? 4) + PIECE_OVERHEAD)
    pieces.push(piece)
    return pieces.length === limit
  }
  const size = input.length
  if (size === 0) {
    if (matcher.exec(0, false) === null) pieces.push(input)
    return pieces
  }
  let p = 0
  let q = 0
  while (q < size) {
    const found = matcher.exec(q, false)
    if (found === null || found.index >= size) break
    q = found.index
    const e = Math.min(found.end, size)
    if (e === p) {
      q = advance(input, q, matcher.fullUnicode)
      continue
    }
    if (push(input.slice(p, q))) return pieces
    p = e
    for (let n = 1; n <= matcher.groups.length; n++) if (push(captureOf(found, input, n) ?? null)) return pieces
    q = p
  }
  push(input.slice(p))
  return pieces
}

interface Answer {
  result: boolean | string | Array<string | null> | MatchEntry[]
  count: number
  truncated: boolean
}

interface MatchEntry {
  match: string
  index: number
  end: number
  groups: Array<{ number: number; name: string | null; value: string | null; index: number | null; end: number | null }>
}

function matchAll(matcher: Matcher, input: string, global: boolean, sticky: boolean, maxMatches: number, budget: OutputBudget) {
  const matches: MatchEntry[] = []
  let truncated = false
  // Every match repeats each group's name: a long name over many matches is as large as their text.
  const groupsSize = matcher.groups.reduce((size, { name }) => size + GROUP_OVERHEAD + (name === null ? 0 : jsonStringBytes(name)), 0)
  for (const found of matchesOf(matcher, input, global, sticky)) {
    if (matches.length === maxMatches) {
      truncated = true
      break
    }
    let size = MATCH_OVERHEAD + found.end - found.index + groupsSize
    for (const span of found.captures) if (span !== undefined) size += span[1] - span[0]
    budget.add(size)
    matches.push({
      match: input.slice(found.index, found.end),
      index: found.index,
      end: found.end,
      groups: matcher.groups.map(({ number, name }) => {
        const span = found.captures[number - 1]
        return span === undefined
          ? { number, name, value: null, index: null, end: null }
          : { number, name, value: input.slice(span[0], span[1]), index: span[0], end: span[1] }
      }),
    })
  }
  return { matches, truncated }
}

/** The strings of the result, for the exact size and the lone-surrogate check. */
function stringsOf(result: Answer['result']): Iterable<string> {
  if (typeof result === 'boolean') return []
  if (typeof result === 'string') return [result]
  return (function* () {
    for (const item of result) {
      if (typeof item === 'string') yield item
      else if (item !== undefined && item !== null && typeof item === 'object') {
        yield item.match
        for (const group of item.groups) {
          if (group.name !== null) yield group.name
          if (group.value !== null) yield group.value
        }
      }
    }
  })()
}

/** The fields `answerWith` reads, once the schema has checked them. */
interface Fields {
  input: string
  flags: string
  flavor: Flavor
  action: Action
  replacement?: string
  maxMatches: number
  limit?: number
}

/** Runs the action over `matcher` and answers, within the output limit. */
export function answerWith(matcher: Matcher, { input, flags, flavor, action, replacement, maxMatches, limit }: Fields) {
  const global = flags.includes('g')
  const sticky = flags.includes('y')
  const budget = new OutputBudget()
  let answer: Answer
  switch (action as Action) {
    case 'test': {
      const matched = matcher.test(sticky)
      answer = { result: matched, count: matched ? 1 : 0, truncated: false }
      break
    }
    case 'match': {
      const { matches, truncated } = matchAll(matcher, input, global, sticky, maxMatches, budget)
      answer = { result: matches, count: matches.length, truncated }
      break
    }
    case 'replace': {
      const { result, count } = replaceAll(matcher, input, replacement!, global, sticky, budget)
      answer = { result, count, truncated: false }
      break
    }
    case 'split': {
      const pieces = split(matcher, input, limit ?? NO_LIMIT, budget)
      answer = { result: pieces, count: pieces.length, truncated: false }
    }
  }
  const warnings = new WarningList()
  let lone = 0
  let bytes = 0
  const exact = budget.used * 6 > OUTPUT_LIMIT_BYTES
  for (const text of stringsOf(answer.result)) {
    if (!text.isWellFormed()) lone++
    if (exact) bytes += jsonStringBytes(text)
  }
  if (bytes > OUTPUT_LIMIT_BYTES) {
    throw limitExceeded(`The result would be about ${bytes} bytes of JSON, more than the ${OUTPUT_LIMIT_BYTES}-byte output limit`, {
      limit: OUTPUT_LIMIT_BYTES,
      predicted: bytes,
    })
  }
  if (lone > 0) {
    warnings.add(
      `${lone === 1 ? 'One string' : `${lone} strings`} of the result hold a lone surrogate (half of a character outside the Basic Multilingual Plane, split by a pattern without the u or v flag); JSON writes it as a \\uXXXX escape`,
    )
  }
  const list = warnings.list()
  return {
    result: answer.result,
    action,
    flavor,
    count: answer.count,
    truncated: answer.truncated,
    groups: matcher.groups,
    engine: flavor === 're2' ? RE2_ENGINE : ECMASCRIPT_ENGINE,
    ...(list.length > 0 && { warnings: list }),
  }
}
