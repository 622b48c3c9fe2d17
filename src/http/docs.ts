import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import compress from '@fastify/compress'
import etag from '@fastify/etag'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { API_PREFIX } from '../core/catalogue.ts'
import type { OperationInfo } from '../core/operation.ts'
import { VERSION } from '../core/version.ts'
import { documentBase, ErrorEnvelopeSchema, withGetExamples } from './openapi.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI document as JSON text, serialized once, for /openapi.json and MCP's resource alike. */
    openApiText(): string
  }
}

/** package.json's licence, stated in the OpenAPI document (a test holds the two together). */
export const LICENSE = 'MIT'

/**
 * The OpenAPI document, built from the schemas of every route registered after it: registered on
 * the whole app (it watches routes as they are added), before any route.
 */
export const openApiDocument = fastifyPlugin(
  async function openApiDocument(app: FastifyInstance, { operations }: { operations: readonly OperationInfo[] }) {
    app.addSchema(ErrorEnvelopeSchema)
    await app.register(swagger, {
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `schema-${index}`) },
      openapi: documentBase(VERSION, LICENSE),
      transformObject: (document) => ('openapiObject' in document ? withGetExamples(document.openapiObject, operations, API_PREFIX) : document.swaggerObject),
    })
    let text: string | undefined
    // Asked for only while serving a request, when every route is registered and the document is whole.
    app.decorate('openApiText', () => {
      text ??= JSON.stringify(app.swagger())
      return text
    })
  },
  { name: 'openApiDocument' },
)

/**
 * The reference a person reads at /docs (Swagger UI, offline) and the document a tool reads at
 * /openapi.json: compressed, and revalidated by its ETag rather than fetched again whole.
 */
export async function docs(app: FastifyInstance) {
  await app.register(etag, { weak: true })
  await app.register(compress)
  const swaggerUiAssets = swaggerUiAssetsFolder()
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null, deepLinking: true, tryItOutEnabled: false },
    baseDir: swaggerUiAssets,
    logo: { type: 'image/svg+xml', content: readFileSync(join(swaggerUiAssets, 'logo.svg')) },
  })
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    // The API's answers are never stored (protection.ts); the document may be, while it is revalidated.
    return reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(app.openApiText())
  })
}

/**
 * Swagger UI's files for /docs: the build copies them beside the bundle (which holds the plugin's code
 * but not its files); where tsx runs the sources, they are the installed plugin's own.
 */
function swaggerUiAssetsFolder(): string {
  const besideTheBundle = new URL('./swagger-ui/', import.meta.url)
  if (existsSync(besideTheBundle)) return fileURLToPath(besideTheBundle)
  return fileURLToPath(new URL('static/', import.meta.resolve('@fastify/swagger-ui/package.json')))
}
