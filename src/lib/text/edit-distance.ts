/**
 * Levenshtein's edit distance, for text-distance and for finding the name nearest to a mistyped
 * one. Pure and free of Node's modules, so that the web app's bundle uses it as it is.
 */

/** Levenshtein distance (insertions, deletions, substitutions) between two sequences of unit numbers, one row of the table at a time. */
export function levenshtein(a: Int32Array, b: Int32Array): number {
  if (a.length < b.length) [a, b] = [b, a]
  const row = new Int32Array(b.length + 1)
  for (let j = 0; j <= b.length; j++) row[j] = j
  for (let i = 1; i <= a.length; i++) {
    const symbol = a[i - 1]
    let diagonal = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]
      const substitution = diagonal + (symbol === b[j - 1] ? 0 : 1)
      const indel = Math.min(above, row[j - 1]) + 1
      row[j] = Math.min(substitution, indel)
      diagonal = above
    }
  }
  return row[b.length]
}

/** Levenshtein distance between two strings, counted in UTF-16 code units. */
export function editDistance(a: string, b: string): number {
  return levenshtein(codeUnitsOf(a), codeUnitsOf(b))
}

function codeUnitsOf(text: string): Int32Array {
  const units = new Int32Array(text.length)
  for (let index = 0; index < text.length; index++) units[index] = text.charCodeAt(index)
  return units
}
