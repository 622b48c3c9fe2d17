/**
 * Whether a text typed into an operation that works both ways (encode and decode, one form and
 * back) is plainly on the other side already: Base64 pasted into base64's encoder, a Unix timestamp
 * into timestamp's date reader. Read by the operation's own recognisers, those detect runs; pure
 * and free of Node's modules, so that the web app's bundle uses it as it is.
 */

import type { Recogniser } from './recognise.ts'

/** The lowest confidence detect's table calls plausible: below it a reading is an ambiguous encoding, or weak. */
const PLAUSIBLE = 70

/** An offer is for a value typed or pasted: a longer text, a file's, is not read a second time. */
const MAX_LENGTH = 65_536

/** The action a text asks for instead of the chosen one: what it was recognised as, and the fields to send. */
export interface OtherAction {
  /** The recogniser's label: "Base64", "Unix timestamp". */
  label: string
  /** The fields the recogniser suggests sending, `action` among them. */
  fields: Record<string, unknown>
}

/**
 * The action of `operation` other than `chosen` that `text` plainly asks for, if any: one of the
 * recognisers reads it plausibly and suggests that action, and none suggests the chosen one (the
 * text then reads both ways, and the choice stands). The surest reading wins; a tie goes to the
 * recogniser listed first. Nothing is offered while no action is chosen.
 */
export async function otherAction(
  recognisers: readonly Recogniser[],
  operation: string,
  chosen: string | undefined,
  text: string,
): Promise<OtherAction | undefined> {
  const trimmed = text.trim()
  if (chosen === undefined || trimmed === '' || trimmed.length > MAX_LENGTH) return undefined
  let best: (OtherAction & { confidence: number }) | undefined
  for (const recogniser of recognisers) {
    const reading = await recogniser.recognise(trimmed)
    const next = reading?.next
    if (!reading || !next || next.operation !== operation || reading.confidence < PLAUSIBLE) continue
    if (recogniser.encoding && !hasEncodingMarks(trimmed)) continue
    if (next.fields.action === chosen) return undefined
    if (next.fields.action !== undefined && (best === undefined || reading.confidence > best.confidence)) {
      best = { label: recogniser.label, fields: next.fields, confidence: reading.confidence }
    }
  }
  return best && { label: best.label, fields: best.fields }
}

/**
 * Bytes written in an alphabet (Base64) fit many words and names too ("bindings", "endsWith"): such a
 * reading needs the marks of an encoding as well, padding at the end, or capitals, small letters and
 * digits all in it, which a word or an identifier seldom has and Base64 of a sentence nearly always.
 */
function hasEncodingMarks(text: string): boolean {
  return text.endsWith('=') || (/[A-Z]/.test(text) && /[a-z]/.test(text) && /[0-9]/.test(text))
}
