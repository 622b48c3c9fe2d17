import type { CST, LineCounter } from 'yaml'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { placeOf } from './place.ts'

/**
 * Refuses a document nested deeper than MAX_NESTING_DEPTH from the parser's concrete syntax tree,
 * without recursion and before anything is composed: composing a deeply nested document (a few
 * kilobytes of `[`) can abort the whole process with a fatal, uncatchable "RegExpCompiler
 * Allocation failed", even inside a worker thread.
 */
function assertDepthWithinLimit(token: CST.Token, lines: LineCounter): void {
  const pending: Array<[token: CST.Token, depth: number]> = [[token, 0]]
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (node.type === 'document') {
      if (node.value) pending.push([node.value, depth])
    } else if (node.type === 'block-map' || node.type === 'block-seq' || node.type === 'flow-collection') {
      if (depth + 1 > MAX_NESTING_DEPTH) {
        const place = placeOf(lines, node.offset)
        throw limitExceeded(`The YAML nests collections deeper than ${MAX_NESTING_DEPTH} levels (at line ${place.line}, column ${place.column})`, {
          ...place,
          limit: MAX_NESTING_DEPTH,
        })
      }
      for (const item of node.items) {
        if (item.key) pending.push([item.key, depth + 1])
        if (item.value) pending.push([item.value, depth + 1])
      }
    }
  }
}

/**
 * Passes the parser's tokens on to the composer once each is known to be safe to compose (see
 * assertDepthWithinLimit). On the way it corrects what yaml gets wrong about the stream: it
 * refuses a directive that no document follows and a second %YAML directive for one document, and
 * drops the empty "document" the parser reports before a `...` that ends no document (a stream of
 * `...` alone holds no document at all, YAML 1.2 §9.2).
 */
export function* checkedTokens(tokens: Iterable<CST.Token>, lines: LineCounter): Generator<CST.Token> {
  let pending: CST.Directive | undefined
  let yamlDirectives = 0
  let droppedDocument = false
  for (const token of tokens) {
    assertDepthWithinLimit(token, lines)
    if (token.type === 'document' && token.start.length === 0 && token.value === undefined && !token.end?.length) {
      droppedDocument = true
      continue
    }
    if (token.type === 'doc-end' && droppedDocument) {
      droppedDocument = false
      continue
    }
    droppedDocument = false
    if (token.type === 'directive') {
      pending = token
      if (/^%YAML(\s|$)/.test(token.source) && ++yamlDirectives > 1) {
        const place = placeOf(lines, token.offset)
        throw invalidInput(`The YAML is not valid at line ${place.line}: a document may have only one %YAML directive`, place)
      }
    } else if (token.type === 'document') {
      pending = undefined
      yamlDirectives = 0
    }
    yield token
  }
  if (pending) {
    const place = placeOf(lines, pending.offset)
    throw invalidInput(`The YAML is not valid at line ${place.line}: the directive ${pending.source.trim()} is not followed by a document`, place)
  }
}
