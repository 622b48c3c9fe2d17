import type { AnyOperation } from './core/operation.ts'
import { served } from './served.ts'

/**
 * Everything the service serves, loaded: for what goes through every operation (the build, the docs,
 * the tests). The surfaces load each with its first call instead (served.ts).
 */
export const servedOperations: readonly AnyOperation[] = await served.all()
