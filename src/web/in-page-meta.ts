/** The `meta` of an answer made in the page, where no request was made: the time since `startedAt`, in ms to the microsecond. */
export function inPageMeta(startedAt: number): { processingTime: number; requestId: string } {
  return { processingTime: Math.round((performance.now() - startedAt) * 1000) / 1000, requestId: 'in-page' }
}
