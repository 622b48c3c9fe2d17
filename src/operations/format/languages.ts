// The languages format takes, and how a refusal of their nesting is worded.
import { type DevutilsError, limitExceeded } from '../../core/errors.ts'
import { MAX_NESTING_DEPTH } from '../../core/limits.ts'
import { lineAndColumn } from '../../lib/json/value.ts'

export const LANGUAGES = ['javascript', 'typescript', 'json', 'css', 'scss', 'less', 'html', 'markdown', 'yaml', 'graphql', 'sql', 'xml'] as const
export type Language = (typeof LANGUAGES)[number]

/** How each language is named in messages. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  json: 'JSON',
  css: 'CSS',
  scss: 'SCSS',
  less: 'Less',
  html: 'HTML',
  markdown: 'Markdown',
  yaml: 'YAML',
  graphql: 'GraphQL',
  sql: 'SQL',
  xml: 'XML',
}

export interface Scan {
  /** The deepest nesting seen. */
  depth: number
  /** About the longest text beautifying could write: each place a line may break, indented as deep as it lies. */
  predictedLength: number
}

export function tooDeep(input: string, language: Language, position: number, what: string): DevutilsError {
  const { line, column } = lineAndColumn(input, position)
  return limitExceeded(
    `The ${LANGUAGE_NAMES[language]} nests ${what} deeper than ${MAX_NESTING_DEPTH} levels (at line ${line}, column ${column}); flatten it or format it in parts`,
    { field: 'input', position, line, column, limit: MAX_NESTING_DEPTH },
  )
}
