import type { WebCatalogue, WebOperation } from './catalogue-types.ts'
import { h } from './dom.ts'
import { buildForm, type OperationForm } from './form.ts'
import { TOOL_PATH } from './paths.ts'
import { categoryTitle } from './plain-names.ts'

export interface Step {
  /** Undefined for a step just added, until its operation is chosen. */
  operation: WebOperation | undefined
  form: OperationForm
  element: HTMLLIElement
  errorSlot: HTMLElement
  /** The step's own result, under it, once the pipeline has run. */
  resultSlot: HTMLElement
}

export interface StepList {
  /** The steps in order; the editor replaces, moves and removes them in place. */
  steps: Step[]
  element: HTMLOListElement
  addButton: HTMLButtonElement
  /** Appends a step (with its fields from `params`), without calling `onChange`. */
  append(operation: WebOperation | undefined, params?: URLSearchParams): void
  /** Numbers the steps and labels their controls after a change to the list. */
  redraw(): void
}

/** The pipeline's steps as an editable list: each step chooses its operation, moves up or down, or goes. */
export function stepList(catalogue: WebCatalogue, onChange: () => void): StepList {
  const byName = new Map(catalogue.operations.map((operation) => [operation.name, operation]))
  const steps: Step[] = []
  const element = h('ol', { class: 'steps' })
  const addButton = h('button', { type: 'button', class: 'secondary', id: 'add-step' }, 'Add a step')

  const edited = (focus: HTMLElement | null | undefined) => {
    redraw()
    focus?.focus()
    onChange()
  }
  const actions: StepActions = {
    replace(step, name) {
      const replacement = stepView(byName.get(name))
      steps.splice(steps.indexOf(step), 1, replacement)
      edited(replacement.element.querySelector('select'))
    },
    move(step, offset) {
      const index = steps.indexOf(step)
      const target = index + offset
      if (target < 0 || target >= steps.length) return
      steps.splice(index, 1)
      steps.splice(target, 0, step)
      edited(undefined)
    },
    remove(step) {
      if (steps.length === 1) return
      steps.splice(steps.indexOf(step), 1)
      edited(addButton)
    },
  }
  const stepView = (operation: WebOperation | undefined, params = new URLSearchParams()) => stepElement(catalogue, operation, params, onChange, actions)

  function redraw() {
    for (const [index, step] of steps.entries()) labelStep(step, index)
    element.replaceChildren(...steps.map((step) => step.element))
    addButton.disabled = steps.length >= catalogue.pipeline.maxSteps
  }

  addButton.addEventListener('click', () => {
    steps.push(stepView(undefined))
    edited(steps[steps.length - 1].element.querySelector('select'))
  })

  return {
    steps,
    element,
    addButton,
    append: (operation, params) => steps.push(stepView(operation, params)),
    redraw,
  }
}

/** What a step's own controls do to the list. */
interface StepActions {
  replace(step: Step, operationName: string): void
  move(step: Step, offset: number): void
  remove(step: Step): void
}

function stepElement(catalogue: WebCatalogue, operation: WebOperation | undefined, params: URLSearchParams, onChange: () => void, actions: StepActions): Step {
  const form = buildForm(operation?.fields.filter((field) => field.name !== 'input') ?? [], onChange)
  form.setFromParams(params)
  const errorSlot = h('div', { class: 'field-error step-error', 'aria-live': 'polite' })
  const resultSlot = h('div', { class: 'step-result' })
  const element = h('li', { class: 'step panel' })
  const step: Step = { operation, form, element, errorSlot, resultSlot }
  const select = operationSelect(catalogue, operation)
  select.addEventListener('change', () => actions.replace(step, select.value))
  const button = (label: string, onclick: () => void) => h('button', { type: 'button', class: 'secondary small', onclick }, label)
  element.append(
    h(
      'div',
      { class: 'step-head' },
      h('h3', { class: 'step-title' }),
      h('label', { class: 'visually-hidden' }, 'Operation'),
      select,
      button('Move up', () => actions.move(step, -1)),
      button('Move down', () => actions.move(step, 1)),
      button('Remove', () => actions.remove(step)),
    ),
    stepHelp(operation),
    errorSlot,
    form.element,
    resultSlot,
  )
  return step
}

/** The operations by category, the step's own chosen; a step just added starts with a prompt. */
function operationSelect(catalogue: WebCatalogue, operation: WebOperation | undefined): HTMLSelectElement {
  return h(
    'select',
    { class: 'step-operation' },
    operation ? null : h('option', { value: '', selected: true }, 'Choose an operation…'),
    ...catalogue.categories.map((category) =>
      h(
        'optgroup',
        { label: categoryTitle(category) },
        ...catalogue.operations
          .filter((candidate) => candidate.category === category)
          .map((candidate) => h('option', { value: candidate.name, selected: candidate.name === operation?.name }, candidate.title)),
      ),
    ),
  )
}

function stepHelp(operation: WebOperation | undefined): HTMLElement {
  return operation
    ? h('p', { class: 'help' }, operation.summary, ' ', h('a', { href: `${TOOL_PATH}${operation.name}` }, `(${operation.title} on its own)`))
    : h('p', { class: 'help' }, "Choose what this step does with the previous step's result.")
}

/** A step's number in its title, and in the names its controls are read out by. */
function labelStep(step: Step, index: number): void {
  step.element.dataset.step = String(index)
  step.element.querySelector('.step-title')!.textContent = `Step ${index + 1}`
  const select = step.element.querySelector('select.step-operation')!
  select.id = `step-${index}-operation`
  const label = step.element.querySelector('.step-head label')!
  label.setAttribute('for', select.id)
  label.textContent = `Operation of step ${index + 1}`
  for (const [position, button] of [...step.element.querySelectorAll('.step-head button')].entries()) {
    button.setAttribute('aria-label', `${['Move up', 'Move down', 'Remove'][position]} step ${index + 1}`)
  }
}
