import { createPrivateKey, createPublicKey } from 'node:crypto'
import type { JWK, JWTPayload } from 'jose'
import { Type } from 'typebox'
import { invalidInput, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'

type Jose = typeof import('jose')
/** jose, loaded with the first token (see lazily). */
export const jose = lazily(() => import('jose'))

const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const
const ALGORITHMS = [...HMAC_ALGORITHMS, 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const
type Algorithm = (typeof ALGORITHMS)[number]
const SECRET_ENCODINGS = ['utf8', 'base64url', 'hex'] as const
type SecretEncoding = (typeof SECRET_ENCODINGS)[number]

const REASONS = [
  'algNone',
  'unsupportedAlgorithm',
  'algorithmNotAllowed',
  'wrongKeyType',
  'badSignature',
  'expired',
  'notYetValid',
  'issuerMismatch',
  'audienceMismatch',
  'invalidClaim',
] as const
type Reason = (typeof REASONS)[number]

const NOT_VERIFIED = 'Nothing was verified: decode reads the token without checking its signature or its claims; use verify before trusting them.'

/** The kind of key an algorithm needs (RFC 7518 §3.1, RFC 8037 §3.1), as a JWK's `kty` and, for curves, `crv`. */
function keyKindFor(algorithm: Algorithm): { kty: string; crv?: string; name: string } {
  if (algorithm.startsWith('HS')) return { kty: 'oct', name: 'a secret (secret, or an oct JWK)' }
  if (algorithm.startsWith('RS') || algorithm.startsWith('PS')) return { kty: 'RSA', name: 'an RSA key' }
  if (algorithm === 'EdDSA') return { kty: 'OKP', crv: 'Ed25519', name: 'an Ed25519 key' }
  const crv = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[algorithm as 'ES256' | 'ES384' | 'ES512']
  return { kty: 'EC', crv, name: `an EC key on ${crv}` }
}

function describeKey(jwk: JWK): string {
  if (jwk.kty === 'oct') return 'a secret'
  // RSA, EC and OKP all take 'an'.
  return jwk.crv ? `an ${jwk.kty} key on ${jwk.crv}` : `an ${jwk.kty} key`
}

/** The secret's bytes; a malformed secret is described without a character of it. */
function secretBytes(secret: string, encoding: SecretEncoding): Buffer {
  if (encoding === 'utf8') return Buffer.from(secret, 'utf8')
  if (encoding === 'hex') {
    if (!/^(?:[0-9a-fA-F]{2})+$/.test(secret)) throw invalidInput('secret is not valid hex: it must be pairs of hex digits', { field: 'secret' })
    return Buffer.from(secret, 'hex')
  }
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(secret) || secret.replace(/=+$/, '').length % 4 === 1) {
    throw invalidInput('secret is not valid base64url: only A–Z, a–z, 0–9, - and _ are allowed, in a length that encodes whole bytes', { field: 'secret' })
  }
  return Buffer.from(secret, 'base64url')
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth']

/**
 * The key as a JWK: a JWK object or its JSON text, or a PEM (SPKI, PKCS#1, PKCS#8, SEC1 or an X.509
 * certificate) read by node:crypto. For verify, a private key gives its public half. No message
 * quotes any part of the key.
 */
function keyAsJwk(key: string | object, purpose: 'sign' | 'verify'): JWK {
  let jwk: JWK
  if (typeof key === 'object') jwk = key as JWK
  else if (key.trimStart().startsWith('{')) {
    try {
      jwk = JSON.parse(key) as JWK
    } catch {
      throw invalidInput('key starts with { but is not JSON text; give a JWK as an object or as JSON text, or a PEM', { field: 'key' })
    }
  } else {
    try {
      const keyObject = purpose === 'sign' ? createPrivateKey(key) : createPublicKey(key)
      if (keyObject.type === 'secret') throw new Error('secret')
      jwk = keyObject.export({ format: 'jwk' }) as JWK
    } catch {
      throw invalidInput(
        purpose === 'sign'
          ? 'key is not a PEM private key (PKCS#8, PKCS#1 or SEC1) nor a JWK'
          : 'key is not a PEM public key, private key or certificate, nor a JWK',
        { field: 'key' },
      )
    }
  }
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk) || typeof jwk.kty !== 'string') {
    throw invalidInput('key is not a JWK: it needs a "kty" member (oct, RSA, EC or OKP)', { field: 'key' })
  }
  if (purpose === 'verify' && jwk.kty !== 'oct') {
    const { key_ops: _ops, ...rest } = jwk
    return Object.fromEntries(Object.entries(rest).filter(([member]) => !PRIVATE_MEMBERS.includes(member))) as JWK
  }
  if (purpose === 'sign' && jwk.kty !== 'oct' && typeof jwk.d !== 'string')
    throw invalidInput('sign needs a private key; the key given is public', { field: 'key' })
  const { key_ops: _ops, ...rest } = jwk
  return rest as JWK
}

interface KeyFields {
  secret?: string
  secretEncoding: SecretEncoding
  key?: string | object
}

/** The key material given, as a JWK, or a 400 when there is none or both kinds. */
function givenKey({ secret, secretEncoding, key }: KeyFields, purpose: 'sign' | 'verify'): JWK {
  if (secret !== undefined && key !== undefined)
    throw validationError('secret', 'and key cannot both be given: secret is for HS256/384/512, key for a PEM or JWK')
  if (secret !== undefined) return { kty: 'oct', k: secretBytes(secret, secretEncoding).toString('base64url') }
  if (key !== undefined) return keyAsJwk(key, purpose)
  throw validationError('secret', `or key is required to ${purpose}: a secret for HS256/384/512, or a PEM or JWK key`)
}

/** Why a key cannot serve an algorithm (RFC 8725 §3.1: the key decides the algorithm, not the token), or undefined. */
function keyMismatch(jwk: JWK, algorithm: Algorithm): string | undefined {
  const needed = keyKindFor(algorithm)
  if (jwk.kty !== needed.kty || (needed.crv !== undefined && jwk.crv !== needed.crv))
    return `${algorithm} needs ${needed.name}, and the key given is ${describeKey(jwk)}`
  if (typeof jwk.alg === 'string' && jwk.alg !== algorithm) return `the key is for ${jwk.alg} (its "alg" member), not ${algorithm}`
  return undefined
}

async function importFor({ importJWK }: Jose, jwk: JWK, algorithm: Algorithm) {
  try {
    return await importJWK(jwk, algorithm)
  } catch {
    throw invalidInput(`key could not be read as ${keyKindFor(algorithm).name} for ${algorithm}`, { field: 'key' })
  }
}

/** NumericDate claims (RFC 7519 §2) as ISO 8601 dates, where they are numbers a date can hold. */
function claimDates(payload: JWTPayload): Record<string, string> {
  const dates: Record<string, string> = {}
  for (const claim of ['exp', 'nbf', 'iat'] as const) {
    const value = payload[claim]
    const date = typeof value === 'number' ? new Date(value * 1000) : undefined
    if (date && !Number.isNaN(date.getTime())) dates[claim] = date.toISOString()
  }
  return dates
}

/** The header and claims of a compact JWS; anything that is not one is a 422. */
export function readToken({ decodeJwt, decodeProtectedHeader }: Jose, token: string) {
  const parts = token.split('.')
  if (parts.length !== 3) {
    throw invalidInput(`input is not a JWT: a compact JWT has three parts separated by '.', and this has ${parts.length}`, { field: 'input' })
  }
  const badPart = parts.findIndex((part, index) => !/^[A-Za-z0-9_-]*$/.test(part) || (index < 2 && part === ''))
  if (badPart >= 0) {
    const position = parts.slice(0, badPart).join('.').length + (badPart > 0 ? 1 : 0)
    throw invalidInput(`input is not a JWT: its ${['header', 'payload', 'signature'][badPart]} (from position ${position}) is not base64url`, {
      field: 'input',
      position,
    })
  }
  try {
    return { header: decodeProtectedHeader(token), payload: decodeJwt(token), signature: parts[2] }
  } catch (error) {
    throw invalidInput(`input is not a JWT: ${(error as Error).message}`, { field: 'input' })
  }
}

const nowInSeconds = () => Math.floor(Date.now() / 1000)

function decode(jose: Jose, token: string, at: number | undefined) {
  const { header, payload, signature } = readToken(jose, token)
  const expired = typeof payload.exp === 'number' && (at ?? nowInSeconds()) >= payload.exp
  return { result: payload, action: 'decode' as const, header, signature, dates: claimDates(payload), expired, verified: false, warnings: [NOT_VERIFIED] }
}

interface VerifyFields extends KeyFields {
  algorithms?: Algorithm[]
  clockToleranceSeconds: number
  at?: number
  issuer?: string
  audience?: string
}

const invalid = (header: Record<string, unknown>, reason: Reason, message: string) => ({
  result: false,
  action: 'verify' as const,
  valid: false,
  reason,
  message,
  header,
})

/** The reason jose gives for refusing a token it could read. */
function reasonOf({ errors }: Jose, error: unknown): [Reason, string] | undefined {
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return ['badSignature', 'The signature does not match: the token was not signed with this key, or was changed after signing']
  if (error instanceof errors.JWTExpired) return ['expired', `The token has expired (its exp claim is past, beyond the clock tolerance)`]
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return ['notYetValid', 'The token is not valid yet (its nbf claim is in the future, beyond the clock tolerance)']
    if (error.claim === 'iss') return ['issuerMismatch', 'The token’s iss claim is not the issuer expected']
    if (error.claim === 'aud') return ['audienceMismatch', 'The token’s aud claim does not include the audience expected']
    return ['invalidClaim', `The token’s ${error.claim} claim is not valid: ${error.reason}`]
  }
  return undefined
}

async function verify(jose: Jose, token: string, fields: VerifyFields) {
  const { header } = readToken(jose, token)
  const algorithm = header.alg
  if (typeof algorithm === 'string' && algorithm.toLowerCase() === 'none') {
    return invalid(header, 'algNone', 'The token is unsecured (alg "none"); such a token is always refused, whatever the key')
  }
  if (!(ALGORITHMS as readonly unknown[]).includes(algorithm)) {
    return invalid(header, 'unsupportedAlgorithm', `The token’s alg ${JSON.stringify(algorithm)} is not one of ${ALGORITHMS.join(', ')}`)
  }
  const alg = algorithm as Algorithm
  if (fields.algorithms && !fields.algorithms.includes(alg)) {
    return invalid(header, 'algorithmNotAllowed', `The token’s alg ${alg} is not in algorithms (${fields.algorithms.join(', ')})`)
  }
  const jwk = givenKey(fields, 'verify')
  const mismatch = keyMismatch(jwk, alg)
  if (mismatch) return invalid(header, 'wrongKeyType', `The key cannot verify this token: ${mismatch}`)
  const key = await importFor(jose, jwk, alg)
  try {
    const { payload } = await jose.jwtVerify(token, key, {
      algorithms: [alg],
      currentDate: new Date((fields.at ?? nowInSeconds()) * 1000),
      clockTolerance: fields.clockToleranceSeconds,
      ...(fields.issuer === undefined ? {} : { issuer: fields.issuer }),
      ...(fields.audience === undefined ? {} : { audience: fields.audience }),
    })
    return { result: true, action: 'verify' as const, valid: true, header, payload, dates: claimDates(payload) }
  } catch (error) {
    const reason = reasonOf(jose, error)
    if (reason) return invalid(header, ...reason)
    throw invalidInput(`input could not be verified: ${(error as Error).message}`, { field: 'input' })
  }
}

/** RFC 7518 §3.2: an HMAC key must be at least as long as the hash's output. */
const MIN_SECRET_BYTES: Record<string, number> = { HS256: 32, HS384: 48, HS512: 64 }

interface SignFields extends KeyFields {
  payload?: Record<string, unknown>
  algorithm: Algorithm
  expiresInSeconds?: number
  at?: number
}

async function sign(jose: Jose, fields: SignFields) {
  if (fields.payload === undefined) throw validationError('payload', 'is required for sign: the claims, as an object')
  const { algorithm, expiresInSeconds } = fields
  const jwk = givenKey(fields, 'sign')
  const mismatch = keyMismatch(jwk, algorithm)
  if (mismatch) throw invalidInput(`The key cannot sign with ${algorithm}: ${mismatch}; choose algorithm to suit the key`, { field: 'key' })
  const warnings: string[] = []
  if (jwk.kty === 'oct') {
    const bytes = Buffer.from(jwk.k ?? '', 'base64url').length
    if (bytes < MIN_SECRET_BYTES[algorithm]) {
      warnings.push(
        `The secret is ${bytes} bytes; RFC 7518 §3.2 asks for at least ${MIN_SECRET_BYTES[algorithm]} for ${algorithm}, and a short secret can be guessed`,
      )
    }
  }
  const claims: Record<string, unknown> = { ...fields.payload }
  if (expiresInSeconds !== undefined) {
    if ('exp' in claims) throw validationError('expiresInSeconds', 'cannot be given with a payload that has an exp claim already')
    const issuedAt = fields.at ?? nowInSeconds()
    claims.iat ??= issuedAt
    claims.exp = issuedAt + expiresInSeconds
  }
  const key = await importFor(jose, jwk, algorithm)
  const header = { alg: algorithm, typ: 'JWT' }
  const token = await new jose.SignJWT(claims as JWTPayload).setProtectedHeader(header).sign(key)
  return { result: token, action: 'sign' as const, header, payload: claims, warnings }
}

const AT_MAXIMUM = 253_402_300_799

/** The examples' token and key: RFC 7515 appendix A.1 (HS256; the key is the JWK's random bytes, base64url). */
const RFC7515_A1_TOKEN =
  'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
const RFC7515_A1_KEY = 'AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow'

export const jwt = defineOperation({
  name: 'jwt',
  category: 'encoders',
  summary: 'Decode, verify or sign a JSON Web Token (RFC 7519)',
  title: 'JSON Web Token (JWT)',
  aliases: ['json web token', 'bearer token', 'jws', 'decode token', 'verify token', 'sign token', 'claims'],
  description:
    '`decode` reads a compact JWT without checking anything: its header, payload (the result) and signature, the exp/nbf/iat claims also as ISO dates, and whether it has expired; it says plainly that nothing was verified. ' +
    '`verify` checks the signature with `secret` (HS256/384/512; UTF-8 text, base64url or hex bytes) or `key` (a PEM public key, private key or certificate, or a JWK, including an oct JWK for HMAC) for RS*, PS*, ES* and EdDSA, ' +
    'then exp and nbf as of `at` (within `clockToleranceSeconds`) and, when given, `issuer` and `audience`. A token that does not verify is still a 200: `valid` is false and `reason` says why ' +
    '(algNone, unsupportedAlgorithm, algorithmNotAllowed, wrongKeyType, badSignature, expired, notYetValid, issuerMismatch, audienceMismatch, invalidClaim); a token that cannot be read at all, or a key that cannot, is a 422. ' +
    'alg "none" is always refused, and so is a key of the wrong kind for the token’s alg (RFC 8725’s algorithm confusion: an RSA public key is never used as an HMAC secret). ' +
    '`sign` makes a token of a `payload` with a secret or a private key (header {alg, typ: "JWT"}); `expiresInSeconds` adds iat and exp counted from `at`. ' +
    'Secrets and keys are never echoed, logged or described in errors.',
  input: Type.Object(
    {
      input: Type.Optional(
        Type.String({
          maxLength: 65_536,
          writeOnly: true,
          description:
            'decode and verify: the compact JWT (header.payload.signature), a bearer credential. Required for them; sign takes `payload` instead and ignores it.',
          examples: [RFC7515_A1_TOKEN],
        }),
      ),
      action: withDefault(
        Type.Enum(['decode', 'verify', 'sign'], { description: 'Read the token (`decode`), check it (`verify`), or make one (`sign`).' }),
        'decode',
      ),
      secret: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 4096,
          writeOnly: true,
          description: 'verify and sign with HS256/384/512: the shared secret, written in `secretEncoding`. Never echoed back, never logged.',
        }),
      ),
      secretEncoding: withDefault(
        Type.Enum(SECRET_ENCODINGS, {
          description: 'How `secret` is turned into bytes: UTF-8 text, or bytes written as base64url or hex (real HMAC keys are often random bytes).',
        }),
        'utf8',
      ),
      key: Type.Optional(
        Type.Union([Type.String({ minLength: 1, maxLength: 16_384 }), Type.Object({}, { additionalProperties: true })], {
          writeOnly: true,
          description:
            'verify: a PEM public key, private key or X.509 certificate, or a JWK (an object or its JSON text; kty oct for HMAC). sign: a PEM or JWK private key (or an oct JWK). Never echoed back, never logged.',
        }),
      ),
      algorithms: Type.Optional(
        Type.Array(Type.Enum(ALGORITHMS), {
          minItems: 1,
          uniqueItems: true,
          description:
            'verify: the algorithms accepted; a token with any other alg is not valid (reason algorithmNotAllowed). Without it, any alg the key fits.',
        }),
      ),
      clockToleranceSeconds: withDefault(
        Type.Integer({ minimum: 0, maximum: 86_400, description: 'verify: seconds of leeway when checking exp and nbf, 0 to 86400.' }),
        0,
      ),
      at: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: AT_MAXIMUM,
          description:
            'The time to judge by, in Unix seconds (default now): verify checks exp and nbf as of it, decode says whether the token had expired by then, sign counts iat and exp from it.',
        }),
      ),
      issuer: Type.Optional(Type.String({ maxLength: 1024, description: 'verify: the iss claim required (exact match).' })),
      audience: Type.Optional(Type.String({ maxLength: 1024, description: 'verify: an audience the aud claim must name (aud may be a string or an array).' })),
      payload: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), { description: 'sign: the claims, a JSON object, e.g. {"sub": "42", "admin": true}. Required for sign.' }),
      ),
      algorithm: withDefault(
        Type.Enum(ALGORITHMS, {
          description: 'sign: the algorithm; it must suit the key (HS* a secret, RS*/PS* RSA, ES256/384/512 P-256/384/521, EdDSA Ed25519).',
        }),
        'HS256',
      ),
      expiresInSeconds: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 315_360_000,
          description: 'sign: adds exp this many seconds after `at` (and iat, unless the payload has one), 1 to 315,360,000 (ten years).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({ description: 'decode: the payload (claims). verify: whether the token is valid. sign: the token.' }),
    action: Type.Enum(['decode', 'verify', 'sign'], { description: 'The action performed.' }),
    valid: Type.Optional(Type.Boolean({ description: 'verify: whether the signature and the claims checked are valid.' })),
    reason: Type.Optional(Type.Enum(REASONS, { description: 'verify, when not valid: why, as a code.' })),
    message: Type.Optional(Type.String({ description: 'verify, when not valid: why, in a sentence.' })),
    header: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'The protected header.' })),
    payload: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'verify, when valid: the verified claims. sign: the claims signed.' })),
    signature: Type.Optional(Type.String({ description: 'decode: the signature, base64url, as in the token.' })),
    dates: Type.Optional(
      Type.Record(Type.String(), Type.String({ format: 'date-time' }), {
        description: 'decode, and verify when valid: the exp, nbf and iat claims as ISO 8601 dates (those present as numbers).',
        // How a reader says each date against now: "expired 3 days ago", "expires in 2 h".
        'x-relative': {
          exp: { past: 'expired', future: 'expires' },
          nbf: { past: 'valid since', future: 'valid from' },
          iat: { past: 'issued', future: 'issued' },
        },
      }),
    ),
    expired: Type.Optional(Type.Boolean({ description: 'decode: whether exp is at or before `at` (now by default); false without exp.' })),
    verified: Type.Optional(Type.Boolean({ description: 'decode: always false, since decode checks nothing.' })),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'decode: that nothing was verified. sign: a secret shorter than RFC 7518 asks for.' })),
  }),
  actions: {
    decode: { fields: ['input', 'at'], requires: ['input'] },
    verify: {
      fields: ['input', 'secret', 'secretEncoding', 'key', 'algorithms', 'clockToleranceSeconds', 'at', 'issuer', 'audience'],
      requires: ['input', ['secret', 'key']],
    },
    sign: { fields: ['payload', 'secret', 'secretEncoding', 'key', 'algorithm', 'expiresInSeconds', 'at'], requires: ['payload', ['secret', 'key']] },
  },
  examples: [
    {
      summary: 'Decode the JWT of RFC 7519 §3.1 (nothing is verified)',
      input: {
        input: RFC7515_A1_TOKEN,
      },
      output: {
        result: { iss: 'joe', exp: 1300819380, 'http://example.com/is_root': true },
        action: 'decode',
        header: { typ: 'JWT', alg: 'HS256' },
        signature: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        dates: { exp: '2011-03-22T18:43:00.000Z' },
        expired: true,
        verified: false,
        warnings: [NOT_VERIFIED],
      },
    },
    {
      summary: 'Verify RFC 7515 A.1 (HS256, a key of random bytes given as base64url) as of a time before it expired',
      input: {
        input: RFC7515_A1_TOKEN,
        action: 'verify',
        secret: RFC7515_A1_KEY,
        secretEncoding: 'base64url',
        issuer: 'joe',
        at: 1300819000,
      },
      output: {
        result: true,
        action: 'verify',
        valid: true,
        header: { typ: 'JWT', alg: 'HS256' },
        payload: { iss: 'joe', exp: 1300819380, 'http://example.com/is_root': true },
        dates: { exp: '2011-03-22T18:43:00.000Z' },
      },
    },
    {
      summary: 'The same token checked now: a 200 that says why it is not valid',
      input: {
        input: RFC7515_A1_TOKEN,
        action: 'verify',
        secret: RFC7515_A1_KEY,
        secretEncoding: 'base64url',
      },
      output: {
        result: false,
        action: 'verify',
        valid: false,
        reason: 'expired',
        message: 'The token has expired (its exp claim is past, beyond the clock tolerance)',
        header: { typ: 'JWT', alg: 'HS256' },
      },
    },
    {
      summary: 'Sign claims with HS256, expiring an hour after `at`',
      input: { action: 'sign', payload: { sub: '42', admin: true }, secret: 'a-string-secret-at-least-256-bits-long', expiresInSeconds: 3600, at: 1700000000 },
      output: {
        result:
          'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsImFkbWluIjp0cnVlLCJpYXQiOjE3MDAwMDAwMDAsImV4cCI6MTcwMDAwMzYwMH0.tSpaIxirxp89fON1lWTb0IXwt2jCzduPtRd3L6pO4Lk',
        action: 'sign',
        header: { alg: 'HS256', typ: 'JWT' },
        payload: { sub: '42', admin: true, iat: 1700000000, exp: 1700003600 },
        warnings: [],
      },
    },
  ],
  verdict: { field: 'valid', failure: 'the token is not valid' },
  async run({ input, action, at, ...fields }) {
    const library = await jose()
    if (action === 'sign') return sign(library, { ...fields, at })
    if (input === undefined) throw validationError('input', `is required for ${action}: the compact JWT`)
    return action === 'decode' ? decode(library, input, at) : verify(library, input, { ...fields, at })
  },
})
