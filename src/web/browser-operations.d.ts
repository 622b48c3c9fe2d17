// The operations that run in the browser, written by the build from the registry (see scripts/build.ts).
declare module 'devutils:browser-operations' {
  import type { AnyOperation } from '../core/operation.ts'
  /** Each operation marked `runsInBrowser`, by name, loaded with its first call. */
  export const browserOperations: Readonly<Record<string, () => Promise<AnyOperation>>>
}
