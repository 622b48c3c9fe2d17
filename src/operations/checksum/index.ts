import { Type } from 'typebox'
import { DevutilsError, limitExceeded, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { inputEncodingField, textToBytes } from '../../lib/bytes/encodings.ts'
import { loadHashWasm } from '../../lib/crypto/hash-wasm.ts'
import { editDistance } from '../../lib/text/edit-distance.ts'
import { type CrcModel, type CrcParameters, crc, crcCatalogue, crcCheck, crcResidue } from './crc.ts'

export const OTHER_CHECKSUMS = [
  'adler32',
  'fletcher16',
  'fletcher32',
  'fletcher64',
  'internet',
  'xor8',
  'sum8',
  'xxh32',
  'xxh64',
  'xxh3-64',
  'xxh3-128',
] as const
type OtherChecksum = (typeof OTHER_CHECKSUMS)[number]

const OTHER_BITS: Record<OtherChecksum, number> = {
  adler32: 32,
  fletcher16: 16,
  fletcher32: 32,
  fletcher64: 64,
  internet: 16,
  xor8: 8,
  sum8: 8,
  xxh32: 32,
  xxh64: 64,
  'xxh3-64': 64,
  'xxh3-128': 128,
}

/** Other spellings of the non-CRC names, as libraries and tools write them. */
const OTHER_SPELLINGS: Record<string, OtherChecksum> = {
  XXHASH32: 'xxh32',
  XXHASH64: 'xxh64',
  XXH3: 'xxh3-64',
  XXHASH3: 'xxh3-64',
  XXH128: 'xxh3-128',
  XXHASH128: 'xxh3-128',
  RFC1071: 'internet',
}

const CHECKSUM_ENCODINGS = ['hex', 'decimal', 'base64'] as const
type ChecksumEncoding = (typeof CHECKSUM_ENCODINGS)[number]

/** The CRC's other common models for the names that many people use for something else. */
const AMBIGUOUS: Record<string, string[]> = {
  CRC8: ['CRC-8/MAXIM-DOW', 'CRC-8/I-432-1', 'CRC-8/SAE-J1850', 'CRC-8/AUTOSAR'],
  CRC16: ['CRC-16/MODBUS', 'CRC-16/IBM-3740', 'CRC-16/XMODEM', 'CRC-16/KERMIT', 'CRC-16/IBM-SDLC'],
  CRCCCITT: ['CRC-16/IBM-3740', 'CRC-16/XMODEM', 'CRC-16/SPI-FUJITSU', 'CRC-16/IBM-SDLC'],
  CRC16CCITT: ['CRC-16/IBM-3740', 'CRC-16/XMODEM', 'CRC-16/SPI-FUJITSU', 'CRC-16/IBM-SDLC'],
  CRC64: ['CRC-64/XZ', 'CRC-64/GO-ISO'],
}

/** Letter case, hyphens, underscores, spaces and slashes do not tell names apart. */
export const normaliseName = (name: string) => name.toUpperCase().replace(/[-_\s/]/g, '')

type Algorithm = { kind: 'crc'; model: CrcModel } | { kind: 'other'; name: OtherChecksum }

let nameIndex: Map<string, Algorithm> | undefined

/** Every accepted name (normalised) and what it names: the catalogue's names and aliases, then the others. */
export function algorithmNames(): Map<string, Algorithm> {
  if (nameIndex !== undefined) return nameIndex
  const index = new Map<string, Algorithm>()
  for (const model of crcCatalogue()) for (const name of [model.name, ...model.aliases]) index.set(normaliseName(name), { kind: 'crc', model })
  for (const name of OTHER_CHECKSUMS) index.set(normaliseName(name), { kind: 'other', name })
  for (const [spelling, name] of Object.entries(OTHER_SPELLINGS)) index.set(spelling, { kind: 'other', name })
  nameIndex = index
  return index
}

const canonicalName = (algorithm: Algorithm) => (algorithm.kind === 'crc' ? algorithm.model.name : algorithm.name)

function unknownAlgorithm(spelling: string): DevutilsError {
  const wanted = normaliseName(spelling).slice(0, 64)
  const ranked = [...algorithmNames()]
    .map(([name, algorithm]) => ({ name: canonicalName(algorithm), distance: editDistance(wanted, name) }))
    .sort((a, b) => a.distance - b.distance)
  const close = [...new Set(ranked.filter(({ distance }) => distance <= Math.max(2, wanted.length / 3)).map(({ name }) => name))].slice(0, 6)
  const hint =
    close.length > 0
      ? `close names: ${close.join(', ')}`
      : 'names are those of the reveng CRC catalogue (CRC-32, CRC-16/MODBUS…) or adler32, fletcher16/32/64, internet, xor8, sum8, xxh32, xxh64, xxh3-64, xxh3-128'
  const message = `is not a known checksum; ${hint}; "all" answers every one`
  return new DevutilsError('VALIDATION_ERROR', `algorithm ${message}`, [{ field: 'algorithm', message }])
}

// Checksums with modular sums: each reduces only as often as the sum could pass 2^53.

function adler32(bytes: Uint8Array): bigint {
  let a = 1
  let b = 0
  for (let start = 0; start < bytes.length; start += 4096) {
    const end = Math.min(start + 4096, bytes.length)
    for (let i = start; i < end; i++) {
      a += bytes[i]
      b += a
    }
    a %= 65521
    b %= 65521
  }
  return BigInt(b * 65536 + a)
}

/** Fletcher's checksum over little-endian words of `wordBytes`, the last one padded with zero bytes. */
function fletcher(bytes: Uint8Array, wordBytes: number): bigint {
  const modulus = 2 ** (8 * wordBytes) - 1
  let low = 0
  let high = 0
  for (let i = 0; i < bytes.length; i += wordBytes) {
    let word = 0
    for (let k = wordBytes - 1; k >= 0; k--) word = word * 256 + (i + k < bytes.length ? bytes[i + k] : 0)
    low = (low + word) % modulus
    high = (high + low) % modulus
  }
  return (BigInt(high) << BigInt(8 * wordBytes)) | BigInt(low)
}

/** RFC 1071: the one's complement of the one's complement sum of big-endian 16-bit words. */
function internetChecksum(bytes: Uint8Array): bigint {
  let sum = 0
  for (let i = 0; i < bytes.length; i += 2) sum += bytes[i] * 256 + (i + 1 < bytes.length ? bytes[i + 1] : 0)
  while (sum > 0xffff) sum = (sum % 0x10000) + Math.floor(sum / 0x10000)
  return BigInt(~sum & 0xffff)
}

async function otherChecksum(name: OtherChecksum, bytes: Uint8Array, seed: bigint): Promise<bigint> {
  const seedLow = Number(seed & 0xffffffffn)
  const seedHigh = Number(seed >> 32n)
  switch (name) {
    case 'adler32':
      return adler32(bytes)
    case 'fletcher16':
      return fletcher(bytes, 1)
    case 'fletcher32':
      return fletcher(bytes, 2)
    case 'fletcher64':
      return fletcher(bytes, 4)
    case 'internet':
      return internetChecksum(bytes)
    case 'xor8':
      return BigInt(bytes.reduce((value, byte) => value ^ byte, 0))
    case 'sum8':
      return BigInt(bytes.reduce((value, byte) => (value + byte) & 0xff, 0))
    case 'xxh32':
      return BigInt(`0x${await (await loadHashWasm()).xxhash32(bytes, seedLow)}`)
    case 'xxh64':
      return BigInt(`0x${await (await loadHashWasm()).xxhash64(bytes, seedLow, seedHigh)}`)
    case 'xxh3-64':
      return BigInt(`0x${await (await loadHashWasm()).xxhash3(bytes, seedLow, seedHigh)}`)
    case 'xxh3-128':
      return BigInt(`0x${await (await loadHashWasm()).xxhash128(bytes, seedLow, seedHigh)}`)
  }
}

function writeValue(value: bigint, bits: number, encoding: ChecksumEncoding, uppercase: boolean): string {
  if (encoding === 'decimal') return value.toString(10)
  const hex = value.toString(16).padStart(Math.ceil(bits / 4), '0')
  if (encoding === 'hex') return uppercase ? hex.toUpperCase() : hex
  return Buffer.from(hex.padStart(Math.ceil(bits / 8) * 2, '0'), 'hex').toString('base64')
}

/**
 * The numbers `expected` may stand for: `0x…` is hex whatever the encoding; otherwise it is read in
 * `encoding`, and digits alone given with hex are also read as decimal (users paste either).
 */
function expectedValues(expected: string, encoding: ChecksumEncoding): bigint[] {
  const text = expected.replace(/\s+/g, '')
  if (/^0x[0-9a-f]+$/i.test(text)) return [BigInt(text)]
  if (encoding === 'hex' && /^[0-9a-f]+$/i.test(text)) return /^[0-9]+$/.test(text) ? [BigInt(`0x${text}`), BigInt(text)] : [BigInt(`0x${text}`)]
  if (encoding === 'decimal' && /^[0-9]+$/.test(text)) return [BigInt(text)]
  if (encoding === 'base64' && /^[A-Za-z0-9+/\-_]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text, 'base64')
    if (bytes.length > 0) return [BigInt(`0x${bytes.toString('hex')}`)]
  }
  throw validationError('expected', `is not a number written in ${encoding} (or as 0x followed by hex digits)`)
}

const HEX_NUMBER = '^(?:0[xX])?[0-9a-fA-F]{1,16}$'

function readParameters(given: { width: number; poly: string; init?: string; refin: boolean; refout: boolean; xorout?: string }): CrcParameters {
  const read = (field: 'poly' | 'init' | 'xorout', text: string | undefined) => {
    const value = BigInt(`0x${(text ?? '0').replace(/^0x/i, '')}`)
    if (value >> BigInt(given.width) !== 0n) throw validationError(`crc.${field}`, `has more bits than width (${given.width})`)
    return value
  }
  return {
    width: given.width,
    poly: read('poly', given.poly),
    init: read('init', given.init),
    refin: given.refin,
    refout: given.refout,
    xorout: read('xorout', given.xorout),
  }
}

const sameParameters = (a: CrcParameters, b: CrcParameters) =>
  a.width === b.width && a.poly === b.poly && a.init === b.init && a.refin === b.refin && a.refout === b.refout && a.xorout === b.xorout

function describeParameters(model: CrcParameters & { check: bigint; residue: bigint }) {
  const hex = (value: bigint) => `0x${value.toString(16).padStart(Math.ceil(model.width / 4), '0')}`
  return {
    width: model.width,
    poly: hex(model.poly),
    init: hex(model.init),
    refin: model.refin,
    refout: model.refout,
    xorout: hex(model.xorout),
    check: hex(model.check),
    residue: hex(model.residue),
  }
}

/** Inputs above this run on a worker: a CRC of the widest models takes tens of milliseconds per MiB. */
const OFFLOAD_CHARACTERS = 64 * 1024
/** With `all`, every algorithm reads the input: a smaller one is worth a worker. */
const OFFLOAD_ALL_CHARACTERS = 4 * 1024
/**
 * With `all`, every one of the algorithms reads the whole input: a sample of a few packets is enough
 * to tell them apart, and this bound keeps the call well inside its time budget on a busy machine.
 */
export const ALL_MAX_BYTES = 64 * 1024
const MAX_SEED = 2n ** 64n - 1n

const hexParameter = (description: string) => Type.String({ pattern: HEX_NUMBER, description })

export const checksum = defineOperation({
  name: 'checksum',
  category: 'generators',
  runsInBrowser: true,
  summary: 'Compute or identify a CRC (every model of the reveng catalogue), Adler-32, Fletcher, Internet checksum or xxHash',
  title: 'Checksum (CRC, Adler-32, Fletcher, xxHash)',
  aliases: [
    'crc',
    'crc8',
    'crc-8',
    'crc16',
    'crc-16',
    'crc32',
    'crc-32',
    'crc32c',
    'crc64',
    'crc-64',
    'crc-ccitt',
    'ccitt',
    'modbus',
    'xmodem',
    'kermit',
    'castagnoli',
    'reveng',
    'cyclic redundancy check',
    'adler32',
    'adler-32',
    'fletcher',
    'fletcher16',
    'fletcher32',
    'internet checksum',
    'rfc 1071',
    'ip checksum',
    'xor checksum',
    'xxhash',
    'xxh3',
    'xxh64',
    'identify crc',
    'which crc',
    'check value',
  ],
  description:
    'Computes a non-cryptographic checksum of `input` (UTF-8 text by default, or bytes given as hex, base64 or Latin-1). ' +
    '`algorithm` is any name or alias of the reveng "Catalogue of parametrised CRC algorithms" (all its models, CRC-3/GSM to CRC-82/DARC), in any letter case and with hyphens, slashes and spaces optional: CRC-32 is CRC-32/ISO-HDLC, CRC-32C is CRC-32/ISCSI, CRC-16 is CRC-16/ARC, CRC-16/CCITT-FALSE is CRC-16/IBM-3740, CRC-CCITT is CRC-16/KERMIT, CRC-8 is CRC-8/SMBUS and CRC-64 is CRC-64/ECMA-182, as the catalogue says; since many people mean another model by CRC-8, CRC-16, CRC-CCITT or CRC-64, `warnings` then lists the other common models with their values for this input. ' +
    'Other names: adler32 (RFC 1950), fletcher16, fletcher32 and fletcher64 (over bytes, and little-endian 16- and 32-bit words padded with zeros), internet (RFC 1071, big-endian 16-bit words), xor8, sum8 (the sum of the bytes modulo 256), and xxh32, xxh64, xxh3-64 and xxh3-128 (xxHash, with `seed`). ' +
    'Instead of a name, `crc` gives a CRC by its Rocksoft parameters (width up to 64; CRC-82/DARC only by name); the answer then names the catalogue model with those parameters, or "custom". ' +
    'CRC answers carry `params`, the model with its `check` (the CRC of "123456789", to compare with a datasheet) and `residue`. ' +
    'The value is written as hex (zero-padded to the width, big-endian, lower case unless `uppercase`), decimal, or base64 of its big-endian bytes. ' +
    'With `expected`, `matches` tells whether it is the value, compared as numbers: 0x29B1, 29b1 and 10673 all match CRC-16/IBM-3740 of "123456789" (digits alone are read as hex and as decimal, unless `encoding` is decimal). ' +
    '`algorithm: "all"` answers `results`, every algorithm\'s value by name; with `expected`, `matching` lists the names that give it: which CRC is this? It reads at most 65,536 bytes of input (a longer one is a 422 LIMIT_EXCEEDED): a short sample tells the algorithms apart. ' +
    'An unknown name is a 400 that lists close names. None of these checksums resists tampering: use `hash` or `hmac` for that.',
  input: Type.Object(
    {
      input: Type.String({ description: 'The text (or encoded bytes, see `inputEncoding`) to check. May be empty.', examples: ['123456789'] }),
      inputEncoding: inputEncodingField(),
      algorithm: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description:
            'A reveng catalogue CRC name or alias (CRC-32, CRC-32C, CRC-16/MODBUS, CRC-16/CCITT-FALSE, CRC-64/XZ…; any letter case, hyphens optional), or adler32, fletcher16, fletcher32, fletcher64, internet, xor8, sum8, xxh32, xxh64, xxh3-64, xxh3-128, or all. Required unless `crc` is given.',
          examples: ['CRC-32', 'CRC-16/MODBUS', 'adler32', 'all'],
        }),
      ),
      crc: Type.Optional(
        Type.Object(
          {
            width: Type.Integer({ minimum: 1, maximum: 64, description: 'The number of bits of the CRC.' }),
            poly: hexParameter('The generator polynomial in hex, without its top bit (0x1021 for CRC-16/XMODEM), "0x" optional.'),
            init: withDefault(hexParameter('The register before the first byte, in hex.'), '0'),
            refin: Type.Boolean({ description: 'Whether each input byte is read lowest bit first.' }),
            refout: Type.Boolean({ description: 'Whether the register is reflected before xorout.' }),
            xorout: withDefault(hexParameter('What the register is XORed with at the end, in hex.'), '0'),
          },
          { additionalProperties: false, description: 'A CRC by its Rocksoft parameters, instead of `algorithm`.' },
        ),
      ),
      seed: withDefault(
        Type.String({
          pattern: '^(?:[0-9]{1,20}|0[xX][0-9a-fA-F]{1,16})$',
          description: 'The xxHash seed, as a decimal number or 0x followed by hex digits: 0 to 2^64−1 (0 to 2^32−1 for xxh32). Only with xxHash or all.',
        }),
        '0',
      ),
      encoding: withDefault(
        Type.Enum(CHECKSUM_ENCODINGS, { description: 'How the value is written: hex (zero-padded to the width), decimal, or base64 of its big-endian bytes.' }),
        'hex',
      ),
      uppercase: withDefault(Type.Boolean({ description: 'Write hex digits in upper case. Only with `encoding` hex.' }), false),
      expected: Type.Optional(
        Type.String({
          maxLength: 256,
          description: 'A value to compare with, as a number: in `encoding`, or 0x followed by hex digits. `matches` (or, with all, `matching`) answers.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Optional(Type.String({ description: 'The checksum, written in `encoding`. Absent with all.' })),
    algorithm: Type.String({
      description:
        'The canonical name: the catalogue\'s name of the CRC ("custom" for parameters of no catalogued model), the lower-case name of another checksum, or all.',
    }),
    encoding: Type.Enum(CHECKSUM_ENCODINGS, { description: 'How the values are written.' }),
    bits: Type.Optional(Type.Integer({ description: 'The size of the checksum in bits. Absent with all.' })),
    params: Type.Optional(
      Type.Object(
        {
          width: Type.Integer({ description: 'The number of bits.' }),
          poly: Type.String({ description: 'The generator polynomial, in hex.' }),
          init: Type.String({ description: 'The initial register, in hex.' }),
          refin: Type.Boolean({ description: 'Whether input bytes are reflected.' }),
          refout: Type.Boolean({ description: 'Whether the register is reflected at the end.' }),
          xorout: Type.String({ description: 'The final XOR, in hex.' }),
          check: Type.String({ description: 'The CRC of the ASCII bytes "123456789", in hex.' }),
          residue: Type.String({ description: 'The register after an error-free codeword, before xorout, in hex.' }),
        },
        { description: "For a CRC: its parameters in the catalogue's notation." },
      ),
    ),
    results: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'With all: every algorithm by its canonical name, with its value.' })),
    matches: Type.Optional(Type.Boolean({ description: 'Present only when `expected` was given (not with all): whether it is the value.' })),
    matching: Type.Optional(Type.Array(Type.String(), { description: 'With all and `expected`: the names whose value it is.' })),
    warnings: Type.Optional(
      Type.Array(Type.String(), { description: 'For a name that people often use for another model: the other common models and their values.' }),
    ),
  }),
  examples: [
    {
      summary: 'CRC-32 (zip, PNG, Ethernet) of the catalogue check string',
      input: { input: '123456789', algorithm: 'CRC-32' },
      output: {
        result: 'cbf43926',
        algorithm: 'CRC-32/ISO-HDLC',
        encoding: 'hex',
        bits: 32,
        params: {
          width: 32,
          poly: '0x04c11db7',
          init: '0xffffffff',
          refin: true,
          refout: true,
          xorout: '0xffffffff',
          check: '0xcbf43926',
          residue: '0xdebb20e3',
        },
      },
    },
    {
      summary: 'Verify a CRC-16/CCITT-FALSE written as 0x…',
      input: { input: '123456789', algorithm: 'crc-16/ccitt-false', expected: '0x29B1' },
      output: {
        result: '29b1',
        algorithm: 'CRC-16/IBM-3740',
        encoding: 'hex',
        bits: 16,
        params: { width: 16, poly: '0x1021', init: '0xffff', refin: false, refout: false, xorout: '0x0000', check: '0x29b1', residue: '0x0000' },
        matches: true,
      },
    },
    {
      summary: 'A CRC by its parameters, which turn out to be a catalogued model',
      input: { input: '123456789', crc: { width: 16, poly: '8005', init: 'ffff', refin: true, refout: true } },
      output: {
        result: '4b37',
        algorithm: 'CRC-16/MODBUS',
        encoding: 'hex',
        bits: 16,
        params: { width: 16, poly: '0x8005', init: '0xffff', refin: true, refout: true, xorout: '0x0000', check: '0x4b37', residue: '0x0000' },
      },
    },
    {
      summary: 'Adler-32 in decimal',
      input: { input: 'Wikipedia', algorithm: 'adler32', encoding: 'decimal' },
      output: { result: '300286872', algorithm: 'adler32', encoding: 'decimal', bits: 32 },
    },
  ],
  verdict: { field: 'matches', failure: 'the checksum does not match --expected' },
  offload: ({ input, algorithm }) =>
    input.length > (algorithm !== undefined && normaliseName(algorithm) === 'ALL' ? OFFLOAD_ALL_CHARACTERS : OFFLOAD_CHARACTERS),
  async run({ input, inputEncoding, algorithm: spelling, crc: given, seed: seedText, encoding, uppercase, expected }) {
    if (uppercase && encoding !== 'hex') throw validationError('uppercase', `applies only to encoding hex, not ${encoding}`)
    if (spelling !== undefined && given !== undefined) throw validationError('crc', 'cannot be given with algorithm: give one or the other')
    if (spelling === undefined && given === undefined) throw validationError('algorithm', 'is required unless crc is given')
    const seed = BigInt(seedText)
    if (seed > MAX_SEED) throw validationError('seed', 'must be at most 2^64−1')
    const all = spelling !== undefined && normaliseName(spelling) === 'ALL'
    const chosen: Algorithm | undefined = all || spelling === undefined ? undefined : algorithmNames().get(normaliseName(spelling))
    if (spelling !== undefined && !all && chosen === undefined) throw unknownAlgorithm(spelling)
    const seeded = all || (chosen?.kind === 'other' && chosen.name.startsWith('xxh'))
    if (seed !== 0n && !seeded) throw validationError('seed', 'applies only to xxHash (xxh32, xxh64, xxh3-64, xxh3-128) or all')
    if (seed > 0xffffffffn && (all || (chosen?.kind === 'other' && chosen.name === 'xxh32')))
      throw validationError('seed', 'must be at most 2^32−1 for xxh32 (and so with all)')
    const wanted = expected === undefined ? undefined : expectedValues(expected, encoding)
    const bytes = textToBytes(input, inputEncoding)
    const write = (value: bigint, bits: number) => writeValue(value, bits, encoding, uppercase)

    if (all) {
      if (bytes.length > ALL_MAX_BYTES) {
        throw limitExceeded(
          `all reads at most ${ALL_MAX_BYTES.toLocaleString('en')} bytes of input (here ${bytes.length.toLocaleString('en')}): identify the CRC from a shorter sample, or name one algorithm`,
          {
            field: 'input',
            limit: ALL_MAX_BYTES,
            bytes: bytes.length,
          },
        )
      }
      const results: Record<string, string> = {}
      const matching: string[] = []
      const record = (name: string, value: bigint, bits: number) => {
        results[name] = write(value, bits)
        if (wanted?.includes(value)) matching.push(name)
      }
      for (const model of crcCatalogue()) record(model.name, crc(model, bytes), model.width)
      for (const name of OTHER_CHECKSUMS) record(name, await otherChecksum(name, bytes, seed), OTHER_BITS[name])
      return wanted === undefined ? { algorithm: 'all', encoding, results } : { algorithm: 'all', encoding, results, matching }
    }

    let answer: { result: string; algorithm: string; encoding: ChecksumEncoding; bits: number; params?: ReturnType<typeof describeParameters> }
    let value: bigint
    const warnings: string[] = []
    if (chosen?.kind === 'other') {
      value = await otherChecksum(chosen.name, bytes, seed)
      answer = { result: write(value, OTHER_BITS[chosen.name]), algorithm: chosen.name, encoding, bits: OTHER_BITS[chosen.name] }
    } else {
      const model: CrcParameters = chosen?.kind === 'crc' ? chosen.model : readParameters(given as NonNullable<typeof given>)
      const catalogued = chosen?.kind === 'crc' ? chosen.model : crcCatalogue().find((entry) => sameParameters(entry, model))
      value = crc(model, bytes)
      const described = catalogued ?? { ...model, check: crcCheck(model), residue: crcResidue(model) }
      answer = {
        result: write(value, model.width),
        algorithm: catalogued?.name ?? 'custom',
        encoding,
        bits: model.width,
        params: describeParameters(described),
      }
      const others = spelling === undefined ? undefined : AMBIGUOUS[normaliseName(spelling)]
      if (others !== undefined && catalogued !== undefined) {
        const values = others.map((name) => {
          const other = crcCatalogue().find((entry) => entry.name === name) as CrcModel
          return `${name} ${write(crc(other, bytes), other.width)}`
        })
        warnings.push(
          `${spelling} is ${catalogued.name} in the reveng catalogue, but the name is also used for other models; for this input: ${values.join(', ')}`,
        )
      }
    }
    return {
      ...answer,
      ...(wanted === undefined ? {} : { matches: wanted.includes(value) }),
      ...(warnings.length > 0 ? { warnings } : {}),
    }
  },
})
