import { capitalised } from '../core/labels.ts'
import type { WebField } from './catalogue-types.ts'

/**
 * The names of the API in an operation's texts (its description, its fields' help) as its page
 * shows them: each field by its label, and each choice whose label differs from it by that label
 * (`yamlToJson` is "YAML → JSON").
 */
export function plainNames(fields: readonly WebField[]): Map<string, string> {
  const names = new Map<string, string>()
  for (const field of fields) {
    names.set(field.name, field.label)
    for (const [value, label] of Object.entries(field.choiceLabels ?? {})) names.set(value, label)
  }
  return names
}

/** A category of the catalogue as a heading says it ("encoders" is "Encoders"). */
export function categoryTitle(category: string): string {
  return capitalised(category)
}
