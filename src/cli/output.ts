/**
 * What `devutils <operation>` prints of a result's `data`: a generator's `results` one per line,
 * otherwise `result`, text as it is and anything else as JSON. A newline ends the output unless the
 * text ends with one already (YAML and CSV do).
 */
export function formatResult(data: Record<string, unknown>): string {
  const text = Array.isArray(data.results)
    ? data.results.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n')
    : typeof data.result === 'string'
      ? data.result
      : JSON.stringify('result' in data ? data.result : data, null, 2)
  return text.endsWith('\n') ? text : `${text}\n`
}
