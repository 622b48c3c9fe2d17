import type { AnyOperation } from './core/operation.ts'
import { createWorkflows } from './core/workflows.ts'
import { operations } from './operations/index.ts'

/** The pipeline and the batch, over the registry's operations. */
export const { pipeline, batch } = createWorkflows(operations)

/** Everything the service serves, on every surface: the registry's operations, then the workflows. */
export const servedOperations: readonly AnyOperation[] = [...operations, pipeline, batch]
