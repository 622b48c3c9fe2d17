import { searchOperations } from '../core/search.ts'
import type { WebCatalogue, WebOperation } from './catalogue-types.ts'
import { h } from './dom.ts'
import { readFragment, writeFragment } from './fragment.ts'
import { habitSections } from './habits.ts'
import { PIPELINE_PATH, TOOL_PATH } from './paths.ts'
import { SEARCH_KEYSHORTCUTS, SEARCH_MODIFIER_LABEL } from './shortcuts.ts'

const CATEGORY_TITLES: Record<string, string> = {
  encoders: 'Encoders',
  generators: 'Generators',
  converters: 'Converters',
}

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
  const cards: Card[] = catalogue.operations.map((operation) => {
    const link = h(
      'a',
      { href: `${TOOL_PATH}${operation.name}`, class: 'card' },
      h('span', { class: 'card-name' }, operation.name),
      h('span', { class: 'card-summary' }, operation.summary),
      h('span', { class: 'card-enter', 'aria-hidden': 'true' }, 'Enter ↵'),
    )
    return { operation, link, item: h('li', { 'data-operation': operation.name }, link) }
  })
  // The words MCP's discovery ranks by (src/mcp/discovery.ts): the same words, the same order.
  const searchable = cards.map((card) => ({
    card,
    name: card.operation.name,
    title: card.operation.title,
    summary: card.operation.summary,
    aliases: card.operation.aliases,
    text: card.operation.description,
  }))
  const sections = catalogue.categories.map((category) => {
    const members = cards.filter((card) => card.operation.category === category)
    const list = h('ul', { class: 'cards' })
    return {
      members,
      list,
      section: h(
        'section',
        { class: 'category', 'aria-labelledby': `category-${category}` },
        h('h2', { id: `category-${category}` }, CATEGORY_TITLES[category] ?? category),
        list,
      ),
    }
  })
  const matchList = h('ul', { class: 'cards', id: 'matches' })
  const matches = h('section', { class: 'category', 'aria-labelledby': 'matches-heading' }, h('h2', { id: 'matches-heading' }, 'Best matches first'), matchList)
  const count = h('p', { id: 'search-count', class: 'search-count', role: 'status' })
  const search = h('input', {
    type: 'search',
    id: 'search',
    placeholder: 'e.g. base64, hash, uuid, yaml, percent',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'search-count search-hint',
    'aria-keyshortcuts': SEARCH_KEYSHORTCUTS,
  })
  const hint = h(
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

  let shown: Card[] = []
  let highlighted: Card | undefined

  const announce = () => {
    const total = cards.length
    if (search.value.trim() === '') count.textContent = `${total} tools`
    else if (!highlighted) count.textContent = 'No tool matches.'
    else count.textContent = `${shown.length} of ${total} tools match. Enter opens ${highlighted.operation.name}.`
  }

  const highlight = (card: Card | undefined) => {
    highlighted?.item.classList.remove('highlighted')
    highlighted = card
    card?.item.classList.add('highlighted')
    announce()
  }

  const filter = () => {
    const query = search.value
    if (query.trim() === '') {
      shown = []
      for (const { members, list } of sections) list.replaceChildren(...members.map((card) => card.item))
    } else {
      shown = searchOperations(searchable, query).map((hit) => hit.item.card)
      matchList.replaceChildren(...shown.map((card) => card.item))
    }
    matches.hidden = shown.length === 0
    for (const { section } of sections) section.hidden = query.trim() !== ''
    highlight(shown[0])
    writeFragment(new URLSearchParams(query ? { q: query } : {}))
  }

  search.addEventListener('input', filter)
  search.addEventListener('keydown', (event) => {
    if (event.isComposing) return
    if (event.key === 'Enter' && highlighted) {
      event.preventDefault()
      highlighted.link.click()
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && highlighted) {
      event.preventDefault()
      const index = shown.indexOf(highlighted) + (event.key === 'ArrowDown' ? 1 : -1)
      highlight(shown[Math.min(Math.max(index, 0), shown.length - 1)])
      highlighted?.item.scrollIntoView({ block: 'nearest' })
    }
  })
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
    h('div', { class: 'search', role: 'search' }, h('label', { for: 'search' }, 'Search the tools'), search, count, hint),
    matches,
    ...habits,
    ...sections.map(({ section }) => section),
  )
}
