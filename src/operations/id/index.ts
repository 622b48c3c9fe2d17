import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { bigIntOfBytes } from '../../lib/bytes/hex.ts'
import { randomBelow, randomOctets } from '../../lib/random/random.ts'
import { DIGITS, distinctCharacters, LOWERCASE, randomText, showCharacterAt, UPPERCASE } from '../../lib/text/charsets.ts'

const KINDS = ['ulid', 'nanoid', 'objectid', 'ksuid'] as const
type Kind = (typeof KINDS)[number]

/** Crockford's base32 alphabet, as the ULID specification writes it (upper case; no I, L, O, U). */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** KSUID's base62 alphabet: digits, then upper case, then lower case, so that text sorts as the bytes do. */
const BASE62 = DIGITS + UPPERCASE + LOWERCASE
const NANOID_ALPHABET = `${UPPERCASE}${LOWERCASE}${DIGITS}_-`
const NANOID_SIZE = 21

/**
 * Past this many characters in all (count × size) identifiers are made on a worker thread: each
 * nanoid character is drawn by rejection sampling on its own, and a thousand of the longest hold the
 * event loop for tens of milliseconds (docs/PERFORMANCE.md, "Offload thresholds and cost bounds").
 */
export const OFFLOAD_CHARACTERS = 64 * 1024

const ULID_RANDOM_BITS = 80n
const ULID_RANDOM_LIMIT = 1n << ULID_RANDOM_BITS
const ULID_LENGTH = 26
/** KSUID time counts seconds from 2014-05-13T16:53:20Z, not from 1970. */
const KSUID_EPOCH_SECONDS = 1_400_000_000
const KSUID_LENGTH = 27
const KSUID_BYTES = 20
const OBJECTID_LENGTH = 24

/** Writes `value` as exactly `length` symbols of `alphabet` (most significant first, zero-padded). */
function encodeFixed(value: bigint, alphabet: string, length: number): string {
  const base = BigInt(alphabet.length)
  const symbols = new Array<string>(length)
  let rest = value
  for (let i = length - 1; i >= 0; i--) {
    symbols[i] = alphabet[Number(rest % base)]
    rest /= base
  }
  return symbols.join('')
}

/** A ULID from its 48-bit millisecond time and 80-bit randomness (ULID specification, "Encoding"). */
export function encodeUlid(time: number, random: bigint): string {
  return encodeFixed((BigInt(time) << ULID_RANDOM_BITS) | random, CROCKFORD, ULID_LENGTH)
}

/**
 * ULIDs of one call, monotonic as the specification's "Monotonicity" section says: within the same
 * millisecond (or if the clock steps back) the randomness of the previous one plus one. In the
 * (2^-70-likely) case that the randomness would overflow, the next millisecond is used instead.
 */
function ulids(count: number): string[] {
  const values: string[] = []
  let time = -1
  let random = 0n
  for (let i = 0; i < count; i++) {
    const now = Date.now()
    if (now > time || random + 1n === ULID_RANDOM_LIMIT) {
      time = Math.max(now, time + 1)
      random = bigIntOfBytes(randomOctets(10))
    } else {
      random += 1n
    }
    values.push(encodeUlid(time, random))
  }
  return values
}

/**
 * MongoDB's ObjectId layout: a 4-byte big-endian Unix time in seconds, a 5-byte random value drawn
 * once per process, and a 3-byte counter that starts at a random value and counts up per ObjectId.
 */
const OBJECTID_PROCESS_VALUE = randomOctets(5)
let objectIdCounter = randomBelow(0x100_0000)

function objectIds(count: number): string[] {
  return Array.from({ length: count }, () => {
    const bytes = Buffer.alloc(12)
    bytes.writeUInt32BE(Math.floor(Date.now() / 1000) >>> 0, 0)
    bytes.set(OBJECTID_PROCESS_VALUE, 4)
    objectIdCounter = (objectIdCounter + 1) % 0x100_0000
    bytes.writeUIntBE(objectIdCounter, 9, 3)
    return bytes.toString('hex')
  })
}

/** KSUIDs: a 4-byte big-endian time in seconds since the KSUID epoch and 16 random bytes, as 27 base62 digits. */
function ksuids(count: number): string[] {
  return Array.from({ length: count }, () => {
    const bytes = Buffer.alloc(KSUID_BYTES)
    bytes.writeUInt32BE(Math.floor(Date.now() / 1000) - KSUID_EPOCH_SECONDS, 0)
    bytes.set(randomOctets(16), 4)
    return encodeFixed(bigIntOfBytes(bytes), BASE62, KSUID_LENGTH)
  })
}

function nanoids(count: number, size: number, alphabet: readonly string[]): string[] {
  return Array.from({ length: count }, () => randomText(alphabet, size))
}

// ---- Inspecting ----

interface Inspection {
  kind: Exclude<Kind, 'nanoid'>
  unixMs: number
  payload: string
  counter?: number
}

const CROCKFORD_VALUES = new Map([...CROCKFORD].flatMap((symbol, value) => [[symbol, value] as const, [symbol.toLowerCase(), value] as const]))
const BASE62_VALUES = new Map([...BASE62].map((symbol, value) => [symbol, value] as const))
const HEX_VALUES = new Map([...'0123456789abcdefABCDEF'].map((symbol) => [symbol, Number.parseInt(symbol, 16)] as const))

/** Reads `text` as digits of a base, refusing the first symbol not in it with its position. */
function decodeDigits(text: string, values: ReadonlyMap<string, number>, base: number, what: string): bigint {
  let value = 0n
  for (let i = 0; i < text.length; i++) {
    const digit = values.get(text[i])
    if (digit === undefined) throw invalidInput(`${showCharacterAt(text, i)} at position ${i} is not a ${what} character`, { position: i })
    value = value * BigInt(base) + BigInt(digit)
  }
  return value
}

function inspectUlid(text: string): Inspection {
  const value = decodeDigits(text, CROCKFORD_VALUES, 32, 'ULID (Crockford base32: 0–9 and A–Z without I, L, O, U)')
  if (value >> 128n !== 0n) {
    throw invalidInput(`A ULID is at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ: '${text[0]}' at position 0 would overflow its 128 bits`, { position: 0 })
  }
  return { kind: 'ulid', unixMs: Number(value >> ULID_RANDOM_BITS), payload: (value & (ULID_RANDOM_LIMIT - 1n)).toString(16).padStart(20, '0') }
}

function inspectObjectId(text: string): Inspection {
  decodeDigits(text, HEX_VALUES, 16, 'hex (ObjectId)')
  const bytes = Buffer.from(text, 'hex')
  return { kind: 'objectid', unixMs: bytes.readUInt32BE(0) * 1000, payload: bytes.subarray(4).toString('hex'), counter: bytes.readUIntBE(9, 3) }
}

function inspectKsuid(text: string): Inspection {
  const value = decodeDigits(text, BASE62_VALUES, 62, 'KSUID (base62: 0–9, A–Z, a–z)')
  if (value >> 160n !== 0n) throw invalidInput('A KSUID is at most aWgEPTl1tmebfsQzFP4bxwgy80V: this value would overflow its 160 bits', { position: 0 })
  const hex = value.toString(16).padStart(40, '0')
  return { kind: 'ksuid', unixMs: (Number.parseInt(hex.slice(0, 8), 16) + KSUID_EPOCH_SECONDS) * 1000, payload: hex.slice(8) }
}

/** Tells the kind from the length, which differs for each: 26 (ULID), 24 (ObjectId), 27 (KSUID). */
export function inspectId(text: string): Inspection {
  switch (text.length) {
    case ULID_LENGTH:
      return inspectUlid(text)
    case OBJECTID_LENGTH:
      return inspectObjectId(text)
    case KSUID_LENGTH:
      return inspectKsuid(text)
    default:
      throw invalidInput(
        `input has ${text.length} characters; a ULID has 26 (Crockford base32), an ObjectId 24 (hex) and a KSUID 27 (base62). Nanoids carry no time to inspect.`,
        { length: text.length },
      )
  }
}

export const id = defineOperation({
  name: 'id',
  category: 'generators',
  runsInBrowser: true,
  summary: 'Generate ULIDs, nanoids, MongoDB ObjectIds or KSUIDs, or read the time inside one',
  title: 'ULID, nanoid, ObjectId, KSUID',
  aliases: ['ulid', 'nanoid', 'objectid', 'mongodb id', 'ksuid', 'unique id', 'sortable id'],
  description:
    "Generates identifiers from the operating system's CSPRNG. `ulid` (the default): 26 characters of Crockford base32, a 48-bit Unix time in milliseconds then 80 random bits; " +
    'the ULIDs of one call are strictly increasing (within a millisecond the randomness of the previous one plus one, as the ULID specification says). ' +
    '`nanoid`: `size` characters (21 by default) drawn uniformly, by rejection sampling, from `alphabet` (A–Z a–z 0–9 _ - by default). ' +
    "`objectid`: MongoDB's 12 bytes in hex, a 4-byte Unix time in seconds, a 5-byte random value fixed for this process and a 3-byte counter that starts at random. " +
    '`ksuid`: 27 base62 characters for 20 bytes, a 4-byte time in seconds since 2014-05-13T16:53:20Z then 16 random bytes. ' +
    "`action: inspect` reads an `input` of any of the three timed kinds (told apart by length: 26, 24 and 27 characters; ULIDs in any letter case) and answers its kind, its time as ISO 8601 (`result`), `unixMs`, the rest of it as hex (`payload`) and an ObjectId's `counter`; `kind` is not used there.",
  input: Type.Object(
    {
      action: withDefault(Type.Enum(['generate', 'inspect'], { description: 'Generate new identifiers, or inspect the one in `input`.' }), 'generate'),
      kind: withDefault(Type.Enum(KINDS, { description: 'What to generate: `ulid`, `nanoid`, `objectid` (MongoDB) or `ksuid` (Segment).' }), 'ulid'),
      count: withDefault(Type.Integer({ minimum: 1, maximum: 1000, description: 'How many identifiers to generate, 1 to 1000.' }), 1),
      size: Type.Optional(
        Type.Integer({
          minimum: 2,
          maximum: 256,
          description: `nanoid only (refused with other kinds): characters per nanoid, 2 to 256; ${NANOID_SIZE} by default.`,
        }),
      ),
      alphabet: Type.Optional(
        Type.String({
          minLength: 2,
          maxLength: 256,
          description:
            'nanoid only (refused with other kinds): the characters to draw from, 2 to 256 distinct code points, each equally likely; A–Z a–z 0–9 _ - by default.',
          examples: ['0123456789abcdef'],
        }),
      ),
      input: Type.Optional(
        Type.String({
          maxLength: 64,
          description: 'inspect only (required there): a ULID, an ObjectId or a KSUID.',
          examples: ['01ARYZ6S41TSV4RRFFQ69G5FAV'],
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({ description: 'generate: the first identifier. inspect: the embedded time, ISO 8601 in UTC.' }),
    results: Type.Optional(Type.Array(Type.String(), { description: 'generate: all the identifiers, `count` of them; ULIDs in strictly increasing order.' })),
    action: Type.Enum(['generate', 'inspect'], { description: 'The action performed.' }),
    kind: Type.Enum(KINDS, { description: 'The kind generated, or the kind recognised by inspect.' }),
    unixMs: Type.Optional(Type.Integer({ description: 'inspect: the embedded time in Unix milliseconds (whole seconds for ObjectIds and KSUIDs).' })),
    payload: Type.Optional(
      Type.String({
        description:
          "inspect: what follows the time, as lower-case hex: a ULID's 80 random bits, an ObjectId's 8 bytes (random value and counter), a KSUID's 16 random bytes.",
      }),
    ),
    counter: Type.Optional(Type.Integer({ description: "inspect: an ObjectId's 3-byte counter." })),
  }),
  actions: {
    generate: { fields: ['kind', 'count', 'size', 'alphabet'] },
    inspect: { fields: ['input'], requires: ['input'] },
  },
  examples: [
    { summary: 'A ULID', input: {} },
    { summary: 'Three nanoids of 12 hex digits', input: { kind: 'nanoid', size: 12, alphabet: '0123456789abcdef', count: 3 } },
    { summary: 'Five MongoDB ObjectIds', input: { kind: 'objectid', count: 5 } },
    {
      summary: 'The time in a ULID (the ULID specification example)',
      input: { action: 'inspect', input: '01ARYZ6S41TSV4RRFFQ69G5FAV' },
      output: { result: '2016-07-30T22:36:16.385Z', action: 'inspect', kind: 'ulid', unixMs: 1469918176385, payload: 'd6764c61efb99302bd5b' },
    },
    {
      summary: 'The time in a MongoDB ObjectId',
      input: { action: 'inspect', input: '507f1f77bcf86cd799439011' },
      output: { result: '2012-10-17T21:13:27.000Z', action: 'inspect', kind: 'objectid', unixMs: 1350508407000, payload: 'bcf86cd799439011', counter: 4427793 },
    },
    {
      summary: 'The time in a KSUID (the KSUID README example)',
      input: { action: 'inspect', input: '0ujtsYcgvSTl8PAuAdqWYSMnLOv' },
      output: { result: '2017-10-10T04:00:47.000Z', action: 'inspect', kind: 'ksuid', unixMs: 1507608047000, payload: 'b5a1cd34b5f99d1154fb6853345c9735' },
    },
  ],
  offload: ({ count, size }) => count * (size ?? NANOID_SIZE) > OFFLOAD_CHARACTERS,
  allowGet: true,
  run({ action, kind, count, size, alphabet, input }) {
    if (kind !== 'nanoid' && action === 'generate') {
      if (size !== undefined) throw validationError('size', `is only used by kind nanoid, not by ${kind}`)
      if (alphabet !== undefined) throw validationError('alphabet', `is only used by kind nanoid, not by ${kind}`)
    }
    if (action === 'inspect') {
      if (input === undefined) throw validationError('input', 'is required for action inspect: a ULID, an ObjectId or a KSUID')
      const { kind: found, unixMs, payload, counter } = inspectId(input)
      const time = { result: new Date(unixMs).toISOString(), action, kind: found, unixMs, payload }
      return counter === undefined ? time : { ...time, counter }
    }
    if (input !== undefined) throw validationError('input', 'is only used by action inspect; generate makes new identifiers')
    const results = generate(kind, count, size ?? NANOID_SIZE, alphabet)
    return { result: results[0], results, action, kind }
  },
})

function generate(kind: Kind, count: number, size: number, alphabet: string | undefined): string[] {
  switch (kind) {
    case 'ulid':
      return ulids(count)
    case 'objectid':
      return objectIds(count)
    case 'ksuid':
      return ksuids(count)
    case 'nanoid':
      return nanoids(count, size, alphabet === undefined ? [...NANOID_ALPHABET] : distinctCharacters(alphabet, 'alphabet'))
  }
}
