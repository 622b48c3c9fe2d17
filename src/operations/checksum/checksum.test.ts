import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { runCallsInProcess } from '../../../test/in-process.ts'
import { execute } from '../../core/execute.ts'
import { CRC_CATALOGUE } from './catalogue.ts'
import { type CrcParameters, crc, crcCatalogue, crcResidue, reflect } from './crc.ts'
import { ALL_MAX_BYTES, algorithmNames, checksum, normaliseName, OTHER_CHECKSUMS } from './index.ts'

const run = (input: Record<string, unknown>) => execute(checksum, input, { timeBudgetMs: 60_000 })
const refuses = (input: Record<string, unknown>, code: string, message: RegExp, field?: string) =>
  expectRefusal(run(input), field === undefined ? { code, message } : { code, message, field })

/** The reveng catalogue as madler/crcany copies it (see its SOURCE.txt). */
const CATALOGUE_FIXTURE = readFileSync(new URL('../../../test/fixtures/suites/reveng-crc-catalogue/catalogue.txt', import.meta.url), 'utf8')

interface FixtureModel {
  line: string
  name: string
  width: number
  fields: Record<string, string>
  aliases: string[]
}

function fixtureModels(): FixtureModel[] {
  const models: FixtureModel[] = []
  for (const line of CATALOGUE_FIXTURE.trimEnd().split('\n')) {
    if (line.startsWith('Alias: ')) {
      models[models.length - 1].aliases.push(...line.slice(7).split(', '))
      continue
    }
    const fields = Object.fromEntries([...line.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map(([, key, value]) => [key, value]))
    models.push({ line, name: fields.name.slice(1, -1), width: Number(fields.width), fields, aliases: [] })
  }
  return models
}

/** Lower-case hex of a catalogue value, zero-padded as the operation writes it ("0x0376e6e7" → "0376e6e7"). */
const digits = (value: string, width: number) =>
  BigInt(value)
    .toString(16)
    .padStart(Math.ceil(width / 4), '0')

/**
 * The Rocksoft model bit by bit, straight from its definition, as an independent reference for the
 * table-driven engine: each message bit enters the top of the register, lowest bit of each byte
 * first when refin.
 */
function bitSerialCrc(model: CrcParameters, bytes: Uint8Array): bigint {
  const top = 1n << BigInt(model.width - 1)
  const mask = (1n << BigInt(model.width)) - 1n
  let register = model.init
  for (const byte of bytes) {
    for (let k = 0; k < 8; k++) {
      const bit = BigInt(model.refin ? (byte >> k) & 1 : (byte >> (7 - k)) & 1)
      const feedback = ((register & top) !== 0n ? 1n : 0n) ^ bit
      register = (register << 1n) & mask
      if (feedback) register ^= model.poly
    }
  }
  return (model.refout ? reflect(register, model.width) : register) ^ model.xorout
}

// Published values: the reveng catalogue's check values; Adler-32 and Fletcher from their
// Wikipedia articles' examples; RFC 1071's worked example; xxHash's own sanity values (seed 0).
const KNOWN_ANSWERS: Array<[algorithm: string, input: string, result: string]> = [
  ['CRC-8/SMBUS', '123456789', 'f4'],
  ['CRC-16/ARC', '123456789', 'bb3d'],
  ['CRC-16/IBM-3740', '123456789', '29b1'],
  ['CRC-16/CCITT-FALSE', '123456789', '29b1'],
  ['CRC-16/XMODEM', '123456789', '31c3'],
  ['CRC-16/KERMIT', '123456789', '2189'],
  ['CRC-16/MODBUS', '123456789', '4b37'],
  ['CRC-32/ISO-HDLC', '123456789', 'cbf43926'],
  ['CRC-32/ISCSI', '123456789', 'e3069283'],
  ['CRC-32/BZIP2', '123456789', 'fc891918'],
  ['CRC-32/MPEG-2', '123456789', '0376e6e7'],
  ['CRC-64/ECMA-182', '123456789', '6c40df5f0b497347'],
  ['CRC-64/XZ', '123456789', '995dc9bbdf1939fa'],
  ['CRC-64/GO-ISO', '123456789', 'b90956c775a41001'],
  ['CRC-64/NVME', '123456789', 'ae8b14860a799888'],
  ['CRC-64/REDIS', '123456789', 'e9c6d914c4b8d9ca'],
  ['CRC-82/DARC', '123456789', '09ea83f625023801fd612'],
  ['adler32', 'Wikipedia', '11e60398'],
  ['adler32', '123456789', '091e01de'],
  ['fletcher16', 'abcde', 'c8f0'],
  ['fletcher16', 'abcdef', '2057'],
  ['fletcher16', 'abcdefgh', '0627'],
  ['fletcher32', 'abcde', 'f04fc729'],
  ['fletcher32', 'abcdef', '56502d2a'],
  ['fletcher32', 'abcdefgh', 'ebe19591'],
  ['fletcher64', 'abcde', 'c8c6c527646362c6'],
  ['fletcher64', 'abcdef', 'c8c72b276463c8c6'],
  ['fletcher64', 'abcdefgh', '312e2b28cccac8c6'],
  ['xxh32', '', '02cc5d05'],
  ['xxh32', '123456789', '937bad67'],
  ['xxh64', '', 'ef46db3751d8e999'],
  ['xxh3-64', '', '2d06800538d394c2'],
  ['xxh3-128', '', '99aa06d3014798d86001c324468d497f'],
]

const parametersArbitrary = fc.integer({ min: 1, max: 64 }).chain((width) => {
  const value = fc.bigInt({ min: 0n, max: (1n << BigInt(width)) - 1n })
  return fc.record({ width: fc.constant(width), poly: value, init: value, refin: fc.boolean(), refout: fc.boolean(), xorout: value })
})

const hexOf = (value: bigint) => value.toString(16)

describe('checksum', () => {
  // In process: the worker pool is the surfaces' business (test/registry-wide/surfaces.test.ts), and a
  // worker started on a busy machine can take the whole time budget before it reads its first input.
  runCallsInProcess()

  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(checksum).match(/TODO[^"]*/g) ?? [], [], 'replace every TODO in src/operations/checksum/index.ts')
  })

  test('the catalogue it carries is the reveng catalogue, line for line', () => {
    assert.equal(CRC_CATALOGUE, CATALOGUE_FIXTURE.trimEnd())
    const models = fixtureModels()
    assert.equal(models.length, 113)
    assert.deepEqual(
      crcCatalogue().map((model) => model.name),
      models.map((model) => model.name),
    )
  })

  test('every model of the reveng catalogue: CRC("123456789") is its check, and its residue is the catalogue\'s', async () => {
    const models = fixtureModels()
    for (const model of models) {
      const data = await run({ input: '123456789', algorithm: model.name })
      assert.equal(data.result, digits(model.fields.check, model.width), model.name)
      assert.equal(data.algorithm, model.name)
      assert.equal(data.bits, model.width)
      const params = data.params as Record<string, unknown>
      for (const key of ['poly', 'init', 'xorout', 'check', 'residue'])
        assert.equal(BigInt(params[key] as string), BigInt(model.fields[key]), `${model.name} ${key}`)
      assert.equal(params.refin, model.fields.refin === 'true', model.name)
      assert.equal(params.refout, model.fields.refout === 'true', model.name)
      const parameters = crcCatalogue().find((entry) => entry.name === model.name) as CrcParameters
      assert.equal(crcResidue(parameters), BigInt(model.fields.residue), `${model.name} residue, computed`)
      assert.equal(bitSerialCrc(parameters, Buffer.from('123456789')), BigInt(model.fields.check), `${model.name}, bit by bit`)
    }
  })

  test('every model up to 64 bits given by its parameters gives its check and residue, and is named', async () => {
    for (const model of fixtureModels().filter(({ width }) => width <= 64)) {
      const { fields } = model
      const given = {
        width: model.width,
        poly: fields.poly,
        init: fields.init,
        refin: fields.refin === 'true',
        refout: fields.refout === 'true',
        xorout: fields.xorout,
      }
      const data = await run({ input: '123456789', crc: given })
      assert.equal(data.result, digits(fields.check, model.width), model.name)
      const params = data.params as Record<string, string>
      assert.equal(BigInt(params.residue), BigInt(fields.residue), model.name)
      assert.equal(data.algorithm, model.name)
    }
    const custom = await run({ input: '123456789', crc: { width: 16, poly: '0x1021', init: '0x1234', refin: false, refout: true } })
    assert.equal(custom.algorithm, 'custom')
    assert.equal((custom.params as Record<string, string>).check, `0x${custom.result}`)
  })

  test('every alias of the catalogue names its model, in any letter case, with or without hyphens', async () => {
    const models = fixtureModels()
    assert.equal(
      models.reduce((count, model) => count + model.aliases.length, 0),
      74,
    )
    for (const model of models) {
      for (const alias of model.aliases) {
        for (const spelling of [alias, alias.toLowerCase(), alias.replaceAll('-', '')]) {
          assert.equal((await run({ input: '123456789', algorithm: spelling })).algorithm, model.name, spelling)
        }
      }
    }
    const expected: Record<string, string> = {
      'CRC-16/CCITT-FALSE': 'CRC-16/IBM-3740',
      'CRC-32': 'CRC-32/ISO-HDLC',
      'CRC-32C': 'CRC-32/ISCSI',
      'CRC-64': 'CRC-64/ECMA-182',
      'CRC-16': 'CRC-16/ARC',
      'CRC-8': 'CRC-8/SMBUS',
      'CRC-CCITT': 'CRC-16/KERMIT',
      crc32c: 'CRC-32/ISCSI',
      'crc 16 modbus': 'CRC-16/MODBUS',
      'Adler-32': 'adler32',
      XXH3: 'xxh3-64',
      xxhash128: 'xxh3-128',
    }
    for (const [spelling, name] of Object.entries(expected)) assert.equal((await run({ input: '', algorithm: spelling })).algorithm, name, spelling)
  })

  test('no two names mean different things once case, hyphens and slashes are dropped', () => {
    const seen = new Map<string, string>()
    for (const model of crcCatalogue()) {
      for (const name of [model.name, ...model.aliases]) {
        const key = normaliseName(name)
        assert.ok(!seen.has(key) || seen.get(key) === model.name, `${name} and ${seen.get(key)}`)
        seen.set(key, model.name)
      }
    }
    assert.equal(algorithmNames().size, seen.size + OTHER_CHECKSUMS.length + 7)
  })

  test('published check values of CRCs, Adler-32, Fletcher and xxHash', async () => {
    for (const [algorithm, input, result] of KNOWN_ANSWERS)
      assert.equal((await run({ input, algorithm })).result, result, `${algorithm}(${JSON.stringify(input)})`)
  })

  test('RFC 1071 worked example, odd lengths padded, and the checksum verifies to zero', async () => {
    assert.equal((await run({ input: '0001f203f4f5f6f7', inputEncoding: 'hex', algorithm: 'internet' })).result, '220d')
    assert.equal((await run({ input: '0001f203f4f5f6f7220d', inputEncoding: 'hex', algorithm: 'internet' })).result, '0000')
    assert.equal(
      (await run({ input: 'ab', inputEncoding: 'hex', algorithm: 'internet' })).result,
      (await run({ input: 'ab00', inputEncoding: 'hex', algorithm: 'internet' })).result,
    )
    assert.equal((await run({ input: '', algorithm: 'internet' })).result, 'ffff')
  })

  test('xor8 and sum8', async () => {
    assert.equal((await run({ input: '0102ff', inputEncoding: 'hex', algorithm: 'xor8' })).result, 'fc')
    assert.equal((await run({ input: '0102ff', inputEncoding: 'hex', algorithm: 'sum8' })).result, '02')
    assert.equal((await run({ input: '', algorithm: 'sum8' })).result, '00')
  })

  test('the table-driven engine agrees with the bit-by-bit definition for any parameters up to 64 bits', () => {
    fc.assert(
      fc.property(parametersArbitrary, fc.uint8Array({ maxLength: 64 }), (model, bytes) => {
        assert.equal(crc(model, bytes), bitSerialCrc(model, bytes))
      }),
      { numRuns: 800 },
    )
  })

  test('the answer for given parameters is the bit-by-bit CRC, written zero-padded to the width', async () => {
    await fc.assert(
      fc.asyncProperty(parametersArbitrary, fc.uint8Array({ maxLength: 40 }), async (model, bytes) => {
        const given = {
          width: model.width,
          poly: hexOf(model.poly),
          init: `0x${hexOf(model.init)}`,
          refin: model.refin,
          refout: model.refout,
          xorout: hexOf(model.xorout),
        }
        const data = await run({ input: Buffer.from(bytes).toString('hex'), inputEncoding: 'hex', crc: given })
        assert.equal(
          data.result,
          bitSerialCrc(model, bytes)
            .toString(16)
            .padStart(Math.ceil(model.width / 4), '0'),
        )
        assert.equal(
          (await run({ input: Buffer.from(bytes).toString('hex'), inputEncoding: 'hex', crc: given, encoding: 'decimal' })).result,
          bitSerialCrc(model, bytes).toString(),
        )
      }),
      { numRuns: 200 },
    )
  })

  test('a message followed by its CRC leaves the residue in the register', () => {
    const byteAligned = crcCatalogue().filter((model) => model.width % 8 === 0 && model.width <= 64)
    fc.assert(
      fc.property(fc.constantFrom(...byteAligned), fc.uint8Array({ maxLength: 50 }), (model, message) => {
        const value = crc(model, message)
        const bytes = Buffer.from(value.toString(16).padStart(model.width / 4, '0'), 'hex')
        const codeword = Buffer.concat([message, model.refout ? bytes.reverse() : bytes])
        assert.equal(crc(model, codeword) ^ model.xorout, model.residue, model.name)
      }),
      { numRuns: 500 },
    )
  })

  test("residue follows the reveng catalogue's definition, crossed-endian models (refin ≠ refout) too", () => {
    // The catalogue's glossary: "initialising the register with the xorout parameter, reflecting it
    // (if refout=true), reading as many zero bits as there are cells in the register, and reflecting
    // the result (if refin=true)"; reveng's mcheck (model.c) computes it so. The catalogue's own models
    // all have refin = refout or xorout 0, so only given parameters tell the last reflection apart.
    const byDefinition = (model: CrcParameters) => {
      const top = 1n << BigInt(model.width - 1)
      const mask = (1n << BigInt(model.width)) - 1n
      let register = model.refout ? reflect(model.xorout, model.width) : model.xorout
      for (let bit = 0; bit < model.width; bit++) register = register & top ? ((register << 1n) ^ model.poly) & mask : (register << 1n) & mask
      return model.refin ? reflect(register, model.width) : register
    }
    const crossed = { width: 16, poly: 0x1021n, init: 0n, refin: false, refout: true, xorout: 0x0001n }
    assert.equal(crcResidue(crossed), byDefinition(crossed))
    assert.equal(crcResidue({ ...crossed, refin: true, refout: false }), byDefinition({ ...crossed, refin: true, refout: false }))
    fc.assert(
      fc.property(parametersArbitrary, (model) => {
        assert.equal(crcResidue(model), byDefinition(model))
      }),
      { numRuns: 300 },
    )
  })

  test('Adler-32 and Fletcher agree with their definitions across the reduction boundaries', async () => {
    const adler = (bytes: Uint8Array) => {
      let a = 1
      let b = 0
      for (const byte of bytes) {
        a = (a + byte) % 65521
        b = (b + a) % 65521
      }
      return ((b << 16) | a) >>> 0
    }
    const fletcher16 = (bytes: Uint8Array) => {
      let low = 0
      let high = 0
      for (const byte of bytes) {
        low = (low + byte) % 255
        high = (high + low) % 255
      }
      return (high << 8) | low
    }
    const bytes = Buffer.alloc(20_000, 0xff)
    for (const size of [0, 1, 4095, 4096, 4097, 5552, 5553, 20_000]) {
      const input = bytes.subarray(0, size).toString('base64')
      assert.equal(
        (await run({ input, inputEncoding: 'base64', algorithm: 'adler32', encoding: 'decimal' })).result,
        String(adler(bytes.subarray(0, size))),
        `${size}`,
      )
      assert.equal(
        (await run({ input, inputEncoding: 'base64', algorithm: 'fletcher16', encoding: 'decimal' })).result,
        String(fletcher16(bytes.subarray(0, size))),
        `${size}`,
      )
    }
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (random) => {
        const input = Buffer.from(random).toString('hex')
        assert.equal((await run({ input, inputEncoding: 'hex', algorithm: 'adler32', encoding: 'decimal' })).result, String(adler(random)))
        assert.equal((await run({ input, inputEncoding: 'hex', algorithm: 'fletcher16', encoding: 'decimal' })).result, String(fletcher16(random)))
      }),
      { numRuns: 200 },
    )
  })

  test('any bytes give the same value through every input encoding', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 100 }),
        fc.constantFrom('CRC-32C', 'CRC-82/DARC', 'CRC-5/USB', ...OTHER_CHECKSUMS),
        async (bytes, algorithm) => {
          const buffer = Buffer.from(bytes)
          const viaHex = await run({ input: buffer.toString('hex'), inputEncoding: 'hex', algorithm })
          assert.equal((await run({ input: buffer.toString('base64'), inputEncoding: 'base64', algorithm })).result, viaHex.result)
          assert.equal((await run({ input: buffer.toString('latin1'), inputEncoding: 'latin1', algorithm })).result, viaHex.result)
          assert.equal(
            (await run({ input: buffer.toString('hex'), inputEncoding: 'hex', algorithm, expected: String(viaHex.result).toUpperCase() })).matches,
            true,
          )
        },
      ),
      { numRuns: 150 },
    )
  })

  test('encodings: hex zero-padded to the width, decimal, base64 of the big-endian bytes, upper-case hex', async () => {
    const modbus = { input: '123456789', algorithm: 'CRC-16/MODBUS' }
    assert.equal((await run({ ...modbus, encoding: 'decimal' })).result, String(0x4b37))
    assert.equal((await run({ ...modbus, encoding: 'base64' })).result, Buffer.from('4b37', 'hex').toString('base64'))
    assert.equal((await run({ ...modbus, uppercase: true })).result, '4B37')
    assert.equal((await run({ input: '', algorithm: 'CRC-16/XMODEM' })).result, '0000')
    assert.equal(
      (await run({ input: '123456789', algorithm: 'CRC-82/DARC', encoding: 'base64' })).result,
      Buffer.from('009ea83f625023801fd612', 'hex').toString('base64'),
    )
    assert.equal((await run({ input: '123456789', algorithm: 'CRC-5/USB', encoding: 'base64' })).result, Buffer.from([0x19]).toString('base64'))
  })

  test('expected is compared as a number: 0x29B1, 29b1 and 10673 all match', async () => {
    const verify = async (expected: string, extra: Record<string, unknown> = {}) =>
      (await run({ input: '123456789', algorithm: 'CRC-16/CCITT-FALSE', expected, ...extra })).matches
    for (const expected of ['0x29B1', '29b1', '29B1', '10673', '0x029b1', '00029b1']) assert.equal(await verify(expected), true, expected)
    for (const expected of ['29b2', '0x29b2', '10674']) assert.equal(await verify(expected), false, expected)
    assert.equal(await verify('10673', { encoding: 'decimal' }), true)
    assert.equal(await verify('0x29b1', { encoding: 'decimal' }), true)
    assert.equal(await verify('29b1', { encoding: 'decimal' }).catch((error) => error.code), 'VALIDATION_ERROR')
    assert.equal(await verify(Buffer.from('29b1', 'hex').toString('base64'), { encoding: 'base64' }), true)
    assert.deepEqual(Object.keys(await run({ input: '1', algorithm: 'adler32', expected: '0' })), ['result', 'algorithm', 'encoding', 'bits', 'matches'])
  })

  test('all answers every algorithm, and with expected names the ones that give it: which CRC is this?', async () => {
    const data = await run({ input: '123456789', algorithm: 'all' })
    assert.equal(data.result, undefined)
    const results = data.results as Record<string, string>
    assert.deepEqual(Object.keys(results), [...crcCatalogue().map((model) => model.name), ...OTHER_CHECKSUMS])
    assert.equal(results['CRC-32/ISO-HDLC'], 'cbf43926')
    assert.equal(results.adler32, '091e01de')
    for (const model of fixtureModels()) {
      const found = await run({ input: '123456789', algorithm: 'ALL', expected: `0x${digits(model.fields.check, model.width)}` })
      assert.ok((found.matching as string[]).includes(model.name), model.name)
    }
    assert.deepEqual((await run({ input: '123456789', algorithm: 'all', expected: 'cbf43926' })).matching, ['CRC-32/ISO-HDLC'])
    assert.deepEqual((await run({ input: '123456789', algorithm: 'all', expected: '0x123456789abcdef0123' })).matching, [])
  })

  test('CRC-16, CRC-CCITT, CRC-8 and CRC-64 warn of the other models people mean, with their values', async () => {
    const crc16 = await run({ input: '123456789', algorithm: 'crc16' })
    assert.equal(crc16.algorithm, 'CRC-16/ARC')
    const [warning] = crc16.warnings as string[]
    assert.match(warning, /CRC-16\/MODBUS 4b37/)
    assert.match(warning, /CRC-16\/IBM-3740 29b1/)
    assert.match(warning, /CRC-16\/XMODEM 31c3/)
    assert.match(((await run({ input: '123456789', algorithm: 'CRC-CCITT' })).warnings as string[])[0], /CRC-16\/KERMIT.*CRC-16\/IBM-3740 29b1/)
    assert.match(((await run({ input: '123456789', algorithm: 'CRC-8' })).warnings as string[])[0], /CRC-8\/MAXIM-DOW a1/)
    assert.match(((await run({ input: '123456789', algorithm: 'CRC-64' })).warnings as string[])[0], /CRC-64\/XZ 995dc9bbdf1939fa/)
    assert.equal('warnings' in (await run({ input: '123456789', algorithm: 'CRC-16/ARC' })), false)
    assert.equal('warnings' in (await run({ input: '123456789', algorithm: 'CRC-32' })), false)
  })

  test('xxHash seeds: decimal and hex spellings agree, and a seed changes the value', async () => {
    for (const algorithm of ['xxh32', 'xxh64', 'xxh3-64', 'xxh3-128']) {
      const unseeded = (await run({ input: 'abc', algorithm })).result
      const decimal = (await run({ input: 'abc', algorithm, seed: '4294967295' })).result
      assert.equal((await run({ input: 'abc', algorithm, seed: '0xFFFFFFFF' })).result, decimal, algorithm)
      assert.notEqual(decimal, unseeded, algorithm)
    }
    const high = (await run({ input: 'abc', algorithm: 'xxh64', seed: '18446744073709551615' })).result
    assert.equal((await run({ input: 'abc', algorithm: 'xxh64', seed: '0xffffffffffffffff' })).result, high)
    assert.notEqual((await run({ input: 'abc', algorithm: 'xxh64', seed: '4294967296' })).result, (await run({ input: 'abc', algorithm: 'xxh64' })).result)
  })

  test('refuses what it cannot process, saying why', async () => {
    const unknown = await refuses({ input: 'x', algorithm: 'CRC-16/MODBAS' }, 'VALIDATION_ERROR', /close names: .*CRC-16\/MODBUS/, 'algorithm')
    assert.ok(unknown.message.length < 400)
    await refuses({ input: 'x', algorithm: 'sha256' }, 'VALIDATION_ERROR', /^algorithm is not a known checksum/, 'algorithm')
    await refuses({ input: 'x' }, 'VALIDATION_ERROR', /^algorithm is required unless crc is given/, 'algorithm')
    await refuses(
      { input: 'x', algorithm: 'CRC-32', crc: { width: 8, poly: '07', refin: false, refout: false } },
      'VALIDATION_ERROR',
      /^crc cannot be given with algorithm/,
      'crc',
    )
    await refuses({ input: 'x', crc: { width: 65, poly: '07', refin: false, refout: false } }, 'VALIDATION_ERROR', /width/)
    await refuses({ input: 'x', crc: { width: 82, poly: '0308c0111011401440411', refin: true, refout: true } }, 'VALIDATION_ERROR', /crc/)
    await refuses(
      { input: 'x', crc: { width: 8, poly: '107', refin: false, refout: false } },
      'VALIDATION_ERROR',
      /^crc\.poly has more bits than width \(8\)/,
      'crc.poly',
    )
    await refuses({ input: 'x', crc: { width: 8, poly: '07', init: '1ff', refin: false, refout: false } }, 'VALIDATION_ERROR', /^crc\.init/, 'crc.init')
    await refuses({ input: 'x', crc: { width: 8, poly: 'xyz', refin: false, refout: false } }, 'VALIDATION_ERROR', /poly/)
    await refuses({ input: 'x', crc: { width: 8, poly: '07', refin: false } }, 'VALIDATION_ERROR', /refout/)
    await refuses(
      { input: 'x', algorithm: 'CRC-32', encoding: 'decimal', uppercase: true },
      'VALIDATION_ERROR',
      /^uppercase applies only to encoding hex/,
      'uppercase',
    )
    await refuses({ input: 'x', algorithm: 'CRC-32', seed: '1' }, 'VALIDATION_ERROR', /^seed applies only to xxHash/, 'seed')
    await refuses({ input: 'x', algorithm: 'xxh32', seed: '4294967296' }, 'VALIDATION_ERROR', /^seed must be at most 2\^32−1 for xxh32/, 'seed')
    await refuses({ input: 'x', algorithm: 'xxh64', seed: '18446744073709551616' }, 'VALIDATION_ERROR', /^seed must be at most 2\^64−1/, 'seed')
    await refuses({ input: 'x', algorithm: 'xxh64', seed: '-1' }, 'VALIDATION_ERROR', /seed/)
    await refuses({ input: 'x', algorithm: 'CRC-32', expected: 'zz' }, 'VALIDATION_ERROR', /^expected is not a number written in hex/, 'expected')
    await refuses({ input: 'x', algorithm: 'CRC-32', encoding: 'base32' }, 'VALIDATION_ERROR', /encoding/)
    await refuses({ input: 'x', algorithm: 'a'.repeat(65) }, 'VALIDATION_ERROR', /algorithm/)
    await refuses({ input: 'x', algorithm: 'CRC-32', polynomial: '04c11db7' }, 'VALIDATION_ERROR', /polynomial is not a known field/)
    await refuses({ input: '61zz', inputEncoding: 'hex', algorithm: 'CRC-32' }, 'INVALID_INPUT', /position 2/)
  })

  test('hostile inputs are answered quickly: a long unknown name at once; a MiB through the widest CRCs, and all within its bound', async () => {
    const started = performance.now()
    await refuses({ input: 'x', algorithm: 'Q'.repeat(64) }, 'VALIDATION_ERROR', /^algorithm is not a known checksum/)
    // Ranking a name against every name of the catalogue is cheap whatever the name.
    assert.ok(performance.now() - started < 1000)
    const mebibyte = Buffer.alloc(1024 * 1024, 0x5a).toString('latin1')
    assert.equal(String((await run({ input: mebibyte, inputEncoding: 'latin1', algorithm: 'CRC-82/DARC' })).result).length, 21)
    assert.equal(String((await run({ input: mebibyte, inputEncoding: 'latin1', algorithm: 'CRC-64/XZ' })).result).length, 16)
    const data = await run({ input: mebibyte.slice(0, ALL_MAX_BYTES), inputEncoding: 'latin1', algorithm: 'all' })
    assert.equal(Object.keys(data.results as object).length, 113 + OTHER_CHECKSUMS.length)
    await expectRefusal(run({ input: mebibyte.slice(0, ALL_MAX_BYTES + 1), inputEncoding: 'latin1', algorithm: 'all' }), {
      code: 'LIMIT_EXCEEDED',
      message: /^all reads at most 65,536 bytes of input \(here 65,537\)/,
      details: { field: 'input', limit: ALL_MAX_BYTES, bytes: ALL_MAX_BYTES + 1 },
    })
  })

  test('offloads large inputs, and all sooner', () => {
    const offload = checksum.offload as (input: { input: string; algorithm?: string }) => boolean
    assert.equal(offload({ input: 'x'.repeat(64 * 1024), algorithm: 'CRC-32' }), false)
    assert.equal(offload({ input: 'x'.repeat(64 * 1024 + 1), algorithm: 'CRC-32' }), true)
    assert.equal(offload({ input: 'x'.repeat(4 * 1024 + 1), algorithm: 'all' }), true)
    assert.equal(offload({ input: 'x'.repeat(4 * 1024), algorithm: 'ALL' }), false)
    // Every spelling that run reads as all (letter case, hyphens, underscores, spaces) is offloaded as all.
    for (const spelling of ['ALL', 'A-LL', 'a_l_l', 'all ']) assert.equal(offload({ input: 'x'.repeat(4 * 1024 + 1), algorithm: spelling }), true, spelling)
  })
})
