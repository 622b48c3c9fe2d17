import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { type Scan, tooDeep } from './languages.ts'

const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
const FENCE = /^(`{3,}|~{3,})/

/**
 * Markdown's containers, line by line: block quote markers, list item markers, and the lines
 * indented under a list item, which belong to it. Fenced code is skipped.
 */
export function scanMarkdown(input: string, indentWidth: number): Scan {
  const itemColumns: number[] = []
  let depth = 0
  let predicted = input.length
  let fence = ''
  let lineStart = 0
  while (lineStart <= input.length) {
    const newline = input.indexOf('\n', lineStart)
    const lineEnd = newline === -1 ? input.length : newline
    const line = input.slice(lineStart, lineEnd)
    let column = 0
    while (column < line.length && (line[column] === ' ' || line[column] === '\t')) column++
    if (column < line.length) {
      while (itemColumns.length > 0 && itemColumns[itemColumns.length - 1] > column) itemColumns.pop()
      let level = itemColumns.length
      let rest = line.slice(column)
      if (fence) {
        if (rest.startsWith(fence)) fence = ''
      } else {
        for (;;) {
          if (rest.startsWith('>')) {
            level++
            rest = rest.slice(1)
            column++
          } else {
            const marker = LIST_MARKER.exec(rest)
            if (!marker) break
            level++
            itemColumns.push(column + marker[0].length)
            rest = rest.slice(marker[0].length)
            column += marker[0].length
          }
          const spaces = rest.length - rest.trimStart().length
          rest = rest.slice(spaces)
          column += spaces
          if (level > MAX_NESTING_DEPTH) throw tooDeep(input, 'markdown', lineStart + Math.min(column, line.length), 'block quotes and lists')
        }
        const opening = FENCE.exec(rest)
        if (opening) fence = opening[1]
      }
      if (level > depth) depth = level
      predicted += 1 + level * Math.max(indentWidth, 4)
    }
    if (newline === -1) break
    lineStart = newline + 1
  }
  return { depth, predictedLength: predicted }
}

const BLOCK_SCALAR = /(?:^|[\s:-])[|>][-+1-9]*\s*(?:#.*)?$/

/**
 * YAML's block collections by indentation (a `- ` after another on one line is one more level),
 * and its flow collections by brackets outside quotes; block scalars' lines are text.
 */
export function scanYaml(input: string, indentWidth: number): Scan {
  const indents: number[] = []
  let flow = 0
  let depth = 0
  let predicted = input.length
  let blockScalarIndent = -1
  let lineStart = 0
  while (lineStart <= input.length) {
    const newline = input.indexOf('\n', lineStart)
    const lineEnd = newline === -1 ? input.length : newline
    const line = input.slice(lineStart, lineEnd)
    let column = 0
    while (column < line.length && line[column] === ' ') column++
    const content = line.slice(column).trimEnd()
    const blank = content === '' || content.startsWith('#')
    if (blockScalarIndent !== -1 && (blank || column > blockScalarIndent)) {
      // A line of a block scalar's text.
    } else if (!blank) {
      blockScalarIndent = -1
      if (flow === 0) {
        while (indents.length > 0 && indents[indents.length - 1] > column) indents.pop()
        if (indents.length === 0 || indents[indents.length - 1] < column) indents.push(column)
      }
      let compact = 0
      let quote = ''
      for (let i = 0; i < content.length; i++) {
        const char = content[i]
        if (quote) {
          if (char === quote) quote = ''
        } else if (char === '"' || char === "'") quote = char
        else if (char === '#' && (i === 0 || content[i - 1] === ' ')) break
        else if (char === '[' || char === '{') {
          flow++
          const level = indents.length + compact + flow
          if (level > depth) depth = level
          if (level > MAX_NESTING_DEPTH) throw tooDeep(input, 'yaml', lineStart + column + i, 'collections')
        } else if (char === ']' || char === '}') flow = Math.max(0, flow - 1)
        else if (
          (char === '-' || char === '?' || char === ':') &&
          flow === 0 &&
          (content[i + 1] === ' ' || i + 1 === content.length) &&
          i > 0 &&
          /^(?:[-?:] +)+$/.test(content.slice(0, i))
        ) {
          // A sequence item, complex key or value on the line of another is one more level.
          compact++
          const level = indents.length + compact
          if (level > MAX_NESTING_DEPTH) throw tooDeep(input, 'yaml', lineStart + column + i, 'collections')
        }
        // In a flow collection each item, bracket and space may break a line, as deep as it lies.
        if (flow > 0 || char === ']' || char === '}') predicted += 2 + (indents.length + compact + flow + 1) * indentWidth
      }
      const level = indents.length + compact + flow
      if (level > depth) depth = level
      if (level > MAX_NESTING_DEPTH) throw tooDeep(input, 'yaml', lineStart + column, 'collections')
      predicted += 1 + level * indentWidth
      if (BLOCK_SCALAR.test(content)) blockScalarIndent = column
    }
    if (newline === -1) break
    lineStart = newline + 1
  }
  return { depth, predictedLength: predicted }
}
