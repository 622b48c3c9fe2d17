import type { FastifyInstance } from 'fastify'
import { API_PREFIX, catalogue } from '../core/catalogue.ts'
import { success } from '../core/envelope.ts'
import { DevutilsError } from '../core/errors.ts'
import type { OperationInfo } from '../core/operation.ts'
import { VERSION } from '../core/version.ts'
import { CatalogueSchema, HealthSchema, ReadySchema, serviceRouteSchema } from './openapi.ts'
import { ANSWERED_UNDER_LOAD } from './protection.ts'

/** The catalogue of operations, and the probes a load balancer or orchestrator calls. */
export async function serviceRoutes(app: FastifyInstance, { operations }: { operations: readonly OperationInfo[] }) {
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
      ...ANSWERED_UNDER_LOAD,
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
      ...ANSWERED_UNDER_LOAD,
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
}
