import { searchOperations } from '../core/search.ts'
import type { WebCatalogue, WebOperation } from './catalogue-types.ts'
import { h } from './dom.ts'
import { readFragment, writeFragment } from './fragment.ts'
import { habitSections } from './habits.ts'
import { PIPELINE_PATH, TOOL_PATH } from './paths.ts'
import { categoryTitle } from './plain-names.ts'
import { SEARCH_KEYSHORTCUTS, SEARCH_MODIFIER_LABEL } from './shortcuts.ts'

interface Card {
  operation: WebOperation
  item: HTMLLIElement
  link: HTMLAnchorElement
}

/**
 * The home page: every operation by category, or, while the search box holds a query, the
 * operations that match it, best first, ranked as MCP's discovery ranks them. The first match is
 * highlighted, and Enter opens it, as in a launcher; the arrow keys move the highlight.
 */
export function homePage(catalogue: WebCatalogue): HTMLElement {
  const cards = catalogue.operations.map(operationCard)
  // The words MCP's discovery ranks by (src/mcp/discovery.ts): the same words, the same order.
  const searchable = cards.map((card) => ({
    card,
    name: card.operation.name,
    title: card.operation.title,
    summary: card.operation.summary,
    aliases: card.operation.aliases,
    text: card.operation.description,
  }))
  const sections = catalogue.categories.map((category) => categorySection(category, cards))
  const matchList = h('ul', { class: 'cards', id: 'matches' })
  const matches = h('section', { class: 'category', 'aria-labelledby': 'matches-heading' }, h('h2', { id: 'matches-heading' }, 'Best matches first'), matchList)
  const count = h('p', { id: 'search-count', class: 'search-count', role: 'status' })
  const search = searchBox()
  const highlighter = launcherHighlight(cards.length, count)

  const filter = () => {
    const query = search.value
    if (query.trim() === '') {
      highlighter.shown = []
      for (const { members, list } of sections) list.replaceChildren(...members.map((card) => card.item))
    } else {
      highlighter.shown = searchOperations(searchable, query).map((hit) => hit.item.card)
      matchList.replaceChildren(...highlighter.shown.map((card) => card.item))
    }
    matches.hidden = highlighter.shown.length === 0
    for (const { section } of sections) section.hidden = query.trim() !== ''
    highlighter.highlight(highlighter.shown[0], query)
    writeFragment(new URLSearchParams(query ? { q: query } : {}))
  }

  search.addEventListener('input', filter)
  search.addEventListener('keydown', (event) => highlighter.onKey(event, search.value))
  const habits = habitSections(catalogue)
  search.addEventListener('input', () => {
    for (const section of habits) section.hidden = search.value.trim() !== ''
  })
  search.value = readFragment().get('q') ?? ''
  filter()
  for (const section of habits) section.hidden = search.value.trim() !== ''

  return h(
    'div',
    { class: 'home' },
    h('h1', { tabindex: -1 }, 'Developer utilities'),
    h(
      'p',
      { class: 'lead' },
      `${catalogue.operations.length} tools: paste a value, see the answer. Each one is also an HTTP API call, an MCP tool and a command; `,
      h('a', { href: PIPELINE_PATH }, 'chain them in a pipeline'),
      '.',
    ),
    h('div', { class: 'search', role: 'search' }, h('label', { for: 'search' }, 'Search the tools'), search, count, searchHint()),
    matches,
    ...habits,
    ...sections.map(({ section }) => section),
  )
}

function operationCard(operation: WebOperation): Card {
  const link = h(
    'a',
    { href: `${TOOL_PATH}${operation.name}`, class: 'card' },
    h('span', { class: 'card-name' }, operation.title),
    h('span', { class: 'card-summary' }, operation.summary),
    h('span', { class: 'card-enter', 'aria-hidden': 'true' }, 'Enter ↵'),
  )
  return { operation, link, item: h('li', { 'data-operation': operation.name }, link) }
}

function categorySection(category: string, cards: Card[]) {
  const list = h('ul', { class: 'cards' })
  return {
    members: cards.filter((card) => card.operation.category === category),
    list,
    section: h(
      'section',
      { class: 'category', 'aria-labelledby': `category-${category}` },
      h('h2', { id: `category-${category}` }, categoryTitle(category)),
      list,
    ),
  }
}

function searchBox(): HTMLInputElement {
  return h('input', {
    type: 'search',
    id: 'search',
    placeholder: 'e.g. base64, hash, uuid, yaml, percent',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'search-count search-hint',
    'aria-keyshortcuts': SEARCH_KEYSHORTCUTS,
  })
}

function searchHint(): HTMLElement {
  return h(
    'p',
    { id: 'search-hint', class: 'search-hint' },
    h('kbd', {}, 'Enter'),
    ' opens the highlighted tool, ',
    h('kbd', {}, '↑'),
    ' ',
    h('kbd', {}, '↓'),
    ' move the highlight. ',
    h('kbd', {}, '/'),
    ' or ',
    h('kbd', {}, SEARCH_MODIFIER_LABEL),
    '+',
    h('kbd', {}, 'K'),
    ' comes back to this box from any page.',
  )
}

/** The matches as a launcher's list: one highlighted, announced in `count`; Enter opens it, the arrow keys move it. */
function launcherHighlight(total: number, count: HTMLElement) {
  let highlighted: Card | undefined
  const state = {
    shown: [] as Card[],
    highlight(card: Card | undefined, query: string) {
      highlighted?.item.classList.remove('highlighted')
      highlighted = card
      card?.item.classList.add('highlighted')
      if (query.trim() === '') count.textContent = `${total} tools`
      else if (!highlighted) count.textContent = 'No tool matches.'
      else count.textContent = `${state.shown.length} of ${total} tools match. Enter opens ${highlighted.operation.title}.`
    },
    onKey(event: KeyboardEvent, query: string) {
      if (event.isComposing || !highlighted) return
      if (event.key === 'Enter') {
        event.preventDefault()
        highlighted.link.click()
      } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        const index = state.shown.indexOf(highlighted) + (event.key === 'ArrowDown' ? 1 : -1)
        state.highlight(state.shown[Math.min(Math.max(index, 0), state.shown.length - 1)], query)
        highlighted?.item.scrollIntoView({ block: 'nearest' })
      }
    },
  }
  return state
}
