import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { assertOutputWithinLimit } from '../../core/limits.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { utf8Length } from '../../lib/text/utf8-length.ts'

/**
 * Inputs longer than this run on a worker thread: each character becomes several symbols and
 * separators, which past this length holds the event loop for tens of milliseconds
 * (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_LENGTH = 32 * 1024

/** The International Morse code (ITU-R M.1677-1), with the customary codes for ! & ; _ $ that it lacks. */
export const MORSE_CODE: Readonly<Record<string, string>> = {
  A: '.-',
  B: '-...',
  C: '-.-.',
  D: '-..',
  E: '.',
  F: '..-.',
  G: '--.',
  H: '....',
  I: '..',
  J: '.---',
  K: '-.-',
  L: '.-..',
  M: '--',
  N: '-.',
  O: '---',
  P: '.--.',
  Q: '--.-',
  R: '.-.',
  S: '...',
  T: '-',
  U: '..-',
  V: '...-',
  W: '.--',
  X: '-..-',
  Y: '-.--',
  Z: '--..',
  '0': '-----',
  '1': '.----',
  '2': '..---',
  '3': '...--',
  '4': '....-',
  '5': '.....',
  '6': '-....',
  '7': '--...',
  '8': '---..',
  '9': '----.',
  '.': '.-.-.-',
  ',': '--..--',
  '?': '..--..',
  "'": '.----.',
  '!': '-.-.--',
  '/': '-..-.',
  '(': '-.--.',
  ')': '-.--.-',
  '&': '.-...',
  ':': '---...',
  ';': '-.-.-.',
  '=': '-...-',
  '+': '.-.-.',
  '-': '-....-',
  _: '..--.-',
  '"': '.-..-.',
  $: '...-..-',
  '@': '.--.-.',
}

const CODE_OF = new Map<string, string>()
const CHARACTER_OF = new Map<string, string>()
for (const [character, code] of Object.entries(MORSE_CODE)) {
  CODE_OF.set(character, code)
  CODE_OF.set(character.toLowerCase(), code)
  CHARACTER_OF.set(code, character)
}

const BUILT_IN_DOTS = new Set(['.', '\u00b7', '\u2022'])
const BUILT_IN_DASHES = new Set(['-', '_', '\u2212', '\u2013'])
const BUILT_IN_WORD_BREAKS = new Set(['/', '|', '\n', '\r'])
const WHITESPACE = /\s/

export interface Symbols {
  dot: string
  dash: string
  letterSeparator: string
  wordSeparator: string
}

/** The rules between the four symbols that keep Morse text readable back (400 when broken). */
function assertReadableSymbols({ dot, dash, letterSeparator, wordSeparator }: Symbols): void {
  if (dot.startsWith(dash) || dash.startsWith(dot)) {
    throw validationError('dash', 'must differ from dot, and neither may begin with the other, or dots and dashes could not be told apart')
  }
  if (letterSeparator === wordSeparator) throw validationError('wordSeparator', 'must differ from letterSeparator, or word breaks would be lost')
  for (const [field, separator] of [
    ['letterSeparator', letterSeparator],
    ['wordSeparator', wordSeparator],
  ] as const) {
    if (separator.includes(dot) || separator.includes(dash)) {
      throw validationError(
        field,
        `must not contain the dot (${JSON.stringify(dot)}) or the dash (${JSON.stringify(dash)}), or the code could not be read back`,
      )
    }
  }
}

/** An error lists at most this many distinct values, each with at most this many positions. */
const MAX_LISTED = 100

/**
 * Characters (encode) or codes (decode) outside the alphabet, with where they occur: a 422 listing
 * them with `error`, the distinct values for `data.skipped` with `skip`.
 */
export class Unknowns {
  private readonly found = new Map<string, { count: number; positions: number[] }>()

  add(value: string, position: number): void {
    const entry = this.found.get(value)
    if (entry === undefined) this.found.set(value, { count: 1, positions: [position] })
    else if (entry.count++ < MAX_LISTED) entry.positions.push(position)
  }

  /** Throws if any were found and `onUnknown` is `error`; otherwise returns the skipped values. */
  settle(onUnknown: 'error' | 'skip', what: string): string[] {
    const values = [...this.found.keys()]
    if (onUnknown === 'skip' || values.length === 0) return values
    const listed = [...this.found].slice(0, MAX_LISTED).map(([value, { count, positions }]) => ({ value, count, positions }))
    const named = listed.slice(0, 10).map(({ value, count, positions }) => {
      const where = positions.slice(0, 5).join(', ') + (count > 5 ? '…' : '')
      return `${JSON.stringify(value)} at position${count > 1 ? 's' : ''} ${where}`
    })
    throw invalidInput(
      `input has ${what} outside the Morse alphabet (ITU-R M.1677-1): ${named.join('; ')}${values.length > 10 ? '; …' : ''}; remove them or set onUnknown to skip`,
      { position: listed[0].positions[0], distinct: values.length, unknown: listed },
    )
  }
}

export function encodeMorse(text: string, symbols: Symbols, unknowns: Unknowns): string {
  const spelled = new Map<string, string>()
  const spell = (code: string) => {
    let written = spelled.get(code)
    if (written === undefined) {
      written = [...code].map((symbol) => (symbol === '.' ? symbols.dot : symbols.dash)).join('')
      spelled.set(code, written)
    }
    return written
  }
  const letterSeparatorBytes = utf8Length(symbols.letterSeparator)
  const words: string[][] = []
  let word: string[] = []
  // A bound, not the exact size: it counts one separator per letter and per word.
  let size = 0
  for (let i = 0; i < text.length; i++) {
    const character = String.fromCodePoint(text.codePointAt(i)!)
    const code = CODE_OF.get(character)
    if (code !== undefined) {
      const written = spell(code)
      word.push(written)
      size += utf8Length(written) + letterSeparatorBytes
    } else if (WHITESPACE.test(character)) {
      if (word.length > 0) words.push(word)
      word = []
    } else {
      unknowns.add(character, i)
    }
    i += character.length - 1
  }
  if (word.length > 0) words.push(word)
  assertOutputWithinLimit(size + words.length * utf8Length(symbols.wordSeparator))
  return words.map((letters) => letters.join(symbols.letterSeparator)).join(symbols.wordSeparator)
}

type Token = 'dot' | 'dash' | 'letter' | 'word'

/** Reads the Morse token at a position: its kind and length, or undefined for a character that is none. */
function tokenReader({ dot, dash, letterSeparator, wordSeparator }: Symbols): (text: string, at: number) => [Token, number] | undefined {
  // The chosen symbols come first, longest first, so they may reuse any built-in spelling.
  const chosen = (
    [
      ['word', wordSeparator],
      ['letter', letterSeparator],
      ['dot', dot],
      ['dash', dash],
    ] as Array<[Token, string]>
  ).sort((a, b) => b[1].length - a[1].length)
  return (text, at) => {
    for (const [token, written] of chosen) if (text.startsWith(written, at)) return [token, written.length]
    const character = text[at]
    if (BUILT_IN_DOTS.has(character)) return ['dot', 1]
    if (BUILT_IN_DASHES.has(character)) return ['dash', 1]
    if (BUILT_IN_WORD_BREAKS.has(character)) return ['word', 1]
    if (WHITESPACE.test(character)) return ['letter', 1]
    return undefined
  }
}

/**
 * Reads Morse text: a letter is a run of dots and dashes; the gap between two letters is a word
 * break if it holds a word separator, `/`, `|` or a line break, or two letter separators in a row
 * (two spaces), and a letter break otherwise. Gaps at either end are ignored.
 */
export function decodeMorse(text: string, symbols: Symbols, unknowns: Unknowns): string {
  const tokenAt = tokenReader(symbols)
  let result = ''
  let code = ''
  let codeStart = 0
  let codeEnd = 0
  let wordBreak = false
  let previous: Token | undefined
  const endLetter = () => {
    if (code === '') return
    const character = CHARACTER_OF.get(code)
    if (character === undefined) {
      unknowns.add(text.slice(codeStart, codeEnd), codeStart)
    } else {
      if (wordBreak && result !== '') result += ' '
      result += character
      wordBreak = false
    }
    code = ''
  }
  for (let i = 0; i < text.length; ) {
    const token = tokenAt(text, i)
    if (token === undefined) {
      const character = String.fromCodePoint(text.codePointAt(i)!)
      throw invalidInput(
        `${JSON.stringify(character)} at position ${i} is not Morse: use the dot (. · • or ${JSON.stringify(symbols.dot)}), the dash (- _ − – or ${JSON.stringify(symbols.dash)}), spaces, / or |`,
        { position: i },
      )
    }
    const [kind, length] = token
    if (kind === 'dot' || kind === 'dash') {
      if (code === '') codeStart = i
      code += kind === 'dot' ? '.' : '-'
      codeEnd = i + length
    } else {
      endLetter()
      if (kind === 'word' || previous === 'letter') wordBreak = true
    }
    previous = kind
    i += length
  }
  endLetter()
  return result
}

export const morse = defineOperation({
  name: 'morse',
  category: 'encoders',
  summary: 'Convert text to International Morse code and back',
  title: 'Morse code',
  aliases: ['morse code', 'dots and dashes', 'telegraph'],
  description:
    'Encodes text with the International Morse code of ITU-R M.1677-1 (A–Z, 0–9 and `. , ? \' / ( ) : = + - " @`), plus the customary codes for `! & ; _ $`, which the recommendation lacks. ' +
    'Letters are case-insensitive; any run of whitespace is one word break, and whitespace at either end is dropped. ' +
    'Decoding accepts `.` `·` `•` as a dot and `-` `_` `−` `–` as a dash (besides the chosen `dot` and `dash`), a single space (or `letterSeparator`) between letters, ' +
    'and `/`, `|`, a line break, two or more spaces (or `wordSeparator`) between words; it answers in upper case, words separated by one space. ' +
    'A character outside the alphabet (encode) or an unknown code (decode) is a 422 listing them (up to 100 distinct, each with its count and first 100 positions in UTF-16 code units), ' +
    'or, with `onUnknown: skip`, is left out and listed in `skipped`. When decoding, a character that is no Morse symbol at all is always a 422. ' +
    'Custom symbols are read before the built-in ones, longest first; `dot` and `dash` must differ and neither may begin with the other, and the separators must differ from each other and may not contain the dot or the dash (400 otherwise).',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text to encode, or the Morse code to decode. May be empty.', examples: ['SOS'] }),
      action: withDefault(Type.Enum(['encode', 'decode'], { description: 'Encode text as Morse code, or decode Morse code to text.' }), 'encode'),
      dot: withDefault(
        Type.String({ minLength: 1, maxLength: 8, description: 'How a dot (dit) is written; 1 to 8 characters. Decoding also accepts `.` `·` `•`.' }),
        '.',
      ),
      dash: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 8,
          description: 'How a dash (dah) is written; 1 to 8 characters, different from `dot`. Decoding also accepts `-` `_` `−` `–`.',
        }),
        '-',
      ),
      letterSeparator: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 16,
          description: 'What separates the letters of a word; 1 to 16 characters. Decoding also accepts a single space.',
        }),
        ' ',
      ),
      wordSeparator: withDefault(
        Type.String({
          minLength: 1,
          maxLength: 16,
          description: 'What separates words; 1 to 16 characters. Decoding also accepts `/`, `|`, a line break and two or more spaces.',
        }),
        ' / ',
      ),
      onUnknown: withDefault(
        Type.Enum(['error', 'skip'], {
          description:
            'What to do with a character outside the alphabet (encode) or an unknown code (decode): `error` refuses the input (422) listing each with its positions; `skip` leaves them out and lists them in `skipped`.',
        }),
        'error',
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'The Morse code (encode) or the upper-case text (decode).' }),
    action: Type.Enum(['encode', 'decode'], { description: 'The action performed.' }),
    skipped: Type.Array(Type.String(), {
      description:
        'The distinct characters (encode) or codes as written (decode) left out under `onUnknown: skip`, in order of first appearance; empty otherwise.',
    }),
  }),
  actions: {
    encode: { fields: ['input', 'dot', 'dash', 'letterSeparator', 'wordSeparator', 'onUnknown'] },
    decode: { fields: ['input', 'dot', 'dash', 'letterSeparator', 'wordSeparator', 'onUnknown'] },
  },
  examples: [
    { summary: 'Encode SOS', input: { input: 'SOS' }, output: { result: '... --- ...', action: 'encode', skipped: [] } },
    {
      summary: 'Decode two words',
      input: { input: '.... . .-.. .-.. --- / .-- --- .-. .-.. -..', action: 'decode' },
      output: { result: 'HELLO WORLD', action: 'decode', skipped: [] },
    },
    {
      summary: 'Custom symbols and separators',
      input: { input: 'Hi all', dot: 'dit', dash: 'dah', letterSeparator: ' ', wordSeparator: ' | ' },
      output: { result: 'ditditditdit ditdit | ditdah ditdahditdit ditdahditdit', action: 'encode', skipped: [] },
    },
    {
      summary: 'Skip characters outside the alphabet',
      input: { input: 'C# 4€', onUnknown: 'skip' },
      output: { result: '-.-. / ....-', action: 'encode', skipped: ['#', '€'] },
    },
  ],
  offload: ({ input }) => input.length > OFFLOAD_LENGTH,
  runsInBrowser: true,
  run({ input, action, dot, dash, letterSeparator, wordSeparator, onUnknown }) {
    const symbols = { dot, dash, letterSeparator, wordSeparator }
    assertReadableSymbols(symbols)
    const unknowns = new Unknowns()
    const result = action === 'encode' ? encodeMorse(input, symbols, unknowns) : decodeMorse(input, symbols, unknowns)
    return { result, action, skipped: unknowns.settle(onUnknown, action === 'encode' ? 'characters' : 'codes') }
  },
})
