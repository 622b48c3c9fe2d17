import { Type } from 'typebox'
import { isDevutilsError, validationError } from '../../core/errors.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { parseDate } from '../../lib/time/parse.ts'
import { zoneNamed } from '../../lib/time/zones.ts'
import { EXTENDED_KEY_USAGE_NAMES, generate, KEY_TYPES, SIGNATURE_HASHES } from './generate.ts'
import { MAX_BLOCKS, MAX_GENERAL_NAMES, MAX_REVOKED_LISTED } from './limits.ts'
import { KEY_USAGES } from './oids.ts'
import { parse } from './parse.ts'

// Inputs past this run on a worker thread: a large CRL or bundle costs tens of milliseconds.
const OFFLOAD_CHARACTERS = 65_536
/** Past this many PEM blocks, a bundle's signature checks run on a worker. */
const OFFLOAD_BLOCKS = 8
/** How many PEM blocks a text holds, counted up to one past OFFLOAD_BLOCKS. */
function blockCount(text: string): number {
  let count = 0
  for (let at = text.indexOf('-----BEGIN '); at >= 0 && count <= OFFLOAD_BLOCKS; at = text.indexOf('-----BEGIN ', at + 1)) count++
  return count
}
const ISO_DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:\\d{2})$'

/** The instant of an ISO 8601 date-time field: a date or time that does not exist (02-30, 24:00) is refused, not rolled over. */
function instantOf(field: 'at' | 'notBefore', text: string): Date {
  try {
    return new Date(parseDate(text, zoneNamed('UTC'), Date.now()))
  } catch (error) {
    if (!isDevutilsError(error)) throw error
    throw validationError(field, `names no instant: ${error.message}`)
  }
}

/** An EC P-256 certificate for example.com, made by generate (valid 2026-01-01 to 2026-04-01). */
const EXAMPLE_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIByjCCAXCgAwIBAgIQVqRXszg/RSk3ovOWSYH2mDAKBggqhkjOPQQDAjAWMRQw
EgYDVQQDDAtleGFtcGxlLmNvbTAeFw0yNjAxMDEwMDAwMDBaFw0yNjA0MDEwMDAw
MDBaMBYxFDASBgNVBAMMC2V4YW1wbGUuY29tMFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAEeCReJ77pp03YX3TgNmOy7QqojA9Nu7cS+Xp/Tkei1xRfN+HpUGWJ+1JC
6bfBl8noc/KHSSxPpCrSbukwAQAiIaOBnzCBnDAMBgNVHRMBAf8EAjAAMA4GA1Ud
DwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAnBgNVHREEIDAeggtleGFt
cGxlLmNvbYIPd3d3LmV4YW1wbGUuY29tMB0GA1UdDgQWBBRexSbg5Jh0StQxnaVv
GEkH5TSnUzAfBgNVHSMEGDAWgBRexSbg5Jh0StQxnaVvGEkH5TSnUzAKBggqhkjO
PQQDAgNIADBFAiBH4gQKEopjrmi77iOJLgzPiKPa5B+sZds6pXcLF8VTnwIhAOcD
aBhEmWDfx0oGcsZ7gM+W2/wvNvafR0OILBwoLOWJ
-----END CERTIFICATE-----
`

/** What parse answers for it on 1 February 2026. */
const EXAMPLE_OUTPUT = {
  result: [
    {
      type: 'certificate',
      block: 0,
      version: 3,
      serialNumber: '56a457b3383f452937a2f3964981f698',
      serialDecimal: '115166923091186734029693626196653373080',
      subject: 'CN=example.com',
      subjectAttributes: [{ type: 'CN', oid: '2.5.4.3', value: 'example.com' }],
      issuer: 'CN=example.com',
      issuerAttributes: [{ type: 'CN', oid: '2.5.4.3', value: 'example.com' }],
      notBefore: '2026-01-01T00:00:00Z',
      notAfter: '2026-04-01T00:00:00Z',
      validAt: true,
      daysRemaining: 59,
      selfSigned: true,
      signatureAlgorithm: { name: 'ecdsa-with-SHA256', oid: '1.2.840.10045.4.3.2', hash: 'sha256' },
      publicKey: {
        type: 'ec',
        spkiSha256: 'l06ykWw/QsTzF2GS3auaz0d2J7bmr1XqQELyQaJgZPM=',
        spkiSha256Hex: '974eb2916c3f42c4f3176192ddab9acf477627b6e6af55ea4042f241a26064f3',
        bits: 256,
        curve: 'P-256',
      },
      fingerprints: {
        sha1: '6D:8C:2A:B3:0D:54:B1:20:99:5D:2F:A9:75:01:2A:DF:A9:77:BA:21',
        sha256: 'B0:1B:C6:33:C7:02:C8:B6:98:F6:7D:3D:11:2A:90:52:6E:4F:57:10:A4:8F:0A:97:0E:D5:B0:AD:42:E0:D6:65',
      },
      subjectAltNames: ['DNS:example.com', 'DNS:www.example.com'],
      isCa: false,
      extensions: [
        { oid: '2.5.29.19', name: 'basicConstraints', critical: true, value: { ca: false } },
        { oid: '2.5.29.15', name: 'keyUsage', critical: true, value: ['digitalSignature'] },
        { oid: '2.5.29.37', name: 'extendedKeyUsage', critical: false, value: [{ oid: '1.3.6.1.5.5.7.3.1', name: 'serverAuth' }] },
        { oid: '2.5.29.17', name: 'subjectAltName', critical: false, value: ['DNS:example.com', 'DNS:www.example.com'] },
        { oid: '2.5.29.14', name: 'subjectKeyIdentifier', critical: false, value: '5ec526e0e498744ad4319da56f184907e534a753' },
        { oid: '2.5.29.35', name: 'authorityKeyIdentifier', critical: false, value: { keyId: '5ec526e0e498744ad4319da56f184907e534a753' } },
      ],
      pem: EXAMPLE_CERTIFICATE,
      signatureValid: true,
    },
  ],
  action: 'parse' as const,
  count: 1,
  chain: { ordered: true, links: [] },
  warnings: [],
}

const publicKey = Type.Object(
  {
    type: Type.Enum(['rsa', 'rsa-pss', 'ec', 'ed25519', 'ed448', 'x25519', 'x448', 'dsa', 'unknown'], { description: 'The key type.' }),
    bits: Type.Optional(Type.Integer({ description: 'The key size, as openssl reports it.' })),
    curve: Type.Optional(Type.String({ description: 'EC: the curve, by its JOSE name (P-256, P-384, P-521) or OpenSSL’s.' })),
    exponent: Type.Optional(Type.String({ description: 'RSA: the public exponent, in decimal.' })),
    spkiSha256: Type.String({ description: 'SHA-256 of the DER SubjectPublicKeyInfo in base64: the HPKP pin, curl’s --pinnedpubkey sha256//….' }),
    spkiSha256Hex: Type.String({ description: 'The same digest in lower-case hex.' }),
  },
  { description: 'The subject public key: what node:crypto reads of it.' },
)

const item = Type.Object(
  {
    type: Type.Enum(['certificate', 'csr', 'crl'], { description: 'What the item is.' }),
    block: Type.Integer({ description: 'The PEM block it came from, from 0 (the items of a PKCS#7 bundle share its block; 0 for DER input).' }),
    publicKey: Type.Optional(publicKey),
  },
  {
    additionalProperties: true,
    description:
      'One certificate, request or CRL. A certificate: version, serialNumber (hex, openssl’s form), serialDecimal (signed), subject and issuer (RFC 4514), subjectAttributes and issuerAttributes, notBefore, notAfter, validAt, daysRemaining, selfSigned, signatureValid (when its issuer is in the input), signatureAlgorithm, publicKey, fingerprints, subjectAltNames, isCa, extensions, pem. A csr: version, subject, subjectAttributes, publicKey, signatureAlgorithm, signatureValid, subjectAltNames, extensions (requested), attributes, fingerprints, pem. A crl: version, issuer, issuerAttributes, thisUpdate, nextUpdate, crlNumber, signatureAlgorithm, signatureValid (when its issuer is in the input), revokedCount, revoked, revokedTruncated, extensions, fingerprints, pem.',
  },
)

export const x509 = defineOperation({
  name: 'x509',
  category: 'converters',
  summary: 'Read X.509 certificates, chains, CSRs, CRLs and PKCS#7 bundles, or make a self-signed certificate or a CSR',
  title: 'X.509 certificate decoder and generator',
  labels: { choices: { kind: { selfSigned: 'self-signed certificate', csr: 'certificate signing request' } } },
  aliases: [
    'certificate',
    'cert',
    'ssl certificate',
    'tls certificate',
    'pem',
    'der',
    'csr',
    'certificate signing request',
    'pkcs10',
    'crl',
    'revocation list',
    'pkcs7',
    'p7b',
    'certificate chain',
    'self-signed certificate',
    'fingerprint',
    'spki pin',
    'subject alternative name',
    'openssl x509',
    'decode certificate',
  ],
  description:
    '`parse` reads every CERTIFICATE, TRUSTED CERTIFICATE, CERTIFICATE REQUEST, NEW CERTIFICATE REQUEST, X509 CRL and PKCS7 block of a pasted text (RFC 7468, lax: text around and between blocks is ignored, so an `openssl s_client -showcerts` dump works; other blocks, such as private keys, are skipped with a warning and never echoed), or one DER structure given as base64 or hex. ' +
    'Each certificate, request or CRL becomes one item of `result`, in input order, with what `openssl x509 -text` shows: subject and issuer as RFC 4514 strings (most specific first, as `-nameopt RFC2253` prints them; a value that is not text of its string type is written #hex), the serial in hex and as a signed decimal, dates in ISO 8601 UTC, validity at `at`, the public key’s type, size and SPKI pin, SHA-1 and SHA-256 fingerprints, and every extension in order, decoded (subjectAltName, keyUsage, extendedKeyUsage, basicConstraints, key identifiers, CRL distribution points, authority information access, policies, name constraints, policy constraints, inhibitAnyPolicy, RFC 6962 SCTs, CT poison) or as hex; a malformed extension gets `error` and `valueHex` and the rest is still read. ' +
    `With \`verify\`, each item’s signature is checked against the certificates of the input whose subject is its issuer (a self-signature, a chain, a CRL; each distinct certificate once, at most 8 of one name), and a CSR against its own key; \`chain\` lists the links found and whether the certificates are in order, each signed by the next. There is no trust store: nothing here says a certificate is trusted. ` +
    '`warnings` names a negative or over-long serial, an expired or not-yet-valid certificate, a CN without subjectAltName on a leaf, a SHA-1 or MD5 signature, an RSA key under 2048 bits, a leaf valid for more than 398 days, a version 1 certificate with extensions, an unknown critical extension, a NUL in a name (shown as \\x00), and bytes after the DER. ' +
    '`generate` makes a self-signed certificate (`kind: selfSigned`) or a PKCS#10 request (`kind: csr`) for `subject` (RFC 4514) and `subjectAltNames`, with a new key (`keyType`; the PKCS#8 private key is answered once, and kept nowhere) or yours (`privateKey`, PEM or JWK, with `passphrase` if encrypted). The serial is 16 random bytes; the defaults follow the Baseline Requirements (a leaf: digitalSignature, keyEncipherment for RSA, serverAuth; a CA: keyCertSign, cRLSign). ' +
    `At most ${MAX_REVOKED_LISTED} revoked entries of a CRL are listed (revokedCount counts them all). ` +
    `Refused: text with no such block, or base64/hex that is not DER of one (422 with the line, or the block and label); ASN.1 nested deeper than 100 levels, more than 1,000,000 ASN.1 elements, more than ${MAX_BLOCKS} blocks or items, a subjectAltName or issuerAltName of more than ${MAX_GENERAL_NAMES} names (422 LIMIT_EXCEEDED); keyType with privateKey, pathLength without isCa (400); an unparsable subject (422 with the position). privateKey and passphrase are never echoed, logged or quoted.`,
  input: Type.Object(
    {
      input: Type.Optional(
        Type.String({
          maxLength: 1_048_576,
          description: `parse: PEM text with one or more blocks (at most ${MAX_BLOCKS}), in any order with any text around them, or one DER structure as base64 or hex. Required for parse.`,
        }),
      ),
      action: withDefault(Type.Enum(['parse', 'generate'], { description: 'Read certificates (`parse`) or make one (`generate`).' }), 'parse'),
      inputEncoding: withDefault(
        Type.Enum(['auto', 'base64', 'hex'], { description: 'parse: how input is written when it is not PEM; `auto` tells PEM, hex and base64 apart.' }),
        'auto',
      ),
      at: Type.Optional(
        Type.String({
          pattern: ISO_DATE_TIME,
          maxLength: 40,
          description: 'parse: the instant to judge validity at, ISO 8601 with a zone (default now), on a day and at a time that exist.',
        }),
      ),
      verify: withDefault(Type.Boolean({ description: 'parse: check signatures against the certificates in the input.' }), true),
      kind: withDefault(
        Type.Enum(['selfSigned', 'csr'], { description: 'generate: a self-signed certificate or a certificate signing request.' }),
        'selfSigned',
      ),
      subject: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 1024,
          description:
            'generate: the subject as an RFC 4514 string, most specific first, e.g. CN=example.com,O=Example,C=GB; types CN, C, ST, L, O, OU, emailAddress, serialNumber, DC, UID or dotted OIDs. Required for generate.',
        }),
      ),
      subjectAltNames: withDefault(
        Type.Array(Type.String({ minLength: 1, maxLength: 1024 }), {
          maxItems: 100,
          description: 'generate: names as DNS:…, IP:…, email:… or URI:… (browsers match host names against these, never against CN).',
        }),
        [],
      ),
      keyType: Type.Optional(Type.Enum(KEY_TYPES, { description: 'generate: the kind of new key to make (default p-256); not with privateKey.' })),
      privateKey: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 16_384,
          writeOnly: true,
          description: 'generate: your private key to sign with, PEM (PKCS#8, PKCS#1, SEC1, encrypted or not) or JWK JSON text. Never echoed, never logged.',
        }),
      ),
      passphrase: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 1024,
          writeOnly: true,
          description: 'generate: the passphrase of an encrypted privateKey. Never echoed, never logged.',
        }),
      ),
      signatureHash: withDefault(Type.Enum(SIGNATURE_HASHES, { description: 'generate: the hash of the signature (Ed25519 has its own).' }), 'sha256'),
      validityDays: withDefault(
        Type.Integer({
          minimum: 1,
          maximum: 3650,
          description:
            'generate, selfSigned: days of validity from notBefore; the end may not pass 9999-12-31T23:59:59Z, the last instant a certificate holds.',
        }),
        365,
      ),
      notBefore: Type.Optional(
        Type.String({
          pattern: ISO_DATE_TIME,
          maxLength: 40,
          description:
            'generate, selfSigned: the start of validity, ISO 8601 with a zone (default now); from 1950 (UTCTime’s first year), on a day and at a time that exist.',
        }),
      ),
      isCa: withDefault(Type.Boolean({ description: 'generate, selfSigned: make a CA certificate (basicConstraints CA, keyCertSign, cRLSign).' }), false),
      pathLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'generate, selfSigned CA: how many CAs may follow below it.' })),
      keyUsage: Type.Optional(
        Type.Array(Type.Enum(KEY_USAGES), { uniqueItems: true, maxItems: KEY_USAGES.length, description: 'generate: key usages, instead of the defaults.' }),
      ),
      extendedKeyUsage: Type.Optional(
        Type.Array(Type.Enum(EXTENDED_KEY_USAGE_NAMES), {
          uniqueItems: true,
          maxItems: EXTENDED_KEY_USAGE_NAMES.length,
          description: 'generate: extended key usages, instead of the defaults (serverAuth for a leaf, none for a CA).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.Unknown({ description: 'parse: the items (array), in input order. generate: the certificate or request, PEM.' }),
    action: Type.Enum(['parse', 'generate'], { description: 'The action performed.' }),
    count: Type.Optional(Type.Integer({ description: 'parse: how many items.' })),
    chain: Type.Optional(
      Type.Object(
        {
          ordered: Type.Boolean({ description: 'Whether the certificates are in chain order: each one signed by the next.' }),
          links: Type.Array(
            Type.Object({
              from: Type.Integer({ description: 'The item signed.' }),
              to: Type.Integer({ description: 'The certificate whose subject is its issuer.' }),
              signatureValid: Type.Boolean({ description: 'Whether that certificate’s key verifies the signature.' }),
            }),
          ),
        },
        { description: 'parse: the issuer links found between the certificates of the input (indexes into result).' },
      ),
    ),
    kind: Type.Optional(Type.Enum(['selfSigned', 'csr'], { description: 'generate: what was made.' })),
    privateKey: Type.Optional(Type.String({ description: 'generate, with a new key: its PKCS#8 PEM. Shown once; the service keeps no copy.' })),
    parsed: Type.Optional(item),
    warnings: Type.Array(Type.String(), { description: 'What deserves attention: weak or unusual choices, validity, skipped blocks.' }),
  }),
  actions: {
    parse: { fields: ['input', 'inputEncoding', 'at', 'verify'], requires: ['input'] },
    generate: {
      fields: [
        'kind',
        'subject',
        'subjectAltNames',
        'keyType',
        'privateKey',
        'passphrase',
        'signatureHash',
        'validityDays',
        'notBefore',
        'isCa',
        'pathLength',
        'keyUsage',
        'extendedKeyUsage',
      ],
      requires: ['subject'],
    },
  },
  examples: [
    {
      summary: 'Read a certificate pasted with text around it, judged at 1 February 2026',
      input: { input: `subject=CN=example.com\n${EXAMPLE_CERTIFICATE}`, at: '2026-02-01T00:00:00Z' },
      output: EXAMPLE_OUTPUT,
    },
    {
      summary: 'Make a self-signed certificate for a host name, with a new P-256 key',
      input: { action: 'generate', subject: 'CN=example.com', subjectAltNames: ['DNS:example.com', 'DNS:www.example.com'], validityDays: 90 },
    },
    {
      summary: 'Make a certificate signing request with a new Ed25519 key',
      input: {
        action: 'generate',
        kind: 'csr',
        keyType: 'ed25519',
        subject: 'CN=api.example.com,O=Example Ltd,C=GB',
        subjectAltNames: ['DNS:api.example.com'],
      },
    },
  ],
  // RSA generation, a passphrase's key derivation, and the signature checks of a bundle of many blocks run on a worker.
  offload: ({ input = '', action, keyType, passphrase }) =>
    action === 'generate'
      ? keyType?.startsWith('rsa') === true || passphrase !== undefined
      : input.length > OFFLOAD_CHARACTERS || blockCount(input) > OFFLOAD_BLOCKS,
  deliberatelySlow: true,
  async run(fields) {
    if (fields.action === 'generate') {
      if (fields.subject === undefined) throw validationError('subject', 'is required for generate: an RFC 4514 name such as CN=example.com')
      const notBefore = fields.notBefore === undefined ? undefined : instantOf('notBefore', fields.notBefore)
      const made = await generate({ ...fields, subject: fields.subject, notBefore })
      const parsed = await parse({ input: made.pem, inputEncoding: 'auto', at: new Date(), verify: true })
      return {
        result: made.pem,
        action: 'generate' as const,
        kind: fields.kind,
        ...(made.privateKey === undefined ? {} : { privateKey: made.privateKey }),
        parsed: parsed.result[0],
        warnings: made.warnings,
      }
    }
    if (fields.input === undefined) throw validationError('input', 'is required for parse: PEM text, or DER as base64 or hex')
    const at = fields.at === undefined ? new Date() : instantOf('at', fields.at)
    const answer = await parse({ input: fields.input, inputEncoding: fields.inputEncoding, at, verify: fields.verify })
    return { result: answer.result, action: 'parse' as const, count: answer.count, chain: answer.chain, warnings: answer.warnings }
  },
})
