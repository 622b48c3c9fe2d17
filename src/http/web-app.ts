import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type helmet from 'helmet'
import { DevutilsError } from '../core/errors.ts'
import { CATEGORIES, type OperationInfo } from '../core/operation.ts'
import { BODY_LIMIT_PLACEHOLDER, PAGE_WORKER_NAME, PIPELINE_PATH, SERVICE_WORKER_PATH, TOOL_PATH, WEB_ASSETS_PATH, WEB_MANIFEST_PATH } from '../web/paths.ts'
import { securityHeaders } from './protection.ts'

/**
 * The built web app: beside the bundle in dist/web, or, where tsx runs the sources, in the dist/web
 * the last build wrote.
 */
const WEB_ROOT = extname(new URL(import.meta.url).pathname) === '.js' ? new URL('./web/', import.meta.url) : new URL('../../dist/web/', import.meta.url)

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
}

/** The files served at their own fixed address, never under /assets/ with a year of caching. */
const FIXED_ADDRESS_FILES = new Set(['index.html', SERVICE_WORKER_PATH.slice(1), WEB_MANIFEST_PATH.slice(1)])

/**
 * The pages' own policy, stricter than the docs page's: scripts, styles and everything else from
 * this origin only (no inline script or style, no eval), and images also from the blob: URLs the page
 * makes for QR codes. WebAssembly may be compiled ('wasm-unsafe-eval', which lets no JavaScript be
 * evaluated): the hash algorithms that operations running in the page take from hash-wasm need it.
 */
const WEB_APP_HELMET_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      // The service worker (whose own requests this policy governs too) and the manifest.
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
}

interface WebFile {
  body: Buffer
  gzipped?: Buffer
  type: string
}

/**
 * Serves the web app: index.html at `/`, at each operation's page and at the pipeline page, its
 * service worker and manifest at their fixed addresses, and the hashed files under /assets/ with a
 * year of caching (a new build gives them new names). Each file is read once, at its first request,
 * with the gzip copy the build wrote beside it: a start only lists them, since the chunks of the
 * operations that run in the browser and the source maps are megabytes that most starts never serve.
 * Without a build, the pages answer 503 and say so.
 */
export async function webApp(app: FastifyInstance, { operations, bodyLimit }: { operations: readonly OperationInfo[]; bodyLimit: number }) {
  const files = webFiles(bodyLimit)
  const htmlHeaders = securityHeaders(WEB_APP_HELMET_OPTIONS)
  // The workflows have no page of their own: the pipeline has its page at PIPELINE_PATH.
  const operationNames = new Set(
    operations.filter((operation) => (CATEGORIES as readonly string[]).includes(operation.category)).map((operation) => operation.name),
  )

  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    const index = files.get('index.html')?.()
    if (!index) throw new DevutilsError('OVERLOADED', 'The web app is not built on this instance: run `npm run build`; the API is served as usual')
    reply.headers(htmlHeaders).header('cache-control', 'no-cache')
    return sendFile(request, reply, index)
  }
  const hidden = { schema: { hide: true } }
  app.get('/', hidden, sendPage)
  app.get(PIPELINE_PATH, hidden, sendPage)
  app.get(`${TOOL_PATH}:name`, hidden, (request, reply) => {
    if (!operationNames.has((request.params as { name: string }).name)) return reply.callNotFound()
    return sendPage(request, reply)
  })
  // Revalidated at every load, as index.html is, so that a new build's worker and manifest are seen at once.
  for (const path of [SERVICE_WORKER_PATH, WEB_MANIFEST_PATH]) {
    app.get(path, hidden, (request, reply) => {
      const file = files.get(path.slice(1))?.()
      if (!file) return reply.callNotFound()
      reply.headers(htmlHeaders).header('cache-control', 'no-cache')
      return sendFile(request, reply, file)
    })
  }
  app.get(`${WEB_ASSETS_PATH}:file`, hidden, (request, reply) => {
    const name = (request.params as { file: string }).file
    const file = FIXED_ADDRESS_FILES.has(name) ? undefined : files.get(name)?.()
    if (!file) return reply.callNotFound()
    // A worker is bound by the policy of its script's answer: the page's worker, by the page's.
    if (name.startsWith(`${PAGE_WORKER_NAME}-`)) reply.headers(htmlHeaders)
    reply.header('cache-control', 'public, max-age=31536000, immutable')
    return sendFile(request, reply, file)
  })
}

function sendFile(request: FastifyRequest, reply: FastifyReply, file: WebFile) {
  reply.type(file.type).header('vary', 'accept-encoding')
  if (file.gzipped && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    return reply.header('content-encoding', 'gzip').send(file.gzipped)
  }
  return reply.send(file.body)
}

/** The built files by name, each read at its first request and kept; index.html with the service's body limit written in. */
function webFiles(bodyLimit: number): Map<string, () => WebFile | undefined> {
  const files = new Map<string, () => WebFile | undefined>()
  if (!existsSync(WEB_ROOT)) return files
  for (const name of readdirSync(WEB_ROOT)) {
    const type = MEDIA_TYPES[extname(name)]
    if (!type) continue
    let file: WebFile | undefined
    const read = name === 'index.html' ? () => withBodyLimit(readWebFile(name, type), bodyLimit) : () => readWebFile(name, type)
    files.set(name, () => (file ??= read()))
  }
  return files
}

/** index.html with the body limit in its place, and compressed (the build leaves it uncompressed). */
function withBodyLimit(page: WebFile | undefined, bodyLimit: number): WebFile | undefined {
  if (!page) return undefined
  const body = Buffer.from(page.body.toString('utf8').replace(BODY_LIMIT_PLACEHOLDER, String(bodyLimit)))
  return { body, type: page.type, gzipped: gzipSync(body) }
}

/** A file and its gzip copy; undefined where it is gone from the disk since the start (a new build). */
function readWebFile(name: string, type: string): WebFile | undefined {
  try {
    const gzippedName = new URL(`${name}.gz`, WEB_ROOT)
    return { body: readFileSync(new URL(name, WEB_ROOT)), type, gzipped: existsSync(gzippedName) ? readFileSync(gzippedName) : undefined }
  } catch {
    return undefined
  }
}
