import { browserOperations } from 'devutils:browser-operations'
import { checkedInput } from '../core/checked-input.ts'
import { errorBody, INTERNAL_ERROR_MESSAGE, isDevutilsError } from '../core/errors.ts'
import { interpretSchemas } from '../core/validate.ts'
import type { Answer } from './api.ts'
import { inPageMeta } from './in-page-meta.ts'

interpretSchemas()

/**
 * Runs an operation that runs in the browser, on this thread, as the service would: the same schema
 * check, defaults and checks of the text, the same code, the same envelope (its status as the
 * service's would be), the answer's data as JSON carries it. `loaded` is called once the
 * operation's code is loaded, before it runs.
 */
export async function runOperationHere(name: string, body: unknown, loaded: () => void): Promise<Answer> {
  try {
    const load = browserOperations[name]
    if (load === undefined) throw new Error(`${name} does not run in the browser`)
    const operation = await load()
    loaded()
    const startedAt = performance.now()
    try {
      const data = JSON.parse(JSON.stringify(await operation.run(checkedInput(operation, body)))) as Record<string, unknown>
      return { success: true, data, meta: inPageMeta(startedAt), status: 200 }
    } catch (error) {
      if (isDevutilsError(error)) return { success: false, error: errorBody(error), meta: inPageMeta(startedAt), status: error.status }
      throw error
    }
  } catch (error) {
    console.error(error)
    return { success: false, error: { code: 'INTERNAL_ERROR', message: INTERNAL_ERROR_MESSAGE }, status: 500 }
  }
}
