import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject, randomBytes, sign } from 'node:crypto'
import { promisify } from 'node:util'
import { invalidInput, validationError } from '../../core/errors.ts'
import { readTlv } from '../../lib/asn1/der.ts'
import { assertValidEcScalar } from '../../lib/asn1/ec-scalar.ts'
import { assertPbeCost } from '../../lib/asn1/pbe-cost.ts'
import { type PemBlock, pemBlock, readPemBlocks } from '../../lib/asn1/pem.ts'
import { asn1 } from './asn1.ts'
import { type ParsedAttribute, parseDistinguishedName } from './der.ts'
import { EXTENDED_KEY_USAGES, KEY_USAGES } from './oids.ts'

export const KEY_TYPES = ['ed25519', 'p-256', 'p-384', 'rsa-2048', 'rsa-3072', 'rsa-4096'] as const
export const SIGNATURE_HASHES = ['sha256', 'sha384', 'sha512'] as const
export const EXTENDED_KEY_USAGE_NAMES = ['serverAuth', 'clientAuth', 'codeSigning', 'emailProtection', 'timeStamping', 'OCSPSigning'] as const

export interface GenerateOptions {
  kind: 'selfSigned' | 'csr'
  subject: string
  subjectAltNames: string[]
  keyType?: (typeof KEY_TYPES)[number]
  privateKey?: string
  passphrase?: string
  signatureHash: (typeof SIGNATURE_HASHES)[number]
  validityDays: number
  notBefore?: Date
  isCa: boolean
  pathLength?: number
  keyUsage?: Array<(typeof KEY_USAGES)[number]>
  extendedKeyUsage?: Array<(typeof EXTENDED_KEY_USAGE_NAMES)[number]>
}

const generatePair = promisify(generateKeyPair)

async function newKey(keyType: (typeof KEY_TYPES)[number]): Promise<KeyObject> {
  if (keyType === 'ed25519') return (await generatePair('ed25519')).privateKey
  if (keyType.startsWith('p-')) return (await generatePair('ec', { namedCurve: keyType === 'p-256' ? 'P-256' : 'P-384' })).privateKey
  return (await generatePair('rsa', { modulusLength: Number(keyType.slice(4)) })).privateKey
}

/**
 * The caller's key, once its EC scalar (if any) is known to be one of its curve: signing with another
 * aborts or fails deep in OpenSSL.
 */
function givenKey(text: string, passphrase: string | undefined): KeyObject {
  const key = readGivenKey(text, passphrase)
  assertValidEcScalar(key, 'privateKey')
  return key
}

/** The caller's key: PEM (PKCS#8, PKCS#1, SEC1, encrypted or not) or a JWK; no message quotes it. */
function readGivenKey(text: string, passphrase: string | undefined): KeyObject {
  const field = { field: 'privateKey' }
  if (text.trimStart().startsWith('{')) {
    let jwk: unknown
    try {
      jwk = JSON.parse(text)
    } catch {
      throw invalidInput('privateKey starts with { but is not JSON text: give a PEM private key or a JWK', field)
    }
    try {
      return createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' })
    } catch {
      throw invalidInput('privateKey is a JWK but not a private key node:crypto can read (it needs "d")', field)
    }
  }
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(text)
  if (encrypted && passphrase === undefined) throw invalidInput('privateKey is encrypted: passphrase is required', field)
  // The key derivation an encrypted PKCS#8 key asks for is bounded as the key operation bounds it, before OpenSSL runs it.
  if (text.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----')) {
    let blocks: PemBlock[]
    try {
      blocks = readPemBlocks(text, MAX_KEY_BLOCKS)
    } catch {
      throw invalidInput('privateKey is not a PEM private key: a block of it is broken or left open', field)
    }
    for (const block of blocks) if (block.label === 'ENCRYPTED PRIVATE KEY') assertPbeCost(block.der, 'privateKey')
  }
  try {
    return createPrivateKey(passphrase === undefined ? { key: text, format: 'pem' } : { key: text, format: 'pem', passphrase })
  } catch {
    if (encrypted) throw invalidInput('passphrase does not decrypt privateKey', { field: 'passphrase' })
    throw invalidInput('privateKey is not a PEM private key (PKCS#8, PKCS#1 or SEC1) nor a JWK', field)
  }
}

/** How many PEM blocks a privateKey may hold: a key, with a certificate or parameters beside it. */
const MAX_KEY_BLOCKS = 4

/** The signature algorithm for a key (RFC 5754, RFC 8410) and the hash node:crypto signs with. */
function signatureFor(key: KeyObject, hash: string): { oid: string; nullParameters: boolean; hash: string | null } {
  const type = key.asymmetricKeyType
  const index = { sha256: 0, sha384: 1, sha512: 2 }[hash] ?? 0
  if (type === 'rsa') return { oid: ['1.2.840.113549.1.1.11', '1.2.840.113549.1.1.12', '1.2.840.113549.1.1.13'][index], nullParameters: true, hash }
  if (type === 'ec') return { oid: ['1.2.840.10045.4.3.2', '1.2.840.10045.4.3.3', '1.2.840.10045.4.3.4'][index], nullParameters: false, hash }
  if (type === 'ed25519') return { oid: '1.3.101.112', nullParameters: false, hash: null }
  if (type === 'ed448') return { oid: '1.3.101.113', nullParameters: false, hash: null }
  throw invalidInput(`privateKey is a ${type} key, which cannot sign a certificate here: use RSA, EC (P-256, P-384, P-521), Ed25519 or Ed448`, {
    field: 'privateKey',
  })
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/

function ipBytes(text: string): Buffer | undefined {
  if (IPV4.test(text)) return Buffer.from(text.split('.').map(Number))
  if (!text.includes(':') || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined
  try {
    const host = new URL(`http://[${text}]/`).hostname.slice(1, -1)
    const [head, tail = ''] = host.includes('::') ? host.split('::') : [host, undefined as unknown as string]
    const groups = (part: string) => (part === '' ? [] : part.split(':'))
    const left = groups(head)
    const right = host.includes('::') ? groups(tail) : []
    const all = host.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
    if (all.length !== 8) return undefined
    return Buffer.concat(all.map((group) => Buffer.from(group.padStart(4, '0'), 'hex')))
  } catch {
    return undefined
  }
}

export async function generate(options: GenerateOptions) {
  if (options.privateKey !== undefined && options.keyType !== undefined)
    throw validationError('keyType', 'and privateKey cannot both be given: keyType makes a new key, privateKey signs with yours')
  if (options.pathLength !== undefined && !options.isCa) throw validationError('pathLength', 'needs isCa: true (only a CA certificate has a path length)')
  if (options.kind === 'csr' && (options.isCa || options.pathLength !== undefined))
    throw validationError('isCa', 'is for selfSigned only: a request asks, the CA decides')
  const { schema, x509, csr } = await asn1()
  const rdns = parseDistinguishedName(options.subject, 'subject')
  const made = options.privateKey === undefined
  const privateKey = made ? await newKey(options.keyType ?? 'p-256') : givenKey(options.privateKey as string, options.passphrase)
  const algorithm = signatureFor(privateKey, options.signatureHash)
  const spkiDer = createPublicKey(privateKey).export({ type: 'spki', format: 'der' })
  const spki = schema.AsnParser.parse(spkiDer, x509.SubjectPublicKeyInfo)
  const name = buildName(x509, schema, rdns)
  const extensions = buildExtensions(x509, schema, options, privateKey, spki)
  const algorithmIdentifier = new x509.AlgorithmIdentifier({ algorithm: algorithm.oid, parameters: algorithm.nullParameters ? null : undefined })
  const warnings: string[] = []
  if (options.subjectAltNames.length === 0 && rdns.some((rdn) => rdn.some((attribute) => attribute.oid === '2.5.4.3')) && !options.isCa)
    warnings.push('a CN without subjectAltNames: browsers ignore CN and will refuse the certificate for any host name')

  let der: Buffer
  if (options.kind === 'csr') {
    const attributes = new csr.Attributes(
      extensions.length === 0
        ? []
        : [new x509.Attribute({ type: '1.2.840.113549.1.9.14', values: [schema.AsnSerializer.serialize(new x509.Extensions(extensions))] })],
    )
    const info = new csr.CertificationRequestInfo({ version: 0, subject: name, subjectPKInfo: spki, attributes })
    const infoDer = Buffer.from(schema.AsnSerializer.serialize(info))
    const signature = sign(algorithm.hash, infoDer, privateKey)
    const request = new csr.CertificationRequest({
      certificationRequestInfo: info,
      signatureAlgorithm: algorithmIdentifier,
      signature: toArrayBuffer(signature),
    })
    der = Buffer.from(schema.AsnSerializer.serialize(request))
  } else {
    const { notBefore, notAfter } = validity(options)
    const tbs = new x509.TBSCertificate({
      version: x509.Version.v3,
      serialNumber: toArrayBuffer(serial()),
      signature: algorithmIdentifier,
      issuer: name,
      validity: new x509.Validity({ notBefore, notAfter }),
      subject: name,
      subjectPublicKeyInfo: spki,
      extensions: new x509.Extensions(extensions),
    })
    const tbsDer = Buffer.from(schema.AsnSerializer.serialize(tbs))
    const signature = sign(algorithm.hash, tbsDer, privateKey)
    const certificate = new x509.Certificate({ tbsCertificate: tbs, signatureAlgorithm: algorithmIdentifier, signatureValue: toArrayBuffer(signature) })
    der = Buffer.from(schema.AsnSerializer.serialize(certificate))
  }
  return {
    der,
    pem: pemBlock(options.kind === 'csr' ? 'CERTIFICATE REQUEST' : 'CERTIFICATE', der),
    privateKey: made ? (privateKey.export({ type: 'pkcs8', format: 'pem' }) as string) : undefined,
    warnings,
  }
}

const toArrayBuffer = (bytes: Buffer) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer

/** The first and last instants a certificate's validity can hold (RFC 5280 §4.1.2.5): UTCTime from 1950, GeneralizedTime up to 9999. */
const FIRST_VALIDITY_MS = Date.UTC(1950, 0, 1)
const LAST_VALIDITY_MS = Date.UTC(9999, 11, 31, 23, 59, 59)
const DAY_MS = 86_400_000

/** notBefore (default now) to whole seconds, and notAfter validityDays later: within what X.509 can write, or refused. */
function validity({ notBefore: start, validityDays }: Pick<GenerateOptions, 'notBefore' | 'validityDays'>): { notBefore: Date; notAfter: Date } {
  const notBefore = new Date(start ?? Date.now())
  notBefore.setUTCMilliseconds(0)
  if (notBefore.getTime() < FIRST_VALIDITY_MS) throw validationError('notBefore', 'is before 1950, the first year a certificate can hold (RFC 5280 §4.1.2.5)')
  const notAfter = new Date(notBefore.getTime() + validityDays * DAY_MS)
  if (notAfter.getTime() > LAST_VALIDITY_MS) {
    const most = Math.floor((LAST_VALIDITY_MS - notBefore.getTime()) / DAY_MS)
    if (most < 1) throw validationError('notBefore', 'leaves less than a day before 9999-12-31T23:59:59Z, the last instant a certificate can hold')
    throw validationError('validityDays', `ends past 9999-12-31T23:59:59Z, the last instant a certificate can hold: at most ${most} days from this notBefore`)
  }
  return { notBefore, notAfter }
}

/** RFC 5280 §4.1.2.2 and the Baseline Requirements: positive, at most 20 octets, 64 bits or more from a CSPRNG. */
function serial(): Buffer {
  for (;;) {
    const bytes = randomBytes(16)
    bytes[0] &= 0x7f
    // A leading zero octet would make the INTEGER's encoding not minimal.
    if (bytes[0] !== 0) return bytes
  }
}

type X509 = Awaited<ReturnType<typeof asn1>>['x509']
type Schema = Awaited<ReturnType<typeof asn1>>['schema']

// RFC 5280 appendix A: country and serialNumber are PrintableString, emailAddress and domainComponent IA5String.
const PRINTABLE = new Set(['2.5.4.6', '2.5.4.5'])
const IA5 = new Set(['1.2.840.113549.1.9.1', '0.9.2342.19200300.100.1.25'])

/** One attribute of a name, in the string type RFC 5280 gives its type. */
function buildAttribute(x509: X509, attribute: ParsedAttribute) {
  if (Buffer.isBuffer(attribute.value)) {
    const raw = attribute.value
    if (!isOneElement(raw)) throw invalidInput('subject: a #hex value must be the BER encoding of one whole element', { field: 'subject' })
    return new x509.AttributeTypeAndValue({ type: attribute.oid, value: new x509.AttributeValue({ anyValue: toArrayBuffer(raw) }) })
  }
  const text = attribute.value
  if (PRINTABLE.has(attribute.oid)) {
    if (!/^[A-Za-z0-9 '()+,\-./:=?]*$/.test(text))
      throw invalidInput(`subject: ${attribute.oid === '2.5.4.6' ? 'C' : 'serialNumber'} must be PrintableString characters`, { field: 'subject' })
    if (attribute.oid === '2.5.4.6' && !/^[A-Z]{2}$/.test(text))
      throw invalidInput('subject: C must be a two-letter ISO 3166 country code in capitals', { field: 'subject' })
    return new x509.AttributeTypeAndValue({ type: attribute.oid, value: new x509.AttributeValue({ printableString: text }) })
  }
  if (IA5.has(attribute.oid)) {
    if (!/^[\x00-\x7f]*$/.test(text)) throw invalidInput('subject: emailAddress and DC must be ASCII', { field: 'subject' })
    return new x509.AttributeTypeAndValue({ type: attribute.oid, value: new x509.AttributeValue({ ia5String: text }) })
  }
  return new x509.AttributeTypeAndValue({ type: attribute.oid, value: new x509.AttributeValue({ utf8String: text }) })
}

/**
 * The name, each multi-valued RDN (`OU=a+CN=b`) in DER's order for a SET OF: by the bytes of each
 * attribute's encoding (X.690 §11.6), which the serializer leaves as given.
 */
function buildName(x509: X509, schema: Schema, rdns: ParsedAttribute[][]) {
  return new x509.Name(
    rdns.map((rdn) => {
      const encoded = rdn.map((attribute) => {
        const built = buildAttribute(x509, attribute)
        return { built, der: Buffer.from(schema.AsnSerializer.serialize(built)) }
      })
      encoded.sort((a, b) => Buffer.compare(a.der, b.der))
      return new x509.RelativeDistinguishedName(encoded.map(({ built }) => built))
    }),
  )
}

function isOneElement(bytes: Buffer): boolean {
  try {
    return readTlv(bytes, 0).end === bytes.length
  } catch {
    return false
  }
}

function generalNames(x509: X509, names: string[]) {
  return names.map((text, index) => {
    const colon = text.indexOf(':')
    const prefix = text.slice(0, colon)
    const value = text.slice(colon + 1)
    const field = { field: 'subjectAltNames', index }
    if (colon <= 0 || value === '') throw invalidInput(`subjectAltNames[${index}] must be DNS:, IP:, email: or URI: and a value`, field)
    if (/[\x00-\x1f\x7f]/.test(value)) throw invalidInput(`subjectAltNames[${index}] holds a control character`, field)
    switch (prefix) {
      case 'DNS':
        if (!/^(\*\.)?([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.)*[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\.?$/.test(value) || value.length > 253)
          throw invalidInput(`subjectAltNames[${index}] is not a DNS name (give an IDN in its xn-- form)`, field)
        return new x509.GeneralName({ dNSName: value })
      case 'IP': {
        const bytes = ipBytes(value)
        if (bytes === undefined) throw invalidInput(`subjectAltNames[${index}] is not an IPv4 or IPv6 address`, field)
        return new x509.GeneralName({ iPAddress: value.includes(':') ? ipv6Text(bytes) : value })
      }
      case 'email':
        if (!/^[^@\s]+@[^@\s]+$/.test(value) || !/^[\x20-\x7e]+$/.test(value))
          throw invalidInput(`subjectAltNames[${index}] is not an ASCII email address`, field)
        return new x509.GeneralName({ rfc822Name: value })
      case 'URI':
        if (!/^[A-Za-z][A-Za-z0-9+.-]*:[\x21-\x7e]+$/.test(value)) throw invalidInput(`subjectAltNames[${index}] is not an ASCII URI with a scheme`, field)
        return new x509.GeneralName({ uniformResourceIdentifier: value })
      default:
        throw invalidInput(`subjectAltNames[${index}] must start with DNS:, IP:, email: or URI:`, field)
    }
  })
}

/** The library's IPv6 converter reads the full eight-group form. */
function ipv6Text(bytes: Buffer): string {
  const groups: string[] = []
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16))
  return groups.join(':')
}

function buildExtensions(x509: X509, schema: Schema, options: GenerateOptions, key: KeyObject, spki: InstanceType<X509['SubjectPublicKeyInfo']>) {
  const extension = (oid: string, critical: boolean, value: unknown) =>
    new x509.Extension({ extnID: oid, critical, extnValue: new schema.OctetString(schema.AsnSerializer.serialize(value as object)) })
  const extensions = []
  const selfSigned = options.kind === 'selfSigned'
  if (selfSigned)
    extensions.push(extension('2.5.29.19', true, new x509.BasicConstraints(options.isCa ? { cA: true, pathLenConstraint: options.pathLength } : { cA: false })))
  const usages =
    options.keyUsage ??
    (options.isCa ? ['keyCertSign', 'cRLSign'] : key.asymmetricKeyType === 'rsa' ? ['digitalSignature', 'keyEncipherment'] : ['digitalSignature'])
  let flags = 0
  for (const usage of usages) flags |= 1 << KEY_USAGES.indexOf(usage as (typeof KEY_USAGES)[number])
  if (usages.length > 0) extensions.push(extension('2.5.29.15', true, new x509.KeyUsage(flags)))
  const extended = options.extendedKeyUsage ?? (options.isCa ? [] : ['serverAuth'])
  if (extended.length > 0) {
    const oids = Object.fromEntries(Object.entries(EXTENDED_KEY_USAGES).map(([oid, name]) => [name, oid]))
    extensions.push(extension('2.5.29.37', false, new x509.ExtendedKeyUsage(extended.map((name) => oids[name]))))
  }
  if (options.subjectAltNames.length > 0)
    extensions.push(extension('2.5.29.17', false, new x509.SubjectAlternativeName(generalNames(x509, options.subjectAltNames))))
  if (selfSigned) {
    // RFC 5280 §4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING's value.
    const keyId = createHash('sha1').update(Buffer.from(spki.subjectPublicKey)).digest()
    extensions.push(extension('2.5.29.14', false, new x509.SubjectKeyIdentifier(toArrayBuffer(keyId))))
    extensions.push(extension('2.5.29.35', false, new x509.AuthorityKeyIdentifier({ keyIdentifier: new x509.KeyIdentifier(toArrayBuffer(keyId)) })))
  }
  return extensions
}
