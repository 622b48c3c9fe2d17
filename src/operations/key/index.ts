import { Type } from 'typebox'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { assertFieldsApply, convert, type Fields, generate, inspect } from './actions.ts'
import { ACTIONS, CURVES, GENERATE_FORMATS, KEY_TYPES, TARGETS, TYPES } from './formats.ts'
import { MAX_ROUNDS } from './openssh.ts'

/** RFC 8037 A.1's Ed25519 key (RFC 8032 §7.1 TEST 1). */
const RFC8037_PRIVATE = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
}
const RFC8037_OPENSSH = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea'
const RFC8037_SPKI = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n-----END PUBLIC KEY-----\n'
const RFC8037_FINGERPRINTS = {
  sha256: 'SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8',
  md5: 'MD5:cf:07:be:9d:68:ae:65:54:6d:a0:93:c3:6f:bd:0d:82',
  bubbleBabble: 'xunas-cidad-korip-hakiz-teges-bamik-pumor-pacan-mimoz-ronon-foxax',
  jwkThumbprint: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
  spkiSha256: 'BuP9j9opu2CrWVV95h7bCuzbIxE0vjDnW0Vfjht5L6k=',
}
/** RFC 7638 §3.1's RSA key. */
const RFC7638_RSA = {
  kty: 'RSA',
  n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
  e: 'AQAB',
  alg: 'RS256',
  kid: '2011-04-29',
}

const secret = (description: string, maxLength: number) => Type.String({ minLength: 1, maxLength, writeOnly: true, description })

export const key = defineOperation({
  name: 'key',
  category: 'generators',
  summary: 'Generate, inspect and convert RSA, EC, Ed25519 and X25519 keys between PEM, JWK and OpenSSH, with their fingerprints',
  title: 'Key pair',
  aliases: [
    'ssh key',
    'ssh-keygen',
    'key pair',
    'keypair',
    'public key',
    'private key',
    'pem',
    'jwk',
    'pkcs8',
    'pkcs1',
    'sec1',
    'spki',
    'openssh',
    'authorized_keys',
    'rfc 4716',
    'fingerprint',
    'jwk thumbprint',
    'rsa',
    'ecdsa',
    'ed25519',
    'x25519',
    'convert pem to jwk',
    'convert key',
  ],
  description:
    '`generate` (the default) makes a key pair with node:crypto: `type` ed25519 (default), ec (`curve` P-256 by default, P-384, P-521, secp256k1), rsa (`bits` 2048, 3072 by default, or 4096; exponent 65537), x25519, ed448 or x448; ' +
    'and writes the private key as `format` pem (PKCS#8, RFC 5958), openssh (openssh-key-v1, as ssh-keygen writes it, with `comment`) or jwk (RFC 7517/8037), with its public key (SPKI PEM, the OpenSSH line, or the public JWK). ' +
    '`passphrase` encrypts it: PKCS#8 with PBES2 (PBKDF2-SHA256, AES-256-CBC), OpenSSH with bcrypt-pbkdf and aes256-ctr over `rounds` (16 by default, 1 to 100). ' +
    '`inspect` reads a key in any of these: PEM PKCS#8 (encrypted too), PKCS#1 (RSA PRIVATE KEY, RSA PUBLIC KEY, legacy Proc-Type encryption too), SEC1 (EC PRIVATE KEY), SPKI (PUBLIC KEY), OPENSSH PRIVATE KEY (aes-ctr or aes-cbc), an OpenSSH public line (also as an authorized_keys line with options, or a known_hosts line), an RFC 4716 public key, a JWK (or a JWK Set of one key) as JSON text, or DER as base64; ' +
    'it tells the format, type, size, curve and comment, the public key as SPKI, OpenSSH line and JWK, and the fingerprints: `SHA256:…`, `MD5:…` and bubble babble as ssh-keygen -l and -B print them (for the types SSH has), the RFC 7638 JWK thumbprint and the SPKI SHA-256 pin (HPKP, curl --pinnedpubkey). ' +
    'An encrypted OpenSSH key keeps its public key in clear, so inspect needs no passphrase for it; an encrypted PKCS#8 or legacy PEM key does (422 "passphrase required"), and a wrong one is 422 "passphrase does not decrypt the key". ' +
    '`convert` writes the key `to` pkcs8, pkcs1 (RSA), sec1 (EC), spki, jwk, openssh or rfc4716; `publicOnly` writes the public half; `outputPassphrase` encrypts a pkcs8 or openssh private key. ' +
    'Refused with 422: a format the key type lacks (sec1 for Ed25519, openssh for X25519), a private key whose public numbers do not match its private ones (a JWK’s x and y, an EC key’s stored point, RSA’s n, dp, dq and qi), DSA keys, certificates, more than one key, RSA keys over 16,384 bits, an OpenSSH key asking for more than 100 KDF rounds or a PKCS#8 key for more than 1,000,000 (LIMIT_EXCEEDED). ' +
    'Keys, passphrases and key bytes are never echoed in errors or logged; RSA generation and passphrase work run on a worker thread.',
  input: Type.Object(
    {
      action: withDefault(
        Type.Enum(ACTIONS, { description: 'Make a key pair (`generate`), describe a key (`inspect`), or write it in another format (`convert`).' }),
        'generate',
      ),
      type: withDefault(Type.Enum(TYPES, { description: 'generate: the kind of key.' }), 'ed25519'),
      bits: Type.Optional(Type.Enum([2048, 3072, 4096], { description: 'generate, type rsa only: the modulus size (3072 when not given).' })),
      curve: Type.Optional(Type.Enum(CURVES, { description: 'generate, type ec only: the curve (P-256 when not given).' })),
      format: withDefault(
        Type.Enum(GENERATE_FORMATS, {
          description: 'generate: how the private key is written: PKCS#8 PEM, openssh-key-v1 (Ed25519, P-256/384/521 and RSA only), or a JWK.',
        }),
        'pem',
      ),
      comment: Type.Optional(
        Type.String({
          maxLength: 256,
          pattern: '^[^\\r\\n]*$',
          description:
            'generate with format openssh, convert to openssh or rfc4716: the key comment (user@host by convention), one line; convert keeps the input’s comment when this is not given.',
        }),
      ),
      passphrase: Type.Optional(
        secret(
          'generate: encrypts the private key (pem or openssh). inspect and convert: decrypts the input key. 1 to 1,024 characters, never echoed or logged.',
          1024,
        ),
      ),
      rounds: withDefault(
        Type.Integer({ minimum: 1, maximum: MAX_ROUNDS, description: 'The bcrypt KDF rounds of an OpenSSH private key written with a passphrase, 1 to 100.' }),
        16,
      ),
      input: Type.Optional(
        secret(
          'inspect and convert: the key: PEM (PKCS#8, encrypted PKCS#8, PKCS#1, SEC1, SPKI, OPENSSH PRIVATE KEY), an OpenSSH public line, an RFC 4716 public key, a JWK as JSON text, or DER as base64. A secret when it holds a private key: never echoed or logged.',
          32_768,
        ),
      ),
      to: Type.Optional(Type.Enum(TARGETS, { description: 'convert (required): the format to write.' })),
      publicOnly: withDefault(Type.Boolean({ description: 'convert: write only the public key (spki and rfc4716 always do).' }), false),
      outputPassphrase: Type.Optional(secret('convert: encrypts the private key written (pkcs8 or openssh only). Never echoed or logged.', 1024)),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    result: Type.String({
      description:
        'generate: the private key text. inspect: a one-line description ("Ed25519 private key, OpenSSH format, encrypted"). convert: the key written in `to`.',
    }),
    action: Type.Enum(ACTIONS, { description: 'The action performed.' }),
    format: Type.String({
      description: 'generate: the format written. inspect: the format detected (pkcs8, pkcs1, sec1, spki, jwk, openssh, rfc4716). convert: `to`.',
    }),
    isPrivate: Type.Optional(Type.Boolean({ description: 'inspect: whether the input holds a private key. convert: whether the result does.' })),
    encrypted: Type.Optional(Type.Boolean({ description: 'Whether the key read (inspect) or written (generate, convert) is encrypted.' })),
    type: Type.Enum(KEY_TYPES, { description: 'The key type.' }),
    bits: Type.Optional(Type.Integer({ description: 'The key size in bits, as OpenSSL reports it.' })),
    curve: Type.Optional(Type.String({ description: 'EC keys: the JOSE curve name (P-256, P-384, P-521, secp256k1), else OpenSSL’s.' })),
    comment: Type.Optional(
      Type.String({
        description:
          'inspect, OpenSSH and RFC 4716 keys: the comment (inside the encrypted part of an encrypted OpenSSH private key, so absent without its passphrase).',
      }),
    ),
    publicKey: Type.Optional(
      Type.Union(
        [
          Type.String(),
          Type.Object({
            spki: Type.String({ description: 'SPKI PEM.' }),
            openssh: Type.Optional(Type.String({ description: 'The OpenSSH public line, for the types SSH has.' })),
            jwk: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'The public JWK.' })),
          }),
        ],
        {
          description:
            'generate: the public key in the format written (SPKI PEM, OpenSSH line, or JWK JSON text). inspect: the public key as SPKI PEM, OpenSSH line and JWK.',
        },
      ),
    ),
    fingerprints: Type.Object(
      {
        sha256: Type.Optional(Type.String({ description: 'OpenSSH SHA-256 fingerprint (ssh-keygen -l), for the types SSH has.' })),
        md5: Type.Optional(Type.String({ description: 'OpenSSH MD5 fingerprint (ssh-keygen -l -E md5), for the types SSH has.' })),
        bubbleBabble: Type.Optional(Type.String({ description: 'The bubble babble of the SHA-1 of the SSH key (ssh-keygen -B), for the types SSH has.' })),
        jwkThumbprint: Type.Optional(Type.String({ description: 'RFC 7638 JWK thumbprint (SHA-256, base64url).' })),
        spkiSha256: Type.String({ description: 'SHA-256 of the DER SubjectPublicKeyInfo, base64: the HPKP and curl --pinnedpubkey pin.' }),
      },
      { description: 'The key’s fingerprints.' },
    ),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'inspect and convert: weak sizes, legacy encryption, a passphrase not used.' })),
  }),
  actions: {
    generate: { fields: ['type', 'bits', 'curve', 'format', 'comment', 'passphrase', 'rounds'] },
    inspect: { fields: ['input', 'passphrase'], requires: ['input'] },
    convert: { fields: ['input', 'passphrase', 'to', 'comment', 'publicOnly', 'outputPassphrase', 'rounds'], requires: ['input', 'to'] },
  },
  examples: [
    { summary: 'Generate an Ed25519 key pair as PEM', input: { action: 'generate', type: 'ed25519' } },
    {
      summary: 'Inspect the OpenSSH public key of RFC 8037’s Ed25519 key: its fingerprints as ssh-keygen prints them',
      input: { action: 'inspect', input: RFC8037_OPENSSH },
      output: {
        result: 'Ed25519 public key, OpenSSH format',
        action: 'inspect',
        format: 'openssh',
        isPrivate: false,
        encrypted: false,
        type: 'ed25519',
        bits: 256,
        comment: '',
        publicKey: { spki: RFC8037_SPKI, openssh: RFC8037_OPENSSH, jwk: { kty: 'OKP', crv: 'Ed25519', x: RFC8037_PRIVATE.x } },
        fingerprints: RFC8037_FINGERPRINTS,
        warnings: [],
      },
    },
    {
      summary: 'Convert RFC 8037’s private JWK to PKCS#8 PEM',
      input: { action: 'convert', input: JSON.stringify(RFC8037_PRIVATE), to: 'pkcs8' },
      output: {
        result: '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE KEY-----\n',
        action: 'convert',
        format: 'pkcs8',
        isPrivate: true,
        encrypted: false,
        type: 'ed25519',
        bits: 256,
        fingerprints: RFC8037_FINGERPRINTS,
        warnings: [],
      },
    },
    {
      summary: 'Convert RFC 7638’s RSA public JWK to an OpenSSH public key line',
      input: { action: 'convert', input: JSON.stringify(RFC7638_RSA), to: 'openssh', comment: 'rfc7638' },
      output: {
        result:
          'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDS/HtqCh5sZxBK64+Isldmm032ed2tCZtcSmzZqIAVtaEzvwuFbHhxtt8AC1VPzrPC7VErto8UXG6ENHUvq1Khz8EkQI95tYpFeMFkKIVXifeiSeOEyy2fri1n/Zb7kmwZjgdzmf3IFcCvCX3eWq3v9E3nDoJ/SHhDJDm/7rlgaNBHT8UNbZC/OpjfrxBAyJwC1pKrOzwolmCdhv1zt3TOB0BkfO7qoxC9EvmFqOufWf3UJs6lshIPTyo0vKt2S35sVNaEAji8xAWHpZ5m7R8ziUV3Y1xHCvdc+Swg0dpD4b/EGeIipvDQuzWMXjj5ywUK6v6QSBTxrBqknMqeoMqD rfc7638',
        action: 'convert',
        format: 'openssh',
        isPrivate: false,
        encrypted: false,
        type: 'rsa',
        bits: 2048,
        fingerprints: {
          sha256: 'SHA256:h+PAyXb3n4bqtmzZtsfJYZi/Ru2NzBNfXOe72fMggoU',
          md5: 'MD5:60:f8:c7:ec:5b:d5:6c:b5:c2:8b:8f:32:c6:ba:9b:ef',
          bubbleBabble: 'xecab-salos-nafen-zegel-tolor-sufin-zepun-bucod-bacuk-gybiz-kaxyx',
          jwkThumbprint: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
          spkiSha256: 'rTIyDPbFltiEsFOBulc6uo3dV0m03o9KI6efmondrrI=',
        },
        warnings: [],
      },
    },
  ],
  offload: ({ action, type, passphrase, outputPassphrase }) =>
    (action === 'generate' && type === 'rsa') || passphrase !== undefined || outputPassphrase !== undefined,
  deliberatelySlow: true,
  async run(fields) {
    assertFieldsApply(fields as Fields)
    if (fields.action === 'generate') return generate(fields as Fields)
    if (fields.action === 'inspect') return inspect(fields as Fields)
    return convert(fields as Fields)
  },
})
