import type { FastifyRequest } from 'fastify'
import { DevutilsError } from '../core/errors.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
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
  let text: string
  try {
    text = utf8.decode(body)
  } catch {
    throw new DevutilsError('INVALID_JSON', 'The body is not valid UTF-8; JSON must be sent as UTF-8 text')
  }
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

/**
 * Whether a parsed value holds an own `__proto__` key, or a `constructor` object with its own
 * `prototype` key, at any depth (escaped spellings included, since JSON.parse has decoded them).
 * Walking the parsed value costs next to nothing for the common large body, one long string, where
 * scanning the text for those words twice (as secure-json-parse does) costs more than the hashing.
 */
function hasPrototypeKey(root: unknown): boolean {
  const pending: unknown[] = [root]
  while (pending.length > 0) {
    const value = pending.pop()
    if (value === null || typeof value !== 'object') continue
    if (Array.isArray(value)) {
      for (const item of value) if (item !== null && typeof item === 'object') pending.push(item)
      continue
    }
    if (Object.hasOwn(value, '__proto__')) return true
    const record = value as Record<string, unknown>
    const constructor = Object.hasOwn(record, 'constructor') ? record.constructor : undefined
    if (constructor !== null && typeof constructor === 'object' && Object.hasOwn(constructor, 'prototype')) return true
    for (const key in record) {
      const item = record[key]
      if (item !== null && typeof item === 'object') pending.push(item)
    }
  }
  return false
}

export function emptyBody(): DevutilsError {
  return new DevutilsError('INVALID_JSON', 'The body is empty; send a JSON object such as {"input": "hello"}')
}
