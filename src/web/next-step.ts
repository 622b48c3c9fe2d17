import { h } from './dom.ts'
import { TOOL_PATH } from './paths.ts'
import { isRecord, type Json } from './views.ts'

/** What an answer suggests running next on the text: an operation, the fields to send it besides the text, and the field the text goes in. */
export interface NextStep {
  operation: string
  fields: Record<string, Json>
  field: string
}

export const isNextStep = (value: unknown): value is NextStep =>
  isRecord(value) && typeof value.operation === 'string' && isRecord(value.fields) && typeof value.field === 'string'

/**
 * The fields handed to the next tool page this tab opens. The text travels here, in memory, and
 * never in the address: it may be a token or a key.
 */
let handedOver: { operation: string; values: Record<string, unknown> } | undefined

/** The fields handed to `operation`'s page, if any: taken once. */
export function takeHandedOver(operation: string): Record<string, unknown> | undefined {
  const values = handedOver?.operation === operation ? handedOver.values : undefined
  handedOver = undefined
  return values
}

const textOf = (value: Json) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value))

/**
 * A link, drawn as a button, to the step's tool: it opens with the step's fields and `text` filled
 * in, and runs. Opened in another tab, the tool gets the fields its address holds, not the text.
 */
export function nextStepLink(step: NextStep, text: string): HTMLAnchorElement {
  const params = new URLSearchParams(Object.entries(step.fields).map(([name, value]) => [name, textOf(value)]))
  const link = h(
    'a',
    { href: `${TOOL_PATH}${encodeURIComponent(step.operation)}${params.size > 0 ? `#${params}` : ''}`, class: 'button secondary small next-step' },
    `Open in ${step.operation}`,
  )
  // Before the app's own handler, which opens the page: only a plain click stays in this tab.
  link.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    handedOver = { operation: step.operation, values: { ...step.fields, [step.field]: text } }
  })
  return link
}
