/** Every error code the service can produce, with its HTTP status: the one table all adapters read. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  VALIDATION_ERROR: 400,
  UNKNOWN_OPERATION: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_INPUT: 422,
  LIMIT_EXCEEDED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  OVERLOADED: 503,
  TIMEOUT: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

/** Where in the input a problem lies: a field, a position in a string, a line, a row… */
export type ErrorDetails = Record<string, unknown> | Array<{ field: string; message: string }>

export const INTERNAL_ERROR_MESSAGE = 'An internal error occurred; it has been logged.'

/**
 * What marks a DevutilsError, whichever copy of this module made it: a worker thread under the tsx
 * loader evaluates an operation loaded on demand with module instances of its own, and its errors
 * must still be known for what they are.
 */
const BRAND = Symbol.for('devutils.DevutilsError')

export class DevutilsError extends Error {
  readonly code: ErrorCode
  readonly details?: ErrorDetails
  readonly [BRAND] = true

  /** `options.cause`: the error this one answers for, such as the defect behind an INTERNAL_ERROR, for the log. */
  constructor(code: ErrorCode, message: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'DevutilsError'
    this.code = code
    this.details = details
  }

  get status(): number {
    return ERROR_STATUS[this.code]
  }
}

/** The request is well formed but its content cannot be processed (422). */
export function invalidInput(message: string, details?: ErrorDetails): DevutilsError {
  return new DevutilsError('INVALID_INPUT', message, details)
}

/** The content would exceed a processing limit (422). */
export function limitExceeded(message: string, details?: ErrorDetails): DevutilsError {
  return new DevutilsError('LIMIT_EXCEEDED', message, details)
}

/**
 * The 422 for a thrown value that says the work outgrew what one task may use: a call stack
 * overflowed by recursion as deep as its input nests. Undefined for anything else.
 */
export function limitErrorOf(thrown: unknown): DevutilsError | undefined {
  if (!(thrown instanceof RangeError) || !STACK_OVERFLOW.test(thrown.message)) return undefined
  return limitExceeded('The input nests or repeats too deeply to be processed: the work ran out of call stack; send a flatter or smaller input', {
    reason: 'stack',
  })
}

const STACK_OVERFLOW = /^Maximum call stack size exceeded$/

/** A rule between fields that the schema cannot express, reported like a schema error (400). */
export function validationError(field: string, message: string): DevutilsError {
  return new DevutilsError('VALIDATION_ERROR', `${field} ${message}`, [{ field, message }])
}

/** The `error` object of every envelope: HTTP's, a batch entry's, an MCP error result's. */
export interface ErrorBody {
  code: ErrorCode
  message: string
  details?: ErrorDetails
}

export function errorBody(error: DevutilsError): ErrorBody {
  return error.details === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, details: error.details }
}

export function isDevutilsError(error: unknown): error is DevutilsError {
  return typeof error === 'object' && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true
}
