/** Reading a unit as the caller wrote it, with the spellings nearest to one it does not know. */

import { invalidInput } from '../../core/errors.ts'
import { editDistance } from '../../lib/text/edit-distance.ts'
import { CALENDAR_UNITS, key, NAMES, SPELLINGS, SYMBOLS, type Unit, WARNINGS } from './unit-table.ts'

const MAX_SUGGESTIONS = 10

/** The known spellings within two edits of `text` (letter case aside), nearest first. */
export function closeNames(text: string): string[] {
  const folded = key(text).toLowerCase()
  const scored: Array<[string, number]> = []
  for (const name of SPELLINGS) {
    const spelling = key(name).toLowerCase()
    // Two texts are at least their difference in length apart: a long text is never compared.
    if (Math.abs(spelling.length - folded.length) > 2) continue
    const score = editDistance(folded, spelling)
    if (score <= 2) scored.push([name, score])
  }
  scored.sort((a, b) => a[1] - b[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1))
  return [...new Set(scored.map(([name]) => name))].slice(0, MAX_SUGGESTIONS)
}

/** A unit as the caller wrote it, and the warning its spelling calls for. */
export interface Found {
  unit: Unit
  warning?: string
}

export function findUnit(text: string): Found | undefined {
  const folded = key(text)
  const unit = SYMBOLS.get(folded) ?? NAMES.get(folded.toLowerCase())
  return unit && { unit, warning: WARNINGS.get(folded) }
}

export function unitOf(text: string, field: string): Found {
  const found = findUnit(text)
  if (found) return found
  if (CALENDAR_UNITS.has(key(text).toLowerCase())) {
    throw invalidInput(`${text} is a calendar unit, whose length varies: calendar units need a date: use datetime`, { field, unit: text })
  }
  const close = closeNames(text)
  throw invalidInput(`'${text}' is not a unit this operation knows${close.length > 0 ? `; did you mean ${close.join(', ')}?` : ''}`, {
    field,
    unit: text,
    closeNames: close,
  })
}
