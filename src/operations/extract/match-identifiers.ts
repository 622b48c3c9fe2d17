/** The matchers of UUIDs, hex digests, MAC addresses and ISO 8601 dates: each looks at one start, scans at most its own run and answers its match or nothing. */

import { HASH_CANDIDATES } from '../../lib/crypto/hex-digests.ts'
import { COLON, code, DOT, HYPHEN, isDigit, isHex, isWord } from './characters.ts'
import type { Match, Scan } from './scan.ts'

function hexRun(text: string, i: number, size: number): boolean {
  for (let j = i; j < i + size; j++) if (!isHex(code(text, j))) return false
  return true
}

export function matchUuid(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === HYPHEN) return
  const end = i + 36
  const after = code(text, end)
  if (isWord(after) || after === HYPHEN) return
  for (const [offset, size] of [
    [0, 8],
    [9, 4],
    [14, 4],
    [19, 4],
    [24, 12],
  ]) {
    if (!hexRun(text, i + offset, size)) return
    if (offset > 0 && code(text, i + offset - 1) !== HYPHEN) return
  }
  const fanged = text.slice(i, end).toLowerCase()
  return { type: 'uuid', end, fanged, details: { version: Number.parseInt(fanged[14], 16) } }
}

export function matchHash(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  if (isWord(code(text, i - 1))) return
  let end = i
  while (isHex(code(text, end))) end++
  const candidates = HASH_CANDIDATES[end - i]
  if (candidates === undefined || isWord(code(text, end))) return
  return { type: 'hash', end, fanged: text.slice(i, end).toLowerCase(), details: { candidates: [...candidates] } }
}

export function matchMac(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === COLON || before === HYPHEN || before === DOT) return
  const separator = code(text, i + 2)
  let end: number
  let format: string
  if ((separator === COLON || separator === HYPHEN) && hexRun(text, i, 2)) {
    for (let group = 1; group < 6; group++) {
      if (code(text, i + group * 3 - 1) !== separator || !hexRun(text, i + group * 3, 2)) return
    }
    end = i + 17
    format = separator === COLON ? 'colon' : 'hyphen'
  } else {
    // Cisco's dotted form: 0123.4567.89ab.
    if (!hexRun(text, i, 4) || code(text, i + 4) !== DOT || !hexRun(text, i + 5, 4) || code(text, i + 9) !== DOT || !hexRun(text, i + 10, 4)) return
    end = i + 14
    format = 'dot'
  }
  const after = code(text, end)
  if (isWord(after) || ((after === COLON || after === HYPHEN || after === DOT) && isHex(code(text, end + 1)))) return
  return { type: 'mac', end, fanged: text.slice(i, end).toLowerCase(), details: { format } }
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
const daysInMonth = (year: number, month: number) => (month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31)
const DATE = /^(\d{4})-(\d{2})-(\d{2})/
const TIME = /^[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?/

/** An ISO 8601 extended-format date or date-time (RFC 3339 and its relatives) that exists on the calendar. */
export function matchDate(scan: Scan, i: number): Match | undefined {
  const { text } = scan
  const before = code(text, i - 1)
  if (isWord(before) || before === HYPHEN || before === 0x2b || before === DOT) return
  if (!isDigit(code(text, i)) || code(text, i + 4) !== HYPHEN || code(text, i + 7) !== HYPHEN) return
  const date = DATE.exec(text.slice(i, i + 10))
  if (!date) return
  const [year, month, day] = date.slice(1).map(Number)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return
  const clean = (end: number) => {
    const after = code(text, end)
    return !isWord(after) && !((after === HYPHEN || after === COLON || after === DOT || after === 0x2b) && isDigit(code(text, end + 1)))
  }
  const time = TIME.exec(text.slice(i + 10, i + 10 + 32))
  if (time) {
    const [hour, minute, second = 0] = time.slice(1, 4).map((part) => (part === undefined ? undefined : Number(part))) as number[]
    const offset = time[5]
    const offsetValid = offset === undefined || /^[Zz]$/.test(offset) || (Number(offset.slice(1, 3)) <= 23 && Number(offset.slice(-2)) <= 59)
    const end = i + 10 + time[0].length
    if (hour <= 23 && minute <= 59 && second <= 59 && offsetValid && clean(end)) {
      const fanged = text.slice(i, end)
      return { type: 'date', end, fanged, details: { hasTime: true, offset: offset === undefined ? null : offset.toUpperCase() } }
    }
  }
  const end = i + 10
  if (!clean(end)) return
  return { type: 'date', end, fanged: text.slice(i, end), details: { hasTime: false, offset: null } }
}
