import { invalidInput, limitExceeded } from '../../core/errors.ts'

/** One `-----BEGIN label-----` … `-----END label-----` block of a text, decoded. */
export interface PemBlock {
  /** Its place among the text's blocks, from 0. */
  index: number
  label: string
  /** RFC 1421 headers such as `Proc-Type` and `DEK-Info`, in order (legacy encrypted keys carry them). */
  headers: Array<{ name: string; value: string }>
  der: Buffer
  /** The line of its BEGIN boundary, from 1. */
  line: number
}

// RFC 7468 §3: a label is printable ASCII without '-', with single hyphens or spaces between such characters.
const BEGIN = /^-----BEGIN ((?:[\x21-\x2c\x2e-\x7e](?:[- ]?[\x21-\x2c\x2e-\x7e])*)?)-----$/
const END = /^-----END ((?:[\x21-\x2c\x2e-\x7e](?:[- ]?[\x21-\x2c\x2e-\x7e])*)?)-----$/
const BASE64_LINE = /^[A-Za-z0-9+/]*={0,2}$/
const HEADER = /^([\x21-\x39\x3b-\x7e]+):[ \t]*(.*)$/

/**
 * Reads every PEM block of `text` as RFC 7468 §2 asks of lax parsers: text before, between and after
 * blocks is ignored, lines may end in CRLF, LF or CR, whitespace around lines is dropped, and RFC 1421
 * headers before the base64 are kept. A block whose base64 is broken, or that never ends, is refused
 * with its index and line rather than skipped, so no block is lost silently.
 */
export function readPemBlocks(text: string, maxBlocks: number): PemBlock[] {
  const lines = text.split(/\r\n|\n|\r/)
  const blocks: PemBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const begin = BEGIN.exec(lines[i].trim())
    if (begin === null) continue
    if (blocks.length === maxBlocks) throw limitExceeded(`the text holds more than ${maxBlocks} PEM blocks`, { limit: maxBlocks })
    const block = readBlock(lines, i, begin[1], blocks.length)
    blocks.push(block.block)
    i = block.endLine
  }
  return blocks
}

function readBlock(lines: string[], beginLine: number, label: string, index: number): { block: PemBlock; endLine: number } {
  const where = { block: index, label, line: beginLine + 1 }
  const headers: PemBlock['headers'] = []
  const body: string[] = []
  let inHeaders = HEADER.test(lines[beginLine + 1]?.trim() ?? '')
  for (let i = beginLine + 1; i < lines.length; i++) {
    const line = lines[i].trim()
    const end = END.exec(line)
    if (end !== null) {
      if (end[1] !== label)
        throw invalidInput(`PEM block ${index} begins as "${label}" at line ${beginLine + 1} but ends as "${end[1]}" at line ${i + 1}`, {
          ...where,
          endLine: i + 1,
        })
      return { block: { index, label, headers, der: decodeBody(body, where), line: beginLine + 1 }, endLine: i }
    }
    if (BEGIN.test(line)) break
    if (inHeaders) {
      inHeaders = readHeaderLine(lines[i], line, headers)
      if (inHeaders || line === '') continue
    }
    if (line !== '' && !BASE64_LINE.test(line.replace(/[ \t]+/g, ''))) {
      throw invalidInput(`PEM block ${index} (${label}) is not base64 at line ${i + 1}`, { ...where, line: i + 1 })
    }
    body.push(line)
  }
  throw invalidInput(`PEM block ${index} (${label}) begins at line ${beginLine + 1} and has no "-----END ${label}-----" line`, where)
}

/** Takes one header line or continuation; answers whether the headers go on (a blank line ends them). */
function readHeaderLine(raw: string, line: string, headers: PemBlock['headers']): boolean {
  if (line === '') return false
  const last = headers.at(-1)
  if (/^[ \t]/.test(raw) && last !== undefined) {
    last.value += line
    return true
  }
  const header = HEADER.exec(line)
  if (header === null) return false
  headers.push({ name: header[1], value: header[2] })
  return true
}

function decodeBody(body: string[], where: { block: number; label: string; line: number }): Buffer {
  const base64 = body.join('').replace(/[ \t]+/g, '')
  const padding = base64.length - base64.replace(/=+$/, '').length
  if (base64.length % 4 !== 0 || base64.slice(0, base64.length - padding).includes('=')) {
    throw invalidInput(
      `PEM block ${where.block} (${where.label}) starting at line ${where.line} is not whole base64: it is truncated or padded in the middle`,
      where,
    )
  }
  return Buffer.from(base64, 'base64')
}

/** Writes `der` as one RFC 7468 block: the strict form, 64 characters a line, LF line ends. */
export function pemBlock(label: string, der: Uint8Array): string {
  const base64 = Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('base64')
  const lines: string[] = []
  for (let i = 0; i < base64.length; i += 64) lines.push(base64.slice(i, i + 64))
  return `-----BEGIN ${label}-----\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}-----END ${label}-----\n`
}
