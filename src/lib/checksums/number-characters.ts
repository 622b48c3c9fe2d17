/**
 * Each character of a number as written, from `from`, with its position, past the separators people
 * write and paste in: spaces, hyphens, tabs and line breaks (a line read from a file ends in one).
 */
export function* numberCharacters(input: string, from: number): Generator<[char: string, position: number]> {
  for (let i = from; i < input.length; i++) {
    const char = input[i]
    if (char !== ' ' && char !== '-' && char !== '\t' && char !== '\n' && char !== '\r') yield [char, i]
  }
}
