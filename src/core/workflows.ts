import { defineBatch } from './batch.ts'
import { definePipeline } from './pipeline.ts'
import type { Registry } from './registry.ts'

export { BATCH_MAX_REQUESTS } from './batch.ts'
export { PIPELINE_MAX_STEPS } from './pipeline.ts'

/**
 * The workflows over a registry: the pipeline and the batch run its operations, by name, each
 * loaded with its first call. The registry is passed in, so that this module knows no operation of
 * its own. Their types keep their schemas, which the typed client reads.
 */
export function createWorkflows(registry: Registry) {
  return { pipeline: definePipeline(registry), batch: defineBatch(registry) }
}
