import { Document, Scalar, type Tags, visit } from 'yaml'
import { assertOutputWithinLimit, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { forEachChild, parseJsonText } from '../../lib/json/value.ts'
import { type Role, writeYaml } from './yaml-writer.ts'

/**
 * Plain strings that a YAML 1.1 reader (PyYAML and others) would take for something else, beyond
 * those the `yaml-1.1` compatibility schema already quotes: the 1.1 "value" key `=`, and a leading
 * byte-order mark, which a reader drops at the start of a document.
 */
function needsExtraQuotes(text: string): boolean {
  return text === '=' || text.charCodeAt(0) === 0xfeff
}

/**
 * Numbers as YAML 1.1 and 1.2 read them back, and as yamlToJson gives them back as numbers: an
 * integer beyond 2^53 is written in exponent form (a YAML integer that large would come back as a
 * string), and 1.1 floats need a '.', so 1e+21 is written 1.0e+21.
 */
function numberText(node: Scalar): string {
  const value = node.value as number
  const text = Number.isInteger(value) && !Number.isSafeInteger(value) ? value.toExponential() : JSON.stringify(value)
  return text.includes('e') && !text.includes('.') ? text.replace('e', '.0e') : text
}

const NUMBER_TAGS = new Set(['tag:yaml.org,2002:int', 'tag:yaml.org,2002:float'])
const numberTags = (tags: Tags): Tags =>
  tags.map((tag) => (typeof tag === 'object' && NUMBER_TAGS.has(tag.tag) ? { ...tag, stringify: numberText } : tag)) as Tags

/**
 * An upper bound of the YAML text's length, before it is written: indentation repeats on every
 * line and long strings fold into many lines, so the output can be far larger than the input.
 */
function predictYamlSize(root: unknown, indent: number, lineWidth: number): number {
  const step = indent + 2
  let size = 0
  const text = (value: string, depth: number) => {
    const margin = depth * step
    let lines = 1
    for (let at = value.indexOf('\n'); at !== -1; at = value.indexOf('\n', at + 1)) lines++
    if (lineWidth > 0) lines += Math.ceil((2 * value.length) / Math.max(20, lineWidth - margin))
    return 6 * value.length + 4 + lines * (margin + step + 2)
  }
  const scalar = (value: unknown, depth: number) => depth * step + 4 + (typeof value === 'string' ? text(value, depth) : 24)
  if (root === null || typeof root !== 'object') return scalar(root, 0)
  // Only mappings and sequences wait on the stack: a sequence of half a million numbers is
  // measured without building anything per element.
  const pending: Array<[container: object, depth: number]> = [[root, 0]]
  while (pending.length > 0 && size <= OUTPUT_LIMIT_BYTES) {
    const [container, depth] = pending.pop()!
    size += depth * step + 4
    forEachChild(container, (child, key) => {
      if (typeof key === 'string') size += text(key, depth + 1)
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1])
      else size += scalar(child, depth + 1)
      return size <= OUTPUT_LIMIT_BYTES
    })
  }
  return size
}

interface JsonToYamlOptions {
  indent: number
  sortKeys: boolean
  lineWidth: number
}

/** The library's path: a Document with the 1.1-compatible quoting, written by the library. */
export function jsonToYamlByLibrary(value: unknown, { indent, sortKeys, lineWidth }: JsonToYamlOptions): string {
  const doc = new Document(value, {
    version: '1.2',
    schema: 'core',
    compat: 'yaml-1.1',
    customTags: numberTags,
    sortMapEntries: sortKeys,
    aliasDuplicateObjects: false,
  })
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && needsExtraQuotes(node.value)) node.type = Scalar.QUOTE_DOUBLE
    },
  })
  return doc.toString({ indent, lineWidth })
}

/** How the library writes one string as a key or as a value, on one line if it can. */
function renderAlone(text: string, role: Role): string {
  const options = { indent: 2, sortKeys: false, lineWidth: 0 }
  if (role === 'key') return jsonToYamlByLibrary({ [text]: null }, options).slice(0, -': null\n'.length)
  return jsonToYamlByLibrary({ k: text }, options).slice('k: '.length, -1)
}

/** The direct writer's text (see yaml-writer.ts), or undefined where only the library's path knows the layout. */
export const jsonToYamlDirectly = (value: unknown, options: JsonToYamlOptions) => writeYaml(value, options, renderAlone)

export function jsonToYaml(input: unknown, options: JsonToYamlOptions) {
  const value = typeof input === 'string' ? parseJsonText(input) : input
  assertOutputWithinLimit(predictYamlSize(value, options.indent, options.lineWidth))
  const result = jsonToYamlDirectly(value, options) ?? jsonToYamlByLibrary(value, options)
  return { result, action: 'jsonToYaml' as const }
}
