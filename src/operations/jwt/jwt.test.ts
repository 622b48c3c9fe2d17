import assert from 'node:assert/strict'
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { jwt } from './index.ts'

const run = (input: Record<string, unknown>) => execute(jwt, input)
const refuses = (input: Record<string, unknown>, code: string, pattern: RegExp) => expectRefusal(run(input), { code, message: pattern })

// RFC 7515 Appendix A.1 (also RFC 7519 §3.1): the HS256 token and its key, a JWK of random bytes.
const A1_TOKEN =
  'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
const A1_KEY = { kty: 'oct', k: 'AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow' }
const A_PAYLOAD = { iss: 'joe', exp: 1300819380, 'http://example.com/is_root': true }
const A_PAYLOAD_PART = 'eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ'
const BEFORE_EXPIRY = 1300819000

// RFC 7515 Appendix A.2: RS256, its RSA key and signature.
const A2_PUBLIC = {
  kty: 'RSA',
  n: 'ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ',
  e: 'AQAB',
}
const A2_PRIVATE = {
  ...A2_PUBLIC,
  d: 'Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ',
  p: '4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc',
  q: 'uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc',
  dp: 'BwKfV3Akq5_MFZDFZCnW-wzl-CCo83WoZvnLQwCTeDv8uzluRSnm71I3QCLdhrqE2e9YkxvuxdBfpT_PI7Yz-FOKnu1R6HsJeDCjn12Sk3vmAktV2zb34MCdy7cpdTh_YVr7tss2u6vneTwrA86rZtu5Mbr1C1XsmvkxHQAdYo0',
  dq: 'h_96-mK1R_7glhsum81dZxjTnYynPbZpHziZjeeHcXYsXaaMwkOlODsWa7I9xXDoRwbKgB719rrmI2oKr6N3Do9U0ajaHF-NKJnwgjMd2w9cjz3_-kyNlxAr2v4IKhGNpmM5iIgOS1VZnOZ68m6_pbLBSp3nssTdlqvd0tIiTHU',
  qi: 'IYd7DHOhrWvxkwPQsRM2tOgrjbcrfvtQJipd-DlcxyVuuM9sQLdgjVk2oy26F0EmpScGLq2MowX7fhd_QJQ3ydy5cY7YIBi87w93IKLEdfnbJtoOPLUW0ITrJReOgo1cq9SbsxYawBgfp_gh6A5603k2-ZQwVK0JKSHuLFkuQ3U',
}
const A2_TOKEN = `eyJhbGciOiJSUzI1NiJ9.${A_PAYLOAD_PART}.cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw`
const A2_PUBLIC_PEM = createPublicKey({ key: A2_PUBLIC, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string

// RFC 7515 Appendix A.3: ES256 (P-256), its public key and a signature.
const A3_PUBLIC = { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }
const A3_TOKEN = `eyJhbGciOiJFUzI1NiJ9.${A_PAYLOAD_PART}.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q`

// RFC 7515 Appendix A.5 (and RFC 7519 §6.1): an unsecured JWS, alg "none".
const A5_TOKEN = `eyJhbGciOiJub25lIn0.${A_PAYLOAD_PART}.`

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
/** A token signed here with node:crypto alone, so the operation is checked against something other than jose. */
function hs256(header: object, payload: object, secret: string | Buffer) {
  const signingInput = `${b64url(header)}.${b64url(payload)}`
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`
}

describe('jwt decode', () => {
  test('RFC 7519 §3.1: header, claims, signature, dates, expired, and that nothing was verified', async () => {
    const data = await run({ input: A1_TOKEN, at: BEFORE_EXPIRY })
    assert.deepEqual(data.result, A_PAYLOAD)
    assert.deepEqual(data.header, { typ: 'JWT', alg: 'HS256' })
    assert.equal(data.signature, 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')
    assert.deepEqual(data.dates, { exp: '2011-03-22T18:43:00.000Z' })
    assert.equal(data.expired, false)
    assert.equal(data.verified, false)
    assert.match((data.warnings as string[])[0], /^Nothing was verified/)
    assert.equal((await run({ input: A1_TOKEN })).expired, true)
    assert.equal((await run({ input: A1_TOKEN, at: 1300819380 })).expired, true, 'exp is the first instant it is no longer valid')
  })

  test('decode reads unsecured tokens too (RFC 7515 A.5), and tokens without dates', async () => {
    assert.deepEqual((await run({ input: A5_TOKEN })).result, A_PAYLOAD)
    const data = await run({ input: hs256({ alg: 'HS256' }, { sub: 'x', iat: 'soon' }, 's') })
    assert.deepEqual([data.dates, data.expired], [{}, false])
  })

  test('what is not a JWT is a 422; a missing input a 400', async () => {
    await refuses({ input: 'abc' }, 'INVALID_INPUT', /three parts .* this has 1/)
    await refuses({ input: 'a.b.c.d' }, 'INVALID_INPUT', /this has 4/)
    await expectRefusal(run({ input: 'eyJhbGciOiJIUzI1NiJ9.e30+.sig' }), { code: 'INVALID_INPUT', position: 21, message: /payload .* is not base64url/ })
    await refuses({ input: `${Buffer.from('not json').toString('base64url')}.e30.` }, 'INVALID_INPUT', /not a JWT/)
    await refuses({ input: `${b64url({ alg: 'HS256' })}.${b64url([1, 2])}.` }, 'INVALID_INPUT', /not a JWT/)
    await refuses({ input: `.${A_PAYLOAD_PART}.` }, 'INVALID_INPUT', /header .* not base64url/)
    await expectRefusal(run({}), { code: 'VALIDATION_ERROR', field: 'input' })
  })
})

describe('jwt verify', () => {
  const verify = (input: Record<string, unknown>) => run({ action: 'verify', at: BEFORE_EXPIRY, ...input })

  test('RFC 7515 A.1 (HS256): the key as an oct JWK, as base64url, as hex, as JSON text', async () => {
    const bytes = Buffer.from(A1_KEY.k, 'base64url')
    for (const keying of [
      { key: A1_KEY },
      { key: JSON.stringify(A1_KEY) },
      { secret: A1_KEY.k, secretEncoding: 'base64url' },
      { secret: bytes.toString('hex'), secretEncoding: 'hex' },
      { secret: bytes.toString('hex').toUpperCase(), secretEncoding: 'hex' },
    ]) {
      const data = await verify({ input: A1_TOKEN, ...keying })
      assert.deepEqual(data, {
        result: true,
        action: 'verify',
        valid: true,
        header: { typ: 'JWT', alg: 'HS256' },
        payload: A_PAYLOAD,
        dates: { exp: '2011-03-22T18:43:00.000Z' },
      })
    }
    const wrong = await verify({ input: A1_TOKEN, secret: A1_KEY.k })
    assert.deepEqual([wrong.valid, wrong.reason, wrong.payload], [false, 'badSignature', undefined], 'the base64url text taken as UTF-8 is another key')
  })

  test('RFC 7515 A.2 (RS256) with the public JWK, its PEM, and the private JWK; A.3 (ES256)', async () => {
    for (const key of [A2_PUBLIC, A2_PUBLIC_PEM, A2_PRIVATE]) assert.equal((await verify({ input: A2_TOKEN, key })).valid, true)
    assert.equal((await verify({ input: A3_TOKEN, key: A3_PUBLIC })).valid, true)
    const tampered = `${A2_TOKEN.slice(0, -2)}${A2_TOKEN.endsWith('w') ? 'x' : 'w'}w`
    assert.equal((await verify({ input: tampered, key: A2_PUBLIC })).reason, 'badSignature')
  })

  test('alg none is always refused (RFC 7515 A.5), in any letter case', async () => {
    for (const token of [A5_TOKEN, `${b64url({ alg: 'nOnE' })}.${A_PAYLOAD_PART}.`]) {
      const data = await verify({ input: token, key: A1_KEY })
      assert.deepEqual([data.valid, data.reason], [false, 'algNone'])
    }
  })

  test('algorithm confusion (RFC 8725 §2.1): an RSA public key is never taken as an HMAC secret', async () => {
    // The attack: sign HS256 with the text of the server's public key as the HMAC secret.
    const forged = hs256({ alg: 'HS256', typ: 'JWT' }, { sub: 'admin' }, A2_PUBLIC_PEM)
    for (const key of [A2_PUBLIC_PEM, A2_PUBLIC]) {
      const data = await verify({ input: forged, key })
      assert.deepEqual([data.valid, data.reason], [false, 'wrongKeyType'])
      assert.match(data.message as string, /HS256 needs a secret .* the key given is an RSA key/)
    }
    assert.equal((await verify({ input: A2_TOKEN, secret: 'anything' })).reason, 'wrongKeyType')
    assert.equal((await verify({ input: A3_TOKEN, key: A2_PUBLIC })).reason, 'wrongKeyType')
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' })
    assert.match((await verify({ input: A3_TOKEN, key: p384 })).message as string, /ES256 needs an EC key on P-256, and the key given is an EC key on P-384/)
    assert.equal((await verify({ input: A1_TOKEN, key: { ...A1_KEY, alg: 'HS512' } })).reason, 'wrongKeyType')
  })

  test('the algorithms allow-list, and algorithms not supported', async () => {
    assert.equal((await verify({ input: A1_TOKEN, key: A1_KEY, algorithms: ['HS256'] })).valid, true)
    assert.equal((await verify({ input: A1_TOKEN, key: A1_KEY, algorithms: ['RS256', 'ES256'] })).reason, 'algorithmNotAllowed')
    assert.equal((await verify({ input: hs256({ alg: 'HS1' }, {}, 'k'), secret: 'k' })).reason, 'unsupportedAlgorithm')
  })

  test('exp and nbf as of at, with the clock tolerance', async () => {
    assert.equal((await verify({ input: A1_TOKEN, key: A1_KEY, at: 1300819380 })).reason, 'expired')
    assert.equal((await verify({ input: A1_TOKEN, key: A1_KEY, at: 1300819385, clockToleranceSeconds: 10 })).valid, true)
    const early = hs256({ alg: 'HS256' }, { nbf: 2000, exp: 3000 }, 'k')
    assert.equal((await verify({ input: early, secret: 'k', at: 1990 })).reason, 'notYetValid')
    assert.equal((await verify({ input: early, secret: 'k', at: 1990, clockToleranceSeconds: 10 })).valid, true)
    assert.equal((await verify({ input: early, secret: 'k', at: 2500 })).valid, true)
    assert.equal((await verify({ input: hs256({ alg: 'HS256' }, { exp: 'tomorrow' }, 'k'), secret: 'k' })).reason, 'invalidClaim')
  })

  test('issuer and audience', async () => {
    assert.equal((await verify({ input: A1_TOKEN, key: A1_KEY, issuer: 'joe' })).valid, true)
    assert.equal((await verify({ input: A1_TOKEN, key: A1_KEY, issuer: 'jane' })).reason, 'issuerMismatch')
    const token = hs256({ alg: 'HS256' }, { aud: ['api', 'web'] }, 'k')
    assert.equal((await verify({ input: token, secret: 'k', audience: 'web' })).valid, true)
    assert.equal((await verify({ input: token, secret: 'k', audience: 'admin' })).reason, 'audienceMismatch')
    assert.equal((await verify({ input: A1_TOKEN, key: A1_KEY, audience: 'api' })).reason, 'audienceMismatch', 'no aud claim at all')
  })

  test('a key that cannot be read, or none, or both: 422 and 400 that never quote the key', async () => {
    const marker = 'VERY-SECRET-MATERIAL'
    for (const [keying, code] of [
      [{ key: `-----BEGIN PUBLIC KEY-----\n${marker}\n-----END PUBLIC KEY-----` }, 'INVALID_INPUT'],
      [{ key: `{"kty": "RSA", "n": "${marker}"` }, 'INVALID_INPUT'],
      [{ key: { kty: 'RSA', n: marker, e: 'AQAB' } }, 'INVALID_INPUT'],
      [{ key: { n: marker } }, 'INVALID_INPUT'],
      [{ secret: `${marker}!`, secretEncoding: 'base64url' }, 'INVALID_INPUT'],
      [{ secret: marker, secretEncoding: 'hex' }, 'INVALID_INPUT'],
      [{ secret: marker, key: A1_KEY }, 'VALIDATION_ERROR'],
      [{}, 'VALIDATION_ERROR'],
    ] as const) {
      const token = 'key' in keying && typeof keying.key !== 'object' ? A2_TOKEN : 'secret' in keying ? A1_TOKEN : A2_TOKEN
      await expectRefusal(verify({ input: token, ...keying }), {
        code,
        check: (error) => !JSON.stringify([error.message, error.details]).includes(marker),
      })
    }
  })
})

describe('jwt sign', () => {
  test('HS256 with a UTF-8 secret gives the token node:crypto computes', async () => {
    const secret = 'a-string-secret-at-least-256-bits-long'
    const data = await run({ action: 'sign', payload: { sub: '42' }, secret })
    assert.equal(data.result, hs256({ alg: 'HS256', typ: 'JWT' }, { sub: '42' }, secret))
    assert.deepEqual(data.warnings, [])
  })

  test('round trips: anything signed verifies and decodes to the same claims', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), fc.uint8Array({ minLength: 1, maxLength: 80 }), async (payload, secret) => {
        const claims = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>
        const hex = Buffer.from(secret).toString('hex')
        const token = (await run({ action: 'sign', payload: claims, secret: hex, secretEncoding: 'hex', algorithm: 'HS384' })).result
        const checked = await run({ action: 'verify', input: token, secret: hex, secretEncoding: 'hex' })
        if ('exp' in claims || 'nbf' in claims || 'iat' in claims || 'iss' in claims || 'aud' in claims) return
        assert.equal(checked.valid, true)
        assert.deepEqual(checked.payload, claims)
      }),
      { numRuns: 60 },
    )
  })

  test('every asymmetric algorithm, with PEM and JWK private keys; the public half verifies', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const pairs: Array<[string, ReturnType<typeof generateKeyPairSync>]> = [
      ['RS256', rsa],
      ['RS512', rsa],
      ['PS256', rsa],
      ['PS384', rsa],
      ['ES256', generateKeyPairSync('ec', { namedCurve: 'P-256' })],
      ['ES384', generateKeyPairSync('ec', { namedCurve: 'P-384' })],
      ['ES512', generateKeyPairSync('ec', { namedCurve: 'P-521' })],
      ['EdDSA', generateKeyPairSync('ed25519')],
    ]
    for (const [algorithm, { privateKey, publicKey }] of pairs) {
      for (const key of [privateKey.export({ type: 'pkcs8', format: 'pem' }), privateKey.export({ format: 'jwk' })]) {
        const token = (await run({ action: 'sign', payload: { sub: algorithm }, key, algorithm })).result as string
        const checked = await run({ action: 'verify', input: token, key: publicKey.export({ type: 'spki', format: 'pem' }), algorithms: [algorithm] })
        assert.deepEqual([algorithm, checked.valid, checked.payload], [algorithm, true, { sub: algorithm }])
      }
    }
    // RSASSA-PKCS1-v1_5 is deterministic: with RFC 7515 A.2's key, the signature is the one node:crypto computes.
    const token = (await run({ action: 'sign', payload: { a: 1 }, key: A2_PRIVATE, algorithm: 'RS256' })).result as string
    const signingInput = token.slice(0, token.lastIndexOf('.'))
    const expected = sign('sha256', Buffer.from(signingInput), createPrivateKey({ key: A2_PRIVATE, format: 'jwk' })).toString('base64url')
    assert.equal(token, `${signingInput}.${expected}`)
    assert.equal((await run({ action: 'verify', input: token, key: A2_PUBLIC })).valid, true)
  })

  test('expiresInSeconds adds iat and exp from at; the secret’s length is checked against RFC 7518 §3.2', async () => {
    const data = await run({ action: 'sign', payload: { sub: '1' }, secret: 'short', expiresInSeconds: 60, at: 1000 })
    assert.deepEqual(data.payload, { sub: '1', iat: 1000, exp: 1060 })
    assert.deepEqual(data.warnings, ['The secret is 5 bytes; RFC 7518 §3.2 asks for at least 32 for HS256, and a short secret can be guessed'])
    assert.equal((await run({ action: 'verify', input: data.result, secret: 'short', at: 1059 })).valid, true)
    assert.equal((await run({ action: 'verify', input: data.result, secret: 'short', at: 1060 })).reason, 'expired')
    await expectRefusal(run({ action: 'sign', payload: { exp: 5 }, secret: 's', expiresInSeconds: 60 }), {
      code: 'VALIDATION_ERROR',
      field: 'expiresInSeconds',
    })
  })

  test('a key that does not suit the algorithm, a public key, or no payload', async () => {
    await refuses({ action: 'sign', payload: {}, secret: 'k', algorithm: 'RS256' }, 'INVALID_INPUT', /RS256 needs an RSA key, and the key given is a secret/)
    await refuses({ action: 'sign', payload: {}, key: A2_PRIVATE, algorithm: 'ES256' }, 'INVALID_INPUT', /ES256 needs an EC key on P-256/)
    await refuses({ action: 'sign', payload: {}, key: A2_PUBLIC, algorithm: 'RS256' }, 'INVALID_INPUT', /needs a private key/)
    await refuses({ action: 'sign', payload: {}, key: A2_PUBLIC_PEM, algorithm: 'RS256' }, 'INVALID_INPUT', /not a PEM private key/)
    await expectRefusal(run({ action: 'sign', secret: 'k' }), { code: 'VALIDATION_ERROR', field: 'payload' })
  })
})
