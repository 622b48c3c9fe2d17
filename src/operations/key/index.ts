import { createPrivateKey, createPublicKey, generateKeyPair, type JsonWebKey, type KeyObject, sign, verify } from 'node:crypto'
import { promisify } from 'node:util'
import { Type } from 'typebox'
import { invalidInput, limitExceeded, validationError } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'
import { defineOperation, withDefault } from '../../core/operation.ts'
import { contentOf, elementsBetween } from '../../lib/asn1/der.ts'
import { type PemBlock, pemBlock, readPemBlocks } from '../../lib/asn1/pem.ts'
import { publicKeyFacts } from '../../lib/asn1/public-key.ts'
import {
  ecPublicFromPrivate,
  isRfc4716,
  MAX_ROUNDS,
  openSshPrivate,
  publicLine,
  readOpenSshPrivate,
  readPublicLine,
  readRfc4716,
  rfc4716,
  sshFingerprints,
  sshKeyType,
  toBigInt,
} from './openssh.ts'

/** jose, for RFC 7638 thumbprints, loaded with the first key (see lazily). */
const jose = lazily(() => import('jose'))
const generateKeyPairAsync = promisify(generateKeyPair) as (type: string, options: object) => Promise<{ privateKey: KeyObject; publicKey: KeyObject }>

const ACTIONS = ['generate', 'inspect', 'convert'] as const
type Action = (typeof ACTIONS)[number]
const TYPES = ['ed25519', 'ec', 'rsa', 'x25519', 'ed448', 'x448'] as const
const CURVES = ['P-256', 'P-384', 'P-521', 'secp256k1'] as const
const GENERATE_FORMATS = ['pem', 'openssh', 'jwk'] as const
const TARGETS = ['pkcs8', 'pkcs1', 'sec1', 'spki', 'jwk', 'openssh', 'rfc4716'] as const
type Target = (typeof TARGETS)[number]
const KEY_TYPES = ['rsa', 'rsa-pss', 'ec', 'ed25519', 'ed448', 'x25519', 'x448'] as const

/** node:crypto's names of the JOSE curves. */
const NODE_CURVES: Record<string, string> = { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1', secp256k1: 'secp256k1' }

/** The largest RSA key read: larger ones are refused before any work on them. */
const MAX_RSA_BITS = 16_384
/** Bounds on the KDF an encrypted PKCS#8 key names, checked before OpenSSL runs it. */
const MAX_PBE_ITERATIONS = 1_000_000
const MAX_SCRYPT_MEMORY = 32 * 1024 * 1024
const MAX_SCRYPT_WORK = 2 ** 21

const FORMAT_NAMES: Record<Target, string> = {
  pkcs8: 'PKCS#8',
  pkcs1: 'PKCS#1',
  sec1: 'SEC1',
  spki: 'SPKI',
  jwk: 'JWK',
  openssh: 'OpenSSH format',
  rfc4716: 'RFC 4716',
}
const TYPE_NAMES: Record<string, string> = {
  rsa: 'RSA',
  'rsa-pss': 'RSA-PSS',
  ec: 'EC',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
  x25519: 'X25519',
  x448: 'X448',
}

// ---- Telling key structures apart, and reading a PBE's cost, before OpenSSL reads them ----

/** The elements of `bytes` one after another, each with its content. */
function derItems(bytes: Buffer): Array<{ tag: number; content: Buffer }> {
  return elementsBetween(bytes, 0, bytes.length).map((element) => ({ tag: element.tag, content: contentOf(bytes, element) }))
}

const SEQUENCE = 0x30
const INTEGER = 0x02
const BIT_STRING = 0x03
const OCTET_STRING = 0x04
const OID = 0x06

type DerKind = 'pkcs8' | 'pkcs8-encrypted' | 'pkcs1' | 'pkcs1-public' | 'sec1' | 'spki' | 'unknown'

/** What a DER key structure is, from the shape of its outer SEQUENCE. */
function derKind(der: Buffer): DerKind {
  try {
    const [outer, ...after] = derItems(der)
    if (outer === undefined || outer.tag !== SEQUENCE || after.length > 0) return 'unknown'
    const items = derItems(outer.content)
    const [first, second] = items
    if (first?.tag === INTEGER) {
      if (second?.tag === SEQUENCE) return 'pkcs8'
      if (second?.tag === OCTET_STRING) return 'sec1'
      if (second?.tag === INTEGER) return items.length === 2 ? 'pkcs1-public' : 'pkcs1'
    }
    if (first?.tag === SEQUENCE && second?.tag === BIT_STRING) return 'spki'
    if (first?.tag === SEQUENCE && second?.tag === OCTET_STRING) return 'pkcs8-encrypted'
  } catch {
    // Not DER at all: the caller says so.
  }
  return 'unknown'
}

const PBES2 = '2a864886f70d01050d'
const PBKDF2 = '2a864886f70d01050c'
const SCRYPT = '2b06010401da47040b'

function derInteger(item: { tag: number; content: Buffer } | undefined): number {
  if (item?.tag !== INTEGER) throw new Error('not an integer')
  if (item.content.length > 6) return Number.POSITIVE_INFINITY
  return item.content.length === 0 ? 0 : item.content.readUIntBE(0, item.content.length)
}

/**
 * Refuses an encrypted PKCS#8 key whose KDF would run too long or take too much memory: its
 * iteration count (PBKDF2, PBES1, PKCS#12) or scrypt's N, r and p are read before OpenSSL runs it.
 */
export function assertPbeCost(der: Buffer, field = 'input'): void {
  let cost: { iterations?: number; N?: number; r?: number; p?: number } = {}
  try {
    const [algorithm] = derItems(derItems(der)[0].content)
    const [oid, params] = derItems(algorithm.content)
    if (oid.tag !== OID || params?.tag !== SEQUENCE) return
    if (oid.content.toString('hex') === PBES2) {
      const [kdf] = derItems(params.content)
      const [kdfOid, kdfParams] = derItems(kdf.content)
      if (kdfParams?.tag !== SEQUENCE) return
      const fields = derItems(kdfParams.content)
      if (kdfOid.content.toString('hex') === PBKDF2) cost = { iterations: derInteger(fields[1]) }
      else if (kdfOid.content.toString('hex') === SCRYPT) cost = { N: derInteger(fields[1]), r: derInteger(fields[2]), p: derInteger(fields[3]) }
    } else {
      cost = { iterations: derInteger(derItems(params.content)[1]) }
    }
  } catch {
    // Not refused by leaving it to OpenSSL: it reads BER forms this reader may not, and would run the KDF unbounded.
    throw invalidInput(`${field} is not a valid encrypted PKCS#8 key: its encryption parameters cannot be read`, { field })
  }
  if (cost.iterations !== undefined && cost.iterations > MAX_PBE_ITERATIONS)
    throw limitExceeded(
      `${field}'s encryption asks for ${cost.iterations} KDF iterations, more than the ${MAX_PBE_ITERATIONS} this service runs; it was not decrypted`,
      {
        field,
        parameter: 'iterations',
        limit: MAX_PBE_ITERATIONS,
      },
    )
  if (cost.N !== undefined) {
    // What OpenSSL counts against its own limit: the V array of N + 2 blocks and p blocks of B.
    const memory = 128 * cost.r! * (cost.N + cost.p! + 2)
    if (memory > MAX_SCRYPT_MEMORY || cost.N * cost.r! * cost.p! > MAX_SCRYPT_WORK)
      throw limitExceeded(`${field}'s scrypt encryption asks for N=${cost.N}, r=${cost.r}, p=${cost.p}, more than this service runs; it was not decrypted`, {
        field,
        parameter: 'scrypt',
        limit: MAX_SCRYPT_MEMORY,
      })
  }
}

// ---- Reading a key ----

type Format = Target

/** A key as read: its public half always, its private half when it holds one and could be decrypted. */
interface ReadKey {
  format: Format
  isPrivate: boolean
  encrypted: boolean
  publicKey: KeyObject
  privateKey?: KeyObject
  comment?: string
  warnings: string[]
  /** The encoding the key came in, for the description: PEM unless told. */
  encoding?: 'DER'
}

const PASSPHRASE_REQUIRED = () => invalidInput('passphrase required: the key is encrypted; give its passphrase in passphrase', { field: 'passphrase' })
const WRONG_PASSPHRASE = () => invalidInput('passphrase does not decrypt the key', { field: 'passphrase' })
const PASSPHRASE_UNUSED = 'passphrase was given but the key is not encrypted; it was not used'
const LEGACY_ENCRYPTION =
  'The key is encrypted the legacy OpenSSL way (Proc-Type and DEK-Info headers, a key derived by one MD5 round): convert it to PKCS#8 or OpenSSH with an outputPassphrase'

const PEM_LABELS: Record<string, { format: Format; kind: 'private' | 'public'; type?: 'pkcs1' | 'pkcs8' | 'sec1' | 'spki' }> = {
  'PRIVATE KEY': { format: 'pkcs8', kind: 'private', type: 'pkcs8' },
  'ENCRYPTED PRIVATE KEY': { format: 'pkcs8', kind: 'private', type: 'pkcs8' },
  'RSA PRIVATE KEY': { format: 'pkcs1', kind: 'private', type: 'pkcs1' },
  'EC PRIVATE KEY': { format: 'sec1', kind: 'private', type: 'sec1' },
  'PUBLIC KEY': { format: 'spki', kind: 'public', type: 'spki' },
  'RSA PUBLIC KEY': { format: 'pkcs1', kind: 'public', type: 'pkcs1' },
  'OPENSSH PRIVATE KEY': { format: 'openssh', kind: 'private' },
}

const REFUSED_LABELS: Record<string, string> = {
  'DSA PRIVATE KEY': 'DSA keys are not supported: OpenSSH removed ssh-dss, and FIPS 186-5 withdrew DSA',
  CERTIFICATE: 'input is a certificate, not a key; the x509 operation reads certificates and their public keys',
  'CERTIFICATE REQUEST': 'input is a certificate request, not a key; the x509 operation reads it',
  'EC PARAMETERS': 'input holds only EC parameters; give the EC PRIVATE KEY block that follows them in the same text',
}

/** Refuses keys this operation does not handle, and keys too large to read. */
function checkKeyObject(key: KeyObject): void {
  const type = key.asymmetricKeyType
  if (type === 'dsa') throw invalidInput('DSA keys are not supported: OpenSSH removed ssh-dss, and FIPS 186-5 withdrew DSA', { field: 'input' })
  if (!(KEY_TYPES as readonly (string | undefined)[]).includes(type))
    throw invalidInput(`input is a ${type ?? 'secret'} key; RSA, EC, Ed25519, Ed448, X25519 and X448 keys are supported`, { field: 'input' })
  const bits = key.asymmetricKeyDetails?.modulusLength
  if (bits !== undefined && bits > MAX_RSA_BITS)
    throw limitExceeded(`input is an RSA key of ${bits} bits; keys up to ${MAX_RSA_BITS} bits are read`, { field: 'input', limit: MAX_RSA_BITS })
}

function nodeKey(read: () => KeyObject, what: string): KeyObject {
  try {
    return read()
  } catch {
    throw invalidInput(`input is not a valid ${what}, or its algorithm or curve is not one this service reads`, { field: 'input' })
  }
}

/** A PEM-labelled or DER private key, decrypted by node:crypto with the passphrase where it is encrypted. */
function readPrivateDer(der: Buffer, type: 'pkcs1' | 'pkcs8' | 'sec1', encrypted: boolean, passphrase: string | undefined, pem?: string): KeyObject {
  if (encrypted && passphrase === undefined) throw PASSPHRASE_REQUIRED()
  if (encrypted && type === 'pkcs8') assertPbeCost(der)
  try {
    if (pem !== undefined) return createPrivateKey({ key: pem, format: 'pem', passphrase })
    return createPrivateKey({ key: der, format: 'der', type, passphrase })
  } catch {
    if (encrypted) throw WRONG_PASSPHRASE()
    throw invalidInput(`input is not a valid ${type === 'pkcs8' ? 'PKCS#8' : type === 'pkcs1' ? 'PKCS#1' : 'SEC1'} private key`, { field: 'input' })
  }
}

function fromPrivate(privateKey: KeyObject, read: Omit<ReadKey, 'publicKey' | 'privateKey' | 'isPrivate'>): ReadKey {
  assertValidEcScalar(privateKey)
  checkKeyObject(privateKey)
  const publicKey = createPublicKey(privateKey)
  if (privateKey.asymmetricKeyType === 'ec') assertEcPairs(privateKey, publicKey)
  // PKCS#1, PKCS#8 and openssh-key-v1 carry the same numbers as a JWK, and node:crypto reads them as unchecked.
  if (privateKey.asymmetricKeyType === 'rsa') assertJwkConsistent(privateKey.export({ format: 'jwk' }), privateKey, 'RSA key')
  return { ...read, isPrivate: true, privateKey, publicKey }
}

/** The order n of each named curve read, by its OID's content in hex (SEC 2, RFC 5639), as OpenSSL gives it. */
const CURVE_ORDERS: Readonly<Record<string, bigint>> = {
  '2a8648ce3d030107': 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  '2b81040022': 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
  '2b81040023': 0x01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409n,
  '2b8104000a': 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n,
  '2b2403030208010107': 0xa9fb57dba1eea9bc3e660a909d838d718c397aa3b561a6f7901e0e82974856a7n,
  '2b240303020801010b': 0x8cb91e82a3386d280f5d6f7e50e641df152f7109ed5456b31f166e6cac0425a7cf3ab6af6b7fc3103b883202e9046565n,
  '2b240303020801010d': 0xaadd9db8dbe9c48b3fd4e6ae33c9fc07cb308db3b3c9d20ed6639cca70330870553e5c414ca92619418661197fac10471db1d381085ddaddb58796829ca90069n,
}

/**
 * Refuses an EC private key whose scalar d is not one of its curve (0 < d < n), before anything asks
 * node:crypto for its details: OpenSSL decodes a scalar longer than the curve's into a key it cannot
 * encode again, and Node.js 22 aborts the whole process (an assertion, not an exception) reading the
 * details of such a key. Its own PKCS#8 export throws instead, so that export is where d is read.
 */
export function assertValidEcScalar(privateKey: KeyObject, field = 'input'): void {
  if (privateKey.asymmetricKeyType !== 'ec') return
  const invalid = () => invalidInput(`${field} is not a valid EC private key: its private scalar d is not one of its curve (0 < d < n)`, { field })
  let scalar: bigint
  let curve: string
  try {
    const [, algorithm, octets] = derItems(derItems(privateKey.export({ format: 'der', type: 'pkcs8' }))[0].content)
    curve = derItems(algorithm.content)[1]?.content.toString('hex') ?? ''
    const [, d] = derItems(derItems(octets.content)[0].content)
    scalar = BigInt(`0x${d.content.toString('hex') || '0'}`)
  } catch {
    throw invalid()
  }
  const order = CURVE_ORDERS[curve]
  if (scalar === 0n || (order !== undefined && scalar >= order)) throw invalid()
}

const PAIR_PROBE = Buffer.from('devutils key pair check')

/**
 * An EC private key stores its public point beside d (RFC 5915 §3), and OpenSSL takes the point as it
 * is: a key whose point is another's would be told, fingerprinted and converted as that other key.
 * A signature made with d and checked with the point tells them apart, on any curve.
 */
function assertEcPairs(privateKey: KeyObject, publicKey: KeyObject): void {
  let pairs: boolean
  try {
    pairs = verify('sha256', PAIR_PROBE, publicKey, sign('sha256', PAIR_PROBE, privateKey))
  } catch {
    pairs = false
  }
  if (!pairs) throw invalidInput('input is an inconsistent EC key: its public key does not match its private key (d)', { field: 'input' })
}

function fromPublic(publicKey: KeyObject, read: Omit<ReadKey, 'publicKey' | 'privateKey' | 'isPrivate'>): ReadKey {
  checkKeyObject(publicKey)
  return { ...read, isPrivate: false, publicKey }
}

async function readPem(block: PemBlock, passphrase: string | undefined): Promise<ReadKey> {
  const refused = REFUSED_LABELS[block.label]
  if (refused !== undefined) throw invalidInput(refused, { field: 'input', label: block.label })
  const known = PEM_LABELS[block.label]
  if (known === undefined)
    throw invalidInput(
      `input's PEM block is labelled "${block.label}"; a key is PRIVATE KEY, ENCRYPTED PRIVATE KEY, RSA PRIVATE KEY, EC PRIVATE KEY, PUBLIC KEY, RSA PUBLIC KEY or OPENSSH PRIVATE KEY`,
      {
        field: 'input',
        label: block.label,
      },
    )
  const legacy = block.headers.some(({ name, value }) => name.toLowerCase() === 'proc-type' && /ENCRYPTED/i.test(value))
  const warnings: string[] = []
  if (known.format === 'openssh') return readOpenSsh(block.der, passphrase)
  if (known.kind === 'public') {
    const publicKey = nodeKey(
      () => createPublicKey({ key: block.der, format: 'der', type: known.type as 'pkcs1' | 'spki' }),
      `${FORMAT_NAMES[known.format]} public key`,
    )
    if (passphrase !== undefined) warnings.push(PASSPHRASE_UNUSED)
    return fromPublic(publicKey, { format: known.format, encrypted: false, warnings })
  }
  const encrypted = block.label === 'ENCRYPTED PRIVATE KEY' || legacy
  if (legacy) warnings.push(LEGACY_ENCRYPTION)
  else if (!encrypted && passphrase !== undefined) warnings.push(PASSPHRASE_UNUSED)
  const pem = legacy ? legacyPem(block) : undefined
  const privateKey = readPrivateDer(block.der, known.type as 'pkcs1' | 'pkcs8' | 'sec1', encrypted, passphrase, pem)
  return fromPrivate(privateKey, { format: known.format, encrypted, warnings })
}

/** A legacy encrypted block written back with its headers, which OpenSSL needs to decrypt it. */
function legacyPem(block: PemBlock): string {
  const plain = pemBlock(block.label, block.der)
  const headers = block.headers.map(({ name, value }) => `${name}: ${value}`).join('\n')
  return plain.replace('-----\n', `-----\n${headers}\n\n`)
}

async function readOpenSsh(der: Buffer, passphrase: string | undefined): Promise<ReadKey> {
  const found = await readOpenSshPrivate(der, passphrase)
  const warnings = !found.encrypted && passphrase !== undefined ? [PASSPHRASE_UNUSED] : []
  const read = { format: 'openssh' as const, encrypted: found.encrypted, warnings, comment: found.comment }
  if (found.privateKey === undefined) return { ...fromPublic(found.publicKey, read), isPrivate: true }
  return fromPrivate(found.privateKey, read)
}

/** Reads a JWK (or a JWK Set of one key) and checks that a private key's public members are those of its private ones. */
function readJwk(text: string, passphrase: string | undefined): ReadKey {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw invalidInput('input starts with { but is not JSON text; a JWK is a JSON object', { field: 'input' })
  }
  if (value !== null && typeof value === 'object' && Array.isArray((value as { keys?: unknown }).keys)) {
    const keys = (value as { keys: unknown[] }).keys
    if (keys.length !== 1) throw invalidInput(`input is a JWK Set of ${keys.length} keys; one key per call is read`, { field: 'input' })
    value = keys[0]
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as JsonWebKey).kty !== 'string')
    throw invalidInput('input is not a JWK: it needs a "kty" member (RSA, EC or OKP)', { field: 'input' })
  const jwk = value as JsonWebKey
  if (jwk.kty === 'oct') throw invalidInput('input is a symmetric key (kty "oct"), not a key pair; RSA, EC and OKP keys are read', { field: 'input' })
  const warnings = passphrase === undefined ? [] : [PASSPHRASE_UNUSED]
  const isPrivate = typeof jwk.d === 'string'
  if (!isPrivate) {
    const publicKey = nodeKey(() => createPublicKey({ key: jwk, format: 'jwk' }), `public JWK (kty ${String(jwk.kty).slice(0, 16)})`)
    return fromPublic(publicKey, { format: 'jwk', encrypted: false, warnings })
  }
  const privateKey = nodeKey(() => createPrivateKey({ key: jwk, format: 'jwk' }), `private JWK (kty ${String(jwk.kty).slice(0, 16)})`)
  assertJwkConsistent(jwk, privateKey)
  return fromPrivate(privateKey, { format: 'jwk', encrypted: false, warnings })
}

/**
 * node:crypto takes a private JWK's public members as they are (EC) or derives them without a word
 * (OKP), so a JWK whose x does not belong to its d would be read as a different key than its owner
 * thinks: it is refused.
 */
function assertJwkConsistent(jwk: JsonWebKey, privateKey: KeyObject, what = 'JWK'): void {
  if (jwk.kty === 'OKP') {
    const derived = createPublicKey(privateKey).export({ format: 'jwk' })
    if (derived.x !== jwk.x) throw invalidInput('input is an inconsistent JWK: x does not match d', { field: 'input' })
  } else if (jwk.kty === 'EC') {
    const nodeCurve = NODE_CURVES[jwk.crv ?? '']
    if (nodeCurve === undefined) return
    let point: Buffer
    try {
      point = ecPublicFromPrivate(nodeCurve, Buffer.from(jwk.d!, 'base64url'))
    } catch {
      throw invalidInput('input is an inconsistent JWK: d is not a valid private scalar', { field: 'input' })
    }
    const size = (point.length - 1) / 2
    const same = (member: string | undefined, bytes: Buffer) => Buffer.from(member ?? '', 'base64url').equals(bytes)
    if (!same(jwk.x, point.subarray(1, 1 + size)) || !same(jwk.y, point.subarray(1 + size)))
      throw invalidInput('input is an inconsistent JWK: x and y do not match d', { field: 'input' })
  } else if (jwk.kty === 'RSA' && jwk.p !== undefined && jwk.q !== undefined) {
    const [n, e, d, p, q] = [jwk.n, jwk.e, jwk.d, jwk.p, jwk.q].map((member) => toBigInt(Buffer.from(member ?? '', 'base64url')))
    if (p < 2n || q < 2n || n !== p * q || (e * d) % (p - 1n) !== 1n || (e * d) % (q - 1n) !== 1n)
      throw invalidInput(`input is an inconsistent ${what}: n, e, d, p and q do not belong together`, { field: 'input' })
    // The CRT members (RFC 7518 §6.3.2) are carried as given into every format written; a signer that trusts a wrong one makes a wrong signature, which gives away p.
    const [dp, dq, qi] = [jwk.dp, jwk.dq, jwk.qi].map((member) => toBigInt(Buffer.from(member ?? '', 'base64url')))
    if ((dp - d) % (p - 1n) !== 0n || (dq - d) % (q - 1n) !== 0n || (qi * q) % p !== 1n)
      throw invalidInput(`input is an inconsistent ${what}: dp, dq and qi do not belong to d, p and q`, { field: 'input' })
  }
}

/** A single DER structure written as base64, told apart by its shape. */
function readDer(text: string, passphrase: string | undefined): ReadKey | undefined {
  const compact = text.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return undefined
  const der = Buffer.from(compact, 'base64')
  const kind = derKind(der)
  const warnings = passphrase !== undefined && kind !== 'pkcs8-encrypted' ? [PASSPHRASE_UNUSED] : []
  const read = { encrypted: kind === 'pkcs8-encrypted', warnings, encoding: 'DER' as const }
  switch (kind) {
    case 'spki':
      return fromPublic(
        nodeKey(() => createPublicKey({ key: der, format: 'der', type: 'spki' }), 'SPKI public key'),
        { ...read, format: 'spki' },
      )
    case 'pkcs1-public':
      return fromPublic(
        nodeKey(() => createPublicKey({ key: der, format: 'der', type: 'pkcs1' }), 'PKCS#1 public key'),
        { ...read, format: 'pkcs1' },
      )
    case 'pkcs8':
    case 'pkcs8-encrypted':
      return fromPrivate(readPrivateDer(der, 'pkcs8', read.encrypted, passphrase), { ...read, format: 'pkcs8' })
    case 'pkcs1':
      return fromPrivate(readPrivateDer(der, 'pkcs1', false, passphrase), { ...read, format: 'pkcs1' })
    case 'sec1':
      return fromPrivate(readPrivateDer(der, 'sec1', false, passphrase), { ...read, format: 'sec1' })
    default:
      return undefined
  }
}

const ONE_KEY_PER_CALL = () => limitExceeded('input holds more than one PEM block; one key per call is read', { field: 'input', limit: 1 })

/**
 * The text's PEM blocks, at most one key: `openssl ecparam -genkey` writes EC PARAMETERS before the
 * key, which is passed over, since the key names its curve itself.
 */
function pemBlocksOf(text: string): PemBlock[] {
  let blocks: PemBlock[]
  try {
    blocks = readPemBlocks(text, 2)
  } catch (error) {
    if ((error as { code?: string }).code === 'LIMIT_EXCEEDED') throw ONE_KEY_PER_CALL()
    throw error
  }
  if (blocks.length === 2 && blocks[0].label === 'EC PARAMETERS') blocks = blocks.slice(1)
  if (blocks.length > 1) throw ONE_KEY_PER_CALL()
  return blocks
}

/**
 * A public key line, alone or after what authorized_keys puts before it (options) or known_hosts
 * does (host names): from the key type to the end of the line.
 */
const SSH_LINE = /(?:^|\s)((?:ssh-|ecdsa-sha2-|sk-)[\w.@-]+\s+AAAA[A-Za-z0-9+/]*={0,2}(?:\s.*)?)$/

/** The one public key line of an OpenSSH public key text, blank and # comment lines aside; undefined when there is none. */
function sshLineOf(text: string): string | undefined {
  const lines = text.split(/\r\n|\n|\r/).filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
  const keys = lines.map((line) => SSH_LINE.exec(line.trim())?.[1])
  if (keys.length === 0 || keys[0] === undefined) return undefined
  if (keys.length > 1) throw limitExceeded(`input holds ${keys.length} lines; one key per call is read`, { field: 'input', limit: 1 })
  return keys[0]
}

/** Reads any of the encodings this operation knows, telling them apart by their first characters. */
async function readKey(text: string, passphrase: string | undefined): Promise<ReadKey> {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) return readJwk(trimmed, passphrase)
  if (isRfc4716(text)) {
    const { key, comment } = readRfc4716(text)
    return fromPublic(key, { format: 'rfc4716', encrypted: false, comment, warnings: passphrase === undefined ? [] : [PASSPHRASE_UNUSED] })
  }
  const blocks = pemBlocksOf(text)
  if (blocks.length === 1) return readPem(blocks[0], passphrase)
  const line = sshLineOf(trimmed)
  if (line !== undefined) {
    const { key, comment } = readPublicLine(line)
    return fromPublic(key, { format: 'openssh', encrypted: false, comment, warnings: passphrase === undefined ? [] : [PASSPHRASE_UNUSED] })
  }
  const der = readDer(trimmed, passphrase)
  if (der !== undefined) return der
  throw invalidInput(
    'input is not a key: expected a PEM block (PKCS#8, PKCS#1, SEC1, SPKI, OpenSSH), an OpenSSH public key line, an RFC 4716 public key, a JWK, or DER as base64',
    { field: 'input' },
  )
}

// ---- What is said of a key ----

interface Fingerprints {
  sha256?: string
  md5?: string
  bubbleBabble?: string
  jwkThumbprint?: string
  spkiSha256: string
}

/** The public JWK node:crypto writes, members in RFC 7517's usual order; undefined for keys JOSE has no form for (RSA-PSS). */
function publicJwkOf(publicKey: KeyObject): JsonWebKey | undefined {
  try {
    return orderedJwk(publicKey.export({ format: 'jwk' }))
  } catch {
    return undefined
  }
}

const JWK_ORDER = ['kty', 'crv', 'n', 'e', 'x', 'y', 'd', 'p', 'q', 'dp', 'dq', 'qi']
function orderedJwk(jwk: JsonWebKey): JsonWebKey {
  return Object.fromEntries(JWK_ORDER.filter((member) => jwk[member] !== undefined).map((member) => [member, jwk[member]])) as JsonWebKey
}

async function fingerprintsOf(publicKey: KeyObject): Promise<Fingerprints> {
  const facts = publicKeyFacts(publicKey)
  const jwk = publicJwkOf(publicKey)
  const fingerprints: Fingerprints = { spkiSha256: facts.spkiSha256 }
  if (jwk !== undefined && sshKeyType(jwk) !== undefined) Object.assign(fingerprints, sshFingerprints(jwk))
  if (jwk !== undefined) fingerprints.jwkThumbprint = await (await jose()).calculateJwkThumbprint(jwk as import('jose').JWK, 'sha256')
  return {
    ...(fingerprints.sha256 ? { sha256: fingerprints.sha256, md5: fingerprints.md5, bubbleBabble: fingerprints.bubbleBabble } : {}),
    ...pick(fingerprints),
  }
}

const pick = ({ jwkThumbprint, spkiSha256 }: Fingerprints) => (jwkThumbprint === undefined ? { spkiSha256 } : { jwkThumbprint, spkiSha256 })

type KeyType = (typeof KEY_TYPES)[number]

function sizeAndCurve(publicKey: KeyObject): { type: KeyType; bits?: number; curve?: string } {
  const facts = publicKeyFacts(publicKey)
  return {
    type: facts.type as KeyType,
    ...(facts.bits === undefined ? {} : { bits: facts.bits }),
    ...(facts.curve === undefined ? {} : { curve: facts.curve }),
  }
}

function describe(read: ReadKey, facts: { type: string; bits?: number; curve?: string }): string {
  let what = TYPE_NAMES[facts.type] ?? facts.type
  if (facts.type === 'rsa' || facts.type === 'rsa-pss') what += ` ${facts.bits}-bit`
  if (facts.type === 'ec') what += ` ${facts.curve}`
  const format = read.encoding === 'DER' ? `${FORMAT_NAMES[read.format]} DER` : FORMAT_NAMES[read.format]
  return `${what} ${read.isPrivate ? 'private' : 'public'} key, ${format}${read.encrypted ? ', encrypted' : ''}`
}

function keyWarnings(facts: { type: string; bits?: number }): string[] {
  if ((facts.type === 'rsa' || facts.type === 'rsa-pss') && facts.bits !== undefined && facts.bits < 2048)
    return [`An RSA key of ${facts.bits} bits is too short for use today; NIST SP 800-131A asks for at least 2048`]
  return []
}

// ---- Writing a key ----

const notAvailable = (target: Target, type: string) =>
  invalidInput(`to ${target}: format not available for this key type (${TYPE_NAMES[type] ?? type})`, { field: 'to', keyType: type })

/** The key written in `target`: a private form when `privateKey` is given, else a public one. */
async function write(
  target: Target,
  keys: { publicKey: KeyObject; privateKey?: KeyObject },
  { comment, passphrase, rounds }: { comment: string; passphrase?: string; rounds: number },
): Promise<string> {
  const { publicKey, privateKey } = keys
  const type = publicKey.asymmetricKeyType ?? 'unknown'
  const cipher = passphrase === undefined ? {} : { cipher: 'aes-256-cbc', passphrase }
  switch (target) {
    case 'pkcs8':
      return privateKey!.export({ type: 'pkcs8', format: 'pem', ...cipher }) as string
    case 'pkcs1':
      if (type !== 'rsa') throw notAvailable(target, type)
      return (privateKey ?? publicKey).export({ type: 'pkcs1', format: 'pem' }) as string
    case 'sec1':
      if (type !== 'ec') throw notAvailable(target, type)
      return privateKey!.export({ type: 'sec1', format: 'pem' }) as string
    case 'spki':
      return publicKey.export({ type: 'spki', format: 'pem' }) as string
    case 'jwk': {
      if (publicJwkOf(publicKey) === undefined) throw notAvailable(target, type)
      return JSON.stringify(orderedJwk((privateKey ?? publicKey).export({ format: 'jwk' })))
    }
    case 'openssh':
    case 'rfc4716': {
      const jwk = publicJwkOf(publicKey)
      if (jwk === undefined || sshKeyType(jwk) === undefined) throw notAvailable(target, type)
      if (target === 'rfc4716') return rfc4716(jwk, comment)
      if (privateKey === undefined) return publicLine(jwk, comment)
      return openSshPrivate(orderedJwk(privateKey.export({ format: 'jwk' })), comment, passphrase, rounds)
    }
  }
}

// ---- The actions ----

interface Fields {
  action: Action
  type: (typeof TYPES)[number]
  bits?: number
  curve?: (typeof CURVES)[number]
  format: (typeof GENERATE_FORMATS)[number]
  comment?: string
  passphrase?: string
  rounds: number
  input?: string
  to?: Target
  publicOnly: boolean
  outputPassphrase?: string
}

/** The fields without a default that each action reads; any other one given is a 400, never silently ignored. */
const FIELDS_OF: Record<Action, ReadonlyArray<keyof Fields>> = {
  generate: ['bits', 'curve', 'comment', 'passphrase'],
  inspect: ['input', 'passphrase'],
  convert: ['input', 'to', 'passphrase', 'outputPassphrase', 'comment'],
}

function assertFieldsApply(fields: Fields): void {
  for (const field of ['bits', 'curve', 'comment', 'passphrase', 'input', 'to', 'outputPassphrase'] as const) {
    if (fields[field] !== undefined && !FIELDS_OF[fields.action].includes(field))
      throw validationError(field, `does not apply to action ${fields.action}; it takes ${FIELDS_OF[fields.action].join(', ')}`)
  }
}

const SSH_TYPES = new Set(['ed25519', 'ec', 'rsa'])

async function generate({ type, bits, curve, format, comment, passphrase, rounds }: Fields) {
  if (bits !== undefined && type !== 'rsa') throw validationError('bits', `applies only to type rsa, not ${type}`)
  if (curve !== undefined && type !== 'ec') throw validationError('curve', `applies only to type ec, not ${type}`)
  if (format === 'openssh' && (!SSH_TYPES.has(type) || curve === 'secp256k1'))
    throw validationError(
      'format',
      `openssh is not available for ${type === 'ec' ? 'the secp256k1 curve' : type}: SSH has Ed25519, ECDSA on P-256/384/521 and RSA keys`,
    )
  if (comment !== undefined && format !== 'openssh') throw validationError('comment', 'applies only to format openssh')
  if (passphrase !== undefined && format === 'jwk') throw validationError('passphrase', 'cannot encrypt a JWK; choose format pem or openssh to encrypt the key')
  const options = type === 'rsa' ? { modulusLength: bits ?? 3072, publicExponent: 65537 } : type === 'ec' ? { namedCurve: NODE_CURVES[curve ?? 'P-256'] } : {}
  const { privateKey, publicKey } = await generateKeyPairAsync(type, options)
  const settings = { comment: comment ?? '', passphrase, rounds }
  let result: string
  let publicText: string
  if (format === 'pem') {
    result = await write('pkcs8', { publicKey, privateKey }, settings)
    publicText = await write('spki', { publicKey }, settings)
  } else if (format === 'openssh') {
    result = await write('openssh', { publicKey, privateKey }, settings)
    publicText = await write('openssh', { publicKey }, settings)
  } else {
    result = await write('jwk', { publicKey, privateKey }, settings)
    publicText = await write('jwk', { publicKey }, settings)
  }
  return {
    result,
    action: 'generate' as const,
    format,
    encrypted: passphrase !== undefined,
    ...sizeAndCurve(publicKey),
    publicKey: publicText,
    fingerprints: await fingerprintsOf(publicKey),
  }
}

async function inspect({ input, passphrase }: Fields) {
  if (input === undefined) throw validationError('input', 'is required for inspect: the key, in any format this operation reads')
  const read = await readKey(input, passphrase)
  const facts = sizeAndCurve(read.publicKey)
  const jwk = publicJwkOf(read.publicKey)
  const ssh = jwk !== undefined && sshKeyType(jwk) !== undefined ? publicLine(jwk, read.comment ?? '') : undefined
  return {
    result: describe(read, facts),
    action: 'inspect' as const,
    format: read.format,
    isPrivate: read.isPrivate,
    encrypted: read.encrypted,
    ...facts,
    ...(read.comment === undefined ? {} : { comment: read.comment }),
    publicKey: {
      spki: read.publicKey.export({ type: 'spki', format: 'pem' }) as string,
      ...(ssh === undefined ? {} : { openssh: ssh }),
      ...(jwk === undefined ? {} : { jwk: jwk as Record<string, string> }),
    },
    fingerprints: await fingerprintsOf(read.publicKey),
    warnings: [...read.warnings, ...keyWarnings(facts)],
  }
}

const PUBLIC_TARGETS = new Set<Target>(['spki', 'rfc4716'])
const ENCRYPTABLE_TARGETS = new Set<Target>(['pkcs8', 'openssh'])

async function convert({ input, to, passphrase, outputPassphrase, publicOnly, comment, rounds }: Fields) {
  if (input === undefined) throw validationError('input', 'is required for convert: the key, in any format this operation reads')
  if (to === undefined) throw validationError('to', `is required for convert: one of ${TARGETS.join(', ')}`)
  const wantsPublic = publicOnly || PUBLIC_TARGETS.has(to)
  if (publicOnly && (to === 'pkcs8' || to === 'sec1'))
    throw validationError('publicOnly', `cannot be used with to ${to}, which holds private keys; use spki for a public key`)
  if (outputPassphrase !== undefined && (wantsPublic || !ENCRYPTABLE_TARGETS.has(to)))
    throw validationError('outputPassphrase', 'applies only to private keys written as pkcs8 or openssh')
  if (comment !== undefined && to !== 'openssh' && to !== 'rfc4716') throw validationError('comment', 'applies only to to openssh and rfc4716')
  const read = await readKey(input, passphrase)
  const type = read.publicKey.asymmetricKeyType ?? 'unknown'
  if (to === 'pkcs1' && type !== 'rsa') throw notAvailable(to, type)
  if (to === 'sec1' && type !== 'ec') throw notAvailable(to, type)
  const writePrivate = !wantsPublic && read.isPrivate
  if (!read.isPrivate && (to === 'pkcs8' || to === 'sec1'))
    throw invalidInput(`input is a public key, and ${to} holds private keys; use spki for a public key`, { field: 'to' })
  if (writePrivate && read.privateKey === undefined) throw PASSPHRASE_REQUIRED()
  if (outputPassphrase !== undefined && !writePrivate) throw validationError('outputPassphrase', 'applies only to private keys, and the input is a public key')
  const keys = writePrivate ? { publicKey: read.publicKey, privateKey: read.privateKey } : { publicKey: read.publicKey }
  const result = await write(to, keys, { comment: comment ?? read.comment ?? '', passphrase: outputPassphrase, rounds })
  const facts = sizeAndCurve(read.publicKey)
  return {
    result,
    action: 'convert' as const,
    format: to,
    isPrivate: writePrivate,
    encrypted: outputPassphrase !== undefined,
    ...facts,
    fingerprints: await fingerprintsOf(read.publicKey),
    warnings: [...read.warnings.filter((warning) => warning !== LEGACY_ENCRYPTION), ...keyWarnings(facts)],
  }
}

// ---- The operation ----

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
