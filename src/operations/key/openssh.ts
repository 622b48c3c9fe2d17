/// <reference path="../../types/bcrypt-pbkdf.d.ts" />
import {
  createCipheriv,
  createDecipheriv,
  createECDH,
  createHash,
  createPrivateKey,
  createPublicKey,
  type JsonWebKey,
  type KeyObject,
  randomBytes,
} from 'node:crypto'
import { commonJsExports } from '../../core/commonjs.ts'
import { invalidInput, limitExceeded } from '../../core/errors.ts'
import { lazily } from '../../core/lazy.ts'

/*
 * OpenSSH's key encodings: the wire form of public keys (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4),
 * the one-line public key of authorized_keys, RFC 4716's SSH2 public key file, and the
 * openssh-key-v1 private key of OpenSSH's PROTOCOL.key, with its bcrypt KDF and AES encryption.
 */

/** bcrypt-pbkdf (OpenBSD's bcrypt_pbkdf), loaded with the first encrypted OpenSSH key. */
const bcryptPbkdf = lazily(async () => commonJsExports(await import('bcrypt-pbkdf')))

/** The most bcrypt KDF rounds read from or written to a key: each round costs about 15 ms here. */
export const MAX_ROUNDS = 100
const MAGIC = Buffer.from('openssh-key-v1\0', 'latin1')

/** The curves SSH names (RFC 5656 §10.1), by JOSE name, with node's name and the size of a coordinate. */
const SSH_CURVES: Record<string, { ssh: string; node: string; bytes: number }> = {
  'P-256': { ssh: 'nistp256', node: 'prime256v1', bytes: 32 },
  'P-384': { ssh: 'nistp384', node: 'secp384r1', bytes: 48 },
  'P-521': { ssh: 'nistp521', node: 'secp521r1', bytes: 66 },
}
const JOSE_BY_SSH = Object.fromEntries(Object.entries(SSH_CURVES).map(([jose, { ssh }]) => [ssh, jose]))

/** The ciphers openssh-key-v1 files are written with (OpenSSH's cipher.c), as node names them. */
const CIPHERS: Record<string, { node: string; keyBytes: number; ivBytes: number; blockBytes: number }> = {
  'aes128-ctr': { node: 'aes-128-ctr', keyBytes: 16, ivBytes: 16, blockBytes: 16 },
  'aes192-ctr': { node: 'aes-192-ctr', keyBytes: 24, ivBytes: 16, blockBytes: 16 },
  'aes256-ctr': { node: 'aes-256-ctr', keyBytes: 32, ivBytes: 16, blockBytes: 16 },
  'aes128-cbc': { node: 'aes-128-cbc', keyBytes: 16, ivBytes: 16, blockBytes: 16 },
  'aes192-cbc': { node: 'aes-192-cbc', keyBytes: 24, ivBytes: 16, blockBytes: 16 },
  'aes256-cbc': { node: 'aes-256-cbc', keyBytes: 32, ivBytes: 16, blockBytes: 16 },
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const fromB64url = (text: string | undefined) => Buffer.from(text ?? '', 'base64url')

/** The key types this codec reads and writes, as SSH names them. */
export type SshKeyType = 'ssh-ed25519' | 'ssh-rsa' | `ecdsa-sha2-${string}`

// ---- The wire: RFC 4251 §5 ----

/** Reads RFC 4251 values from a buffer; every length is checked against what remains before anything is taken. */
export class SshReader {
  private offset = 0
  constructor(
    private readonly bytes: Buffer,
    private readonly what: string,
  ) {}

  get remaining(): number {
    return this.bytes.length - this.offset
  }

  private fail(message: string): never {
    throw invalidInput(`${this.what} is not a valid OpenSSH encoding: ${message}`, { field: 'input' })
  }

  uint32(): number {
    if (this.remaining < 4) this.fail('it ends inside a 32-bit number')
    const value = this.bytes.readUInt32BE(this.offset)
    this.offset += 4
    return value
  }

  string(): Buffer {
    const length = this.uint32()
    if (length > this.remaining) this.fail(`a string claims ${length} bytes where ${this.remaining} remain`)
    const value = this.bytes.subarray(this.offset, this.offset + length)
    this.offset += length
    return value
  }

  text(): string {
    return this.string().toString('latin1')
  }

  utf8(): string {
    const bytes = this.string()
    const text = bytes.toString('utf8')
    if (!Buffer.from(text, 'utf8').equals(bytes)) this.fail('a text field is not UTF-8')
    return text
  }

  /** An mpint's magnitude, without its sign octet; a negative one is refused, since no key holds one. */
  mpint(): Buffer {
    const value = this.string()
    if (value.length > 0 && value[0] & 0x80) this.fail('a key number is negative')
    let start = 0
    while (start < value.length && value[start] === 0) start++
    return value.subarray(start)
  }

  rest(): Buffer {
    const value = this.bytes.subarray(this.offset)
    this.offset = this.bytes.length
    return value
  }

  end(): void {
    if (this.remaining !== 0) this.fail(`${this.remaining} bytes follow the key`)
  }
}

/** Writes RFC 4251 values. */
class SshWriter {
  private readonly parts: Buffer[] = []

  uint32(value: number): this {
    const bytes = Buffer.alloc(4)
    bytes.writeUInt32BE(value >>> 0)
    this.parts.push(bytes)
    return this
  }

  string(value: Uint8Array | string): this {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value)
    this.uint32(bytes.length)
    this.parts.push(bytes)
    return this
  }

  /** A non-negative integer given by its big-endian magnitude, as an mpint: minimal, with a sign octet where its top bit is set. */
  mpint(magnitude: Uint8Array): this {
    let start = 0
    while (start < magnitude.length && magnitude[start] === 0) start++
    const trimmed = Buffer.from(magnitude.subarray(start))
    return this.string(trimmed.length > 0 && trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed)
  }

  raw(bytes: Uint8Array): this {
    this.parts.push(Buffer.from(bytes))
    return this
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts)
  }
}

// ---- Public keys ----

/** The SSH name of a key's type, or undefined for keys SSH has no name for (X25519, Ed448, secp256k1…). */
export function sshKeyType(jwk: JsonWebKey): SshKeyType | undefined {
  if (jwk.kty === 'RSA') return 'ssh-rsa'
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'ssh-ed25519'
  if (jwk.kty === 'EC' && jwk.crv !== undefined && jwk.crv in SSH_CURVES) return `ecdsa-sha2-${SSH_CURVES[jwk.crv].ssh}`
  return undefined
}

/** The public key blob (RFC 4253 §6.6) of a public JWK whose type SSH names. */
export function publicBlob(jwk: JsonWebKey): Buffer {
  const type = sshKeyType(jwk)
  const writer = new SshWriter().string(type ?? '')
  if (type === 'ssh-rsa') return writer.mpint(fromB64url(jwk.e)).mpint(fromB64url(jwk.n)).bytes()
  if (type === 'ssh-ed25519') return writer.string(fromB64url(jwk.x)).bytes()
  const curve = SSH_CURVES[jwk.crv ?? '']
  const point = Buffer.concat([Buffer.from([4]), leftPad(fromB64url(jwk.x), curve.bytes), leftPad(fromB64url(jwk.y), curve.bytes)])
  return writer.string(curve.ssh).string(point).bytes()
}

function leftPad(bytes: Buffer, length: number): Buffer {
  return bytes.length >= length ? bytes : Buffer.concat([Buffer.alloc(length - bytes.length), bytes])
}

const UNSUPPORTED_TYPES: Array<[RegExp, string]> = [
  [/^ssh-dss/, 'DSA keys (ssh-dss) are not supported: OpenSSH removed them, and FIPS 186-5 withdrew DSA'],
  [/-cert-v01@openssh\.com$/, 'this is an OpenSSH certificate, not a key; give the key itself (the .pub file beside it)'],
  [/^sk-/, 'security-key types (sk-…@openssh.com) are not supported: they need the hardware token'],
]

/** Refuses a key type this codec does not read, saying why. */
function unsupportedType(type: string, what: string): never {
  for (const [pattern, reason] of UNSUPPORTED_TYPES)
    if (pattern.test(type)) throw invalidInput(`${what}: ${reason}`, { field: 'input', keyType: safeName(type) })
  throw invalidInput(`${what}: the key type ${JSON.stringify(safeName(type))} is not supported; ssh-ed25519, ecdsa-sha2-nistp256/384/521 and ssh-rsa are`, {
    field: 'input',
    keyType: safeName(type),
  })
}

/** A type name from the input, shortened and stripped of anything not printable, for a message. */
const safeName = (type: string) => type.replace(/[^\x21-\x7e]/g, '?').slice(0, 64)

/** Reads the public part of one key from the reader, as SSH orders its fields, into a public JWK. */
function readPublicFields(reader: SshReader, type: string, what: string): JsonWebKey {
  if (type === 'ssh-ed25519') {
    const x = reader.string()
    if (x.length !== 32) throw invalidInput(`${what}: an Ed25519 public key is 32 bytes, not ${x.length}`, { field: 'input' })
    return { kty: 'OKP', crv: 'Ed25519', x: b64url(x) }
  }
  if (type === 'ssh-rsa') {
    const e = reader.mpint()
    const n = reader.mpint()
    if (n.length === 0 || e.length === 0) throw invalidInput(`${what}: an RSA key needs a modulus and an exponent`, { field: 'input' })
    return { kty: 'RSA', n: b64url(n), e: b64url(e) }
  }
  const ecdsa = /^ecdsa-sha2-(.+)$/.exec(type)
  if (ecdsa !== null) {
    const curveName = reader.text()
    const crv = JOSE_BY_SSH[curveName]
    if (crv === undefined || curveName !== ecdsa[1])
      throw invalidInput(`${what}: the curve ${JSON.stringify(safeName(curveName))} is not one SSH defines (nistp256, nistp384, nistp521)`, { field: 'input' })
    const point = reader.string()
    const size = SSH_CURVES[crv].bytes
    if (point.length !== 1 + 2 * size || point[0] !== 4)
      throw invalidInput(`${what}: an ${crv} point is 0x04 and ${2 * size} bytes of coordinates`, { field: 'input' })
    return { kty: 'EC', crv, x: b64url(point.subarray(1, 1 + size)), y: b64url(point.subarray(1 + size)) }
  }
  return unsupportedType(type, what)
}

/** A public key blob, read whole: the key as a public JWK, checked by node:crypto (an EC point must lie on its curve). */
export function readPublicBlob(blob: Buffer, what: string): { jwk: JsonWebKey; key: KeyObject } {
  const reader = new SshReader(blob, what)
  const type = reader.text()
  const jwk = readPublicFields(reader, type, what)
  reader.end()
  return { jwk, key: importJwk(jwk, 'public', what) }
}

function importJwk(jwk: JsonWebKey, kind: 'public' | 'private', what: string): KeyObject {
  try {
    return kind === 'public' ? createPublicKey({ key: jwk, format: 'jwk' }) : createPrivateKey({ key: jwk, format: 'jwk' })
  } catch {
    throw invalidInput(`${what}: the key's numbers do not make a valid ${kind} key`, { field: 'input' })
  }
}

/** `type base64 comment`, as authorized_keys and .pub files hold it. */
export function publicLine(jwk: JsonWebKey, comment: string): string {
  const line = `${sshKeyType(jwk)} ${publicBlob(jwk).toString('base64')}`
  return comment === '' ? line : `${line} ${comment}`
}

const LINE = /^(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+([\s\S]*))?$/

/** Reads a one-line OpenSSH public key (its comment may hold spaces). */
export function readPublicLine(text: string): { jwk: JsonWebKey; key: KeyObject; comment: string } {
  const match = LINE.exec(text.trim())
  if (match === null) throw invalidInput('input is not an OpenSSH public key line: expected "type base64 [comment]"', { field: 'input' })
  const [, type, base64, comment = ''] = match
  const blob = Buffer.from(base64, 'base64')
  const inner = new SshReader(blob, 'the public key').text()
  if (inner !== type) {
    if (!UNSUPPORTED_TYPES.some(([pattern]) => pattern.test(type)))
      throw invalidInput(`input names the key type ${JSON.stringify(safeName(type))} but its base64 holds ${JSON.stringify(safeName(inner))}`, {
        field: 'input',
      })
  }
  return { ...readPublicBlob(blob, 'the public key'), comment: comment.trim() }
}

// ---- RFC 4716 ----

const RFC4716_BEGIN = '---- BEGIN SSH2 PUBLIC KEY ----'
const RFC4716_END = '---- END SSH2 PUBLIC KEY ----'

export const isRfc4716 = (text: string) => text.includes(RFC4716_BEGIN)

/** Reads an RFC 4716 public key file: its headers (continued with '\'), then the base64 of the blob. */
export function readRfc4716(text: string): { jwk: JsonWebKey; key: KeyObject; comment: string } {
  const lines = text.split(/\r\n|\n|\r/).map((line) => line.trim())
  const begin = lines.indexOf(RFC4716_BEGIN)
  const end = lines.indexOf(RFC4716_END, begin + 1)
  if (end < 0)
    throw invalidInput(`input begins an RFC 4716 public key at line ${begin + 1} but has no "${RFC4716_END}" line`, { field: 'input', line: begin + 1 })
  let comment = ''
  const body: string[] = []
  for (let i = begin + 1; i < end; i++) {
    let line = lines[i]
    if (body.length === 0 && line.includes(':')) {
      while (line.endsWith('\\') && i + 1 < end) line = line.slice(0, -1) + lines[++i]
      const colon = line.indexOf(':')
      const name = line.slice(0, colon).trim().toLowerCase()
      let value = line.slice(colon + 1).trim()
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1)
      if (name === 'comment') comment = value
      continue
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(line)) throw invalidInput(`input's RFC 4716 key is not base64 at line ${i + 1}`, { field: 'input', line: i + 1 })
    body.push(line)
  }
  const base64 = body.join('')
  if (base64.length === 0 || base64.length % 4 !== 0) throw invalidInput("input's RFC 4716 key is not whole base64", { field: 'input' })
  return { ...readPublicBlob(Buffer.from(base64, 'base64'), 'the RFC 4716 public key'), comment }
}

/** An RFC 4716 file: lines of at most 70 characters, a Comment header when there is a comment. */
export function rfc4716(jwk: JsonWebKey, comment: string): string {
  const base64 = publicBlob(jwk).toString('base64')
  const lines = [RFC4716_BEGIN]
  if (comment !== '') lines.push(...wrapHeader(`Comment: "${comment}"`))
  for (let i = 0; i < base64.length; i += 70) lines.push(base64.slice(i, i + 70))
  lines.push(RFC4716_END)
  return `${lines.join('\n')}\n`
}

/** A header line cut at 72 bytes with '\' continuations (RFC 4716 §3.3). */
function wrapHeader(line: string): string[] {
  const parts: string[] = []
  let rest = line
  while (Buffer.byteLength(rest) > 72) {
    let cut = 71
    while (Buffer.byteLength(rest.slice(0, cut)) > 71) cut--
    // Between two characters: never between the halves of a surrogate pair, which would leave neither one.
    const last = rest.charCodeAt(cut - 1)
    if (last >= 0xd800 && last <= 0xdbff) cut--
    parts.push(`${rest.slice(0, cut)}\\`)
    rest = rest.slice(cut)
  }
  parts.push(rest)
  return parts
}

// ---- Fingerprints ----

/**
 * `SHA256:…` (unpadded base64), `MD5:aa:bb:…` and the bubble babble of SHA-1, as `ssh-keygen -l`,
 * `ssh-keygen -l -E md5` and `ssh-keygen -B` print them.
 */
export function sshFingerprints(jwk: JsonWebKey): { sha256: string; md5: string; bubbleBabble: string } {
  const blob = publicBlob(jwk)
  const sha256 = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')
  const md5 = createHash('md5')
    .update(blob)
    .digest('hex')
    .replace(/(..)(?!$)/g, '$1:')
  return { sha256: `SHA256:${sha256}`, md5: `MD5:${md5}`, bubbleBabble: bubbleBabble(createHash('sha1').update(blob).digest()) }
}

const VOWELS = 'aeiouy'
const CONSONANTS = 'bcdfghklmnprstvzx'

/** Antti Huima's bubble babble encoding, as OpenSSH writes it (sshkey.c, fingerprint_bubblebabble). */
export function bubbleBabble(bytes: Uint8Array): string {
  const rounds = Math.floor(bytes.length / 2) + 1
  let seed = 1
  let text = 'x'
  for (let i = 0; i < rounds; i++) {
    if (i + 1 < rounds || bytes.length % 2 !== 0) {
      const byte = bytes[2 * i]
      text += VOWELS[(((byte >> 6) & 3) + seed) % 6] + CONSONANTS[(byte >> 2) & 15] + VOWELS[((byte & 3) + Math.floor(seed / 6)) % 6]
      if (i + 1 < rounds) {
        const next = bytes[2 * i + 1]
        text += `${CONSONANTS[(next >> 4) & 15]}-${CONSONANTS[next & 15]}`
        seed = (seed * 5 + byte * 7 + next) % 36
      }
    } else {
      text += VOWELS[seed % 6] + CONSONANTS[16] + VOWELS[Math.floor(seed / 6)]
    }
  }
  return `${text}x`
}

// ---- openssh-key-v1 private keys ----

/** What an openssh-key-v1 file says before it is decrypted. */
export interface OpenSshPrivate {
  cipher: string
  kdf: string
  rounds?: number
  encrypted: boolean
  publicJwk: JsonWebKey
  publicKey: KeyObject
  /** Present when the file is not encrypted, or once decrypted. */
  privateKey?: KeyObject
  comment?: string
}

/**
 * Reads an openssh-key-v1 key (OpenSSH PROTOCOL.key). Its public key is in clear, so an encrypted
 * file still tells what key it holds; with `passphrase` its private part is decrypted and checked
 * against the public one. A KDF asking for more than MAX_ROUNDS rounds is refused before it runs.
 */
export async function readOpenSshPrivate(der: Buffer, passphrase: string | undefined): Promise<OpenSshPrivate> {
  const what = 'the OpenSSH private key'
  if (der.length < MAGIC.length || !der.subarray(0, MAGIC.length).equals(MAGIC))
    throw invalidInput(`${what} does not begin with "openssh-key-v1"`, { field: 'input' })
  const reader = new SshReader(der.subarray(MAGIC.length), what)
  const cipher = reader.text()
  const kdf = reader.text()
  const kdfOptions = new SshReader(reader.string(), what)
  const count = reader.uint32()
  if (count !== 1) throw invalidInput(`${what} holds ${count} keys; one key per call is read`, { field: 'input' })
  const { jwk: publicJwk, key: publicKey } = readPublicBlob(reader.string(), what)
  const sealed = reader.string()
  reader.end()
  const encrypted = cipher !== 'none'
  if (encrypted && CIPHERS[cipher] === undefined)
    throw invalidInput(`${what} is encrypted with ${JSON.stringify(safeName(cipher))}; ${Object.keys(CIPHERS).join(', ')} are supported`, { field: 'input' })
  if (encrypted !== (kdf === 'bcrypt') || (!encrypted && kdf !== 'none'))
    throw invalidInput(`${what} pairs the cipher ${JSON.stringify(safeName(cipher))} with the KDF ${JSON.stringify(safeName(kdf))}`, { field: 'input' })
  const found: OpenSshPrivate = { cipher, kdf, encrypted, publicJwk, publicKey }
  let salt: Buffer = Buffer.alloc(0)
  if (encrypted) {
    salt = kdfOptions.string()
    found.rounds = kdfOptions.uint32()
    kdfOptions.end()
    if (found.rounds > MAX_ROUNDS)
      throw limitExceeded(`${what} asks for ${found.rounds} bcrypt KDF rounds, more than the ${MAX_ROUNDS} this service runs; it was not decrypted`, {
        field: 'input',
        parameter: 'rounds',
        limit: MAX_ROUNDS,
      })
    if (found.rounds < 1) throw invalidInput(`${what} asks for 0 bcrypt KDF rounds`, { field: 'input' })
    if (passphrase === undefined) return found
  } else {
    kdfOptions.end()
  }
  const blockBytes = encrypted ? CIPHERS[cipher].blockBytes : 8
  if (sealed.length % blockBytes !== 0) throw invalidInput(`${what}'s private section is not whole ${blockBytes}-byte blocks`, { field: 'input' })
  const plain: Buffer = encrypted ? await decrypt(sealed, cipher, passphrase!, salt, found.rounds!) : sealed
  const priv = new SshReader(plain, what)
  const [check1, check2] = [priv.uint32(), priv.uint32()]
  if (check1 !== check2) {
    if (encrypted) throw invalidInput('passphrase does not decrypt the key', { field: 'passphrase' })
    throw invalidInput(`${what}'s check numbers differ: the file is damaged`, { field: 'input' })
  }
  const type = priv.text()
  const jwk = readPrivateFields(priv, type, what)
  found.comment = priv.utf8()
  const padding = priv.rest()
  if (padding.length >= blockBytes || padding.some((byte, index) => byte !== index + 1))
    throw invalidInput(`${what}'s padding is not 1, 2, 3…: the file is damaged`, { field: 'input' })
  const privateKey = importJwk(jwk, 'private', what)
  const derived = createPublicKey(privateKey).export({ format: 'jwk' })
  if (!publicBlob(derived).equals(publicBlob(publicJwk))) throw invalidInput(`${what}'s private part does not match its public key`, { field: 'input' })
  found.privateKey = privateKey
  return found
}

function readPrivateFields(reader: SshReader, type: string, what: string): JsonWebKey {
  if (type === 'ssh-ed25519') {
    const { x } = readPublicFields(reader, type, what)
    const secret = reader.string()
    if (secret.length !== 64 || b64url(secret.subarray(32)) !== x)
      throw invalidInput(`${what}: an Ed25519 private key is its 32-byte seed and its public key`, { field: 'input' })
    const jwk = { kty: 'OKP', crv: 'Ed25519', x, d: b64url(secret.subarray(0, 32)) }
    return jwk
  }
  if (type === 'ssh-rsa') {
    const [n, e, d, qi, p, q] = [reader.mpint(), reader.mpint(), reader.mpint(), reader.mpint(), reader.mpint(), reader.mpint()]
    const [bigD, bigP, bigQ] = [d, p, q].map(toBigInt)
    if (bigP < 2n || bigQ < 2n) throw invalidInput(`${what}: an RSA key's primes are missing`, { field: 'input' })
    if (toBigInt(n) !== bigP * bigQ) throw invalidInput(`${what}: the RSA modulus is not the product of its primes`, { field: 'input' })
    const dp = fromBigInt(bigD % (bigP - 1n))
    const dq = fromBigInt(bigD % (bigQ - 1n))
    return { kty: 'RSA', n: b64url(n), e: b64url(e), d: b64url(d), p: b64url(p), q: b64url(q), dp: b64url(dp), dq: b64url(dq), qi: b64url(qi) }
  }
  if (type.startsWith('ecdsa-sha2-')) {
    const publicJwk = readPublicFields(reader, type, what)
    const curve = SSH_CURVES[publicJwk.crv!]
    const scalar = reader.mpint()
    if (scalar.length === 0 || scalar.length > curve.bytes)
      throw invalidInput(`${what}: the ${publicJwk.crv} private scalar is out of range`, { field: 'input' })
    return { ...publicJwk, d: b64url(leftPad(scalar, curve.bytes)) }
  }
  return unsupportedType(type, what)
}

const toBigInt = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`))

function fromBigInt(value: bigint): Buffer {
  const hex = value.toString(16)
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex')
}

export { toBigInt }

async function keyAndIv(cipher: string, passphrase: string, salt: Buffer, rounds: number): Promise<{ key: Buffer; iv: Buffer }> {
  const { keyBytes, ivBytes } = CIPHERS[cipher]
  const pass = Buffer.from(passphrase, 'utf8')
  const out = new Uint8Array(keyBytes + ivBytes)
  const { pbkdf } = await bcryptPbkdf()
  if (pbkdf(pass, pass.length, salt, salt.length, out, out.length, rounds) !== 0)
    throw invalidInput('the OpenSSH private key has a KDF salt or passphrase bcrypt_pbkdf refuses', { field: 'input' })
  return { key: Buffer.from(out.subarray(0, keyBytes)), iv: Buffer.from(out.subarray(keyBytes)) }
}

async function decrypt(sealed: Buffer, cipher: string, passphrase: string, salt: Buffer, rounds: number): Promise<Buffer> {
  if (salt.length === 0 || salt.length > 1024) throw invalidInput('the OpenSSH private key has a KDF salt of an unusable length', { field: 'input' })
  const { key, iv } = await keyAndIv(cipher, passphrase, salt, rounds)
  const decipher = createDecipheriv(CIPHERS[cipher].node, key, iv).setAutoPadding(false)
  return Buffer.concat([decipher.update(sealed), decipher.final()])
}

/** A private JWK's private fields in SSH order, for a type SSH names. */
function privateFields(writer: SshWriter, jwk: JsonWebKey): void {
  const type = sshKeyType(jwk)!
  writer.string(type)
  if (type === 'ssh-ed25519') {
    const x = fromB64url(jwk.x)
    writer.string(x).string(Buffer.concat([fromB64url(jwk.d), x]))
  } else if (type === 'ssh-rsa') {
    for (const member of ['n', 'e', 'd', 'qi', 'p', 'q'] as const) writer.mpint(fromB64url(jwk[member]))
  } else {
    const curve = SSH_CURVES[jwk.crv!]
    const point = Buffer.concat([Buffer.from([4]), leftPad(fromB64url(jwk.x), curve.bytes), leftPad(fromB64url(jwk.y), curve.bytes)])
    writer.string(curve.ssh).string(point).mpint(fromB64url(jwk.d))
  }
}

/** Writes an openssh-key-v1 private key, as `ssh-keygen` does: unencrypted, or with bcrypt and aes256-ctr when a passphrase is given. */
export async function openSshPrivate(jwk: JsonWebKey, comment: string, passphrase: string | undefined, rounds: number): Promise<string> {
  const cipher = passphrase === undefined ? 'none' : 'aes256-ctr'
  const blockBytes = passphrase === undefined ? 8 : CIPHERS[cipher].blockBytes
  const check = randomBytes(4)
  const inner = new SshWriter().raw(check).raw(check)
  privateFields(inner, jwk)
  inner.string(comment)
  let plain = inner.bytes()
  const padding = (blockBytes - (plain.length % blockBytes)) % blockBytes
  plain = Buffer.concat([plain, Buffer.from(Array.from({ length: padding }, (_, index) => index + 1))])
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk
  const outer = new SshWriter().raw(MAGIC).string(cipher)
  if (passphrase === undefined) {
    outer.string('none').string(new Uint8Array(0)).uint32(1).string(publicBlob(publicJwk)).string(plain)
  } else {
    const salt = randomBytes(16)
    const { key, iv } = await keyAndIv(cipher, passphrase, Buffer.from(salt), rounds)
    const encipher = createCipheriv(CIPHERS[cipher].node, key, iv)
    const sealed = Buffer.concat([encipher.update(plain), encipher.final()])
    outer.string('bcrypt').string(new SshWriter().string(salt).uint32(rounds).bytes()).uint32(1).string(publicBlob(publicJwk)).string(sealed)
  }
  // ssh-keygen wraps this block's base64 at 70 characters, not PEM's 64.
  const base64 = outer.bytes().toString('base64')
  const lines: string[] = []
  for (let i = 0; i < base64.length; i += 70) lines.push(base64.slice(i, i + 70))
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`
}

/** Derives an EC private key's public point, for checking a JWK's x and y against its d. */
export function ecPublicFromPrivate(nodeCurve: string, d: Buffer): Buffer {
  const ecdh = createECDH(nodeCurve)
  ecdh.setPrivateKey(d)
  return ecdh.getPublicKey()
}
