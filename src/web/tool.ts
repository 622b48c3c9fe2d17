import { capitalised } from '../core/labels.ts'
import { rawJson, renderData } from './answer.ts'
import { type AnswerPanel, answerPanel } from './answer-panel.ts'
import { type Answer, curlCommand } from './api.ts'
import type { WebOperation } from './catalogue-types.ts'
import { copyButton, h } from './dom.ts'
import { showErrorInForm } from './errors.ts'
import { fileOpener } from './file-input.ts'
import { buildForm, type FieldView, type OperationForm, runOnSubmit } from './form.ts'
import { linkSharing, readFragment } from './fragment.ts'
import { toolHabits } from './habits.ts'
import { takeHandedOver } from './next-step.ts'
import { otherActionOffer } from './other-action-offer.ts'
import { pageLayout } from './page.ts'
import { categoryTitle, plainNames } from './plain-names.ts'

const DEBOUNCE_MS = 250

/**
 * One operation's page: its form, its examples, and its answer, which follows the fields as they
 * change (except for a deliberately slow operation, which runs on request). The fields that are
 * not secret live in the URL's fragment, so that the address reproduces the computation. Its state
 * (the pending run, whether a link filled the form, whether the page was left) is shared by its
 * event handlers, so they stay closures here; what they do is in the functions below.
 */
export function toolPage(operation: WebOperation, bodyLimitBytes: number): { element: HTMLElement; dispose(): void } {
  const autoRun = !operation.deliberatelySlow
  const panel = answerPanel()
  let timer: ReturnType<typeof setTimeout> | undefined
  let disposed = false
  // Whether the fields came from a link, which never holds a secret: a missing one was left out on purpose.
  let fromLink = false
  const sharing = linkSharing()

  const onChange = () => {
    // A field focused as the page is left fires its change event when removed: by then the
    // address is the next page's, whose fragment is not this form's to write.
    if (disposed) return
    sharing.share(form.shareableParams())
    if (!autoRun) return
    clearTimeout(timer)
    timer = setTimeout(run, DEBOUNCE_MS)
  }
  const form = buildForm(operation.fields, onChange, operation.actions)
  const view: ToolView = { operation, panel, form }
  markMainField(view)
  const openFile = fileOpener(operation, form, bodyLimitBytes)
  const offer = otherActionOffer(operation, form)

  async function run() {
    clearTimeout(timer)
    offer.check()
    const sent = await send(view, fromLink)
    if (sent) showAnswer(view, sent, habits)
  }

  /** Fills the form from a link's fragment (empty: the defaults), remembering whether a link filled it. */
  function showParams(params: URLSearchParams) {
    fromLink = params.size > 0
    form.setFromParams(params)
  }

  /** Fills the form with these values (an example's, or those another tool handed over) and runs it. */
  function runWith(values: Record<string, unknown>) {
    fromLink = false
    form.setFromValues(values)
    sharing.share(form.shareableParams())
    void run()
  }

  const examples = examplesBar(operation, (example) => runWith(example.input))
  const formElement = toolForm(operation, form.element, sharing.note, () => {
    showParams(new URLSearchParams())
    onChange()
  })
  runOnSubmit(formElement, run)
  const habits = toolHabits(operation, form, panel.answerSlot)

  const element = toolLayout(view, { examples, formElement, openFile })

  const handedOver = takeHandedOver(operation.name)
  if (handedOver) runWith(handedOver)
  else {
    const params = readFragment()
    showParams(params)
    if (startsRunning(view, params, fromLink)) void run()
  }

  const onHashChange = () => {
    const wanted = readFragment()
    if (wanted.toString() === form.shareableParams().toString()) return
    showParams(wanted)
    if (autoRun) void run()
  }
  window.addEventListener('hashchange', onHashChange)
  return {
    element,
    dispose() {
      disposed = true
      clearTimeout(timer)
      panel.abort()
      window.removeEventListener('hashchange', onHashChange)
    },
  }
}

/** What the page's parts work on: the operation, its form and the panel its answer shows in. */
interface ToolView {
  operation: WebOperation
  form: OperationForm
  panel: AnswerPanel
}

/** The page's parts in the layout every page shares; a file dropped on it opens into the input. */
function toolLayout(
  { operation, panel }: ToolView,
  { examples, formElement, openFile }: { examples: HTMLElement; formElement: HTMLFormElement; openFile: ReturnType<typeof fileOpener> },
): HTMLElement {
  const element = pageLayout({
    attributes: { class: 'tool', 'data-operation': operation.name },
    category: categoryTitle(operation.category),
    title: operation.title,
    summary: operation.summary,
    description: operation.description,
    names: plainNames(operation.fields),
    examples,
    inputHeading: 'Input',
    formElement,
    status: panel.status,
    answerSlot: panel.answerSlot,
    curlSlot: panel.curlSlot,
  })
  if (openFile) acceptDroppedFiles(element, openFile)
  if (operation.runsInBrowser) markRunsInBrowser(element)
  return element
}

/** The main field leads the page on a phone, the answer right under it. */
function markMainField({ operation, form }: ToolView): void {
  const mainField = operation.fields.find((field) => field.required)?.name ?? operation.fields[0]?.name
  form.element.querySelector(`[data-field="${mainField}"]`)?.classList.add('main-field')
}

/**
 * Until the chosen action has what it requires nothing is sent: a hint says what to fill in, and
 * an answer already shown stays, marked as the previous input's. True when something is missing.
 */
function awaitMissing({ operation, form, panel }: ToolView, fromLink: boolean): boolean {
  const missing = form.missing()
  if (missing.length === 0) return false
  const hint = missingHint(operation, missing, actionName(form), fromLink)
  const previous = panel.answerSlot.childElementCount > 0
  panel.answerSlot.toggleAttribute('data-stale', previous)
  panel.showStatus('done', previous ? `${hint} The answer below is for the previous input.` : hint)
  return true
}

/** Sends the form when it is complete and valid, else marks what to fix; the answer with its request, or none when nothing was sent. */
async function send(view: ToolView, fromLink: boolean): Promise<{ answer: Answer; request: Record<string, unknown> } | undefined> {
  const { operation, form, panel } = view
  form.clearErrors()
  if (awaitMissing(view, fromLink)) return undefined
  const reading = form.read()
  if ('errors' in reading) {
    for (const problem of reading.errors) form.showError(problem.field, problem.message)
    panel.showStatus('error', 'Fix the field marked in the form: nothing was sent.')
    return undefined
  }
  const answer = await panel.send(operation.name, reading.body, operation.runsInBrowser)
  return answer && { answer, request: reading.body }
}

function showAnswer(
  { operation, form, panel }: ToolView,
  { answer, request }: { answer: Answer; request: Record<string, unknown> },
  habits: ReturnType<typeof toolHabits>,
): void {
  const { answerSlot, showStatus } = panel
  answerSlot.removeAttribute('data-stale')
  if (answer.success) {
    panel.showProcessingTime(answer.meta.processingTime, operation.runsInBrowser)
    answerSlot.replaceChildren(renderData(answer, operation, request))
    habits.answered(answer.data)
    return
  }
  // The headline says what went wrong in words; the status and code are the API's, in the JSON below.
  const unplaced = showErrorInForm(form, answer.error)
  const retry = answer.retryAfter ? ` Retry in ${answer.retryAfter} s.` : ''
  showStatus('error', `${unplaced.length > 0 ? unplaced.join('; ') : 'Fix the field marked in the form.'}${retry}`)
  answerSlot.replaceChildren(rawJson(answer.error))
}

/**
 * The page as it opens: it runs at once when it follows typing and has its input (from a link, or
 * because none is required); otherwise it says what to do and shows the request it would send.
 */
function startsRunning(view: ToolView, params: URLSearchParams, fromLink: boolean): boolean {
  const { operation, form, panel } = view
  const autoRun = !operation.deliberatelySlow
  const hasRequired = operation.fields.some((field) => field.required)
  if (awaitMissing(view, fromLink)) {
    panel.curlSlot.textContent = ''
    return false
  }
  if (autoRun && ([...params.keys()].length > 0 || !hasRequired)) return true
  panel.showStatus('done', autoRun ? 'Type an input, or pick an example.' : 'Fill in the fields and press Run, or pick an example.')
  panel.curlSlot.textContent = curlCommand(operation.name, 'body' in form.read() ? (form.read() as { body: object }).body : {})
  return false
}

function actionName(form: OperationForm): string | undefined {
  const reading = form.fields.find(({ field }) => field.name === 'action')?.control.read()
  return reading?.kind === 'value' ? String(reading.value) : undefined
}

/**
 * What to fill in before anything is sent; when only secrets are missing from a link, each is named
 * as left out on purpose. An action shown as a bare verb ends the sentence ("to decode"); one shown
 * as a phrase ("YAML → JSON") is left to its select, in view beside the hint.
 */
function missingHint(operation: WebOperation, missing: FieldView[][], action: string | undefined, fromLink: boolean): string {
  const namesOf = (views: FieldView[]) => views.map(({ field }) => `the ${inSentence(field.label)}`).join(' or ')
  const actionLabel = operation.fields.find((field) => field.name === 'action')?.choiceLabels?.[action ?? '']
  const purpose = action === undefined || actionLabel !== undefined ? '' : ` to ${action}`
  if (fromLink && missing.every((views) => views.every(({ field }) => field.schema.writeOnly))) {
    const names = missing.map(namesOf).join(' and ')
    const [verb, pronoun] = missing.length > 1 ? ['were', 'them'] : ['was', 'it']
    return `${capitalised(names)} ${verb} deliberately left out of the link, as secrets always are: type ${pronoun}${purpose}.`
  }
  const [need] = missing
  return `${hintVerb(need)} ${namesOf(need)}${purpose}${operation.examples.length > 0 ? ', or pick an example' : ''}.`
}

/** A label inside a sentence: its first letter in lower case, unless it begins a word in capitals ("JSON args"). */
function inSentence(label: string): string {
  return label.replace(/^[A-Z](?![A-Z])/, (letter) => letter.toLowerCase())
}

function examplesBar(operation: WebOperation, pick: (example: WebOperation['examples'][number]) => void): HTMLElement {
  return h(
    'div',
    { class: 'examples', role: 'group', 'aria-labelledby': 'examples-label' },
    h('span', { id: 'examples-label', class: 'examples-label' }, 'Examples:'),
    ...operation.examples.map((example, index) =>
      h('button', { type: 'button', class: 'secondary small example', 'data-example': index, onclick: () => pick(example) }, example.summary),
    ),
  )
}

/** The form with its buttons (Run, Copy link, Reset) and what the page does with what is typed. */
function toolForm(operation: WebOperation, fields: HTMLElement, sharingNote: HTMLElement, reset: () => void): HTMLFormElement {
  const autoRun = !operation.deliberatelySlow
  return h(
    'form',
    { class: 'tool-form', novalidate: true, 'aria-label': `${operation.title}: input` },
    fields,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: autoRun ? 'secondary' : 'primary', id: 'run' }, autoRun ? 'Run again' : 'Run'),
      copyButton('Copy link', () => location.href),
      h('button', { type: 'button', class: 'secondary', onclick: reset }, 'Reset'),
    ),
    sharingNote,
    h(
      'p',
      { class: 'hint' },
      autoRun ? 'The answer follows your typing. ' : 'This operation is slow on purpose: press Run (or Ctrl+Enter). ',
      operation.runsInBrowser
        ? 'It runs in your browser: what you type never leaves this page, and it works offline. '
        : 'It runs on this service, so what you type is sent to it. ',
      'Secrets and tokens are never put in the link.',
    ),
  )
}

function markRunsInBrowser(page: HTMLElement): void {
  page
    .querySelector('.summary')
    ?.after(h('p', { class: 'runs-here' }, h('span', { class: 'badge' }, 'runs in your browser'), ' Your input never leaves this page.'))
}

/** "Choose" for a closed set, "Paste" for the main input or a document, "Type" for the rest. */
function hintVerb(need: FieldView[]): string {
  const [{ field, control }] = need
  if (control.focusTarget instanceof HTMLSelectElement) return 'Choose'
  return field.name === 'input' || field.schema.type !== 'string' ? 'Paste' : 'Type'
}

/** The page as a drop zone: a file dropped anywhere on it is opened into the input, never by the browser in its place. */
function acceptDroppedFiles(page: HTMLElement, open: (file: File) => Promise<void>): void {
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true
  page.addEventListener('dragover', (event) => {
    if (!carriesFiles(event)) return
    event.preventDefault()
    page.classList.add('dropping')
  })
  page.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null || !page.contains(event.relatedTarget as Node)) page.classList.remove('dropping')
  })
  page.addEventListener('drop', (event) => {
    const [file] = event.dataTransfer?.files ?? []
    if (!file) return
    event.preventDefault()
    page.classList.remove('dropping')
    void open(file)
  })
}
