import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { API_PREFIX } from '../core/catalogue.ts'
import type { TimeBudgets } from '../core/config.ts'
import { describeDefect } from '../core/defects.ts'
import { JSON_CONTENT_TYPE, successJson } from '../core/envelope.ts'
import { validationError } from '../core/errors.ts'
import { executeToJson, type JsonData } from '../core/execute.ts'
import type { AnyOperation } from '../core/operation.ts'
import { queryToInput } from '../core/query.ts'
import { type Loaded, type Registry, whenLoaded } from '../core/registry.ts'
import { bodyBytes } from './json-body.ts'
import { getRouteSchema, postRouteSchema } from './openapi.ts'

export interface OperationRoutesOptions {
  registry: Registry
  budgets: TimeBudgets
}

/**
 * `POST /api/v1/<name>` for every operation, and `GET` for those that allow it, from the operations'
 * information: each operation's code is loaded with its first call.
 */
export async function operationRoutes(app: FastifyInstance, { registry, budgets }: OperationRoutesOptions) {
  // A defect inside a batch's request is answered in its envelope, not through the error handler: logged here.
  const optionsFor = (request: FastifyRequest) => ({
    timeBudgetMs: budgets.timeBudgetMs,
    codeBudgets: budgets,
    client: request.ip,
    reportDefect: (error: unknown) => request.log.error({ defect: describeDefect(error) }, 'request failed'),
  })
  for (const operation of registry.operations) {
    const path = `${API_PREFIX}/${operation.name}`
    const loaded = () => registry.operation(operation.name) as Loaded
    // Plain handlers that send when the result is ready, not async ones that return the reply: Fastify
    // then neither wraps a promise nor waits on the reply as a thenable, and an operation that answers
    // at once is sent in the same turn of the event loop.
    app.post(path, { schema: postRouteSchema(operation) }, (request, reply) => {
      const body = bodyBytes(request)
      for (const field in request.query as object) {
        // A field in the query string of a POST would otherwise be silently ignored.
        throw validationError(field, 'was sent in the query string, which a POST does not read; send it in the JSON body')
      }
      sendWhenReady(
        request,
        reply,
        whenLoaded(loaded(), (definition) => executeToJson(definition, { body }, optionsFor(request))),
      )
    })
    if (operation.allowGet) {
      // Cache-Control: no-store is on every API answer (protection.ts).
      app.get(path, { schema: getRouteSchema(operation) }, (request, reply) => {
        const action = (request.query as Record<string, unknown>).action
        if (typeof action === 'string' && operation.postOnlyActions?.includes(action)) {
          throw validationError('action', `${action} reads its input from a JSON body: send it with POST`)
        }
        const query = request.query as Record<string, unknown>
        const answer = (definition: AnyOperation) => executeToJson(definition, { input: queryToInput(definition.input, query) }, optionsFor(request))
        sendWhenReady(request, reply, whenLoaded(loaded(), answer))
      })
    }
  }
}

/** Sends the operation's result in the envelope, at once when it is ready, or its error through the error handler. */
function sendWhenReady(request: FastifyRequest, reply: FastifyReply, result: JsonData | Promise<JsonData>) {
  const send = (data: JsonData) => reply.type(JSON_CONTENT_TYPE).send(successJson(request, data))
  if (result instanceof Promise) result.then(send, (error) => reply.send(error))
  else send(result)
}
