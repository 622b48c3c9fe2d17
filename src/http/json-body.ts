import { isUtf8 } from 'node:buffer'
import type { FastifyRequest } from 'fastify'
import { DevutilsError } from '../core/errors.ts'
import { hasPrototypeKey } from '../core/inspect.ts'

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i

/**
 * The only body parser: strict JSON in UTF-8. Fastify's own parser decodes bytes that are not UTF-8
 * into U+FFFD without a word; this one refuses them, and refuses prototype-poisoning keys too.
 */
export function parseJsonBody(request: FastifyRequest, body: Buffer): unknown {
  const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1]
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw new DevutilsError('UNSUPPORTED_MEDIA_TYPE', `The charset '${charset}' is not supported; send the body as application/json in UTF-8`)
  }
  // One native check, then a plain decode: a fatal TextDecoder costs a small body several times more.
  if (!isUtf8(body)) throw new DevutilsError('INVALID_JSON', 'The body is not valid UTF-8; JSON must be sent as UTF-8 text')
  // A byte order mark is not part of the JSON text (RFC 8259 §8.1 lets a parser ignore it).
  const text = body.toString('utf8', body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0)
  if (text.trim() === '') throw emptyBody()
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const position = /position (\d+)/.exec(reason)?.[1]
    throw new DevutilsError('INVALID_JSON', `The body is not valid JSON: ${reason}`, position === undefined ? undefined : { position: Number(position) })
  }
  if (hasPrototypeKey(value)) {
    throw new DevutilsError('INVALID_JSON', 'The body holds a __proto__ or constructor.prototype key, which is refused')
  }
  return value
}

export function emptyBody(): DevutilsError {
  return new DevutilsError('INVALID_JSON', 'The body is empty; send a JSON object such as {"input": "hello"}')
}
