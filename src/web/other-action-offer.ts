import { twoWayRecognisers } from 'devutils:two-way-recognisers'
import { capitalised } from '../core/labels.ts'
import { type OtherAction, otherAction } from '../core/other-action.ts'
import type { WebOperation } from './catalogue-types.ts'
import { h } from './dom.ts'
import type { FieldView, OperationForm } from './form.ts'

/**
 * Under the input of an operation that works both ways, an offer of the other action when the text
 * is plainly on the other side already: "Recognised in the input: Base64. [Decode instead]". It is a
 * polite status, announced without taking the focus; its button chooses the action (and what else
 * the reading suggests), and the form runs as after any change. `check` reads the input and the
 * chosen action again. An operation without recognisers offers nothing.
 */
export function otherActionOffer(operation: WebOperation, form: OperationForm): { check(): void } {
  const load = twoWayRecognisers[operation.name]
  const input = form.fields.find(({ field }) => field.name === 'input')
  const action = form.fields.find(({ field }) => field.name === 'action')
  if (load === undefined || input === undefined || action === undefined) return { check() {} }
  const offer = h('div', { class: 'other-action', role: 'status' })
  input.container.append(offer)
  let latest = 0

  const choose = (fields: OtherAction['fields']) => {
    for (const view of form.fields) if (view.field.name in fields) view.control.setValue(fields[view.field.name])
    // The form follows its action's change event: which fields show, and a run.
    action.control.focusTarget.dispatchEvent(new Event('change', { bubbles: true }))
    action.control.focusTarget.focus()
  }
  const show = (found: OtherAction | undefined) =>
    offer.replaceChildren(
      ...(found === undefined
        ? []
        : [
            h('span', {}, `Recognised in the input: ${found.label}.`),
            h(
              'button',
              { type: 'button', class: 'secondary small', onclick: () => choose(found.fields) },
              `${actionLabel(action, found.fields.action)} instead`,
            ),
          ]),
    )

  return {
    check() {
      const asked = ++latest
      const chosen = textOf(action)
      const text = input.container.hidden ? '' : (textOf(input) ?? '')
      load()
        .then((recognisers) => otherAction(recognisers, operation.name, chosen, text))
        .catch((error: unknown) => {
          console.error(error)
          return undefined
        })
        .then((found) => {
          if (asked === latest) show(found)
        })
    },
  }
}

function textOf({ control }: FieldView): string | undefined {
  const reading = control.read()
  return reading.kind === 'value' ? reading.text : undefined
}

/** The action as its select shows it, in sentence case: "Decode", "Timestamp to date". */
function actionLabel({ field }: FieldView, value: unknown): string {
  return capitalised(field.choiceLabels?.[String(value)] ?? String(value))
}
