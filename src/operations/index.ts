import type { AnyOperation } from '../core/operation.ts'
import { base64 } from './base64.ts'

/** THE registry: one entry per operation, alphabetical. Every surface is a loop over this list. */
export const operations: readonly AnyOperation[] = [
  base64,
]

export const operationsByName: ReadonlyMap<string, AnyOperation> = new Map(operations.map((operation) => [operation.name, operation]))
