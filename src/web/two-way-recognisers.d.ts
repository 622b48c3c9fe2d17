// The recognisers of the operations that work both ways: the build resolves this name to
// src/operations/two-way-recognisers.ts, whose code is checked with the rest of the server's.
declare module 'devutils:two-way-recognisers' {
  import type { Recogniser } from '../core/recognise.ts'
  /** Each two-way operation's recognisers, by operation, loaded with the first call. */
  export const twoWayRecognisers: Readonly<Record<string, () => Promise<readonly Recogniser[]>>>
}
