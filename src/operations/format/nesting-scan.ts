// Nesting is scanned in one pass before any engine parses: the engines all recurse into nested
// structures, and a deep enough input exhausts the stack.
import { BRACKET_SYNTAX, scanBrackets } from './bracket-scan.ts'
import { scanMarkdown, scanYaml } from './indent-scan.ts'
import type { Language, Scan } from './languages.ts'
import { scanHtmlNesting, scanXml } from './markup-scan.ts'

/** Refuses nesting past the limit before an engine recurses into it, and predicts the beautified length. */
export function scanNesting(input: string, language: Language, indentWidth: number, dialect = 'sql'): Scan {
  const brackets = BRACKET_SYNTAX[language]
  if (brackets) return scanBrackets(input, language, brackets, indentWidth, dialect)
  if (language === 'xml') return scanXml(input, indentWidth)
  if (language === 'html') return scanHtmlNesting(input, indentWidth)
  if (language === 'markdown') return scanMarkdown(input, indentWidth)
  if (language === 'yaml') return scanYaml(input, indentWidth)
  // JSON: the json operation's own reader counts its nesting.
  return { depth: 0, predictedLength: 0 }
}
