/** Bech32 and bech32m (BIP-173, BIP-350): a human-readable part, data words and a checksum; SegWit addresses read as such. */

import type { Bech32 } from '@scure/base'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { showCharacterAt } from '../../lib/text/charsets.ts'
import { BECH32_CHARSET, type Encoding, trimmedSpan, valuesOf } from './alphabets.ts'
import { scure } from './scure.ts'

/** BIP-173's bound on a whole bech32 string, which its checksum is designed for. */
export const BECH32_MAX_LENGTH = 90
export const BECH32 = new Set<Encoding>(['bech32', 'bech32m'])
const SEGWIT_HRPS = new Set(['bc', 'tb', 'bcrt'])

// Bech32 (BIP-173) and bech32m (BIP-350).
const BECH32_VALUES = valuesOf(BECH32_CHARSET, true)
const BECH32_CHECKSUM_LENGTH = 6

interface Bech32Answer {
  bytes: Uint8Array
  hrp: string
  words: number[]
  segwit?: { version: number; program: string }
}

/** The 5-bit groups as bytes, big-endian; bits left over at the end (fewer than eight) are dropped, as `words` keeps them. */
function wordsToBytes(words: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(Math.floor((words.length * 5) / 8))
  let accumulator = 0
  let bits = 0
  let j = 0
  for (const word of words) {
    accumulator = ((accumulator << 5) | word) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes[j++] = (accumulator >> bits) & 0xff
    }
  }
  return bytes
}

export async function encodeBech32(bytes: Uint8Array, encoding: 'bech32' | 'bech32m', hrp: string): Promise<string> {
  const room = BECH32_MAX_LENGTH - hrp.length - 1 - BECH32_CHECKSUM_LENGTH
  const maxBytes = Math.floor((room * 5) / 8)
  if (bytes.length > maxBytes) {
    throw limitExceeded(
      `${encoding} text is at most ${BECH32_MAX_LENGTH} characters (BIP-173), so with a ${hrp.length}-character HRP it holds at most ${maxBytes} bytes; the input has ${bytes.length}`,
      { limit: BECH32_MAX_LENGTH, maxBytes, length: bytes.length },
    )
  }
  const coder = (await scure())[encoding]
  return coder.encode(hrp.toLowerCase(), coder.toWords(bytes), BECH32_MAX_LENGTH)
}

export async function decodeBech32(input: string, encoding: 'bech32' | 'bech32m', expectedHrp: string | undefined): Promise<Bech32Answer> {
  const { start, end } = trimmedSpan(input)
  const length = end - start
  if (length > BECH32_MAX_LENGTH) {
    throw limitExceeded(`${encoding} text is at most ${BECH32_MAX_LENGTH} characters (BIP-173); this has ${length}`, { limit: BECH32_MAX_LENGTH, length })
  }
  const separator = input.lastIndexOf('1', end - 1)
  if (separator < start) throw invalidInput(`${encoding} text has no separator '1' between its human-readable part and its data`, { position: start })
  if (separator === start) throw invalidInput(`the human-readable part (HRP) is empty: the text starts with its separator '1'`, { position: start })
  for (let i = start; i < separator; i++) {
    const code = input.charCodeAt(i)
    if (code < 33 || code > 126) {
      throw invalidInput(`${showCharacterAt(input, i)} at position ${i} is out of range for the human-readable part, which takes US-ASCII 33–126`, {
        position: i,
      })
    }
  }
  for (let i = separator + 1; i < end; i++) {
    const code = input.charCodeAt(i)
    if (code >= 128 || BECH32_VALUES[code] < 0) {
      throw invalidInput(`${showCharacterAt(input, i)} at position ${i} is not a bech32 character; the data part takes ${BECH32_CHARSET} (either case)`, {
        position: i,
      })
    }
  }
  let firstCased = -1
  for (let i = start; i < end; i++) {
    const char = input[i]
    if (char.toLowerCase() === char.toUpperCase()) continue
    if (firstCased < 0) firstCased = i
    else if ((char === char.toUpperCase()) !== (input[firstCased] === input[firstCased].toUpperCase())) {
      throw invalidInput(
        `${encoding} text is all lower case or all upper case; '${char}' at position ${i} breaks the case of '${input[firstCased]}' before it`,
        {
          position: i,
        },
      )
    }
  }
  if (end - separator - 1 < BECH32_CHECKSUM_LENGTH) {
    throw invalidInput(
      `the checksum is too short: ${encoding} text ends with 6 checksum characters after the separator '1', and this has ${end - separator - 1}`,
      {
        position: separator + 1,
      },
    )
  }
  const text = input.slice(start, end).toLowerCase()
  const library = await scure()
  const decoded = library[encoding].decodeUnsafe(text, BECH32_MAX_LENGTH)
  if (!decoded) {
    const other = encoding === 'bech32' ? 'bech32m' : 'bech32'
    if (library[other].decodeUnsafe(text, BECH32_MAX_LENGTH)) {
      throw invalidInput(`${encoding} checksum mismatch, but the ${other} checksum holds: this is ${other} text (BIP-350), so ask for encoding ${other}`, {
        checksum: 'mismatch',
        encoding: other,
      })
    }
    throw invalidInput(
      `${encoding} checksum mismatch: the text was mistyped or altered (the checksum covers the lower-case human-readable part and the data)`,
      {
        checksum: 'mismatch',
      },
    )
  }
  const hrp = decoded.prefix
  if (expectedHrp !== undefined && hrp !== expectedHrp.toLowerCase()) {
    throw invalidInput(`the human-readable part is '${hrp}', not the expected '${expectedHrp.toLowerCase()}'`, { position: start, hrp })
  }
  const words = [...decoded.words]
  const segwit = segwitProgram(hrp, words, encoding, library.bech32)
  return segwit
    ? { bytes: segwit.program, hrp, words, segwit: { version: segwit.version, program: Buffer.from(segwit.program).toString('hex') } }
    : { bytes: wordsToBytes(words), hrp, words }
}

/** A SegWit address's witness version and program (BIP-173, BIP-350), when the text is one. */
function segwitProgram(
  hrp: string,
  words: readonly number[],
  encoding: 'bech32' | 'bech32m',
  coder: Pick<Bech32, 'fromWordsUnsafe'>,
): { version: number; program: Uint8Array } | undefined {
  if (!SEGWIT_HRPS.has(hrp) || words.length === 0) return undefined
  const version = words[0]
  // Version 0 is written in bech32, versions 1 to 16 in bech32m.
  if (version > 16 || (version === 0) !== (encoding === 'bech32')) return undefined
  const program = coder.fromWordsUnsafe(words.slice(1))
  if (!program || program.length < 2 || program.length > 40) return undefined
  if (version === 0 && program.length !== 20 && program.length !== 32) return undefined
  return { version, program }
}
