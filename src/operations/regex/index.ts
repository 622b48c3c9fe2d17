import type { RE2JS } from 're2js'
import { Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { UNTRUSTED_CALLS_PER_CLIENT } from '../../core/overrun.ts'
import { jsonStringBytes, WarningList } from '../../lib/json/value.ts'

const FLAVORS = ['ecmascript', 're2'] as const
type Flavor = (typeof FLAVORS)[number]
const ACTIONS = ['test', 'match', 'replace', 'split'] as const
type Action = (typeof ACTIONS)[number]

export const MAX_PATTERN_LENGTH = 10_000
export const MAX_REPLACEMENT_LENGTH = 10_000
export const MAX_MATCHES = 100_000
/** Split answers at most this many pieces; more is refused rather than cut short (unless `limit` asks for fewer). */
export const MAX_SPLIT_PIECES = 100_000
/** `String.prototype.split`'s limit when none is given. */
const NO_LIMIT = 2 ** 32 - 1

/** The version of re2js bundled; a test checks it against the installed package. */
export const RE2JS_VERSION = '2.10.0'
export const RE2_ENGINE = `re2js ${RE2JS_VERSION}`
/** The JavaScript engine running the ECMAScript flavor: which syntax a pattern may use depends on it. */
export const ECMASCRIPT_ENGINE = `V8 ${process.versions.v8.split('.').slice(0, 2).join('.')} (Node ${process.version.slice(1)})`

/** The flags RE2 understands; `d` is accepted and changes nothing, since every match carries its positions. */
const RE2_FLAGS = new Set(['g', 'i', 'm', 's', 'd'])

/** What the answer may hold before it is refused, counted while it is built. */
class OutputBudget {
  used = 0
  add(units: number): void {
    this.used += units
    if (this.used > OUTPUT_LIMIT_BYTES) {
      throw limitExceeded(`The result would be larger than the ${OUTPUT_LIMIT_BYTES}-byte output limit; match fewer or shorter pieces`, {
        limit: OUTPUT_LIMIT_BYTES,
      })
    }
  }
}

/** What each match object and each group entry adds to the answer besides its text. */
const MATCH_OVERHEAD = 48
const GROUP_OVERHEAD = 64
const PIECE_OVERHEAD = 4

/** A capture group of the pattern, numbered from 1 as in `$1`. */
interface GroupInfo {
  number: number
  name: string | null
}

/** One match: its span and the span of each capture group (undefined where the group took no part). */
interface Found {
  index: number
  end: number
  captures: Array<readonly [number, number] | undefined>
}

/** A compiled pattern, whichever the flavor, seen only through the positions of its matches. */
interface Matcher {
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

function compileError(flavor: Flavor, raw: string, pattern: string): Error {
  const message = clipped(raw, pattern)
  return invalidInput(`The pattern does not compile (${flavor}): ${message}`, { field: 'pattern', flavor, message })
}

/** Syntax newer than some JavaScript engines, detected rather than assumed from a version number. */
const supports = (pattern: string) => {
  try {
    new RegExp(pattern)
    return true
  } catch {
    return false
  }
}
const SUPPORTS_DUPLICATE_NAMES = supports('(?<a>x)|(?<a>y)')
const SUPPORTS_MODIFIERS = supports('(?i:a)')

/** A hint for a pattern that uses syntax this engine lacks and a newer one has. */
function newerSyntaxHint(pattern: string): string {
  if (!SUPPORTS_MODIFIERS && /\(\?(?:[ims]+(?:-[ims]*)?|-[ims]+):/.test(pattern)) {
    return `; pattern modifiers such as (?i:…) need a newer JavaScript engine than ${ECMASCRIPT_ENGINE}`
  }
  if (!SUPPORTS_DUPLICATE_NAMES) {
    const names = [...pattern.matchAll(/\(\?<([^=!>][^>]*)>/g)].map((match) => match[1])
    if (new Set(names).size < names.length) return `; a group name used twice needs a newer JavaScript engine than ${ECMASCRIPT_ENGINE}`
  }
  return ''
}

/** `\uXXXX` and `\u{…}` in a group name, as the name's value. */
function decodeGroupName(raw: string): string {
  return raw.replace(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (_, braced: string | undefined, four: string | undefined) =>
    braced === undefined ? String.fromCharCode(Number.parseInt(four!, 16)) : String.fromCodePoint(Number.parseInt(braced, 16)),
  )
}

/**
 * The capture groups of an ECMAScript pattern in order, with their names: V8 reports which groups
 * matched but not which number each name has. Escapes and character classes are skipped (nested
 * classes with `v`); every other `(` not followed by `?` opens a group, and `(?<name>` a named one.
 */
function ecmascriptGroupsOf(pattern: string, setNotation: boolean): GroupInfo[] {
  const groups: GroupInfo[] = []
  let classDepth = 0
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\') {
      i++
    } else if (classDepth > 0) {
      if (c === '[' && setNotation) classDepth++
      else if (c === ']') classDepth--
    } else if (c === '[') {
      classDepth = 1
    } else if (c === '(') {
      if (pattern[i + 1] !== '?') groups.push({ number: groups.length + 1, name: null })
      else if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
        const close = pattern.indexOf('>', i + 3)
        groups.push({ number: groups.length + 1, name: decodeGroupName(pattern.slice(i + 3, close)) })
      }
    }
  }
  return groups
}

/** How many capture groups V8 sees: after an empty alternative, the pattern matches the empty text with every group unmatched. */
function groupCountOf(pattern: string, flags: string): number | undefined {
  try {
    return (new RegExp(`|${pattern}`, flags).exec('') as RegExpExecArray).length - 1
  } catch {
    return undefined
  }
}

function ecmascriptMatcher(pattern: string, flags: string, input: string): Matcher {
  try {
    new RegExp(pattern, flags)
  } catch (error) {
    throw compileError('ecmascript', (error as Error).message + newerSyntaxHint(pattern), pattern)
  }
  // A copy with `d` for the groups' positions, and `g` or `y` so that a search starts where asked.
  const bare = flags.replace(/[dgy]/g, '')
  const searching = new RegExp(pattern, `${bare}dg`)
  const anchored = new RegExp(pattern, `${bare}dy`)
  let groups = ecmascriptGroupsOf(pattern, flags.includes('v'))
  const groupCount = groupCountOf(pattern, bare) ?? groups.length
  if (groups.length !== groupCount) groups = Array.from({ length: groupCount }, (_, index) => ({ number: index + 1, name: null }))
  return {
    groups,
    hasNames: groups.some((group) => group.name !== null),
    fullUnicode: flags.includes('u') || flags.includes('v'),
    exec(from, sticky) {
      const regExp = sticky ? anchored : searching
      regExp.lastIndex = from
      const match = regExp.exec(input)
      if (match === null) return null
      const indices = match.indices!
      const captures: Found['captures'] = []
      for (let n = 1; n <= groupCount; n++) captures.push(indices[n])
      return { index: indices[0][0], end: indices[0][1], captures }
    },
    test(sticky) {
      return this.exec(0, sticky) !== null
    },
  }
}

type Re2js = typeof import('re2js')

let loadedRe2js: Re2js | undefined

/** re2js, loaded with the first RE2 pattern rather than with every start of the service. */
const loadRe2js = lazily(async () => {
  loadedRe2js = await import('re2js')
  return loadedRe2js
})

function re2Matcher({ RE2JS, RE2JSSyntaxException }: Re2js, pattern: string, flags: string, input: string): Matcher {
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(
      pattern,
      (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0) | (flags.includes('s') ? RE2JS.DOTALL : 0),
    )
  } catch (error) {
    // The class itself, not its name: a bundle renames classes.
    if (!(error instanceof RE2JSSyntaxException)) throw error
    throw compileError('re2', error.message.replace(/^error parsing regexp: /, ''), pattern)
  }
  const groupCount = compiled.groupCount()
  const names = new Map(Object.entries(compiled.namedGroups()).map(([name, number]) => [number, name]))
  const groups = Array.from({ length: groupCount }, (_, index) => ({ number: index + 1, name: names.get(index + 1) ?? null }))
  const matcher = compiled.matcher(input)
  return {
    groups,
    hasNames: names.size > 0,
    fullUnicode: true,
    exec(from) {
      if (!matcher.find(from)) return null
      const captures: Found['captures'] = []
      for (let n = 1; n <= groupCount; n++) {
        const start = matcher.start(n)
        captures.push(start < 0 ? undefined : [start, matcher.end(n)])
      }
      return { index: matcher.start(0), end: matcher.end(0), captures }
    },
    // Without groups to fill in, RE2 answers from its DFA, much faster than a search that tracks them.
    test: () => compiled.test(input),
  }
}

/** AdvanceStringIndex (ECMA-262): past a whole surrogate pair when matching by code points. */
function advance(input: string, index: number, fullUnicode: boolean): number {
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
function* matchesOf(matcher: Matcher, input: string, global: boolean, sticky: boolean): Generator<Found> {
  let from = 0
  while (from <= input.length) {
    const found = matcher.exec(from, sticky)
    if (found === null) return
    yield found
    if (!global) return
    from = found.end === found.index ? advance(input, found.end, matcher.fullUnicode) : found.end
  }
}

/** One piece of a replacement template, parsed once as GetSubstitution (ECMA-262) reads it. */
type TemplatePart = string | { kind: 'match' } | { kind: 'before' } | { kind: 'after' } | { kind: 'group'; number: number } | { kind: 'named'; name: string }

const DIGIT = /[0-9]/

/**
 * The replacement template as parts: `$$`, `$&`, `` $` ``, `$'`, `$n` and `$nn` (a two-digit number
 * past the group count is read as one digit and a literal one; `$0` and `$00` stay literal), and
 * `$<name>` when the pattern has named groups. Anything else after `$` is literal.
 */
function parseTemplate(template: string, groupCount: number, hasNames: boolean): TemplatePart[] {
  const parts: TemplatePart[] = []
  let literal = ''
  const flush = () => {
    if (literal !== '') parts.push(literal)
    literal = ''
  }
  let i = 0
  while (i < template.length) {
    const c = template[i]
    const next = template[i + 1]
    if (c !== '$' || next === undefined) {
      literal += c
      i++
    } else if (next === '$') {
      literal += '$'
      i += 2
    } else if (next === '&' || next === '`' || next === "'") {
      flush()
      parts.push({ kind: next === '&' ? 'match' : next === '`' ? 'before' : 'after' })
      i += 2
    } else if (DIGIT.test(next)) {
      let digitCount = DIGIT.test(template[i + 2] ?? '') ? 2 : 1
      let index = Number(template.slice(i + 1, i + 1 + digitCount))
      if (index > groupCount && digitCount === 2) {
        digitCount = 1
        index = Number(next)
      }
      if (index >= 1 && index <= groupCount) {
        flush()
        parts.push({ kind: 'group', number: index })
      } else literal += template.slice(i, i + 1 + digitCount)
      i += 1 + digitCount
    } else if (next === '<' && hasNames) {
      const close = template.indexOf('>', i + 2)
      if (close < 0) {
        literal += '$<'
        i += 2
      } else {
        flush()
        parts.push({ kind: 'named', name: template.slice(i + 2, close) })
        i = close + 1
      }
    } else {
      literal += '$'
      i++
    }
  }
  flush()
  return parts
}

/** A group's text in one match, or undefined when it took no part. */
function captureOf(found: Found, input: string, number: number): string | undefined {
  const span = found.captures[number - 1]
  return span === undefined ? undefined : input.slice(span[0], span[1])
}

/** The span of the named group that took part in the match (with duplicate names, at most one does). */
function namedSpan(found: Found, groups: GroupInfo[], name: string): readonly [number, number] | undefined {
  for (const group of groups) if (group.name === name && found.captures[group.number - 1] !== undefined) return found.captures[group.number - 1]
  return undefined
}

/** The span of the text each part stands for in one match, or a literal; the length is known before any text is copied. */
function spansOf(parts: TemplatePart[], found: Found, groups: GroupInfo[], length: number): Array<string | readonly [number, number]> {
  return parts.map((part) => {
    if (typeof part === 'string') return part
    if (part.kind === 'match') return [found.index, found.end] as const
    if (part.kind === 'before') return [0, found.index] as const
    if (part.kind === 'after') return [Math.min(found.end, length), length] as const
    if (part.kind === 'group') return found.captures[part.number - 1] ?? ''
    return namedSpan(found, groups, part.name) ?? ''
  })
}

function replaceAll(matcher: Matcher, input: string, template: string, global: boolean, sticky: boolean, budget: OutputBudget) {
  const parts = parseTemplate(template, matcher.groups.length, matcher.hasNames)
  let result = ''
  let next = 0
  let count = 0
  for (const found of matchesOf(matcher, input, global, sticky)) {
    const spans = spansOf(parts, found, matcher.groups, input.length)
    let length = found.index - next
    for (const span of spans) length += typeof span === 'string' ? span.length : span[1] - span[0]
    budget.add(length)
    result += input.slice(next, found.index)
    for (const span of spans) result += typeof span === 'string' ? span : input.slice(span[0], span[1])
    next = found.end
    count++
  }
  budget.add(input.length - next)
  result += input.slice(next)
  return { result, count }
}

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

const groupInfoSchema = Type.Object({
  number: Type.Integer({ minimum: 1, description: 'The group number, as `$1` names it.' }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'The group name (`(?<name>…)`, or `(?P<name>…)` in RE2), or null.' }),
})

const matchSchema = Type.Object({
  match: Type.String({ description: 'The matched text.' }),
  index: Type.Integer({ description: 'Where the match starts, in UTF-16 code units from 0.' }),
  end: Type.Integer({ description: 'Where the match ends (exclusive), in UTF-16 code units.' }),
  groups: Type.Array(
    Type.Object({
      number: Type.Integer({ description: 'The group number.' }),
      name: Type.Union([Type.String(), Type.Null()], { description: 'The group name, or null.' }),
      value: Type.Union([Type.String(), Type.Null()], { description: 'The text the group captured, or null when it took no part in the match.' }),
      index: Type.Union([Type.Integer(), Type.Null()], { description: 'Where the capture starts, in UTF-16 code units, or null.' }),
      end: Type.Union([Type.Integer(), Type.Null()], { description: 'Where the capture ends (exclusive), or null.' }),
    }),
    { description: 'Every capture group of the pattern, in order.' },
  ),
})

const FLAGS_PATTERN = '^(?!.*(.).*\\1)(?!.*u.*v)(?!.*v.*u)[dgimsuvy]*$'

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
function answerWith(matcher: Matcher, { input, flags, flavor, action, replacement, maxMatches, limit }: Fields) {
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

export const regex = defineOperation({
  name: 'regex',
  category: 'converters',
  summary: 'Test, match, replace or split text with a regular expression (JavaScript or RE2 syntax)',
  title: 'Regular expression tester',
  aliases: ['regexp', 'regular expression', 'pattern', 'match', 'find all', 'replace', 'search and replace', 'split', 'capture groups', 're2', 'regex101'],
  description:
    'Runs a regular expression over `input`. With `flavor: ecmascript` (the default) the pattern and `flags` are JavaScript’s (ECMA-262 RegExp, `dgimsuvy`), run by the JavaScript engine named in `engine`; ' +
    'syntax it lacks (duplicate group names or `(?i:…)` modifiers on older engines) is a 422. A backtracking pattern can take exponential time, so it always runs on a worker thread with a short time budget: ' +
    'a pattern stopped there (catastrophic backtracking, such as `(a+)+$`) is refused; `flavor: re2` runs in time linear in the input, on a worker thread too, within the same budget (its cost also grows with the pattern). ' +
    '`flavor: re2` takes RE2 (Go) syntax through re2js and the flags `g`, `i`, `m`, `s` (`d` is accepted and implied): no backreferences, lookarounds, `\\uXXXX` or `\\cX` escapes (use `\\x{…}`), ' +
    '`\\s` is ASCII whitespace only, `.` matches `\\r`, and set operations such as `[\\p{L}--[a-z]]` are not understood (they are read as another class). ' +
    'Actions follow JavaScript, on a fresh pattern: `test` is `RegExp.prototype.test` (with `y`, anchored at 0); `match` answers every match with `g`, else the first, at most `maxMatches` (`truncated` says more existed), each with its groups and positions; ' +
    '`replace` replaces every match with `g`, else the first, expanding `$$ $& $` + "`" + ` $\' $n $nn $<name>` as GetSubstitution does (for both flavors); ' +
    '`split` is `String.prototype.split` (ignores `g` and `y`, splices captures in, with null for a group that took no part, keeps trailing empty strings, `limit` keeps the first pieces). ' +
    '`replacement` is required for `replace` and `limit` belongs to `split`: either given to another action is a 400, as are flags RE2 does not take. ' +
    'Positions are UTF-16 code units from 0. An empty match steps on by one code unit, or by one code point with `u`, `v` and for RE2. A pattern without `u` or `v` can match half of a surrogate pair: such a result is listed in `warnings` (JSON writes it as a `\\uD83D` escape). ' +
    `A pattern that does not compile is a 422 INVALID_INPUT with the engine's message (\`details.field: "pattern"\`); a result over 16 MiB, or more than ${MAX_SPLIT_PIECES} split pieces, is a 422 LIMIT_EXCEEDED, refused while it is built; ` +
    `a pattern stopped at the time budget is a 422 LIMIT_EXCEEDED with \`details.reason: "timeout"\`, and one client may have only ${UNTRUSTED_CALLS_PER_CLIENT} calls of regex or jq running at once (429).`,
  input: Type.Object(
    {
      pattern: Type.String({
        minLength: 1,
        maxLength: MAX_PATTERN_LENGTH,
        description: 'The regular expression, without delimiters.',
        examples: ['(\\d+)-(\\d+)'],
      }),
      input: Type.String({ description: 'The text to search. May be empty.', examples: ['10-20, 30-40'] }),
      flags: withDefault(
        Type.String({
          pattern: FLAGS_PATTERN,
          maxLength: 8,
          description: 'Any of `dgimsuvy`, each at most once, not `u` with `v`. RE2 takes `g`, `i`, `m` and `s` (and `d`).',
        }),
        'g',
      ),
      flavor: withDefault(Type.Enum(FLAVORS, { description: 'The syntax and engine: `ecmascript` (JavaScript’s own) or `re2` (linear time).' }), 'ecmascript'),
      action: withDefault(
        Type.Enum(ACTIONS, { description: '`test` (whether it matches), `match` (the matches), `replace` (with `replacement`) or `split`.' }),
        'match',
      ),
      replacement: Type.Optional(
        Type.String({
          maxLength: MAX_REPLACEMENT_LENGTH,
          description: 'replace only, required there: the replacement, with `$$ $& $` + "`" + ` $\' $n $nn $<name>` as in JavaScript.',
        }),
      ),
      maxMatches: withDefault(Type.Integer({ minimum: 1, maximum: MAX_MATCHES, description: 'match: the most matches to answer.' }), 1000),
      limit: Type.Optional(
        Type.Integer({ minimum: 0, maximum: MAX_SPLIT_PIECES, description: 'split only: the most pieces to answer, as `String.prototype.split`’s limit.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.Boolean(), Type.String(), Type.Array(matchSchema), Type.Array(Type.Union([Type.String(), Type.Null()]))], {
      description:
        'test: whether it matches; match: the matches; replace: the new text; split: the pieces (a capture group that took no part in a separator’s match gives null, where JavaScript gives undefined).',
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    flavor: Type.Enum(FLAVORS, { description: 'The flavor used.' }),
    count: Type.Integer({ description: 'test: 1 or 0; match: the matches answered; replace: the replacements made; split: the pieces.' }),
    truncated: Type.Boolean({ description: 'match: more than `maxMatches` matches existed.' }),
    groups: Type.Array(groupInfoSchema, { description: 'The capture groups of the pattern, in order.' }),
    engine: Type.String({ description: 'The engine that ran the pattern and its version (for ecmascript, V8’s and Node’s).' }),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'What to know about the result, such as lone surrogates in it.' })),
  }),
  actions: {
    test: { fields: ['pattern', 'input', 'flags', 'flavor'] },
    match: { fields: ['pattern', 'input', 'flags', 'flavor', 'maxMatches'] },
    replace: { fields: ['pattern', 'input', 'flags', 'flavor', 'replacement'], requires: ['replacement'] },
    split: { fields: ['pattern', 'input', 'flags', 'flavor', 'limit'] },
  },
  examples: [
    {
      summary: 'Every match with its groups, in RE2 syntax (linear time)',
      input: { pattern: '(?P<key>\\w+)=(?P<value>\\d+)', input: 'a=1, b=22', flavor: 're2' },
      output: {
        result: [
          {
            match: 'a=1',
            index: 0,
            end: 3,
            groups: [
              { number: 1, name: 'key', value: 'a', index: 0, end: 1 },
              { number: 2, name: 'value', value: '1', index: 2, end: 3 },
            ],
          },
          {
            match: 'b=22',
            index: 5,
            end: 9,
            groups: [
              { number: 1, name: 'key', value: 'b', index: 5, end: 6 },
              { number: 2, name: 'value', value: '22', index: 7, end: 9 },
            ],
          },
        ],
        action: 'match',
        flavor: 're2',
        count: 2,
        truncated: false,
        groups: [
          { number: 1, name: 'key' },
          { number: 2, name: 'value' },
        ],
        engine: RE2_ENGINE,
      },
    },
    {
      summary: 'Replace with named groups (JavaScript)',
      input: { pattern: '(?<first>\\w+) (?<last>\\w+)', input: 'John Smith', action: 'replace', replacement: '$<last>, $<first>' },
      output: {
        result: 'Smith, John',
        action: 'replace',
        flavor: 'ecmascript',
        count: 1,
        truncated: false,
        groups: [
          { number: 1, name: 'first' },
          { number: 2, name: 'last' },
        ],
        engine: ECMASCRIPT_ENGINE,
      },
    },
    {
      summary: 'Split, keeping the separators captured',
      input: { pattern: '\\s*([,;])\\s*', input: 'a, b;c', action: 'split' },
      output: {
        result: ['a', ',', 'b', ';', 'c'],
        action: 'split',
        flavor: 'ecmascript',
        count: 5,
        truncated: false,
        groups: [{ number: 1, name: null }],
        engine: ECMASCRIPT_ENGINE,
      },
    },
    {
      summary: 'Test, case-insensitive',
      input: { pattern: '^hello', input: 'Hello, world', flags: 'i', action: 'test' },
      output: { result: true, action: 'test', flavor: 'ecmascript', count: 1, truncated: false, groups: [], engine: ECMASCRIPT_ENGINE },
    },
  ],
  // A backtracking pattern a few characters long can run for ever, so ECMAScript patterns always run where they can be stopped.
  // re2js is linear in the input, but its cost grows with the pattern's groups and size too: a short
  // input under a pattern of hundreds of groups still takes seconds. Both flavors run where a budget
  // can stop them.
  offload: () => true,
  overrun: {
    advice:
      'a pattern that backtracks catastrophically (nested quantifiers such as (a+)+$ take exponential time) runs this long; simplify it, or use flavor re2, which runs in linear time',
    budget: 'regexTimeBudgetMs',
    interruptible: true,
  },
  run(fields) {
    const { pattern, input, flags, flavor, action, replacement, limit } = fields
    if (flavor === 're2') {
      const refused = [...flags].filter((flag) => !RE2_FLAGS.has(flag))
      if (refused.length > 0) throw validationError('flags', `takes only g, i, m and s (and d, implied) with flavor re2, not ${refused.join(', ')}`)
    }
    if (action === 'replace' && replacement === undefined) throw validationError('replacement', 'is required for action replace')
    if (action !== 'replace' && replacement !== undefined) throw validationError('replacement', `is only for action replace, not ${action}`)
    if (action !== 'split' && limit !== undefined) throw validationError('limit', `is only for action split, not ${action}`)
    // Once re2js is loaded, a pattern runs in the same turn, where a worker can stop it past its budget.
    if (flavor === 're2' && loadedRe2js !== undefined) return answerWith(re2Matcher(loadedRe2js, pattern, flags, input), fields)
    if (flavor === 're2') return loadRe2js().then((re2js) => answerWith(re2Matcher(re2js, pattern, flags, input), fields))
    // ECMAScript patterns are answered in the same turn: nothing to load.
    return answerWith(ecmascriptMatcher(pattern, flags, input), fields)
  },
})
