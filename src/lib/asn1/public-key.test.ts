import assert from 'node:assert/strict'
import { createPublicKey, generateKeyPairSync } from 'node:crypto'
import { describe, test } from 'node:test'
import { publicKeyFacts } from './public-key.ts'

describe('publicKeyFacts', () => {
  test('RFC 8037 A.2: the Ed25519 public key, with its SPKI pin', () => {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }, format: 'jwk' })
    const spki = key.export({ type: 'spki', format: 'der' }).toString('hex')
    assert.equal(spki, '302a300506032b6570032100d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a')
    const facts = publicKeyFacts(key)
    assert.deepEqual({ type: facts.type, bits: facts.bits }, { type: 'ed25519', bits: 256 })
    assert.equal(Buffer.from(facts.spkiSha256, 'base64').toString('hex'), facts.spkiSha256Hex)
  })

  test('names curves as JOSE does, sizes keys as OpenSSL does, and reads a private key through its public half', () => {
    const cases = [
      [generateKeyPairSync('ec', { namedCurve: 'P-384' }), { type: 'ec', bits: 384, curve: 'P-384' }],
      [generateKeyPairSync('ec', { namedCurve: 'secp521r1' }), { type: 'ec', bits: 521, curve: 'P-521' }],
      [generateKeyPairSync('ec', { namedCurve: 'secp256k1' }), { type: 'ec', bits: 256, curve: 'secp256k1' }],
      [generateKeyPairSync('ed448'), { type: 'ed448', bits: 456 }],
      [generateKeyPairSync('x25519'), { type: 'x25519', bits: 256 }],
      [generateKeyPairSync('rsa', { modulusLength: 1024, publicExponent: 3 }), { type: 'rsa', bits: 1024, exponent: '3' }],
    ] as const
    for (const [pair, expected] of cases) {
      const { spkiSha256, spkiSha256Hex, ...facts } = publicKeyFacts(pair.publicKey)
      assert.deepEqual(facts, expected)
      assert.equal(publicKeyFacts(pair.privateKey).spkiSha256, spkiSha256)
    }
  })
})
