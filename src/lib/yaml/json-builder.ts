import { isAlias, isMap, isScalar, isSeq, type LineCounter, type Scalar, type Node as YamlNode } from 'yaml'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH, OUTPUT_LIMIT_BYTES } from '../../core/limits.ts'
import { jsonStringSize } from '../json/string-literal.ts'
import { setOwn, type WarningList } from '../json/value.ts'
import { type Place, placeOf } from './place.ts'

/** A node turned into JSON, with its nesting depth and the predicted size of its JSON text. */
interface Converted {
  value: unknown
  depth: number
  size: number
}

const NULL: Converted = { value: null, depth: 0, size: 4 }

/**
 * Turns a composed YAML document into a JSON value. Aliases reuse the value of their anchor (shared,
 * not copied), so the work stays linear while the predicted JSON size follows the expansion: a
 * "billion laughs" document is refused as soon as its expansion passes the output limit. The
 * recursion follows the document's own structure, whose depth the CST check has bounded.
 */
export class JsonBuilder {
  /** The latest node defining each anchor, in document order. */
  private readonly anchors = new Map<string, YamlNode>()
  /** Converted anchored nodes; an anchor being converted is absent (an alias to it is a cycle). */
  private readonly anchored = new Map<YamlNode, Converted>()

  constructor(
    private readonly lines: LineCounter,
    private readonly warnings: WarningList,
  ) {}

  private place(node: YamlNode | null | undefined): Place {
    return placeOf(this.lines, node?.range?.[0] ?? 0)
  }

  convert(node: YamlNode | null | undefined): Converted {
    if (node === null || node === undefined) return NULL
    if (isAlias(node)) return this.resolveAlias(node.source, node)
    const anchor = (node as { anchor?: string }).anchor
    if (anchor) this.anchors.set(anchor, node)
    const converted = isMap(node) ? this.convertMap(node) : isSeq(node) ? this.convertSeq(node) : isScalar(node) ? this.convertScalar(node) : NULL
    if (converted.depth > MAX_NESTING_DEPTH) {
      const place = this.place(node)
      throw limitExceeded(`Through its aliases the YAML nests collections deeper than ${MAX_NESTING_DEPTH} levels (at line ${place.line})`, {
        ...place,
        limit: MAX_NESTING_DEPTH,
      })
    }
    if (converted.size > OUTPUT_LIMIT_BYTES) {
      const place = this.place(node)
      throw limitExceeded(
        `The YAML would expand (through its aliases, at line ${place.line}) to more than the ${OUTPUT_LIMIT_BYTES}-byte output limit of JSON`,
        { ...place, limit: OUTPUT_LIMIT_BYTES },
      )
    }
    if (anchor) this.anchored.set(node, converted)
    return converted
  }

  private resolveAlias(name: string, alias: YamlNode): Converted {
    const target = this.anchors.get(name)
    const place = this.place(alias)
    if (!target) {
      throw invalidInput(`The alias *${name} at line ${place.line}, column ${place.column} refers to no anchor &${name} defined before it`, place)
    }
    const converted = this.anchored.get(target)
    if (!converted) {
      throw invalidInput(
        `The alias *${name} at line ${place.line}, column ${place.column} refers to a node that contains it; JSON cannot hold such a cycle`,
        place,
      )
    }
    return converted
  }

  private convertScalar(node: Scalar): Converted {
    const value: unknown = node.value
    if (typeof value === 'string') {
      if (!value.isWellFormed()) {
        const place = this.place(node)
        throw invalidInput(`The string at line ${place.line}, column ${place.column} contains a lone surrogate, which is not Unicode text`, place)
      }
      return { value, depth: 0, size: jsonStringSize(value) }
    }
    if (typeof value === 'bigint') {
      if (value >= -Number.MAX_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) return scalar(Number(value))
      this.warnings.add(`line ${this.place(node).line}: the integer ${value} is beyond 2^53, where JSON numbers lose digits, so it is returned as a string`)
      return scalar(String(value))
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      const text = Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf'
      this.warnings.add(`line ${this.place(node).line}: ${text} has no JSON number, so it is returned as the string "${text}"`)
      return scalar(text)
    }
    if (typeof value === 'symbol') return scalar(value.description ?? '')
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return scalar(value)
    return scalar(String(value))
  }

  private convertSeq(node: { items: unknown[] }): Converted {
    const value: unknown[] = []
    let depth = 0
    let size = 2
    for (const item of node.items) {
      const converted = this.convert(item as YamlNode | null)
      value.push(converted.value)
      depth = Math.max(depth, converted.depth)
      size += converted.size + 1
    }
    return { value, depth: depth + 1, size }
  }

  private convertMap(node: { items: Array<{ key: unknown; value: unknown }> }): Converted {
    const value: Record<string, unknown> = {}
    /** Keys written in this mapping (not merged), with the node that first wrote them. */
    const written = new Map<string, YamlNode | null>()
    let depth = 0
    let size = 2
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null
      if (isScalar(keyNode) && typeof keyNode.value === 'symbol') {
        const merged = this.merge(pair.value as YamlNode | null, value, written)
        depth = Math.max(depth, merged.depth - 1)
        size += merged.size
        continue
      }
      const key = this.keyText(keyNode)
      const where = keyNode ?? (pair.value as YamlNode | null)
      if (written.has(key)) {
        const place = this.place(where)
        const firstLine = this.place(written.get(key)).line
        throw invalidInput(`The key '${key}' at line ${place.line}, column ${place.column} repeats the key of line ${firstLine}; keys must be unique`, {
          ...place,
          key,
          firstLine,
        })
      }
      written.set(key, where)
      const converted = this.convert(pair.value as YamlNode | null)
      setOwn(value, key, converted.value)
      depth = Math.max(depth, converted.depth)
      size += jsonStringSize(key) + converted.size + 2
    }
    return { value, depth: depth + 1, size }
  }

  /** `<<: *base` or `<<: [*a, *b]`: keys written in the mapping win, then earlier sources. */
  private merge(sourceNode: YamlNode | null, target: Record<string, unknown>, written: Map<string, unknown>): Converted {
    const sources = isSeq(sourceNode) ? (sourceNode.items as Array<YamlNode | null>) : [sourceNode]
    let depth = 0
    let size = 0
    for (const source of sources) {
      const converted = this.convert(source)
      if (converted.value === null || typeof converted.value !== 'object' || Array.isArray(converted.value)) {
        const place = this.place(source ?? sourceNode)
        throw invalidInput(`The merge key << at line ${place.line} needs a mapping, an alias of one, or a list of them`, place)
      }
      for (const [key, item] of Object.entries(converted.value)) {
        if (!written.has(key) && !Object.hasOwn(target, key)) setOwn(target, key, item)
      }
      depth = Math.max(depth, converted.depth)
      size += converted.size
    }
    return { value: target, depth, size }
  }

  /** JSON keys are strings: scalars give their text (null gives "null"), collections their JSON text. */
  private keyText(node: YamlNode | null): string {
    const { value } = this.convert(node)
    if (typeof value === 'string') return value
    if (value !== null && typeof value === 'object') {
      const text = JSON.stringify(value)
      this.warnings.add(`line ${this.place(node).line}: a collection used as a key became the key ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`)
      return text
    }
    return String(value)
  }
}

function scalar(value: unknown): Converted {
  return { value, depth: 0, size: typeof value === 'string' ? jsonStringSize(value) : String(value).length }
}
