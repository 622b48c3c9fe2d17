import { existsSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import { API_PREFIX, catalogue } from '../core/catalogue.ts'
import { type Config, DEFAULT_CONFIG } from '../core/config.ts'
import { DevutilsError, describeDefect, validationError } from '../core/errors.ts'
import { executeBodyToJsonNow, executeToJsonNow, type JsonData } from '../core/execute.ts'
import type { AnyOperation } from '../core/operation.ts'
import { queryToInput } from '../core/query.ts'
import { VERSION } from '../core/version.ts'
import { registerMcpRoute } from '../mcp/http.ts'
import { servedOperations } from '../served.ts'
import { directOperationRoutes, type TrustProxy } from './direct-route.ts'
import { asksForRetry, failure, JSON_CONTENT_TYPE, meta, requestIdOf, success, successJson } from './envelope.ts'
import { clientErrorHandler, toDevutilsError } from './errors.ts'
import { bodyBytes, checkCharset } from './json-body.ts'
import { bufferedStandardOutput } from './log-output.ts'
import { deferredChildLogger, LOG_BASE, type LogStream, registerObservability } from './observability.ts'
import {
  CatalogueSchema,
  documentBase,
  ErrorEnvelopeSchema,
  getRouteSchema,
  HealthSchema,
  postRouteSchema,
  ReadySchema,
  serviceRouteSchema,
  withGetExamples,
} from './openapi.ts'
import { DEFAULT_OVERLOAD_LIMITS, type OverloadLimits, protection } from './protection.ts'
import { registerWebApp } from './web-app.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this instance takes new work: false while starting and once shutdown has begun. */
    readiness: { ready: boolean }
  }
}

/** package.json's licence, stated in the OpenAPI document (a test holds the two together). */
export const LICENSE = 'MIT'

export interface AppOptions {
  config?: Partial<Config>
  /** The operations to serve: the registry's and the workflows, unless a test brings its own. */
  operations?: readonly AnyOperation[]
  overload?: OverloadLimits
  /** Where log lines go (standard output unless a test captures them). */
  logStream?: LogStream
}

/** Builds the whole HTTP service; `server.ts` listens with it, and the tests inject into it. */
export async function buildApp({
  config: overrides = {},
  operations = servedOperations,
  overload = DEFAULT_OVERLOAD_LIMITS,
  logStream,
}: AppOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...DEFAULT_CONFIG, ...overrides }
  const logging = config.logLevel !== 'silent'
  const logOutput = logging && !logStream ? bufferedStandardOutput() : undefined
  const logDestination = logging ? (logStream ?? logOutput?.destination) : undefined
  const trustProxy = parseTrustProxy(config.trustProxy)
  // Operation calls of the everyday shape are answered before Fastify routes them (direct-route.ts).
  let answerDirectly = (_request: IncomingMessage, _response: ServerResponse) => false
  const app = Fastify({
    serverFactory: (handler) =>
      createServer(
        {
          // A client must send its whole request within requestTimeout; headersTimeout must not be
          // longer, and the checking interval decides how promptly a slow client is actually cut.
          requestTimeout: config.requestTimeoutMs,
          headersTimeout: config.requestTimeoutMs,
          connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(config.requestTimeoutMs / 4))),
        },
        (request, response) => {
          if (!answerDirectly(request, response)) handler(request, response)
        },
      ),
    logger: logging && { level: config.logLevel, stream: logDestination, base: LOG_BASE },
    // Our own onResponse line (observability.ts) replaces Fastify's, which would log the URL's query.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    childLoggerFactory: deferredChildLogger,
    trustProxy,
    // While shutting down, requests still arriving on open connections are served (with
    // Connection: close); only /ready says 503, so that load balancers stop sending more.
    return503OnClosing: false,
    bodyLimit: config.bodyLimit,
    genReqId: (request) => requestIdOf(request.headers),
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>()

  // Route schemas are the operations' TypeBox schemas (typed through the TypeBox provider), but
  // validation is core's job, the same for every surface: here they only feed the OpenAPI document.
  app.setValidatorCompiler(() => () => true)
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))

  app.removeAllContentTypeParsers()
  // Bodies stay bytes here: each route parses its own (bodyBytes, parseJsonBody), so that a heavy
  // operation can hand a large body to a worker thread without parsing it on the event loop.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      checkCharset(request)
      done(null, body)
    } catch (error) {
      done(error as Error, undefined)
    }
  })

  app.decorate('readiness', { ready: false })
  app.addHook('onReady', async () => {
    app.readiness.ready = true
  })
  app.addHook('preClose', async () => {
    app.readiness.ready = false
  })
  if (logOutput) {
    // The "Server listening" line is written at once, for whoever waits for it.
    app.addHook('onListen', (done) => {
      logOutput.flush()
      done()
    })
    app.addHook('onClose', async () => logOutput.close())
  }

  app.addHook('onSend', (_request, reply, payload, done) => {
    // Once shutdown has begun, no connection is kept open for a next request, so the process can exit.
    if (!app.readiness.ready) reply.header('connection', 'close')
    done(null, payload)
  })

  /**
   * The error a failed request is answered with, whichever way it came (Fastify's routes or
   * direct-route.ts); `logOf` gives the request's logger, only needed, and so only built, for a defect.
   */
  const answerable = (error: unknown, logOf: () => FastifyBaseLogger) => {
    const devutilsError = toDevutilsError(error, config.bodyLimit)
    // Only a defect is logged with its stack: a 503 (load shed, time budget) is the service working
    // as designed, already in the request's own log line, and formatting a stack through the source
    // maps (npm start's --enable-source-maps) loads them, tens of MB, in the middle of an overload.
    if (devutilsError.code === 'INTERNAL_ERROR') logOf().error({ defect: describeDefect(error) }, 'request failed')
    return devutilsError
  }
  app.setErrorHandler((error, request, reply) =>
    sendError(
      request,
      reply,
      answerable(error, () => request.log),
    ),
  )

  const methodsByPath = new Map<string, Set<string>>()
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>()
    for (const method of [route.method].flat()) methods.add(method)
    methodsByPath.set(route.url, methods)
  })

  const protect = await protection(app, config, overload)
  app.decorateRequest('startedAt', 0)
  app.decorateRequest('routeUrl', undefined)
  // The service's one onRequest hook: each hook Fastify runs costs a small request measurably.
  app.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now()
    // Read once: Fastify builds a new routeOptions object on each read.
    request.routeUrl = request.routeOptions.url
    reply.header('x-request-id', request.id)
    protect(request, reply, done)
  })
  const recordResponse = registerObservability(app, logDestination)
  answerDirectly = directOperationRoutes({
    operations,
    bodyLimit: config.bodyLimit,
    timeBudgetMs: config.timeBudgetMs,
    trustProxy,
    protect,
    recordResponse,
    ready: () => app.readiness.ready,
    answerable: (error, request) => answerable(error, () => app.log.child({ requestId: request.id })),
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0].replace(/(.)\/$/, '$1')
    const allowed = methodsByPath.get(path)
    if (allowed) {
      const allow = [...allowed].sort().join(', ')
      reply.header('allow', allow)
      return sendError(request, reply, new DevutilsError('METHOD_NOT_ALLOWED', `${path} does not answer ${request.method}; it answers ${allow}`))
    }
    if (path.startsWith(`${API_PREFIX}/`)) {
      const name = path.slice(API_PREFIX.length + 1)
      return sendError(request, reply, new DevutilsError('UNKNOWN_OPERATION', `There is no operation named '${name}'; GET ${API_PREFIX} lists them all`))
    }
    return sendError(
      request,
      reply,
      new DevutilsError('NOT_FOUND', `Nothing is served at ${path}; the API lives under ${API_PREFIX}, its reference at /docs and the toolbox at /`),
    )
  })

  app.addSchema(ErrorEnvelopeSchema)
  await app.register(swagger, {
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `schema-${index}`) },
    openapi: documentBase(VERSION, LICENSE),
    transformObject: (document) => ('openapiObject' in document ? withGetExamples(document.openapiObject, operations, API_PREFIX) : document.swaggerObject),
  })
  const swaggerUiAssets = swaggerUiAssetsFolder()
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { validatorUrl: null, deepLinking: true, tryItOutEnabled: false },
    baseDir: swaggerUiAssets,
    logo: { type: 'image/svg+xml', content: readFileSync(join(swaggerUiAssets, 'logo.svg')) },
  })

  for (const operation of operations) registerOperation(app, operation, config)
  registerMcpRoute(app, config)
  registerWebApp(app, operations)

  app.get(
    API_PREFIX,
    {
      schema: serviceRouteSchema({
        operationId: 'catalogue',
        summary: 'The catalogue of operations',
        description: 'Every operation of the three categories with its path, methods and summary; the workflows are documented here instead.',
        data: CatalogueSchema,
        rateLimited: true,
      }),
    },
    async (request) => success(request, { operations: catalogue(operations) }),
  )
  app.get(
    '/health',
    {
      schema: serviceRouteSchema({
        operationId: 'health',
        summary: 'Liveness: the process answers',
        description: 'Answers 200 with the version as long as the process runs; not rate limited.',
        data: HealthSchema,
      }),
    },
    async (request) => success(request, { status: 'ok', version: VERSION }),
  )
  app.get(
    '/ready',
    {
      schema: serviceRouteSchema({
        operationId: 'ready',
        summary: 'Readiness: 200 while the instance takes work, 503 while starting or shutting down',
        description: 'For load balancers: 503 OVERLOADED tells them to send no more requests here. Not rate limited.',
        data: ReadySchema,
        unavailable: 'OVERLOADED: the instance is starting or shutting down.',
      }),
    },
    async (request) => {
      if (!app.readiness.ready) throw new DevutilsError('OVERLOADED', 'This instance is not ready: it is starting or shutting down')
      return success(request, { ready: true })
    },
  )
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  return app
}

function registerOperation(app: FastifyInstance, operation: AnyOperation, { timeBudgetMs }: Config) {
  const path = `${API_PREFIX}/${operation.name}`
  // Plain handlers that send when the result is ready, not async ones that return the reply: Fastify
  // then neither wraps a promise nor waits on the reply as a thenable, and an operation that answers
  // at once is sent in the same turn of the event loop.
  app.post(path, { schema: postRouteSchema(operation) }, (request, reply) => {
    const body = bodyBytes(request)
    for (const field in request.query as object) {
      // A field in the query string of a POST would otherwise be silently ignored.
      throw validationError(field, 'was sent in the query string, which a POST does not read; send it in the JSON body')
    }
    sendWhenReady(request, reply, executeBodyToJsonNow(operation, body, { timeBudgetMs }))
  })
  if (operation.allowGet) {
    // Cache-Control: no-store is on every API answer (protection.ts).
    app.get(path, { schema: getRouteSchema(operation) }, (request, reply) => {
      sendWhenReady(request, reply, executeToJsonNow(operation, queryToInput(operation.input, request.query as Record<string, unknown>), { timeBudgetMs }))
    })
  }
}

/** Sends the operation's result in the envelope, at once when it is ready, or its error through the error handler. */
function sendWhenReady(request: FastifyRequest, reply: FastifyReply, result: JsonData | Promise<JsonData>) {
  const send = (data: JsonData) => reply.type(JSON_CONTENT_TYPE).send(successJson(request, data))
  if (result instanceof Promise) result.then(send, (error) => reply.send(error))
  else send(result)
}

/** TRUST_PROXY: `true`, a hop count, or a comma-separated list of addresses and CIDR ranges. */
function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined) return undefined
  if (value === 'true') return true
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    return (_address, hop) => hop < hops
  }
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: DevutilsError) {
  if (asksForRetry(error)) reply.header('retry-after', reply.getHeader('retry-after') ?? '1')
  return reply
    .code(error.status)
    .type(JSON_CONTENT_TYPE)
    .send(failure(error, meta(request)))
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
