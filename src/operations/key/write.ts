import type { KeyObject } from 'node:crypto'
import { invalidInput } from '../../core/errors.ts'
import { orderedJwk, publicJwkOf } from './describe.ts'
import { type Target, TYPE_NAMES } from './formats.ts'
import { openSshPrivate, publicLine, rfc4716, sshKeyType } from './openssh.ts'

export const notAvailable = (target: Target, type: string) =>
  invalidInput(`to ${target}: format not available for this key type (${TYPE_NAMES[type] ?? type})`, { field: 'to', keyType: type })

/** The key written in `target`: a private form when `privateKey` is given, else a public one. */
export async function write(
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
