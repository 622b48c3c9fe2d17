// Over 600 lines: every section here shares the published certificates, the hand-built certificates and the refusal checks; split, each file would carry a copy of them.
import assert from 'node:assert/strict'
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { expectRefusal } from '../../../test/expect.ts'
import { certificateWithNames, der } from '../../../test/hostile-inputs.ts'
import { runCallsInProcess } from '../../../test/in-process.ts'
import { execute } from '../../core/execute.ts'
import { x509 } from './index.ts'

// biome-ignore lint/suspicious/noExplicitAny: the answer's items are open objects, read field by field
type Answer = Record<string, any>
const run = async (input: Record<string, unknown>) => (await execute(x509, input, { timeBudgetMs: 60_000 })) as Answer
const AT = '2026-01-01T00:00:00Z'
const parse = (input: string, more: Record<string, unknown> = {}) => run({ input, at: AT, ...more })

const SUITES = new URL('../../../test/fixtures/suites/', import.meta.url)
const FIXTURES = new URL('../../../test/fixtures/x509/', import.meta.url)
const pyca = (path: string) => readFileSync(new URL(`pyca-x509/${path}`, SUITES), 'utf8')
const X1 = readFileSync(new URL('isrg-roots/isrg-root-x1.pem', SUITES), 'utf8')
const X2 = readFileSync(new URL('isrg-roots/isrg-root-x2.pem', SUITES), 'utf8')
const derOf = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64')

/** DER by hand (ITU-T X.690), for structures no tool would make: 10,000 names, a NUL in a name, a huge CRL. */
function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts)
  const n = body.length
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]
  return Buffer.concat([Buffer.from([tag, ...length]), body])
}
const hex = (text: string) => Buffer.from(text, 'hex')
const ECDSA_SHA256 = hex('300a06082a8648ce3d040302')
const nameCN = (cn: string) => tlv(0x30, tlv(0x31, tlv(0x30, hex('0603550403'), tlv(0x0c, Buffer.from(cn)))))
const utcTime = (text: string) => tlv(0x17, Buffer.from(text))

/** A v3 certificate of an EC key with the given DNS names, self-signed. */
function handCertificate(dnsNames: Buffer[], key: KeyObject, subject = 'hand'): Buffer {
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' })
  const san = tlv(0x30, hex('0603551d11'), tlv(0x04, tlv(0x30, ...dnsNames.map((name) => tlv(0x82, name)))))
  const tbs = tlv(
    0x30,
    tlv(0xa0, hex('020102')),
    hex('020101'),
    ECDSA_SHA256,
    nameCN('hand'),
    tlv(0x30, utcTime('260101000000Z'), utcTime('260301000000Z')),
    nameCN(subject),
    spki,
    tlv(0xa3, tlv(0x30, san)),
  )
  return tlv(0x30, tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), sign('sha256', tbs, key)))
}

const pem = (label: string, der: Buffer) => `-----BEGIN ${label}-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`
const ecKey = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey

describe('x509', () => {
  // The worker pool is the surfaces' concern (test/registry-wide/surfaces.test.ts runs every example offloaded).
  runCallsInProcess()

  test('says what it does: no placeholder is left', () => {
    assert.deepEqual(JSON.stringify(x509).match(/TODO[^"]*/g) ?? [], [])
  })

  describe('published vectors', () => {
    test('ISRG Root X1: every value Let’s Encrypt and openssl publish', async () => {
      const { result, count, warnings } = await parse(X1)
      assert.equal(count, 1)
      assert.deepEqual(warnings, [])
      const [cert] = result
      assert.equal(cert.type, 'certificate')
      assert.equal(cert.version, 3)
      assert.equal(cert.subject, 'CN=ISRG Root X1,O=Internet Security Research Group,C=US')
      assert.equal(cert.issuer, cert.subject)
      assert.deepEqual(cert.subjectAttributes[0], { type: 'C', oid: '2.5.4.6', value: 'US' })
      assert.equal(cert.serialNumber, '8210cfb0d240e3594463e0bb63828b00')
      assert.equal(cert.serialDecimal, BigInt('0x8210cfb0d240e3594463e0bb63828b00').toString())
      assert.equal(cert.notBefore, '2015-06-04T11:04:38Z')
      assert.equal(cert.notAfter, '2035-06-04T11:04:38Z')
      assert.equal(cert.validAt, true)
      assert.equal(cert.daysRemaining, 3441)
      assert.equal(cert.selfSigned, true)
      assert.equal(cert.signatureValid, true)
      assert.deepEqual(cert.signatureAlgorithm, { name: 'sha256WithRSAEncryption', oid: '1.2.840.113549.1.1.11', hash: 'sha256' })
      assert.equal(cert.publicKey.type, 'rsa')
      assert.equal(cert.publicKey.bits, 4096)
      assert.equal(cert.publicKey.exponent, '65537')
      assert.equal(cert.publicKey.spkiSha256, 'C5+lpZ7tcVwmwQIMcRtPbsQtWLABXhQzejna0wHFr8M=')
      assert.deepEqual(cert.fingerprints, {
        sha1: 'CA:BD:2A:79:A1:07:6A:31:F2:1D:25:36:35:CB:03:9D:43:29:A5:E8',
        sha256: '96:BC:EC:06:26:49:76:F3:74:60:77:9A:CF:28:C5:A7:CF:E8:A3:C0:AA:E1:1A:8F:FC:EE:05:C0:BD:DF:08:C6',
      })
      assert.equal(cert.isCa, true)
      assert.deepEqual(cert.extensions, [
        { oid: '2.5.29.15', name: 'keyUsage', critical: true, value: ['keyCertSign', 'cRLSign'] },
        { oid: '2.5.29.19', name: 'basicConstraints', critical: true, value: { ca: true } },
        { oid: '2.5.29.14', name: 'subjectKeyIdentifier', critical: false, value: '79b459e67bb6e5e40173800888c81a58f6e99b6e' },
      ])
      assert.equal(cert.pem, X1.replace(/\r\n/g, '\n'))
    })

    test('ISRG Root X2: EC P-384, ecdsa-with-SHA384, its fingerprint and pin', async () => {
      const [cert] = (await parse(X2)).result
      assert.deepEqual(cert.signatureAlgorithm, { name: 'ecdsa-with-SHA384', oid: '1.2.840.10045.4.3.3', hash: 'sha384' })
      assert.equal(cert.publicKey.type, 'ec')
      assert.equal(cert.publicKey.curve, 'P-384')
      assert.equal(cert.publicKey.bits, 384)
      assert.equal(cert.publicKey.spkiSha256, 'diGVwiVYbubAI3RW4hB9xU8e/CH2GnkuvVFZE8zmgzI=')
      assert.equal(cert.fingerprints.sha256, '69:72:9B:8E:15:A8:6E:FC:17:7A:57:AF:B7:17:1D:FC:64:AD:D2:8C:2F:CA:8C:F1:50:7E:34:45:3C:CB:14:70')
      assert.equal(cert.notAfter, '2040-09-17T16:00:00Z')
      assert.equal(cert.selfSigned, true)
    })

    test('the pin is the SHA-256 of the SubjectPublicKeyInfo the certificate holds, not of OpenSSL’s re-encoding of its key', async () => {
      // rsaEncryption with its NULL parameters left out, which OpenSSL reads and writes back with them.
      const reEncoded = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' })
      const withoutNull = der(0x30, Buffer.from('300b06092a864886f70d010101', 'hex'), reEncoded.subarray(3 + 15))
      assert.deepEqual(createPublicKey({ key: withoutNull, format: 'der', type: 'spki' }).export({ type: 'spki', format: 'der' }), reEncoded)
      const [cert] = (await parse(certificateWithNames(['a.example'], withoutNull).toString('base64'))).result
      assert.equal(cert.publicKey.type, 'rsa')
      assert.equal(cert.publicKey.spkiSha256Hex, createHash('sha256').update(withoutNull).digest('hex'))
    })

    test('X1 and X2 with text between: two certificates in order, neither signing the other', async () => {
      const answer = await parse(`Certificate chain\n 0 s:X1\n${X1}\nsome text --- between\n${X2}\ntrailing text`)
      assert.equal(answer.count, 2)
      assert.deepEqual(
        answer.result.map((item: Answer) => [item.block, item.subject]),
        [
          [0, 'CN=ISRG Root X1,O=Internet Security Research Group,C=US'],
          [1, 'CN=ISRG Root X2,O=Internet Security Research Group,C=US'],
        ],
      )
      assert.deepEqual(answer.chain, { ordered: false, links: [] })
    })

    test('pyca negative_serial.pem: the signed serial, its warning, SANs and a critical CRL distribution point', async () => {
      const answer = await parse(pyca('custom/negative_serial.pem'))
      const [cert] = answer.result
      assert.equal(cert.serialNumber, 'fbce996c13')
      assert.equal(cert.serialDecimal, '-18008675309')
      assert.ok(answer.warnings.includes('item 0 (certificate): negative serial (RFC 5280 §4.1.2.2)'), answer.warnings.join('\n'))
      assert.deepEqual(cert.subjectAltNames, ['DNS:*.gov.us', 'DNS:gov.us'])
      assert.equal(cert.subject, 'CN=gov.us,OU=Chaos,O=Extreme Discord,postalCode=30062,street=3210 Holly Mill Run,L=Tallahassee,ST=FL,C=US')
      const distribution = cert.extensions.find((extension: Answer) => extension.name === 'cRLDistributionPoints')
      assert.deepEqual(distribution, {
        oid: '2.5.29.31',
        name: 'cRLDistributionPoints',
        critical: true,
        value: [{ fullName: ['URI:http://crl.starfieldtech.com/sfig2s1-17.crl'] }],
      })
      assert.deepEqual(cert.extensions.find((extension: Answer) => extension.name === 'extendedKeyUsage').value, [
        { oid: '1.3.6.1.5.5.7.3.1', name: 'serverAuth' },
        { oid: '1.3.6.1.5.5.7.3.2', name: 'clientAuth' },
      ])
    })

    test('pyca malformed-san.pem: a 200 with the SAN reported as malformed and every other field read', async () => {
      const answer = await parse(pyca('custom/malformed-san.pem'))
      const [cert] = answer.result
      assert.equal(cert.serialNumber, '3f5f9b32ab341b895662')
      assert.equal(cert.subject, '')
      assert.deepEqual(cert.subjectAltNames, [])
      const [san] = cert.extensions
      assert.equal(san.name, 'subjectAltName')
      assert.equal(san.error, 'the subjectAltName extension is malformed')
      assert.equal(san.valueHex, '3009a0070603550403 0c00'.replace(' ', ''))
      assert.equal(cert.publicKey.bits, 1024)
      assert.ok(answer.warnings.some((warning: string) => /RSA key of 1024 bits/.test(warning)))
      assert.ok(answer.warnings.some((warning: string) => /sha1WithRSAEncryption/.test(warning)))
    })

    test('pyca invalid_utf8_common_name.pem: a CN that is not UTF-8 is written #hex (RFC 4514 §2.4)', async () => {
      const [cert] = (await parse(pyca('custom/invalid_utf8_common_name.pem'))).result
      assert.equal(cert.subject, 'CN=#0c105765206865617274205554463821e284')
      assert.equal(cert.version, 1)
      assert.equal(cert.serialNumber, 'df0929da94b061ba')
    })

    test('pyca san_ipaddr.pem: IPv4 and IPv6 names', async () => {
      const [cert] = (await parse(pyca('custom/san_ipaddr.pem'))).result
      assert.deepEqual(cert.subjectAltNames, ['IP:127.0.0.1', 'IP:ff::'])
    })

    test('pyca with_garbage and with_headers: one certificate; key blocks skipped and never echoed', async () => {
      for (const file of ['cryptography.io.with_garbage.pem', 'cryptography.io.with_headers.pem']) {
        const answer = await parse(pyca(file))
        assert.equal(answer.count, 1, file)
        assert.equal(answer.result[0].fingerprints.sha256, 'DC:4F:4D:14:00:D4:52:60:52:B5:DA:69:33:94:DC:85:60:B2:9C:C2:1D:F9:0B:9E:2E:C7:41:62:61:C7:38:88')
        assert.deepEqual(answer.result[0].subjectAltNames, ['DNS:www.cryptography.io', 'DNS:cryptography.io'])
        assert.ok(answer.warnings.some((warning: string) => /PRIVATE KEY, line \d+\) skipped/.test(warning)))
        assert.doesNotMatch(JSON.stringify(answer), /aHR0cHM6Ly9iaXQubHkvM3VKOXpZZw|xXOPSE88uXYkutY15A7k/)
      }
    })

    test('SCTs of badssl-sct.pem and cryptography-scts.pem (pyca test_x509_ext.py, openssl)', async () => {
      const scts = async (file: string) =>
        (await parse(pyca(file))).result[0].extensions.find((extension: Answer) => extension.oid === '1.3.6.1.4.1.11129.2.4.2').value
      assert.deepEqual(await scts('badssl-sct.pem'), [
        {
          version: 'v1',
          logId: Buffer.from('a7ce4a4e6207e0addee5fdaa4b1f86768767b5d002a55d47310e7e670a95eab2', 'hex').toString('base64'),
          timestamp: '2016-11-17T01:56:25.396Z',
          hashAlgorithm: 'sha256',
          signatureAlgorithm: 'ecdsa',
        },
      ])
      const two = await scts('cryptography-scts.pem')
      assert.deepEqual(
        two.map((sct: Answer) => [Buffer.from(sct.logId, 'base64').subarray(0, 4).toString('hex'), sct.timestamp]),
        [
          ['293c5196', '2018-09-26T20:56:33.769Z'],
          ['6f5376ac', '2018-09-26T20:56:33.904Z'],
        ],
      )
    })

    test('pyca crl_all_reasons.pem: issuer, dates, each entry and its reason', async () => {
      const answer = await parse(pyca('custom/crl_all_reasons.pem'))
      const [crl] = answer.result
      assert.equal(crl.type, 'crl')
      assert.equal(crl.issuer, 'CN=cryptography.io,O=pyCA')
      assert.equal(crl.thisUpdate, '2015-05-14T01:00:52Z')
      assert.equal(crl.nextUpdate, '2018-02-07T01:00:52Z')
      assert.equal(crl.revokedCount, 9)
      assert.equal(crl.revokedTruncated, false)
      assert.equal(crl.signatureValid, undefined, 'its issuer is not in the input')
      assert.deepEqual(
        crl.revoked.map((entry: Answer) => [entry.serialNumber, entry.reason]),
        [
          ['01', 'keyCompromise'],
          ['02', 'unspecified'],
          ['03', 'keyCompromise'],
          ['04', 'cACompromise'],
          ['05', 'affiliationChanged'],
          ['06', 'superseded'],
          ['07', 'cessationOfOperation'],
          ['08', 'certificateHold'],
          ['09', 'removeFromCRL'],
        ],
      )
    })

    test('PKCS#7 bundles (openssl crl2pkcs7): certificates and CRLs in order', async () => {
      const roots = await parse(readFileSync(new URL('isrg-roots.p7b.pem', FIXTURES), 'utf8'))
      assert.deepEqual(
        roots.result.map((item: Answer) => item.fingerprints.sha256.slice(0, 5)),
        ['96:BC', '69:72'],
      )
      const mixed = await parse(readFileSync(new URL('crl-and-cert.p7b.pem', FIXTURES), 'utf8'))
      assert.deepEqual(
        mixed.result.map((item: Answer) => [item.type, item.block]),
        [
          ['certificate', 0],
          ['crl', 0],
        ],
      )
      const asDer = await parse(derOf(readFileSync(new URL('isrg-roots.p7b.pem', FIXTURES), 'utf8')).toString('hex'))
      assert.equal(asDer.count, 2)
    })

    test('50,000 nested SEQUENCEs as base64: 422 LIMIT_EXCEEDED in milliseconds', async () => {
      const headers: Buffer[] = []
      let length = 0
      for (let depth = 0; depth < 50_000; depth++) {
        const header = Buffer.from(
          length < 0x80
            ? [0x30, length]
            : length < 0x100
              ? [0x30, 0x81, length]
              : length < 0x10000
                ? [0x30, 0x82, length >> 8, length & 0xff]
                : [0x30, 0x83, length >> 16, (length >> 8) & 0xff, length & 0xff],
        )
        headers.push(header)
        length += header.length
      }
      const der = Buffer.concat(headers.reverse())
      assert.ok(der.length > 200_000)
      const started = performance.now()
      await expectRefusal(run({ input: der.toString('base64') }), {
        code: 'LIMIT_EXCEEDED',
        message: /deeper than 100 levels/,
        details: { maxDepth: 100, maxNodes: 1_000_000 },
      })
      assert.ok(performance.now() - started < 1000)
    })
  })

  describe('chains, CSRs and CRLs checked against the input', () => {
    test('a generated CA, a CRL it signs with 12,000 entries: all counted, the first 1,000 listed, the signature checked over the whole', async () => {
      const ca = await run({ action: 'generate', subject: 'CN=Test CA', isCa: true, keyType: 'p-256', notBefore: AT, validityDays: 3650 })
      const key = createPrivateKey(ca.privateKey)
      const entries = Array.from({ length: 12_000 }, (_, i) => tlv(0x30, tlv(0x02, Buffer.from([0x01, i >> 8, i & 0xff])), utcTime('260102000000Z')))
      const tbs = tlv(0x30, hex('020101'), ECDSA_SHA256, nameCN('Test CA'), utcTime('260102000000Z'), utcTime('260201000000Z'), tlv(0x30, ...entries))
      const crl = tlv(0x30, tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), sign('sha256', tbs, key)))
      const started = performance.now()
      const answer = await parse(`${ca.result}${pem('X509 CRL', crl)}`)
      const elapsed = performance.now() - started
      const item = answer.result[1]
      assert.equal(item.revokedCount, 12_000)
      assert.equal(item.revoked.length, 1000)
      assert.equal(item.revokedTruncated, true)
      assert.deepEqual(item.revoked[1], { serialNumber: '010001', revocationDate: '2026-01-02T00:00:00Z' })
      assert.equal(item.signatureValid, true)
      assert.ok(elapsed < 5000, `${elapsed} ms`)
    })

    test('a leaf and the CA that signed it: one valid link, in order; swapped, not in order', async () => {
      const caKey = ecKey()
      // The hand-made certificate names "hand" as issuer; a CA named so signs it.
      const leafDer = handCertificate([Buffer.from('a.example')], caKey, 'leaf')
      const leafKeyCa = await run({
        action: 'generate',
        subject: 'CN=hand',
        isCa: true,
        privateKey: caKey.export({ type: 'pkcs8', format: 'pem' }),
      })
      const chain = await parse(`${pem('CERTIFICATE', leafDer)}${leafKeyCa.result}`)
      assert.deepEqual(chain.chain, { ordered: true, links: [{ from: 0, to: 1, signatureValid: true }] })
      const swapped = await parse(`${leafKeyCa.result}${pem('CERTIFICATE', leafDer)}`)
      assert.deepEqual(swapped.chain, { ordered: false, links: [{ from: 1, to: 0, signatureValid: true }] })
      const wrong = await parse(`${pem('CERTIFICATE', handCertificate([Buffer.from('a.example')], ecKey(), 'leaf'))}${leafKeyCa.result}`)
      assert.deepEqual(wrong.chain, { ordered: false, links: [{ from: 0, to: 1, signatureValid: false }] })
      assert.equal(leafKeyCa.parsed.selfSigned, true)
    })

    test('a CSR’s challengePassword is reported as present, never its value', async () => {
      const key = ecKey()
      const challenge = tlv(0x30, hex('06092a864886f70d010907'), tlv(0x31, tlv(0x0c, Buffer.from('hunter2-secret'))))
      const info = tlv(0x30, hex('020100'), nameCN('x'), createPublicKey(key).export({ type: 'spki', format: 'der' }), tlv(0xa0, challenge))
      const request = tlv(0x30, info, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), sign('sha256', info, key)))
      const answer = await parse(pem('CERTIFICATE REQUEST', request))
      assert.deepEqual(answer.result[0].attributes, [{ type: 'challengePassword', oid: '1.2.840.113549.1.9.7', present: true }])
      assert.equal(answer.result[0].signatureValid, true)
      assert.doesNotMatch(JSON.stringify(answer), /hunter2/)
    })

    test('warnings: not yet valid, an unknown critical extension, a v1 certificate with extensions', async () => {
      const key = ecKey()
      const unknown = tlv(0x30, hex('06032a0304'), hex('0101ff'), tlv(0x04, hex('0500')))
      const tbs = tlv(
        0x30,
        hex('020101'),
        ECDSA_SHA256,
        nameCN('v1'),
        tlv(0x30, utcTime('300101000000Z'), utcTime('300301000000Z')),
        nameCN('v1'),
        createPublicKey(key).export({ type: 'spki', format: 'der' }),
        tlv(0xa3, tlv(0x30, unknown)),
      )
      const answer = await parse(pem('CERTIFICATE', tlv(0x30, tbs, ECDSA_SHA256, tlv(0x03, Buffer.from([0]), sign('sha256', tbs, key)))))
      const [cert] = answer.result
      assert.equal(cert.version, 1)
      assert.equal(cert.validAt, false)
      assert.deepEqual(cert.extensions, [{ oid: '1.2.3.4', name: 'unknown', critical: true, valueHex: '0500' }])
      for (const expected of [/not valid until 2030-01-01T00:00:00Z/, /unknown critical extension 1\.2\.3\.4/, /version 1 certificate with extensions/])
        assert.ok(
          answer.warnings.some((warning: string) => expected.test(warning)),
          `${expected}: ${answer.warnings.join('\n')}`,
        )
    })

    test('DER without a label, as hex (colons allowed) or base64: whichever structure it is', async () => {
      const csr = (await run({ action: 'generate', kind: 'csr', keyType: 'ed25519', subject: 'CN = x, O = y' })).result
      const asHex = await parse(
        derOf(csr)
          .toString('hex')
          .replace(/(..)(?=.)/g, '$1:'),
      )
      assert.deepEqual([asHex.result[0].type, asHex.result[0].subject], ['csr', 'CN=x,O=y'])
      const crl = await parse(derOf(pyca('custom/crl_all_reasons.pem')).toString('base64'), { inputEncoding: 'base64' })
      assert.equal(crl.result[0].type, 'crl')
      assert.equal((await parse(derOf(X1).toString('base64'))).result[0].serialNumber, '8210cfb0d240e3594463e0bb63828b00')
    })

    test('verify: false checks no signature', async () => {
      const [cert] = (await parse(X1, { verify: false })).result
      assert.equal(cert.signatureValid, undefined)
    })
  })

  describe('generate', () => {
    for (const keyType of ['p-256', 'p-384', 'ed25519', 'rsa-2048'] as const) {
      test(`a self-signed ${keyType} certificate: node:crypto reads it and its signature verifies`, async () => {
        const made = await run({
          action: 'generate',
          keyType,
          subject: 'CN=example.com,O=Example\\, Inc.,C=GB',
          subjectAltNames: ['DNS:example.com', 'IP:192.0.2.1', 'IP:2001:db8::1'],
        })
        const certificate = new X509Certificate(made.result)
        assert.ok(certificate.verify(certificate.publicKey))
        assert.ok(certificate.checkPrivateKey(createPrivateKey(made.privateKey)))
        assert.equal(certificate.subjectAltName, 'DNS:example.com, IP Address:192.0.2.1, IP Address:2001:DB8:0:0:0:0:0:1')
        assert.equal(made.parsed.subject, 'CN=example.com,O=Example\\, Inc.,C=GB')
        assert.equal(made.parsed.selfSigned, true)
        assert.equal(made.parsed.serialNumber.length, 32)
        assert.ok(Number.parseInt(made.parsed.serialNumber.slice(0, 2), 16) < 0x80)
        const usages = made.parsed.extensions.find((extension: Answer) => extension.name === 'keyUsage').value
        assert.deepEqual(usages, keyType === 'rsa-2048' ? ['digitalSignature', 'keyEncipherment'] : ['digitalSignature'])
        assert.deepEqual(made.warnings, [])
      })
    }

    test('a CSR with your key (PEM, JWK, encrypted PKCS#8): its signature verifies and the key is never echoed', async () => {
      const key = ecKey()
      const encrypted = key.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'correct horse' }) as string
      const forms = [
        { privateKey: key.export({ type: 'pkcs8', format: 'pem' }) },
        { privateKey: key.export({ type: 'sec1', format: 'pem' }) },
        { privateKey: JSON.stringify(key.export({ format: 'jwk' })) },
        { privateKey: encrypted, passphrase: 'correct horse' },
      ]
      for (const form of forms) {
        const made = await run({ action: 'generate', kind: 'csr', subject: 'CN=api.example.com', subjectAltNames: ['DNS:api.example.com'], ...form })
        assert.equal(made.privateKey, undefined)
        assert.equal(made.parsed.type, 'csr')
        assert.equal(made.parsed.signatureValid, true)
        assert.equal(
          made.parsed.publicKey.spkiSha256Hex,
          (await run({ action: 'generate', kind: 'csr', subject: 'CN=x', ...form })).parsed.publicKey.spkiSha256Hex,
        )
        assert.deepEqual(made.parsed.subjectAltNames, ['DNS:api.example.com'])
        assert.doesNotMatch(JSON.stringify(made), /correct horse/)
      }
      await expectRefusal(run({ action: 'generate', subject: 'CN=x', privateKey: encrypted }), { code: 'INVALID_INPUT', message: /passphrase is required/ })
      await expectRefusal(run({ action: 'generate', subject: 'CN=x', privateKey: encrypted, passphrase: 'wrong one' }), {
        code: 'INVALID_INPUT',
        check: (error) => assert.doesNotMatch(`${error.message}${JSON.stringify(error.details)}`, /wrong one|correct horse/),
      })
      await expectRefusal(run({ action: 'generate', subject: 'CN=x', privateKey: 'not a key at all' }), {
        code: 'INVALID_INPUT',
        message: /privateKey is not a PEM/,
      })
    })

    test('a CA with a path length, its validity from notBefore, GeneralizedTime after 2049', async () => {
      const made = await run({ action: 'generate', subject: 'CN=Root', isCa: true, pathLength: 1, notBefore: '2045-06-01T12:00:00Z', validityDays: 3650 })
      assert.deepEqual(made.parsed.extensions[0], { oid: '2.5.29.19', name: 'basicConstraints', critical: true, value: { ca: true, pathLength: 1 } })
      assert.deepEqual(made.parsed.extensions[1].value, ['keyCertSign', 'cRLSign'])
      assert.equal(made.parsed.notBefore, '2045-06-01T12:00:00Z')
      assert.equal(made.parsed.notAfter, '2055-05-30T12:00:00Z')
      assert.equal(new X509Certificate(made.result).validTo, 'May 30 12:00:00 2055 GMT')
      assert.equal(made.parsed.isCa, true)
    })

    test('a multi-valued RDN is written in DER order, by the bytes of each attribute (X.690 §11.6), whatever order it was given in', async () => {
      for (const subject of ['CN=aaaa+OU=b+C=GB,O=x', 'C=GB+CN=aaaa+OU=b,O=x', 'OU=b+C=GB+CN=aaaa,O=x']) {
        const made = await run({ action: 'generate', subject, keyType: 'p-256' })
        // OU=b encodes as 30 0a …, C=GB as 30 0b …, CN=aaaa as 30 0d …
        assert.equal(made.parsed.subject, 'OU=b+C=GB+CN=aaaa,O=x', subject)
      }
    })

    test('a validity X.509 cannot write is refused: before 1950 (UTCTime), past 9999 (GeneralizedTime), or on a day that does not exist', async () => {
      const generated = (notBefore: string, validityDays = 1) => run({ action: 'generate', subject: 'CN=x', keyType: 'p-256', notBefore, validityDays })
      assert.equal((await generated('1950-01-01T00:00:00Z')).parsed.notBefore, '1950-01-01T00:00:00Z')
      assert.equal((await generated('9999-12-30T23:59:59Z')).parsed.notAfter, '9999-12-31T23:59:59Z')
      assert.equal((await generated('2024-02-29T23:30:00-01:00')).parsed.notBefore, '2024-03-01T00:30:00Z')
      await expectRefusal(generated('1949-12-31T23:59:59Z'), { code: 'VALIDATION_ERROR', field: 'notBefore', message: /before 1950/ })
      await expectRefusal(generated('9991-01-01T00:00:00Z', 3650), { code: 'VALIDATION_ERROR', field: 'validityDays', message: /at most 3286 days/ })
      await expectRefusal(generated('9999-12-31T00:00:00Z'), { code: 'VALIDATION_ERROR', field: 'notBefore', message: /less than a day/ })
      await expectRefusal(generated('2026-02-29T00:00:00Z'), { code: 'VALIDATION_ERROR', field: 'notBefore', message: /February 2026 has 28 days/ })
      await expectRefusal(run({ input: X1, at: '2026-04-31T00:00:00Z' }), { code: 'VALIDATION_ERROR', field: 'at', message: /April 2026 has 30 days/ })
      await expectRefusal(run({ input: X1, at: '2026-01-01T24:00:00Z' }), { code: 'VALIDATION_ERROR', field: 'at', message: /hours go from 00 to 23/ })
    })

    test('key usages and extended key usages asked for replace the defaults', async () => {
      const made = await run({
        action: 'generate',
        subject: 'CN=signer',
        subjectAltNames: ['email:signer@example.com'],
        keyUsage: ['digitalSignature', 'nonRepudiation'],
        extendedKeyUsage: ['codeSigning', 'emailProtection'],
      })
      const value = (name: string) => made.parsed.extensions.find((extension: Answer) => extension.name === name).value
      assert.deepEqual(value('keyUsage'), ['digitalSignature', 'nonRepudiation'])
      assert.deepEqual(
        value('extendedKeyUsage').map((usage: Answer) => usage.name),
        ['codeSigning', 'emailProtection'],
      )
      assert.equal(new X509Certificate(made.result).keyUsage?.join(), '1.3.6.1.5.5.7.3.3,1.3.6.1.5.5.7.3.4')
    })

    test('a CN without subjectAltNames: a warning that browsers ignore CN', async () => {
      const made = await run({ action: 'generate', subject: 'CN=example.com' })
      assert.match(made.warnings[0], /browsers ignore CN/)
    })

    test('RFC 4514 subjects round-trip: what generate writes, parse reads back', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }), { minLength: 1, maxLength: 3 }), async (values) => {
          const escaped = values.map((value) => `O=${value.replace(/[\\"+,;<>=#]/g, (char) => `\\${char}`).replace(/^ | $/g, '\\ ')}`)
          const made = await run({ action: 'generate', kind: 'csr', keyType: 'ed25519', subject: escaped.join(',') })
          assert.deepEqual(
            made.parsed.subjectAttributes.map((attribute: Answer) => attribute.value),
            [...values].reverse(),
          )
          const again = await run({ action: 'generate', kind: 'csr', keyType: 'ed25519', subject: made.parsed.subject })
          assert.equal(again.parsed.subject, made.parsed.subject)
        }),
        { numRuns: 40 },
      )
    })
  })

  describe('hostile inputs', () => {
    test('10,000 subjectAltNames: all listed, quickly; one more is refused before the parser builds them', async () => {
      const names = Array.from({ length: 10_000 }, (_, i) => Buffer.from(`h${i}.example`))
      const started = performance.now()
      const [cert] = (await parse(pem('CERTIFICATE', handCertificate(names, ecKey())))).result
      assert.equal(cert.subjectAltNames.length, 10_000)
      assert.equal(cert.subjectAltNames[9999], 'DNS:h9999.example')
      assert.ok(performance.now() - started < 3000)
      await expectRefusal(parse(pem('CERTIFICATE', handCertificate([...names, Buffer.from('one.more')], ecKey()))), {
        code: 'LIMIT_EXCEEDED',
        message: /10001 names, more than the 10000 read/,
      })
    })

    test('a NUL in a DNS name: shown escaped, with a warning', async () => {
      const answer = await parse(pem('CERTIFICATE', handCertificate([Buffer.from('bank.example\0.evil.example', 'latin1')], ecKey())))
      assert.deepEqual(answer.result[0].subjectAltNames, ['DNS:bank.example\\x00.evil.example'])
      assert.ok(answer.warnings.some((warning: string) => /NUL or control character/.test(warning)))
    })

    test('lying length octets: a 422 naming the block, never a crash', async () => {
      const der = Buffer.from(derOf(X2))
      der[2] = 0xff
      await expectRefusal(parse(pem('CERTIFICATE', der)), { code: 'INVALID_INPUT', details: { block: 0, label: 'CERTIFICATE' } })
      const inner = Buffer.from(derOf(X2))
      inner[6] = 0x7f
      await expectRefusal(parse(pem('CERTIFICATE', inner)), { code: 'INVALID_INPUT', details: { block: 0, label: 'CERTIFICATE' } })
    })

    test('trailing garbage after the DER: parsed, with a warning', async () => {
      const answer = await parse(pem('CERTIFICATE', Buffer.concat([derOf(X2), Buffer.from('garbage')])))
      assert.equal(answer.result[0].fingerprints.sha256.slice(0, 5), '69:72')
      assert.deepEqual(answer.warnings, ['block 0 (CERTIFICATE, line 1): 7 bytes after the DER structure were ignored'])
    })

    test('random bytes as DER: a 422, never a defect', async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 200 }), async (bytes) => {
          await assert.rejects(run({ input: Buffer.from(bytes).toString('hex') }), (error: Answer) => error.status === 422)
        }),
        { numRuns: 200 },
      )
    })

    test('every byte of a certificate flipped in turn: a 200 or a 422', async () => {
      const der = derOf(pyca('custom/negative_serial.pem'))
      for (let i = 0; i < der.length; i += 17) {
        const changed = Buffer.from(der)
        changed[i] ^= 0xff
        try {
          await run({ input: changed.toString('base64') })
        } catch (error) {
          assert.equal((error as Answer).status, 422, `byte ${i}: ${(error as Error).message}`)
        }
      }
    })
  })

  describe('refusals', () => {
    test('no recognisable block or DER: 422 with the first line', async () => {
      await expectRefusal(run({ input: '\n\nhello, world' }), { code: 'INVALID_INPUT', details: { line: 3 } })
      await expectRefusal(run({ input: '-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n' }), {
        code: 'INVALID_INPUT',
        message: /no CERTIFICATE/,
      })
    })

    test('a block that is not DER of its label: 422 naming the block and label', async () => {
      const csr = (await run({ action: 'generate', kind: 'csr', keyType: 'ed25519', subject: 'CN=x' })).result
      await expectRefusal(parse(`${X1}${csr.replace(/CERTIFICATE REQUEST/g, 'CERTIFICATE')}`), {
        code: 'INVALID_INPUT',
        message: /block 1 \(CERTIFICATE, line 32\) is not DER of an X.509 certificate/,
        details: { block: 1, label: 'CERTIFICATE', line: 32 },
      })
      await expectRefusal(parse('-----BEGIN CERTIFICATE-----\nMII*\n-----END CERTIFICATE-----'), { code: 'INVALID_INPUT', details: { block: 0, line: 2 } })
      await expectRefusal(parse('-----BEGIN X509 CRL-----\n-----END X509 CRL-----'), {
        code: 'INVALID_INPUT',
        message: /block 0 \(X509 CRL, line 1\) is empty/,
      })
      // Base64 or hex that is not DER: the line its text starts on.
      await expectRefusal(parse('\n\naGVsbG8gd29ybGQ='), {
        code: 'INVALID_INPUT',
        message: /block 0 \(DER, line 3\) is not DER/,
        details: { block: 0, label: 'DER', line: 3 },
      })
      await expectRefusal(parse('\n300100'), { code: 'INVALID_INPUT', details: { label: 'DER', line: 2 } })
      await expectRefusal(parse('-----BEGIN PKCS7-----\nMAA=\n-----END PKCS7-----'), { code: 'INVALID_INPUT', details: { block: 0, label: 'PKCS7' } })
    })

    test('more than 1,000 blocks: 422 LIMIT_EXCEEDED', async () => {
      await expectRefusal(parse('-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n'.repeat(1001)), { code: 'LIMIT_EXCEEDED' })
    })

    test('rules between fields: 400', async () => {
      const key = ecKey().export({ type: 'pkcs8', format: 'pem' })
      await expectRefusal(run({ action: 'generate', subject: 'CN=x', keyType: 'p-256', privateKey: key }), { code: 'VALIDATION_ERROR', field: 'keyType' })
      await expectRefusal(run({ action: 'generate', subject: 'CN=x', pathLength: 1 }), { code: 'VALIDATION_ERROR', field: 'pathLength' })
      await expectRefusal(run({ action: 'generate' }), { code: 'VALIDATION_ERROR', field: 'subject' })
      await expectRefusal(run({ action: 'parse' }), { code: 'VALIDATION_ERROR', field: 'input' })
      await expectRefusal(run({ input: X1, at: 'tomorrow' }), { code: 'VALIDATION_ERROR' })
    })

    test('an unparsable subject or subjectAltName: 422 with the position or index', async () => {
      await expectRefusal(run({ action: 'generate', subject: 'CN=a,XX=b' }), { code: 'INVALID_INPUT', position: 5, message: /unknown attribute type "XX"/ })
      await expectRefusal(run({ action: 'generate', subject: 'CN' }), { code: 'INVALID_INPUT', position: 0 })
      await expectRefusal(run({ action: 'generate', subject: 'CN=a;b' }), { code: 'INVALID_INPUT', position: 4 })
      await expectRefusal(run({ action: 'generate', subject: 'C=United Kingdom' }), { code: 'INVALID_INPUT', message: /two-letter/ })
      await expectRefusal(run({ action: 'generate', subject: 'CN=#300a' }), { code: 'INVALID_INPUT', message: /one whole element/ })
      await expectRefusal(run({ action: 'generate', subject: 'CN=a\\c3' }), { code: 'INVALID_INPUT', message: /not UTF-8/, position: 3 })
      await expectRefusal(run({ action: 'generate', subject: 'CN=x', subjectAltNames: ['FTP:x'] }), { code: 'INVALID_INPUT', details: { index: 0 } })
      await expectRefusal(run({ action: 'generate', subject: 'CN=x', subjectAltNames: ['DNS:a', 'IP:300.1.1.1'] }), {
        code: 'INVALID_INPUT',
        details: { index: 1 },
      })
    })
  })
})

describe('x509: work bounded before it is done', () => {
  runCallsInProcess()

  test('a bundle of copies of one certificate is checked once per distinct signature: answered at once, no copy linked to another', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-521' })
    const made = await run({ action: 'generate', subject: 'CN=a', privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string })
    const bundle = String(made.result).repeat(88)
    assert.ok(x509.offload?.({ input: bundle, action: 'parse' } as never), 'a bundle of many blocks runs on a worker')
    const started = performance.now()
    const answer = (await run({ input: bundle, verify: true })) as unknown as { result: Array<{ signatureValid?: boolean }>; chain: { links: unknown[] } }
    assert.ok(performance.now() - started < 5000)
    assert.equal(answer.result.length, 88)
    assert.ok(answer.result.every((item) => item.signatureValid === true))
    assert.deepEqual(answer.chain.links, [])
  })

  test("generate: an encrypted privateKey's key derivation is bounded before it runs, and a passphrase's work runs on a worker", async () => {
    const pbkdf2 =
      '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIGNMFkGCSqGSIb3DQEFDTBMMCsGCSqGSIb3DQEFDDAeBAgBAQEBAQEBAQIEf///\n/zAMBggqhkiG9w0CCQUAMB0GCWCGSAFlAwQBKgQQAgICAgICAgICAgICAgICAgQw\nAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMD\n-----END ENCRYPTED PRIVATE KEY-----\n'
    await expectRefusal(run({ action: 'generate', subject: 'CN=x', privateKey: pbkdf2, passphrase: 'p' }), {
      code: 'LIMIT_EXCEEDED',
      message: /^privateKey's encryption asks for 2147483647 KDF iterations/,
    })
    assert.ok(x509.offload?.({ action: 'generate', passphrase: 'p' } as never))
  })

  test('generate: an EC privateKey whose scalar is not of its curve is 422, not a failure deep in OpenSSL', async () => {
    const longScalar =
      '-----BEGIN PRIVATE KEY-----\nMEICAQAwEwYHKoZIzj0CAQYIKoZIzj0DAQcEKDAmAgEBBCERERERERERERERERER\nERERERERERERERERERERERERERE=\n-----END PRIVATE KEY-----\n'
    await expectRefusal(run({ action: 'generate', subject: 'CN=x', privateKey: longScalar }), {
      code: 'INVALID_INPUT',
      message: /^privateKey is not a valid EC private key/,
    })
  })
})
