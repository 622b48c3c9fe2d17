// The shape of the catalogue the build writes for the web app (shared by the build and the page).

/** The subset of JSON Schema that operation fields use, as the form reads it. */
export interface FieldSchema {
  type?: string
  enum?: Array<string | number | boolean>
  const?: string | number | boolean
  anyOf?: FieldSchema[]
  default?: unknown
  description?: string
  minimum?: number
  maximum?: number
  multipleOf?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  writeOnly?: boolean
  examples?: unknown[]
  items?: FieldSchema
  /** Values the form suggests as the field is typed: `timeZones`, the IANA time zones the browser knows. */
  'x-suggestions'?: 'timeZones'
}

/** An output field's schema as the answer's views read it. */
export interface OutputField {
  description?: string
  /** `date-time` (an instant), `color` (a CSS colour). */
  format?: string
  contentMediaType?: string
  items?: OutputField
  /** How to say a record's dates against now, by key: `{ exp: { past: 'expired', future: 'expires' } }`. */
  relative?: Record<string, { past: string; future: string }>
  /** A record's values. */
  values?: OutputField
  properties?: Record<string, OutputField>
  /** The schema names no type: any JSON value. */
  anyJson?: boolean
  /** A list whose items are spans of a request field's text: `text` names that field, `start` and `end` the items' positions in it. */
  spans?: { text: string; start: string; end: string }
  /** The answer's fields that write this value in the time zone asked: `value` in the zone named by `zone`. */
  zoned?: { value: string; zone: string }
}

export interface WebExample {
  summary: string
  input: Record<string, unknown>
  /** Whether the example documents its output (generators' random outputs are not). */
  fixedOutput: boolean
}

export interface WebOperation {
  name: string
  /** A human title ("Base64", "Unix timestamp"). */
  title: string
  /** The words users say for it, which the search ranks by as MCP's discovery does. */
  aliases: string[]
  category: string
  summary: string
  description: string
  /** The input's fields in the schema's order. */
  fields: WebField[]
  /** The top-level fields of `data`: their descriptions, and what the views read of their schemas. */
  outputFields: Record<string, OutputField>
  examples: WebExample[]
  deliberatelySlow: boolean
  /** Whether the page runs it itself, its input never sent (and so offline too). */
  runsInBrowser: boolean
  /** The boolean field of `data` that says whether a check held. */
  verdictField?: string
  /** For an operation with an `action` field: each action's fields, and those it requires beyond the schema's `required` (a list: one of them). */
  actions?: Record<string, WebAction>
}

export interface WebField {
  name: string
  /** What the form calls it ("Input encoding"). */
  label: string
  required: boolean
  schema: FieldSchema
  /** The words shown for its choices where they differ from the values, by value as text ("YAML → JSON" for `yamlToJson`). */
  choiceLabels?: Record<string, string>
}

export interface WebAction {
  fields: string[]
  requires: Array<string | string[]>
  /** The action takes a file's bytes, as base64, for its input. */
  readsFile: boolean
}

export interface WebCatalogue {
  version: string
  categories: string[]
  operations: WebOperation[]
  pipeline: { maxSteps: number; summary: string; description: string }
}
