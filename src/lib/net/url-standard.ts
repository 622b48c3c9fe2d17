import type { URLRecord } from 'whatwg-url'
import { commonJsExports } from '../../core/commonjs.ts'
import { lazily } from '../../core/lazy.ts'

export type WhatwgUrl = typeof import('whatwg-url') & {
  /** Present in whatwg-url 17 but missing from its type definitions. */
  parseURLWithValidationErrors(input: string, options?: { baseURL?: URLRecord | null }): { url: URLRecord | null; validationErrors: string[] }
}

/** whatwg-url, the URL Standard's reference implementation, loaded with the first URL (see lazily). */
export const whatwgUrl = lazily(async () => commonJsExports(await import('whatwg-url')) as unknown as WhatwgUrl)
