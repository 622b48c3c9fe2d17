import type { FieldSchema, WebOperation } from './catalogue-types.ts'
import { h, richText } from './dom.ts'
import { plainNames } from './plain-names.ts'
import { suggestionsFor } from './suggestions.ts'

/** What a field holds: nothing to send, a value to send (with its text, as the URL keeps it), or an error of its own. */
export type FieldReading = { kind: 'omit' } | { kind: 'value'; value: unknown; text: string } | { kind: 'invalid'; message: string }

type Field = WebOperation['fields'][number]

/** The control of one field: how it reads, how it is set from text (a URL) or from a value (an example). */
interface Control {
  element: HTMLElement
  read(): FieldReading
  setText(text: string | undefined): void
  setValue(value: unknown): void
  /** The control a message about the field points at, and that receives focus to fix it. */
  focusTarget: HTMLElement
}

export interface FieldView {
  field: Field
  control: Control
  container: HTMLElement
  errorSlot: HTMLElement
}

export interface OperationForm {
  element: HTMLElement
  fields: FieldView[]
  /** The requirements of the chosen action not met yet: each a list of fields, one of which is enough. */
  missing(): FieldView[][]
  /** The request body, or the fields' own errors, each a sentence that names its field by its label ("Payload is not valid JSON: …"). */
  read(): { body: Record<string, unknown> } | { errors: Array<{ field: string; message: string }> }
  /** The fields as URL parameters: only those that differ from their defaults, never a secret. */
  shareableParams(): URLSearchParams
  setFromParams(params: URLSearchParams): void
  setFromValues(values: Record<string, unknown>): void
  showError(field: string, message: string, location?: ErrorLocation): boolean
  clearErrors(): void
}

/** Where in a field's text a 422 says the problem lies. */
export interface ErrorLocation {
  position?: number
  line?: number
  column?: number
  row?: number
  path?: string
}

let formCount = 0

/**
 * A form for an operation's input, drawn from its schema: a select for an enum, a switch for a
 * boolean, a number input with the schema's bounds, a text area for text and JSON, each with its
 * description as help and its default filled in. With `actions`, only the chosen action's fields
 * are shown (and sent); the main input, the action and what it requires stay in view, the rest
 * folds under "Options".
 */
export function buildForm(fields: Field[], onChange: () => void, actions?: WebOperation['actions']): OperationForm {
  const prefix = `f${++formCount}`
  const names = plainNames(fields)
  const views = fields.map((field) => fieldView(field, `${prefix}-${field.name}`, names))
  const byName = new Map(views.map((view) => [view.field.name, view]))
  const rules = actionRules(views, byName, actions)
  const layout = fieldLayout(views, rules)
  layout.element.addEventListener('input', onChange)
  layout.element.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).closest('[data-field="action"]')) layout.place()
    onChange()
  })

  return {
    element: layout.element,
    fields: views,
    missing: () => rules.requirements().filter((need) => need.every(({ control }) => isBlank(control.read()))),
    read: () => readBody(views.filter(rules.shown)),
    shareableParams: () => shareableParamsOf(views.filter(rules.shown)),
    setFromParams(params) {
      for (const { field, control } of views) control.setText(field.schema.writeOnly ? undefined : (params.get(field.name) ?? undefined))
      layout.place()
      layout.openChangedOptions()
    },
    setFromValues(values) {
      for (const { field, control } of views) {
        if (field.name in values) control.setValue(values[field.name])
        else control.setText(undefined)
      }
      layout.place()
      layout.openChangedOptions()
    },
    showError(fieldName, message, location) {
      const view = byName.get(fieldName)
      if (!view) return false
      showFieldError(view, message, location)
      return true
    },
    clearErrors() {
      for (const view of views) clearFieldError(view)
    },
  }
}

/**
 * One field: its control, its label with a badge for a secret, its help and the slot for its error.
 * What is required is no badge: the page says what it waits for before it sends anything.
 */
function fieldView(field: Field, id: string, names: ReadonlyMap<string, string>): FieldView {
  const control = controlFor(field, id)
  const helpId = `${id}-help`
  const errorSlot = h('div', { class: 'field-error', id: `${id}-error`, 'aria-live': 'polite' })
  control.focusTarget.setAttribute('aria-describedby', `${helpId} ${id}-error`)
  const badge = field.schema.writeOnly ? h('span', { class: 'badge secret', title: 'A secret: never put in a shared link' }, 'secret, not shared') : null
  const label =
    control.element instanceof HTMLFieldSetElement
      ? null
      : h('label', { for: id, class: 'field-label' }, h('span', { class: 'field-name' }, field.label), badge)
  if (control.element instanceof HTMLFieldSetElement) control.element.prepend(h('legend', { class: 'field-label' }, field.label, badge))
  const container = h(
    'div',
    { class: `field field-${field.name}`, 'data-field': field.name },
    label,
    control.element,
    h('p', { class: 'help', id: helpId }, ...richText(helpText(field.schema), names)),
    errorSlot,
  )
  return { field, control, container, errorSlot }
}

/** What the chosen action decides: which fields are shown, and which it requires. */
interface ActionRules {
  shown(view: FieldView): boolean
  /** The schema's required fields and the action's own, each a list of which one will do. */
  requirements(): FieldView[][]
}

function actionRules(views: FieldView[], byName: Map<string, FieldView>, actions: WebOperation['actions'] | undefined): ActionRules {
  const chosenAction = () => {
    const reading = byName.get('action')?.control.read()
    return reading?.kind === 'value' ? actions?.[String(reading.value)] : undefined
  }
  const shown = (view: FieldView) => {
    const action = chosenAction()
    return action === undefined || view.field.name === 'action' || action.fields.includes(view.field.name)
  }
  const requirements = (): FieldView[][] => {
    const needs: FieldView[][] = views.filter((view) => view.field.required && shown(view)).map((view) => [view])
    for (const need of chosenAction()?.requires ?? []) {
      needs.push([need].flat().flatMap((name) => byName.get(name) ?? []))
    }
    return needs
  }
  return { shown, requirements }
}

/** Where the fields stand: the action, the input and what is required in view, the other shown ones under "Options". */
function fieldLayout(views: FieldView[], rules: ActionRules) {
  const main = h('div', { class: 'main-fields' })
  const optionFields = h('div', { class: 'option-fields' })
  const options = h('details', { class: 'options' }, h('summary', {}, 'Options'), optionFields)
  const place = () => {
    const needed = new Set(rules.requirements().flat())
    for (const view of views) {
      view.container.hidden = !rules.shown(view)
      const inView = view.field.name === 'action' || view.field.name === 'input' || needed.has(view)
      ;(inView ? main : optionFields).append(view.container)
    }
    options.hidden = !views.some((view) => rules.shown(view) && view.container.parentElement === optionFields)
  }
  /** A link or an example that sets an option shows it: the options open where one differs from its default. */
  const openChangedOptions = () => {
    options.open = views.some(({ field, control, container }) => {
      if (container.hidden || container.parentElement !== optionFields) return false
      const reading = control.read()
      return reading.kind === 'value' && reading.text !== defaultText(field.schema)
    })
  }
  place()
  return { element: h('div', { class: 'form-fields' }, main, options), place, openChangedOptions }
}

function isBlank(reading: FieldReading): boolean {
  return reading.kind === 'omit' || (reading.kind === 'value' && reading.text.trim() === '')
}

/** The request body from the shown fields: the required ones and those not at their defaults, or the fields' own errors. */
function readBody(views: FieldView[]): ReturnType<OperationForm['read']> {
  const body: Record<string, unknown> = {}
  const errors: Array<{ field: string; message: string }> = []
  for (const { field, control } of views) {
    const reading = control.read()
    if (reading.kind === 'invalid') errors.push({ field: field.name, message: `${field.label} ${reading.message}` })
    else if (reading.kind === 'value' && (field.required || reading.text !== defaultText(field.schema))) body[field.name] = reading.value
  }
  return errors.length > 0 ? { errors } : { body }
}

function shareableParamsOf(views: FieldView[]): URLSearchParams {
  const params = new URLSearchParams()
  for (const { field, control } of views) {
    if (field.schema.writeOnly) continue
    const reading = control.read()
    if (reading.kind === 'value' && reading.text !== defaultText(field.schema)) params.set(field.name, reading.text)
  }
  return params
}

function showFieldError(view: FieldView, message: string, location: ErrorLocation | undefined): void {
  view.container.classList.add('has-error')
  view.control.focusTarget.setAttribute('aria-invalid', 'true')
  view.errorSlot.replaceChildren(h('p', { class: 'error-message' }, message))
  if (location) view.errorSlot.append(locationView(view.control.focusTarget, location))
}

function clearFieldError(view: FieldView): void {
  view.container.classList.remove('has-error')
  view.control.focusTarget.removeAttribute('aria-invalid')
  view.errorSlot.replaceChildren()
}

/** What the description says an optional boolean without a schema default is when omitted ("Default: true for …"), else false. */
function documentedDefault(schema: FieldSchema): boolean {
  return /\bdefault:?\s+(?:is\s+)?`?true\b/i.test(schema.description ?? '')
}

function helpText(schema: FieldSchema): string {
  const parts = [schema.description ?? '']
  const bounds = numberBounds(schema)
  if (bounds && !/\d/.test(schema.description ?? '')) parts.push(bounds)
  return parts.join(' ').trim()
}

function numberBounds(schema: FieldSchema): string | undefined {
  if (schema.type !== 'integer' && schema.type !== 'number') return undefined
  if (schema.minimum !== undefined && schema.maximum !== undefined) return `From ${schema.minimum} to ${schema.maximum}.`
  if (schema.minimum !== undefined) return `At least ${schema.minimum}.`
  if (schema.maximum !== undefined) return `At most ${schema.maximum}.`
  return undefined
}

/** A default as the text its control shows, so that a field left at its default is not sent nor shared. */
function defaultText(schema: FieldSchema): string | undefined {
  return schema.default === undefined ? undefined : textOf(schema.default)
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value, null, 2)
}

/** The constant choices of a field, when it has nothing but: an enum, or consts and small integer ranges. */
function choicesOf(schema: FieldSchema): Array<string | number | boolean> | undefined {
  if (schema.enum) return schema.enum
  if (!schema.anyOf) return undefined
  const choices: Array<string | number | boolean> = []
  for (const member of schema.anyOf) {
    // Other spellings of the closed set beside it (a pattern over its names): the set is the choice.
    if (member.type === 'string' && member.pattern !== undefined && schema.anyOf.some((other) => other.enum)) continue
    if (member.const !== undefined) choices.push(member.const)
    else if (member.enum) choices.push(...member.enum)
    else if (member.type === 'integer' && member.minimum !== undefined && member.maximum !== undefined && member.maximum - member.minimum <= 16) {
      for (let value = member.minimum; value <= member.maximum; value++) choices.push(value)
    } else return undefined
  }
  return choices
}

/** Whether `text` is another spelling of a closed set's choice, which the pattern beside the set accepts. */
function isOtherSpelling(schema: FieldSchema, text: string): boolean {
  return schema.anyOf?.some((member) => member.type === 'string' && member.pattern !== undefined && new RegExp(member.pattern, 'u').test(text)) ?? false
}

function controlFor(field: Field, id: string): Control {
  const { schema } = field
  const choices = choicesOf(schema)
  if (choices) return selectControl(id, [...choices], field)
  if (schema.type === 'boolean')
    return switchControl(id, schema.default === undefined ? documentedDefault(schema) : schema.default === true, schema.default === undefined)
  if (schema.type === 'integer' || schema.type === 'number') return numberControl(id, schema, field.required)
  if (schema.type === 'object' || schema.type === 'array') return jsonControl(id, schema)
  return textControl(id, field)
}

/** A select of the choices, each shown by its label; without a default, it starts on "Choose…" where one is required, else on "Default", which leaves it to the operation. */
function selectControl(id: string, choices: Array<string | number | boolean>, field: Field): Control {
  const fallback = field.schema.default
  const hasDefault = fallback !== undefined
  const select = h(
    'select',
    { id },
    hasDefault ? null : h('option', { value: '' }, field.required ? 'Choose…' : 'Default'),
    ...choices.map((choice, index) => h('option', { value: String(index) }, field.choiceLabels?.[String(choice)] ?? String(choice))),
  )
  const indexOfText = (text: string | undefined) => choices.findIndex((choice) => String(choice) === text)
  const setText = (text: string | undefined) => {
    if (text !== undefined && indexOfText(text) < 0 && isOtherSpelling(field.schema, text)) {
      // Kept as it was given (by a link or an example), as the service would read it.
      choices.push(text)
      select.append(h('option', { value: String(choices.length - 1) }, text))
    }
    const index = indexOfText(text ?? (hasDefault ? String(fallback) : undefined))
    select.value = index >= 0 ? String(index) : hasDefault ? String(indexOfText(String(fallback))) : ''
  }
  setText(undefined)
  return {
    element: select,
    focusTarget: select,
    read() {
      if (select.value === '') return { kind: 'omit' }
      const choice = choices[Number(select.value)]
      return { kind: 'value', value: choice, text: String(choice) }
    },
    setText,
    setValue: (value) => setText(String(value)),
  }
}

/**
 * A switch. A boolean whose default depends on other fields shows what the description documents,
 * and is sent only once set, so that the server still decides.
 */
function switchControl(id: string, fallback: boolean, omitUntilSet: boolean): Control {
  const input = h('input', { type: 'checkbox', role: 'switch', id, class: 'switch' })
  let set = false
  input.addEventListener('change', () => {
    set = true
  })
  const setText = (text: string | undefined) => {
    set = text !== undefined
    input.checked = text === undefined ? fallback : text === 'true'
  }
  setText(undefined)
  return {
    element: h('span', { class: 'switch-wrap' }, input),
    focusTarget: input,
    read: () => (omitUntilSet && !set ? { kind: 'omit' } : { kind: 'value', value: input.checked, text: String(input.checked) }),
    setText,
    setValue: (value) => setText(String(value)),
  }
}

function numberControl(id: string, schema: FieldSchema, required: boolean): Control {
  const input = h('input', {
    type: 'number',
    id,
    inputmode: schema.type === 'integer' ? 'numeric' : 'decimal',
    min: schema.minimum,
    max: schema.maximum,
    step: schema.multipleOf ?? (schema.type === 'integer' ? 1 : 'any'),
    placeholder: schema.default === undefined ? (required ? 'required' : 'default') : undefined,
  })
  const setText = (text: string | undefined) => {
    input.value = text ?? (schema.default === undefined ? '' : String(schema.default))
  }
  setText(undefined)
  return {
    element: input,
    focusTarget: input,
    read() {
      if (input.validity.badInput) return { kind: 'invalid', message: 'is not a number' }
      if (input.value.trim() === '') return { kind: 'omit' }
      const value = Number(input.value)
      return { kind: 'value', value, text: String(value) }
    },
    setText,
    setValue: (value) => setText(String(value)),
  }
}

function jsonControl(id: string, schema: FieldSchema): Control {
  const area = h('textarea', {
    id,
    rows: 3,
    spellcheck: 'false',
    class: 'code',
    placeholder: schema.type === 'array' ? 'JSON array, e.g. ["a", "b"]' : 'JSON object',
  })
  const setText = (text: string | undefined) => {
    area.value = text ?? (schema.default === undefined ? '' : textOf(schema.default))
  }
  setText(undefined)
  return {
    element: area,
    focusTarget: area,
    read() {
      if (area.value.trim() === '') return { kind: 'omit' }
      try {
        return { kind: 'value', value: JSON.parse(area.value), text: area.value }
      } catch (error) {
        return { kind: 'invalid', message: `is not valid JSON: ${(error as Error).message}` }
      }
    },
    setText,
    setValue: (value) => setText(textOf(value)),
  }
}

/**
 * Text, and the fields that take text or something else (a date or a number, a JWK as text or
 * object, JSON for the converters): every one of those accepts the text form, which is what is sent.
 */
function textControl(id: string, field: Field): Control {
  const { schema } = field
  const multiline = field.name === 'input' || field.required || (schema.maxLength ?? Number.POSITIVE_INFINITY) >= 4096 || schema.type !== 'string'
  const example = schema.examples?.[0]
  const attributes = {
    id,
    spellcheck: 'false',
    autocomplete: 'off',
    autocapitalize: 'off',
    maxlength: schema.maxLength,
    placeholder: example === undefined ? undefined : `e.g. ${textOf(example).split('\n')[0]}`,
    list: suggestionsFor(schema),
  }
  const control = multiline
    ? h('textarea', { ...attributes, rows: field.name === 'input' ? 6 : 3, class: 'code' })
    : h('input', { ...attributes, type: 'text' })
  const setText = (text: string | undefined) => {
    control.value = text ?? (schema.default === undefined ? '' : textOf(schema.default))
  }
  setText(undefined)
  return {
    element: control,
    focusTarget: control,
    read() {
      if (control.value === '' && !field.required && schema.default === undefined) return { kind: 'omit' }
      return { kind: 'value', value: control.value, text: control.value }
    },
    setText,
    setValue: (value) => setText(textOf(value)),
  }
}

/** Where a 422 points, shown under its field: line and column, the line itself with a caret, and a button that selects the spot. */
function locationView(target: HTMLElement, location: ErrorLocation): HTMLElement {
  const text = target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement ? target.value : ''
  let { line, column } = location
  const { position } = location
  if (position !== undefined && line === undefined && position <= text.length) {
    const before = text.slice(0, position).split('\n')
    line = before.length
    column = before[before.length - 1].length + 1
  }
  const parts: string[] = []
  if (line !== undefined) parts.push(`line ${line}`)
  if (column !== undefined) parts.push(`column ${column}`)
  if (position !== undefined) parts.push(`position ${position}`)
  if (location.row !== undefined) parts.push(`row ${location.row}`)
  if (location.path !== undefined) parts.push(`at ${location.path}`)
  const view = h('div', { class: 'error-location' })
  if (parts.length > 0) view.append(h('p', {}, `At ${parts.join(', ')}`))
  if (line !== undefined && text !== '') {
    const lineText = text.split('\n')[line - 1]
    if (lineText !== undefined) {
      const caret = column === undefined ? '' : `${' '.repeat(Math.max(0, column - 1))}^`
      view.append(h('pre', { class: 'excerpt', 'aria-hidden': 'true' }, `${lineText}\n${caret}`))
    }
    if (column !== undefined && (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement)) {
      const offset =
        text
          .split('\n')
          .slice(0, line - 1)
          .reduce((sum, previous) => sum + previous.length + 1, 0) +
        column -
        1
      view.append(
        h(
          'button',
          {
            type: 'button',
            class: 'secondary small',
            onclick: () => {
              target.focus()
              target.setSelectionRange(offset, Math.min(offset + 1, text.length))
            },
          },
          'Show in the field',
        ),
      )
    }
  }
  return view
}

/** Runs `run` when the form is submitted (the Run button, Enter in a field) or on Ctrl+Enter (⌘+Enter) anywhere in it. */
export function runOnSubmit(form: HTMLFormElement, run: () => Promise<void>): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void run()
  })
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      void run()
    }
  })
}
