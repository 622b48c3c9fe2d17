import { assertOutputWithinLimit } from '../../core/limits.ts'
import { utf8Length } from '../text/utf8-length.ts'
import { type JsonNode, type Member, parseOrRefuse, warningsOf } from './text-tree.ts'

/**
 * How many pieces of text `writeJson` gathers before joining them into a chunk: a document is written
 * in a few pieces per value, and one array of them all, with the copy each of its growths makes, was
 * the largest thing a large document of small values made the operation build.
 */
const PIECES_PER_CHUNK = 64 * 1024

/** The JSON text of a tree, every literal exactly as written. `indent` '' writes it on one line with no spaces. */
function writeJson(root: JsonNode, indent: string, sortKeys: boolean): string {
  const chunks: string[] = []
  let parts: string[] = []
  const write = (node: JsonNode, depth: number) => {
    if (parts.length >= PIECES_PER_CHUNK) {
      chunks.push(parts.join(''))
      parts = []
    }
    if (node.kind === 'literal') {
      parts.push(node.text)
      return
    }
    const entries = node.kind === 'array' ? node.items : sortKeys ? sortedMembers(node.members) : node.members
    const [openBracket, closeBracket] = node.kind === 'array' ? ['[', ']'] : ['{', '}']
    if (entries.length === 0) {
      parts.push(openBracket, closeBracket)
      return
    }
    const inner = indent ? `\n${indent.repeat(depth + 1)}` : ''
    parts.push(openBracket)
    entries.forEach((entry, index) => {
      if (index > 0) parts.push(',')
      parts.push(inner)
      if ('key' in entry) {
        parts.push(entry.keyText, indent ? ': ' : ':')
        write(entry.value, depth + 1)
      } else write(entry, depth + 1)
    })
    parts.push(indent ? `\n${indent.repeat(depth)}` : '', closeBracket)
  }
  write(root, 0)
  chunks.push(parts.join(''))
  return chunks.join('')
}

/** Members in UTF-16 code unit order of their keys; a stable sort, so repeated keys keep their order. */
function sortedMembers(members: Member[]): Member[] {
  return [...members].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/**
 * JSON text laid out again, every literal kept exactly as written: `indent` '' writes it on one line
 * with no spaces, as minify does. A syntax error is a 422 with its place.
 */
export function layOutJson(text: string, { indent, sortKeys, lenient }: { indent: string; sortKeys: boolean; lenient: boolean }) {
  const parsed = parseOrRefuse(text, lenient)
  assertOutputWithinLimit(utf8Length(text) + 4 * parsed.lines + indent.length * parsed.indentUnits)
  return { text: writeJson(parsed.root, indent, sortKeys), warnings: warningsOf(parsed) }
}
