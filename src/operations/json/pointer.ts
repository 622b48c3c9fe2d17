import { invalidInput } from '../../core/errors.ts'
import type { JsonNode } from '../../lib/json/text-tree.ts'

/**
 * The reference tokens of a JSON Pointer (RFC 6901), in either representation: the string itself
 * (`/a~1b`) or a URI fragment (`#/a~1b`, percent-encoded, §6). A `~` not followed by 0 or 1 is refused.
 */
function pointerTokens(pointer: string): string[] {
  let text = pointer
  if (pointer.startsWith('#')) {
    try {
      text = decodeURIComponent(pointer.slice(1))
    } catch {
      throw invalidInput('pointer is a URI fragment (it starts with #) whose percent-encoding is not valid UTF-8', { field: 'pointer' })
    }
  }
  if (text === '') return []
  if (!text.startsWith('/'))
    throw invalidInput('pointer must be empty (the whole document) or start with / (or be a URI fragment #/…)', { field: 'pointer', position: 0 })
  const badTilde = /~(?![01])/.exec(text)
  if (badTilde) {
    throw invalidInput(`pointer has a ~ at position ${badTilde.index} not followed by 0 or 1; write ~0 for ~ and ~1 for /`, {
      field: 'pointer',
      position: badTilde.index,
    })
  }
  return text
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
}

export function resolvePointer(root: JsonNode, pointer: string): JsonNode {
  const tokens = pointerTokens(pointer)
  let node = root
  let at = ''
  const missing = (why: string) => invalidInput(`pointer does not resolve: ${why}`, { field: 'pointer', path: at || '/' })
  for (const token of tokens) {
    const shown = JSON.stringify(token)
    if (node.kind === 'object') {
      node.byKey ??= new Map(node.members.map((member) => [member.key, member]))
      const member = node.byKey.get(token)
      if (!member) throw missing(`the object at '${at}' has no member ${shown}`)
      node = member.value
    } else if (node.kind === 'array') {
      if (token === '-') throw missing(`'-' names the element after the last of the array at '${at}', which does not exist`)
      if (!/^(?:0|[1-9]\d*)$/.test(token)) throw missing(`${shown} is not an array index (digits, no leading zero) for the array at '${at}'`)
      const item = node.items[Number(token)]
      if (!item) throw missing(`the array at '${at}' has ${node.items.length} elements, so no index ${token}`)
      node = item
    } else throw missing(`the value at '${at}' is ${node.text.length > 20 ? 'a scalar' : node.text}, not an object or array`)
    at += `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`
  }
  return node
}
