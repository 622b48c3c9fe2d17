import type { Algorithm } from './algorithms.ts'
import { isPbkdf2, type KdfParameters } from './derivation.ts'

/** How the formats carry what decrypting needs: combined's salt of one size, openssl enc's header, and the openssl line that decrypts. */

/** The salt this service draws for its own formats; `combined` needs one fixed size to be read back. */
export const SALT_BYTES = 16
/** The size of the salt `openssl enc` writes after its magic, whatever the cipher. */
export const OPENSSL_SALT_BYTES = 8
export const OPENSSL_MAGIC = Buffer.from('Salted__', 'latin1')

export function wrapBase64(bytes: Buffer): string {
  return `${(bytes.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n`
}

export function opensslCommand(algorithm: Algorithm, parameters: KdfParameters, outputEncoding: 'base64' | 'hex'): string {
  const kdf = isPbkdf2(parameters.name)
    ? `-pbkdf2 -iter ${parameters.iterations} -md ${parameters.name.slice('pbkdf2-'.length)}`
    : `-md ${parameters.name.slice(4)}`
  const command = `openssl enc -d -${algorithm} ${kdf}`
  return outputEncoding === 'base64' ? `${command} -a` : `xxd -r -p | ${command}`
}
