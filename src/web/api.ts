export interface ErrorBody {
  code: string
  message: string
  details?: unknown
}

export type Answer =
  | { success: true; data: Record<string, unknown>; meta: { processingTime: number; requestId: string }; status: number }
  | { success: false; error: ErrorBody; meta?: { processingTime: number; requestId: string }; status: number; retryAfter?: string }

export const OFFLINE_MESSAGE = 'you are offline, and this tool runs on the service. Reconnect, then press Run again.'

const offline = () => navigator.onLine === false

/** POSTs to an operation as any client does, so that the page meets the same limits and errors. */
export async function callOperation(name: string, body: unknown, signal: AbortSignal): Promise<Answer> {
  // The pages open offline from the service worker's copy, but the operations run on the server.
  if (offline()) throw new Error(OFFLINE_MESSAGE)
  let response: Response
  try {
    response = await fetch(`/api/v1/${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    })
  } catch (error) {
    if (error instanceof TypeError) throw new Error(offline() ? OFFLINE_MESSAGE : `the service could not be reached (${error.message})`)
    throw error
  }
  let envelope: Record<string, unknown>
  try {
    envelope = (await response.json()) as Record<string, unknown>
  } catch {
    return { success: false, status: response.status, error: { code: 'UNREADABLE', message: `The service answered ${response.status} with no JSON envelope` } }
  }
  return { ...envelope, status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined } as Answer
}

/** The same request as a shell command, for a person who wants to script what they just did. */
export function curlCommand(name: string, body: unknown): string {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`
  return `curl -s ${location.origin}/api/v1/${name} -H 'content-type: application/json' -d ${quote(JSON.stringify(body))}`
}
