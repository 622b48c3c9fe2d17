import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** How much a closing connection may still be sent, and for how long, before it is cut. */
export interface LingerBounds {
  maxBytes: number
  maxMs: number
}

/**
 * The bounds for a server whose requests may carry `bodyLimit` bytes and must have arrived within
 * `requestTimeoutMs`: a client refused for a body several times over the limit can still finish
 * sending it, while one that sends without end is cut by bytes and by time.
 */
export function lingerBounds({ bodyLimit, requestTimeoutMs }: { bodyLimit: number; requestTimeoutMs: number }): LingerBounds {
  return { maxBytes: 16 * bodyLimit, maxMs: requestTimeoutMs }
}

const discarders = new WeakMap<Socket, (bytes: number) => void>()

/**
 * Closes a connection in stages, as HTTP/1.1 asks of a server that answers before it has read the
 * whole request: its own side is shut once the answer is written, and what the client still sends
 * is read and discarded until the client closes its side, past `maxBytes` or after `maxMs`. Closed
 * at once, the unread bytes make the kernel reset the connection, and a client still sending
 * (undici's fetch, Python's urllib) reports that reset instead of the answer it was sent.
 * What arrives is handed to `discardLingering`.
 */
export function closeLingering(socket: Socket, { maxBytes, maxMs }: LingerBounds): void {
  socket.end()
  const deadline = setTimeout(() => socket.destroy(), maxMs)
  socket.once('close', () => clearTimeout(deadline))
  let discarded = 0
  discarders.set(socket, (bytes) => {
    discarded += bytes
    if (discarded > maxBytes) socket.destroy()
  })
}

/** Counts `bytes` that arrived on a lingering connection, and says whether the connection was lingering. */
export function discardLingering(socket: Socket, bytes: number): boolean {
  const discard = discarders.get(socket)
  discard?.(bytes)
  return discard !== undefined
}

/**
 * Has `response`, answered before `request`'s body has all arrived, close its connection lingering
 * rather than at once, should the connection close after it (a refusal with Connection: close).
 * Node's HTTP server ends such a connection through the socket's destroySoon(), which destroys it
 * as soon as the answer is written: that one call is replaced, for this response only.
 */
export function lingerAfterEarlyAnswer(request: IncomingMessage, response: ServerResponse, bounds: LingerBounds): void {
  const socket = request.socket
  const closeAtOnce = socket.destroySoon
  socket.destroySoon = () => {
    closeLingering(socket, bounds)
    // Node discards the unread body once the answer is written; this only counts it.
    request.on('data', (chunk: Buffer) => discardLingering(socket, chunk.length))
  }
  response.once('close', () => {
    socket.destroySoon = closeAtOnce
  })
}
