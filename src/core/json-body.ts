import { isUtf8 } from 'node:buffer'
import { DevutilsError } from './errors.ts'
import { hasPrototypeKey } from './inspect.ts'

/**
 * A request body as strict JSON in UTF-8: bytes that are not UTF-8 are refused rather than decoded
 * into U+FFFD (as Fastify's own parser would), and so are prototype-poisoning keys. Pure, so that a
 * worker thread can parse a heavy request's body too (see `executeBodyToJson`).
 */
export function parseJsonBody(body: Uint8Array): unknown {
  // One native check, then a plain decode: a fatal TextDecoder costs a small body several times more.
  if (!isUtf8(body)) throw new DevutilsError('INVALID_JSON', 'The body is not valid UTF-8; JSON must be sent as UTF-8 text')
  // A byte order mark is not part of the JSON text (RFC 8259 §8.1 lets a parser ignore it).
  const start = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const text = bytes.toString('utf8', start)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Only a text that is not JSON can be empty, so the common case never trims a copy of the body.
    if (text.trim() === '') throw emptyBody()
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
