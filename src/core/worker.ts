import { operationsByName } from '../operations/index.ts'
import { settle, type OperationTask, type WorkerOutcome } from './pool.ts'

/**
 * The worker-thread entry of the operation pool: runs an operation of the registry on an input that
 * `execute` has already validated and defaulted on the main thread, so only `run` happens here.
 */
export default function runOperation({ operation, input }: OperationTask): Promise<WorkerOutcome> {
  return settle(() => {
    const definition = operationsByName.get(operation)
    if (!definition) throw new Error(`No operation named '${operation}' in the registry`)
    return definition.run(input)
  })
}
