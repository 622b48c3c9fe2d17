// The web app's service worker, served at /sw.js. The build fills in the files to keep and the
// cache's name, which changes with them: a new build is a new worker, which replaces the old cache.

/** The files of this build (index.html at `/`, the hashed assets, the manifest), and the cache that holds them. */
declare const PRECACHE: string[]
declare const CACHE_NAME: string
/** Where the pages of the app are: each is index.html, which routes in the browser. */
declare const PAGE_PATHS: { exact: string[]; prefixes: string[] }

// The worker's global scope and events, as far as this worker uses them (the page's DOM types do not name them).
interface LifecycleEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface FetchingEvent extends LifecycleEvent {
  request: Request
  respondWith(response: Promise<Response>): void
}
interface WorkerScope {
  skipWaiting(): Promise<void>
  clients: { claim(): Promise<void> }
  location: Location
  addEventListener(type: 'install' | 'activate', listener: (event: LifecycleEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchingEvent) => void): void
}

const worker = self as unknown as WorkerScope

worker.addEventListener('install', (event) => {
  // `reload` so that the copies come from the server, not from the HTTP cache of an older build.
  event.waitUntil(
    caches
      .open(CACHE_NAME)
      .then((cache) => cache.addAll(PRECACHE.map((path) => new Request(path, { cache: 'reload' }))))
      .then(() => worker.skipWaiting()),
  )
})

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('devutils-') && name !== CACHE_NAME).map((name) => caches.delete(name))))
      .then(() => worker.clients.claim()),
  )
})

const isPage = (path: string) => PAGE_PATHS.exact.includes(path) || PAGE_PATHS.prefixes.some((prefix) => path.startsWith(prefix))

/**
 * The pages and the app's files come from the cache: they are this build's, and open with the
 * network off. Everything else (the API, the API reference) is left to the network, untouched.
 */
worker.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== worker.location.origin) return
  const path = url.pathname.replace(/(.)\/$/, '$1')
  const key = request.mode === 'navigate' && isPage(path) ? '/' : PRECACHE.includes(url.pathname) ? url.pathname : undefined
  if (key === undefined) return
  event.respondWith(caches.match(key, { cacheName: CACHE_NAME }).then((cached) => cached ?? fetch(request)))
})
