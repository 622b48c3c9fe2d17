import { invalidInput, limitExceeded } from './errors.ts'
import { MAX_NESTING_DEPTH } from './limits.ts'

/** Where a value sits in the input, kept as a chain so that a path is only spelled out on error. */
interface Location {
  parent: Location | undefined
  key: string | number
}

function pathOf(field: string, location: Location | undefined): string {
  let path = ''
  for (let at = location; at; at = at.parent) path = typeof at.key === 'number' ? `[${at.key}]${path}` : `.${at.key}${path}`
  return field + path
}

/**
 * Refuses a value nested deeper than MAX_NESTING_DEPTH (422 LIMIT_EXCEEDED) and, with `checkText`,
 * a lone UTF-16 surrogate in any of its strings or keys (422 INVALID_INPUT). The walk keeps its own
 * stack: a 1 MiB body can nest half a million levels, far past the call stack, and values that deep
 * must be refused before anything recursive (structured cloning to a worker, a serialiser) sees them.
 * With `secret`, errors say what is wrong but nothing of the value.
 */
export function assertSafeValue(root: unknown, field: string, { checkText = true, secret = false }: { checkText?: boolean; secret?: boolean } = {}): void {
  // Most fields are a string or a number: checked without setting up the walk.
  if (typeof root === 'string') {
    if (checkText && !root.isWellFormed()) throw loneSurrogateError(root, field, secret)
    return
  }
  if (root === null || typeof root !== 'object') return
  // Only arrays and objects wait on the stack: an array of half a million scalars costs no memory.
  const pending: Array<[container: object, location: Location | undefined, depth: number]> = [[root, undefined, 0]]
  const visit = (child: unknown, parent: Location | undefined, key: string | number, depth: number) => {
    if (typeof child === 'string') {
      if (checkText && !child.isWellFormed()) throw loneSurrogateError(child, pathOf(field, { parent, key }), secret)
    } else if (child !== null && typeof child === 'object') pending.push([child, { parent, key }, depth])
  }
  while (pending.length > 0) {
    const [container, location, depth] = pending.pop()!
    if (depth + 1 > MAX_NESTING_DEPTH) {
      throw limitExceeded(`${field} nests arrays and objects deeper than ${MAX_NESTING_DEPTH} levels`, { field, limit: MAX_NESTING_DEPTH })
    }
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index++) visit(container[index], location, index, depth + 1)
      continue
    }
    for (const key of Object.keys(container)) {
      if (checkText && !key.isWellFormed()) throw loneSurrogateError(key, pathOf(field, { parent: location, key }), secret)
      visit((container as Record<string, unknown>)[key], location, key, depth + 1)
    }
  }
}

/** For a secret (a `writeOnly` field such as a key), neither the code unit nor its position is told. */
function loneSurrogateError(text: string, field: string, secret: boolean) {
  if (secret) return invalidInput(`${field} contains a lone surrogate, which is not Unicode text`, { field })
  const position = loneSurrogatePosition(text)
  const unit = text.charCodeAt(position).toString(16).toUpperCase()
  return invalidInput(`${field} contains a lone surrogate (U+${unit}) at position ${position}, which is not Unicode text`, { field, position })
}

function loneSurrogatePosition(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++
        continue
      }
      return i
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return i
  }
  return -1
}

/**
 * Whether a parsed value holds an own `__proto__` key, or a `constructor` object with its own
 * `prototype` key, at any depth (escaped spellings included, since JSON.parse has decoded them).
 * Walking the parsed value costs next to nothing for the common large body, one long string, where
 * scanning the text for those words twice (as secure-json-parse does) costs more than the hashing.
 */
export function hasPrototypeKey(root: unknown): boolean {
  const pending: unknown[] = [root]
  while (pending.length > 0) {
    const value = pending.pop()
    if (value === null || typeof value !== 'object') continue
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') pending.push(item)
      continue
    }
    if (Object.hasOwn(value, '__proto__')) return true
    const record = value as Record<string, unknown>
    const constructorValue = Object.hasOwn(record, 'constructor') ? record.constructor : undefined
    if (constructorValue !== null && typeof constructorValue === 'object' && Object.hasOwn(constructorValue, 'prototype')) return true
    for (const key in record) {
      const item = record[key]
      if (item !== null && typeof item === 'object') pending.push(item)
    }
  }
  return false
}
