import assert from 'node:assert/strict'
import { inspect } from 'node:util'
import { type DevutilsError, isDevutilsError } from '../src/core/errors.ts'

/** A refusal as tests read it: its details indexed freely, whether an object or a validation error's list. */
export type Refusal = Omit<DevutilsError, 'details'> & { readonly details?: Record<string, unknown> }

/** What a refusal must look like; every part given is checked, the rest is not. */
export interface ExpectedRefusal {
  code?: string
  /** Matched against the error's message. */
  message?: RegExp
  /** Compared with `details.position`. */
  position?: number
  /** The field of the first entry of a validation error's details list. */
  field?: string
  /** Each key deep-compared with the same key of the error's details; other keys are not looked at. */
  details?: Record<string, unknown>
  /** Anything else: may assert, and fails the expectation by returning false. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a check that only asserts returns nothing
  check?: (error: Refusal) => boolean | void
}

/** Asserts that `promise` rejects with a DevutilsError as `expected` describes, and returns that error. */
export async function expectRefusal(promise: Promise<unknown>, expected: ExpectedRefusal): Promise<Refusal> {
  let refusal: Refusal | undefined
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isDevutilsError(error), `expected a DevutilsError, got ${inspect(error)}`)
    const found = error as unknown as Refusal
    const about = (what: string) => `${what} of the refusal "${found.message}"`
    if (expected.code !== undefined) assert.equal(found.code, expected.code, about('code'))
    if (expected.message !== undefined) assert.match(found.message, expected.message)
    if (expected.position !== undefined) assert.equal(found.details?.position, expected.position, about('details.position'))
    if (expected.field !== undefined) assert.equal((found.details?.[0] as { field?: unknown } | undefined)?.field, expected.field, about('details[0].field'))
    for (const [key, value] of Object.entries(expected.details ?? {})) assert.deepEqual(found.details?.[key], value, about(`details.${key}`))
    if (expected.check?.(found) === false) assert.fail(`the check refused the refusal "${found.message}"`)
    refusal = found
    return true
  })
  return refusal!
}

/** The CPU time of a synchronous call in ms: unlike wall time, it hardly moves on a busy machine. */
export function cpuTimeOf(work: () => void): number {
  const start = process.cpuUsage()
  work()
  return cpuMsSince(start)
}

/** The CPU time in ms since `start` (a `process.cpuUsage()`), of every thread of the process. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start)
  return (user + system) / 1000
}

/** cpuTimeOf for work that finishes when its promise settles. */
export async function cpuTimeOfAsync(work: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage()
  await work()
  return cpuMsSince(start)
}
