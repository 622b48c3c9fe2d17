import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { encodeBase32 } from '../../lib/bytes/base32.ts'
import { otp } from './index.ts'

type Answer = Record<string, unknown> & { result: unknown; warnings: string[] }
const run = async (input: Record<string, unknown>) => (await execute(otp, input)) as Answer
const base32 = (text: string) => encodeBase32(Buffer.from(text, 'latin1'), 'rfc4648', false)

// The seeds of RFC 6238 Appendix B: the ASCII digits "1234567890" repeated to 20, 32 and 64 bytes.
const SEED_SHA1 = base32('12345678901234567890')
const SEED_SHA256 = base32('12345678901234567890123456789012')
const SEED_SHA512 = base32('1234567890123456789012345678901234567890123456789012345678901234')

describe('otp: published vectors', () => {
  test('RFC 4226 Appendix D: HOTP-SHA1, 6 digits, counters 0 to 9', async () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489']
    for (const [counter, code] of expected.entries()) {
      const answer = await run({ secret: SEED_SHA1, type: 'hotp', counter })
      assert.equal(answer.result, code, `counter ${counter}`)
      assert.equal(answer.code, code)
    }
  })

  test('RFC 6238 Appendix B: TOTP, 8 digits, 30 s steps, SHA1, SHA256 and SHA512 with their own seeds', async () => {
    const table: Array<[time: number, sha1: string, sha256: string, sha512: string]> = [
      [59, '94287082', '46119246', '90693936'],
      [1111111109, '07081804', '68084774', '25091201'],
      [1111111111, '14050471', '67062674', '99943326'],
      [1234567890, '89005924', '91819424', '93441116'],
      [2000000000, '69279037', '90698825', '38618901'],
      [20000000000, '65353130', '77737706', '47863826'],
    ]
    for (const [time, sha1, sha256, sha512] of table) {
      for (const [algorithm, secret, code] of [
        ['SHA1', SEED_SHA1, sha1],
        ['SHA256', SEED_SHA256, sha256],
        ['SHA512', SEED_SHA512, sha512],
      ]) {
        const answer = await run({ secret, time, digits: 8, algorithm })
        assert.equal(answer.result, code, `${algorithm} at ${time}`)
        assert.equal(answer.counter, Math.floor(time / 30))
        const verified = await run({ action: 'verify', secret, time, digits: 8, algorithm, code, window: 0 })
        assert.deepEqual([verified.valid, verified.delta], [true, 0])
      }
    }
  })

  test('a code keeps its leading zeros; remainingSeconds counts to the next step', async () => {
    const answer = await run({ secret: SEED_SHA1, time: 1111111109, digits: 8 })
    assert.equal(answer.result, '07081804')
    assert.equal(answer.remainingSeconds, 1)
    assert.equal((await run({ secret: SEED_SHA1, time: 1111111110 })).remainingSeconds, 30)
    assert.equal((await run({ secret: SEED_SHA1, time: 59, period: 60 })).remainingSeconds, 1)
  })
})

describe('otp: verify', () => {
  test('TOTP: window steps either side, delta negative for the past; outside the window is invalid', async () => {
    // 07081804 is the code of step 37037036 (time 1111111109).
    const at = (time: number, window?: number) =>
      run({ action: 'verify', secret: SEED_SHA1, digits: 8, code: '07081804', time, ...(window === undefined ? {} : { window }) })
    assert.deepEqual([(await at(1111111109)).delta, (await at(1111111139)).delta, (await at(1111111079)).delta], [0, -1, 1])
    const tooLate = await at(1111111169)
    assert.deepEqual(tooLate, { result: false, action: 'verify', type: 'totp', algorithm: 'SHA1', digits: 8, valid: false, warnings: [] })
    assert.equal((await at(1111111169, 2)).delta, -2)
    assert.equal((await at(1111111139, 0)).valid, false)
    // At time 0 there is no step before 0 to try; step 0 is the HOTP counter 0.
    assert.equal((await run({ action: 'verify', secret: SEED_SHA1, code: '755224', time: 0, window: 3 })).delta, 0)
  })

  test('HOTP: looks ahead only', async () => {
    const verify = (counter: number) => run({ action: 'verify', type: 'hotp', secret: SEED_SHA1, code: '359152', counter, window: 2 })
    assert.equal((await verify(0)).delta, 2)
    assert.equal((await verify(2)).delta, 0)
    assert.equal((await verify(3)).valid, false)
  })

  test('a wrong code is invalid; a code of another length is a 400', async () => {
    assert.equal((await run({ action: 'verify', secret: SEED_SHA1, code: '000000', time: 59 })).result, false)
    await expectRefusal(run({ action: 'verify', secret: SEED_SHA1, code: '94287082', time: 59 }), { code: 'VALIDATION_ERROR', field: 'code' })
  })

  test('property: the code generated for any secret, time and settings verifies at delta 0', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 10, maxLength: 64 }),
        fc.integer({ min: 0, max: 253_402_300_799 }),
        fc.constantFrom('SHA1', 'SHA256', 'SHA512'),
        fc.integer({ min: 6, max: 8 }),
        fc.integer({ min: 1, max: 3600 }),
        async (bytes, time, algorithm, digits, period) => {
          const secret = encodeBase32(bytes, 'rfc4648', true)
          const settings = { secret, time, algorithm, digits, period }
          const { code } = await run(settings)
          assert.match(code as string, new RegExp(`^[0-9]{${digits}}$`))
          const verified = await run({ ...settings, action: 'verify', code })
          assert.equal(verified.valid, true)
          assert.equal(verified.delta, 0)
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('otp: secrets', () => {
  test('Base32 in any case, with spaces and padding, gives the same code', async () => {
    const expected = (await run({ secret: SEED_SHA1, type: 'hotp', counter: 0 })).result
    for (const secret of [SEED_SHA1.toLowerCase(), 'GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ', `${SEED_SHA1}`]) {
      assert.equal((await run({ secret, type: 'hotp', counter: 0 })).result, expected)
    }
    const padded = encodeBase32(Buffer.from('12345678901'), 'rfc4648', true)
    assert.match(padded, /={6}$/)
    assert.equal(
      (await run({ secret: padded, type: 'hotp', counter: 0 })).code,
      (await run({ secret: padded.replace(/=+$/, ''), type: 'hotp', counter: 0 })).code,
    )
  })

  test('80 bits is the minimum, with a warning below 128 bits; shorter is a 422', async () => {
    // The Key Uri Format's example key "Hello!\xDE\xAD\xBE\xEF": 80 bits.
    assert.deepEqual((await run({ secret: 'JBSWY3DPEHPK3PXP', time: 0 })).warnings, [
      'The secret holds 80 bits, fewer than the 128 that RFC 4226 asks for (160 recommended)',
    ])
    assert.deepEqual((await run({ secret: base32('0123456789abcdef'), time: 0 })).warnings, [])
    await expectRefusal(run({ secret: base32('12345678'), time: 0 }), { code: 'INVALID_INPUT', details: { field: 'secret', bits: 64 } })
    await expectRefusal(run({ secret: '', time: 0 }), { code: 'INVALID_INPUT', details: { field: 'secret', bits: 0 } })
  })

  test('a malformed secret is a 422 with a position, never with its characters', async () => {
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNB1GY3TQOJQ'
    const refusal = await expectRefusal(run({ secret, time: 0 }), { code: 'INVALID_INPUT', position: 23 })
    assert.doesNotMatch(refusal.message, /1|GEZD/)
    assert.doesNotMatch(JSON.stringify(refusal.details), /GEZD/)
    const truncated = await expectRefusal(run({ secret: `${SEED_SHA1}A`, time: 0 }), { code: 'INVALID_INPUT' })
    assert.doesNotMatch(truncated.message, /GEZD/)
    const lone = await expectRefusal(run({ secret: `${SEED_SHA1}\ud800`, time: 0 }), { code: 'INVALID_INPUT' })
    assert.equal(lone.details?.position, undefined)
  })
})

describe('otp: newSecret and the otpauth URI', () => {
  test('a 160-bit secret in unpadded Base32 and a Key Uri Format URI that reads back', async () => {
    const answer = await run({ action: 'newSecret', issuer: 'ACME Co', account: 'john.doe@email.com' })
    const secret = answer.secret as string
    assert.equal(answer.result, secret)
    assert.match(secret, /^[A-Z2-7]{32}$/)
    assert.equal(answer.uri, `otpauth://totp/ACME%20Co:john.doe%40email.com?secret=${secret}&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30`)
    const uri = new URL(answer.uri as string)
    assert.equal(uri.protocol, 'otpauth:')
    assert.equal(uri.host, 'totp')
    assert.equal(decodeURIComponent(uri.pathname), '/ACME Co:john.doe@email.com')
    assert.deepEqual(Object.fromEntries(uri.searchParams), { secret, issuer: 'ACME Co', algorithm: 'SHA1', digits: '6', period: '30' })
    // The new secret works as a secret.
    assert.equal((await run({ secret, time: 0 })).warnings.length, 0)
  })

  test('HOTP URIs carry the counter; labels are percent-encoded; each call draws a new secret', async () => {
    const answer = await run({ action: 'newSecret', type: 'hotp', counter: 5, account: 'Alice Smith/ü&?', algorithm: 'SHA256', digits: 8 })
    assert.match(answer.uri as string, /^otpauth:\/\/hotp\/Alice%20Smith%2F%C3%BC%26%3F\?secret=[A-Z2-7]{32}&algorithm=SHA256&digits=8&counter=5$/)
    const secrets = new Set<unknown>()
    for (let i = 0; i < 50; i++) secrets.add((await run({ action: 'newSecret', account: 'a' })).secret)
    assert.equal(secrets.size, 50)
  })

  test('fields that contradict the action or type are 400', async () => {
    const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
    await refuses({ action: 'newSecret' }, 'account')
    await refuses({ action: 'newSecret', account: 'a', secret: SEED_SHA1 }, 'secret')
    await refuses({ action: 'newSecret', account: 'a:b' }, 'account')
    await refuses({ action: 'newSecret', account: 'a', issuer: 'x:y' }, 'issuer')
    await refuses({}, 'secret')
    await refuses({ secret: SEED_SHA1, type: 'hotp' }, 'counter')
    await refuses({ secret: SEED_SHA1, type: 'hotp', counter: 1, time: 5 }, 'time')
    await refuses({ secret: SEED_SHA1, counter: 1 }, 'counter')
    await refuses({ action: 'verify', secret: SEED_SHA1 }, 'code')
    await refuses({ secret: SEED_SHA1, digits: 9 }, 'digits')
    await refuses({ secret: SEED_SHA1, digits: 5 }, 'digits')
    await refuses({ secret: SEED_SHA1, algorithm: 'MD5' }, 'algorithm')
    await refuses({ secret: SEED_SHA1, time: -1 }, 'time')
    await refuses({ secret: SEED_SHA1, time: 1.5 }, 'time')
    await refuses({ secret: SEED_SHA1, period: 0 }, 'period')
    await refuses({ action: 'verify', secret: SEED_SHA1, code: '12345a' }, 'code')
    await refuses({ action: 'verify', secret: SEED_SHA1, code: '123456', window: 11 }, 'window')
    await refuses({ secret: 'A'.repeat(1025) }, 'secret')
  })
})
