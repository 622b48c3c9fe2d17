export type Json = Record<string, unknown>

export const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

/** Compose durations (the Compose Specification, "Specifying durations"): units us, ms, s, m, h. */
export const DURATION = /^(?:\d+(?:\.\d+)?(?:us|ms|s|m|h))+$/
export const NAMED_VOLUME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/

/** Seconds as a Compose duration: 90 → 1m30s. */
export function secondsToDuration(seconds: number): string {
  if (seconds === 0) return '0s'
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = seconds % 60
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${rest ? `${rest}s` : ''}`
}

/** A Compose duration in seconds; undefined when it is not one. */
export function durationToSeconds(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined
  const scale: Record<string, number> = { us: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }
  let total = 0
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)) total += Number(amount) * scale[unit]
  return total
}
