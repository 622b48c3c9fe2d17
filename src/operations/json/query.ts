import type { JSONPathEnvironment, JSONPathQuery } from 'json-p3'
import { invalidInput, isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { assertOutputWithinLimit, MAX_NESTING_DEPTH } from '../../core/limits.ts'
import type { JsonNode, ParsedJson } from '../../lib/json/text-tree.ts'
import { utf8Length } from '../../lib/text/utf8-length.ts'
import { sizeOf, toValue } from './tree-values.ts'

/**
 * Inputs longer than this, queried with a wildcard, slice or descendant segment, run on a worker
 * thread: such a query answers each match with its path, so what it writes can grow with the
 * input's size times its depth, and its paths with the square of the input's size.
 */
export const QUERY_OFFLOAD_THRESHOLD = 1024

/**
 * Whether a JSONPath query, read from its text, may write much more than its input: a filter, a
 * second descendant segment or a segment of several selectors (each a multiplier of what the
 * segments after it match) always; a wildcard, slice or descendant segment past a small input.
 * Characters inside quoted names count too, which only sends a few more queries to a worker.
 */
export function queryMayOutgrow(input: string, path: string): boolean {
  if (path.includes('?') || path.includes(',') || path.indexOf('..') !== path.lastIndexOf('..')) return true
  return input.length > QUERY_OFFLOAD_THRESHOLD && /\.\.|\*|:/.test(path)
}

/**
 * The most values a query may gather: the values it matches, and the members of one array or object
 * that a wildcard, a slice or a filter selects from, which the query engine gathers all at once,
 * each with its path. They come beside the document read twice (as written and as values): a query
 * selecting every value of a large input outgrew a worker thread's heap.
 */
export const MAX_QUERY_VALUES = 100_000

/** The node a JSONPath location names; with repeated keys, the last member (as in the value the query saw). */
function nodeAt(root: JsonNode, location: ReadonlyArray<string | number>): JsonNode {
  let node = root
  for (const step of location) {
    if (node.kind === 'array') node = node.items[step as number]
    else if (node.kind === 'object') {
      node.byKey ??= new Map(node.members.map((member) => [member.key, member]))
      node = node.byKey.get(String(step))!.value
    }
  }
  return node
}

/**
 * json-p3 and its query environment, made with the first query (see lazily). The recursive descent
 * selector may walk every level the input may have.
 */
const jsonPath = lazily(async () => {
  const { JSONPathEnvironment, JSONPathError, jsonpath } = await import('json-p3')
  const { NameSelector, IndexSelector } = jsonpath.selectors
  /** Whether a query selects every member of an array or object it meets, or some of them (a wildcard, a slice, a filter), rather than one by name or index. */
  const selectsMembers = (query: JSONPathQuery) =>
    query.segments.some((segment) => segment.selectors.some((selector) => !(selector instanceof NameSelector || selector instanceof IndexSelector)))
  return { environment: new JSONPathEnvironment({ maxRecursionDepth: MAX_NESTING_DEPTH + 1 }), JSONPathError, selectsMembers }
})

export async function query(text: string, parsed: ParsedJson, path: string) {
  const { environment, JSONPathError, selectsMembers } = await jsonPath()
  let compiled: ReturnType<JSONPathEnvironment['compile']>
  try {
    compiled = environment.compile(path)
  } catch (error) {
    if (!(error instanceof JSONPathError)) throw error
    const position = error.token?.index
    throw invalidInput(
      `path is not a valid JSONPath query (RFC 9535): ${error.message.replace(/ \(.*:\d+\)$/, '')}${position === undefined ? '' : ` at position ${position}`}`,
      {
        field: 'path',
        ...(position === undefined ? {} : { position }),
      },
    )
  }
  if (parsed.widest > MAX_QUERY_VALUES && selectsMembers(compiled)) {
    throw limitExceeded(
      `The document holds an array or object of ${parsed.widest} members, more than the ${MAX_QUERY_VALUES} a query with a wildcard, slice or filter may run over; query it by names and indexes only, or send a smaller part of it`,
      { field: 'path', limit: MAX_QUERY_VALUES, members: parsed.widest },
    )
  }
  const document = toValue(parsed.root, text)
  const ascii = utf8Length(text) === text.length
  const values: unknown[] = []
  const paths: string[] = []
  let size = 0
  try {
    // Lazily, so that a query matching far too much is stopped at the output limit, not after building every match.
    for (const match of compiled.lazyQuery(document as never)) {
      const node = nodeAt(parsed.root, match.location)
      const normalized = match.getPath({ form: 'canonical' })
      size += sizeOf(node, ascii) + utf8Length(normalized) + 4
      assertOutputWithinLimit(size)
      if (values.length === MAX_QUERY_VALUES) {
        throw limitExceeded(`The query matches more than ${MAX_QUERY_VALUES} values, the most one query may return; narrow the path`, {
          field: 'path',
          limit: MAX_QUERY_VALUES,
        })
      }
      values.push(toValue(node, text, parsed.warnings))
      paths.push(normalized)
    }
  } catch (error) {
    if (isDevutilsError(error)) throw error
    if (error instanceof JSONPathError || error instanceof RangeError) {
      throw limitExceeded(`The query could not be evaluated within the service's limits: ${error.message.replace(/ \(.*:\d+\)$/, '')}`, { field: 'path' })
    }
    throw error
  }
  return { values, paths }
}
