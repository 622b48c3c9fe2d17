/**
 * Plain words for the names the API keeps, where people read them (the web app's forms): a field's
 * label, and the labels of its choices. `inputEncoding` is "Input encoding", `timestampToDate`
 * "Timestamp to date", `yamlToJson` "YAML → JSON". An operation's `labels` gives the words where
 * this rule reads wrong.
 */

/** Words written in capitals: formats, protocols and abbreviations. */
const CAPITALS = 'aad ascii bban bic ca cidr crc csv dns gfm html http iv json kdf std3 toml url xml yaml'.split(' ')

/** Words written otherwise than in lower case. */
const WRITTEN_AS: Record<string, string> = {
  ...Object.fromEntries(CAPITALS.map((word) => [word, word.toUpperCase()])),
  markdown: 'Markdown',
  punycode: 'Punycode',
  unicode: 'Unicode',
}

/** Formats, whose names a "to" between them turns into an arrow: `yamlToJson` is "YAML → JSON". */
const FORMATS = new Set(['csv', 'html', 'json', 'markdown', 'toml', 'xml', 'yaml'])

/**
 * A name of more than one word, in camelCase or kebab-case. A bare word (`hex`, `decode`) or a
 * technical name (`aes-256-gcm`, `EdDSA`) is shown as it is.
 */
function isCompound(name: string): boolean {
  return /^[a-z][a-z0-9]*[A-Z]/.test(name) || /^[a-z]+(?:-[a-z]+)+$/.test(name)
}

/** The name as a phrase in lower case but for the words written otherwise: `useStd3AsciiRules` is "use STD3 ASCII rules". */
function phraseOf(name: string): string {
  const words = (name.match(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g) ?? [name]).map((word) => word.toLowerCase())
  const written = words.map((word, index) => {
    if (word === 'to' && FORMATS.has(words[index - 1]) && FORMATS.has(words[index + 1])) return '→'
    return WRITTEN_AS[word] ?? word
  })
  return written.join(' ').replace(/\bnon /g, 'non-')
}

/** The text with its first letter in capitals: a phrase as a sentence or a heading begins. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** A field's label: `override`, else its name in words, in sentence case. */
export function fieldLabel(name: string, override?: string): string {
  return override ?? capitalised(phraseOf(name))
}

/**
 * The labels of a field's choices that differ from the values, by value as text. A choice list of
 * bare lower-case words keeps its phrases in lower case too ("sort", "symmetric difference"); one of
 * compound names alone reads in sentence case ("Timestamp to date", "Date to timestamp").
 */
export function choiceLabels(values: ReadonlyArray<string | number | boolean>, overrides: Record<string, string> = {}): Record<string, string> {
  const lowerCaseList = values.some((value) => typeof value === 'string' && /^[a-z]/.test(value) && !isCompound(value))
  const labels: Record<string, string> = {}
  for (const value of values) {
    const text = String(value)
    const label = overrides[text] ?? choiceLabel(text, lowerCaseList)
    if (label !== text) labels[text] = label
  }
  return labels
}

function choiceLabel(value: string, lowerCase: boolean): string {
  if (value === '\t') return 'tab'
  if (value === '') return '(empty)'
  if (!isCompound(value)) return value
  const phrase = phraseOf(value)
  return lowerCase ? phrase : capitalised(phrase)
}
