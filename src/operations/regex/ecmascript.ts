/** The ECMAScript flavor: the pattern compiled by the running engine (V8), its groups read from the pattern. */

import { compileError, type Found, type GroupInfo, type Matcher } from './matcher.ts'

/** The JavaScript engine running the ECMAScript flavor: which syntax a pattern may use depends on it. */
export const ECMASCRIPT_ENGINE = `V8 ${process.versions.v8.split('.').slice(0, 2).join('.')} (Node ${process.version.slice(1)})`

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

export function ecmascriptMatcher(pattern: string, flags: string, input: string): Matcher {
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
