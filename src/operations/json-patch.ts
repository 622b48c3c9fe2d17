import { diffArrays } from 'diff'
import { Type } from 'typebox'
import { DEFAULT_CONFIG } from '../core/config.ts'
import { invalidInput, limitExceeded, validationError } from '../core/errors.ts'
import { isLargerThan, parseJsonText, setOwn, WarningList, warnOfInexactNumbers } from '../core/json-value.ts'
import { MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../core/limits.ts'
import { defineOperation, withDefault } from '../core/operation.ts'

const ACTIONS = ['apply', 'diff'] as const
const FORMATS = ['jsonPatch', 'mergePatch'] as const
const ARRAY_MODES = ['smart', 'index'] as const
type Format = (typeof FORMATS)[number]

/** The most operations a JSON Patch may hold, applied or generated: a diff gives no patch that apply would refuse. */
export const MAX_OPERATIONS = 10_000

/** Documents, patches and `compareTo` larger than this together (string characters, plus a few per node) run on a worker thread. */
export const OFFLOAD_THRESHOLD = 64 * 1024

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

/** Why an operation of a JSON Patch cannot be applied: `details.reason` of its 422. */
export const PATCH_ERROR_REASONS = [
  'notAnOperation',
  'unknownOp',
  'missingMember',
  'invalidPointer',
  'noSuchPath',
  'indexOutOfRange',
  'moveIntoChild',
  'testFailed',
] as const
type Reason = (typeof PATCH_ERROR_REASONS)[number]

const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const
type Op = (typeof OPS)[number]

type JsonObject = Record<string, unknown>
type Container = JsonObject | unknown[]

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value)
const isContainer = (value: unknown): value is Container => value !== null && typeof value === 'object'

/** A problem with one operation of a patch, told in the words of that operation; `applyJsonPatch` names the operation. */
class PatchProblem {
  constructor(
    readonly reason: Reason,
    readonly message: string,
  ) {}
}

/** The JSON text of a string, for messages: a long one cut short. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}…` : text)
}

const ESCAPED = /[~/]/g
/** A reference token written into a JSON Pointer (RFC 6901 §3): `~` as `~0`, `/` as `~1`. */
export const escapeToken = (token: string) => token.replace(ESCAPED, (character) => (character === '~' ? '~0' : '~1'))

/** The pointer of the first `count` tokens, for messages. */
const pointerOf = (tokens: string[], count: number) =>
  tokens
    .slice(0, count)
    .map((token) => `/${escapeToken(token)}`)
    .join('')
const shownPointer = (tokens: string[], count: number) => (count === 0 ? 'the root' : quoted(pointerOf(tokens, count)))

const BAD_ESCAPE = /~(?![01])/
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/

/** The reference tokens of a JSON Pointer (RFC 6901): '' is the whole document, `~1` reads as `/` and `~0` as `~`, in that order. */
function parsePointer(pointer: unknown, member: 'path' | 'from'): string[] {
  if (typeof pointer !== 'string') throw new PatchProblem('invalidPointer', `${member} must be a JSON Pointer (a string), not ${describeValue(pointer)}`)
  if (pointer === '') return []
  if (pointer[0] !== '/') throw new PatchProblem('invalidPointer', `${member} ${quoted(pointer)} is not a JSON Pointer: it must be empty or start with /`)
  const tokens = pointer.slice(1).split('/')
  for (const token of tokens) {
    if (BAD_ESCAPE.test(token)) {
      throw new PatchProblem('invalidPointer', `${member} ${quoted(pointer)} is not a JSON Pointer: ~ must be followed by 0 (for ~) or 1 (for /)`)
    }
  }
  return tokens.map((token) => (token.includes('~') ? token.replace(/~[01]/g, (sequence) => (sequence === '~1' ? '/' : '~')) : token))
}

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * The index an array token names: digits without leading zeros (RFC 6901 §4), or `-`, the place
 * after the last element, where `allowEnd` (an `add`) may put one.
 */
function arrayIndex(array: unknown[], tokens: string[], at: number, allowEnd: boolean, member: string): number {
  const token = tokens[at]
  if (token === '-') {
    if (allowEnd) return array.length
    throw new PatchProblem(
      'indexOutOfRange',
      `${member}: - names the place after the last element of the array at ${shownPointer(tokens, at)}, which holds no value`,
    )
  }
  if (!ARRAY_INDEX.test(token)) {
    throw new PatchProblem(
      'invalidPointer',
      `${member}: ${quoted(token)} is not an index of the array at ${shownPointer(tokens, at)}: an index is digits without leading zeros, or - after the last element`,
    )
  }
  const index = Number(token)
  if (index > array.length || (!allowEnd && index === array.length)) {
    throw new PatchProblem(
      'indexOutOfRange',
      `${member}: index ${token} is out of range for the array at ${shownPointer(tokens, at)}, which has ${array.length} element${array.length === 1 ? '' : 's'}`,
    )
  }
  return index
}

/** The UTF-8 size of a string's JSON text, without writing it in the common case. */
const PLAIN_JSON_STRING = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/
function jsonStringSize(text: string): number {
  return PLAIN_JSON_STRING.test(text) ? text.length + 2 : Buffer.byteLength(JSON.stringify(text))
}

function scalarSize(value: unknown): number {
  if (typeof value === 'string') return jsonStringSize(value)
  return value === null ? 4 : String(value).length
}

/** The size of a value's JSON text as the envelope writes it (no spaces), remembered for each container. */
class Sizes {
  private readonly known = new WeakMap<object, number>()

  of(value: unknown): number {
    if (!isContainer(value)) return scalarSize(value)
    let size = this.known.get(value)
    if (size !== undefined) return size
    if (Array.isArray(value)) {
      size = 1 + Math.max(value.length, 1)
      for (const item of value) size += this.of(item)
    } else {
      const keys = Object.keys(value)
      size = 1 + Math.max(keys.length, 1)
      for (const key of keys) size += jsonStringSize(key) + 1 + this.of(value[key])
    }
    this.known.set(value, size)
    return size
  }
}

/**
 * Applies a JSON Patch (RFC 6902) to a copy of `document`: every operation or none. Keys such as
 * `__proto__` are ordinary members. Every value an operation writes (an add's, a replace's, a copy's
 * copy) counts toward the output limit when it is written, whatever later operations remove, so a
 * patch that copies a large value again and again is stopped before it is built.
 */
export function applyJsonPatch(document: unknown, patch: unknown[]): unknown {
  if (patch.length > MAX_OPERATIONS) {
    throw limitExceeded(`The patch has ${patch.length} operations, more than the ${MAX_OPERATIONS} allowed`, { field: 'patch', limit: MAX_OPERATIONS })
  }
  const state = new PatchState(document)
  for (let index = 0; index < patch.length; index++) {
    const operation = patch[index]
    try {
      state.apply(operation, index)
    } catch (error) {
      if (!(error instanceof PatchProblem)) throw error
      throw invalidInput(
        `Operation ${index} of the patch${summaryOf(operation)} cannot be applied: ${error.message}`,
        detailsOf(index, operation, error.reason),
      )
    }
  }
  return state.root
}

/** ` (remove "/a/b")`, where the operation has those members. */
function summaryOf(operation: unknown): string {
  if (!isObject(operation) || typeof operation.op !== 'string') return ''
  return typeof operation.path === 'string' ? ` (${operation.op} ${quoted(operation.path)})` : ` (${operation.op})`
}

function detailsOf(index: number, operation: unknown, reason: Reason): Record<string, unknown> {
  const details: Record<string, unknown> = { operation: index }
  if (isObject(operation)) {
    if (typeof operation.op === 'string') details.op = operation.op
    if (typeof operation.path === 'string') details.path = operation.path
    if (typeof operation.from === 'string' && (operation.op === 'move' || operation.op === 'copy')) details.from = operation.from
  }
  details.reason = reason
  return details
}

/** The document being patched, with what the limits need: how much has been written, how deep each container goes. */
class PatchState {
  root: unknown
  private written = 0
  private readonly depths = new WeakMap<object, number>()
  /** The operation being applied, and its index, for a limit's details. */
  private current: JsonObject = {}
  private index = -1

  constructor(document: unknown) {
    this.root = this.copy(document)
  }

  apply(operation: unknown, index: number): void {
    if (!isObject(operation)) throw new PatchProblem('notAnOperation', `an operation is an object with op and path members, not ${describeValue(operation)}`)
    this.current = operation
    this.index = index
    if (!Object.hasOwn(operation, 'op')) throw new PatchProblem('missingMember', 'the operation has no op member')
    const op = operation.op
    if (typeof op !== 'string' || !(OPS as readonly string[]).includes(op)) {
      throw new PatchProblem('unknownOp', `op ${typeof op === 'string' ? quoted(op) : describeValue(op)} is not one of ${OPS.join(', ')}`)
    }
    if (!Object.hasOwn(operation, 'path')) throw new PatchProblem('missingMember', `the ${op} operation has no path member`)
    const path = parsePointer(operation.path, 'path')
    switch (op as Op) {
      case 'add':
        this.put(path, this.copy(this.valueOf(operation, op)), 'add')
        break
      case 'remove':
        this.remove(path, 'path')
        break
      case 'replace':
        this.put(path, this.copy(this.valueOf(operation, op)), 'replace')
        break
      case 'test':
        this.test(path, this.valueOf(operation, op))
        break
      case 'move':
        this.move(this.fromOf(operation, op), path)
        break
      case 'copy':
        this.put(path, this.copy(this.get(this.fromOf(operation, op), 'from')), 'add')
        break
    }
  }

  private valueOf(operation: JsonObject, op: string): unknown {
    if (!Object.hasOwn(operation, 'value') || operation.value === undefined) throw new PatchProblem('missingMember', `the ${op} operation has no value member`)
    return operation.value
  }

  private fromOf(operation: JsonObject, op: string): string[] {
    if (!Object.hasOwn(operation, 'from')) throw new PatchProblem('missingMember', `the ${op} operation has no from member`)
    return parsePointer(operation.from, 'from')
  }

  /** The container that holds the value `tokens` names (the first `tokens.length - 1` of them followed); its ancestors forget their depth when `changing`. */
  private parentOf(tokens: string[], member: string, changing: boolean): Container {
    let at = this.root
    for (let index = 0; index < tokens.length - 1; index++) {
      if (!isContainer(at)) throw this.notContainer(tokens, index, member)
      if (changing) this.depths.delete(at)
      at = this.child(at, tokens, index, member)
    }
    if (!isContainer(at)) throw this.notContainer(tokens, tokens.length - 1, member)
    if (changing) this.depths.delete(at)
    return at
  }

  private child(container: Container, tokens: string[], index: number, member: string): unknown {
    if (Array.isArray(container)) return container[arrayIndex(container, tokens, index, false, member)]
    const key = tokens[index]
    if (!Object.hasOwn(container, key))
      throw new PatchProblem('noSuchPath', `${member}: the object at ${shownPointer(tokens, index)} has no member ${quoted(key)}`)
    return container[key]
  }

  private notContainer(tokens: string[], index: number, member: string): PatchProblem {
    return new PatchProblem('noSuchPath', `${member}: the value at ${shownPointer(tokens, index)} is a scalar, which has no member ${quoted(tokens[index])}`)
  }

  private get(tokens: string[], member: string): unknown {
    if (tokens.length === 0) return this.root
    return this.child(this.parentOf(tokens, member, false), tokens, tokens.length - 1, member)
  }

  /**
   * Puts `value` at the path: added (an array element inserted, a member set whether it was there
   * or not) or replacing what must already be there. The path is checked before the depth, so that
   * a path that leads nowhere is told as such.
   */
  private put(tokens: string[], value: unknown, mode: 'add' | 'replace'): void {
    if (tokens.length === 0) {
      this.assertDepth(tokens, value)
      this.root = value
      return
    }
    const parent = this.parentOf(tokens, 'path', true)
    const last = tokens.length - 1
    if (Array.isArray(parent)) {
      const index = arrayIndex(parent, tokens, last, mode === 'add', 'path')
      this.assertDepth(tokens, value)
      parent.splice(index, mode === 'add' ? 0 : 1, value)
    } else {
      if (mode === 'replace') this.child(parent, tokens, last, 'path')
      this.assertDepth(tokens, value)
      setOwn(parent, tokens[last], value)
    }
  }

  private remove(tokens: string[], member: string): unknown {
    if (tokens.length === 0) throw new PatchProblem('invalidPointer', `${member}: the whole document cannot be removed (replace it instead)`)
    const parent = this.parentOf(tokens, member, true)
    const index = tokens.length - 1
    if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, tokens, index, false, member), 1)[0]
    const value = this.child(parent, tokens, index, member)
    delete parent[tokens[index]]
    return value
  }

  private test(tokens: string[], value: unknown): void {
    const actual = this.get(tokens, 'path')
    if (!equalJson(actual, value)) {
      throw new PatchProblem('testFailed', `the value at ${shownPointer(tokens, tokens.length)} is not equal to the operation's value`)
    }
  }

  private move(from: string[], path: string[]): void {
    const isPrefix = from.length <= path.length && from.every((token, index) => token === path[index])
    if (isPrefix && from.length === path.length) {
      this.get(from, 'from')
      return
    }
    if (isPrefix) throw new PatchProblem('moveIntoChild', 'a value cannot be moved into one of its own children (from is a prefix of path)')
    const value = this.remove(from, 'from')
    this.put(path, value, 'add')
  }

  /**
   * A deep copy of a value (keys such as `__proto__` kept as ordinary members), counted toward the
   * output limit as it is made, with the depth of each container it makes.
   */
  private copy(value: unknown): unknown {
    if (!isContainer(value)) {
      this.count(scalarSize(value))
      return value
    }
    let depth = 0
    let made: Container
    if (Array.isArray(value)) {
      this.count(1 + Math.max(value.length, 1))
      made = new Array(value.length)
      for (let index = 0; index < value.length; index++) {
        const item = this.copy(value[index])
        made[index] = item
        depth = Math.max(depth, this.depthOf(item))
      }
    } else {
      const keys = Object.keys(value)
      this.count(1 + Math.max(keys.length, 1))
      made = {}
      for (const key of keys) {
        this.count(jsonStringSize(key) + 1)
        const item = this.copy(value[key])
        setOwn(made, key, item)
        depth = Math.max(depth, this.depthOf(item))
      }
    }
    this.depths.set(made, depth + 1)
    return made
  }

  private count(size: number): void {
    this.written += size
    if (this.written > OUTPUT_LIMIT_BYTES) {
      throw limitExceeded(
        `The patch writes more than the ${OUTPUT_LIMIT_BYTES}-byte output limit of JSON (the document, and every value its operations add, replace or copy, as they run)`,
        { ...this.where(), limit: OUTPUT_LIMIT_BYTES },
      )
    }
  }

  /** How many levels of arrays and objects a value holds (a scalar none), remembered for each container until it changes. */
  private depthOf(value: unknown): number {
    if (!isContainer(value)) return 0
    let depth = this.depths.get(value)
    if (depth !== undefined) return depth
    depth = 0
    for (const item of Array.isArray(value) ? value : Object.values(value)) depth = Math.max(depth, this.depthOf(item))
    this.depths.set(value, ++depth)
    return depth
  }

  private assertDepth(tokens: string[], value: unknown): void {
    const depth = tokens.length + this.depthOf(value)
    if (depth > MAX_NESTING_DEPTH) {
      throw limitExceeded(`The patch would nest arrays and objects ${depth} levels deep, more than the ${MAX_NESTING_DEPTH} allowed`, {
        ...this.where(),
        limit: MAX_NESTING_DEPTH,
      })
    }
  }

  /** The operation a limit stopped, for its details (none while the document itself is copied). */
  private where(): Record<string, unknown> {
    if (this.index < 0) return { field: 'input' }
    const { op, path } = this.current
    return { operation: this.index, ...(typeof op === 'string' && { op }), ...(typeof path === 'string' && { path }) }
  }
}

/** JSON equality (RFC 6902 §4.6): numbers by value, objects whatever the order of their members, arrays element by element. */
export function equalJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (!isContainer(a) || !isContainer(b)) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let index = 0; index < a.length; index++) if (!equalJson(a[index], b[index])) return false
    return true
  }
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) if (!Object.hasOwn(b, key) || !equalJson(a[key], (b as JsonObject)[key])) return false
  return true
}

/** Applies a JSON Merge Patch (RFC 7396 §2), building new objects where it changes them and leaving `target` as it was. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch
  const result: JsonObject = {}
  if (isObject(target)) for (const key of Object.keys(target)) setOwn(result, key, target[key])
  for (const key of Object.keys(patch)) {
    const value = patch[key]
    if (value === null) delete result[key]
    else setOwn(result, key, applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value))
  }
  return result
}

/** What a merge patch does, counted: the members it sets or removes at every depth; a patch that is no object replaces the document, one. */
function mergePatchOperations(patch: unknown): number {
  if (!isObject(patch)) return 1
  let count = 0
  for (const value of Object.values(patch)) count += isObject(value) && Object.keys(value).length > 0 ? mergePatchOperations(value) : 1
  return count
}

/**
 * Gives every JSON value a token, equal (`===`) for equal values whatever the order of their
 * objects' members: scalars are their own token, and each container a token shared by all the
 * containers of its content. Each container's key is built from its children's tokens, so the
 * work stays linear in the documents' size.
 */
class Tokens {
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

interface DiffOptions {
  arrays: (typeof ARRAY_MODES)[number]
  invertible: boolean
  timeBudgetMs: number
}

/** Generates a JSON Patch from `before` to `after`: objects walked member by member, arrays by Myers' diff of their elements or index by index. */
class JsonPatchDiff {
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

/** Generates a merge patch (RFC 7396) from `before` to `after`, saying what a merge patch cannot express. */
function mergePatchDiff(before: unknown, after: unknown, path: string, warnings: WarningList, tokens: Tokens): unknown {
  if (!isObject(after)) {
    if (Array.isArray(after) && Array.isArray(before) && tokens.of(before) !== tokens.of(after)) arrayWarning(path, warnings)
    return after
  }
  if (!isObject(before)) {
    nullWarnings(after, path, warnings)
    return after
  }
  const patch: JsonObject = {}
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) setOwn(patch, key, null)
  for (const key of Object.keys(after)) {
    const value = after[key]
    const had = Object.hasOwn(before, key)
    if (had && tokens.of(before[key]) === tokens.of(value)) continue
    const childPath = `${path}/${escapeToken(key)}`
    if (value === null) {
      warnings.add(
        `compareTo's member ${quoted(childPath)} is null, which a merge patch cannot set: ${had ? 'the patch removes the member instead' : 'the patch leaves it out'}`,
      )
      if (had) setOwn(patch, key, null)
    } else setOwn(patch, key, mergePatchDiff(had ? before[key] : undefined, value, childPath, warnings, tokens))
  }
  return patch
}

function arrayWarning(path: string, warnings: WarningList): void {
  warnings.add(`the array at ${path === '' ? 'the root' : quoted(path)} is replaced whole: a merge patch cannot edit an array in place`)
}

/** The null members of an object that a merge patch sets whole: applying it drops them. */
function nullWarnings(value: JsonObject, path: string, warnings: WarningList): void {
  for (const key of Object.keys(value)) {
    const childPath = `${path}/${escapeToken(key)}`
    if (value[key] === null) warnings.add(`compareTo's member ${quoted(childPath)} is null, which a merge patch cannot set: the patch leaves it out`)
    else if (isObject(value[key])) nullWarnings(value[key] as JsonObject, childPath, warnings)
  }
}

/** A field that takes a JSON value or its text: the value, with a warning for each number its text loses digits of. */
function readJson(value: unknown, field: string, warnings: WarningList): unknown {
  if (typeof value !== 'string') return value
  const parsed = parseJsonText(value, field)
  warnOfInexactNumbers(value, field, warnings)
  return parsed
}

function readJsonPatch(patch: unknown, warnings: WarningList): unknown[] {
  const value = readJson(patch, 'patch', warnings)
  if (Array.isArray(value)) return value
  if (typeof patch !== 'string') throw validationError('patch', 'must be an array of operations (or its JSON text) for a jsonPatch')
  throw invalidInput(`patch is JSON text of ${describeValue(value)}, not of an array of operations`, { field: 'patch', reason: 'notAnOperation' })
}

interface Fields {
  input: unknown
  action: (typeof ACTIONS)[number]
  format: Format
  patch?: unknown
  compareTo?: unknown
  arrays: (typeof ARRAY_MODES)[number]
  invertible: boolean
}

function apply({ input, format, patch, compareTo }: Fields, warnings: WarningList) {
  if (compareTo !== undefined) throw validationError('compareTo', 'is for diff; apply takes patch')
  if (patch === undefined) throw validationError('patch', 'is required for apply')
  const document = readJson(input, 'input', warnings)
  if (format === 'mergePatch') {
    const mergePatch = readJson(patch, 'patch', warnings)
    const result = applyMergePatch(document, mergePatch)
    assertWithinLimit(result)
    return { result, operations: mergePatchOperations(mergePatch) }
  }
  const operations = readJsonPatch(patch, warnings)
  return { result: applyJsonPatch(document, operations), operations: operations.length }
}

function diff({ input, format, patch, compareTo, arrays, invertible }: Fields, warnings: WarningList, timeBudgetMs: number) {
  if (patch !== undefined) throw validationError('patch', 'is for apply; diff takes compareTo')
  if (compareTo === undefined) throw validationError('compareTo', 'is required for diff')
  if (invertible && format === 'mergePatch') throw validationError('invertible', 'is for a jsonPatch: a merge patch has no test operation')
  const before = readJson(input, 'input', warnings)
  const after = readJson(compareTo, 'compareTo', warnings)
  if (format === 'mergePatch') {
    const result = mergePatchDiff(before, after, '', warnings, new Tokens())
    assertWithinLimit(result)
    return { result, operations: mergePatchOperations(result) }
  }
  const differ = new JsonPatchDiff({ arrays, invertible, timeBudgetMs })
  differ.diff(before, after, '', 2)
  return { result: differ.operations, operations: differ.operations.length }
}

/** A merge patch's result shares its values with the inputs, so it costs no memory to build; its text may still be too large to send. */
function assertWithinLimit(result: unknown): void {
  if (isLargerThan(result, OUTPUT_LIMIT_BYTES / 6) && new Sizes().of(result) > OUTPUT_LIMIT_BYTES) {
    throw limitExceeded(`The result would be larger than the ${OUTPUT_LIMIT_BYTES}-byte output limit`, { limit: OUTPUT_LIMIT_BYTES })
  }
}

const OPERATION_EXAMPLE = [
  { op: 'replace', path: '/name', value: 'devutils-api' },
  { op: 'add', path: '/tags/-', value: 'patch' },
  { op: 'remove', path: '/draft' },
]

export const jsonPatch = defineOperation({
  name: 'json-patch',
  category: 'converters',
  summary: 'Apply or generate a JSON Patch (RFC 6902) or a JSON Merge Patch (RFC 7396)',
  title: 'JSON Patch and Merge Patch',
  aliases: [
    'rfc 6902',
    'rfc 7396',
    'rfc 7386',
    'merge patch',
    'json diff',
    'compare json',
    'json pointer',
    'rfc 6901',
    'patch json',
    'http patch',
    'application/json-patch+json',
    'application/merge-patch+json',
  ],
  description:
    '`apply` applies `patch` to the document `input`: a JSON Patch (RFC 6902), an array of operations `add`, `remove`, `replace`, `move`, `copy` and `test` whose `path` and `from` are JSON Pointers (RFC 6901: `~1` is `/`, `~0` is `~`, array indexes without leading zeros, `-` after the last element), ' +
    "or, with `format: mergePatch`, a JSON Merge Patch (RFC 7396: an object whose members replace, merge into or, when null, remove the document's members; any other value replaces the document). " +
    'The operations run on a copy: all of them apply or none does. Members an operation does not know are ignored, as RFC 6902 says; keys such as `__proto__` are ordinary members. ' +
    '`diff` generates the patch that turns `input` into `compareTo`: objects are compared member by member, arrays element by element with the Myers diff of jsdiff (`arrays: smart`, so an insertion is one `add`, and removed and added elements side by side are edited in place), ' +
    `or index by index (\`arrays: index\`, also used for an array whose diff would find more than ${MAX_ARRAY_EDITS} inserted and removed elements or run past its time); \`invertible\` puts a \`test\` of the old value before each \`remove\` and \`replace\`. ` +
    'A merge patch cannot set a member to null or edit an array in place: `diff` warns of each such member, which the patch replaces whole or leaves out. ' +
    '`input`, `patch` and `compareTo` take a JSON value or its text (a string is read as JSON text, so the string "a" is sent as "\\"a\\""). ' +
    'The operation works on the values as JavaScript reads them: a number literal in JSON text that a double cannot hold exactly (beyond 2^53, too many digits) is warned of. ' +
    'An operation that cannot be applied is a 422 INVALID_INPUT whose `details` name the operation (its index from 0), its `op`, `path` (and `from`), and the `reason`: ' +
    `${PATCH_ERROR_REASONS.map((reason) => `\`${reason}\``).join(', ')}. ` +
    `A patch of more than ${MAX_OPERATIONS} operations (applied or generated), a document nested deeper than ${MAX_NESTING_DEPTH} levels (given, or made by the patch), and a result over the 16 MiB output limit are a 422 LIMIT_EXCEEDED; ` +
    'what a JSON Patch writes is counted as its operations run (every value added, replaced or copied, whatever is removed later), so a patch that copies a large value again and again is stopped before it is built. ' +
    `Inputs over ${OFFLOAD_THRESHOLD / 1024} KiB run on a worker thread, within the time budget.`,
  input: Type.Object(
    {
      input: Type.Unknown({
        description:
          'apply: the document to patch. diff: the old document. Any JSON value; a string is read as JSON text (so the string "a" is sent as "\\"a\\"").',
        examples: [{ name: 'devutils', tags: ['json'], draft: true }],
      }),
      action: withDefault(
        Type.Enum(ACTIONS, { description: 'Apply `patch` to `input` (`apply`), or generate the patch that turns `input` into `compareTo` (`diff`).' }),
        'apply',
      ),
      format: withDefault(
        Type.Enum(FORMATS, {
          description: 'The kind of patch: `jsonPatch` (RFC 6902, an array of operations) or `mergePatch` (RFC 7396, a partial document).',
        }),
        'jsonPatch',
      ),
      patch: Type.Optional(
        Type.Unknown({
          description:
            'apply only (required there): the patch. jsonPatch: an array of operations such as `{"op":"add","path":"/a","value":1}`; mergePatch: any JSON value. A string is read as JSON text.',
          examples: [OPERATION_EXAMPLE],
        }),
      ),
      compareTo: Type.Optional(
        Type.Unknown({
          description: 'diff only (required there): the new document, which the patch turns `input` into. A string is read as JSON text.',
          examples: [{ name: 'devutils-api', tags: ['json', 'patch'] }],
        }),
      ),
      arrays: withDefault(
        Type.Enum(ARRAY_MODES, {
          description:
            'diff with jsonPatch: how arrays are compared: `smart` (Myers diff of the elements, so an insertion is one add) or `index` (element by element at the same index).',
        }),
        'smart',
      ),
      invertible: withDefault(
        Type.Boolean({
          description:
            'diff with jsonPatch: put a `test` of the old value before each `remove` and `replace`, so the patch fails on a document that has changed.',
        }),
        false,
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({
      description: 'apply: the patched document. diff: the patch (jsonPatch: an array of operations; mergePatch: the merge patch).',
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    format: Type.Enum(FORMATS, { description: 'The kind of patch applied or generated.' }),
    operations: Type.Integer({
      description:
        'jsonPatch: the operations applied or generated. mergePatch: the members the merge patch sets or removes, at every depth (1 for a patch that is no object and replaces the document).',
    }),
    warnings: Type.Array(Type.String(), {
      description: 'Number literals in JSON text that a double cannot hold exactly; for a merge patch diff, the members it replaces whole or leaves out.',
    }),
  }),
  examples: [
    {
      summary: 'Apply a JSON Patch',
      input: { input: { name: 'devutils', tags: ['json'], draft: true }, patch: OPERATION_EXAMPLE },
      output: { result: { name: 'devutils-api', tags: ['json', 'patch'] }, action: 'apply', format: 'jsonPatch', operations: 3, warnings: [] },
    },
    {
      summary: 'Apply a merge patch (the example of RFC 7396)',
      input: {
        input: {
          title: 'Goodbye!',
          author: { givenName: 'John', familyName: 'Doe' },
          tags: ['example', 'sample'],
          content: 'This will be unchanged',
        },
        patch: { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] },
        format: 'mergePatch',
      },
      output: {
        result: {
          title: 'Hello!',
          author: { givenName: 'John' },
          tags: ['example'],
          content: 'This will be unchanged',
          phoneNumber: '+01-123-456-7890',
        },
        action: 'apply',
        format: 'mergePatch',
        operations: 4,
        warnings: [],
      },
    },
    {
      summary: 'The JSON Patch between two documents: an insertion in an array is one add',
      input: { input: { version: 1, list: ['a', 'b', 'c'] }, compareTo: { version: 2, list: ['a', 'x', 'b', 'c'] }, action: 'diff' },
      output: {
        result: [
          { op: 'replace', path: '/version', value: 2 },
          { op: 'add', path: '/list/1', value: 'x' },
        ],
        action: 'diff',
        format: 'jsonPatch',
        operations: 2,
        warnings: [],
      },
    },
    {
      summary: 'The merge patch between two documents, and what it cannot say',
      input: { input: { a: 1, b: [1, 2], c: 'kept' }, compareTo: { a: null, b: [1, 2, 3], c: 'kept', d: { e: 'new' } }, action: 'diff', format: 'mergePatch' },
      output: {
        result: { a: null, b: [1, 2, 3], d: { e: 'new' } },
        action: 'diff',
        format: 'mergePatch',
        operations: 3,
        warnings: [
          'compareTo\'s member "/a" is null, which a merge patch cannot set: the patch removes the member instead',
          'the array at "/b" is replaced whole: a merge patch cannot edit an array in place',
        ],
      },
    },
  ],
  offload: ({ input, patch, compareTo }) => isLargerThan([input, patch, compareTo], OFFLOAD_THRESHOLD),
  run(fields, context) {
    const warnings = new WarningList()
    // A worker thread is not told the budget; there the default one applies (the pool stops the thread at the real one).
    const timeBudgetMs = context?.timeBudgetMs ?? DEFAULT_CONFIG.timeBudgetMs
    const { result, operations } = fields.action === 'apply' ? apply(fields, warnings) : diff(fields, warnings, timeBudgetMs)
    return { result, action: fields.action, format: fields.format, operations, warnings: warnings.list() }
  },
})
