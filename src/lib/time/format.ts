import { HOUR, MINUTE, SECOND } from './calendar.ts'

export const pad = (value: number, width = 2) => String(value).padStart(width, '0')

/** Years as toISOString writes them: four digits within 0-9999, otherwise a sign and six digits. */
export const isoYear = (year: number) => (year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`)

/** A UTC offset in milliseconds as ±hh:mm (or ±hhmm), with :ss only where the offset has seconds. */
export function formatOffset(offset: number, separator: ':' | ''): string {
  const size = Math.abs(offset)
  const hours = Math.floor(size / HOUR)
  const minutes = Math.floor((size % HOUR) / MINUTE)
  const seconds = Math.floor((size % MINUTE) / SECOND)
  const text = `${offset < 0 ? '-' : '+'}${pad(hours)}${separator}${pad(minutes)}`
  return seconds === 0 ? text : `${text}${separator}${pad(seconds)}`
}
