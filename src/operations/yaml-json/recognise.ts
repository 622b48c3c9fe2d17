import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { parseOrRefuse } from '../../lib/json/text-tree.ts'
import { NOT_IN_SUBSET, readYamlSubset } from '../../lib/yaml/yaml-subset.ts'
import { YAML_OFFLOAD_THRESHOLD, yamlToJson } from '../../lib/yaml/yaml-to-json.ts'

/**
 * The longest text the YAML library reads for a guess: YAML outside the fast subset reader costs the
 * library microseconds a character, so a longer text is YAML here only as far as that reader goes.
 */
const YAML_LIBRARY_CHARACTERS = 8192

/** The text read as YAML, or undefined; a long text only as far as the fast subset reader goes (see YAML_LIBRARY_CHARACTERS). */
function yamlValue(text: string): unknown {
  if (text.length > YAML_LIBRARY_CHARACTERS) {
    const value = unlessRefused(() => readYamlSubset(text))
    return value === NOT_IN_SUBSET ? undefined : value
  }
  return unlessRefused(() => yamlToJson(text, false))?.result
}

export const yaml = defineRecogniser({
  type: 'yaml',
  label: 'YAML',
  // Deeply nested YAML is the slowest input of the readers, and takes the YAML reader longer than the JSON and XML readers take theirs.
  offloadPast: YAML_OFFLOAD_THRESHOLD,
  recognise(text) {
    const flow = text[0] === '{' || text[0] === '['
    if (!flow && !/[:\n-]/.test(text)) return undefined
    // JSON is YAML too: JSON text is said to be JSON.
    if (flow && unlessRefused(() => parseOrRefuse(text, false)) !== undefined) return undefined
    const value = yamlValue(text)
    if (typeof value !== 'object' || value === null) return undefined
    const entries = Array.isArray(value) ? value.length : Object.keys(value).length
    if (entries < 2) return undefined
    return {
      confidence: 60,
      details: { kind: Array.isArray(value) ? 'sequence' : 'mapping', entries },
      next: suggest('yaml-json', { action: 'yamlToJson' }),
    }
  },
})
