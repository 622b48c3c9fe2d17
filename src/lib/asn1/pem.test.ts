import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { cpuTimeOf, expectRefusal } from '../../../test/expect.ts'
import { pemBlock, readPemBlocks } from './pem.ts'

const { publicKey, privateKey } = generateKeyPairSync('ed25519')
const SPKI_PEM = publicKey.export({ type: 'spki', format: 'pem' }) as string
const PKCS8_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
const SPKI_DER = publicKey.export({ type: 'spki', format: 'der' })
const PKCS8_DER = privateKey.export({ type: 'pkcs8', format: 'der' })

const read = (text: string, maxBlocks = 10) => Promise.resolve().then(() => readPemBlocks(text, maxBlocks))

describe('readPemBlocks', () => {
  test('reads every block in order, ignoring text before, between and after them, with CRLF line ends', () => {
    const text = `depth=0 CN = example\r\n${SPKI_PEM.replaceAll('\n', '\r\n')}some words between\r\n\r\n${PKCS8_PEM}trailing text`
    const blocks = readPemBlocks(text, 10)
    assert.deepEqual(
      blocks.map(({ index, label, line }) => ({ index, label, line })),
      [
        { index: 0, label: 'PUBLIC KEY', line: 2 },
        { index: 1, label: 'PRIVATE KEY', line: 7 },
      ],
    )
    assert.deepEqual(blocks[0].der, SPKI_DER)
    assert.deepEqual(blocks[1].der, PKCS8_DER)
  })

  test('drops whitespace around lines and inside the base64, and reads CR-only line ends', () => {
    const indented = SPKI_PEM.trimEnd()
      .split('\n')
      .map((line) => (line.startsWith('-----') ? `   ${line}  ` : `\t${line.slice(0, 10)} ${line.slice(10)}  `))
      .join('\r')
    assert.deepEqual(readPemBlocks(indented, 1)[0].der, SPKI_DER)
  })

  test('keeps RFC 1421 headers, with continuation lines, and decodes the base64 after the blank line', () => {
    const body = SPKI_PEM.split('\n').slice(1, -2).join('\n')
    const text = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,\n  5B01E932988DC66B\n\n${body}\n-----END RSA PRIVATE KEY-----\n`
    const [block] = readPemBlocks(text, 1)
    assert.deepEqual(block.headers, [
      { name: 'Proc-Type', value: '4,ENCRYPTED' },
      { name: 'DEK-Info', value: 'AES-128-CBC,5B01E932988DC66B' },
    ])
    assert.deepEqual(block.der, SPKI_DER)
  })

  test('reads the base64 that follows headers even without the blank line', () => {
    const body = SPKI_PEM.split('\n').slice(1, -2).join('\n')
    const [block] = readPemBlocks(`-----BEGIN X-----\nComment: made by hand\n${body}\n-----END X-----`, 1)
    assert.deepEqual(block.headers, [{ name: 'Comment', value: 'made by hand' }])
    assert.deepEqual(block.der, SPKI_DER)
  })

  test('a text without blocks gives none, and an empty block gives no bytes', () => {
    assert.deepEqual(readPemBlocks('no armour here\n-----BEGIN lower-case- label-----', 5), [])
    assert.equal(readPemBlocks('-----BEGIN EMPTY-----\n-----END EMPTY-----', 5)[0].der.length, 0)
  })

  test('refuses a block whose base64 is broken, naming the block, its label and the line', async () => {
    const broken = SPKI_PEM.replace(/\n(.)/, '\n*')
    await expectRefusal(read(`${PKCS8_PEM}\n${broken}`), {
      code: 'INVALID_INPUT',
      message: /PEM block 1 \(PUBLIC KEY\) is not base64 at line 6/,
      details: { block: 1, label: 'PUBLIC KEY', line: 6 },
    })
    await expectRefusal(read('-----BEGIN X-----\nAA==\nAAAA\n-----END X-----'), { code: 'INVALID_INPUT', message: /not whole base64/, details: { block: 0 } })
    await expectRefusal(read(SPKI_PEM.replace(/\n.(.)/, '\n$1')), { code: 'INVALID_INPUT', message: /truncated/ })
  })

  test('refuses a block that ends under another label, or never ends', async () => {
    await expectRefusal(read(SPKI_PEM.replace('END PUBLIC', 'END PRIVATE')), {
      code: 'INVALID_INPUT',
      message: /begins as "PUBLIC KEY" at line 1 but ends as "PRIVATE KEY" at line 3/,
      details: { block: 0, endLine: 3 },
    })
    await expectRefusal(read(SPKI_PEM.replace('-----END PUBLIC KEY-----', '')), { code: 'INVALID_INPUT', message: /has no "-----END PUBLIC KEY-----" line/ })
    await expectRefusal(read(SPKI_PEM.replace('-----END PUBLIC KEY-----', '') + PKCS8_PEM), { code: 'INVALID_INPUT', details: { block: 0, line: 1 } })
  })

  test('refuses more blocks than the limit rather than reading a part', async () => {
    await expectRefusal(read(SPKI_PEM.repeat(4), 3), { code: 'LIMIT_EXCEEDED', details: { limit: 3 } })
    assert.equal(readPemBlocks(SPKI_PEM.repeat(3), 3).length, 3)
  })

  test('pemBlock writes what readPemBlocks reads back, as 64-character lines', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.stringMatching(/^[A-Z0-9]+( [A-Z0-9]+)*$/), (bytes, label) => {
        const text = pemBlock(label, bytes)
        assert.ok(text.split('\n').every((line) => line.length <= 64 || line.startsWith('-----')))
        const [block] = readPemBlocks(text, 1)
        assert.equal(block.label, label)
        assert.deepEqual(new Uint8Array(block.der), bytes)
      }),
    )
    assert.equal(pemBlock('PUBLIC KEY', SPKI_DER), SPKI_PEM)
  })

  test('a megabyte of almost-boundaries and dashes is read in linear time', () => {
    for (const piece of ['-----BEGIN A-A-A-A-A-A-A-A-A-A\n', '-'.repeat(1000), '-----BEGIN X-----\n-----BEGIN Y-----\n']) {
      const text = piece.repeat(Math.ceil(2 ** 20 / piece.length))
      const cpu = cpuTimeOf(() => {
        try {
          readPemBlocks(text, 1_000)
        } catch {}
      })
      assert.ok(cpu < 1_000, `${JSON.stringify(piece.slice(0, 20))}: ${cpu} ms`)
    }
  })
})
