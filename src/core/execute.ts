import { DEFAULT_CONFIG } from './config.ts'
import { invalidInput } from './errors.ts'
import type { AnyOperation } from './operation.ts'
import { runOperationInWorker } from './pool.ts'
import { validate } from './validate.ts'

export interface ExecuteOptions {
  /** How long heavy work (see `offload`) may take before it is stopped with 503 TIMEOUT. */
  timeBudgetMs?: number
}

/**
 * Runs one operation on a raw, untrusted input object: the one path every surface (HTTP, pipeline,
 * batch, MCP, CLI) goes through, so they all validate, default and fail the same way. Inputs the
 * operation calls heavy run on a worker thread within the time budget; the rest run in process.
 */
export async function execute(
  operation: AnyOperation,
  rawInput: unknown,
  { timeBudgetMs = DEFAULT_CONFIG.timeBudgetMs }: ExecuteOptions = {},
): Promise<Record<string, unknown>> {
  const input = validate<Record<string, unknown>>(operation.input, rawInput)
  if (!operation.allowLoneSurrogates) assertWellFormedText(input)
  if (operation.offload?.(input)) return runOperationInWorker({ operation: operation.name, input }, timeBudgetMs)
  return (await operation.run(input, { timeBudgetMs })) as Record<string, unknown>
}

/** Where a value sits in the input, kept as a chain so that a path is only spelled out on error. */
interface Location {
  parent: Location | undefined
  key: string | number
}

function pathOf(location: Location | undefined): string {
  let path = ''
  for (let at = location; at; at = at.parent) {
    path = typeof at.key === 'number' ? `[${at.key}]${path}` : at.parent ? `.${at.key}${path}` : `${at.key}${path}`
  }
  return path
}

/**
 * Refuses a lone UTF-16 surrogate anywhere in the input, in keys as well as values. The walk keeps
 * its own stack: a 1 MiB body can nest half a million levels, far past the call stack.
 */
export function assertWellFormedText(root: unknown): void {
  const pending: Array<[value: unknown, location: Location | undefined]> = [[root, undefined]]
  while (pending.length > 0) {
    const [value, location] = pending.pop()!
    if (typeof value === 'string') {
      if (!value.isWellFormed()) throw loneSurrogateError(value, pathOf(location) || 'input')
    } else if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) pending.push([value[index], { parent: location, key: index }])
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        const keyLocation = { parent: location, key }
        if (!key.isWellFormed()) throw loneSurrogateError(key, pathOf(keyLocation))
        pending.push([(value as Record<string, unknown>)[key], keyLocation])
      }
    }
  }
}

function loneSurrogateError(text: string, field: string) {
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
