import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { createContext, runInContext } from 'node:vm'

/**
 * Runs test262's own files (test/fixtures/suites/test262-regexp) with their own assertions, in a
 * fresh realm whose RegExp.prototype[Symbol.replace] and [Symbol.split] answer through a function
 * given here (the regex operation) whenever the call is one the operation can take: a plain RegExp
 * and a string replacement. The realm's own method still runs first, for its side effects on
 * lastIndex that some files check; its answer is dropped.
 */

export const SUITE = new URL('./fixtures/suites/test262-regexp/', import.meta.url).pathname

export interface ReplaceCall {
  action: 'replace'
  pattern: string
  flags: string
  input: string
  replacement: string
}
export interface SplitCall {
  action: 'split'
  pattern: string
  flags: string
  input: string
  limit?: number
}
export type Route = (call: ReplaceCall | SplitCall) => string | Array<string | null>

export interface FileOutcome {
  file: string
  /** The calls the operation answered. */
  routed: number
  /** The calls left to the realm's own RegExp, with why. */
  skipped: string[]
  /** Why the file was not run at all, if it was not. */
  notRun?: string
  error?: unknown
}

const HARNESS = ['assert.js', 'sta.js', 'compareArray.js'].map((name) => readFileSync(join(SUITE, 'harness', name), 'utf8')).join('\n')

export function suiteFiles(): string[] {
  const files: string[] = []
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.js')) files.push(relative(SUITE, path))
    }
  }
  walk(join(SUITE, 'test'))
  return files.sort()
}

/** The `features:` of a file's front matter. */
function featuresOf(source: string): string[] {
  const match = /^features:\s*\[([^\]]*)\]/m.exec(source)
  return match ? match[1].split(',').map((feature) => feature.trim()) : []
}

const LARGEST_LIMIT = 100_000

/** `String.prototype.replace` and `split` hand the RegExp their `this` unconverted: a String object reads as its text. */
const textOf = (value: unknown): unknown => (Object.prototype.toString.call(value) === '[object String]' ? String(value) : value)

export function runSuiteFile(file: string, route: Route, unsupportedFeatures: ReadonlySet<string>): FileOutcome {
  const source = readFileSync(join(SUITE, file), 'utf8')
  const outcome: FileOutcome = { file, routed: 0, skipped: [] }
  const missing = featuresOf(source).filter((feature) => unsupportedFeatures.has(feature))
  if (missing.length > 0) return { ...outcome, notRun: `this engine lacks ${missing.join(', ')}` }
  const context = createContext({})
  runInContext(HARNESS, context)
  const realm = runInContext(
    '({ RegExp, proto: RegExp.prototype, replace: RegExp.prototype[Symbol.replace], split: RegExp.prototype[Symbol.split], exec: RegExp.prototype.exec, flags: Object.getOwnPropertyDescriptor(RegExp.prototype, "flags").get })',
    context,
  )
  /** Whether `regexp` is a plain RegExp of the realm, as the operation builds one afresh: no own members but lastIndex, nothing on its prototype changed. */
  const plain = (regexp: unknown): regexp is RegExp => {
    if (typeof regexp !== 'object' || regexp === null || Object.getPrototypeOf(regexp) !== realm.proto) return false
    if (Reflect.ownKeys(regexp).some((key) => key !== 'lastIndex')) return false
    return realm.proto.exec === realm.exec && Object.getOwnPropertyDescriptor(realm.proto, 'flags')?.get === realm.flags
  }
  const skip = (why: string) => {
    if (!outcome.skipped.includes(why)) outcome.skipped.push(why)
  }
  Object.defineProperty(realm.proto, Symbol.replace, {
    configurable: true,
    writable: true,
    value: function (this: RegExp, given: unknown, replacement: unknown) {
      const input = textOf(given)
      const setBefore = plain(this) && this.sticky && !this.global && this.lastIndex !== 0
      const own = realm.replace.call(this, given, replacement)
      if (!plain(this)) skip('a RegExp with its own members or a changed prototype')
      else if (typeof input !== 'string' || typeof replacement !== 'string') skip('a replacement function, or arguments that are not strings')
      else if (setBefore) skip('a sticky RegExp whose lastIndex was set before the call')
      else {
        outcome.routed++
        return route({ action: 'replace', pattern: this.source, flags: this.flags, input, replacement })
      }
      return own
    },
  })
  Object.defineProperty(realm.proto, Symbol.split, {
    configurable: true,
    writable: true,
    value: function (this: RegExp, given: unknown, limit: unknown) {
      const input = textOf(given)
      const own = realm.split.call(this, given, limit)
      const lim = limit === undefined ? undefined : typeof limit === 'number' ? limit >>> 0 : Number.NaN
      if (!plain(this)) skip('a RegExp with its own members or a changed prototype')
      else if (typeof input !== 'string' || Number.isNaN(lim)) skip('arguments that are not a string and a number')
      else if (lim !== undefined && lim > LARGEST_LIMIT && lim !== 2 ** 32 - 1) skip('a limit the operation does not take')
      else {
        outcome.routed++
        const pieces = route({
          action: 'split',
          pattern: this.source,
          flags: this.flags,
          input,
          ...(lim !== undefined && lim !== 2 ** 32 - 1 && { limit: lim }),
        }) as Array<string | null>
        // Back into the realm as its own array, with undefined where the operation answers null.
        const array = runInContext('[]', context) as unknown[]
        for (const piece of pieces) array.push(piece ?? undefined)
        return array
      }
      return own
    },
  })
  try {
    runInContext(source, context, { filename: file })
  } catch (error) {
    outcome.error = error
  }
  return outcome
}
