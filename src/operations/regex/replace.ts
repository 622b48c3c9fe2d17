/** Replacement as String.prototype.replace does it: the template parsed once as GetSubstitution reads it, then applied to each match. */

import { type Found, type GroupInfo, type Matcher, matchesOf } from './matcher.ts'
import type { OutputBudget } from './output-budget.ts'

/** One piece of a replacement template, parsed once as GetSubstitution (ECMA-262) reads it. */
type TemplatePart = string | { kind: 'match' } | { kind: 'before' } | { kind: 'after' } | { kind: 'group'; number: number } | { kind: 'named'; name: string }

const DIGIT = /[0-9]/

/**
 * The replacement template as parts: `$$`, `$&`, `` $` ``, `$'`, `$n` and `$nn` (a two-digit number
 * past the group count is read as one digit and a literal one; `$0` and `$00` stay literal), and
 * `$<name>` when the pattern has named groups. Anything else after `$` is literal.
 */
function parseTemplate(template: string, groupCount: number, hasNames: boolean): TemplatePart[] {
  const parts: TemplatePart[] = []
  let literal = ''
  const flush = () => {
    if (literal !== '') parts.push(literal)
    literal = ''
  }
  let i = 0
  while (i < template.length) {
    const c = template[i]
    const next = template[i + 1]
    if (c !== '$' || next === undefined) {
      literal += c
      i++
    } else if (next === '$') {
      literal += '$'
      i += 2
    } else if (next === '&' || next === '`' || next === "'") {
      flush()
      parts.push({ kind: next === '&' ? 'match' : next === '`' ? 'before' : 'after' })
      i += 2
    } else if (DIGIT.test(next)) {
      let digitCount = DIGIT.test(template[i + 2] ?? '') ? 2 : 1
      let index = Number(template.slice(i + 1, i + 1 + digitCount))
      if (index > groupCount && digitCount === 2) {
        digitCount = 1
        index = Number(next)
      }
      if (index >= 1 && index <= groupCount) {
        flush()
        parts.push({ kind: 'group', number: index })
      } else literal += template.slice(i, i + 1 + digitCount)
      i += 1 + digitCount
    } else if (next === '<' && hasNames) {
      const close = template.indexOf('>', i + 2)
      if (close < 0) {
        literal += '$<'
        i += 2
      } else {
        flush()
        parts.push({ kind: 'named', name: template.slice(i + 2, close) })
        i = close + 1
      }
    } else {
      literal += '$'
      i++
    }
  }
  flush()
  return parts
}

/** A group's text in one match, or undefined when it took no part. */
export function captureOf(found: Found, input: string, number: number): string | undefined {
  const span = found.captures[number - 1]
  return span === undefined ? undefined : input.slice(span[0], span[1])
}

/** The span of the named group that took part in the match (with duplicate names, at most one does). */
function namedSpan(found: Found, groups: GroupInfo[], name: string): readonly [number, number] | undefined {
  for (const group of groups) if (group.name === name && found.captures[group.number - 1] !== undefined) return found.captures[group.number - 1]
  return undefined
}

/** The span of the text each part stands for in one match, or a literal; the length is known before any text is copied. */
function spansOf(parts: TemplatePart[], found: Found, groups: GroupInfo[], length: number): Array<string | readonly [number, number]> {
  return parts.map((part) => {
    if (typeof part === 'string') return part
    if (part.kind === 'match') return [found.index, found.end] as const
    if (part.kind === 'before') return [0, found.index] as const
    if (part.kind === 'after') return [Math.min(found.end, length), length] as const
    if (part.kind === 'group') return found.captures[part.number - 1] ?? ''
    return namedSpan(found, groups, part.name) ?? ''
  })
}

export function replaceAll(matcher: Matcher, input: string, template: string, global: boolean, sticky: boolean, budget: OutputBudget) {
  const parts = parseTemplate(template, matcher.groups.length, matcher.hasNames)
  let result = ''
  let next = 0
  let count = 0
  for (const found of matchesOf(matcher, input, global, sticky)) {
    const spans = spansOf(parts, found, matcher.groups, input.length)
    let length = found.index - next
    for (const span of spans) length += typeof span === 'string' ? span.length : span[1] - span[0]
    budget.add(length)
    result += input.slice(next, found.index)
    for (const span of spans) result += typeof span === 'string' ? span : input.slice(span[0], span[1])
    next = found.end
    count++
  }
  budget.add(input.length - next)
  result += input.slice(next)
  return { result, count }
}
