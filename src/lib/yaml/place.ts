import type { LineCounter } from 'yaml'

/** Where a YAML node starts: 1-based line and column. */
export type Place = { line: number; column: number }

export function placeOf(lines: LineCounter, offset: number): Place {
  const { line, col } = lines.linePos(Math.max(0, offset))
  return line === 0 ? { line: 1, column: col + 1 } : { line, column: col }
}
