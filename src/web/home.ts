import type { WebCatalogue, WebOperation } from './catalogue-types.ts'
import { h } from './dom.ts'
import { readFragment, writeFragment } from './fragment.ts'
import { PIPELINE_PATH, TOOL_PATH } from './paths.ts'

const CATEGORY_TITLES: Record<string, string> = {
  encoders: 'Encoders',
  generators: 'Generators',
  converters: 'Converters',
}

/** Everything a search matches: the name, the summary and the words that stand for an operation's uses (its fields, its choices, its description). */
function searchText(operation: WebOperation): string {
  const choices = operation.fields.flatMap((field) => [field.name, ...(field.schema.enum ?? []).map(String)])
  return [operation.name, operation.summary, operation.category, operation.description, ...choices].join(' ').toLowerCase()
}

/** The home page: every operation by category, filtered as the search box is typed in. */
export function homePage(catalogue: WebCatalogue): HTMLElement {
  const cards = catalogue.operations.map((operation) => ({
    operation,
    text: searchText(operation),
    item: h(
      'li',
      { 'data-operation': operation.name },
      h(
        'a',
        { href: `${TOOL_PATH}${operation.name}`, class: 'card' },
        h('span', { class: 'card-name' }, operation.name),
        h('span', { class: 'card-summary' }, operation.summary),
      ),
    ),
  }))
  const sections = catalogue.categories.map((category) => {
    const list = h('ul', { class: 'cards' }, ...cards.filter((card) => card.operation.category === category).map((card) => card.item))
    return {
      list,
      section: h(
        'section',
        { class: 'category', 'aria-labelledby': `category-${category}` },
        h('h2', { id: `category-${category}` }, CATEGORY_TITLES[category] ?? category),
        list,
      ),
    }
  })
  const count = h('p', { id: 'search-count', class: 'search-count', role: 'status' })
  const search = h('input', {
    type: 'search',
    id: 'search',
    placeholder: 'e.g. base64, hash, uuid, yaml, percent',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'search-count',
  })

  const filter = () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean)
    let shown = 0
    for (const card of cards) {
      const match = words.every((word) => card.text.includes(word))
      card.item.hidden = !match
      if (match) shown++
    }
    for (const { list, section } of sections) section.hidden = [...list.children].every((item) => (item as HTMLElement).hidden)
    count.textContent = words.length === 0 ? `${cards.length} tools` : shown === 0 ? 'No tool matches.' : `${shown} of ${cards.length} tools match.`
    writeFragment(new URLSearchParams(search.value ? { q: search.value } : {}))
  }
  search.addEventListener('input', filter)
  // Enter opens the first match, as a launcher does.
  search.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return
    const first = cards.find((card) => !card.item.hidden)
    if (first) first.item.querySelector('a')?.click()
  })
  search.value = readFragment().get('q') ?? ''
  filter()

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
    h('div', { class: 'search', role: 'search' }, h('label', { for: 'search' }, 'Search the tools'), search, count),
    ...sections.map(({ section }) => section),
  )
}
