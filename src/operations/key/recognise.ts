import { defineRecogniser, suggest, unlessRefused } from '../../core/recognise.ts'
import { decodeBase64 } from '../../lib/bytes/base64.ts'

const SSH_KEY =
  /^(ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) ([A-Za-z0-9+/]+={0,2})(?: [^\r\n]*)?$/

/** How many SSH strings the public key blob of each type holds, its name first (RFC 4253, RFC 5656, RFC 8709, OpenSSH's PROTOCOL.u2f). */
const SSH_KEY_STRINGS: Readonly<Record<string, number>> = {
  'ssh-ed25519': 2,
  'ssh-rsa': 3,
  'ssh-dss': 5,
  'ecdsa-sha2-nistp256': 3,
  'ecdsa-sha2-nistp384': 3,
  'ecdsa-sha2-nistp521': 3,
  'sk-ssh-ed25519@openssh.com': 3,
  'sk-ecdsa-sha2-nistp256@openssh.com': 4,
}

/** The SSH strings (a 32-bit length, then as many bytes) that make up `blob` exactly; undefined where a length overruns it. */
function sshStrings(blob: Buffer): Buffer[] | undefined {
  const strings: Buffer[] = []
  let offset = 0
  while (offset < blob.length) {
    if (blob.length - offset < 4) return undefined
    const length = blob.readUInt32BE(offset)
    if (length > blob.length - offset - 4) return undefined
    strings.push(blob.subarray(offset + 4, offset + 4 + length))
    offset += 4 + length
  }
  return strings.length > 0 ? strings : undefined
}

export const sshPublicKey = defineRecogniser({
  type: 'sshPublicKey',
  label: 'SSH public key (OpenSSH)',
  recognise(text) {
    const match = SSH_KEY.exec(text)
    if (!match) return undefined
    const blob = unlessRefused(() => decodeBase64(match[2], { variant: 'standard', padding: match[2].includes('='), strict: true }))
    if (blob === undefined || blob.length < 4) return undefined
    // The key blob is SSH strings (RFC 4253 §6.6) from end to end, as many as its type has, the first
    // its type's own name, which must agree with the first word.
    const strings = sshStrings(blob)
    if (strings === undefined || strings[0].toString('latin1') !== match[1] || strings.length !== SSH_KEY_STRINGS[match[1]]) return undefined
    return { confidence: 95, details: { keyType: match[1] }, next: suggest('key', { action: 'inspect' }) }
  },
})
