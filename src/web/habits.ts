import type { WebCatalogue, WebOperation } from './catalogue-types.ts'
import { h } from './dom.ts'
import type { OperationForm } from './form.ts'
import { TOOL_PATH } from './paths.ts'

// A person's habits, kept in this browser only: nothing of them is sent to the service.
const FAVOURITES_KEY = 'devutils.favourites'
const RECENT_KEY = 'devutils.recent'
const RECENT_LIMIT = 6

/** A stored list of names; storage may be refused (a private window, a policy), which leaves the lists empty. */
function readList(key: string): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? '[]') as unknown
    return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []
  } catch {
    return []
  }
}

function writeList(key: string, names: string[]): void {
  try {
    localStorage.setItem(key, JSON.stringify(names))
  } catch {
    // Not kept: the page works as before.
  }
}

export const favourites = (): string[] => readList(FAVOURITES_KEY)

/** The tools last opened, the latest first. */
export const recentTools = (): string[] => readList(RECENT_KEY)

export function recordVisit(name: string): void {
  writeList(RECENT_KEY, [name, ...recentTools().filter((other) => other !== name)].slice(0, RECENT_LIMIT))
}

/** The star of a tool's page: a toggle button that adds the tool to the home page's favourites or takes it off. */
export function favouriteToggle(name: string): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'secondary small favourite', id: 'favourite' })
  const show = () => {
    const on = favourites().includes(name)
    button.setAttribute('aria-pressed', String(on))
    button.replaceChildren(h('span', { 'aria-hidden': 'true' }, on ? '★ ' : '☆ '), 'Favourite')
    button.title = on ? 'Shown first on the home page: press to take it off' : 'Show this tool first on the home page'
  }
  button.addEventListener('click', () => {
    const current = favourites()
    writeList(FAVOURITES_KEY, current.includes(name) ? current.filter((other) => other !== name) : [...current, name])
    show()
  })
  show()
  return button
}

/**
 * The home page's favourites and recent tools, above the categories; a list is left out while it
 * is empty. Its own list class, so that counting the catalogue's cards never counts these twice.
 */
export function habitSections(catalogue: WebCatalogue): HTMLElement[] {
  const byName = new Map(catalogue.operations.map((operation) => [operation.name, operation]))
  const lists: Array<[string, string, string[]]> = [
    ['favourites', 'Favourites', favourites()],
    ['recent', 'Recently used', recentTools()],
  ]
  return lists.flatMap(([id, title, names]) => {
    const operations = names.map((name) => byName.get(name)).filter((operation) => operation !== undefined)
    if (operations.length === 0) return []
    return [
      h(
        'section',
        { class: 'habits', id, 'aria-labelledby': `${id}-heading` },
        h('h2', { id: `${id}-heading` }, title),
        h(
          'ul',
          { class: 'habit-cards' },
          ...operations.map((operation) =>
            h(
              'li',
              { 'data-operation': operation.name },
              h(
                'a',
                { href: `${TOOL_PATH}${operation.name}`, class: 'card' },
                h('span', { class: 'card-name' }, operation.title),
                h('span', { class: 'card-summary' }, operation.summary),
              ),
            ),
          ),
        ),
      ),
    ]
  })
}

const utf8 = new TextEncoder()

/** "12 characters, 14 bytes": characters as a person counts them (code points), bytes as UTF-8 sends them. */
export function sizeText(text: string): string {
  const characters = [...text].length
  const bytes = utf8.encode(text).length
  return `${characters.toLocaleString('en')} character${characters === 1 ? '' : 's'}, ${bytes.toLocaleString('en')} byte${bytes === 1 ? '' : 's'}`
}

/** Whether the operation's main input is text, which a text answer can be put into. */
function takesTextInput(operation: WebOperation): boolean {
  const input = operation.fields.find((field) => field.name === 'input')
  return input !== undefined && (input.schema.type === 'string' || (input.schema.anyOf ?? []).some((schema) => schema.type === 'string'))
}

/**
 * The sizes under the main input and under a text answer, and "Use as input", which puts the answer
 * into the main input, where the form runs it as if typed.
 */
export function toolHabits(operation: WebOperation, form: OperationForm, answerSlot: HTMLElement): { answered(data: Record<string, unknown>): void } {
  const inputSize = h('p', { class: 'size', id: 'input-size', 'aria-live': 'off' })
  const inputView = () => form.fields.find((view) => view.field.name === 'input')
  const showInputSize = () => {
    const view = inputView()
    const reading = view?.control.read()
    if (!view || (reading?.kind === 'value' && typeof reading.value !== 'string')) return inputSize.remove()
    const target = view.control.focusTarget as HTMLInputElement | HTMLTextAreaElement
    inputSize.textContent = `Input: ${sizeText(target.value ?? '')}`
    if (inputSize.previousElementSibling !== view.control.element) view.control.element.after(inputSize)
  }
  form.element.addEventListener('input', showInputSize)
  form.element.addEventListener('change', showInputSize)
  showInputSize()

  return {
    answered(data) {
      showInputSize()
      const { result } = data
      if (typeof result !== 'string' || (typeof data.mediaType === 'string' && data.mediaType.startsWith('image/'))) return
      const line = h('div', { class: 'answer-habits' }, h('p', { class: 'size', id: 'answer-size' }, `Answer: ${sizeText(result)}`))
      if (takesTextInput(operation)) {
        line.append(
          h(
            'button',
            {
              type: 'button',
              class: 'secondary small',
              id: 'use-as-input',
              onclick: () => {
                const view = inputView()
                if (!view) return
                view.control.setValue(result)
                view.control.focusTarget.dispatchEvent(new Event('input', { bubbles: true }))
                view.control.focusTarget.focus()
              },
            },
            'Use as input',
          ),
        )
      }
      const resultBlock = answerSlot.querySelector('.result')
      if (resultBlock) resultBlock.after(line)
      else answerSlot.prepend(line)
    },
  }
}
