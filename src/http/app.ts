import Fastify, { type FastifyInstance } from 'fastify'
import { type Config, DEFAULT_CONFIG } from '../core/config.ts'
import { describeDefect } from '../core/defects.ts'
import { onThreadFailure } from '../core/pool.ts'
import type { Registry } from '../core/registry.ts'
import { served } from '../served.ts'
import { docs, openApiDocument } from './docs.ts'
import { errorAnswers } from './errors.ts'
import { lingerBounds } from './lingering-close.ts'
import { bufferedStandardOutput } from './log-output.ts'
import { mcpRoute } from './mcp-route.ts'
import { type LogStream, observability } from './observability.ts'
import { operationRoutes } from './operation-routes.ts'
import { DEFAULT_OVERLOAD_LIMITS, type OverloadLimits, protection } from './protection.ts'
import { serviceRoutes } from './service-routes.ts'
import { serverOptions, transport } from './transport.ts'
import { webApp } from './web-app.ts'

export interface AppOptions {
  config?: Partial<Config>
  /** The operations to serve: the registry's and the workflows, unless a test brings its own. */
  registry?: Registry
  overload?: OverloadLimits
  /** Where log lines go (standard output unless a test captures them). */
  logStream?: LogStream
}

/**
 * Builds the whole HTTP service: `server.ts` listens with it, and the tests send requests to it.
 * Every request goes through Fastify's lifecycle; the plugins below each hold one part of it. The
 * first four apply to the whole app (the transport, how errors are answered, each request's duties,
 * its log line and metrics, and the OpenAPI document that watches the routes as they are added);
 * the route plugins after them are encapsulated.
 */
export async function buildApp({
  config: overrides = {},
  registry = served,
  overload = DEFAULT_OVERLOAD_LIMITS,
  logStream,
}: AppOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...DEFAULT_CONFIG, ...overrides }
  const logging = config.logLevel !== 'silent'
  const logOutput = logging && !logStream ? bufferedStandardOutput() : undefined
  const logDestination = logging ? (logStream ?? logOutput?.destination) : undefined
  const app = Fastify(serverOptions(config, logDestination))
  // A worker thread's failure is answered to its request, if it had one; the log hears of it here.
  onThreadFailure((error) => app.log.error({ defect: describeDefect(error) }, 'a worker thread failed'))

  // Route schemas are the operations' TypeBox schemas, but validation is core's job, the same for
  // every surface: here they only feed the OpenAPI document.
  app.setValidatorCompiler(() => () => true)
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))

  await app.register(transport, { logOutput, lingering: lingerBounds(config) })
  await app.register(errorAnswers, { bodyLimit: config.bodyLimit })
  await app.register(protection, { config, overload })
  await app.register(observability, { logStream: logDestination })
  const { operations } = registry
  await app.register(openApiDocument, { operations })

  await app.register(operationRoutes, { registry, budgets: config })
  await app.register(serviceRoutes, { operations })
  await app.register(docs)
  await app.register(mcpRoute, { budgets: config, allTools: config.mcpTools === 'all' })
  await app.register(webApp, { operations, bodyLimit: config.bodyLimit })
  return app
}
