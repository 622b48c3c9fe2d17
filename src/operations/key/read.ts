import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { assertValidEcScalar } from '../../lib/asn1/ec-scalar.ts'
import { assertPbeCost } from '../../lib/asn1/pbe-cost.ts'
import { type PemBlock, pemBlock, readPemBlocks } from '../../lib/asn1/pem.ts'
import { assertEcPairs, assertJwkConsistent, checkKeyObject } from './consistency.ts'
import { derKind } from './der-kind.ts'
import { FORMAT_NAMES, type Target } from './formats.ts'
import { isRfc4716, readOpenSshPrivate, readPublicLine, readRfc4716 } from './openssh.ts'

export type Format = Target

/** A key as read: its public half always, its private half when it holds one and could be decrypted. */
export interface ReadKey {
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

export const PASSPHRASE_REQUIRED = () => invalidInput('passphrase required: the key is encrypted; give its passphrase in passphrase', { field: 'passphrase' })
const WRONG_PASSPHRASE = () => invalidInput('passphrase does not decrypt the key', { field: 'passphrase' })
const PASSPHRASE_UNUSED = 'passphrase was given but the key is not encrypted; it was not used'
export const LEGACY_ENCRYPTION =
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
export async function readKey(text: string, passphrase: string | undefined): Promise<ReadKey> {
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
