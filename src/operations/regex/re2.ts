/** The RE2 flavor, through re2js: linear-time matching, loaded with the first RE2 pattern. */

import type { RE2JS } from 're2js'
import { lazily } from '../../core/lazy.ts'
import { compileError, type Found, type Matcher } from './matcher.ts'

/** The version of re2js bundled; a test checks it against the installed package. */
export const RE2JS_VERSION = '2.10.0'
export const RE2_ENGINE = `re2js ${RE2JS_VERSION}`

/** The flags RE2 understands; `d` is accepted and changes nothing, since every match carries its positions. */
export const RE2_FLAGS = new Set(['g', 'i', 'm', 's', 'd'])

type Re2js = typeof import('re2js')

export let loadedRe2js: Re2js | undefined

/** re2js, loaded with the first RE2 pattern rather than with every start of the service. */
export const loadRe2js = lazily(async () => {
  loadedRe2js = await import('re2js')
  return loadedRe2js
})

export function re2Matcher({ RE2JS, RE2JSSyntaxException }: Re2js, pattern: string, flags: string, input: string): Matcher {
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
