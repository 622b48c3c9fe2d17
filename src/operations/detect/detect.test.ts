import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { runCallsInProcess } from '../../../test/in-process.ts'
import { execute } from '../../core/execute.ts'
import { validate } from '../../core/validate.ts'
import { detect, recognisers } from '../recognisers.ts'
import { loadOperation } from '../registry.ts'
import { rankedCandidates } from './rank.ts'

const DETECTED_TYPES = recognisers.map((recogniser) => recogniser.type)
type DetectedType = (typeof recognisers)[number]['type']
const detectTypes = (text: string) => rankedCandidates(recognisers, text)

interface Candidate {
  type: DetectedType
  confidence: number
  details: Record<string, unknown>
  next: { operation: string; fields: Record<string, unknown>; field: string } | null
}
const run = (input: Record<string, unknown>) => execute(detect, input) as Promise<{ result: string | null; candidates: Candidate[] }>

/** The first candidate's type and confidence, at any confidence. */
const topOf = async (input: string) => {
  const [candidate] = (await run({ input, minConfidence: 0 })).candidates
  return [candidate?.type, candidate?.confidence]
}

const JWT_RFC7519 =
  'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
/**
 * Password hashes of "password", made once with this service's password-hash (bcrypt cost 4; Argon2id
 * m=1024, t=1, p=1), so that running `next` (verify) answers valid: true quickly.
 */
const BCRYPT = '$2b$04$YO8LXh7kIhc9nP4oKGILNup0PL7/VjfhiPB7b3GVq5H/ZXdZd3pju'
const ARGON2ID = '$argon2id$v=19$m=1024,t=1,p=1$SLJlwhmf+vUUCgf3ExZO+g$YzjubcMsp/2X9Rg1FDlkx/GXMkyKPwtNAHbdPDwKs/Y'

/**
 * One canonical example per type, with the type and confidence it must rank first with, and (where
 * running `next` needs something only the caller has) the extra fields that stand in for it. The
 * published ones: RFC 7519 §3.1 (JWT), RFC 9562 Appendix A (UUIDs), the ULID specification's README,
 * MongoDB's documentation (ObjectId), segmentio/ksuid's README and RFC 1321 A.5 (MD5 of "").
 * gzip-in-Base64 was made with Python's gzip.compress(b'Hello, world!', mtime=0); the PEM and OpenSSH
 * Ed25519 public keys with `openssl genpkey -algorithm ed25519 | openssl pkey -pubout` and `ssh-keygen -t ed25519`.
 */
const GOLDEN: Array<[DetectedType, number, string, Record<string, unknown>?]> = [
  ['dataUri', 100, 'data:text/plain;base64,SGVsbG8sIHdvcmxkIQ=='],
  ['pem', 100, '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAqEjw8LgFGkNt0vxvj+2mE9sRidyPzoKDEdMwe3IjQi4=\n-----END PUBLIC KEY-----'],
  ['jwt', 100, JWT_RFC7519],
  ['bcrypt', 100, BCRYPT, { input: 'password' }],
  ['phcHash', 100, ARGON2ID, { input: 'password' }],
  ['otpauthUri', 100, 'otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example', { secret: 'JBSWY3DPEHPK3PXP' }],
  ['uuid', 100, 'C232AB00-9414-11EC-B3C8-9F6BDECED846'],
  ['ipv4', 100, '192.168.0.1'],
  ['ipv6', 100, '2001:db8::1'],
  ['cidr', 100, '10.0.0.0/8'],
  ['url', 95, 'https://example.com/path?q=1'],
  ['json', 95, '{"a": 1, "b": [2, 3]}'],
  ['isoDateTime', 95, '2023-11-14T22:13:20Z'],
  ['mac', 95, '00:1a:2b:3c:4d:5e'],
  ['sshPublicKey', 95, 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPexM20aM9vMuv4aO57SPXRjUPMoLAehGwvvT61xUf55 user@host'],
  ['httpDate', 90, 'Tue, 14 Nov 2023 22:13:20 GMT'],
  ['xml', 90, '<?xml version="1.0"?><note><to>Tove</to></note>'],
  ['ulid', 90, '01ARZ3NDEKTSV4RRFFQ69G5FAV'],
  ['email', 90, 'alice@example.com'],
  ['cron', 85, '*/5 * * * *'],
  ['color', 95, '#ff8800'],
  ['gzipBase64', 85, 'H4sIAAAAAAACA/NIzcnJ11Eozy/KSVEEAObG5usNAAAA'],
  ['percentEncoded', 80, 'hello%20world%21'],
  ['binary', 80, '01001000 01101001'],
  ['morse', 80, '.... . .-.. .-.. ---'],
  ['semver', 80, '1.2.3-beta.1+build.5'],
  ['htmlEntities', 75, 'fish &amp; chips'],
  ['objectId', 75, '507f1f77bcf86cd799439011'],
  ['ksuid', 70, '0ujtsYcgvSTl8PAuAdqWYSMnLOv'],
  ['unixTimestamp', 70, '1700000000'],
  ['domain', 70, 'example.com'],
  ['base64', 70, 'SGVsbG8sIHdvcmxkIQ=='],
  ['base64url', 70, 'SGVsbG8_d29ybGQ-'],
  ['hash', 60, 'd41d8cd98f00b204e9800998ecf8427e', { input: '' }],
  ['yaml', 60, 'name: devutils\nversion: 1\n'],
  ['hex', 65, '48656c6c6f2c20776f726c6421'],
  ['base32', 50, 'JBSWY3DPEHPK3PXP'],
  ['integer', 30, '42'],
]

describe('detect', () => {
  // Calls run in process (password-hash verify would otherwise start a worker thread); offload itself is tested below.
  runCallsInProcess()

  test('the golden table: one canonical example per type ranks first with its confidence', async () => {
    assert.deepEqual(new Set(GOLDEN.map(([type]) => type)), new Set(DETECTED_TYPES), 'every type has an example')
    assert.equal(new Set(DETECTED_TYPES).size, DETECTED_TYPES.length, 'one recogniser per type')
    for (const [type, confidence, input] of GOLDEN) {
      const { result, candidates } = await run({ input })
      assert.equal(result, type, `${input}: ${JSON.stringify(candidates.map((c) => [c.type, c.confidence]))}`)
      assert.equal(candidates[0].confidence, confidence, type)
    }
  })

  test('published vectors: their details', async () => {
    const first = async (input: string) => (await run({ input })).candidates[0]
    assert.deepEqual((await first(JWT_RFC7519)).details, { alg: 'HS256', typ: 'JWT', signed: true })
    assert.deepEqual((await first('C232AB00-9414-11EC-B3C8-9F6BDECED846')).details, { version: 1, variant: 'rfc9562', time: '2022-02-22T19:22:22.000Z' })
    assert.deepEqual((await first('919108F7-52D1-4320-9BAC-F847DB4148A8')).details, { version: 4, variant: 'rfc9562' })
    assert.deepEqual((await first('017F22E2-79B0-7CC3-98C4-DC0C0C07398F')).details, { version: 7, variant: 'rfc9562', time: '2022-02-22T19:22:22.000Z' })
    assert.deepEqual((await first('01ARZ3NDEKTSV4RRFFQ69G5FAV')).details, { time: '2016-07-30T23:54:10.259Z' })
    assert.deepEqual((await first('507f1f77bcf86cd799439011')).details, { time: '2012-10-17T21:13:27.000Z' })
    assert.deepEqual((await first('0ujtsYcgvSTl8PAuAdqWYSMnLOv')).details, { time: '2017-10-10T04:00:47.000Z' })
    assert.deepEqual((await first('d41d8cd98f00b204e9800998ecf8427e')).details, { bits: 128, candidates: ['md5', 'md4', 'ntlm'] })
    // A UUID's hyphens make it valid Base64url; a structure that covers the whole text drops such readings.
    const uuid = await run({ input: '919108f7-52d1-4320-9bac-f847db4148a8', limit: 50, minConfidence: 0 })
    assert.deepEqual(
      uuid.candidates.map((candidate) => candidate.type),
      ['uuid'],
    )
    // Below that, the encodings stay: ObjectId 75 over hex 40.
    const objectId = await run({ input: '507f1f77bcf86cd799439011', limit: 50, minConfidence: 0 })
    assert.deepEqual(objectId.candidates.map((candidate) => [candidate.type, candidate.confidence]).slice(0, 2), [
      ['objectId', 75],
      ['hex', 40],
    ])
  })

  test('every next names a real operation, and its fields with the text validate there; running it succeeds', async () => {
    for (const [type, , input, stand] of GOLDEN) {
      const { candidates } = await run({ input, limit: 50, minConfidence: 0 })
      for (const candidate of candidates) {
        if (candidate.next === null) continue
        const { operation: name, fields, field } = candidate.next
        const operation = await loadOperation(name)
        assert.ok(operation, `${candidate.type}: ${name} is not an operation`)
        assert.equal(Object.hasOwn(fields, field), false, `${candidate.type}: next.fields repeats the text`)
        validate(operation, { ...fields, [field]: input })
      }
      const { next } = candidates[0]
      if (next === null) continue
      let text = input
      if (type === 'dataUri') text = input.slice(candidates[0].details.payloadStart as number)
      const body = type === 'otpauthUri' ? { ...next.fields, ...stand } : { ...next.fields, [next.field]: text, ...stand }
      const answer = await execute((await loadOperation(next.operation))!, body)
      if (next.operation === 'password-hash' || next.operation === 'hash') assert.equal(answer.matches, true, type)
    }
  })

  test('nothing recognised is result null; limit, minConfidence and types filter', async () => {
    assert.deepEqual(await run({ input: '   ?!   ' }), { result: null, candidates: [] })
    assert.equal((await run({ input: 'hello world, how are you?' })).result, null)
    assert.equal((await run({ input: '507f1f77bcf86cd799439011', limit: 1 })).candidates.length, 1)
    assert.deepEqual((await run({ input: '507f1f77bcf86cd799439011', minConfidence: 76 })).candidates, [])
    assert.equal((await run({ input: '507f1f77bcf86cd799439011', types: ['hex'] })).result, 'hex')
    assert.equal((await run({ input: '  \n 1700000000\t' })).result, 'unixTimestamp')
    assert.deepEqual(
      (await run({ input: '4102444800', minConfidence: 0, limit: 50 })).candidates.find((c) => c.type === 'unixTimestamp')?.confidence,
      20,
      '2100-01-01 is outside the window',
    )
  })

  test('a bare word is a colour only when CSS Color 4 §6.1 names it: hex digits without # are hex, not a named colour', async () => {
    const colour = async (input: string) => (await run({ input, limit: 50, minConfidence: 0 })).candidates.find((c) => c.type === 'color')
    assert.deepEqual((await colour('red'))?.details, { notation: 'name' })
    assert.equal((await colour('rebeccapurple'))?.confidence, 40)
    assert.equal((await colour('transparent'))?.confidence, 40)
    // culori also reads hex without its '#', which CSS does not: these words are no colour's name.
    for (const input of ['deadbeef', 'cafe', 'bad', 'decade', 'facade']) assert.equal(await colour(input), undefined, input)
    assert.equal((await run({ input: 'deadbeef' })).result, 'hex')
  })

  test('PEM: a chain of blocks (as openssl s_client -showcerts pastes it, RFC 7468 §2, explanatory text between blocks allowed) is PEM too; a block left open or broken is not', async () => {
    const block = GOLDEN.find(([type]) => type === 'pem')![2]
    const chain = await run({ input: `${block}\n\n${block.replace(/PUBLIC KEY/g, 'CERTIFICATE')}\r\n` })
    assert.equal(chain.result, 'pem')
    assert.deepEqual(chain.candidates[0].details, { label: 'PUBLIC KEY', blocks: 2 })
    assert.deepEqual((await run({ input: block })).candidates[0].details, { label: 'PUBLIC KEY' })
    assert.equal((await run({ input: `${block}\n-----BEGIN CERTIFICATE-----\nMIIB\n` })).result, null)
    assert.deepEqual((await run({ input: `${block}\n 1 s:CN=between\n${block}` })).candidates[0].details, { label: 'PUBLIC KEY', blocks: 2 })
    assert.equal((await run({ input: block.replace('\nMCow', '\nMC*w') })).result, null)
    assert.deepEqual((await run({ input: block })).candidates[0].next, { operation: 'key', fields: { action: 'inspect' }, field: 'input' })
    const certificate = `${block.replace(/PUBLIC KEY/g, 'CERTIFICATE')}`
    assert.deepEqual((await run({ input: certificate })).candidates[0].next, { operation: 'x509', fields: { action: 'parse' }, field: 'input' })
  })

  test('details never copy the text: no JWT claim, no otpauth secret or account', async () => {
    const jwt = JSON.stringify(await run({ input: JWT_RFC7519, limit: 50, minConfidence: 0 }))
    for (const claim of ['joe', '1300819380', 'is_root']) assert.ok(!jwt.includes(claim), claim)
    const otp = JSON.stringify(await run({ input: GOLDEN.find(([type]) => type === 'otpauthUri')![2], limit: 50, minConfidence: 0 }))
    for (const secret of ['JBSWY3DPEHPK3PXP', 'alice']) assert.ok(!otp.includes(secret), secret)
  })

  test('refusals: input length, limit, minConfidence, unknown types, unknown fields (400)', async () => {
    const refuses = (input: Record<string, unknown>, field: string) => expectRefusal(run(input), { code: 'VALIDATION_ERROR', field })
    await refuses({ input: '' }, 'input')
    await refuses({ input: 'a'.repeat(65_537) }, 'input')
    await refuses({ input: 'a', limit: 0 }, 'limit')
    await refuses({ input: 'a', limit: 51 }, 'limit')
    await refuses({ input: 'a', minConfidence: 101 }, 'minConfidence')
    await refuses({ input: 'a', types: ['sha256'] }, 'types[0]')
    await refuses({ input: 'a', bogus: 1 }, 'bogus')
    await refuses({}, 'input')
    assert.ok((await run({ input: 'a'.repeat(65_536) })).candidates.length >= 0)
  })

  test('properties: sorted, integer confidences 0–100 in precedence order on ties, the same answer twice, no detector throws (≤ 4 KiB; only a reader refusal is caught, any other error fails here)', async () => {
    const order = new Map(DETECTED_TYPES.map((type, index) => [type, index]))
    const pieces = fc.constantFrom(
      ...GOLDEN.map(([, , input]) => input),
      '.',
      '-',
      '@',
      '{',
      '[',
      '%',
      '&',
      ':',
      ' ',
      '\n',
      '0',
      '1',
      'a',
      '=',
      '/',
      '$',
      'color(',
      'rgb(',
      ')',
      '<?xml ',
      '<',
      'data:',
      'ssh-rsa ',
      'otpauth://totp/a?secret=',
      '-----BEGIN A-----\n',
      '-----END A-----',
      'urn:uuid:',
      'é',
    )
    const texts = fc.oneof(
      fc.string({ maxLength: 4096 }),
      fc.array(pieces, { maxLength: 20 }).map((parts) => parts.join('').slice(0, 4096)),
    )
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        const all = await detectTypes(text)
        for (let i = 0; i < all.length; i++) {
          assert.ok(Number.isInteger(all[i].confidence) && all[i].confidence >= 0 && all[i].confidence <= 100)
          if (i > 0) {
            assert.ok(all[i - 1].confidence >= all[i].confidence)
            if (all[i - 1].confidence === all[i].confidence) assert.ok(order.get(all[i - 1].type)! < order.get(all[i].type)!)
          }
        }
        assert.deepEqual(await detectTypes(text), all)
      }),
      { numRuns: 300 },
    )
  })

  test('adversarial 64 KiB inputs are answered in linear time, the six of the brief well under 200 ms', async () => {
    const listed = new Set(['a.', '@', '{', '%', '0', '['])
    for (const unit of [...listed, 'a@', '&#', '-', '$2b$', '00 ', '0:', '<a>', 'data:', '-----BEGIN A-----\n', '&amp;', '"']) {
      const time = async (length: number) => {
        const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length)
        const start = performance.now()
        await detectTypes(text)
        return performance.now() - start
      }
      await time(4096)
      const small = Math.min(await time(8192), await time(8192))
      const large = Math.min(await time(65_536), await time(65_536))
      const about = `${JSON.stringify(unit)}: 8 KiB ${small.toFixed(1)} ms, 64 KiB ${large.toFixed(1)} ms`
      // Eight times the text may take a few dozen times as long (linear, with noise), never the 64 times of a quadratic scan.
      assert.ok(large < Math.max(small * 32, 150), about)
      if (listed.has(unit)) assert.ok(large < 200, about)
    }
  })

  test('ASCII-form (xn--) top-level domains are known, for a domain and an e-mail address alike (the IANA list names them in Unicode)', async () => {
    assert.deepEqual(await topOf('xn--e1afmkfd.xn--p1ai'), ['domain', 85])
    assert.deepEqual(await topOf('example.xn--p1ai'), ['domain', 85])
    assert.deepEqual(await topOf('alice@example.xn--p1ai'), ['email', 90])
    assert.deepEqual(await topOf('пример.рф'), ['domain', 85])
  })

  test('what ranks 100 or 95 is read as its own operation reads it: text of the shape alone is not', async () => {
    const typesOf = async (input: string) => (await run({ input, limit: 50, minConfidence: 0 })).candidates.map((candidate) => candidate.type)
    for (const [input, type] of [
      ['$argon2id$x$y$z', 'phcHash'],
      ['$scrypt$a$b$c', 'phcHash'],
      ['$2b$99$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy', 'bcrypt'],
      ['$2b$03$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy', 'bcrypt'],
      ['otpauth://totp/a?secret=!!!', 'otpauthUri'],
      ['otpauth://totp/a?secret=JBSWY3DPEHPK3PX1', 'otpauthUri'],
      ['ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ', 'sshPublicKey'],
      [
        `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from('ssh-ed25519'), Buffer.from([0, 0, 0, 32]), Buffer.alloc(31)]).toString('base64')}`,
        'sshPublicKey',
      ],
      ['-----BEGIN FOO-----\n-----END FOO-----', 'pem'],
    ] as const) {
      assert.ok(!(await typesOf(input)).includes(type), `${input} is not ${type}`)
    }
    assert.deepEqual(await topOf('$2b$31$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy'), ['bcrypt', 100])
    assert.deepEqual(await topOf('otpauth://totp/a?secret=jbswy3dpehpk3pxp'), ['otpauthUri', 100])
  })

  test("the ID types' next names their kind, and bytes that are not UTF-8 text are read as Latin-1 by binary's next, which then succeeds", async () => {
    for (const [input, kind] of [
      ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'ulid'],
      ['507f1f77bcf86cd799439011', 'objectid'],
      ['0ujtsYcgvSTl8PAuAdqWYSMnLOv', 'ksuid'],
    ]) {
      assert.deepEqual((await run({ input })).candidates[0].next?.fields, { action: 'inspect', kind })
    }
    for (const [input, result] of [
      ['11111111 11111111', 'ÿÿ'],
      ['0110100001101001', 'hi'],
    ]) {
      const [candidate] = (await run({ input })).candidates
      assert.equal(candidate.type, 'binary')
      const { operation, fields, field } = candidate.next!
      assert.equal((await execute((await loadOperation(operation))!, { ...fields, [field]: input })).result, result)
    }
  })

  test('digits alone are a basic-format ISO date only inside the window: 11111111 is binary first', async () => {
    assert.deepEqual(await topOf('20231127'), ['isoDateTime', 95])
    assert.deepEqual(await topOf('11111111'), ['binary', 80])
  })

  test('the smaller rules as written: one hex byte with a letter, two Morse symbols, a YAML flow sequence, lower-case Base32 with a digit, Base64 wrapped at a fixed width', async () => {
    assert.deepEqual(await topOf('ff'), ['hex', 40])
    assert.deepEqual(await topOf('42'), ['integer', 30])
    assert.deepEqual(await topOf('.-'), ['morse', 80])
    assert.equal((await run({ input: '.' })).result, null)
    assert.deepEqual(await topOf('[a, b]'), ['yaml', 60])
    assert.deepEqual(await topOf('jbswy3dpehpk3pxp'), ['base32', 50])
    const wrapped = Buffer.from('Hello, world! '.repeat(8)).toString('base64').replace(/.{76}/g, '$&\n')
    assert.deepEqual(await topOf(wrapped), ['base64', 70])
    assert.ok(!(await run({ input: 'password', minConfidence: 0 })).candidates.some((candidate) => candidate.type === 'base32'))
  })

  test('64 KiB of text the full YAML and URL readers are slowest on is answered well under 200 ms', async () => {
    for (const unit of ['MON1.2.3?]a: {', '- _] -beta/24\r\n&a ', 'k: v\n', 'a:\n  ', 'a: &a\n', 'mailto:', 'urn:', 'https://a/']) {
      const text = unit.repeat(Math.ceil(65_536 / unit.length)).slice(0, 65_536)
      await detectTypes(text)
      const start = performance.now()
      await detectTypes(text)
      const took = performance.now() - start
      assert.ok(took < 200, `${JSON.stringify(unit)}: ${took.toFixed(1)} ms`)
    }
  })

  test('deeply nested YAML-like text is refused by the YAML guards, not read forever', async () => {
    for (const unit of ['- ', 'a:\n  ', '{a: ']) {
      const text = unit.repeat(Math.ceil(8192 / unit.length)).slice(0, 8192)
      assert.equal(
        (await detectTypes(text)).some((candidate) => candidate.type === 'yaml'),
        false,
        JSON.stringify(unit),
      )
    }
  })

  test('large inputs run on the worker pool', () => {
    assert.equal(detect.offload?.({ input: 'a'.repeat(1025), limit: 5, minConfidence: 30 }), true)
    assert.equal(detect.offload?.({ input: 'a'.repeat(1024), limit: 5, minConfidence: 30 }), false)
  })
})
