import { renderData } from './answer.ts'
import { answerPanel } from './answer-panel.ts'
import type { Answer } from './api.ts'
import type { WebCatalogue, WebOperation } from './catalogue-types.ts'
import { copyButton, h } from './dom.ts'
import { showErrorInForm } from './errors.ts'
import { buildForm, type OperationForm, runOnSubmit } from './form.ts'
import { linkSharing, readFragment } from './fragment.ts'
import { pageLayout } from './page.ts'
import { TOOL_PATH } from './paths.ts'

const DEBOUNCE_MS = 300

interface Step {
  /** Undefined for a step just added, until its operation is chosen. */
  operation: WebOperation | undefined
  form: OperationForm
  element: HTMLLIElement
  errorSlot: HTMLElement
  /** The step's own result, under it, once the pipeline has run. */
  resultSlot: HTMLElement
}

/** How much of a step's result is shown under it; the last step's is whole in the answer. */
const STEP_RESULT_SHOWN_CHARACTERS = 2000

/**
 * The pipeline page: an input and a list of steps, each an operation with its own fields (without
 * `input`, which the previous step's result supplies), run by the pipeline endpoint. The steps and
 * their fields that are not secret live in the fragment, as on an operation's page.
 */
export function pipelinePage(catalogue: WebCatalogue): { element: HTMLElement; dispose(): void } {
  const byName = new Map(catalogue.operations.map((operation) => [operation.name, operation]))
  const steps: Step[] = []
  const list = h('ol', { class: 'steps' })
  const panel = answerPanel()
  const { status, answerSlot, curlSlot, showStatus } = panel
  let timer: ReturnType<typeof setTimeout> | undefined
  let disposed = false
  const sharing = linkSharing()

  const onChange = () => {
    // As on an operation's page (tool.ts): a change after the page is left is not this page's to write.
    if (disposed) return
    sharing.share(shareableParams())
    clearTimeout(timer)
    if (!steps.some((step) => step.operation?.deliberatelySlow)) timer = setTimeout(run, DEBOUNCE_MS)
  }
  const inputForm = buildForm(
    [{ name: 'input', required: false, schema: { type: 'string', description: "The first step's input; each step's result becomes the next one's." } }],
    onChange,
  )
  const addButton = h('button', { type: 'button', class: 'secondary', id: 'add-step' }, 'Add a step')

  function stepView(operation: WebOperation | undefined, params = new URLSearchParams()): Step {
    const form = buildForm(operation?.fields.filter((field) => field.name !== 'input') ?? [], onChange)
    form.setFromParams(params)
    const errorSlot = h('div', { class: 'field-error step-error', 'aria-live': 'polite' })
    const resultSlot = h('div', { class: 'step-result' })
    const element = h('li', { class: 'step panel' })
    const step: Step = { operation, form, element, errorSlot, resultSlot }
    const select = h(
      'select',
      { class: 'step-operation' },
      operation ? null : h('option', { value: '', selected: true }, 'Choose an operation…'),
      ...catalogue.categories.map((category) =>
        h(
          'optgroup',
          { label: category },
          ...catalogue.operations
            .filter((candidate) => candidate.category === category)
            .map((candidate) => h('option', { value: candidate.name, selected: candidate.name === operation?.name }, candidate.name)),
        ),
      ),
    )
    select.addEventListener('change', () => {
      const replacement = stepView(byName.get(select.value))
      steps.splice(steps.indexOf(step), 1, replacement)
      redraw()
      replacement.element.querySelector('select')?.focus()
      onChange()
    })
    const move = (offset: number, label: string) =>
      h(
        'button',
        {
          type: 'button',
          class: 'secondary small',
          onclick: () => {
            const index = steps.indexOf(step)
            const target = index + offset
            if (target < 0 || target >= steps.length) return
            steps.splice(index, 1)
            steps.splice(target, 0, step)
            redraw()
            onChange()
          },
        },
        label,
      )
    const remove = h(
      'button',
      {
        type: 'button',
        class: 'secondary small',
        onclick: () => {
          if (steps.length === 1) return
          steps.splice(steps.indexOf(step), 1)
          redraw()
          addButton.focus()
          onChange()
        },
      },
      'Remove',
    )
    const heading = h('h3', { class: 'step-title' })
    element.append(
      h(
        'div',
        { class: 'step-head' },
        heading,
        h('label', { class: 'visually-hidden' }, 'Operation'),
        select,
        move(-1, 'Move up'),
        move(1, 'Move down'),
        remove,
      ),
      operation
        ? h('p', { class: 'help' }, operation.summary, ' ', h('a', { href: `${TOOL_PATH}${operation.name}` }, `(${operation.name} on its own)`))
        : h('p', { class: 'help' }, "Choose what this step does with the previous step's result."),
      errorSlot,
      form.element,
      resultSlot,
    )
    return step
  }

  function redraw() {
    for (const [index, step] of steps.entries()) {
      step.element.dataset.step = String(index)
      const title = step.element.querySelector('.step-title')!
      title.textContent = `Step ${index + 1}`
      const select = step.element.querySelector('select.step-operation')!
      select.id = `step-${index}-operation`
      const label = step.element.querySelector('.step-head label')!
      label.setAttribute('for', select.id)
      label.textContent = `Operation of step ${index + 1}`
      for (const [position, button] of [...step.element.querySelectorAll('.step-head button')].entries()) {
        button.setAttribute('aria-label', `${['Move up', 'Move down', 'Remove'][position]} step ${index + 1}`)
      }
    }
    list.replaceChildren(...steps.map((step) => step.element))
    addButton.disabled = steps.length >= catalogue.pipeline.maxSteps
  }

  addButton.addEventListener('click', () => {
    steps.push(stepView(undefined))
    redraw()
    steps[steps.length - 1].element.querySelector('select')?.focus()
    onChange()
  })

  function shareableParams(): URLSearchParams {
    const params = inputForm.shareableParams()
    const chosen = steps.flatMap(({ operation, form }) => (operation ? [{ operation: operation.name, ...Object.fromEntries(form.shareableParams()) }] : []))
    params.set('steps', JSON.stringify(chosen))
    return params
  }

  function body(): { body: Record<string, unknown> } | undefined {
    const input = inputForm.read()
    const calls: Array<Record<string, unknown>> = []
    let valid = 'body' in input
    for (const step of steps) {
      const reading = step.form.read()
      if ('errors' in reading) {
        for (const problem of reading.errors) step.form.showError(problem.field, `${problem.field} ${problem.message}`)
        valid = false
      } else calls.push({ operation: step.operation?.name, ...reading.body })
    }
    if (!valid) return undefined
    const firstTakesInput = steps[0].operation?.fields.some((field) => field.name === 'input')
    const text = 'body' in input ? (input.body.input ?? '') : ''
    return { body: firstTakesInput ? { input: text, steps: calls } : { steps: calls } }
  }

  async function run() {
    clearTimeout(timer)
    inputForm.clearErrors()
    for (const step of steps) {
      step.form.clearErrors()
      step.errorSlot.replaceChildren()
      step.element.classList.remove('has-error')
    }
    const unchosen = steps.findIndex((step) => step.operation === undefined)
    if (unchosen >= 0) {
      showStatus('done', `Choose the operation of step ${unchosen + 1}.`)
      return
    }
    const request = body()
    if (!request) {
      showStatus('error', 'Fix the field marked in the form: nothing was sent.')
      return
    }
    const answer = await panel.send('pipeline', request.body)
    if (answer) showAnswer(answer)
  }

  function showAnswer(answer: Answer) {
    for (const step of steps) step.resultSlot.replaceChildren()
    if (answer.success) {
      const last = steps[steps.length - 1].operation!
      const stepResults = (answer.data.steps as Array<Record<string, unknown>> | undefined) ?? []
      panel.showProcessingTime(answer.meta.processingTime)
      for (const [index, data] of stepResults.entries()) steps[index]?.resultSlot.replaceChildren(...stepResultView(index, data))
      answerSlot.replaceChildren(renderData({ ...answer, data: stepResults[stepResults.length - 1] ?? { result: answer.data.result } }, last))
      return
    }
    answerSlot.replaceChildren()
    const { error } = answer
    const details = (error.details ?? {}) as { step?: number; fields?: unknown; field?: string }
    const step = details.step === undefined ? undefined : steps[details.step]
    let unplaced: string[] = [error.message]
    if (step) {
      step.element.classList.add('has-error')
      const { step: _index, operation: _operation, fields, ...location } = details as Record<string, unknown>
      const inStepForm = showErrorInForm(step.form, error, fields ?? location)
      // A 422 about the text the step received: the first step received the pipeline's input.
      unplaced =
        inStepForm.length > 0 && details.step === 0 && details.field === undefined && !Array.isArray(fields)
          ? showErrorInForm(inputForm, error, location)
          : inStepForm
      if (unplaced.length > 0) step.errorSlot.replaceChildren(h('p', { class: 'error-message' }, unplaced.join('; ')))
    } else unplaced = showErrorInForm(inputForm, error)
    showStatus('error', `${answer.status} ${error.code}: ${error.message}${answer.retryAfter ? ` Retry in ${answer.retryAfter} s.` : ''}`)
  }

  const fragment = readFragment()
  inputForm.setFromParams(fragment)
  for (const call of parseSteps(fragment.get('steps'))) {
    const operation = byName.get(String(call.operation))
    if (!operation) continue
    const { operation: _name, ...fields } = call
    steps.push(stepView(operation, new URLSearchParams(fields as Record<string, string>)))
  }
  if (steps.length === 0) steps.push(stepView(byName.get('base64') ?? catalogue.operations[0]))
  redraw()

  const formElement = h(
    'form',
    { class: 'tool-form', novalidate: true, 'aria-label': 'Pipeline' },
    inputForm.element,
    list,
    h(
      'div',
      { class: 'actions' },
      addButton,
      h('button', { type: 'submit', class: 'primary', id: 'run' }, 'Run'),
      copyButton('Copy link', () => location.href),
    ),
    sharing.note,
  )
  runOnSubmit(formElement, run)
  void run()

  return {
    element: pageLayout({
      attributes: { class: 'tool pipeline' },
      category: 'workflows',
      title: 'Pipeline',
      summary: catalogue.pipeline.summary,
      description: catalogue.pipeline.description,
      inputHeading: 'Input and steps',
      formElement,
      status,
      answerSlot,
      curlSlot,
    }),
    dispose() {
      disposed = true
      clearTimeout(timer)
      panel.abort()
    },
  }
}

/** A step's result under it: its text, or the start of a long one with its length. */
function stepResultView(index: number, data: Record<string, unknown>): HTMLElement[] {
  const value = 'result' in data ? data.result : data
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2)
  const shown = text.length > STEP_RESULT_SHOWN_CHARACTERS ? `${text.slice(0, STEP_RESULT_SHOWN_CHARACTERS)}…` : text
  return [
    h(
      'p',
      { class: 'step-result-label' },
      `Result of step ${index + 1}`,
      text === shown ? '' : ` (the first ${STEP_RESULT_SHOWN_CHARACTERS} of ${text.length} characters)`,
    ),
    h('pre', { class: 'code', tabindex: 0, 'data-step-result': index }, shown),
  ]
}

function parseSteps(text: string | null): Array<Record<string, unknown>> {
  if (!text) return []
  try {
    const parsed = JSON.parse(text) as unknown
    return Array.isArray(parsed) ? parsed.filter((call): call is Record<string, unknown> => typeof call === 'object' && call !== null) : []
  } catch {
    return []
  }
}
