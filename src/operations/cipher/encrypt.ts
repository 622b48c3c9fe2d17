import { randomBytes } from 'node:crypto'
import { validationError } from '../../core/errors.ts'
import { textToBytes } from '../../lib/bytes/encodings.ts'
import { type Algorithm, type AlgorithmSpec, encryptBytes, type Mode, SPECS } from './algorithms.ts'
import { deriveKey, isEvp, type Kdf } from './derivation.ts'
import { aadBytes, checkAeadFields, checkOpenssl, hexBytes, ivOf, type Material, materialOf, refuseGiven } from './fields.ts'
import { OPENSSL_MAGIC, OPENSSL_SALT_BYTES, opensslCommand, SALT_BYTES, wrapBase64 } from './framing.ts'
import type { CipherInput } from './schema.ts'

export const warn = {
  ivGiven: (mode: Mode) =>
    `An IV was given: never use it again with the same key${mode === 'ctr' ? ' (CTR with a repeated IV gives away the XOR of the plaintexts)' : ' (with GCM or ChaCha20-Poly1305 a repeated nonce gives away the plaintexts and lets tags be forged)'}; leave iv out to get a random one.`,
  evp: (kdf: Kdf) =>
    `${kdf} is OpenSSL’s legacy EVP_BytesToKey, one round of ${kdf === 'evp-md5' ? 'MD5' : 'SHA-256'}: a passphrase is cheap to guess through it; prefer pbkdf2-sha256 (openssl enc -pbkdf2) for new data.`,
}

/**
 * The salt and IV to encrypt with: given and checked, or drawn. With format openssl there is no IV
 * yet: openssl enc derives it with the key.
 */
function saltAndIv(input: CipherInput, algorithm: Algorithm, material: Material, warnings: string[]): { salt?: Buffer; iv?: Buffer } {
  const spec: AlgorithmSpec = SPECS[algorithm]
  if (input.format === 'openssl') {
    checkOpenssl(input, algorithm, material.derivation)
    const salt = input.salt === undefined ? randomBytes(OPENSSL_SALT_BYTES) : hexBytes(input.salt, 'salt')
    if (salt.length !== OPENSSL_SALT_BYTES) throw validationError('salt', `must be ${OPENSSL_SALT_BYTES} bytes with format openssl, as openssl enc writes it`)
    return { salt }
  }
  let salt: Buffer | undefined
  if (material.derivation !== undefined) {
    if (isEvp(material.derivation.kdf)) {
      throw validationError('kdf', `${material.derivation.kdf} encrypts only with format openssl: it is a legacy derivation, kept for reading old data`)
    }
    salt = input.salt === undefined ? randomBytes(SALT_BYTES) : hexBytes(input.salt, 'salt')
    if (input.format === 'combined' && salt.length !== SALT_BYTES)
      throw validationError('salt', `must be ${SALT_BYTES} bytes with format combined, so the value can be read back`)
    if (salt.length < 8 || salt.length > 64) throw validationError('salt', `must be 8 to 64 bytes, not ${salt.length}`)
  }
  if (input.iv === undefined) return { salt, iv: randomBytes(spec.ivBytes) }
  const iv = ivOf(input.iv, algorithm)
  if (spec.mode !== 'cbc') warnings.push(warn.ivGiven(spec.mode))
  return { salt, iv }
}

/** The ciphertext as the format carries it. */
function framed(
  input: CipherInput,
  outputEncoding: 'base64' | 'hex',
  { salt, iv, ciphertext, tag }: { salt?: Buffer; iv: Buffer; ciphertext: Buffer; tag?: Buffer },
) {
  if (input.format === 'openssl') {
    const bytes = Buffer.concat([OPENSSL_MAGIC, salt!, ciphertext])
    return outputEncoding === 'base64' ? wrapBase64(bytes) : bytes.toString('hex')
  }
  if (input.format === 'combined') return Buffer.concat([salt ?? Buffer.alloc(0), iv, ciphertext, tag ?? Buffer.alloc(0)]).toString(outputEncoding)
  return ciphertext.toString(outputEncoding)
}

export async function encrypt(input: CipherInput, algorithm: Algorithm) {
  const spec: AlgorithmSpec = SPECS[algorithm]
  const { format } = input
  const inputEncoding = input.inputEncoding ?? 'utf8'
  const outputEncoding = input.outputEncoding ?? 'base64'
  if (outputEncoding !== 'base64' && outputEncoding !== 'hex') throw validationError('outputEncoding', 'must be base64 or hex to encrypt')
  refuseGiven(input, ['tag'], 'is made by encrypting, not given')
  checkAeadFields(input, algorithm)
  const material = materialOf(input, algorithm)
  const warnings: string[] = []
  const drawn = saltAndIv(input, algorithm, material, warnings)
  const { salt } = drawn
  let { iv } = drawn
  if (material.derivation !== undefined && isEvp(material.derivation.kdf)) warnings.push(warn.evp(material.derivation.kdf))
  // Decoded before the key derivation, so that a bad encoding is told without waiting for it.
  const plaintext = textToBytes(input.input, inputEncoding)
  const aad = input.aad === undefined ? undefined : aadBytes(input.aad, input.aadEncoding)

  let key = material.key
  if (material.derivation !== undefined) {
    // openssl enc derives the IV with the key; this service's own formats derive only the key.
    const derived = await deriveKey(material.derivation, material.passphrase!, salt!, spec.keyBytes + (iv === undefined ? spec.ivBytes : 0))
    key = derived.subarray(0, spec.keyBytes)
    iv ??= derived.subarray(spec.keyBytes)
  }
  const { ciphertext, tag } = encryptBytes(algorithm, key!, iv!, aad, plaintext)
  return {
    result: framed(input, outputEncoding, { salt, iv: iv!, ciphertext, tag }),
    action: 'encrypt' as const,
    algorithm,
    format,
    iv: iv!.toString('hex'),
    ...(tag === undefined ? {} : { tag: tag.toString('hex') }),
    ...(salt === undefined ? {} : { salt: salt.toString('hex') }),
    ...(material.derivation === undefined ? {} : { kdf: material.derivation.parameters }),
    ...(format === 'openssl' ? { opensslCommand: opensslCommand(algorithm, material.derivation!.parameters, outputEncoding) } : {}),
    warnings,
  }
}
