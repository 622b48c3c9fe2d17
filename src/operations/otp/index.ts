import { createHmac, timingSafeEqual } from 'node:crypto'
import { Type } from 'typebox'
import { invalidInput, isDevutilsError, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { decodeBase32, encodeBase32 } from '../../lib/bytes/base32.ts'
import { randomOctets } from '../../lib/random/random.ts'

const ACTIONS = ['generate', 'verify', 'newSecret'] as const
type Action = (typeof ACTIONS)[number]
const TYPES = ['totp', 'hotp'] as const
type OtpType = (typeof TYPES)[number]
/** Spelled as the Key Uri Format's `algorithm` parameter spells them. */
const ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const
type Algorithm = (typeof ALGORITHMS)[number]

/** Many services issue 80-bit secrets; RFC 4226 §4 (R6) asks for at least 128 bits and recommends 160. */
const MIN_SECRET_BYTES = 10
const RECOMMENDED_MIN_SECRET_BYTES = 16
const NEW_SECRET_BYTES = 20
/** 9999-12-31T23:59:59Z. */
const MAX_TIME = 253_402_300_799

/**
 * The secret as bytes. decodeBase32's messages quote the offending character, which here would be
 * part of the secret, so they are reworded to say only where the problem is.
 */
function secretBytes(secret: string): Buffer {
  let bytes: Uint8Array
  try {
    bytes = decodeBase32(secret, 'rfc4648')
  } catch (error) {
    if (!isDevutilsError(error)) throw error
    const position = (error.details as { position?: number } | undefined)?.position
    if (position === undefined) {
      throw invalidInput('secret is not valid Base32: its number of symbols cannot encode whole bytes (it looks truncated)', { field: 'secret' })
    }
    throw invalidInput(
      `secret is not valid Base32 (RFC 4648: A–Z and 2–7 in any case, optional '=' padding): the character at position ${position} is not allowed there`,
      { field: 'secret', position },
    )
  }
  if (bytes.length < MIN_SECRET_BYTES) {
    throw invalidInput(`secret holds ${bytes.length * 8} bits; at least ${MIN_SECRET_BYTES * 8} are needed (16 Base32 characters)`, {
      field: 'secret',
      bits: bytes.length * 8,
    })
  }
  return Buffer.from(bytes)
}

/** HOTP (RFC 4226 §5.3): HMAC of the 8-byte big-endian counter, dynamic truncation, the last `digits` decimal digits. */
export function hotp(key: Buffer, counter: number, algorithm: Algorithm, digits: number): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac(algorithm.toLowerCase(), key).update(message).digest()
  const offset = mac[mac.length - 1] & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fff_ffff
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/**
 * Which of `counters` gives `code`, compared in constant time: every candidate is computed and
 * compared, whether or not an earlier one matched.
 */
function matchingCounter(key: Buffer, code: string, counters: number[], algorithm: Algorithm, digits: number): number | undefined {
  const claimed = Buffer.from(code)
  let found: number | undefined
  for (const counter of counters) {
    const matches = timingSafeEqual(Buffer.from(hotp(key, counter, algorithm, digits)), claimed)
    if (matches && found === undefined) found = counter
  }
  return found
}

/** The otpauth URI of Google Authenticator's Key Uri Format: label `issuer:account`, each part percent-encoded. */
function otpauthUri(
  type: OtpType,
  secret: string,
  account: string,
  issuer: string | undefined,
  algorithm: Algorithm,
  digits: number,
  period: number,
  counter: number,
) {
  const label = issuer === undefined ? encodeURIComponent(account) : `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const parameters = [`secret=${secret}`]
  if (issuer !== undefined) parameters.push(`issuer=${encodeURIComponent(issuer)}`)
  parameters.push(`algorithm=${algorithm}`, `digits=${digits}`)
  parameters.push(type === 'totp' ? `period=${period}` : `counter=${counter}`)
  return `otpauth://${type}/${label}?${parameters.join('&')}`
}

const NO_COLON = '^[^:]*$'

export const otp = defineOperation({
  name: 'otp',
  category: 'generators',
  runsInBrowser: true,
  summary: 'Generate or verify TOTP and HOTP one-time codes (RFC 6238, RFC 4226), or make a new secret with its otpauth URI',
  title: 'One-time password (TOTP, HOTP)',
  aliases: ['totp', 'hotp', '2fa', 'two factor', 'mfa', 'authenticator', 'google authenticator', 'otpauth', 'one time code'],
  description:
    'One-time passwords as authenticator apps compute them. `generate` (the default) gives the code for `secret` at `time` (TOTP, RFC 6238: the step of `period` seconds since 1970) or at `counter` (HOTP, RFC 4226), as a string with its leading zeros. ' +
    '`verify` checks `code` and says in `delta` which step matched, relative to the current one: for TOTP `window` steps either side (negative for the past), for HOTP `window` counters ahead only (RFC 4226 §7.2 resynchronisation: a past counter has been used). Every candidate is compared in constant time. ' +
    "`newSecret` draws a 160-bit secret from the operating system's CSPRNG and writes its `otpauth://` URI (Google Authenticator's Key Uri Format) for `issuer` and `account`. " +
    '`secret` is Base32 (RFC 4648, any letter case, spaces and padding optional) of at least 80 bits; below the 128 bits RFC 4226 asks for, `warnings` says so. The secret is never echoed and never appears in an error message.',
  input: Type.Object(
    {
      action: withDefault(
        Type.Enum(ACTIONS, { description: 'Compute the code (`generate`), check a code (`verify`), or make a new secret and its otpauth URI (`newSecret`).' }),
        'generate',
      ),
      secret: Type.Optional(
        Type.String({
          maxLength: 1024,
          writeOnly: true,
          description:
            'generate and verify (required there; refused with newSecret): the shared secret in Base32, RFC 4648 (A–Z 2–7 in any case, spaces and "=" padding optional), at least 80 bits. Never echoed back, never logged.',
        }),
      ),
      type: withDefault(Type.Enum(TYPES, { description: '`totp` (time-based, RFC 6238) or `hotp` (counter-based, RFC 4226).' }), 'totp'),
      algorithm: withDefault(Type.Enum(ALGORITHMS, { description: 'The HMAC hash: SHA1 (what most apps use), SHA256 or SHA512.' }), 'SHA1'),
      digits: withDefault(Type.Integer({ minimum: 6, maximum: 8, description: 'Digits per code, 6 to 8.' }), 6),
      period: withDefault(Type.Integer({ minimum: 1, maximum: 3600, description: 'TOTP: seconds per time step, 1 to 3600.' }), 30),
      time: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: MAX_TIME,
          description: 'TOTP only (refused with hotp): the moment to compute for, in Unix seconds (up to 9999-12-31); now by default.',
          examples: [1111111109],
        }),
      ),
      counter: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'HOTP only (required for generate and verify; refused with totp): the counter. With newSecret, the `counter` of the URI, 0 by default.',
        }),
      ),
      code: Type.Optional(
        Type.String({
          pattern: '^[0-9]{6,8}$',
          description: 'verify only (required there): the code to check, `digits` decimal digits as a string.',
          examples: ['287082'],
        }),
      ),
      window: withDefault(
        Type.Integer({
          minimum: 0,
          maximum: 10,
          description: 'verify: how many steps besides the current one are accepted, 0 to 10: either side for TOTP (clock drift), ahead only for HOTP.',
        }),
        1,
      ),
      issuer: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 256,
          pattern: NO_COLON,
          description: 'newSecret: the provider or service, shown by the app; the label prefix and `issuer` parameter of the URI. No colon.',
          examples: ['ACME Co'],
        }),
      ),
      account: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 256,
          pattern: NO_COLON,
          description: 'newSecret (required there): the account name in the URI label, such as an e-mail address. No colon.',
          examples: ['john.doe@email.com'],
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Union([Type.String(), Type.Boolean()], { description: 'generate: the code. verify: whether it is valid. newSecret: the new secret.' }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    type: Type.Enum(TYPES, { description: 'totp or hotp.' }),
    algorithm: Type.Enum(ALGORITHMS, { description: 'The HMAC hash used.' }),
    digits: Type.Integer({ description: 'Digits per code.' }),
    code: Type.Optional(Type.String({ description: 'generate: the code, with its leading zeros.' })),
    counter: Type.Optional(Type.Integer({ description: 'generate: the HOTP counter, or the TOTP time step (floor(time / period)) the code is for.' })),
    remainingSeconds: Type.Optional(Type.Integer({ description: 'generate, TOTP: seconds until the next step begins.' })),
    valid: Type.Optional(Type.Boolean({ description: 'verify: whether `code` matches a step within the window.' })),
    delta: Type.Optional(
      Type.Integer({ description: 'verify, when valid: the matching step relative to the current one (negative for the past; HOTP: counters ahead).' }),
    ),
    secret: Type.Optional(Type.String({ description: 'newSecret: the new 160-bit secret, unpadded Base32 (32 characters).' })),
    uri: Type.Optional(Type.String({ description: 'newSecret: the otpauth:// URI for an authenticator app (or a QR code).' })),
    warnings: Type.Array(Type.String(), { description: 'Advice, such as a secret shorter than the 128 bits RFC 4226 asks for.' }),
  }),
  actions: {
    generate: { fields: ['secret', 'type', 'algorithm', 'digits', 'period', 'time', 'counter'], requires: ['secret'] },
    verify: { fields: ['secret', 'type', 'algorithm', 'digits', 'period', 'time', 'counter', 'code', 'window'], requires: ['secret', 'code'] },
    newSecret: { fields: ['type', 'algorithm', 'digits', 'period', 'counter', 'issuer', 'account'], requires: ['account'] },
  },
  examples: [
    { summary: 'The current TOTP code (RFC 6238 test seed)', input: { secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' } },
    {
      summary: 'TOTP at a given time, 8 digits (RFC 6238 Appendix B)',
      input: { secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', time: 1111111109, digits: 8 },
      output: {
        result: '07081804',
        action: 'generate',
        type: 'totp',
        algorithm: 'SHA1',
        digits: 8,
        code: '07081804',
        counter: 37037036,
        remainingSeconds: 1,
        warnings: [],
      },
    },
    {
      summary: 'HOTP at counter 1 (RFC 4226 Appendix D)',
      input: { secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', type: 'hotp', counter: 1 },
      output: { result: '287082', action: 'generate', type: 'hotp', algorithm: 'SHA1', digits: 6, code: '287082', counter: 1, warnings: [] },
    },
    {
      summary: 'Verify a code from the previous step',
      input: { action: 'verify', secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', code: '081804', time: 1111111139 },
      output: { result: true, action: 'verify', type: 'totp', algorithm: 'SHA1', digits: 6, valid: true, delta: -1, warnings: [] },
    },
    { summary: 'A new secret with its otpauth URI', input: { action: 'newSecret', issuer: 'ACME Co', account: 'john.doe@email.com' } },
  ],
  verdict: { field: 'valid', failure: 'the code is not valid' },
  run(input) {
    const { action, type, algorithm, digits, period, time, counter, issuer, account } = input
    if (type === 'hotp' && time !== undefined) throw validationError('time', 'is only used by type totp; hotp counts with `counter`')
    if (type === 'totp' && counter !== undefined && action !== 'newSecret') {
      throw validationError('counter', 'is only used by type hotp; totp counts time steps from `time`')
    }
    if (action === 'newSecret') {
      if (input.secret !== undefined) throw validationError('secret', 'must not be given with newSecret, which draws a new one')
      if (account === undefined) throw validationError('account', 'is required for newSecret: the account name in the otpauth URI label')
      const secret = encodeBase32(randomOctets(NEW_SECRET_BYTES), 'rfc4648', false)
      const uri = otpauthUri(type, secret, account, issuer, algorithm, digits, period, counter ?? 0)
      return { result: secret, action, type, algorithm, digits, secret, uri, warnings: [] }
    }
    if (input.secret === undefined) throw validationError('secret', `is required for ${action}: the shared secret in Base32`)
    const key = secretBytes(input.secret)
    const warnings =
      key.length < RECOMMENDED_MIN_SECRET_BYTES ? [`The secret holds ${key.length * 8} bits, fewer than the 128 that RFC 4226 asks for (160 recommended)`] : []
    if (type === 'hotp' && counter === undefined) throw validationError('counter', `is required for hotp ${action}`)
    const now = time ?? Math.floor(Date.now() / 1000)
    const current = type === 'hotp' ? counter! : Math.floor(now / period)
    if (action === 'generate') {
      const code = hotp(key, current, algorithm, digits)
      const timing = type === 'totp' ? { remainingSeconds: period - (now % period) } : {}
      return { result: code, action, type, algorithm, digits, code, counter: current, ...timing, warnings }
    }
    return verify(input.code, { key, type, algorithm, digits, current, window: input.window, action, warnings })
  },
})

interface Verification {
  key: Buffer
  type: OtpType
  algorithm: Algorithm
  digits: number
  current: number
  window: number
  action: Action
  warnings: string[]
}

function verify(code: string | undefined, { key, type, algorithm, digits, current, window, action, warnings }: Verification) {
  if (code === undefined) throw validationError('code', 'is required for verify')
  if (code.length !== digits) throw validationError('code', `has ${code.length} digits; with digits ${digits} it must have ${digits}`)
  const first = type === 'hotp' ? current : Math.max(0, current - window)
  const last = Math.min(Number.MAX_SAFE_INTEGER, current + window)
  const counters = Array.from({ length: last - first + 1 }, (_, index) => first + index)
  const matched = matchingCounter(key, code, counters, algorithm, digits)
  const valid = matched !== undefined
  const common = { result: valid, action, type, algorithm, digits, valid }
  return valid ? { ...common, delta: matched - current, warnings } : { ...common, warnings }
}
