import { CRC_CATALOGUE } from './catalogue.ts'

/** A CRC in the Rocksoft model (Ross Williams, "A Painless Guide to CRC Error Detection Algorithms"). */
export interface CrcParameters {
  width: number
  poly: bigint
  init: bigint
  refin: boolean
  refout: boolean
  xorout: bigint
}

export interface CrcModel extends CrcParameters {
  name: string
  aliases: string[]
  /** The CRC of the ASCII bytes "123456789", as the catalogue gives it. */
  check: bigint
  /** The register after an error-free codeword, before xorout, as the catalogue gives it. */
  residue: bigint
}

function readModel(line: string): CrcModel {
  const fields = new Map<string, string>()
  for (const [, key, value] of line.matchAll(/(\w+)=("[^"]*"|\S+)/g)) fields.set(key, value)
  const get = (key: string) => fields.get(key) ?? ''
  return {
    name: get('name').slice(1, -1),
    aliases: [],
    width: Number(get('width')),
    poly: BigInt(get('poly')),
    init: BigInt(get('init')),
    refin: get('refin') === 'true',
    refout: get('refout') === 'true',
    xorout: BigInt(get('xorout')),
    check: BigInt(get('check')),
    residue: BigInt(get('residue')),
  }
}

function readCatalogue(text: string): CrcModel[] {
  const models: CrcModel[] = []
  for (const line of text.split('\n')) {
    if (line.startsWith('width=')) models.push(readModel(line))
    else if (line.startsWith('Alias: ')) models[models.length - 1].aliases.push(...line.slice('Alias: '.length).split(', '))
  }
  return models
}

let catalogue: CrcModel[] | undefined

/** Every model of the catalogue, in its order (by width, then name). */
export function crcCatalogue(): CrcModel[] {
  catalogue ??= readCatalogue(CRC_CATALOGUE)
  return catalogue
}

/** The low `width` bits of `value`, in reverse order. */
export function reflect(value: bigint, width: number): bigint {
  let reflected = 0n
  for (let bit = 0; bit < width; bit++) if ((value >> BigInt(bit)) & 1n) reflected |= 1n << BigInt(width - 1 - bit)
  return reflected
}

const mask = (width: number) => (1n << BigInt(width)) - 1n

/**
 * The register (in the orientation `refin` reads bytes in) after one byte, for every byte value. A
 * reflected register holds the CRC's lowest power in its lowest bit, so bytes enter at the bottom; an
 * unreflected one is kept aligned to the top of `lanes` bits, so bytes enter at the top whatever the width.
 */
function byteTable(model: CrcParameters, lanes: number): bigint[] {
  const table: bigint[] = []
  if (model.refin) {
    const poly = reflect(model.poly, model.width)
    for (let byte = 0; byte < 256; byte++) {
      let register = BigInt(byte)
      for (let bit = 0; bit < 8; bit++) register = register & 1n ? (register >> 1n) ^ poly : register >> 1n
      table.push(register)
    }
  } else {
    const top = 1n << BigInt(lanes - 1)
    const poly = model.poly << BigInt(lanes - model.width)
    for (let byte = 0; byte < 256; byte++) {
      let register = BigInt(byte) << BigInt(lanes - 8)
      for (let bit = 0; bit < 8; bit++) register = register & top ? ((register << 1n) ^ poly) & mask(lanes) : (register << 1n) & mask(lanes)
      table.push(register)
    }
  }
  return table
}

/** A running CRC: feed it bytes, then read its value. */
export interface CrcState {
  update(bytes: Uint8Array): void
  value(): bigint
}

/**
 * The register is kept in 32-bit numbers, one for widths up to 32 and two for widths up to 64 (fast on
 * every engine), and in a BigInt above that; each engine turns it back into the Rocksoft register.
 */
interface Engine {
  start(): CrcState
}

/** Turns the register, read in `refin`'s orientation and at its own alignment, into the CRC's value. */
function finish(model: CrcParameters, register: bigint): bigint {
  const normal = model.refin ? reflect(register, model.width) : register
  return (model.refout ? reflect(normal, model.width) : normal) ^ model.xorout
}

function startRegister(model: CrcParameters, lanes: number): bigint {
  return model.refin ? reflect(model.init, model.width) : model.init << BigInt(lanes - model.width)
}

function narrowEngine(model: CrcParameters): Engine {
  const table = Uint32Array.from(byteTable(model, 32), Number)
  const shift = BigInt(model.refin ? 0 : 32 - model.width)
  const initial = Number(startRegister(model, 32))
  return {
    start() {
      let register = initial
      return {
        update(bytes) {
          if (model.refin) for (let i = 0; i < bytes.length; i++) register = table[(register ^ bytes[i]) & 0xff] ^ (register >>> 8)
          else for (let i = 0; i < bytes.length; i++) register = (table[((register >>> 24) ^ bytes[i]) & 0xff] ^ (register << 8)) >>> 0
        },
        value: () => finish(model, BigInt(register >>> 0) >> shift),
      }
    },
  }
}

function wideEngine(model: CrcParameters): Engine {
  const entries = byteTable(model, 64)
  const high = Uint32Array.from(entries, (entry) => Number(entry >> 32n))
  const low = Uint32Array.from(entries, (entry) => Number(entry & 0xffffffffn))
  const shift = BigInt(model.refin ? 0 : 64 - model.width)
  const initial = startRegister(model, 64)
  return {
    start() {
      let hi = Number(initial >> 32n)
      let lo = Number(initial & 0xffffffffn)
      return {
        update(bytes) {
          if (model.refin) {
            for (let i = 0; i < bytes.length; i++) {
              const index = (lo ^ bytes[i]) & 0xff
              lo = (((lo >>> 8) | (hi << 24)) ^ low[index]) >>> 0
              hi = ((hi >>> 8) ^ high[index]) >>> 0
            }
          } else {
            for (let i = 0; i < bytes.length; i++) {
              const index = ((hi >>> 24) ^ bytes[i]) & 0xff
              hi = (((hi << 8) | (lo >>> 24)) ^ high[index]) >>> 0
              lo = ((lo << 8) ^ low[index]) >>> 0
            }
          }
        },
        value: () => finish(model, ((BigInt(hi) << 32n) | BigInt(lo)) >> shift),
      }
    },
  }
}

function bigEngine(model: CrcParameters): Engine {
  const lanes = Math.max(model.width, 8)
  const table = byteTable(model, lanes)
  const registerMask = mask(lanes)
  const topShift = BigInt(lanes - 8)
  return {
    start() {
      let register = startRegister(model, lanes)
      return {
        update(bytes) {
          if (model.refin) for (const byte of bytes) register = table[Number((register ^ BigInt(byte)) & 0xffn)] ^ (register >> 8n)
          else for (const byte of bytes) register = table[Number(((register >> topShift) ^ BigInt(byte)) & 0xffn)] ^ ((register << 8n) & registerMask)
        },
        value: () => finish(model, register >> BigInt(model.refin ? 0 : lanes - model.width)),
      }
    },
  }
}

const engines = new Map<string, Engine>()

const engineKey = (model: CrcParameters) => `${model.width}:${model.poly}:${model.init}:${model.refin}:${model.refout}:${model.xorout}`

/** A running CRC of `model`; its tables are built once per set of parameters and kept. */
export function startCrc(model: CrcParameters): CrcState {
  const key = engineKey(model)
  let engine = engines.get(key)
  if (engine === undefined) {
    engine = model.width <= 32 ? narrowEngine(model) : model.width <= 64 ? wideEngine(model) : bigEngine(model)
    // Parameters a caller chooses are unbounded in number: the cache keeps the catalogue's and a few others.
    if (engines.size < 256) engines.set(key, engine)
  }
  return engine.start()
}

/** The CRC of `bytes` in one call. */
export function crc(model: CrcParameters, bytes: Uint8Array): bigint {
  const state = startCrc(model)
  state.update(bytes)
  return state.value()
}

/** The catalogue's check value: the CRC of the ASCII bytes "123456789". */
export const crcCheck = (model: CrcParameters) => crc(model, Buffer.from('123456789', 'latin1'))

/**
 * The catalogue's residue: the register after a message followed by its own CRC, before xorout. As
 * the catalogue defines it (and reveng's mcheck computes it): a register started at xorout, reflected
 * if refout, that reads `width` zero bits, then reflected if refin — which tells crossed-endian models
 * (refin ≠ refout) apart.
 */
export function crcResidue(model: CrcParameters): bigint {
  const top = 1n << BigInt(model.width - 1)
  let register = model.refout ? reflect(model.xorout, model.width) : model.xorout
  for (let bit = 0; bit < model.width; bit++)
    register = register & top ? ((register << 1n) ^ model.poly) & mask(model.width) : (register << 1n) & mask(model.width)
  return model.refin ? reflect(register, model.width) : register
}
