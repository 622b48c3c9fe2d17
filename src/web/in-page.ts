import { browserOperations } from 'devutils:browser-operations'
import { checkedInput } from '../core/checked-input.ts'
import { errorBody, INTERNAL_ERROR_MESSAGE, isDevutilsError } from '../core/errors.ts'
import { interpretSchemas } from '../core/validate.ts'
import type { Answer } from './api.ts'

interpretSchemas()

/** The request id of an answer made in the page: no request was made. */
const IN_PAGE_REQUEST_ID = 'in-page'

/**
 * Runs an operation that runs in the browser, as the service would: the same schema check, defaults
 * and checks of the text, the same code, the same envelope (its status as the service's would be),
 * the answer's data as JSON carries it. Nothing leaves the page.
 */
export async function runInPage(name: string, body: unknown): Promise<Answer> {
  const startedAt = performance.now()
  const meta = () => ({ processingTime: Math.round((performance.now() - startedAt) * 1000) / 1000, requestId: IN_PAGE_REQUEST_ID })
  try {
    const load = browserOperations[name]
    if (load === undefined) throw new Error(`${name} does not run in the browser`)
    const operation = await load()
    const data = JSON.parse(JSON.stringify(await operation.run(checkedInput(operation, body)))) as Record<string, unknown>
    return { success: true, data, meta: meta(), status: 200 }
  } catch (error) {
    if (isDevutilsError(error)) return { success: false, error: errorBody(error), meta: meta(), status: error.status }
    console.error(error)
    return { success: false, error: { code: 'INTERNAL_ERROR', message: INTERNAL_ERROR_MESSAGE }, meta: meta(), status: 500 }
  }
}
