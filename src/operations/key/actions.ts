import { generateKeyPair, type KeyObject } from 'node:crypto'
import { promisify } from 'node:util'
import { invalidInput, validationError } from '../../core/errors.ts'
import { describe, fingerprintsOf, keyWarnings, publicJwkOf, sizeAndCurve } from './describe.ts'
import { type Action, type CURVES, type GENERATE_FORMATS, NODE_CURVES, TARGETS, type Target, type TYPES } from './formats.ts'
import { publicLine, sshKeyType } from './openssh.ts'
import { LEGACY_ENCRYPTION, PASSPHRASE_REQUIRED, readKey } from './read.ts'
import { notAvailable, write } from './write.ts'

const generateKeyPairAsync = promisify(generateKeyPair) as (type: string, options: object) => Promise<{ privateKey: KeyObject; publicKey: KeyObject }>

export interface Fields {
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

export function assertFieldsApply(fields: Fields): void {
  for (const field of ['bits', 'curve', 'comment', 'passphrase', 'input', 'to', 'outputPassphrase'] as const) {
    if (fields[field] !== undefined && !FIELDS_OF[fields.action].includes(field))
      throw validationError(field, `does not apply to action ${fields.action}; it takes ${FIELDS_OF[fields.action].join(', ')}`)
  }
}

const SSH_TYPES = new Set(['ed25519', 'ec', 'rsa'])

export async function generate({ type, bits, curve, format, comment, passphrase, rounds }: Fields) {
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

export async function inspect({ input, passphrase }: Fields) {
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

export async function convert({ input, to, passphrase, outputPassphrase, publicOnly, comment, rounds }: Fields) {
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
