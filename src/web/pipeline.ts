import { rawJson, renderData } from './answer.ts'
import { type AnswerPanel, answerPanel } from './answer-panel.ts'
import type { Answer } from './api.ts'
import type { WebCatalogue } from './catalogue-types.ts'
import { copyButton, h } from './dom.ts'
import { showErrorInForm } from './errors.ts'
import { buildForm, type OperationForm, runOnSubmit } from './form.ts'
import { linkSharing, readFragment } from './fragment.ts'
import { pageLayout } from './page.ts'
import { type Step, type StepList, stepList } from './pipeline-steps.ts'
import { categoryTitle } from './plain-names.ts'

const DEBOUNCE_MS = 300

/** How much of a step's result is shown under it; the last step's is whole in the answer. */
const STEP_RESULT_SHOWN_CHARACTERS = 2000

/**
 * The pipeline page: an input and a list of steps, each an operation with its own fields (without
 * `input`, which the previous step's result supplies), run by the pipeline endpoint. The steps and
 * their fields that are not secret live in the fragment, as on an operation's page.
 */
export function pipelinePage(catalogue: WebCatalogue): { element: HTMLElement; dispose(): void } {
  const panel = answerPanel()
  let timer: ReturnType<typeof setTimeout> | undefined
  let disposed = false
  const sharing = linkSharing()

  const onChange = () => {
    // As on an operation's page (tool.ts): a change after the page is left is not this page's to write.
    if (disposed) return
    sharing.share(shareableParams(inputForm, list.steps))
    clearTimeout(timer)
    if (!list.steps.some((step) => step.operation?.deliberatelySlow)) timer = setTimeout(run, DEBOUNCE_MS)
  }
  const inputForm = buildForm(
    [
      {
        name: 'input',
        label: 'Input',
        required: false,
        schema: { type: 'string', description: "The first step's input; each step's result becomes the next one's." },
      },
    ],
    onChange,
  )
  const list = stepList(catalogue, onChange)

  async function run() {
    clearTimeout(timer)
    clearErrors(inputForm, list.steps)
    const unchosen = list.steps.findIndex((step) => step.operation === undefined)
    if (unchosen >= 0) {
      panel.showStatus('done', `Choose the operation of step ${unchosen + 1}.`)
      return
    }
    const request = requestBody(inputForm, list.steps)
    if (!request) {
      panel.showStatus('error', 'Fix the field marked in the form: nothing was sent.')
      return
    }
    const answer = await panel.send('pipeline', request.body)
    if (answer) showAnswer(answer, panel, inputForm, list.steps)
  }

  restoreSteps(catalogue, inputForm, list)
  const formElement = pipelineForm(inputForm, list, sharing.note)
  runOnSubmit(formElement, run)
  void run()

  return {
    element: pageLayout({
      attributes: { class: 'tool pipeline' },
      category: categoryTitle('workflows'),
      title: 'Pipeline',
      summary: catalogue.pipeline.summary,
      description: catalogue.pipeline.description,
      inputHeading: 'Input and steps',
      formElement,
      status: panel.status,
      answerSlot: panel.answerSlot,
      curlSlot: panel.curlSlot,
    }),
    dispose() {
      disposed = true
      clearTimeout(timer)
      panel.abort()
    },
  }
}

/** The input and the steps from the fragment, or a first step of base64 on a fresh page. */
function restoreSteps(catalogue: WebCatalogue, inputForm: OperationForm, list: StepList): void {
  const byName = new Map(catalogue.operations.map((operation) => [operation.name, operation]))
  const fragment = readFragment()
  inputForm.setFromParams(fragment)
  for (const call of parseSteps(fragment.get('steps'))) {
    const operation = byName.get(String(call.operation))
    if (!operation) continue
    const { operation: _name, ...fields } = call
    list.append(operation, new URLSearchParams(fields as Record<string, string>))
  }
  if (list.steps.length === 0) list.append(byName.get('base64') ?? catalogue.operations[0])
  list.redraw()
}

function pipelineForm(inputForm: OperationForm, list: StepList, sharingNote: HTMLElement): HTMLFormElement {
  return h(
    'form',
    { class: 'tool-form', novalidate: true, 'aria-label': 'Pipeline' },
    inputForm.element,
    list.element,
    h(
      'div',
      { class: 'actions' },
      list.addButton,
      h('button', { type: 'submit', class: 'primary', id: 'run' }, 'Run'),
      copyButton('Copy link', () => location.href),
    ),
    sharingNote,
  )
}

/** The input and each chosen step with its fields, as the link keeps them. */
function shareableParams(inputForm: OperationForm, steps: Step[]): URLSearchParams {
  const params = inputForm.shareableParams()
  const chosen = steps.flatMap(({ operation, form }) => (operation ? [{ operation: operation.name, ...Object.fromEntries(form.shareableParams()) }] : []))
  params.set('steps', JSON.stringify(chosen))
  return params
}

function clearErrors(inputForm: OperationForm, steps: Step[]): void {
  inputForm.clearErrors()
  for (const step of steps) {
    step.form.clearErrors()
    step.errorSlot.replaceChildren()
    step.element.classList.remove('has-error')
  }
}

/** The pipeline request, or undefined once the fields' own errors are shown. */
function requestBody(inputForm: OperationForm, steps: Step[]): { body: Record<string, unknown> } | undefined {
  const input = inputForm.read()
  const calls: Array<Record<string, unknown>> = []
  let valid = 'body' in input
  for (const step of steps) {
    const reading = step.form.read()
    if ('errors' in reading) {
      for (const problem of reading.errors) step.form.showError(problem.field, problem.message)
      valid = false
    } else calls.push({ operation: step.operation?.name, ...reading.body })
  }
  if (!valid) return undefined
  const firstTakesInput = steps[0].operation?.fields.some((field) => field.name === 'input')
  const text = 'body' in input ? (input.body.input ?? '') : ''
  return { body: firstTakesInput ? { input: text, steps: calls } : { steps: calls } }
}

function showAnswer(answer: Answer, panel: AnswerPanel, inputForm: OperationForm, steps: Step[]): void {
  for (const step of steps) step.resultSlot.replaceChildren()
  if (!answer.success) {
    // As on an operation's page: the headline in words, the status and code in the JSON below.
    panel.answerSlot.replaceChildren(rawJson(answer.error))
    const headline = showPipelineError(answer, inputForm, steps)
    panel.showStatus('error', `${headline}${answer.retryAfter ? ` Retry in ${answer.retryAfter} s.` : ''}`)
    return
  }
  const last = steps[steps.length - 1].operation!
  const stepResults = (answer.data.steps as Array<Record<string, unknown>> | undefined) ?? []
  panel.showProcessingTime(answer.meta.processingTime)
  for (const [index, data] of stepResults.entries()) steps[index]?.resultSlot.replaceChildren(...stepResultView(index, data))
  panel.answerSlot.replaceChildren(renderData({ ...answer, data: stepResults[stepResults.length - 1] ?? { result: answer.data.result } }, last))
}

/**
 * An error where it belongs: in the failing step's form, in the pipeline's input, or under the step.
 * Returns the headline: the message, and the step by its number on the page (the API counts from 0).
 */
function showPipelineError(answer: Extract<Answer, { success: false }>, inputForm: OperationForm, steps: Step[]): string {
  const details = (answer.error.details ?? {}) as { step?: number; operation?: string; fields?: unknown; field?: string }
  const { step: index, operation, fields, ...location } = details
  const step = index === undefined ? undefined : steps[index]
  if (index === undefined || !step) {
    showErrorInForm(inputForm, answer.error)
    return answer.error.message
  }
  // The API's message begins by naming the step; under the step and in the headline, the page names it.
  const named = `Step ${index} (${operation}): `
  const { message } = answer.error
  const error = { ...answer.error, message: message.startsWith(named) ? message.slice(named.length) : message }
  step.element.classList.add('has-error')
  const inStepForm = showErrorInForm(step.form, error, fields ?? location)
  // A 422 about the text the step received: the first step received the pipeline's input.
  const unplaced =
    inStepForm.length > 0 && index === 0 && details.field === undefined && !Array.isArray(fields) ? showErrorInForm(inputForm, error, location) : inStepForm
  if (unplaced.length > 0) step.errorSlot.replaceChildren(h('p', { class: 'error-message' }, unplaced.join('; ')))
  return `Step ${index + 1} (${step.operation?.title}): ${error.message}`
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
