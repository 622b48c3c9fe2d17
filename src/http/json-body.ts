import type { FastifyRequest } from 'fastify'
import { DevutilsError } from '../core/errors.ts'
import { emptyBody } from '../core/json-body.ts'

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i

/** Refuses a JSON body declared in any charset but UTF-8 (415), before its bytes are read. */
export function checkCharset(request: FastifyRequest): void {
  const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1]
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw new DevutilsError('UNSUPPORTED_MEDIA_TYPE', `The charset '${charset}' is not supported; send the body as application/json in UTF-8`)
  }
}

/**
 * The bytes of a JSON body, which the app's content-type parser leaves unparsed: a route parses
 * them (`parseJsonBody`) or, for heavy work, hands them to a worker thread whole.
 */
export function bodyBytes(request: FastifyRequest): Buffer {
  const body = request.body as Buffer | undefined
  if (body === undefined) throw emptyBody()
  return body
}
