export interface ErrorBody {
  code: string
  message: string
  details?: unknown
}

export type Answer =
  | { success: true; data: Record<string, unknown>; meta: { processingTime: number; requestId: string }; status: number }
  | { success: false; error: ErrorBody; meta?: { processingTime: number; requestId: string }; status: number; retryAfter?: string }

/** POSTs to an operation as any client does, so that the page meets the same limits and errors. */
export async function callOperation(name: string, body: unknown, signal: AbortSignal): Promise<Answer> {
  const response = await fetch(`/api/v1/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
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
