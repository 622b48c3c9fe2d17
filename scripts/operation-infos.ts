import type { Plugin } from 'esbuild'
import type { OperationInfo } from '../src/core/operation.ts'

/**
 * Writes src/operations/infos.ts, in the bundle, as the operations' information itself, as data: the
 * built service lists, routes and documents every operation from it and imports an operation's code
 * only with its first call. Generated at every build from the definitions, so it cannot drift from them.
 */
export function operationInfosModule(infos: readonly OperationInfo[]): Plugin {
  return {
    name: 'operation-infos',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]operations[\\/]infos\.ts$/ }, () => ({
        // JSON.parse of a string literal: V8 reads JSON text faster than the same data as an object literal.
        contents: `export const operationInfos = JSON.parse(${JSON.stringify(JSON.stringify(infos))})\n`,
        loader: 'js',
      }))
    },
  }
}
