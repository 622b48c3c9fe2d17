import { createRegistry, type Registry } from './core/registry.ts'
import { createWorkflows } from './core/workflows.ts'
import { operationInfos } from './operations/infos.ts'
import { loadOperation } from './operations/registry.ts'

const registered = createRegistry(operationInfos, loadOperation)

/** The pipeline and the batch, over the registry's operations. */
export const { pipeline, batch } = createWorkflows(registered)

/**
 * Everything the service serves, on every surface: the registry's operations, each loaded with its
 * first call, then the workflows.
 */
export const served: Registry = createRegistry([...operationInfos, pipeline, batch], (name) => registered.operation(name), [pipeline, batch])
