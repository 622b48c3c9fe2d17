/**
 * `SharedArrayBuffer` for the page's code: the browser's own where the page is cross-origin
 * isolated, else a class that no value belongs to, whose getters refuse every receiver as the real
 * ones refuse what is not shared memory. webidl-conversions, which whatwg-url loads, reads those
 * getters as it loads, and the browser has no such global in a page that is not isolated.
 */
class NoSharedMemory {
  get byteLength(): number {
    throw new TypeError('not a SharedArrayBuffer')
  }

  get growable(): boolean {
    throw new TypeError('not a SharedArrayBuffer')
  }
}

const sharedArrayBuffer = globalThis.SharedArrayBuffer ?? NoSharedMemory

export { sharedArrayBuffer as SharedArrayBuffer }
