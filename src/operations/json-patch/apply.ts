// JSON Patch (RFC 6902) applied, over JSON Pointers (RFC 6901), with what the limits need: how
// deep the document grows and how much its copies write.
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { jsonStringSize } from '../../lib/json/string-literal.ts'
import { forEachChild, setOwn } from '../../lib/json/value.ts'

/** The most operations a JSON Patch may hold, applied or generated: a diff gives no patch that apply would refuse. */
export const MAX_OPERATIONS = 10_000

/**
 * The most arrays and objects a patch may write (the document's, and every value it adds, replaces
 * or copies): a container takes far more memory than the few bytes of its JSON text, so copies of
 * many small ones would fill a worker thread's heap well before the output limit.
 */
export const MAX_CONTAINERS = 1_000_000

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

export type JsonObject = Record<string, unknown>
type Container = JsonObject | unknown[]
/** Where a value goes: an array's index (inserted, or replacing the element there) or an object's member. */
type Place = { array: unknown[]; index: number; mode: 'add' | 'replace' } | { object: JsonObject; key: string }

export const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value)
export const isContainer = (value: unknown): value is Container => value !== null && typeof value === 'object'

/** A problem with one operation of a patch, told in the words of that operation; `applyJsonPatch` names the operation. */
class PatchProblem {
  constructor(
    readonly reason: Reason,
    readonly message: string,
  ) {}
}

/** The JSON text of a string, for messages: a long one cut short. */
export function quoted(text: string): string {
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

export function describeValue(value: unknown): string {
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

function scalarSize(value: unknown): number {
  if (typeof value === 'string') return jsonStringSize(value)
  return value === null ? 4 : String(value).length
}

/** The size of a value's JSON text as the envelope writes it (no spaces), remembered for each container. */
export class Sizes {
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
 * copy) counts toward the output limit when it is written, whatever later operations remove, and is
 * measured before it is copied, so a patch that copies a large value again and again is refused at
 * the operation that would pass the limit, before that copy is made.
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

/** How many operations of a patch copy: each can write the whole document again, doubling what the patch builds. */
export function copiesIn(patch: unknown[]): number {
  let copies = 0
  for (const operation of patch) if (isObject(operation) && operation.op === 'copy') copies++
  return copies
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

/**
 * The document being patched, with what the limits need: how much has been written, and how many
 * containers. Nothing is kept per container: a map of millions of containers (a WeakMap above all)
 * costs the collector more than the patch itself.
 */
class PatchState {
  root: unknown
  private written = 0
  private containers = 0
  /** The operation being applied, and its index, for a limit's details. */
  private current: JsonObject = {}
  private index = -1

  constructor(document: unknown) {
    this.root = this.measuredCopy([], document)
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
        this.add(path, this.valueOf(operation, op), 'add')
        break
      case 'remove':
        this.remove(path, 'path')
        break
      case 'replace':
        this.add(path, this.valueOf(operation, op), 'replace')
        break
      case 'test':
        this.test(path, this.valueOf(operation, op))
        break
      case 'move':
        this.move(this.fromOf(operation, op), path)
        break
      case 'copy':
        this.add(path, this.get(this.fromOf(operation, op), 'from'), 'add')
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

  /** The container that holds the value `tokens` names (the first `tokens.length - 1` of them followed). */
  private parentOf(tokens: string[], member: string): Container {
    let at = this.root
    for (let index = 0; index < tokens.length - 1; index++) {
      if (!isContainer(at)) throw this.notContainer(tokens, index, member)
      at = this.child(at, tokens, index, member)
    }
    if (!isContainer(at)) throw this.notContainer(tokens, tokens.length - 1, member)
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
    return this.child(this.parentOf(tokens, member), tokens, tokens.length - 1, member)
  }

  /** Puts a copy of `value` at the path, once the path is checked and the copy measured. */
  private add(tokens: string[], value: unknown, mode: 'add' | 'replace'): void {
    const place = this.placeOf(tokens, mode)
    this.putAt(place, this.measuredCopy(tokens, value))
  }

  /**
   * Where a value goes at the path, checked: added (an array element inserted, a member set whether
   * it was there or not) or replacing what must already be there; undefined for the whole document.
   */
  private placeOf(tokens: string[], mode: 'add' | 'replace'): Place | undefined {
    if (tokens.length === 0) return undefined
    const parent = this.parentOf(tokens, 'path')
    const last = tokens.length - 1
    if (Array.isArray(parent)) return { array: parent, index: arrayIndex(parent, tokens, last, mode === 'add', 'path'), mode }
    if (mode === 'replace') this.child(parent, tokens, last, 'path')
    return { object: parent, key: tokens[last] }
  }

  private putAt(place: Place | undefined, value: unknown): void {
    if (place === undefined) this.root = value
    else if ('array' in place) place.array.splice(place.index, place.mode === 'add' ? 0 : 1, value)
    else setOwn(place.object, place.key, value)
  }

  private remove(tokens: string[], member: string): unknown {
    if (tokens.length === 0) throw new PatchProblem('invalidPointer', `${member}: the whole document cannot be removed (replace it instead)`)
    const parent = this.parentOf(tokens, member)
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
    const place = this.placeOf(path, 'add')
    // A value moved no deeper than it was stays within the limit it was within.
    if (path.length > from.length) this.assertDepth(path, nestingWithin(value, MAX_NESTING_DEPTH - path.length))
    this.putAt(place, value)
  }

  /**
   * A deep copy of `value`, to be put at `tokens`: its JSON text, its containers and its depth there
   * are measured first, so a copy past a limit is refused before any of it is made.
   */
  private measuredCopy(tokens: string[], value: unknown): unknown {
    const room = OUTPUT_LIMIT_BYTES - this.written
    const measure = measureWithin(value, room, MAX_CONTAINERS - this.containers)
    if (measure.size > room) {
      throw limitExceeded(
        `The patch writes more than the ${OUTPUT_LIMIT_BYTES}-byte output limit of JSON (the document, and every value its operations add, replace or copy, as they run)`,
        { ...this.where(), limit: OUTPUT_LIMIT_BYTES },
      )
    }
    if (this.containers + measure.containers > MAX_CONTAINERS) {
      throw limitExceeded(`The patch makes more than the ${MAX_CONTAINERS} arrays and objects one document may hold (the document's, and every copy's)`, {
        ...this.where(),
        limit: MAX_CONTAINERS,
      })
    }
    this.assertDepth(tokens, measure.depth)
    this.written += measure.size
    this.containers += measure.containers
    return copy(value)
  }

  private assertDepth(tokens: string[], valueDepth: number): void {
    if (tokens.length + valueDepth > MAX_NESTING_DEPTH) {
      throw limitExceeded(`The patch would nest arrays and objects more than the ${MAX_NESTING_DEPTH} levels allowed`, {
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

/** A deep copy of a value, keys such as `__proto__` kept as ordinary members; its nesting is bounded before it is made. */
function copy(value: unknown): unknown {
  if (!isContainer(value)) return value
  if (Array.isArray(value)) {
    const made = new Array(value.length)
    for (let index = 0; index < value.length; index++) made[index] = copy(value[index])
    return made
  }
  const made: JsonObject = {}
  for (const key of Object.keys(value)) setOwn(made, key, copy(value[key]))
  return made
}

interface Measure {
  /** The size of the JSON text as the envelope writes it (no spaces), or some size past the limit. */
  size: number
  /** Its arrays and objects. */
  containers: number
  /** How many levels of arrays and objects it holds (a scalar none). */
  depth: number
}

/**
 * Measures a value until its JSON text passes `sizeLimit` or its containers `containerLimit`: the walk
 * stops there, so measuring costs no more than the limits, and nothing is built.
 */
export function measureWithin(root: unknown, sizeLimit: number, containerLimit = Number.POSITIVE_INFINITY): Measure {
  const measure: Measure = { size: 0, containers: 0, depth: 0 }
  const pending = [root]
  const depths = [0]
  const within = () => measure.size <= sizeLimit && measure.containers <= containerLimit
  while (pending.length > 0 && within()) {
    const value = pending.pop()
    const depth = depths.pop()!
    if (!isContainer(value)) {
      measure.size += scalarSize(value)
      continue
    }
    measure.containers++
    measure.depth = Math.max(measure.depth, depth + 1)
    if (Array.isArray(value)) {
      measure.size += 1 + Math.max(value.length, 1)
      for (let index = 0; index < value.length && within(); index++) {
        pending.push(value[index])
        depths.push(depth + 1)
      }
    } else {
      const keys = Object.keys(value)
      measure.size += 1 + Math.max(keys.length, 1)
      for (let index = 0; index < keys.length && within(); index++) {
        measure.size += jsonStringSize(keys[index]) + 1
        pending.push(value[keys[index]])
        depths.push(depth + 1)
      }
    }
  }
  return measure
}

/** How many levels of arrays and objects a value holds, or `limit + 1` where it holds more: levels below that are not walked. */
function nestingWithin(root: unknown, limit: number): number {
  let deepest = 0
  const pending = [root]
  const depths = [0]
  while (pending.length > 0) {
    const value = pending.pop()
    const depth = depths.pop()!
    if (!isContainer(value)) continue
    deepest = Math.max(deepest, depth + 1)
    if (deepest > limit) return deepest
    forEachChild(value, (child) => {
      if (isContainer(child)) {
        pending.push(child)
        depths.push(depth + 1)
      }
    })
  }
  return deepest
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
