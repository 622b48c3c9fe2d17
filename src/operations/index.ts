import type { AnyOperation } from '../core/operation.ts'
import { operationLoaders, type RegisteredName } from './registry.ts'

/** An operation of the registry with its own schemas and name in its type, as its loader gives it. */
type RegisteredOperation = { [Name in RegisteredName]: Awaited<ReturnType<(typeof operationLoaders)[Name]>> }[RegisteredName]

/**
 * Every operation of the registry, loaded, in its order: for what goes through them all (the build,
 * the docs, the tests). Each keeps its own schemas and name in its type, for the typed client.
 */
export const typedOperations: readonly RegisteredOperation[] = await Promise.all(Object.values(operationLoaders).map((load) => load()))

export const operations: readonly AnyOperation[] = typedOperations
export const operationsByName: ReadonlyMap<string, AnyOperation> = new Map(operations.map((operation) => [operation.name, operation]))
