import { Transform } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DevutilsError } from '../core/errors.ts'

/**
 * The memory that request bodies in flight may hold in one server process: 32 MiB, which admits
 * about as many 1 MiB bodies (at MEMORY_PER_BODY_BYTE) as the worker pool queues on a 2-core
 * machine. With the idle process (about 100 MB) and one heavy conversion on a worker thread, a
 * flood of large bodies keeps the process under 300 MB (test/memory.test.ts); the Kubernetes
 * manifests' memory limit leaves room above that.
 */
export const BODY_MEMORY_BUDGET_BYTES = 32 * 1024 * 1024

/**
 * What one byte of a body costs while its request is in flight: the byte as read, and the copy made
 * from it (the body gathered into one buffer, the copy handed to a worker thread, or the result,
 * which for most operations is about the size of the input). A request holds its reservation until
 * its response is written or its connection closes.
 */
export const MEMORY_PER_BODY_BYTE = 2

/** A count of bytes reserved against a fixed budget. */
export class MemoryBudget {
  #used = 0
  constructor(readonly limit: number) {}

  get used(): number {
    return this.#used
  }

  /** Reserves `bytes` if they fit in what is left, and says whether they did. */
  tryReserve(bytes: number): boolean {
    if (this.#used + bytes > this.limit) return false
    this.#used += bytes
    return true
  }

  release(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes)
  }
}

const overloaded = () => new DevutilsError('OVERLOADED', 'Too many request bodies are in flight on this instance; retry in a moment')

declare module 'fastify' {
  interface FastifyRequest {
    /** Bytes of the memory budget this request holds (see `registerBodyBudget`). */
    budgetHeld: number
  }
}

/**
 * Bounds the memory that bodies in flight hold. A request that declares its length reserves its
 * cost before a byte of its body is read, and past the budget is answered 503 OVERLOADED with
 * Retry-After at once; its unread body is then discarded as it arrives, so the connection stays
 * usable and nothing is kept. A body sent without a length (chunked) reserves as its chunks arrive,
 * and is refused with the same 503 as soon as it grows past what is left. Bodies over `bodyLimit`
 * reserve nothing: they are refused with 413 without being read.
 */
export function registerBodyBudget(app: FastifyInstance, budget: MemoryBudget, bodyLimit: number): void {
  app.decorateRequest('budgetHeld', 0)
  app.addHook('onRequest', (request, reply, done) => {
    const length = request.headers['content-length']
    if (length === undefined) {
      if (request.headers['transfer-encoding'] !== undefined) releaseOnClose(request, reply, budget)
      return done()
    }
    const bytes = Number(length)
    if (!Number.isSafeInteger(bytes) || bytes <= 0 || bytes > bodyLimit) return done()
    const cost = bytes * MEMORY_PER_BODY_BYTE
    if (!budget.tryReserve(cost)) return done(overloaded())
    request.budgetHeld = cost
    releaseOnClose(request, reply, budget)
    done()
  })
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.headers['content-length'] !== undefined) return done(null, payload)
    // No length declared: reserve each chunk's cost before it is kept.
    const metered = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        const cost = chunk.byteLength * MEMORY_PER_BODY_BYTE
        if (!budget.tryReserve(cost)) return next(overloaded())
        request.budgetHeld += cost
        next(null, chunk)
      },
    })
    payload.on('error', (error) => metered.destroy(error))
    done(null, payload.pipe(metered))
  })
}

/** Gives the request's reservation back once its response is written or its connection is gone. */
function releaseOnClose(request: FastifyRequest, reply: FastifyReply, budget: MemoryBudget): void {
  reply.raw.once('close', () => {
    budget.release(request.budgetHeld)
    request.budgetHeld = 0
  })
}
