import { JsonText } from './helpers.ts'

/** Builders of the inputs operations' hostile rows send (src/operations/<name>/test-rows.ts). */

/** JSON text nested `depth` deep, sent as it is. */
export const deepArray = (depth: number) => new JsonText('['.repeat(depth) + ']'.repeat(depth))
export const deepObject = (depth: number) => new JsonText(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)

/** Nine lists of nine `lol`s, each list made of nine aliases of the one before. */
export const BILLION_LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...Array.from({ length: 8 }, (_, i) => {
    const [name, previous] = [String.fromCharCode(98 + i), String.fromCharCode(97 + i)]
    return `${name}: &${name} [${Array.from({ length: 9 }, () => `*${previous}`).join(',')}]`
  }),
].join('\n')

/** An SSH wire string (RFC 4251 §5): its length, then its bytes. */
export const sshString = (bytes: Buffer | string) => {
  const value = Buffer.from(bytes)
  const length = Buffer.alloc(4)
  length.writeUInt32BE(value.length)
  return Buffer.concat([length, value])
}
export const sshUint32 = (value: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(value)
  return bytes
}
export const opensshPem = (...parts: Buffer[]) =>
  `-----BEGIN OPENSSH PRIVATE KEY-----\n${Buffer.concat([Buffer.from('openssh-key-v1\0', 'latin1'), ...parts]).toString('base64')}\n-----END OPENSSH PRIVATE KEY-----\n`
/** RFC 8037's Ed25519 public key as an SSH blob. */
export const ED25519_BLOB = Buffer.concat([
  sshString('ssh-ed25519'),
  sshString(Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex')),
])
/** An Ed25519 key encrypted with PBKDF2 of 5,000,000 iterations (openssl pkcs8 -topk8 -v2 aes-256-cbc -iter 5000000). */
export const PBKDF2_5M_KEY =
  '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIGcMFgGCSqGSIb3DQEFDTBLMCoGCSqGSIb3DQEFDDAdBAhHAScMH/ibpQIDTEtA\nMAwGCCqGSIb3DQIJBQAwHQYJYIZIAWUDBAEqBBBDcDRPCIHCbG9d4aJcHfOoBEAS\n8l76YbcEkdGoBEcwfuwkHbEz8pr15msqIj+KPNRlSi1iiB0MiSfHs3arVtpk7L8a\n/ir8e86JHOoNjdbUDUUr\n-----END ENCRYPTED PRIVATE KEY-----\n'
/** That key with its outer length written in 5 octets, leading zeros first: BER that OpenSSL reads, DER does not allow. */
export const PBKDF2_5M_BER_KEY = (() => {
  const der = Buffer.from(PBKDF2_5M_KEY.replace(/-----[^-]+-----|\s/g, ''), 'base64')
  const body = der.subarray(2 + (der[1] & 0x7f))
  const ber = Buffer.concat([Buffer.from([0x30, 0x85, 0, 0, 0, body.length >> 8, body.length & 0xff]), body])
  return `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${ber.toString('base64')}\n-----END ENCRYPTED PRIVATE KEY-----\n`
})()

/** DER by hand (ITU-T X.690), for certificates no tool would make. */
export function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts)
  const n = body.length
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]
  return Buffer.concat([Buffer.from([tag, ...length]), body])
}
export const ECDSA_SHA256 = Buffer.from('300a06082a8648ce3d040302', 'hex')
export const P256_SPKI = Buffer.from(
  '3059301306072a8648ce3d020106082a8648ce3d030107034200041194317f7606cad5d27540157d382a89ed5e462c4cf9db1b627b0a25e6278e7835e6b8a5861ddac3054c8d2fbfc17c16bd323c11aa12b44a7e66ebc47fd5eae8',
  'hex',
)
/** A v3 certificate with these DNS names and key; its signature is not a real one (parse reports it, never trusts it). */
export function certificateWithNames(dnsNames: string[], spki: Buffer = P256_SPKI): Buffer {
  const name = der(0x30, der(0x31, der(0x30, Buffer.from('0603550403', 'hex'), der(0x0c, Buffer.from('hostile')))))
  const time = (text: string) => der(0x17, Buffer.from(text))
  const san = der(0x30, Buffer.from('0603551d11', 'hex'), der(0x04, der(0x30, Buffer.concat(dnsNames.map((dns) => der(0x82, Buffer.from(dns, 'latin1')))))))
  const tbs = der(
    0x30,
    der(0xa0, Buffer.from('020102', 'hex')),
    Buffer.from('020101', 'hex'),
    ECDSA_SHA256,
    name,
    der(0x30, time('260101000000Z'), time('270101000000Z')),
    name,
    spki,
    der(0xa3, der(0x30, san)),
  )
  return der(0x30, tbs, ECDSA_SHA256, der(0x03, Buffer.alloc(72, 1)))
}
export const certificatePem = (bytes: Buffer) => `-----BEGIN CERTIFICATE-----\n${bytes.toString('base64')}\n-----END CERTIFICATE-----\n`
/** SEQUENCEs nested `depth` deep, built from the inside out. */
export function nestedSequences(depth: number): Buffer {
  const headers: Buffer[] = []
  let length = 0
  for (let level = 0; level < depth; level++) {
    const header = Buffer.from(
      length < 0x80
        ? [0x30, length]
        : length < 0x100
          ? [0x30, 0x81, length]
          : length < 0x10000
            ? [0x30, 0x82, length >> 8, length & 0xff]
            : [0x30, 0x83, length >> 16, (length >> 8) & 0xff, length & 0xff],
    )
    headers.push(header)
    length += header.length
  }
  return Buffer.concat(headers.reverse())
}
export const LYING_LENGTH = (() => {
  const bytes = certificateWithNames(['a.example'])
  bytes[2] = 0xff
  return bytes
})()

/** A PNG whose header claims 6000×6000 pixels, followed by nothing that decodes: a decompression bomb's header. */
export const PNG_BOMB = (() => {
  const bytes = Buffer.alloc(64)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(bytes)
  bytes.write('IHDR', 12, 'latin1')
  bytes.writeUInt32BE(6000, 16)
  bytes.writeUInt32BE(6000, 20)
  return bytes.toString('base64')
})()
