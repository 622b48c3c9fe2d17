// JSON Patch (RFC 6902) generated from two documents: objects member by member, arrays by Myers'
// diff of their elements (or index by index), equal values recognised by token.
import { diffArrays } from 'diff'
import { limitExceeded } from '../../core/errors.ts'
import { OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { jsonStringSize } from '../../lib/json/string-literal.ts'
import { escapeToken, isContainer, isObject, type JsonObject, MAX_OPERATIONS, Sizes } from './apply.ts'

/** How arrays are diffed: by Myers' diff of their elements, or index by index. */
export const ARRAY_MODES = ['smart', 'index'] as const

/**
 * The most inserted plus deleted elements one array's smart diff may have before it gives up for the
 * index-wise one: Myers' algorithm costs about the array's length times this number.
 */
export const MAX_ARRAY_EDITS = 1_000

/**
 * The time all the smart array diffs of one call may take together, at most this share of the time
 * budget and at most SMART_ARRAYS_MS: past it the arrays left are diffed index by index, which always
 * finishes, so a diff never fails for the arrays' sake.
 */
const SMART_ARRAYS_SHARE_OF_BUDGET = 0.2
const SMART_ARRAYS_MS = 1_000

/**
 * Gives every JSON value a token, equal (`===`) for equal values whatever the order of their
 * objects' members: scalars are their own token, and each container a token shared by all the
 * containers of its content. Each container's key is built from its children's tokens, so the
 * work stays linear in the documents' size.
 */
export class Tokens {
  private readonly byKey = new Map<string, { id: number }>()
  private readonly byValue = new WeakMap<object, { id: number }>()

  of(value: unknown): unknown {
    if (!isContainer(value)) return value
    let token = this.byValue.get(value)
    if (token !== undefined) return token
    let key: string
    if (Array.isArray(value)) key = `[${value.map((item) => this.part(item)).join(',')}`
    else {
      const keys = Object.keys(value).sort()
      key = `{${keys.map((name) => `${JSON.stringify(name)}:${this.part(value[name])}`).join(',')}`
    }
    token = this.byKey.get(key)
    if (token === undefined) {
      token = { id: this.byKey.size }
      this.byKey.set(key, token)
    }
    this.byValue.set(value, token)
    return token
  }

  private part(value: unknown): string {
    const token = this.of(value)
    if (typeof token === 'object' && token !== null) return `#${(token as { id: number }).id}`
    return typeof token === 'string' ? JSON.stringify(token) : String(token)
  }
}

interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test'
  path: string
  value?: unknown
}

export interface DiffOptions {
  arrays: (typeof ARRAY_MODES)[number]
  invertible: boolean
  timeBudgetMs: number
}

/** Generates a JSON Patch from `before` to `after`: objects walked member by member, arrays by Myers' diff of their elements or index by index. */
export class JsonPatchDiff {
  readonly operations: PatchOperation[] = []
  private readonly tokens = new Tokens()
  private readonly sizes = new Sizes()
  private written = 2
  private readonly smartUntil: number

  constructor(private readonly options: DiffOptions) {
    this.smartUntil = Date.now() + Math.min(SMART_ARRAYS_MS, options.timeBudgetMs * SMART_ARRAYS_SHARE_OF_BUDGET)
  }

  /** `pathSize`: the size of the path's JSON text, kept beside it so that long paths are never joined just to be measured. */
  diff(before: unknown, after: unknown, path: string, pathSize: number): void {
    if (this.tokens.of(before) === this.tokens.of(after)) return
    if (isObject(before) && isObject(after)) this.diffObjects(before, after, path, pathSize)
    else if (Array.isArray(before) && Array.isArray(after)) this.diffArrays(before, after, path, pathSize)
    else this.replace(path, pathSize, before, after)
  }

  private diffObjects(before: JsonObject, after: JsonObject, path: string, pathSize: number): void {
    for (const key of Object.keys(before)) {
      const [childPath, childSize] = childOf(path, pathSize, key)
      if (Object.hasOwn(after, key)) this.diff(before[key], after[key], childPath, childSize)
      else this.remove(childPath, childSize, before[key])
    }
    for (const key of Object.keys(after)) {
      if (Object.hasOwn(before, key)) continue
      const [childPath, childSize] = childOf(path, pathSize, key)
      this.add(childPath, childSize, after[key])
    }
  }

  private diffArrays(before: unknown[], after: unknown[], path: string, pathSize: number): void {
    const changes = this.options.arrays === 'smart' ? this.smartChanges(before, after) : undefined
    if (changes === undefined) {
      this.diffIndexWise(before, after, path, pathSize)
      return
    }
    let from = 0
    let to = 0
    let at = 0
    for (let index = 0; index < changes.length; ) {
      const change = changes[index]
      if (!change.added && !change.removed) {
        from += change.count
        to += change.count
        at += change.count
        index++
        continue
      }
      let removed = 0
      let added = 0
      for (; index < changes.length && (changes[index].added || changes[index].removed); index++) {
        if (changes[index].added) added += changes[index].count
        else removed += changes[index].count
      }
      // Removed and added elements side by side are edits of each other as far as they pair up.
      const paired = Math.min(removed, added)
      for (let offset = 0; offset < paired; offset++) this.diff(before[from + offset], after[to + offset], ...childOf(path, pathSize, String(at + offset)))
      for (let offset = paired; offset < removed; offset++) this.remove(...childOf(path, pathSize, String(at + paired)), before[from + offset])
      for (let offset = paired; offset < added; offset++) this.add(...childOf(path, pathSize, String(at + offset)), after[to + offset])
      from += removed
      to += added
      at += added
    }
  }

  /** Myers' diff of the arrays' elements (as tokens), or undefined where it would take too long or find too many edits. */
  private smartChanges(before: unknown[], after: unknown[]) {
    const remaining = this.smartUntil - Date.now()
    if (remaining <= 0) return undefined
    const beforeTokens = before.map((item) => this.tokens.of(item))
    const afterTokens = after.map((item) => this.tokens.of(item))
    return diffArrays(beforeTokens, afterTokens, { maxEditLength: MAX_ARRAY_EDITS, timeout: remaining })
  }

  private diffIndexWise(before: unknown[], after: unknown[], path: string, pathSize: number): void {
    const common = Math.min(before.length, after.length)
    for (let index = 0; index < common; index++) this.diff(before[index], after[index], ...childOf(path, pathSize, String(index)))
    for (let index = before.length - 1; index >= after.length; index--) this.remove(...childOf(path, pathSize, String(index)), before[index])
    for (let index = before.length; index < after.length; index++) this.add(...childOf(path, pathSize, String(index)), after[index])
  }

  private add(path: string, pathSize: number, value: unknown): void {
    this.push({ op: 'add', path, value }, pathSize, this.sizes.of(value))
  }

  private remove(path: string, pathSize: number, old: unknown): void {
    if (this.options.invertible) this.push({ op: 'test', path, value: old }, pathSize, this.sizes.of(old))
    this.push({ op: 'remove', path }, pathSize, 0)
  }

  private replace(path: string, pathSize: number, old: unknown, value: unknown): void {
    if (this.options.invertible) this.push({ op: 'test', path, value: old }, pathSize, this.sizes.of(old))
    this.push({ op: 'replace', path, value }, pathSize, this.sizes.of(value))
  }

  private push(operation: PatchOperation, pathSize: number, valueSize: number): void {
    if (this.operations.length >= MAX_OPERATIONS) {
      throw limitExceeded(
        `The documents differ by more than ${MAX_OPERATIONS} operations, more than a patch may hold; diff smaller parts of them, or ask for a mergePatch`,
        { limit: MAX_OPERATIONS },
      )
    }
    this.written += '{"op":"replace","path":,"value":},'.length + pathSize + valueSize
    if (this.written > OUTPUT_LIMIT_BYTES) {
      throw limitExceeded(`The patch would be larger than the ${OUTPUT_LIMIT_BYTES}-byte output limit`, { limit: OUTPUT_LIMIT_BYTES })
    }
    this.operations.push(operation)
  }
}

/** A member's path below `path`, and the size of its JSON text. */
function childOf(path: string, pathSize: number, key: string): [string, number] {
  const token = escapeToken(key)
  return [`${path}/${token}`, pathSize + jsonStringSize(token) - 1]
}
