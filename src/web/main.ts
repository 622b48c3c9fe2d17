import './style.css'
import type { WebCatalogue } from './catalogue-types.ts'
import { h } from './dom.ts'
import { favouriteToggle, recordVisit } from './habits.ts'
import { homePage } from './home.ts'
import { onlyHereControl } from './only-here.ts'
import { PIPELINE_PATH, SERVICE_WORKER_PATH, TOOL_PATH } from './paths.ts'
import { pipelinePage } from './pipeline.ts'
import { isSearchShortcut } from './shortcuts.ts'
import { themeControl } from './theme.ts'
import { toolPage } from './tool.ts'

const main = document.getElementById('main')!
let dispose: (() => void) | undefined

async function loadCatalogue(): Promise<WebCatalogue> {
  const address = document.querySelector<HTMLMetaElement>('meta[name="devutils-catalogue"]')!.content
  const response = await fetch(address)
  if (!response.ok) throw new Error(`the catalogue of operations did not load (${response.status})`)
  return (await response.json()) as WebCatalogue
}

/** The largest request body this service takes, which it writes into the page as it serves it. */
function bodyLimitBytes(): number {
  return Number(document.querySelector<HTMLMetaElement>('meta[name="devutils-body-limit"]')!.content)
}

/**
 * Draws the page of the current address; `moveFocus` after a navigation inside the app, as a new
 * page load would. The home page's search box takes the focus in either case: finding a tool is
 * what the page is for, and a launcher is typed into at once.
 */
function route(catalogue: WebCatalogue, moveFocus: boolean) {
  dispose?.()
  dispose = undefined
  const path = location.pathname.replace(/(.)\/$/, '$1')
  let title = 'devutils'
  if (path.startsWith(TOOL_PATH)) {
    const operation = catalogue.operations.find((candidate) => candidate.name === decodeURIComponent(path.slice(TOOL_PATH.length)))
    if (operation) {
      const page = toolPage(operation, bodyLimitBytes())
      // The star beside the tool's name, placed here so that the page's own layout stays as it is.
      const heading = page.element.querySelector('h1')
      if (heading) {
        const row = h('div', { class: 'title-row' })
        heading.before(row)
        row.append(heading, favouriteToggle(operation.name))
      }
      recordVisit(operation.name)
      main.replaceChildren(page.element)
      dispose = page.dispose
      title = `${operation.title}: ${operation.summary} · devutils`
    } else {
      main.replaceChildren(h('h1', { tabindex: -1 }, 'No such tool'), h('p', {}, h('a', { href: '/' }, 'See every tool')))
    }
  } else if (path === PIPELINE_PATH) {
    const page = pipelinePage(catalogue)
    main.replaceChildren(page.element)
    dispose = page.dispose
    title = 'Pipeline · devutils'
  } else {
    main.replaceChildren(homePage(catalogue))
    title = 'devutils: developer utilities'
  }
  document.title = title
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.site-header nav a')) {
    const current = link.pathname === path || (link.pathname === '/' && path.startsWith(TOOL_PATH))
    if (current) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  const search = main.querySelector<HTMLInputElement>('#search')
  if (search) search.focus()
  // A tool opened from within the app is there to be given its input: the main field takes the focus.
  else if (moveFocus) (main.querySelector<HTMLElement>(MAIN_CONTROL) ?? main.querySelector<HTMLElement>('h1'))?.focus()
}

/** The control of a tool page's main field. */
const MAIN_CONTROL = '.main-field textarea, .main-field input:not([type="file"]), .main-field select'

/** The search box, from any page: on the home page it is focused (its query selected, to type over), elsewhere the home page is opened. */
function openSearch(catalogue: WebCatalogue) {
  const search = main.querySelector<HTMLInputElement>('#search')
  if (search) {
    search.focus()
    search.select()
    return
  }
  history.pushState(null, '', '/')
  route(catalogue, true)
  window.scrollTo(0, 0)
}

/** Whether a link leads to a page of this app (the API reference and everything else are loaded as usual). */
function isAppPath(url: URL): boolean {
  return url.origin === location.origin && (url.pathname === '/' || url.pathname === PIPELINE_PATH || url.pathname.startsWith(TOOL_PATH))
}

async function start() {
  let catalogue: WebCatalogue
  try {
    catalogue = await loadCatalogue()
  } catch (error) {
    main.replaceChildren(
      h('h1', {}, 'devutils'),
      h('p', { class: 'status error' }, `The page could not start: ${(error as Error).message}. The API is at /api/v1.`),
    )
    return
  }
  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest?.('a')
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return
    const url = new URL(link.href)
    if (!isAppPath(url)) return
    event.preventDefault()
    if (url.href === location.href) return
    history.pushState(null, '', url)
    route(catalogue, true)
    window.scrollTo(0, 0)
  })
  window.addEventListener('popstate', () => route(catalogue, true))
  document.addEventListener('keydown', (event) => {
    if (!isSearchShortcut(event)) return
    event.preventDefault()
    openSearch(catalogue)
  })
  route(catalogue, false)
}

/**
 * The service worker keeps the app's files, so that its pages open with the network off. Browsers
 * offer workers only to secure origins (HTTPS, localhost): elsewhere the app runs as before.
 */
function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return
  navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: '/' }).catch(() => {
    // Without the worker, the pages need the network, as they did before it.
  })
}

document.querySelector('.site-header')?.append(onlyHereControl(), themeControl())
void start()
registerServiceWorker()
