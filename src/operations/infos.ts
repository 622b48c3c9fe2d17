import { infoOf, type OperationInfo } from '../core/operation.ts'
import { operations } from './index.ts'

/**
 * Every operation's information (see `OperationInfo`), in the registry's order: what a server or
 * `devutils mcp` lists, routes and documents without loading any operation. Run from the sources, it
 * is worked out from the operations themselves; the build writes it in their place as data
 * (scripts/operation-infos.ts), so that the built service imports no operation to start.
 */
export const operationInfos: readonly OperationInfo[] = operations.map(infoOf)
