import { setFlagsFromString } from 'node:v8'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { DevutilsError } from '../core/errors.ts'

/**
 * The memory that request bodies in flight may hold in one server process: about as many bodies of
 * the default body limit (at MEMORY_PER_BODY_BYTE) as the worker pool queues on a 2-core machine.
 * With it, a flood of large bodies keeps the process within the bound test/core/memory.test.ts holds it
 * to, which the Kubernetes manifests' memory limit leaves room above.
 */
export const BODY_MEMORY_BUDGET_BYTES = 32 * 1024 * 1024

/**
 * What one byte of a body costs while its request is in flight: the byte as read, and the copy made
 * from it (the body gathered into one buffer, the copy handed to a worker thread, or the result,
 * which for most operations is about the size of the input). A request holds its reservation until
 * its response is written or its connection closes.
 */
export const MEMORY_PER_BODY_BYTE = 2

/**
 * The young generation's capacity, in MB, by which V8 decides when dead Buffers are given back: once
 * the Buffers allocated since its last collection hold more than a multiple of it, V8 collects the
 * young generation before it allocates another. A body's chunks, and the copies made of it, are
 * such Buffers, dead as soon as their request is answered or refused, and the budget counts on them
 * being given back soon after. Left to V8's default on Node.js 24, a flood's dead bodies pile up
 * far past the budget; this is below the default of every Node.js the service runs on, so that they
 * are given back alike on each, and soon enough to keep the budget's bound.
 */
const YOUNG_GENERATION_CAPACITY_MB = 4

/**
 * Has V8 give back dead Buffers by YOUNG_GENERATION_CAPACITY_MB. Only the flag's run-time reading is
 * changed: the heap's own sizes are fixed when it is made, and a worker thread's come from its
 * resource limits.
 */
function collectDeadBuffersPromptly(): void {
  // Node.js 20's V8 (below the floor, but where a developer may still run the sources) has no such flag, and would say so on stderr.
  if (Number(process.versions.node.split('.')[0]) < 22) return
  setFlagsFromString(`--scavenger-max-new-space-capacity-mb=${YOUNG_GENERATION_CAPACITY_MB}`)
}

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

/**
 * Bounds the memory that bodies in flight hold. A request reserves its body's cost before a byte of
 * it is read: its declared length, or, for a body sent without one (chunked), the most it may be
 * (`bodyLimit`). Past the budget it is answered 503 OVERLOADED with Retry-After at once; its unread
 * body is then discarded as it arrives, so the connection stays usable and nothing is kept. Bodies
 * over `bodyLimit` reserve nothing: they are refused with 413 without being read. The reservation is
 * given back once the response is written or the connection is gone.
 *
 * Answers the check that protection.ts's onRequest hook runs for each request, after the rate limit.
 */
export function bodyBudgetCheck(budget: MemoryBudget, bodyLimit: number) {
  collectDeadBuffersPromptly()
  return (request: FastifyRequest, reply: FastifyReply): DevutilsError | undefined => {
    const length = request.headers['content-length']
    let bytes: number
    if (length !== undefined) {
      bytes = Number(length)
      if (!Number.isSafeInteger(bytes) || bytes <= 0 || bytes > bodyLimit) return undefined
    } else if (request.headers['transfer-encoding'] !== undefined) {
      bytes = bodyLimit
    } else {
      return undefined
    }
    const cost = bytes * MEMORY_PER_BODY_BYTE
    if (!budget.tryReserve(cost)) return overloaded()
    reply.raw.on('close', () => budget.release(cost))
    return undefined
  }
}
