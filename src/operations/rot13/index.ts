import { Type } from 'typebox'
import { defineOperation, withDefault } from '../../core/operation.ts'

/**
 * Inputs longer than this run on a worker thread: rotation is linear and quick, but a longer text
 * would hold the event loop for tens of milliseconds (docs/PERFORMANCE.md, "Offload thresholds and
 * cost bounds").
 */
export const OFFLOAD_LENGTH = 64 * 1024

type Variant = 'rot13' | 'rot5' | 'rot18' | 'rot47'

/** For each variant, each ASCII code → its rotated code; everything from U+0080 up is left alone. */
const TABLES: Record<Variant, Uint8Array> = {
  rot13: rotationTable([0x41, 26, 13], [0x61, 26, 13]),
  rot5: rotationTable([0x30, 10, 5]),
  rot18: rotationTable([0x41, 26, 13], [0x61, 26, 13], [0x30, 10, 5]),
  rot47: rotationTable([0x21, 94, 47]),
}

/** Each range is [first code, size, shift]; a shift of half the size makes the rotation its own inverse. */
function rotationTable(...ranges: Array<[first: number, size: number, shift: number]>): Uint8Array {
  const table = Uint8Array.from({ length: 128 }, (_, code) => code)
  for (const [first, size, shift] of ranges) {
    for (let k = 0; k < size; k++) table[first + k] = first + ((k + shift) % size)
  }
  return table
}

/** Code units are rotated in chunks, which keeps surrogate pairs intact and avoids a string per character. */
const CHUNK = 8192

export function rotate(text: string, variant: Variant): string {
  const table = TABLES[variant]
  const chunks: string[] = []
  const units = new Uint16Array(Math.min(CHUNK, text.length))
  for (let start = 0; start < text.length; start += CHUNK) {
    const end = Math.min(start + CHUNK, text.length)
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i)
      units[i - start] = code < 0x80 ? table[code] : code
    }
    chunks.push(String.fromCharCode(...units.subarray(0, end - start)))
  }
  return chunks.join('')
}

export const rot13 = defineOperation({
  name: 'rot13',
  category: 'encoders',
  summary: 'Apply ROT13, ROT5, ROT18 or ROT47 to text',
  title: 'ROT13',
  aliases: ['rot47', 'rot5', 'rot18', 'caesar cipher', 'caesar', 'cipher'],
  description:
    'Rotates characters within an alphabet: `rot13` shifts the letters A–Z and a–z by 13, `rot5` the digits 0–9 by 5, `rot18` does both, and `rot47` shifts the ' +
    'printable ASCII characters `!` (33) to `~` (126) by 47. Every other character, including spaces, control characters and all non-ASCII text, passes through unchanged. ' +
    'Each rotation is its own inverse, so `encode` and `decode` give the same answer; `action` is accepted for symmetry with the other encoders and echoed back.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to rotate. May be empty.', examples: ['Hello, World!'] }),
      variant: withDefault(
        Type.Enum(['rot13', 'rot5', 'rot18', 'rot47'], {
          description: '`rot13`: letters; `rot5`: digits; `rot18`: letters and digits; `rot47`: every printable ASCII character from `!` to `~`.',
        }),
        'rot13',
      ),
      action: withDefault(
        Type.Enum(['encode', 'decode'], {
          description: 'Accepted for symmetry: the rotation is its own inverse, so both give the same result. Echoed in the response.',
        }),
        'encode',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The rotated text.' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action requested (both perform the same rotation).' }),
  }),
  actions: {
    encode: { fields: ['input', 'variant'] },
    decode: { fields: ['input', 'variant'] },
  },
  examples: [
    { summary: 'ROT13', input: { input: 'Hello, World!' }, output: { result: 'Uryyb, Jbeyq!', action: 'encode' } },
    { summary: 'ROT47', input: { input: 'Hello', variant: 'rot47' }, output: { result: 'w6==@', action: 'encode' } },
    {
      summary: 'ROT18 decodes letters and digits',
      input: { input: 'Ebbz 642, Étage', variant: 'rot18', action: 'decode' },
      output: { result: 'Room 197, Égntr', action: 'decode' },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  runsInBrowser: true,
  run: ({ input, variant, action }) => ({ result: rotate(input, variant), action }),
})
