import { invalidInput, validationError } from '../../core/errors.ts'
import { bytesToText, textToBytes } from '../../lib/bytes/encodings.ts'
import { type Algorithm, type AlgorithmSpec, decryptBytes, isAead, SPECS, TAG_BYTES } from './algorithms.ts'
import { BOUNDS, deriveKey, isEvp, isPbkdf2 } from './derivation.ts'
import { aadBytes, checkAeadFields, checkOpenssl, hexBytes, ivOf, type Material, materialOf, refuseGiven } from './fields.ts'
import { OPENSSL_MAGIC, OPENSSL_SALT_BYTES, SALT_BYTES } from './framing.ts'
import type { CipherInput } from './schema.ts'

/** What a format carries beside the ciphertext, and what a bad padding's message adds for it. */
interface Framed {
  salt?: Buffer
  iv?: Buffer
  ciphertext: Buffer
  tag?: Buffer
  hint: string
}

/** `Salted__`, the salt and the ciphertext, as openssl enc writes them; the key and IV come from the passphrase. */
function readOpenssl(input: CipherInput, algorithm: Algorithm, material: Material, bytes: () => Buffer): Framed {
  checkOpenssl(input, algorithm, material.derivation)
  refuseGiven(input, ['salt'], 'cannot be given with format openssl: it is read from the value, after Salted__')
  const data = bytes()
  if (data.length < OPENSSL_MAGIC.length + OPENSSL_SALT_BYTES || !data.subarray(0, OPENSSL_MAGIC.length).equals(OPENSSL_MAGIC)) {
    throw invalidInput(
      'input is not openssl enc output: it does not start with the Salted__ header (base64 U2FsdGVkX1…) and its 8-byte salt; openssl writes none when given -S, so such output needs format fields with salt and iv',
      { field: 'input' },
    )
  }
  const hint = isPbkdf2(material.derivation!.kdf)
    ? `; check the passphrase, kdf (openssl -md) and iterations (openssl enc -pbkdf2 without -iter uses 10000, this service ${BOUNDS.pbkdf2Iterations.default} by default)`
    : ''
  return {
    salt: data.subarray(OPENSSL_MAGIC.length, OPENSSL_MAGIC.length + OPENSSL_SALT_BYTES),
    ciphertext: data.subarray(OPENSSL_MAGIC.length + OPENSSL_SALT_BYTES),
    hint,
  }
}

/** salt? ‖ iv ‖ ciphertext ‖ tag? as one value. */
function readCombined(input: CipherInput, algorithm: Algorithm, material: Material, bytes: () => Buffer): Framed {
  const spec: AlgorithmSpec = SPECS[algorithm]
  if (material.derivation !== undefined && isEvp(material.derivation.kdf))
    throw validationError('kdf', `${material.derivation.kdf} cannot be used with format combined: its data comes as openssl enc output (format openssl)`)
  refuseGiven(input, ['salt', 'iv', 'tag'], 'cannot be given with format combined: it is read from the value')
  const data = bytes()
  const saltBytes = material.derivation === undefined ? 0 : SALT_BYTES
  const tagBytes = isAead(spec) ? TAG_BYTES : 0
  const least = saltBytes + spec.ivBytes + tagBytes
  if (data.length < least) {
    const parts = [saltBytes ? `salt (${saltBytes})` : '', `iv (${spec.ivBytes})`, tagBytes ? `tag (${tagBytes})` : ''].filter(Boolean).join(' + ')
    throw invalidInput(`input is ${data.length} bytes, shorter than a combined value of ${algorithm} can be: ${parts} = ${least} bytes`, { field: 'input' })
  }
  return {
    ...(saltBytes ? { salt: data.subarray(0, saltBytes) } : {}),
    iv: data.subarray(saltBytes, saltBytes + spec.ivBytes),
    ciphertext: data.subarray(saltBytes + spec.ivBytes, data.length - tagBytes),
    ...(tagBytes ? { tag: data.subarray(data.length - tagBytes) } : {}),
    hint: '',
  }
}

/** The ciphertext alone, with the IV, salt and tag given beside it. */
function readFields(input: CipherInput, algorithm: Algorithm, material: Material, bytes: () => Buffer): Framed {
  const spec: AlgorithmSpec = SPECS[algorithm]
  const evp = material.derivation !== undefined && isEvp(material.derivation.kdf)
  let iv: Buffer | undefined
  let salt: Buffer | undefined
  let tag: Buffer | undefined
  if (input.iv !== undefined) iv = ivOf(input.iv, algorithm)
  else if (!evp) throw validationError('iv', `is required to decrypt with format fields: the ${spec.ivBytes}-byte IV the data was encrypted with`)
  if (material.derivation !== undefined) {
    if (input.salt === undefined) throw validationError('salt', 'is required to decrypt with a passphrase and format fields: the salt the key was derived with')
    salt = hexBytes(input.salt, 'salt')
    if (evp && salt.length !== OPENSSL_SALT_BYTES) throw validationError('salt', `must be ${OPENSSL_SALT_BYTES} bytes for ${material.derivation.kdf}`)
    if (salt.length < 8 || salt.length > 64) throw validationError('salt', `must be 8 to 64 bytes, not ${salt.length}`)
  }
  if (isAead(spec)) {
    if (input.tag === undefined)
      throw validationError('tag', `is required to decrypt ${algorithm} with format fields: the ${TAG_BYTES}-byte authentication tag`)
    tag = hexBytes(input.tag, 'tag')
    if (tag.length !== TAG_BYTES) {
      throw invalidInput(`tag is ${tag.length} bytes; ${algorithm} tags here are ${TAG_BYTES} bytes (a shorter tag is refused, never accepted as a prefix)`, {
        field: 'tag',
      })
    }
  }
  return { salt, iv, ciphertext: bytes(), tag, hint: '' }
}

const READERS = { openssl: readOpenssl, combined: readCombined, fields: readFields }

export async function decrypt(input: CipherInput, algorithm: Algorithm) {
  const spec: AlgorithmSpec = SPECS[algorithm]
  const { format } = input
  const inputEncoding = input.inputEncoding ?? 'base64'
  if (inputEncoding !== 'base64' && inputEncoding !== 'hex') throw validationError('inputEncoding', 'must be base64 or hex to decrypt: ciphertext is bytes')
  checkAeadFields(input, algorithm)
  const material = materialOf(input, algorithm)
  // Decoded after the fields are checked, so that a refused field is told before anything about the content.
  const bytes = () => textToBytes(input.input, inputEncoding)
  const aad = input.aad === undefined ? undefined : aadBytes(input.aad, input.aadEncoding)
  const { salt, ciphertext, tag, hint, ...read } = READERS[format](input, algorithm, material, bytes)
  let { iv } = read
  if (spec.mode === 'cbc' && (ciphertext.length === 0 || ciphertext.length % 16 !== 0)) {
    throw invalidInput(`the ciphertext is ${ciphertext.length} bytes; CBC ciphertext is a whole number of 16-byte blocks, at least one`, { field: 'input' })
  }

  let key = material.key
  if (material.derivation !== undefined) {
    if (format === 'openssl' || isEvp(material.derivation.kdf)) {
      const derived = await deriveKey(material.derivation, material.passphrase!, salt!, spec.keyBytes + spec.ivBytes)
      key = derived.subarray(0, spec.keyBytes)
      iv ??= derived.subarray(spec.keyBytes)
    } else {
      key = await deriveKey(material.derivation, material.passphrase!, salt!, spec.keyBytes)
    }
  }
  const plaintext = decryptBytes(algorithm, key!, iv!, aad, ciphertext, tag, hint)
  return { result: bytesToText(plaintext, input.outputEncoding ?? 'utf8'), action: 'decrypt' as const, algorithm, format }
}
