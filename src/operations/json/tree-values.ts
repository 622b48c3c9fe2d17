import { invalidInput } from '../../core/errors.ts'
import type { JsonNode } from '../../lib/json/text-tree.ts'
import { isExactNumber, lineAndColumn, setOwn, type WarningList } from '../../lib/json/value.ts'

/**
 * A tree as a JSON value. Numbers a double cannot hold exactly (beyond 2^53, more digits than a
 * double keeps, beyond its range) are given as their text, with a warning, when `warnings` is given;
 * otherwise (the copy a JSONPath filter reads) as the nearest double.
 */
export function toValue(node: JsonNode, text: string, warnings?: WarningList): unknown {
  if (node.kind === 'array') return node.items.map((item) => toValue(item, text, warnings))
  if (node.kind === 'object') {
    const value: Record<string, unknown> = {}
    for (const member of node.members) setOwn(value, member.key, toValue(member.value, text, warnings))
    return value
  }
  if (typeof node.value === 'string') {
    if (!node.value.isWellFormed()) {
      const { line, column } = lineAndColumn(text, node.start)
      throw invalidInput(
        `The string at line ${line}, column ${column} escapes a lone surrogate, which is not Unicode text; it cannot be given as a value (format and minify keep it as written)`,
        { field: 'input', position: node.start, line, column },
      )
    }
    return node.value
  }
  if (typeof node.value === 'number' && warnings && !isExactNumber(node.text)) {
    const { line } = lineAndColumn(text, node.start)
    warnings.add(`line ${line}: the number ${node.text} has no exact JSON double (it would be read as ${Number(node.text)}), so it is given as a string`)
    return node.text
  }
  return node.value
}

/**
 * About the UTF-8 size of a node's JSON: values are never longer than their text (escapes only get
 * shorter), but a UTF-16 unit may take three bytes, and a number given as a string gains quotes.
 */
export const sizeOf = (node: JsonNode, ascii: boolean) => (ascii ? 1 : 3) * (node.end - node.start) + 2
