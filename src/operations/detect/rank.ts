import type { Recogniser, Suggestion } from '../../core/recognise.ts'

export interface Candidate<Type extends string = string> {
  type: Type
  label: string
  confidence: number
  details: Record<string, unknown>
  next: Suggestion | null
}

/**
 * The candidates for one text, best first, before `limit` and `minConfidence`: every recogniser of
 * `types` (all by default) applied to the trimmed text. `recognisers` are in precedence order: a tie
 * in confidence goes to the one listed first.
 */
export async function rankedCandidates<Type extends string>(
  recognisers: readonly Recogniser<Type>[],
  raw: string,
  types?: readonly string[],
): Promise<Candidate<Type>[]> {
  const text = raw.trim()
  if (text === '') return []
  const wanted = types === undefined ? undefined : new Set(types)
  const candidates: Candidate<Type>[] = []
  for (const recogniser of recognisers) {
    if (wanted !== undefined && !wanted.has(recogniser.type)) continue
    const found = await recogniser.recognise(text)
    if (found === undefined) continue
    const { type, label } = recogniser
    candidates.push({ type, label, confidence: found.confidence, details: found.details ?? {}, next: found.next ?? null })
  }
  // A structure proven over the whole text (a UUID's hyphens make it valid Base64url) outranks any reading of it as an encoding.
  const encodings = new Set(recognisers.filter((recogniser) => recogniser.encoding).map((recogniser) => recogniser.type))
  const structured = candidates.some((candidate) => !encodings.has(candidate.type) && candidate.confidence >= 90)
  const kept = structured ? candidates.filter((candidate) => !encodings.has(candidate.type)) : candidates
  // A stable sort keeps the precedence order among equal confidences.
  return kept.sort((a, b) => b.confidence - a.confidence)
}
