import type { AnyOperation, OperationInfo } from './operation.ts'

/** An operation as a registry answers it: at once once loaded, a promise on its first call. */
export type Loaded = AnyOperation | Promise<AnyOperation>

/**
 * The operations a surface serves: each one's information at once, for what lists, routes and
 * documents them, and its code only on its first call, so that a start costs the same however many
 * operations there are. core/ is handed one; it never imports the registry of operations itself.
 */
export interface Registry {
  /** Every operation's information, in the registry's order. */
  readonly operations: readonly OperationInfo[]
  /** The operation named, loaded on its first call; undefined for a name that is none. */
  operation(name: string): Loaded | undefined
  /** Every operation, loaded: for what goes through them all (the build, the docs, the tests). */
  all(): Promise<AnyOperation[]>
}

/**
 * A registry over `infos` whose operations `load` gives on demand; `loaded` are there from the start
 * (the workflows, or a test's own operations). A load that fails is tried again at the next call.
 */
export function createRegistry(infos: readonly OperationInfo[], load: (name: string) => Loaded | undefined, loaded: readonly AnyOperation[] = []): Registry {
  const ready = new Map(loaded.map((operation) => [operation.name, operation]))
  const loading = new Map<string, Promise<AnyOperation>>()
  const known = new Set(infos.map((info) => info.name))
  const operation = (name: string): Loaded | undefined => {
    const found = ready.get(name) ?? loading.get(name)
    if (found !== undefined || !known.has(name)) return found
    const answer = load(name)
    if (answer === undefined || !(answer instanceof Promise)) {
      if (answer !== undefined) ready.set(name, answer)
      return answer
    }
    const promise = answer.then(
      (definition) => {
        ready.set(name, definition)
        loading.delete(name)
        return definition
      },
      (error: unknown) => {
        loading.delete(name)
        throw error
      },
    )
    loading.set(name, promise)
    return promise
  }
  return {
    operations: infos,
    operation,
    all: () => Promise.all(infos.map((info) => operation(info.name) as Loaded)),
  }
}

/** A registry of operations already loaded: a test's own, or a surface's that serves only those. */
export function registryOf(operations: readonly AnyOperation[]): Registry {
  return createRegistry(operations, () => undefined, operations)
}

/** `then(operation)`, at once when the operation is loaded, after its load otherwise. */
export function whenLoaded<T>(operation: Loaded, then: (operation: AnyOperation) => T | Promise<T>): T | Promise<T> {
  return operation instanceof Promise ? operation.then(then) : then(operation)
}
