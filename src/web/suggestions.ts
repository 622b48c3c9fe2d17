import type { FieldSchema } from './catalogue-types.ts'
import { h } from './dom.ts'

/** The values of each kind of suggestion a field's schema may ask for. */
const VALUES: Record<NonNullable<FieldSchema['x-suggestions']>, () => string[]> = {
  // The zones this browser knows, UTC first: the default, and the one most often wanted back.
  timeZones: () => ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')],
}

/**
 * The id of the <datalist> of the suggestions `schema` asks for, if any: one list of each kind,
 * built when a field first asks for it and kept in the body, which every page shares.
 */
export function suggestionsFor(schema: FieldSchema): string | undefined {
  const kind = schema['x-suggestions']
  if (kind === undefined || !(kind in VALUES)) return undefined
  const id = `suggestions-${kind}`
  if (!document.getElementById(id)) document.body.append(h('datalist', { id }, ...VALUES[kind]().map((value) => h('option', { value }))))
  return id
}
