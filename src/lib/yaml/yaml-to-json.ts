import { Composer, LineCounter, Parser, YAMLError, type Node as YamlNode } from 'yaml'
import { invalidInput, isDevutilsError, limitExceeded } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { WarningList } from '../json/value.ts'
import { checkedTokens } from './checked-tokens.ts'
import { JsonBuilder } from './json-builder.ts'
import { placeOf } from './place.ts'
import { NOT_IN_SUBSET, readYamlSubset } from './yaml-subset.ts'

/**
 * Inputs above this many characters (JSON values: string lengths plus a few per node) run on a
 * worker thread. yaml is slow per byte, so the line falls low; below it a thread hop would cost more
 * than it saves (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const YAML_OFFLOAD_THRESHOLD = 1024

/** Any error yaml throws (it throws plain ReferenceErrors too) becomes a 422, never a 500. */
function asInputError(error: unknown, lines: LineCounter): never {
  if (isDevutilsError(error)) throw error
  if (error instanceof YAMLError) {
    const place = placeOf(lines, error.pos[0])
    throw invalidInput(`The YAML is not valid at line ${place.line}, column ${place.column}: ${firstLine(error.message)}`, { ...place, reason: error.code })
  }
  if (error instanceof RangeError) throw limitExceeded('The YAML is too complex to read', {})
  throw invalidInput(`The YAML could not be read: ${firstLine(error instanceof Error ? error.message : String(error))}`, {})
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
}

/** The spec-complete path: the `yaml` library's parser and composer, then JsonBuilder. */
export function yamlToJsonByLibrary(text: string, multiDocument: boolean) {
  const lines = new LineCounter()
  const warnings = new WarningList()
  const composer = new Composer({
    schema: 'core',
    version: '1.2',
    merge: true,
    intAsBigInt: true,
    resolveKnownTags: false,
    // Checked below with a Set per mapping: yaml's own check is quadratic in the number of keys.
    uniqueKeys: false,
    logLevel: 'silent',
  })
  const values: unknown[] = []
  try {
    const builder = new JsonBuilder(lines, warnings)
    let size = 2
    for (const doc of composer.compose(checkedTokens(new Parser(lines.addNewLine).parse(text), lines))) {
      const [error] = doc.errors
      if (error) asInputError(error, lines)
      for (const warning of doc.warnings) {
        const place = placeOf(lines, warning.pos[0])
        warnings.add(
          `line ${place.line}, column ${place.column}: ${firstLine(warning.message)}${warning.code === 'TAG_RESOLVE_FAILED' ? '; the tag was ignored and the plain value kept' : ''}`,
        )
      }
      const converted = builder.convert(doc.contents as YamlNode | null)
      size += converted.size + 1
      assertOutputWithinLimit(size)
      values.push(converted.value)
    }
    // Errors outside any document (stray tokens after the last one) stay with the composer.
    const [streamError] = composer.streamInfo().errors
    if (streamError) asInputError(streamError, lines)
  } catch (error) {
    asInputError(error, lines)
  }
  if (values.length > 1 && !multiDocument) {
    throw invalidInput(`The input holds ${values.length} YAML documents; set multiDocument to true to get them all as an array`, { documents: values.length })
  }
  const result = multiDocument ? values : (values[0] ?? null)
  return { result, action: 'yamlToJson' as const, documents: values.length, warnings: warnings.list() }
}

/**
 * The common subset of YAML (see yaml-subset.ts) is read straight into JSON values, about ten
 * times faster than the library; any other text, and every error, takes the library's path.
 */
export function yamlToJson(text: string, multiDocument: boolean) {
  const value = readYamlSubset(text)
  if (value === NOT_IN_SUBSET) return yamlToJsonByLibrary(text, multiDocument)
  return { result: multiDocument ? [value] : value, action: 'yamlToJson' as const, documents: 1, warnings: [] as string[] }
}
