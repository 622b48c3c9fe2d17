import assert from 'node:assert/strict'
import { ED25519_BLOB, opensshPem, PBKDF2_5M_BER_KEY, PBKDF2_5M_KEY, sshString, sshUint32 } from '../../../test/hostile-builders.ts'
import { hostile, type OperationTestRows } from '../../../test/test-rows.ts'

/** key's rows in the registry-wide tests, which read them from this folder (test/collected-rows.ts). */
export const testRows: OperationTestRows = {
  hostile: [
    hostile(
      'key: an OpenSSH private key whose first string claims 4 GiB',
      { action: 'inspect', input: opensshPem(sshUint32(0xfffffff0)) },
      422,
      'INVALID_INPUT',
    ),
    hostile(
      'key: an OpenSSH private key asking for 4,294,967,295 bcrypt KDF rounds',
      {
        action: 'inspect',
        passphrase: 'x',
        input: opensshPem(
          sshString('aes256-ctr'),
          sshString('bcrypt'),
          sshString(Buffer.concat([sshString(Buffer.alloc(16)), sshUint32(0xffffffff)])),
          sshUint32(1),
          sshString(ED25519_BLOB),
          sshString(Buffer.alloc(64)),
        ),
      },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'key: an OpenSSH private key claiming 4,294,967,295 keys',
      { action: 'inspect', input: opensshPem(sshString('none'), sshString('none'), sshString(''), sshUint32(0xffffffff), sshString(ED25519_BLOB)) },
      422,
      'INVALID_INPUT',
    ),
    hostile(
      'key: an SSH public key line whose key claims 2 GiB',
      { action: 'inspect', input: `ssh-ed25519 ${Buffer.concat([sshString('ssh-ed25519'), sshUint32(0x7fffffff)]).toString('base64')}` },
      422,
      'INVALID_INPUT',
    ),
    hostile('key: a PKCS#8 key asking for 5,000,000 PBKDF2 iterations', { action: 'inspect', input: PBKDF2_5M_KEY, passphrase: 'x' }, 422, 'LIMIT_EXCEEDED'),
    hostile(
      'key: that PKCS#8 key with a BER length of 5 octets (leading zeros), which OpenSSL reads',
      { action: 'inspect', input: PBKDF2_5M_BER_KEY, passphrase: 'x' },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'key: an RSA JWK of 16,392 bits',
      { action: 'inspect', input: JSON.stringify({ kty: 'RSA', n: Buffer.alloc(2049, 0xff).toString('base64url'), e: 'AQAB' }) },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile(
      'key: a JWK nested 10,000 arrays deep',
      { action: 'inspect', input: `{"kty":"OKP","a":${'['.repeat(10_000)}${']'.repeat(10_000)}}` },
      422,
      'INVALID_INPUT',
    ),
    hostile(
      'key: three PEM blocks',
      { action: 'inspect', input: '-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n'.repeat(3) },
      422,
      'LIMIT_EXCEEDED',
    ),
    hostile('key: DER whose outer SEQUENCE claims 4 GiB', { action: 'inspect', input: 'MIT/////AAAA' }, 422, 'INVALID_INPUT'),
  ],
  heavy: [
    {
      summary: 'an RSA 4096 key written as OpenSSH with the most bcrypt KDF rounds and the longest passphrase',
      input: { action: 'generate', type: 'rsa', bits: 4096, format: 'openssh', passphrase: 'p'.repeat(1024), rounds: 100 },
    },
    {
      summary: 'the largest RSA key read (16,384 bits), with a passphrase that is not used',
      input: { action: 'inspect', input: JSON.stringify({ kty: 'RSA', n: Buffer.alloc(2048, 0xff).toString('base64url'), e: 'AQAB' }), passphrase: 'p' },
    },
  ],
  mcpTasks: [
    {
      task: 'show the fingerprint of my ssh public key',
      arguments: { action: 'inspect', input: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea me@host' },
      check: (data) => assert.equal((data.fingerprints as { sha256: string }).sha256, 'SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8'),
    },
  ],
}
