import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOfAsync, type ExpectedRefusal, expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { ENCODINGS } from './alphabets.ts'
import { BECH32_MAX_LENGTH } from './bech32.ts'
import { baseEncoding } from './index.ts'
import { RADIX_MAX_BYTES, RADIX_MAX_CHARACTERS } from './radix.ts'

type Fields = Record<string, unknown>
type Answer = Record<string, unknown> & { result: string }

/**
 * Inputs past the offload threshold run here rather than on a worker thread, which a busy machine may
 * be slow to start: the surfaces' tests run them offloaded.
 */
const run = async (input: Fields) =>
  (JSON.stringify(input).length > 1000 ? await baseEncoding.run(validate(baseEncoding.input, input) as never) : await execute(baseEncoding, input)) as Answer
const encode = (input: string, encoding: string, fields: Fields = {}) => run({ input, encoding, ...fields })
const encodeHex = (hex: string, encoding: string, fields: Fields = {}) => run({ input: hex, inputEncoding: 'hex', encoding, ...fields })
const decode = (input: string, encoding: string, fields: Fields = {}) => run({ input, action: 'decode', encoding, ...fields })
const decodeHex = (input: string, encoding: string, fields: Fields = {}) => decode(input, encoding, { outputEncoding: 'hex', ...fields })
const rejects = (input: Fields, code: string, expected: ExpectedRefusal = {}) => expectRefusal(run(input), { code, ...expected })
const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

const suite = (path: string) => new URL(`../../../test/fixtures/suites/${path}`, import.meta.url)
/** Bitcoin Core's src/test/data/base58_encode_decode.json: [hex, base58] pairs. */
const BITCOIN_BASE58 = JSON.parse(readFileSync(suite('bitcoin-base58/base58_encode_decode.json'), 'utf8')) as Array<[string, string]>
/** The test vectors of BIP-173 and BIP-350, as their texts list them. */
const BIP = JSON.parse(readFileSync(suite('bip-173-350/vectors.json'), 'utf8')) as {
  bip173: { validBech32: string[]; invalidBech32: Array<[string, string]>; validSegwit: Array<[string, string]>; invalidSegwit: Array<[string, string]> }
  bip350: { validBech32m: string[]; invalidBech32m: Array<[string, string]>; validSegwit: Array<[string, string]>; invalidSegwit: Array<[string, string]> }
}

describe('base-encoding: published vectors', () => {
  test("base58, draft-msporny-base58's examples", async () => {
    assert.deepEqual(await encode('Hello World!', 'base58'), { result: '2NEpo7TZRRrLZSi2U', action: 'encode', encoding: 'base58' })
    assert.equal(
      (await encode('The quick brown fox jumps over the lazy dog.', 'base58')).result,
      'USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z',
    )
    assert.equal((await encodeHex('0000287fb4cd', 'base58')).result, '11233QC4')
    assert.equal((await decodeHex('11233QC4', 'base58')).result, '0000287fb4cd')
    assert.equal((await decode('2NEpo7TZRRrLZSi2U', 'base58')).result, 'Hello World!')
  })

  test(`base58, Bitcoin Core's base58_encode_decode.json: all ${BITCOIN_BASE58.length} pairs, both ways`, async () => {
    assert.equal(BITCOIN_BASE58.length, 21)
    for (const [hex, text] of BITCOIN_BASE58) {
      assert.equal((await encodeHex(hex, 'base58')).result, text, hex)
      assert.equal((await decodeHex(text, 'base58')).result, hex.toLowerCase(), text)
    }
  })

  test('base58check, the version 1 address of the Bitcoin wiki; one character changed is a checksum mismatch', async () => {
    assert.equal((await encodeHex('00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31', 'base58check')).result, '1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs')
    assert.deepEqual(await decodeHex('1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs', 'base58check'), {
      result: '00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31',
      action: 'decode',
      encoding: 'base58check',
    })
    await rejects({ input: '1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAt', action: 'decode', encoding: 'base58check' }, 'INVALID_INPUT', {
      message: /checksum mismatch/,
    })
    await rejects({ input: '0OIl', action: 'decode', encoding: 'base58check' }, 'INVALID_INPUT', { position: 0, message: /'0' at position 0/ })
  })

  test('base45, RFC 9285 §4.3 examples; GGW is 65536, one past two bytes', async () => {
    assert.equal((await encode('AB', 'base45')).result, 'BB8')
    assert.equal((await encode('Hello!!', 'base45')).result, '%69 VD92EX0')
    assert.equal((await encode('base-45', 'base45')).result, 'UJCLQE7W581')
    assert.equal((await decode('QED8WEX0', 'base45')).result, 'ietf!')
    assert.equal((await decode('%69 VD92EX0', 'base45')).result, 'Hello!!')
    await rejects({ input: 'GGW', action: 'decode', encoding: 'base45' }, 'INVALID_INPUT', { position: 0, message: /65536/ })
  })

  test('Z85, ZeroMQ RFC 32: 864FD26FB559F75B is HelloWorld; 7 bytes are refused', async () => {
    assert.equal((await encodeHex('864FD26FB559F75B', 'z85')).result, 'HelloWorld')
    assert.equal((await decodeHex('HelloWorld', 'z85')).result, '864fd26fb559f75b')
    await rejects({ input: '00112233445566', inputEncoding: 'hex', encoding: 'z85' }, 'INVALID_INPUT', { message: /Z85 needs a multiple of 4 bytes/ })
  })

  test('Ascii85, Adobe: "Man " and "sure." with <~ ~>, four zero bytes as z', async () => {
    assert.equal((await encode('Man ', 'ascii85')).result, '<~9jqo^~>')
    assert.equal((await encode('sure.', 'ascii85')).result, '<~F*2M7/c~>')
    assert.equal((await encodeHex('00000000', 'ascii85')).result, '<~z~>')
    assert.equal((await decode('<~9jqo^~>', 'ascii85')).result, 'Man ')
    assert.equal((await decode('<~F*2M7/c~>', 'ascii85')).result, 'sure.')
    assert.equal((await decodeHex('<~z~>', 'ascii85')).result, '00000000')
  })

  test('RFC 1924: the IPv6 address 1080:0:0:0:8:800:200C:417A', async () => {
    assert.equal((await encodeHex('108000000000000000080800200C417A', 'base85-rfc1924')).result, '4)+k&C#VzJ4br>0wv%Yp')
    assert.equal((await decodeHex('4)+k&C#VzJ4br>0wv%Yp', 'base85-rfc1924')).result, '108000000000000000080800200c417a')
  })

  test('base62 and base36, against Python integer arithmetic (values made once with python3 int.from_bytes and divmod)', async () => {
    const vectors: Array<[string, string, string]> = [
      ['68656c6c6f', '7tQLFHz', '5pzcszu7'],
      ['48656c6c6f20576f726c6421', 'T8dgcjRGkZ3aysdN', '2678lx5gvmsv1dro9b5'],
      ['0000ff', '0047', '0073'],
      ['00000000', '0000', '0000'],
      [
        '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627',
        '01GsBaniMdfHPrKhhwjnlS86reYjdQ5ckAqLoTS4ckntI6Yz8O0Ih',
        '0htm7c3uybkjaqyxn9et5p3sxcjb34r877v3x0b9yfc6i0dmhgfayi4irl7r',
      ],
      ['ffffffffffffffffffffffffffffffff', '7n42DGM5Tflk9n8mt7Fhc7', 'f5lxx1zz5pnorynqglhzmsp33'],
      ['', '', ''],
    ]
    for (const [hex, base62, base36] of vectors) {
      assert.equal((await encodeHex(hex, 'base62')).result, base62, hex)
      assert.equal((await encodeHex(hex, 'base36')).result, base36, hex)
      assert.equal((await decodeHex(base62, 'base62')).result, hex, base62)
      assert.equal((await decodeHex(base36, 'base36')).result, hex, base36)
      assert.equal((await decodeHex(base36.toUpperCase(), 'base36')).result, hex, 'base36 decodes either case')
    }
  })
})

describe('base-encoding: BIP-173 and BIP-350 test vectors', () => {
  test('every valid bech32 string decodes as bech32, and is refused as bech32m with a message that names bech32', async () => {
    assert.equal(BIP.bip173.validBech32.length, 7)
    for (const text of BIP.bip173.validBech32) {
      const answer = await decodeHex(text, 'bech32')
      assert.equal(answer.hrp, text.slice(0, text.lastIndexOf('1')).toLowerCase(), text)
      await rejects({ input: text, action: 'decode', encoding: 'bech32m' }, 'INVALID_INPUT', { message: /bech32 checksum holds.*encoding bech32/ })
    }
    const abcdef = await decodeHex('abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw', 'bech32')
    assert.equal(abcdef.result, '00443214c74254b635cf84653a56d7c675be77df')
    assert.deepEqual(
      abcdef.words,
      Array.from({ length: 32 }, (_, index) => index),
    )
    assert.deepEqual(await decode('A12UEL5L', 'bech32'), { result: '', action: 'decode', encoding: 'bech32', hrp: 'a', words: [] })
    assert.equal((await decode('split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w', 'bech32', { outputEncoding: 'hex' })).hrp, 'split')
  })

  test('every valid bech32m string decodes as bech32m, and is refused as bech32 with a message that names bech32m', async () => {
    assert.equal(BIP.bip350.validBech32m.length, 7)
    for (const text of BIP.bip350.validBech32m) {
      const answer = await decodeHex(text, 'bech32m')
      assert.equal(answer.hrp, text.slice(0, text.lastIndexOf('1')).toLowerCase(), text)
      await rejects({ input: text, action: 'decode', encoding: 'bech32' }, 'INVALID_INPUT', { message: /bech32m checksum holds.*encoding bech32m/ })
    }
    // 82 words of 31: 410 bits, 51 bytes of ff and two bits left over, which `words` keeps.
    const ones = await decodeHex('11llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllludsr8', 'bech32m')
    assert.equal(ones.result, 'ff'.repeat(51))
    assert.deepEqual(ones.words, Array(82).fill(31))
  })

  /**
   * How each reason the BIPs give is answered. Known exception: the strings that begin with 0x20 (a
   * space) are refused for an empty HRP rather than for the space, since decoding ignores whitespace
   * around the text.
   */
  const REASONS: Record<string, (text: string) => ExpectedRefusal> = {
    'HRP character out of range': (text) =>
      text.startsWith(' ')
        ? { code: 'INVALID_INPUT', message: /human-readable part \(HRP\) is empty/ }
        : { code: 'INVALID_INPUT', position: 0, message: /out of range/ },
    'overall max length exceeded': () => ({ code: 'LIMIT_EXCEEDED', message: /at most 90 characters/, details: { limit: 90 } }),
    'No separator character': () => ({ code: 'INVALID_INPUT', message: /no separator '1'/ }),
    'Empty HRP': () => ({ code: 'INVALID_INPUT', message: /is empty/, position: 0 }),
    'empty HRP': () => ({ code: 'INVALID_INPUT', message: /is empty/, position: 0 }),
    'Invalid data character': (text) => ({ code: 'INVALID_INPUT', message: /is not a bech32 character/, position: firstNotBech32(text) }),
    'Invalid character in checksum': (text) => ({ code: 'INVALID_INPUT', message: /is not a bech32 character/, position: firstNotBech32(text) }),
    'Too short checksum': () => ({ code: 'INVALID_INPUT', message: /checksum is too short/ }),
    'checksum calculated with uppercase form of HRP': () => ({ code: 'INVALID_INPUT', message: /checksum mismatch/ }),
    'Mixed case': () => ({ code: 'INVALID_INPUT', message: /all lower case or all upper case/ }),
  }
  const firstNotBech32 = (text: string) => {
    const separator = text.lastIndexOf('1')
    return separator + 1 + [...text.slice(separator + 1)].findIndex((char) => !'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.includes(char.toLowerCase()))
  }

  for (const [bip, encoding, list] of [
    ['BIP-173', 'bech32', BIP.bip173.invalidBech32],
    ['BIP-350', 'bech32m', BIP.bip350.invalidBech32m],
  ] as const) {
    test(`every invalid ${encoding} string of ${bip} (${list.length}) is refused, for its reason`, async () => {
      assert.equal(list.length, bip === 'BIP-173' ? 12 : 14)
      for (const [text, reason] of list) {
        const expected = REASONS[reason]
        assert.ok(expected, `a reason this test knows: ${reason}`)
        await expectRefusal(run({ input: text, action: 'decode', encoding }), expected(text))
      }
    })
  }

  const scriptPubKey = (version: number, program: string) =>
    `${(version === 0 ? 0 : 0x50 + version).toString(16).padStart(2, '0')}${(program.length / 2).toString(16).padStart(2, '0')}${program}`

  test("BIP-350's valid SegWit addresses (8): the witness version and program make the scriptPubKey it lists", async () => {
    assert.equal(BIP.bip350.validSegwit.length, 8)
    for (const [address, expected] of BIP.bip350.validSegwit) {
      const version = '0123456789'.includes(address[3]) ? -1 : 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.indexOf(address[address.indexOf('1') + 1].toLowerCase())
      const answer = await decodeHex(address, version === 0 ? 'bech32' : 'bech32m')
      const segwit = answer.segwit as { version: number; program: string }
      assert.ok(segwit, address)
      assert.equal(scriptPubKey(segwit.version, segwit.program), expected, address)
      assert.equal(answer.result, segwit.program, 'result is the witness program')
    }
  })

  test("BIP-173's valid SegWit addresses (6): version 0 as listed; versions 1–16 in bech32, which BIP-350 superseded, decode with no segwit", async () => {
    assert.equal(BIP.bip173.validSegwit.length, 6)
    for (const [address, expected] of BIP.bip173.validSegwit) {
      const answer = await decodeHex(address, 'bech32')
      if (expected.startsWith('00')) {
        const segwit = answer.segwit as { version: number; program: string }
        assert.equal(scriptPubKey(segwit.version, segwit.program), expected, address)
      } else {
        assert.equal(answer.segwit, undefined, `${address}: a version ${expected.slice(0, 2)} program in bech32 is no address since BIP-350`)
        await rejects({ input: address, action: 'decode', encoding: 'bech32m' }, 'INVALID_INPUT', { message: /checksum/ })
      }
    }
  })

  /** Reasons that make the string itself invalid bech32 and bech32m; the others are valid strings that are no SegWit address. */
  const STRING_FAULTS = /^(Invalid checksum$|Invalid character in checksum|Mixed case)/

  for (const [bip, list] of [
    ['BIP-173', BIP.bip173.invalidSegwit],
    ['BIP-350', BIP.bip350.invalidSegwit],
  ] as const) {
    test(`every invalid SegWit address of ${bip} (${list.length}) is refused, or decodes without segwit when only the address rules break`, async () => {
      assert.equal(list.length, bip === 'BIP-173' ? 10 : 15)
      for (const [address, reason] of list) {
        const answers = await Promise.all(
          (['bech32', 'bech32m'] as const).map((encoding) =>
            decodeHex(address, encoding).then(
              (answer) => answer,
              (error: { code: string }) => error.code,
            ),
          ),
        )
        const decoded = answers.filter((answer): answer is Answer => typeof answer === 'object')
        if (STRING_FAULTS.test(reason)) assert.deepEqual(answers, ['INVALID_INPUT', 'INVALID_INPUT'], `${address}: ${reason}`)
        else {
          assert.equal(decoded.length, 1, `${address}: one variant's checksum holds`)
          assert.equal(decoded[0].segwit, undefined, `${address}: ${reason}`)
        }
      }
    })
  }
})

describe('base-encoding: decoding', () => {
  test('whitespace around the text is ignored; positions count in the text as sent', async () => {
    assert.equal((await decode('  2NEpo7TZRRrLZSi2U\n', 'base58')).result, 'Hello World!')
    assert.equal((await decode('\tbc1dp5s8mf45h \n', 'bech32')).result, 'hi')
    await rejects({ input: '  2NEp0', action: 'decode', encoding: 'base58' }, 'INVALID_INPUT', { position: 6 })
    await rejects({ input: '2NEp o7', action: 'decode', encoding: 'base58' }, 'INVALID_INPUT', { position: 4 })
  })

  test('a character outside the alphabet names its position, in every encoding', async () => {
    const cases: Array<[string, string, number, Fields?]> = [
      ['abc0', 'base58', 3],
      ['abcl', 'base58', 3, { alphabet: 'flickr' }],
      ['rp0', 'base58', 2, { alphabet: 'ripple' }],
      ['ab-c', 'base62', 2],
      ['az_', 'base36', 2],
      ['AB c', 'base45', 3],
      ['Hello_orld', 'z85', 5],
      ['4)+k&C#VzJ4br>0wv%Y"', 'base85-rfc1924', 19],
      ['9jqo~^', 'ascii85', 4],
      ['9jq😀', 'ascii85', 3],
      ['a1bqqqqqqq', 'bech32', 2],
    ]
    for (const [input, encoding, position, fields] of cases) {
      await rejects({ input, action: 'decode', encoding, ...fields }, 'INVALID_INPUT', { position })
    }
    await rejects({ input: 'ab😀', action: 'decode', encoding: 'base62' }, 'INVALID_INPUT', { message: /'😀' at position 2/ })
  })

  test('base45 is upper case only (RFC 9285), and a lone last character is refused', async () => {
    await rejects({ input: 'bb8', action: 'decode', encoding: 'base45' }, 'INVALID_INPUT', { position: 0, message: /case matters/ })
    await rejects({ input: 'BB8B', action: 'decode', encoding: 'base45' }, 'INVALID_INPUT', { position: 3, message: /lone character/ })
    await rejects({ input: ':U', action: 'decode', encoding: 'base45' }, 'INVALID_INPUT', { position: 0, message: /255/ })
    // A leading space is a base45 symbol (36), not whitespace to ignore: 36 + 11 × 45 + 11 × 2025 = 22806.
    assert.equal((await decodeHex(' BB', 'base45')).result, (22806).toString(16))
    assert.equal((await encodeHex((22806).toString(16), 'base45')).result, ' BB')
  })

  test('Ascii85: whitespace anywhere, delimiters optional, z only between groups, overflow and a lone last character refused', async () => {
    assert.equal((await decode('9jq\no^', 'ascii85')).result, 'Man ')
    assert.equal((await decode(' <~ 9j qo^ ~> ', 'ascii85')).result, 'Man ')
    assert.equal((await decode('9jqo^~>', 'ascii85')).result, 'Man ')
    assert.equal((await decodeHex('zz!!', 'ascii85')).result, '000000000000000000')
    assert.equal((await decode('', 'ascii85')).result, '')
    assert.equal((await decode('<~~>', 'ascii85')).result, '')
    await rejects({ input: '9jzqo^', action: 'decode', encoding: 'ascii85' }, 'INVALID_INPUT', { position: 2, message: /inside a group/ })
    await rejects({ input: 's8W-"', action: 'decode', encoding: 'ascii85' }, 'INVALID_INPUT', { position: 0, message: /more than four bytes/ })
    await rejects({ input: '9jqo^F', action: 'decode', encoding: 'ascii85' }, 'INVALID_INPUT', { position: 5, message: /single character/ })
    await rejects({ input: '<~9jqo^', action: 'decode', encoding: 'ascii85' }, 'INVALID_INPUT', { message: /must close with '~>'/ })
    assert.equal((await encode('Man ', 'ascii85', { delimiters: false })).result, '9jqo^')
    // A last group of fewer than four bytes is written without z, even when zero.
    assert.equal((await encodeHex('000000', 'ascii85', { delimiters: false })).result, '!!!!')
  })

  test('impossible lengths: Z85 not a multiple of 5, RFC 1924 not 20 characters or 16 bytes, base58check shorter than its checksum', async () => {
    await rejects({ input: 'HelloWorl', action: 'decode', encoding: 'z85' }, 'INVALID_INPUT', { message: /multiple of 5/ })
    await rejects({ input: '4)+k&C#VzJ4br>0wv%Y', action: 'decode', encoding: 'base85-rfc1924' }, 'INVALID_INPUT', { message: /exactly 20/ })
    await rejects({ input: '~'.repeat(20), action: 'decode', encoding: 'base85-rfc1924' }, 'INVALID_INPUT', { message: /128 bits/ })
    await rejects({ input: '1080::8:800:200C:417A', encoding: 'base85-rfc1924' }, 'INVALID_INPUT', { message: /exactly 16 bytes.*inputEncoding hex/ })
    await rejects({ input: '%%%%%', action: 'decode', encoding: 'z85' }, 'INVALID_INPUT', { position: 0, message: /more than four bytes/ })
    await rejects({ input: '2g', action: 'decode', encoding: 'base58check' }, 'INVALID_INPUT', { message: /at least its 4-byte checksum/ })
  })

  test('bech32: mixed case names where it breaks, an HRP to expect is checked, SegWit only for bc, tb and bcrt', async () => {
    await rejects({ input: 'Bc1dp5s8mf45h', action: 'decode', encoding: 'bech32' }, 'INVALID_INPUT', { position: 1 })
    assert.equal((await decode('BC1DP5S8MF45H', 'bech32')).result, 'hi')
    assert.equal((await decode('bc1dp5s8mf45h', 'bech32', { hrp: 'BC' })).result, 'hi')
    await rejects({ input: 'bc1dp5s8mf45h', action: 'decode', encoding: 'bech32', hrp: 'tb' }, 'INVALID_INPUT', { message: /'bc', not the expected 'tb'/ })
    const other = await encodeHex('00751e76e8199196d454941c45d1b3a323f1433bd6', 'bech32', { hrp: 'xy' })
    assert.equal((await decodeHex(other.result, 'bech32')).segwit, undefined)
  })

  test('decoded bytes that are not UTF-8 are refused with a hint, and given in the other encodings', async () => {
    await rejects({ input: '5Q', action: 'decode', encoding: 'base58' }, 'INVALID_INPUT', { message: /not valid UTF-8.*outputEncoding/ })
    assert.equal((await decode('5Q', 'base58', { outputEncoding: 'latin1' })).result, '\u00ff')
    assert.equal((await decode('5Q', 'base58', { outputEncoding: 'base64' })).result, '/w==')
  })
})

describe('base-encoding: fields, limits and offloading', () => {
  test('fields that belong to other encodings are refused (400), and bech32 needs an HRP to encode', async () => {
    await rejects({ input: 'x', encoding: 'base62', alphabet: 'flickr' }, 'VALIDATION_ERROR', { field: 'alphabet' })
    await rejects({ input: 'x', encoding: 'z85', delimiters: true }, 'VALIDATION_ERROR', { field: 'delimiters' })
    await rejects({ input: 'x', encoding: 'base58', hrp: 'bc' }, 'VALIDATION_ERROR', { field: 'hrp' })
    await rejects({ input: 'x', encoding: 'bech32' }, 'VALIDATION_ERROR', { field: 'hrp', message: /hrp is required/ })
    await rejects({ input: 'x' }, 'VALIDATION_ERROR', { message: /encoding/ })
    await rejects({ input: 'x', encoding: 'base85' }, 'VALIDATION_ERROR', { field: 'encoding' })
    await rejects({ input: 'x', encoding: 'bech32', hrp: 'b c' }, 'VALIDATION_ERROR', { field: 'hrp' })
    await rejects({ input: 'x', encoding: 'bech32', hrp: 'a'.repeat(84) }, 'VALIDATION_ERROR', { field: 'hrp' })
  })

  test('answers result, action and encoding, then hrp, words and segwit for bech32', async () => {
    assert.deepEqual(Object.keys(await encode('x', 'base62')), ['result', 'action', 'encoding'])
    assert.deepEqual(await encode('hi', 'bech32', { hrp: 'BC' }), { result: 'bc1dp5s8mf45h', action: 'encode', encoding: 'bech32', hrp: 'bc' })
    assert.deepEqual(Object.keys(await decodeHex('BC1SW50QGDZ25J', 'bech32m')), ['result', 'action', 'encoding', 'hrp', 'words', 'segwit'])
  })

  test(`radix encodings take at most ${RADIX_MAX_BYTES} bytes and ${RADIX_MAX_CHARACTERS} characters (base58check ${RADIX_MAX_BYTES - 4} and its checksum)`, async () => {
    for (const encoding of ['base58', 'base62', 'base36']) {
      const text = (await encodeHex('ff'.repeat(RADIX_MAX_BYTES), encoding)).result
      assert.equal((await decodeHex(text, encoding)).result, 'ff'.repeat(RADIX_MAX_BYTES))
      await rejects({ input: 'ff'.repeat(RADIX_MAX_BYTES + 1), inputEncoding: 'hex', encoding }, 'LIMIT_EXCEEDED', {
        details: { limit: RADIX_MAX_BYTES, length: RADIX_MAX_BYTES + 1 },
        message: new RegExp(`at most ${RADIX_MAX_BYTES} bytes`),
      })
      assert.ok((await decodeHex('1'.repeat(RADIX_MAX_CHARACTERS), encoding)).result.length > 0)
      await rejects({ input: '1'.repeat(RADIX_MAX_CHARACTERS + 1), action: 'decode', encoding }, 'LIMIT_EXCEEDED', { details: { limit: RADIX_MAX_CHARACTERS } })
    }
    assert.ok((await encodeHex('ff'.repeat(RADIX_MAX_BYTES - 4), 'base58check')).result.length > 0)
    await rejects({ input: 'ff'.repeat(RADIX_MAX_BYTES - 3), inputEncoding: 'hex', encoding: 'base58check' }, 'LIMIT_EXCEEDED', {
      details: { limit: RADIX_MAX_BYTES - 4 },
    })
  })

  test(`bech32 text is at most ${BECH32_MAX_LENGTH} characters: the bytes an HRP leaves room for, and no more`, async () => {
    // 90 - 2 (bc) - 1 - 6 = 81 symbols hold 405 bits: 50 bytes, written in 80 symbols.
    assert.equal((await encodeHex('00'.repeat(50), 'bech32', { hrp: 'bc' })).result.length, 89)
    await rejects({ input: '00'.repeat(51), inputEncoding: 'hex', encoding: 'bech32m', hrp: 'bc' }, 'LIMIT_EXCEEDED', {
      details: { limit: 90, maxBytes: 50, length: 51 },
    })
  })

  test('the largest inputs a body may carry are answered or refused in well under a second of CPU', async () => {
    const big = 'z'.repeat(1024 * 1024 - 100)
    const calls: Fields[] = [
      { input: big, action: 'decode', encoding: 'ascii85', outputEncoding: 'base64' },
      { input: big, action: 'decode', encoding: 'base58' },
      { input: big, encoding: 'base62' },
      { input: big, encoding: 'base45' },
      { input: big.slice(0, 1024 * 1024 - 100 - ((1024 * 1024 - 100) % 5)), action: 'decode', encoding: 'z85', outputEncoding: 'hex' },
      { input: 'z'.repeat(RADIX_MAX_CHARACTERS), action: 'decode', encoding: 'base58', outputEncoding: 'hex' },
      { input: 'ff'.repeat(RADIX_MAX_BYTES), inputEncoding: 'hex', encoding: 'base62' },
      { input: 'ff'.repeat(RADIX_MAX_BYTES), inputEncoding: 'hex', encoding: 'base36' },
      { input: `bc1${'q'.repeat(1_000_000)}`, action: 'decode', encoding: 'bech32' },
    ]
    for (const call of calls) {
      // Run in this thread, so that the CPU time is the operation's own and not a worker's start.
      const work = async () => baseEncoding.run(validate(baseEncoding.input, call) as never)
      const cpu = await cpuTimeOfAsync(() => work().catch((error: { code: string }) => assert.ok(['LIMIT_EXCEEDED', 'INVALID_INPUT'].includes(error.code))))
      assert.ok(cpu < 1000, `${call.encoding} ${call.action ?? 'encode'} took ${cpu} ms of CPU`)
    }
  })

  test('offloads radix encodings past a kilobyte of input, the others past 64 KiB', () => {
    const offloads = (input: Fields) => baseEncoding.offload?.(validate(baseEncoding.input, input) as never)
    assert.equal(offloads({ input: 'a'.repeat(1000), encoding: 'base58' }), false)
    assert.equal(offloads({ input: 'a'.repeat(1025), encoding: 'base58check' }), true)
    assert.equal(offloads({ input: 'a'.repeat(1025), encoding: 'base36', action: 'decode' }), true)
    assert.equal(offloads({ input: 'a'.repeat(60_000), encoding: 'ascii85' }), false)
    assert.equal(offloads({ input: 'a'.repeat(70_000), encoding: 'z85' }), true)
  })

  test('each encoding is an alias, so search finds it by name', () => {
    for (const name of ['base58', 'base58check', 'base62', 'base36', 'base45', 'ascii85', 'z85', 'base85', 'bech32', 'bech32m']) {
      assert.ok(baseEncoding.aliases.includes(name), name)
    }
    assert.ok(ENCODINGS.every((encoding) => encoding === 'base85-rfc1924' || baseEncoding.aliases.includes(encoding)))
  })
})

describe('base-encoding: properties', () => {
  const bytes = fc.uint8Array({ maxLength: 80 })

  test('round trip: any bytes survive encode then decode, in every encoding that takes any length', async () => {
    await fc.assert(
      fc.asyncProperty(
        bytes,
        fc.constantFrom(
          { encoding: 'base58' },
          { encoding: 'base58', alphabet: 'flickr' },
          { encoding: 'base58', alphabet: 'ripple' },
          { encoding: 'base58check' },
          { encoding: 'base58check', alphabet: 'ripple' },
          { encoding: 'base62' },
          { encoding: 'base36' },
          { encoding: 'base45' },
          { encoding: 'ascii85' },
          { encoding: 'ascii85', delimiters: false },
        ),
        async (data, fields) => {
          const encoded = await encodeHex(hexOf(data), fields.encoding, fields)
          const { delimiters: _, ...decodeFields } = fields as Fields
          assert.equal((await decodeHex(encoded.result, fields.encoding, decodeFields)).result, hexOf(data))
        },
      ),
    )
  })

  test('round trip: Z85 of any multiple of 4 bytes, RFC 1924 of any 16 bytes', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, async (data) => {
        const whole = data.subarray(0, data.length - (data.length % 4))
        assert.equal((await decodeHex((await encodeHex(hexOf(whole), 'z85')).result, 'z85')).result, hexOf(whole))
      }),
    )
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 16, maxLength: 16 }), async (data) => {
        const encoded = (await encodeHex(hexOf(data), 'base85-rfc1924')).result
        assert.equal(encoded.length, 20)
        assert.equal((await decodeHex(encoded, 'base85-rfc1924')).result, hexOf(data))
      }),
    )
  })

  test('round trip: bech32 and bech32m of any bytes that fit, under any HRP, in either case', async () => {
    const hrp = fc.string({ unit: fc.integer({ min: 33, max: 126 }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 20 })
    await fc.assert(
      fc.asyncProperty(hrp, bytes, fc.constantFrom('bech32', 'bech32m'), async (prefix, data, encoding) => {
        fc.pre(!['bc', 'tb', 'bcrt'].includes(prefix.toLowerCase()))
        const fits = data.subarray(0, Math.floor(((BECH32_MAX_LENGTH - prefix.length - 7) * 5) / 8))
        const encoded = await encodeHex(hexOf(fits), encoding, { hrp: prefix })
        assert.ok(encoded.result.length <= BECH32_MAX_LENGTH)
        for (const text of [encoded.result, encoded.result.toUpperCase()]) {
          const decoded = await decodeHex(text, encoding)
          assert.equal(decoded.result, hexOf(fits))
          assert.equal(decoded.hrp, prefix.toLowerCase())
          assert.equal((decoded.words as number[]).length, Math.ceil((fits.length * 8) / 5))
        }
      }),
    )
  })

  test('any text in a radix alphabet decodes, and encodes back to itself', async () => {
    const alphabets: Array<[string, string]> = [
      ['base58', '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'],
      ['base62', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'],
      ['base36', '0123456789abcdefghijklmnopqrstuvwxyz'],
    ]
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...alphabets), fc.array(fc.nat(), { maxLength: 60 }), async ([encoding, alphabet], indexes) => {
        const text = indexes.map((index) => alphabet[index % alphabet.length]).join('')
        const decoded = await decodeHex(text, encoding)
        assert.equal((await encodeHex(decoded.result, encoding)).result, text)
      }),
    )
  })

  test('Ascii85 decoding ignores whitespace put anywhere; encodings write only their alphabets', async () => {
    await fc.assert(
      fc.asyncProperty(bytes, fc.array(fc.nat(), { maxLength: 5 }), async (data, spots) => {
        const encoded = (await encodeHex(hexOf(data), 'ascii85', { delimiters: false })).result
        let spaced = encoded
        for (const spot of spots) {
          const at = spot % (spaced.length + 1)
          spaced = `${spaced.slice(0, at)}\n ${spaced.slice(at)}`
        }
        assert.equal((await decodeHex(spaced, 'ascii85')).result, hexOf(data))
        assert.match(encoded, /^[!-uz]*$/)
        assert.match((await encodeHex(hexOf(data), 'base45')).result, /^[0-9A-Z $%*+\-./:]*$/)
      }),
    )
  })
})
