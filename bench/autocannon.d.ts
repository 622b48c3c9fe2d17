// autocannon ships no type declarations; this covers the part of its API the bench uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events'

  interface Request {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
  }

  interface Options {
    url: string
    connections?: number
    duration?: number
    amount?: number
    timeout?: number
    requests?: Request[]
  }

  interface Result {
    duration: number
    errors: number
    timeouts: number
  }

  interface Instance extends EventEmitter {
    stop(): void
  }

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance
  export default autocannon
}
