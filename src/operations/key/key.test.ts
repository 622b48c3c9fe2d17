// Over 600 lines: every section here shares the published keys, the refusal check that no secret is quoted, and the round-trip properties; split, each file would carry a copy of them.
import assert from 'node:assert/strict'
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { after, describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { execute } from '../../core/execute.ts'
import { closeWorkerPool } from '../../core/pool.ts'
import { key } from './index.ts'

// A roomy budget: these tests are about answers, and a loaded machine slows the KDFs a lot.
type Answer = Record<string, unknown> & { result: string; fingerprints: Record<string, string>; warnings?: string[] }
const run = async (input: Record<string, unknown>) => (await execute(key, input, { timeBudgetMs: 60_000 })) as Answer

after(() => closeWorkerPool())

const SUITE = new URL('../../../test/fixtures/suites/openssh-sshkey/', import.meta.url)
const suite = (name: string) => readFileSync(new URL(name, SUITE), 'utf8')
const PASSPHRASE = suite('pw').trim()

/** Asserts a refusal whose message and details hold none of the secrets given. */
async function refuses(input: Record<string, unknown>, code: string, message: RegExp, secrets: string[] = []) {
  const refusal = await expectRefusal(run(input), { code, message })
  const told = `${refusal.message} ${JSON.stringify(refusal.details ?? {})}`
  for (const secret of secrets) assert.ok(!told.includes(secret), `the refusal "${refusal.message}" does not quote a secret`)
  return refusal
}

/** A piece of a private key's text that a message must never hold: a line of its base64 or its d. */
const secretPart = (text: string) => text.split('\n').find((line) => line.length >= 40 && !line.startsWith('-----')) ?? text.slice(0, 40)

// RFC 8037 A.1 (the RFC 8032 §7.1 TEST 1 key) and RFC 7638 §3.1.
const RFC8037 = { kty: 'OKP', crv: 'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }
const RFC8032_TEST1_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'
const RFC8032_TEST1_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'
const RFC7638 = {
  kty: 'RSA',
  n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
  e: 'AQAB',
  alg: 'RS256',
  kid: '2011-04-29',
}
const pemDer = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64')

describe('key: published vectors', () => {
  test('RFC 7638 §3.1: the RSA JWK’s thumbprint (alg and kid are not part of it)', async () => {
    const answer = await run({ action: 'inspect', input: JSON.stringify(RFC7638) })
    assert.equal(answer.fingerprints.jwkThumbprint, 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs')
    assert.equal(answer.result, 'RSA 2048-bit public key, JWK')
    assert.deepEqual((answer.publicKey as { jwk: object }).jwk, { kty: 'RSA', n: RFC7638.n, e: 'AQAB' })
  })

  test('RFC 8037 A.1–A.3 and RFC 8032 §7.1 TEST 1: the Ed25519 JWK, its thumbprint, PKCS#8 and SPKI', async () => {
    const answer = await run({ action: 'inspect', input: JSON.stringify(RFC8037) })
    assert.equal(answer.result, 'Ed25519 private key, JWK')
    assert.equal(answer.fingerprints.jwkThumbprint, 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k')
    // A.2: the public key alone has the same thumbprint.
    const { d: _d, ...publicJwk } = RFC8037
    assert.equal((await run({ action: 'inspect', input: JSON.stringify(publicJwk) })).fingerprints.jwkThumbprint, 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k')
    const pkcs8 = await run({ action: 'convert', input: JSON.stringify(RFC8037), to: 'pkcs8' })
    assert.equal(pemDer(pkcs8.result).toString('hex'), `302e020100300506032b657004220420${RFC8032_TEST1_SEED}`)
    const spki = await run({ action: 'convert', input: JSON.stringify(RFC8037), to: 'spki' })
    assert.equal(pemDer(spki.result).toString('hex'), `302a300506032b6570032100${RFC8032_TEST1_PUBLIC}`)
    // And back: the PKCS#8 DER as base64, without armour, gives the JWK of A.1.
    const back = await run({ action: 'convert', input: pemDer(pkcs8.result).toString('base64'), to: 'jwk' })
    assert.deepEqual(JSON.parse(back.result), { kty: 'OKP', crv: 'Ed25519', x: RFC8037.x, d: RFC8037.d })
  })

  test('that key as an OpenSSH line: the fingerprints ssh-keygen -l and -l -E md5 print', async () => {
    const line = await run({ action: 'convert', input: JSON.stringify(RFC8037), to: 'openssh', publicOnly: true })
    assert.equal(line.result, 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea')
    assert.equal(line.fingerprints.sha256, 'SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8')
    assert.equal(line.fingerprints.md5, 'MD5:cf:07:be:9d:68:ae:65:54:6d:a0:93:c3:6f:bd:0d:82')
    // ssh-keygen -B of that line (OpenSSH 9.2p1), run once.
    assert.equal(line.fingerprints.bubbleBabble, 'xunas-cidad-korip-hakiz-teges-bamik-pumor-pacan-mimoz-ronon-foxax')
  })

  test('a private JWK whose x is not d’s (RFC 8037’s d with x of 43 × "A") is refused', async () => {
    await refuses({ action: 'inspect', input: JSON.stringify({ ...RFC8037, x: 'A'.repeat(43) }) }, 'INVALID_INPUT', /x does not match d/, [RFC8037.d])
    await refuses({ action: 'convert', to: 'openssh', input: JSON.stringify({ ...RFC8037, x: 'A'.repeat(43) }) }, 'INVALID_INPUT', /x does not match d/, [
      RFC8037.d,
    ])
  })
})

/** OpenSSH's test keys (regress/unittests/sshkey/testdata) and their published fingerprints. */
const OPENSSH_KEYS = ['ed25519_1', 'ed25519_2', 'ecdsa_1', 'ecdsa_2', 'rsa_1', 'rsa_2']
const DESCRIPTIONS: Record<string, string> = {
  ed25519_1: 'Ed25519 private key, OpenSSH format',
  ed25519_2: 'Ed25519 private key, OpenSSH format',
  ecdsa_1: 'EC P-256 private key, SEC1',
  ecdsa_2: 'EC P-521 private key, SEC1',
  rsa_1: 'RSA 1024-bit private key, PKCS#1',
  rsa_2: 'RSA 2048-bit private key, PKCS#1',
}

describe('key: OpenSSH’s sshkey test data', () => {
  test('every private key and .pub line gives its published .fp and .fp.bb fingerprints', async () => {
    for (const name of OPENSSH_KEYS) {
      const fingerprint = suite(`${name}.fp`).trim()
      const privateKey = await run({ action: 'inspect', input: suite(name) })
      assert.equal(privateKey.fingerprints.sha256, fingerprint, name)
      assert.equal(privateKey.fingerprints.bubbleBabble, suite(`${name}.fp.bb`).trim(), name)
      assert.equal(privateKey.result, DESCRIPTIONS[name], name)
      const line = suite(`${name}.pub`).trim()
      const publicKey = await run({ action: 'inspect', input: line })
      assert.equal(publicKey.fingerprints.sha256, fingerprint, `${name}.pub`)
      assert.equal(publicKey.comment, line.split(' ').slice(2).join(' '), `${name}.pub`)
      // The public key derived from the private one is the published line, less its comment.
      assert.equal((privateKey.publicKey as { openssh: string }).openssh.split(' ').slice(0, 2).join(' '), line.split(' ').slice(0, 2).join(' '), name)
      assert.equal(privateKey.fingerprints.spkiSha256, publicKey.fingerprints.spkiSha256, name)
    }
  })

  test('rsa_1 is 1024 bits: read, with a warning', async () => {
    const answer = await run({ action: 'inspect', input: suite('rsa_1') })
    assert.equal(answer.bits, 1024)
    assert.match(answer.warnings!.join(' '), /1024 bits is too short/)
  })

  test('rsa_n and ecdsa_n (rsa_1 and ecdsa_1 as openssh-key-v1) are the same keys', async () => {
    for (const [openssh, pem] of [
      ['rsa_n', 'rsa_1'],
      ['ecdsa_n', 'ecdsa_1'],
    ]) {
      const fromOpenSsh = await run({ action: 'convert', input: suite(openssh), to: 'pkcs8' })
      const fromPem = await run({ action: 'convert', input: suite(pem), to: 'pkcs8' })
      assert.equal(fromOpenSsh.result, fromPem.result, openssh)
      assert.equal(fromOpenSsh.fingerprints.sha256, suite(`${pem}.fp`).trim(), openssh)
    }
  })

  test('the *_pw keys (passphrase "mekmitasdigoat") decrypt to the same keys; the OpenSSH ones tell their public key without it', async () => {
    // Each bcrypt KDF of these keys (16 rounds) is costly: each key is decrypted once, and a wrong passphrase tried once.
    for (const [encrypted, plain, format] of [
      ['ed25519_1_pw', 'ed25519_1', 'openssh'],
      ['rsa_n_pw', 'rsa_1', 'openssh'],
      ['ecdsa_n_pw', 'ecdsa_1', 'openssh'],
      ['ecdsa_1_pw', 'ecdsa_1', 'sec1'],
      ['rsa_1_pw', 'rsa_1', 'pkcs1'],
    ]) {
      const fingerprint = suite(`${plain}.fp`).trim()
      const decrypted = await run({ action: 'convert', input: suite(encrypted), passphrase: PASSPHRASE, to: 'pkcs8' })
      assert.equal(decrypted.fingerprints.sha256, fingerprint, encrypted)
      assert.equal(decrypted.result, (await run({ action: 'convert', input: suite(plain), to: 'pkcs8' })).result, encrypted)
      if (format === 'openssh') {
        const without = await run({ action: 'inspect', input: suite(encrypted) })
        assert.equal(without.fingerprints.sha256, fingerprint, `${encrypted} without a passphrase`)
        assert.equal(without.format, 'openssh')
        assert.equal(without.isPrivate, true)
        assert.equal(without.encrypted, true)
        assert.equal(without.comment, undefined, 'the comment is in the encrypted part')
        assert.match(String(without.result), /private key, OpenSSH format, encrypted$/)
      } else {
        await refuses({ action: 'inspect', input: suite(encrypted) }, 'INVALID_INPUT', /^passphrase required/)
        const inspected = await run({ action: 'inspect', input: suite(encrypted), passphrase: PASSPHRASE })
        assert.equal(inspected.format, format)
        assert.equal(inspected.encrypted, true)
        assert.match(inspected.warnings!.join(' '), /legacy OpenSSL way/)
        await refuses(
          { action: 'inspect', input: suite(encrypted), passphrase: 'not the passphrase' },
          'INVALID_INPUT',
          /^passphrase does not decrypt the key$/,
          ['not the passphrase'],
        )
      }
    }
    await refuses(
      { action: 'inspect', input: suite('ed25519_1_pw'), passphrase: 'not the passphrase' },
      'INVALID_INPUT',
      /^passphrase does not decrypt the key$/,
      ['not the passphrase'],
    )
  })

  test('known exceptions are refused, saying why: a certificate, security-key types, a post-quantum hybrid', async () => {
    await refuses({ action: 'inspect', input: suite('ed25519_1-cert.pub') }, 'INVALID_INPUT', /OpenSSH certificate, not a key/)
    await refuses({ action: 'inspect', input: suite('ecdsa_sk1.pub') }, 'INVALID_INPUT', /security-key types/)
    await refuses({ action: 'inspect', input: suite('ed25519_sk1.pub') }, 'INVALID_INPUT', /security-key types/)
    await refuses({ action: 'inspect', input: suite('mldsa44_ed25519_1.pub') }, 'INVALID_INPUT', /not supported/)
  })
})

interface OracleCase {
  kind: Record<string, unknown>
  passphrase: string | null
  privateKey: string
  publicKey: string
  rfc4716: string
  sshKeygenPublicFromPrivate: string
  sshKeygenFingerprint: string
  sshKeygenMd5: string
  sshKeygenFromRfc4716: string
  encryptedPkcs8?: string
  opensslPkcs8Pubout?: string
}

describe('key: what ssh-keygen and openssl read of keys written here (recorded once, see the fixture’s note)', () => {
  const oracle = JSON.parse(readFileSync(new URL('../../../test/fixtures/key/ssh-keygen-oracle.json', import.meta.url), 'utf8')) as { cases: OracleCase[] }

  test('ssh-keygen read each private key (encrypted or not), public line and RFC 4716 file as the same key', async () => {
    assert.equal(oracle.cases.length, 10)
    for (const entry of oracle.cases) {
      const context = JSON.stringify(entry.kind) + (entry.passphrase ? ' encrypted' : '')
      const [type, base64] = entry.publicKey.split(' ')
      assert.deepEqual(entry.sshKeygenPublicFromPrivate.split(' ').slice(0, 2), [type, base64], context)
      assert.deepEqual(entry.sshKeygenFromRfc4716.split(' ').slice(0, 2), [type, base64], context)
      const inspected = await run({ action: 'inspect', input: entry.privateKey, ...(entry.passphrase ? { passphrase: entry.passphrase } : {}) })
      assert.ok(entry.sshKeygenFingerprint.includes(` ${inspected.fingerprints.sha256} `), context)
      assert.ok(entry.sshKeygenMd5.includes(` ${inspected.fingerprints.md5} `), context)
      assert.equal((inspected.publicKey as { openssh: string }).openssh, entry.publicKey, context)
      const rfc = await run({ action: 'inspect', input: entry.rfc4716 })
      assert.equal(rfc.fingerprints.sha256, inspected.fingerprints.sha256, context)
      assert.equal(rfc.comment, entry.publicKey.split(' ').slice(2).join(' '), context)
      assert.equal((await run({ action: 'convert', input: entry.publicKey, to: 'rfc4716' })).result, entry.rfc4716, context)
      if (entry.encryptedPkcs8 !== undefined) {
        const pkcs8 = await run({ action: 'inspect', input: entry.encryptedPkcs8, passphrase: entry.passphrase })
        assert.equal((pkcs8.publicKey as { spki: string }).spki.trim(), entry.opensslPkcs8Pubout, context)
      }
    }
  })
})

const CHEAP_KINDS = [
  { type: 'ed25519' },
  { type: 'x25519' },
  { type: 'ed448' },
  { type: 'x448' },
  { type: 'ec', curve: 'P-256' },
  { type: 'ec', curve: 'P-384' },
  { type: 'ec', curve: 'P-521' },
  { type: 'ec', curve: 'secp256k1' },
] as const
const SSH_KINDS = new Set(['ed25519', 'ec P-256', 'ec P-384', 'ec P-521'])
const kindName = (kind: { type: string; curve?: string }) => (kind.curve ? `${kind.type} ${kind.curve}` : kind.type)
const TARGETS = ['pkcs8', 'pkcs1', 'sec1', 'spki', 'jwk', 'openssh', 'rfc4716'] as const

/** Whether a key of this kind has the target format. */
function hasFormat(kind: { type: string; curve?: string }, target: string): boolean {
  if (target === 'pkcs1') return kind.type === 'rsa'
  if (target === 'sec1') return kind.type === 'ec'
  if (target === 'openssh' || target === 'rfc4716') return kind.type === 'rsa' || SSH_KINDS.has(kindName(kind))
  return true
}

describe('key: round trips', () => {
  test('generate → convert → inspect keeps the key, for every type, format and target (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CHEAP_KINDS),
        fc.constantFrom('pem', 'jwk', 'openssh'),
        fc.constantFrom(...TARGETS),
        fc.boolean(),
        async (kind, format, to, publicOnly) => {
          if (format === 'openssh' && !hasFormat(kind, 'openssh')) return
          const generated = await run({ action: 'generate', ...kind, format })
          const onlyPublic = publicOnly && to !== 'pkcs8' && to !== 'sec1'
          const input = { action: 'convert', input: generated.result, to, ...(onlyPublic ? { publicOnly } : {}) }
          if (!hasFormat(kind, to)) {
            await refuses(input, 'INVALID_INPUT', /format not available for this key type/)
            return
          }
          const converted = await run(input)
          const inspected = await run({ action: 'inspect', input: converted.result })
          assert.equal(inspected.fingerprints.spkiSha256, generated.fingerprints.spkiSha256)
          assert.equal(inspected.type, kind.type)
          assert.equal(inspected.isPrivate, converted.isPrivate)
          assert.equal(inspected.format, to)
          assert.equal(converted.isPrivate, !(onlyPublic || to === 'spki' || to === 'rfc4716'))
          // The public key the generator gave reads as the same key too.
          assert.equal((await run({ action: 'inspect', input: String(generated.publicKey) })).fingerprints.spkiSha256, generated.fingerprints.spkiSha256)
        },
      ),
      { numRuns: 60 },
    )
  })

  test('RSA (once, not in a property: generation is slow): generate 2048 bits, then every target', async () => {
    const generated = await run({ action: 'generate', type: 'rsa', bits: 2048, format: 'openssh', comment: 'rsa@test' })
    assert.equal(generated.bits, 2048)
    assert.match(String(generated.publicKey), /^ssh-rsa AAAAB3NzaC1yc2E\S+ rsa@test$/)
    for (const to of TARGETS.filter((target) => hasFormat({ type: 'rsa' }, target))) {
      const converted = await run({ action: 'convert', input: generated.result, to })
      const inspected = await run({ action: 'inspect', input: converted.result })
      assert.equal(inspected.fingerprints.spkiSha256, generated.fingerprints.spkiSha256, to)
      assert.equal(inspected.fingerprints.sha256, generated.fingerprints.sha256, to)
    }
    const publicPkcs1 = await run({ action: 'convert', input: generated.result, to: 'pkcs1', publicOnly: true })
    assert.match(publicPkcs1.result, /^-----BEGIN RSA PUBLIC KEY-----/)
    assert.equal((await run({ action: 'inspect', input: publicPkcs1.result })).fingerprints.spkiSha256, generated.fingerprints.spkiSha256)
  })

  test('comments survive OpenSSH lines, private keys and RFC 4716 files (property)', async () => {
    const base = await run({ action: 'generate', format: 'openssh' })
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 120, unit: 'grapheme' }).filter((comment) => !/[\r\n]/.test(comment) && comment.trim() === comment),
        fc.constantFrom('openssh', 'rfc4716'),
        async (comment, to) => {
          const written = await run({ action: 'convert', input: base.result, to, comment })
          assert.equal((await run({ action: 'inspect', input: written.result })).comment, comment)
        },
      ),
      { numRuns: 40 },
    )
  })

  test('an RFC 4716 Comment header is cut between characters, never inside a surrogate pair (§3.3: lines of 72 bytes at most)', async () => {
    const line = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea'
    for (let pad = 50; pad < 60; pad++) {
      const comment = `${'a'.repeat(pad)}${'😀'.repeat(20)}`
      const written = await run({ action: 'convert', input: line, to: 'rfc4716', comment })
      assert.ok(written.result.isWellFormed(), `pad ${pad}: no lone surrogate`)
      for (const text of written.result.split('\n')) assert.ok(Buffer.byteLength(text) <= 72, text)
      assert.equal((await run({ action: 'inspect', input: written.result })).comment, comment)
    }
  })

  test('passphrases: PKCS#8 and OpenSSH keys encrypted here decrypt with the passphrase, and only with it', async () => {
    for (const format of ['pem', 'openssh'] as const) {
      const generated = await run({ action: 'generate', type: 'ec', curve: 'P-384', format, passphrase: 'pässwörd', rounds: 1 })
      assert.equal(generated.encrypted, true)
      assert.match(generated.result, format === 'pem' ? /^-----BEGIN ENCRYPTED PRIVATE KEY-----/ : /^-----BEGIN OPENSSH PRIVATE KEY-----/)
      const inspected = await run({ action: 'inspect', input: generated.result, passphrase: 'pässwörd' })
      assert.equal(inspected.fingerprints.spkiSha256, generated.fingerprints.spkiSha256)
      assert.equal(inspected.result, `EC P-384 private key, ${format === 'pem' ? 'PKCS#8' : 'OpenSSH format'}, encrypted`)
      await refuses({ action: 'inspect', input: generated.result, passphrase: 'password' }, 'INVALID_INPUT', /^passphrase does not decrypt the key$/, [
        'password',
      ])
      // Re-encrypted under another passphrase, in the other format.
      const other = await run({
        action: 'convert',
        input: generated.result,
        passphrase: 'pässwörd',
        to: format === 'pem' ? 'openssh' : 'pkcs8',
        outputPassphrase: 'second',
        rounds: 1,
      })
      assert.equal(other.encrypted, true)
      assert.equal((await run({ action: 'inspect', input: other.result, passphrase: 'second' })).fingerprints.spkiSha256, generated.fingerprints.spkiSha256)
    }
    await refuses({ action: 'inspect', input: (await run({ action: 'generate', passphrase: 'x' })).result }, 'INVALID_INPUT', /^passphrase required/)
    // An encrypted OpenSSH key converts to a public format without its passphrase, but not to a private one.
    const openssh = await run({ action: 'generate', format: 'openssh', passphrase: 'x', rounds: 1 })
    assert.equal((await run({ action: 'convert', input: openssh.result, to: 'spki' })).fingerprints.spkiSha256, openssh.fingerprints.spkiSha256)
    await refuses({ action: 'convert', input: openssh.result, to: 'pkcs8' }, 'INVALID_INPUT', /^passphrase required/)
  })

  test('generated keys are what was asked for', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{}, { type: 'ed25519', bits: 256, format: 'pem' }],
      [{ type: 'ec' }, { type: 'ec', bits: 256, curve: 'P-256' }],
      [
        { type: 'ec', curve: 'P-521', format: 'jwk' },
        { type: 'ec', bits: 521, curve: 'P-521', format: 'jwk' },
      ],
      [
        { type: 'ec', curve: 'secp256k1' },
        { type: 'ec', curve: 'secp256k1' },
      ],
      [{ type: 'x448' }, { type: 'x448', bits: 448 }],
      [{ type: 'ed448' }, { type: 'ed448', bits: 456 }],
    ]
    for (const [input, expected] of cases) {
      const answer = await run({ action: 'generate', ...input })
      for (const [field, value] of Object.entries(expected)) assert.equal(answer[field], value, `${JSON.stringify(input)} ${field}`)
    }
    const x25519 = await run({ action: 'generate', type: 'x25519' })
    assert.equal(x25519.fingerprints.sha256, undefined, 'SSH has no X25519 keys')
    assert.ok(x25519.fingerprints.jwkThumbprint)
    const jwk = await run({ action: 'generate', format: 'jwk' })
    assert.deepEqual(Object.keys(JSON.parse(jwk.result)), ['kty', 'crv', 'x', 'd'])
    assert.deepEqual(Object.keys(JSON.parse(String(jwk.publicKey))), ['kty', 'crv', 'x'])
    // node:crypto reads what was written.
    assert.equal(createPrivateKey({ key: JSON.parse(jwk.result), format: 'jwk' }).asymmetricKeyType, 'ed25519')
  })
})

// Made once with `openssl pkcs8 -topk8 -v2 aes-256-cbc -iter 5000000 -passout pass:x` (OpenSSL 3.0.19) of a throwaway Ed25519 key.
const PBKDF2_5M = `-----BEGIN ENCRYPTED PRIVATE KEY-----
MIGcMFgGCSqGSIb3DQEFDTBLMCoGCSqGSIb3DQEFDDAdBAhHAScMH/ibpQIDTEtA
MAwGCCqGSIb3DQIJBQAwHQYJYIZIAWUDBAEqBBBDcDRPCIHCbG9d4aJcHfOoBEAS
8l76YbcEkdGoBEcwfuwkHbEz8pr15msqIj+KPNRlSi1iiB0MiSfHs3arVtpk7L8a
/ir8e86JHOoNjdbUDUUr
-----END ENCRYPTED PRIVATE KEY-----`
// Made the same way with `-scrypt -scrypt_N 1024 -scrypt_r 8 -scrypt_p 1`.
const SCRYPT_1024 = `-----BEGIN ENCRYPTED PRIVATE KEY-----
MIGTME8GCSqGSIb3DQEFDTBCMCEGCSsGAQQB2kcECzAUBAi4HzfkTAsVbQICBAAC
AQgCAQEwHQYJYIZIAWUDBAEqBBAGyOCHimIoF6eZul81R4quBEB+Ps+/bjcyIg2R
dQDZu2aQJakmC+PwbTTa/iMfc71bVQ4mVs58Vmc4XvZ4x/t59wJApdYhSdLTnZ/d
IRbhLzqj
-----END ENCRYPTED PRIVATE KEY-----`

/** An openssh-key-v1 file's bytes, changed by `change`, written back as PEM. */
function alterOpenSsh(pem: string, change: (der: Buffer) => Buffer): string {
  const base64 = change(pemDer(pem)).toString('base64')
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${base64.match(/.{1,70}/g)!.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`
}

describe('key: refusals', () => {
  test('fields that do not fit the action or the type are 400s', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ action: 'generate', type: 'ed25519', bits: 2048 }, 'bits'],
      [{ action: 'generate', type: 'rsa', curve: 'P-256' }, 'curve'],
      [{ action: 'generate', type: 'x25519', format: 'openssh' }, 'format'],
      [{ action: 'generate', type: 'ec', curve: 'secp256k1', format: 'openssh' }, 'format'],
      [{ action: 'generate', comment: 'me@host' }, 'comment'],
      [{ action: 'generate', format: 'jwk', passphrase: 'x' }, 'passphrase'],
      [{ action: 'generate', input: 'x' }, 'input'],
      [{ action: 'generate', to: 'spki' }, 'to'],
      [{ action: 'inspect' }, 'input'],
      [{ action: 'inspect', input: JSON.stringify(RFC8037), to: 'spki' }, 'to'],
      [{ action: 'convert', input: JSON.stringify(RFC8037) }, 'to'],
      [{ action: 'convert', to: 'spki' }, 'input'],
      [{ action: 'convert', input: JSON.stringify(RFC8037), to: 'spki', outputPassphrase: 'x' }, 'outputPassphrase'],
      [{ action: 'convert', input: JSON.stringify(RFC8037), to: 'jwk', outputPassphrase: 'x' }, 'outputPassphrase'],
      [{ action: 'convert', input: JSON.stringify(RFC8037), to: 'openssh', publicOnly: true, outputPassphrase: 'x' }, 'outputPassphrase'],
      [{ action: 'convert', input: JSON.stringify(RFC8037), to: 'pkcs8', publicOnly: true }, 'publicOnly'],
      [{ action: 'convert', input: JSON.stringify(RFC8037), to: 'pkcs8', comment: 'x' }, 'comment'],
      [{ action: 'generate', format: 'openssh', comment: 'two\nlines' }, 'comment'],
      [{ action: 'generate', type: 'rsa', bits: 1024 }, 'bits'],
      [{ action: 'generate', format: 'openssh', rounds: 101 }, 'rounds'],
    ]
    for (const [input, field] of cases) {
      const refusal = await expectRefusal(run(input), { code: 'VALIDATION_ERROR' })
      assert.ok(JSON.stringify(refusal.details).includes(`"${field}`), `${JSON.stringify(input)}: ${refusal.message}`)
    }
    // A public key cannot be encrypted: that is found once the key is read.
    const { d: _d, ...publicJwk } = RFC8037
    await expectRefusal(run({ action: 'convert', input: JSON.stringify(publicJwk), to: 'openssh', outputPassphrase: 'x' }), {
      code: 'VALIDATION_ERROR',
      field: 'outputPassphrase',
    })
  })

  test('formats a key type lacks: 422 "format not available for this key type"', async () => {
    const ed25519 = JSON.stringify(RFC8037)
    const x25519 = (await run({ action: 'generate', type: 'x25519' })).result
    const p256 = (await run({ action: 'generate', type: 'ec' })).result
    for (const [input, to] of [
      [ed25519, 'sec1'],
      [ed25519, 'pkcs1'],
      [x25519, 'openssh'],
      [x25519, 'rfc4716'],
      [p256, 'pkcs1'],
    ]) {
      await refuses({ action: 'convert', input, to }, 'INVALID_INPUT', /format not available for this key type/, [RFC8037.d])
    }
    const { d: _d, ...publicJwk } = RFC8037
    await refuses({ action: 'convert', input: JSON.stringify(publicJwk), to: 'pkcs8' }, 'INVALID_INPUT', /public key, and pkcs8 holds private keys/)
  })

  test('inconsistent JWKs: EC x and y not of d, RSA primes not of n, RSA CRT members not of d, p and q', async () => {
    const [a, b] = [0, 1].map(() => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }))
    await refuses({ action: 'inspect', input: JSON.stringify({ ...a, x: b.x, y: b.y }) }, 'INVALID_INPUT', /x and y do not match d/, [a.d!])
    const rsa = createPrivateKey(suite('rsa_1')).export({ format: 'jwk' })
    const other = createPrivateKey(suite('rsa_2')).export({ format: 'jwk' })
    await refuses({ action: 'inspect', input: JSON.stringify({ ...rsa, p: other.p }) }, 'INVALID_INPUT', /n, e, d, p and q do not belong together/, [
      rsa.d!.slice(0, 40),
    ])
    // RFC 7518 §6.3.2: dp = d mod (p − 1), dq = d mod (q − 1), qi = q⁻¹ mod p. A wrong CRT member would be written
    // into every format converted to, where a signer trusting it makes wrong signatures (one gives away p): never read silently.
    for (const member of ['dp', 'dq', 'qi'] as const) {
      const swapped = { ...rsa, [member]: member === 'dp' ? rsa.dq : rsa.dp }
      await refuses({ action: 'inspect', input: JSON.stringify(swapped) }, 'INVALID_INPUT', /dp, dq and qi do not belong to d, p and q/, [rsa.d!.slice(0, 40)])
    }
    await refuses({ action: 'inspect', input: JSON.stringify({ kty: 'oct', k: 'AAAA' }) }, 'INVALID_INPUT', /symmetric key/)
    await refuses({ action: 'inspect', input: JSON.stringify({ keys: [RFC8037, RFC8037] }) }, 'INVALID_INPUT', /JWK Set of 2 keys/)
    assert.equal(
      (await run({ action: 'inspect', input: JSON.stringify({ keys: [RFC8037] }) })).fingerprints.jwkThumbprint,
      'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
    )
  })

  test('an EC private key (SEC1, PKCS#8) whose stored public point is not its scalar’s is refused, as a JWK’s would be', async () => {
    // RFC 5915 §3 stores the public key beside d, and OpenSSL takes it as it is: the fingerprints would be another key's.
    const [a, b] = [0, 1].map(() => generateKeyPairSync('ec', { namedCurve: 'P-256' }))
    const point = (pair: typeof a) => (pair.publicKey.export({ type: 'spki', format: 'der' }) as Buffer).subarray(-65)
    for (const [type, label] of [
      ['sec1', 'EC PRIVATE KEY'],
      ['pkcs8', 'PRIVATE KEY'],
    ] as const) {
      const der = Buffer.from(a.privateKey.export({ type, format: 'der' }) as Buffer)
      point(b).copy(der, der.indexOf(point(a)))
      const pem = `-----BEGIN ${label}-----\n${der.toString('base64')}\n-----END ${label}-----\n`
      await refuses({ action: 'inspect', input: pem }, 'INVALID_INPUT', /public key does not match its private key/, [secretPart(pem)])
      await refuses({ action: 'convert', input: der.toString('base64'), to: 'openssh' }, 'INVALID_INPUT', /public key does not match its private key/)
    }
  })

  test('an RSA private key in PEM or OpenSSH form whose CRT members are not of d, p and q is refused, as a JWK’s is', async () => {
    const jwk = createPrivateKey(suite('rsa_1')).export({ format: 'jwk' })
    // node:crypto reads the swapped member without a word; written as PKCS#1 it keeps it.
    const pkcs1 = createPrivateKey({ key: { ...jwk, dp: jwk.dq }, format: 'jwk' }).export({ type: 'pkcs1', format: 'pem' }) as string
    await refuses({ action: 'inspect', input: pkcs1 }, 'INVALID_INPUT', /dp, dq and qi do not belong to d, p and q/, [secretPart(pkcs1)])
    // openssh-key-v1 stores n, e, d, iqmp, p, q: a damaged iqmp (qi) is caught too.
    const openssh = suite('rsa_n')
    const qi = Buffer.from(jwk.qi!, 'base64url')
    const damaged = alterOpenSsh(openssh, (bytes) => {
      const at = bytes.indexOf(qi)
      assert.ok(at > 0)
      bytes[at + 10] ^= 1
      return bytes
    })
    await refuses({ action: 'inspect', input: damaged }, 'INVALID_INPUT', /dp, dq and qi do not belong to d, p and q/, [secretPart(openssh)])
  })

  test('DSA is refused, as a PEM label, as PKCS#8 and as an ssh-dss line', async () => {
    const dsa = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 })
    const pkcs8 = dsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
    await refuses({ action: 'inspect', input: pkcs8 }, 'INVALID_INPUT', /DSA keys are not supported/, [secretPart(pkcs8)])
    await refuses({ action: 'inspect', input: dsa.publicKey.export({ type: 'spki', format: 'pem' }) }, 'INVALID_INPUT', /DSA keys are not supported/)
    await refuses(
      { action: 'inspect', input: '-----BEGIN DSA PRIVATE KEY-----\nMAA=\n-----END DSA PRIVATE KEY-----' },
      'INVALID_INPUT',
      /DSA keys are not supported/,
    )
    const blob = Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-dss'), Buffer.from([0, 0, 0, 1, 1])])
    await refuses({ action: 'inspect', input: `ssh-dss ${blob.toString('base64')} old` }, 'INVALID_INPUT', /DSA keys \(ssh-dss\) are not supported/)
  })

  test('OpenSSH KDF rounds over 100 in an input key: 422 LIMIT_EXCEEDED, before any work', async () => {
    const pem = suite('ed25519_1_pw')
    // The rounds follow the magic, "aes256-ctr", "bcrypt", the options' length and the 16-byte salt.
    const roundsAt = 15 + 4 + 10 + 4 + 6 + 4 + 4 + 16
    assert.equal(pemDer(pem).readUInt32BE(roundsAt), 16)
    for (const rounds of [101, 0xffffffff]) {
      const altered = alterOpenSsh(pem, (der) => {
        der.writeUInt32BE(rounds, roundsAt)
        return der
      })
      const started = performance.now()
      await expectRefusal(run({ action: 'inspect', input: altered, passphrase: PASSPHRASE }), {
        code: 'LIMIT_EXCEEDED',
        details: { parameter: 'rounds', limit: 100 },
      })
      await expectRefusal(run({ action: 'inspect', input: altered }), { code: 'LIMIT_EXCEEDED' })
      assert.ok(performance.now() - started < 1000)
    }
  })

  test('encrypted PKCS#8 asking for too costly a KDF: 422 LIMIT_EXCEEDED before OpenSSL runs it', async () => {
    await expectRefusal(run({ action: 'inspect', input: PBKDF2_5M, passphrase: 'x' }), { code: 'LIMIT_EXCEEDED', details: { parameter: 'iterations' } })
    // scrypt with N = 1024 reads; with N raised to 32,767 in place (r = 8: 32 MiB and more) it is refused.
    assert.equal((await run({ action: 'inspect', input: SCRYPT_1024, passphrase: 'x' })).type, 'ed25519')
    const der = pemDer(SCRYPT_1024)
    const at = der.indexOf(Buffer.from([0x02, 0x02, 0x04, 0x00]))
    der.writeUInt16BE(0x7fff, at + 2)
    const altered = `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${der.toString('base64')}\n-----END ENCRYPTED PRIVATE KEY-----`
    await expectRefusal(run({ action: 'inspect', input: altered, passphrase: 'x' }), { code: 'LIMIT_EXCEEDED', details: { parameter: 'scrypt' } })
  })

  test('the KDF bound holds for BER lengths OpenSSL reads too: a length in 5 octets (leading zeros) is no way around it', async () => {
    // OpenSSL's asn1_get_length skips leading zero octets of a long-form length; DER allows none.
    const der = pemDer(PBKDF2_5M)
    const body = der.subarray(2 + (der[1] & 0x7f))
    const padded = Buffer.concat([Buffer.from([0x30, 0x85, 0, 0, 0, body.length >> 8, body.length & 0xff]), body])
    const pem = (bytes: Buffer) => `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${bytes.toString('base64')}\n-----END ENCRYPTED PRIVATE KEY-----`
    const started = performance.now()
    await expectRefusal(run({ action: 'inspect', input: pem(padded), passphrase: 'x' }), { code: 'LIMIT_EXCEEDED', details: { parameter: 'iterations' } })
    // Indefinite lengths and other structures the cost cannot be read from are refused without running a KDF.
    const indefinite = Buffer.concat([Buffer.from([0x30, 0x80]), body, Buffer.from([0, 0])])
    await expectRefusal(run({ action: 'inspect', input: pem(indefinite), passphrase: 'x' }), { code: 'INVALID_INPUT' })
    assert.ok(performance.now() - started < 1000, 'no KDF ran')
  })

  test('lying lengths and damaged OpenSSH keys: 422 at once, never a large allocation', async () => {
    const pem = suite('ed25519_1')
    const der = pemDer(pem)
    for (let offset = 15; offset < der.length - 4; offset += 7) {
      const altered = alterOpenSsh(pem, (bytes) => {
        bytes.writeUInt32BE(0xfffffff0, offset)
        return bytes
      })
      await expectRefusal(run({ action: 'inspect', input: altered }), { code: 'INVALID_INPUT' })
    }
    for (const length of [20, 60, 100, der.length - 1]) {
      await expectRefusal(run({ action: 'inspect', input: alterOpenSsh(pem, (bytes) => bytes.subarray(0, length)) }), { code: 'INVALID_INPUT' })
    }
    const line = suite('ed25519_1.pub').split(' ')
    const blob = Buffer.from(line[1], 'base64')
    blob.writeUInt32BE(0x7fffffff, 15)
    await refuses({ action: 'inspect', input: `ssh-ed25519 ${blob.toString('base64')}` }, 'INVALID_INPUT', /claims 2147483647 bytes where 32 remain/)
    await refuses({ action: 'inspect', input: `ssh-rsa ${line[1]}` }, 'INVALID_INPUT', /names the key type "ssh-rsa" but its base64 holds "ssh-ed25519"/)
  })

  test('what is not one key: 422 saying what was expected', async () => {
    const [one, two] = [suite('ecdsa_1'), suite('rsa_1')]
    await refuses({ action: 'inspect', input: `${one}\n${two}` }, 'LIMIT_EXCEEDED', /more than one PEM block/, [secretPart(one), secretPart(two)])
    await refuses({ action: 'inspect', input: `${one}\n${two}\n${one}` }, 'LIMIT_EXCEEDED', /more than one PEM block/, [secretPart(one), secretPart(two)])
    // openssl ecparam -genkey writes the curve's parameters before the key: passed over.
    const parameters = '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n'
    assert.equal((await run({ action: 'inspect', input: `${parameters}${one}` })).fingerprints.sha256, suite('ecdsa_1.fp').trim())
    await refuses({ action: 'inspect', input: 'hello' }, 'INVALID_INPUT', /^input is not a key/)
    await refuses({ action: 'inspect', input: 'AAAA' }, 'INVALID_INPUT', /^input is not a key/)
    await refuses({ action: 'inspect', input: '{"kty":' }, 'INVALID_INPUT', /not JSON text/)
    await refuses({ action: 'inspect', input: '-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----' }, 'INVALID_INPUT', /certificate, not a key/)
    await refuses(
      { action: 'inspect', input: '-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----' },
      'INVALID_INPUT',
      /not a valid PKCS#8 private key/,
    )
    await refuses({ action: 'inspect', input: '-----BEGIN PRIVATE KEY-----\nMA%A=\n-----END PRIVATE KEY-----' }, 'INVALID_INPUT', /not base64 at line 2/)
    await refuses({ action: 'inspect', input: '-----BEGIN FOO-----\nMAA=\n-----END FOO-----' }, 'INVALID_INPUT', /labelled "FOO"/)
    await refuses({ action: 'inspect', input: '---- BEGIN SSH2 PUBLIC KEY ----\nAAAA' }, 'INVALID_INPUT', /no "---- END SSH2 PUBLIC KEY ----" line/)
  })

  test('an authorized_keys or known_hosts line is read from its key type on; two keys are one too many', async () => {
    const line = suite('ed25519_1.pub').trim()
    const fingerprint = suite('ed25519_1.fp').trim()
    for (const input of [`from="10.0.0.0/8",no-pty ${line}`, `github.com,192.0.2.1 ${line}`, `# my key\n\n${line}\n`]) {
      const answer = await run({ action: 'inspect', input })
      assert.equal(answer.fingerprints.sha256, fingerprint, input)
      assert.equal(answer.comment, 'ED25519 test key #1', input)
    }
    await refuses({ action: 'inspect', input: `${line}\n${suite('rsa_1.pub')}` }, 'LIMIT_EXCEEDED', /holds 2 lines; one key per call/)
  })

  test('a curve JOSE and SSH have no name for is read with OpenSSL’s name; an unknown curve OID is refused', async () => {
    // openssl ecparam -name brainpoolP256r1 -genkey | openssl pkey -pubout (OpenSSL 3.0.19), once.
    const brainpool = 'MFowFAYHKoZIzj0CAQYJKyQDAwIIAQEHA0IABHxq8Qo/Oe386t5J1xr0R/y4ouc7PRG8CDlxUdU7UGoYAwxiUAYHTjuaAWHnUZ2XmgLfFhg8NldtUsKnVbTfpuo='
    const answer = await run({ action: 'inspect', input: `-----BEGIN PUBLIC KEY-----\n${brainpool}\n-----END PUBLIC KEY-----` })
    assert.equal(answer.curve, 'brainpoolP256r1')
    assert.deepEqual(Object.keys(answer.fingerprints), ['spkiSha256'])
    await refuses({ action: 'convert', input: brainpool, to: 'jwk' }, 'INVALID_INPUT', /format not available for this key type/)
    // The same key with its curve OID's last arc changed to one no standard assigns.
    const unknown = brainpool.replace('AQEHA0IABHxq', 'AQF/A0IABHxq')
    await refuses({ action: 'inspect', input: unknown }, 'INVALID_INPUT', /algorithm or curve is not one this service reads/)
  })

  test('an RSA key over 16,384 bits is refused as too large', async () => {
    const n = Buffer.alloc(2049, 0xff)
    await expectRefusal(run({ action: 'inspect', input: JSON.stringify({ kty: 'RSA', n: n.toString('base64url'), e: 'AQAB' }) }), {
      code: 'LIMIT_EXCEEDED',
      details: { limit: 16_384 },
    })
  })

  test('a passphrase given for a key that is not encrypted is not used, and said so', async () => {
    const answer = await run({ action: 'inspect', input: JSON.stringify(RFC8037), passphrase: 'x' })
    assert.deepEqual(answer.warnings, ['passphrase was given but the key is not encrypted; it was not used'])
  })

  test('the public key inputs need no secret: a public SPKI, RFC 4716 and OpenSSH line agree', async () => {
    const spki = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: RFC8037.x }, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string
    const rfc = await run({ action: 'convert', input: spki, to: 'rfc4716', comment: 'a "quoted" comment' })
    assert.equal(rfc.result.split('\n')[1], 'Comment: "a "quoted" comment"')
    const back = await run({ action: 'inspect', input: rfc.result })
    assert.equal(back.comment, 'a "quoted" comment')
    assert.equal(back.fingerprints.sha256, 'SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8')
  })
})

describe('key: EC private scalars outside their curve', () => {
  /** A P-256 PKCS#8 key (no public point) whose ECPrivateKey holds `scalar` as d. */
  const p256 = (scalar: Buffer) => {
    const octets = (bytes: Buffer) => Buffer.concat([Buffer.from([0x04, bytes.length]), bytes])
    const sequence = (...parts: Buffer[]) => {
      const body = Buffer.concat(parts)
      return Buffer.concat([Buffer.from([0x30, body.length]), body])
    }
    const ecPrivateKey = sequence(Buffer.from('020101', 'hex'), octets(scalar))
    const algorithm = sequence(Buffer.from('06072a8648ce3d0201', 'hex'), Buffer.from('06082a8648ce3d030107', 'hex'))
    const der = sequence(Buffer.from('020100', 'hex'), algorithm, octets(ecPrivateKey))
    return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64')}\n-----END PRIVATE KEY-----\n`
  }
  const order = Buffer.from('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551', 'hex')
  const minus = (bytes: Buffer, one: number) => Buffer.from((BigInt(`0x${bytes.toString('hex')}`) - BigInt(one)).toString(16).padStart(64, '0'), 'hex')

  test('a scalar longer than the curve’s (which Node.js 22 aborts the process reading), 0, n and beyond are 422, on every action that reads a key', async () => {
    for (const scalar of [Buffer.alloc(33, 0x11), Buffer.alloc(32), order, Buffer.alloc(32, 0xff)]) {
      for (const body of [{ action: 'inspect' }, { action: 'convert', to: 'jwk' }, { action: 'convert', to: 'openssh' }]) {
        // Node.js 24's OpenSSL refuses some of them as it decodes them; 22's reads them, and the scalar check refuses them.
        await expectRefusal(run({ ...body, input: p256(scalar) }), {
          code: 'INVALID_INPUT',
          message: /^input is not a valid (?:EC private key: its private scalar d|PKCS#8 private key)/,
        })
      }
    }
  })

  test('n − 1 and 1 are scalars of the curve, read as openssl reads them', async () => {
    for (const scalar of [minus(order, 1), Buffer.concat([Buffer.alloc(31), Buffer.from([1])])]) {
      const answer = await run({ action: 'inspect', input: p256(scalar) })
      assert.equal(answer.type, 'ec')
    }
  })
})
